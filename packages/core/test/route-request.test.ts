import { Agent, get as httpGet } from 'node:http';
import { connect } from 'node:net';
import type { RouteRequest, RouteResponse, Runtime, TriggerRoute } from '@weft/core';
import { ServerManager } from '@weft/core/node';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from './fixtures.js';

// A route handler sees the core's RouteRequest and RouteResponse, made from each real request.

const servers: ServerManager[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

async function serve(...routes: TriggerRoute[]): Promise<ServerManager> {
  const server = new ServerManager({ port: 0 }, silentLogger);
  servers.push(server);
  for (const route of routes) server.mount('test-plugin', route, {} as Runtime);
  await server.start();
  return server;
}

/** Sends raw bytes on a connection of their own; resolves with everything the server answered. */
function rawExchange(server: ServerManager, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port as number, '127.0.0.1', () => socket.end(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
}

/** A GET through `agent`, whose keep-alive socket the next request reuses; fails after 5 s. */
function get(url: string, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { agent, timeout: 5_000 }, (response) => {
      response.resume();
      response.on('end', () => resolve());
    });
    request.on('timeout', () => request.destroy(new Error(`no answer from ${url} in 5 s`)));
    request.on('error', reject);
  });
}

describe('the request a route handler reads', () => {
  it('has the method, path, url, named params, query, headers, header() and parsed body [claim:trig-route-request]', async () => {
    const server = await serve({
      type: 'route',
      id: 'note',
      method: 'POST',
      path: '/notes/:user/*rest',
      handler: (request, response) => {
        response.json({
          method: request.method,
          path: request.path,
          url: request.url,
          params: request.params,
          query: request.query,
          delivery: request.header('X-Delivery-Id'),
          rawHeader: request.headers['x-delivery-id'],
          missing: request.header('x-none') ?? null,
          body: request.body,
          keys: Object.keys(request).sort(),
        });
      },
    });
    const answer = await fetch(`${server.url}/notes/ada/a/b?tag=x&tag=y&limit=5`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-delivery-id': 'd-1' },
      body: JSON.stringify({ text: 'hi' }),
    });
    expect(answer.status).toBe(200);
    const seen = (await answer.json()) as Record<string, unknown>;
    expect(seen).toEqual({
      method: 'POST',
      path: '/notes/ada/a/b',
      url: '/notes/ada/a/b?tag=x&tag=y&limit=5',
      params: { user: 'ada', rest: 'a/b' },
      query: { tag: ['x', 'y'], limit: '5' },
      delivery: 'd-1',
      rawHeader: 'd-1',
      missing: null,
      body: { text: 'hi' },
      // Only what RouteRequest promises: nothing of express's request leaks through.
      keys: [
        'body',
        'connection',
        'header',
        'headers',
        'locals',
        'method',
        'params',
        'path',
        'query',
        'requestId',
        'url',
      ],
    });
  });

  it('reads a query parameter named like a member of Object.prototype as the client sent it [claim:trig-route-request]', async () => {
    let query: RouteRequest['query'] | undefined;
    const server = await serve({
      type: 'route',
      id: 'search',
      method: 'GET',
      path: '/search',
      handler: (request, response) => {
        query = request.query;
        response.end();
      },
    });
    const answer = await fetch(
      `${server.url}/search?constructor=x&toString=y&toString=z&__proto__=p&hasOwnProperty=h`,
    );
    expect(answer.status).toBe(200);
    expect(query && Object.entries(query)).toEqual([
      ['constructor', 'x'],
      ['toString', ['y', 'z']],
      ['__proto__', 'p'],
      ['hasOwnProperty', 'h'],
    ]);
    // A parameter the client did not send is absent, not a member inherited from Object.
    expect(query?.valueOf).toBeUndefined();
  });

  it('leaves a body sent as another type or with no Content-Type unparsed, and reads an empty JSON body as {} [claim:trig-unparsed-body] [claim:trig-empty-json-body] [claim:errors-bad-request-empty-json]', async () => {
    const server = await serve({
      type: 'route',
      id: 'body',
      method: 'POST',
      path: '/body',
      handler: (request, response) => {
        response.json({
          type: request.headers['content-type'] ?? null,
          undefined: request.body === undefined,
          body: request.body ?? null,
        });
      },
    });
    const sent = async (headers: Record<string, string>, body: string | Uint8Array) => {
      const answer = await fetch(`${server.url}/body`, { method: 'POST', headers, body });
      expect(answer.status).toBe(200);
      return answer.json();
    };
    const json = '{"text":"hi"}';
    expect(await sent({ 'content-type': 'text/plain' }, json)).toEqual({
      type: 'text/plain',
      undefined: true,
      body: null,
    });
    // A Uint8Array body makes fetch send no Content-Type at all.
    expect(await sent({}, new TextEncoder().encode(json))).toEqual({
      type: null,
      undefined: true,
      body: null,
    });
    expect(await sent({ 'content-type': 'application/json' }, '')).toEqual({
      type: 'application/json',
      undefined: false,
      body: {},
    });
    expect(await sent({ 'content-type': 'application/json' }, json)).toEqual({
      type: 'application/json',
      undefined: false,
      body: { text: 'hi' },
    });
  });

  it('refuses only bodies sent as application/json: the same bare, oversized or undecodable bytes sent as text reach the handler with no body [claim:errors-bad-request-json-only]', async () => {
    const server = new ServerManager({ port: 0, bodyLimit: 100 }, silentLogger);
    servers.push(server);
    server.mount(
      'test-plugin',
      {
        method: 'POST',
        path: '/body',
        handler: (request, response) => {
          response.json({ undefined: request.body === undefined });
        },
      },
      {} as Runtime,
    );
    await server.start();
    const answer = async (headers: Record<string, string>, body: string) => {
      const response = await fetch(`${server.url}/body`, { method: 'POST', headers, body });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    const refused = (status: number) => ({
      status,
      body: { error: expect.objectContaining({ status, code: 'WEFT_BAD_REQUEST' }) },
    });
    const oversized = JSON.stringify({ text: 'x'.repeat(200) });
    const json = { 'content-type': 'application/json' };
    const text = { 'content-type': 'text/plain' };
    expect(await answer(json, '42')).toEqual(refused(400));
    expect(await answer(json, oversized)).toEqual(refused(413));
    expect(await answer({ ...json, 'content-encoding': 'gzip' }, '{}')).toEqual(refused(400));
    expect(await answer({ 'content-type': 'application/json; charset=koi8-r' }, '{}')).toEqual(
      refused(415),
    );
    const handled = { status: 200, body: { undefined: true } };
    expect(await answer(text, '42')).toEqual(handled);
    expect(await answer(text, oversized)).toEqual(handled);
    expect(await answer({ ...text, 'content-encoding': 'gzip' }, '{}')).toEqual(handled);
    expect(await answer({ 'content-type': 'text/plain; charset=koi8-r' }, '{}')).toEqual(handled);
  });

  it('leaves the body undefined, not {}, for a request that carries none, whatever its Content-Type [claim:trig-empty-json-body]', async () => {
    const seen = (request: RouteRequest, response: RouteResponse) => {
      response.json({ undefined: request.body === undefined });
    };
    const server = await serve(
      { type: 'route', id: 'post', method: 'POST', path: '/body', handler: seen },
      { type: 'route', id: 'get', method: 'GET', path: '/body', handler: seen },
    );
    const json = { 'content-type': 'application/json' };
    // fetch sends a GET without Content-Length or Transfer-Encoding: no body at all.
    const got = await fetch(`${server.url}/body`, { headers: json });
    expect(await got.json()).toEqual({ undefined: true });
    // A POST that says it has no body, without Content-Length: 0.
    const answer = await rawExchange(
      server,
      'POST /body HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer.endsWith('{"undefined":true}')).toBe(true);
    // fetch's POST without a body sends Content-Length: 0, an empty body: {}.
    const empty = await fetch(`${server.url}/body`, { method: 'POST', headers: json });
    expect(await empty.json()).toEqual({ undefined: false });
  });

  it('has a connection that is the same for every request of one keep-alive connection [claim:trig-route-connection]', async () => {
    const connections: object[] = [];
    const server = await serve({
      type: 'route',
      id: 'ping',
      method: 'GET',
      path: '/ping',
      handler: (request, response) => {
        connections.push(request.connection);
        response.json({});
      },
    });
    const kept = new Agent({ keepAlive: true, maxSockets: 1 });
    const other = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      await get(`${server.url}/ping`, kept);
      await get(`${server.url}/ping`, kept);
      await get(`${server.url}/ping`, other);
    } finally {
      kept.destroy();
      other.destroy();
    }
    expect(connections).toHaveLength(3);
    expect(connections[0]).toBe(connections[1]);
    expect(connections[2]).not.toBe(connections[0]);
    // A token to compare, not the socket itself.
    expect(Object.keys(connections[0] as object)).toEqual([]);
  });

  it("has in locals what middleware added before start put in response.locals, and the server's own requestId [claim:trig-route-locals]", async () => {
    const server = new ServerManager({ port: 0 }, silentLogger);
    servers.push(server);
    server.app.use((request, response, next) => {
      if (request.headers.cookie === 'session=s-1') response.locals.user = 'grace';
      next();
    });
    server.mount(
      'test-plugin',
      {
        method: 'GET',
        path: '/me',
        handler: (request, response) => {
          response.json({ locals: request.locals, requestId: request.requestId });
        },
      },
      {} as Runtime,
    );
    await server.start();
    const seen = async (headers: Record<string, string>) => {
      const answer = await fetch(`${server.url}/me`, { headers });
      expect(answer.status).toBe(200);
      return (await answer.json()) as { locals: Record<string, unknown>; requestId: string };
    };
    const known = await seen({ cookie: 'session=s-1' });
    expect(known.locals).toEqual({ user: 'grace', requestId: known.requestId });
    const unknown = await seen({});
    expect(unknown.locals).toEqual({ requestId: unknown.requestId });
    expect(unknown.requestId).not.toBe(known.requestId);
  });
});

