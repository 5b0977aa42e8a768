import { ServerManager, type Runtime, type TriggerRoute } from '@weft/core';
import { afterEach, describe, expect, it } from 'vitest';
import { errorOf, silentLogger } from './fixtures.js';

const servers: ServerManager[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

const runtime = {} as Runtime;

function route(partial: Partial<TriggerRoute> & Pick<TriggerRoute, 'handler'>): TriggerRoute {
  return { type: 'route', id: 'test', method: 'POST', path: '/echo', ...partial };
}

async function serve(
  routes: TriggerRoute[],
  config: ConstructorParameters<typeof ServerManager>[0] = {},
): Promise<ServerManager> {
  const server = new ServerManager({ port: 0, ...config }, silentLogger);
  servers.push(server);
  for (const entry of routes) server.mount('test-plugin', entry, runtime);
  await server.start();
  return server;
}

const echo = route({
  handler: (request, response) => response.json({ got: request.body as unknown }),
});

function post(url: string, body: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
}

describe('ServerManager', () => {
  it('listens on a free port when port is 0 and reports its url', async () => {
    const server = await serve([echo]);
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const response = await post(`${server.url}/echo`, '{"a":1}');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ got: { a: 1 } });
  });

  it('passes the runtime to the handler', async () => {
    let seen: unknown;
    const server = await serve([
      route({
        method: 'GET',
        path: '/who',
        handler: (_request, response, received) => {
          seen = received;
          response.end();
        },
      }),
    ]);
    await fetch(`${server.url}/who`);
    expect(seen).toBe(runtime);
  });

  it('answers malformed JSON with a 400 JSON error', async () => {
    const server = await serve([echo]);
    const response = await post(`${server.url}/echo`, '{"a":');
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { status: number; message: string } };
    expect(body.error.status).toBe(400);
    expect(body.error.message).toMatch(/^Malformed JSON body/);
  });

  it('answers a body over bodyLimit with 413', async () => {
    const server = await serve([echo], { bodyLimit: 100 });
    const response = await post(`${server.url}/echo`, JSON.stringify({ text: 'x'.repeat(500) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: { status: 413, message: 'Request body is larger than the limit of 100 bytes' },
    });
  });

  it('answers an unknown path with 404', async () => {
    const server = await serve([echo]);
    const response = await fetch(`${server.url}/nowhere`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { status: 404, message: 'No route for GET /nowhere' },
    });
  });

  it('answers a throwing handler with a bare 500 and no stack trace', async () => {
    const server = await serve([
      route({
        handler: () => {
          throw new Error('database password is hunter2');
        },
      }),
      route({
        id: 'async',
        path: '/async',
        handler: async () => {
          await Promise.resolve();
          throw new Error('async secret');
        },
      }),
    ]);
    for (const path of ['/echo', '/async']) {
      const response = await post(`${server.url}${path}`, '{}');
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({
        error: { status: 500, message: 'Internal server error' },
      });
      expect(text).not.toMatch(/secret|hunter2|at .*\.ts/);
    }
  });

  it("answers an error's own status, such as 503 from a full queue", async () => {
    const server = await serve([
      route({
        handler: () => {
          throw Object.assign(new Error('Scheduler: the queue is full'), { status: 503 });
        },
      }),
    ]);
    const response = await post(`${server.url}/echo`, '{}');
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      error: { status: 503, message: 'Scheduler: the queue is full' },
    });
  });

  it('sends Access-Control-Allow-Origin with cors: true, and none by default', async () => {
    const withCors = await serve([echo], { cors: true });
    const allowed = await fetch(`${withCors.url}/echo`, {
      method: 'POST',
      headers: { origin: 'https://example.com' },
    });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('*');
    const without = await serve([echo]);
    const plain = await fetch(`${without.url}/echo`, {
      method: 'POST',
      headers: { origin: 'https://example.com' },
    });
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('stops idempotently and refuses connections afterwards', async () => {
    const server = await serve([echo]);
    const url = `${server.url}/echo`;
    await server.stop();
    await server.stop();
    await expect(post(url, '{}')).rejects.toThrow();
  });

  it('rejects a route mounted twice or after start, naming it', async () => {
    const server = new ServerManager({ port: 0 });
    servers.push(server);
    server.mount('one', echo, runtime);
    expect(() => server.mount('two', echo, runtime)).toThrow(
      'route POST /echo of plugin "two" is already mounted',
    );
    await server.start();
    expect(() =>
      server.mount('three', route({ path: '/late', handler: () => undefined }), runtime),
    ).toThrow('cannot mount POST /late of plugin "three" after the server started');
  });

  it.each([-1, 65_536, 1.5, Number.NaN])('rejects port %s, naming the option', (port) => {
    expect(() => new ServerManager({ port })).toThrow(
      `ServerManager: option "port" must be an integer from 0 to 65535, got ${port}.`,
    );
  });

  it('names the host and port it cannot listen on', async () => {
    const first = await serve([]);
    const second = new ServerManager({ port: first.port }, silentLogger);
    const error = await errorOf(second.start());
    expect(error.message).toContain(`ServerManager: cannot listen on 127.0.0.1:${first.port}`);
    expect(error.message).toContain('EADDRINUSE');
  });
});