describe('the response a route handler answers through', () => {
  it('sets the status and headers, chained, and answers JSON or plain text [claim:trig-route-response]', async () => {
    let sentAfterAnswer: boolean | undefined;
    const server = await serve(
      {
        type: 'route',
        id: 'json',
        method: 'GET',
        path: '/json',
        handler: (_request, response) => {
          const before = response.headersSent;
          response.status(201).set('X-Own', 'yes').json({ before });
        },
      },
      {
        type: 'route',
        id: 'text',
        method: 'GET',
        path: '/text',
        handler: (_request, response) => response.send('<b>pong</b>'),
      },
      {
        type: 'route',
        id: 'html',
        method: 'GET',
        path: '/html',
        handler: (_request, response) => {
          response.set('Content-Type', 'text/html; charset=utf-8').send('<b>pong</b>');
          sentAfterAnswer = response.headersSent;
        },
      },
      {
        type: 'route',
        id: 'empty',
        method: 'DELETE',
        path: '/empty',
        handler: (_request, response) => response.status(204).end(),
      },
    );
    const json = await fetch(`${server.url}/json`);
    expect(json.status).toBe(201);
    expect(json.headers.get('x-own')).toBe('yes');
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await json.json()).toEqual({ before: false });

    const text = await fetch(`${server.url}/text`);
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await text.text()).toBe('<b>pong</b>');

    // A Content-Type set before send is kept; once answered, headersSent says so.
    const html = await fetch(`${server.url}/html`);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await html.text()).toBe('<b>pong</b>');
    expect(sentAfterAnswer).toBe(true);

    const empty = await fetch(`${server.url}/empty`, { method: 'DELETE' });
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
  });
});
