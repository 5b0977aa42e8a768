import { request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { once } from 'node:events';
import * as zlib from 'node:zlib';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { WeftError, type Runtime, type TriggerRoute } from '@weft/core';
import { ServerManager } from '@weft/core/node';
import express, { type ErrorRequestHandler } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { byteSizeOf } from '../src/server/server-options.js';
import { capturingLogger } from '@weft-internal/test-support/capturing-logger';
import { errorOf, silentLogger, startServer } from './fixtures.js';

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
  logger = silentLogger,
): Promise<ServerManager> {
  return startServer(routes, config, { logger, runtime });
}

/** One POST route per path, whose handler throws what the path names. */
function throwingRoutes(failures: Record<string, unknown>): TriggerRoute[] {
  return Object.entries(failures).map(([path, failure]) =>
    route({
      path,
      handler: () => {
        throw failure;
      },
    }),
  );
}

const echo = route({
  handler: (request, response) => response.json({ got: request.body as unknown }),
});

function post(url: string, body: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
}

/** The section of the errors reference a code's answer points to. */
function docsOf(code: string): string {
  return `https://weft-ai.github.io/docs/reference/errors/#${code.toLowerCase()}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The error body of an answer, with its request id checked against the header and removed. */
async function errorBody(response: Response): Promise<Record<string, unknown>> {
  const { error } = (await response.json()) as { error: Record<string, unknown> };
  expect(error.requestId).toMatch(UUID);
  expect(response.headers.get('x-request-id')).toBe(error.requestId);
  const { requestId: _requestId, ...rest } = error;
  return rest;
}

/** Sends a request with headers fetch would not let us set, such as `Host`. */
function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      { method: options.method ?? 'POST', headers: options.headers },
      (incoming) => {
        let body = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (body += chunk));
        incoming.on('end', () =>
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/**
 * A raw connection to `server`. `received()` is what the server has sent on it so far;
 * `closedWithin(ms, drip)` waits until the server closes it, writing `drip.text` every
 * `drip.everyMs` meanwhile, fails after `ms` with what came, destroys the socket either way and
 * returns what came.
 */
function rawConnection(server: ServerManager): {
  socket: Socket;
  received: () => string;
  closedWithin: (ms: number, drip?: { text: string; everyMs: number }) => Promise<string>;
} {
  const socket = connect(server.port as number, '127.0.0.1');
  socket.on('error', () => undefined);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  const closed = new Promise((resolve) => socket.once('close', resolve));
  const closedWithin = async (
    ms: number,
    drip?: { text: string; everyMs: number },
  ): Promise<string> => {
    const dripping =
      drip === undefined
        ? undefined
        : setInterval(() => {
            if (!socket.destroyed) socket.write(drip.text);
          }, drip.everyMs);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        closed,
        new Promise((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error(`not closed: ${received}`)), ms);
        }),
      ]);
    } finally {
      clearTimeout(timer);
      clearInterval(dripping);
      socket.destroy();
    }
    return received;
  };
  return { socket, received: () => received, closedWithin };
}

/**
 * Writes raw bytes to the server (and `drip` every 100 ms until it answers), reads until the
 * server closes the connection, and returns the status and the JSON error, whose request id is
 * checked against the `X-Request-Id` header.
 */
async function rawExchange(
  server: ServerManager,
  bytes: string,
  options: { drip?: string } = {},
): Promise<{ status: number; error: Record<string, unknown> }> {
  const connection = rawConnection(server);
  connection.socket.write(bytes);
  const received = await connection.closedWithin(
    5_000,
    options.drip === undefined ? undefined : { text: options.drip, everyMs: 100 },
  );
  const [head = '', body = ''] = received.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  const requestId = /^x-request-id: (.+)$/im.exec(head)?.[1];
  expect(head).toMatch(/^content-type: application\/json/im);
  const { error } = JSON.parse(body) as { error: Record<string, unknown> };
  expect(error.requestId).toMatch(UUID);
  expect(requestId).toBe(error.requestId);
  return { status, error };
}

describe('ServerManager', () => {
  it('listens on a free port when port is 0 and reports its url [claim:trig-server-table] [claim:prod-loopback-default] [claim:testing-port-zero] [claim:wp-port-zero]', async () => {
    const server = await serve([echo]);
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const response = await post(`${server.url}/echo`, '{"a":1}');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ got: { a: 1 } });
  });

  it('listens on 127.0.0.1 when no host is given, not on every interface [claim:prod-loopback-default]', async () => {
    const server = new ServerManager({ port: 0 }, silentLogger);
    servers.push(server);
    // The URL shows 127.0.0.1 for 0.0.0.0 too, so read the interface the server listens on.
    expect((await server.start()).host).toBe('127.0.0.1');
  });

  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const)(
    'serves a %s route and captures a :param path segment as request.params [claim:trig-methods-params]',
    async (method) => {
      const server = await serve([
        route({
          method,
          path: '/notes/:user',
          handler: (request, response) => {
            response.json({ user: request.params.user, method: request.method });
          },
        }),
      ]);
      const response = await fetch(`${server.url}/notes/ada`, { method });
      expect(await response.json()).toEqual({ user: 'ada', method });
      expect((await fetch(`${server.url}/notes/ada/more`, { method })).status).toBe(404);
    },
  );

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

  it('answers malformed JSON with a 400 JSON error [claim:trig-400-json] [claim:triggers-error-body-docs-url] [claim:triggers-invalid-body-code] [claim:gs-malformed] [claim:stability-http-public] [claim:errors-400-codes]', async () => {
    const server = await serve([echo]);
    const response = await post(`${server.url}/echo`, '{"a":');
    expect(response.status).toBe(400);
    expect(await errorBody(response)).toEqual({
      status: 400,
      code: 'WEFT_BAD_REQUEST',
      docsUrl: docsOf('WEFT_BAD_REQUEST'),
      message: expect.stringMatching(/^Malformed JSON body/),
    });
  });

  it('answers valid JSON that is not an object or array, such as 42 or null, as malformed: 400 WEFT_BAD_REQUEST, and runs no route [claim:errors-bad-request-not-object] [claim:trig-400-json] [claim:errors-400-bare-json]', async () => {
    let ran = false;
    const server = await serve([
      route({
        handler: (_request, response) => {
          ran = true;
          response.json({});
        },
      }),
    ]);
    for (const body of ['42', '"text"', 'null', 'true']) {
      const response = await post(`${server.url}/echo`, body);
      expect(response.status, body).toBe(400);
      expect(await errorBody(response), body).toEqual({
        status: 400,
        code: 'WEFT_BAD_REQUEST',
        docsUrl: docsOf('WEFT_BAD_REQUEST'),
        message:
          'Malformed JSON body: it must be an object or array, not a bare string, number, boolean or null',
      });
    }
    expect(ran).toBe(false);
    expect((await post(`${server.url}/echo`, '[1]')).status).toBe(200);
  });

  it('answers a :param path segment that is not valid percent-encoding with 400 WEFT_BAD_REQUEST before the route runs, whatever its invalidBodyCode [claim:trig-400-param] [claim:errors-400-param-encoding] [claim:wp-error-answers-4xx]', async () => {
    let ran = false;
    const server = await serve([
      route({
        path: '/notes/:user',
        invalidBodyCode: 'NOTES_INVALID',
        handler: (_request, response) => {
          ran = true;
          response.json({});
        },
      }),
    ]);
    for (const segment of ['%E0%A4', '%zz']) {
      const response = await post(`${server.url}/notes/${segment}`, '{}');
      expect(response.status, segment).toBe(400);
      expect(await errorBody(response), segment).toEqual({
        status: 400,
        code: 'WEFT_BAD_REQUEST',
        docsUrl: docsOf('WEFT_BAD_REQUEST'),
        message: `Failed to decode param '${segment}'`,
      });
    }
    expect(ran).toBe(false);
    // An encoded slash decodes, and stays within the one segment.
    expect(await (await post(`${server.url}/notes/a%2Fb`, '{}')).json()).toEqual({});
    expect(ran).toBe(true);
  });

  it("answers a body that is not JSON of an object or array with the route's invalidBodyCode [claim:httpchat-400-malformed-json] [claim:httpchat-authenticate] [claim:trig-400-json] [claim:triggers-invalid-body-code] [claim:errors-bad-request-route-code] [claim:errors-chat-invalid-request-body] [claim:errors-400-codes]", async () => {
    let ran = false;
    const own = route({
      invalidBodyCode: 'WEFT_CHAT_INVALID_REQUEST',
      handler: (_request, response) => {
        ran = true;
        response.json({});
      },
    });
    const server = await serve([own], { bodyLimit: 100, maxJsonDepth: 3 });
    for (const body of ['{"a":', '"hello"', '42', '[[[[1]]]]']) {
      const response = await post(`${server.url}/echo`, body);
      expect(response.status, body).toBe(400);
      expect(await errorBody(response), body).toEqual({
        status: 400,
        code: 'WEFT_CHAT_INVALID_REQUEST',
        docsUrl: docsOf('WEFT_CHAT_INVALID_REQUEST'),
        message: expect.stringMatching(/^The body must be JSON of an object or array/),
      });
    }
    // A bare value is valid JSON: the message names the rule rather than calling it invalid.
    expect((await errorBody(await post(`${server.url}/echo`, '42'))).message).toBe(
      'The body must be JSON of an object or array, sent as application/json: not a bare string, number, boolean or null [WEFT_CHAT_INVALID_REQUEST]',
    );
    // Too large is not the route's rule: it stays the server's 413.
    const large = await post(`${server.url}/echo`, JSON.stringify({ text: 'x'.repeat(200) }));
    expect(large.status).toBe(413);
    expect((await errorBody(large)).code).toBe('WEFT_BAD_REQUEST');
    expect(ran).toBe(false);
  });

  it('answers a body the parser cannot decode with WEFT_BAD_REQUEST and its docsUrl: 415 for a charset or Content-Encoding it does not read, 400 for a compressed body that does not inflate, also on a route with its own invalidBodyCode [claim:errors-415-cause] [claim:errors-unreadable-body-code] [claim:trig-415]', async () => {
    let ran = false;
    const handler = (_request: unknown, response: { json(body: unknown): void }) => {
      ran = true;
      response.json({});
    };
    const own = route({ path: '/own', invalidBodyCode: 'WEFT_CHAT_INVALID_REQUEST', handler });
    const server = await serve([route({ handler }), own]);
    const cases: { headers: Record<string, string>; body: Uint8Array | string; status: number }[] =
      [
        {
          headers: { 'content-type': 'application/json; charset=latin1' },
          body: '{}',
          status: 415,
        },
        // The parser reads a UTF by a name that begins with `utf-` only.
        {
          headers: { 'content-type': 'application/json; charset=utf8' },
          body: '{}',
          status: 415,
        },
        { headers: { 'content-encoding': 'x-unknown' }, body: '{}', status: 415 },
        { headers: { 'content-encoding': 'gzip' }, body: '{"a":1}', status: 400 },
        { headers: { 'content-encoding': 'br' }, body: '{"a":1}', status: 400 },
        {
          headers: { 'content-encoding': 'gzip' },
          body: gzipSync('{"a":1}').subarray(0, 12),
          status: 400,
        },
      ];
    for (const path of ['/echo', '/own']) {
      for (const { headers, body, status } of cases) {
        const response = await fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body,
        });
        const label = `${path} ${JSON.stringify(headers)}`;
        expect(response.status, label).toBe(status);
        expect(await errorBody(response), label).toEqual({
          status,
          code: 'WEFT_BAD_REQUEST',
          docsUrl: docsOf('WEFT_BAD_REQUEST'),
          message: expect.stringMatching(/^The request body could not be read: /),
        });
      }
    }
    // A body compressed with gzip, deflate or brotli, as it says, is read as usual.
    for (const [encoding, body] of [
      ['gzip', gzipSync('{"a":1}')],
      ['deflate', deflateSync('{"a":1}')],
      ['br', brotliCompressSync('{"a":1}')],
    ] as const) {
      const zipped = await fetch(`${server.url}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-encoding': encoding },
        body,
      });
      expect(zipped.status, encoding).toBe(200);
    }
    // zstd is inflated where Node's zlib has it (22.15 on), and refused with 415 elsewhere.
    const zstd = (zlib as { zstdCompressSync?: (data: string) => Buffer }).zstdCompressSync;
    const zstdAnswer = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'zstd' },
      body: zstd === undefined ? '{"a":1}' : zstd('{"a":1}'),
    });
    expect(zstdAnswer.status).toBe(zstd === undefined ? 415 : 200);
    // A charset other than UTF-8 is read when it is a UTF.
    const utf16 = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-16le' },
      body: Buffer.from('{"a":"é"}', 'utf16le'),
    });
    expect(utf16.status).toBe(200);
    expect(ran).toBe(true);
  });

  it('answers a body over bodyLimit with 413 [claim:httpchat-413] [claim:trig-413] [claim:prod-body-limit] [claim:wp-resource-limits] [claim:errors-413-default]', async () => {
    const server = await serve([echo], { bodyLimit: 100 });
    const response = await post(`${server.url}/echo`, JSON.stringify({ text: 'x'.repeat(500) }));
    expect(response.status).toBe(413);
    expect(await errorBody(response)).toEqual({
      status: 413,
      code: 'WEFT_BAD_REQUEST',
      docsUrl: docsOf('WEFT_BAD_REQUEST'),
      message: 'Request body is larger than the limit of 100 bytes',
    });
  });

  it('accepts a body of exactly 1mb by default and answers a larger one 413 [claim:errors-413-default]', async () => {
    const server = await serve([echo]);
    // '1mb' is 1,048,576 bytes; the object around the text takes 11 of them.
    const text = 'x'.repeat(1024 * 1024 - '{"text":""}'.length);
    const fits = await post(`${server.url}/echo`, JSON.stringify({ text }));
    expect(fits.status).toBe(200);
    expect(((await fits.json()) as { got: { text: string } }).got.text).toHaveLength(text.length);
    const over = await post(`${server.url}/echo`, JSON.stringify({ text: `${text}x` }));
    expect(over.status).toBe(413);
    expect(await errorBody(over)).toMatchObject({ status: 413, code: 'WEFT_BAD_REQUEST' });
  });

  it('takes a size string as the bytes byteSizeOf reads, to the byte, and refuses a fraction of a byte [claim:tsdoc-server-body-limit-checked] [claim:cfg-body-limit-forms]', async () => {
    expect(() => new ServerManager({ bodyLimit: '1.5b' })).toThrow(/option "bodyLimit"/);
    // The larger units the page names, each 1024 times the one before, are taken as well.
    for (const [bodyLimit, bytes] of [
      ['1gb', 2 ** 30],
      ['1TB', 2 ** 40],
      ['1 pb', 2 ** 50],
    ] as const) {
      expect(byteSizeOf(bodyLimit)).toBe(bytes);
      expect(() => new ServerManager({ bodyLimit })).not.toThrow();
    }
    for (const bodyLimit of ['300', '300b', '1kb', '1.5KB', '2 kb']) {
      const limit = byteSizeOf(bodyLimit) as number;
      const server = await serve([echo], { bodyLimit });
      const text = 'x'.repeat(limit - '{"text":""}'.length);
      const fits = await post(`${server.url}/echo`, JSON.stringify({ text }));
      const over = await post(`${server.url}/echo`, JSON.stringify({ text: `${text}x` }));
      expect({ bodyLimit, limit, fits: fits.status, over: over.status }).toEqual({
        bodyLimit,
        limit: { '300': 300, '300b': 300, '1kb': 1024, '1.5KB': 1536, '2 kb': 2048 }[bodyLimit],
        fits: 200,
        over: 413,
      });
    }
  });

  it("refuses '1m', which express's own JSON parser would take as a limit of 1 byte [claim:tsdoc-server-body-limit-checked] [claim:cfg-body-limit-forms]", async () => {
    expect(byteSizeOf('1m')).toBeUndefined();
    expect(() => new ServerManager({ bodyLimit: '1m' })).toThrow(/option "bodyLimit"/);
    // The reason, held against the parser itself: given '1m', it refuses a 2-byte body.
    const app = express();
    app.post('/', express.json({ limit: '1m' }), (_request, response) => response.end());
    app.use(((error, _request, response, _next) => {
      response.status((error as { status?: number }).status ?? 500).end();
    }) satisfies ErrorRequestHandler);
    const listening = app.listen(0, '127.0.0.1');
    await once(listening, 'listening');
    try {
      const { port } = listening.address() as AddressInfo;
      const answer = await post(`http://127.0.0.1:${port}/`, '{}');
      expect(answer.status).toBe(413);
    } finally {
      await new Promise((resolve) => listening.close(resolve));
    }
  });

  it('gives the listening server a headersTimeout of 10 s and a requestTimeout of 30 s by default, checked once a second [claim:errors-408-cause] [claim:prod-slow-clients]', async () => {
    const server = await serve([echo]);
    // Waiting out 10 s per test run is too slow; read the Node server the manager created.
    const listening = (server as unknown as { server: Server }).server;
    expect(listening.headersTimeout).toBe(10_000);
    expect(listening.requestTimeout).toBe(30_000);
    // Node answers 408 at the first check past a deadline: with the defaults, at most a second
    // late. The test of late clients below uses a 1 s headersTimeout, which would hide a longer
    // interval, so the default's interval is read here.
    expect(
      (listening as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval,
    ).toBe(1_000);
  });

  it('keeps an idle keep-alive connection for keepAliveTimeout, tells the client in Keep-Alive, and closes it a second later [claim:cfg-keep-alive] [claim:trig-keep-alive] [claim:tsdoc-server-keep-alive-buffer]', async () => {
    const server = new ServerManager({ port: 0, keepAliveTimeout: 1_000 }, silentLogger);
    servers.push(server);
    server.mount(
      'test-plugin',
      route({ method: 'GET', handler: (_request, response) => response.json({}) }),
      runtime,
    );
    await server.start();
    const socket = connect(server.port as number, '127.0.0.1');
    socket.on('error', () => undefined);
    let received = '';
    let answeredAt = 0;
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('utf8');
      answeredAt ||= performance.now();
    });
    const closed = once(socket, 'close');
    socket.write('GET /echo HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await closed;
    const idleMs = performance.now() - answeredAt;
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toContain('Keep-Alive: timeout=1\r\n');
    // Node.js times the idle socket a second longer than it tells the client.
    expect(idleMs).toBeGreaterThanOrEqual(1_950);
    expect(idleMs).toBeLessThan(3_000);
  });

  it('answers an unknown path with 404 [claim:trig-404] [claim:errors-404-cause]', async () => {
    const server = await serve([echo]);
    const response = await fetch(`${server.url}/nowhere`);
    expect(response.status).toBe(404);
    expect(await errorBody(response)).toEqual({
      status: 404,
      code: 'WEFT_NOT_FOUND',
      docsUrl: docsOf('WEFT_NOT_FOUND'),
      message: 'No route for GET /nowhere',
    });
  });

  it('answers a CONNECT request, which no route can match, with 404 as JSON and closes its connection [claim:errors-404-connect]', async () => {
    const server = await serve([echo]);
    const received = await rawExchange(
      server,
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    );
    expect(received).toEqual({
      status: 404,
      error: expect.objectContaining({
        status: 404,
        code: 'WEFT_NOT_FOUND',
        docsUrl: docsOf('WEFT_NOT_FOUND'),
        message: expect.stringContaining('CONNECT'),
      }),
    });
  });

  it('runs a GET route for HEAD, sending no body, and leaves OPTIONS to the cors middleware when cors is set [claim:trig-404] [claim:trig-get-head] [claim:httpchat-row-404]', async () => {
    const methods: string[] = [];
    const reader = route({
      method: 'GET',
      path: '/read',
      handler: (request, response) => {
        methods.push(request.method);
        response.json({ read: true });
      },
    });
    const server = await serve([reader, echo]);
    const head = await rawRequest(`${server.url}/read`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(methods).toEqual(['HEAD']);
    // HEAD on a path whose only route is POST has no route, nor has OPTIONS without cors.
    expect((await fetch(`${server.url}/echo`, { method: 'HEAD' })).status).toBe(404);
    const options = await fetch(`${server.url}/echo`, { method: 'OPTIONS' });
    expect(await errorBody(options)).toEqual({
      status: 404,
      code: 'WEFT_NOT_FOUND',
      docsUrl: docsOf('WEFT_NOT_FOUND'),
      message: 'No route for OPTIONS /echo',
    });

    const withCors = await serve([echo], { cors: true });
    for (const path of ['/echo', '/nowhere']) {
      const answer = await fetch(`${withCors.url}${path}`, { method: 'OPTIONS' });
      expect(answer.status, path).toBe(204);
      expect(answer.headers.get('access-control-allow-origin'), path).toBe('*');
    }
    // A preflight from an origin the cors options allow; and one the middleware passes on.
    const listed = await serve([echo], { cors: { origin: 'https://chat.example.com' } });
    const preflight = await fetch(`${listed.url}/echo`, {
      method: 'OPTIONS',
      headers: { origin: 'https://chat.example.com', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    const passedOn = await serve([echo], { cors: { preflightContinue: true } });
    expect((await fetch(`${passedOn.url}/echo`, { method: 'OPTIONS' })).status).toBe(404);
    // An origin function that refuses the origin of a request that passes the origin check all
    // the same (no Origin, the server's own, or listed in allowedOrigins) leaves the request to
    // the routes (404); one that calls back with an error gets 500. An origin it refuses (or
    // fails on) that does not pass the check is refused with 403 first.
    const refusing = await serve([echo], {
      allowedOrigins: ['https://chat.example.com'],
      cors: { origin: (_origin, callback) => callback(null, false) },
    });
    const withoutOrigin: Record<string, string> = {};
    const ownOrigin = { origin: new URL(refusing.url as string).origin };
    for (const headers of [withoutOrigin, ownOrigin, { origin: 'https://chat.example.com' }]) {
      const refused = await fetch(`${refusing.url}/echo`, { method: 'OPTIONS', headers });
      expect(refused.status).toBe(404);
    }
    const elsewhere = { origin: 'https://elsewhere.example.com' };
    const foreign = await fetch(`${refusing.url}/echo`, { method: 'OPTIONS', headers: elsewhere });
    expect(foreign.status).toBe(403);
    expect((await errorBody(foreign)).code).toBe('WEFT_ORIGIN_NOT_ALLOWED');
    const failing = await serve([echo], {
      allowedOrigins: ['https://chat.example.com'],
      cors: { origin: (_origin, callback) => callback(new Error('lookup failed')) },
    });
    for (const headers of [withoutOrigin, { origin: 'https://chat.example.com' }]) {
      const failed = await fetch(`${failing.url}/echo`, { method: 'OPTIONS', headers });
      expect(failed.status).toBe(500);
    }
    const unlisted = await fetch(`${failing.url}/echo`, { method: 'OPTIONS', headers: elsewhere });
    expect(unlisted.status).toBe(403);
    expect(methods).toEqual(['HEAD']);
  });

  it('answers a throwing handler with a generic 500 and logs the error under the request id [claim:trig-500-hidden] [claim:obs-request-failed-generic] [claim:errors-500-code] [claim:wp-error-answers] [claim:errors-500-logged] [claim:wp-logs-content]', async () => {
    const { logger, lines } = capturingLogger();
    const server = new ServerManager({ port: 0 }, logger);
    servers.push(server);
    server.mount(
      'test-plugin',
      route({
        handler: () => {
          throw new Error('database password is hunter2');
        },
      }),
      runtime,
    );
    server.mount(
      'test-plugin',
      route({
        id: 'async',
        path: '/async',
        handler: async () => {
          await Promise.resolve();
          throw new Error('async secret');
        },
      }),
      runtime,
    );
    await server.start();
    for (const [path, secret] of [
      ['/echo', 'hunter2'],
      ['/async', 'async secret'],
    ] as const) {
      const response = await post(`${server.url}${path}`, '{}');
      expect(response.status).toBe(500);
      const text = await response.text();
      const { error } = JSON.parse(text) as { error: { requestId: string } };
      expect(error).toEqual({
        status: 500,
        code: 'WEFT_INTERNAL',
        docsUrl: docsOf('WEFT_INTERNAL'),
        message: 'Internal Server Error; the server log has the details under this requestId',
        requestId: response.headers.get('x-request-id'),
      });
      expect(text).not.toMatch(/secret|hunter2|at .*\.ts/);
      const logged = lines.find((line) => line.requestId === error.requestId);
      expect(logged).toMatchObject({ msg: 'request failed', status: 500, path });
      expect(String(logged?.error)).toContain(secret);
      expect(String(logged?.stack)).toContain(secret);
      expect(String(logged?.stack)).toMatch(/\n\s+at /);
    }
  });

  it('hides the message of an error whose own status is 5xx, and keeps its code [claim:trig-5xx-own-code] [claim:trig-500-hidden] [claim:errors-5xx-message-generic] [claim:errors-task-cancelled-running] [claim:errors-internal-keeps-weft-code] [claim:errors-500-code] [claim:tsdoc-route-5xx] [claim:wp-error-answers] [claim:errors-5xx-message-exposed]', async () => {
    const { logger, lines } = capturingLogger();
    const failures: Record<string, unknown> = {
      '/status': Object.assign(new Error('upstream http://10.0.0.5:5432 refused'), {
        status: 502,
      }),
      '/status-code': Object.assign(new Error('key sk-...abcd rejected'), { statusCode: 503 }),
      '/weft': new WeftError('WEFT_PROVIDER_FAILED', 'provider said: password=swordfish', {
        status: 502,
      }),
      '/cancelled': new WeftError('WEFT_TASK_CANCELLED', 'task of space "secret-space"', {
        status: 503,
      }),
      '/no-status': new WeftError('WEFT_TEMPLATE_NOT_FOUND', 'no template "secret/prompt"'),
      '/exposed': new WeftError(
        'WEFT_QUEUE_FULL',
        'Scheduler: the queue is full; try again later.',
        {
          status: 503,
          expose: true,
        },
      ),
      '/plugin-exposed': new WeftError(
        'NOTES_STORE_BUSY',
        'Notes: the store is busy; try again in a minute.',
        { status: 503, expose: true },
      ),
    };
    const server = await serve(throwingRoutes(failures), {}, logger);
    const answers: Record<string, unknown> = {};
    for (const path of Object.keys(failures)) {
      const response = await post(`${server.url}${path}`, '{}');
      const body = (await response.json()) as { error: Record<string, unknown> };
      answers[path] = {
        status: response.status,
        code: body.error.code,
        message: body.error.message,
        docsUrl: body.error.docsUrl,
      };
      expect(lines.find((line) => line.requestId === body.error.requestId)).toMatchObject({
        msg: 'request failed',
        error: expect.stringContaining((failures[path] as Error).message.split(' ')[1] ?? ''),
      });
    }
    expect(answers).toEqual({
      '/status': {
        status: 502,
        code: 'WEFT_INTERNAL',
        docsUrl: docsOf('WEFT_INTERNAL'),
        message: expect.stringMatching(/^Bad Gateway;/),
      },
      '/status-code': {
        status: 503,
        code: 'WEFT_INTERNAL',
        docsUrl: docsOf('WEFT_INTERNAL'),
        message: expect.stringMatching(/^Service Unavailable;/),
      },
      '/weft': {
        status: 502,
        code: 'WEFT_PROVIDER_FAILED',
        docsUrl: docsOf('WEFT_PROVIDER_FAILED'),
        message: expect.stringMatching(/^Bad Gateway;/),
      },
      '/cancelled': {
        status: 503,
        code: 'WEFT_TASK_CANCELLED',
        docsUrl: docsOf('WEFT_TASK_CANCELLED'),
        message: expect.stringMatching(/^Service Unavailable;/),
      },
      '/no-status': {
        status: 500,
        code: 'WEFT_TEMPLATE_NOT_FOUND',
        docsUrl: docsOf('WEFT_TEMPLATE_NOT_FOUND'),
        message: expect.stringMatching(/^Internal Server Error;/),
      },
      // Made with `expose`, as the scheduler's 503s are: the client reads its message.
      '/exposed': {
        status: 503,
        code: 'WEFT_QUEUE_FULL',
        docsUrl: docsOf('WEFT_QUEUE_FULL'),
        message: 'Scheduler: the queue is full; try again later. [WEFT_QUEUE_FULL]',
      },
      // A plugin's own WeftError made with `expose` is shown as well.
      '/plugin-exposed': {
        status: 503,
        code: 'NOTES_STORE_BUSY',
        docsUrl: undefined,
        message: 'Notes: the store is busy; try again in a minute. [NOTES_STORE_BUSY]',
      },
    });
  });

  it('logs a route that throws after answering, and the client keeps the answer it was sent [claim:obs-request-failed-after-answer]', async () => {
    const { logger, lines } = capturingLogger();
    const server = await serve(
      [
        route({
          handler: (_request, response) => {
            response.status(201).json({ saved: true });
            throw new Error('the audit write failed');
          },
        }),
      ],
      {},
      logger,
    );
    const response = await post(`${server.url}/echo`, '{}');
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ saved: true });
    const requestId = response.headers.get('x-request-id');
    await expect
      .poll(() => lines.find((line) => line.requestId === requestId))
      .toMatchObject({
        msg: 'request failed',
        status: 500,
        code: 'WEFT_INTERNAL',
        error: 'the audit write failed',
      });
  });

  it('logs a 5xx with the code and docsUrl of the Weft error it is or wraps, else those of its answer [claim:obs-error-code-docsurl] [claim:obs-request-failed-codes]', async () => {
    const { logger, lines } = capturingLogger();
    const failures: Record<string, Error> = {
      '/wrapped': new Error('the lookup failed', {
        cause: new WeftError('WEFT_TASK_TIMEOUT', 'the task ran past its time limit'),
      }),
      '/weft': new WeftError('WEFT_PROVIDER_FAILED', 'the provider failed', { status: 502 }),
      '/plain': new Error('disk full'),
    };
    const server = await serve(throwingRoutes(failures), {}, logger);
    const logged: Record<string, unknown> = {};
    for (const path of Object.keys(failures)) {
      const response = await post(`${server.url}${path}`, '{}');
      const { error } = (await response.json()) as { error: { requestId: string } };
      const line = lines.find((entry) => entry.requestId === error.requestId);
      logged[path] = { msg: line?.msg, code: line?.code, docsUrl: line?.docsUrl };
    }
    expect(logged).toEqual({
      // The client got WEFT_INTERNAL; the log names the code the failure wraps, and its section.
      '/wrapped': {
        msg: 'request failed',
        code: 'WEFT_TASK_TIMEOUT',
        docsUrl: docsOf('WEFT_TASK_TIMEOUT'),
      },
      '/weft': {
        msg: 'request failed',
        code: 'WEFT_PROVIDER_FAILED',
        docsUrl: docsOf('WEFT_PROVIDER_FAILED'),
      },
      '/plain': { msg: 'request failed', code: 'WEFT_INTERNAL', docsUrl: docsOf('WEFT_INTERNAL') },
    });
  });

  it("answers a full queue's 503 with its own message, which holds nothing internal, and Retry-After: 5 [claim:trig-503] [claim:obs-request-failed-generic] [claim:prod-queue-full] [claim:wp-error-answers] [claim:errors-queue-full-retry-after]", async () => {
    const server = await serve([
      route({
        handler: () => {
          throw new WeftError(
            'WEFT_QUEUE_FULL',
            'Scheduler: the queue is full (1000 tasks waiting); try again later.',
            // As the scheduler makes it: the message is fixed text and configuration only.
            { status: 503, expose: true },
          );
        },
      }),
    ]);
    const response = await post(`${server.url}/echo`, '{}');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await errorBody(response)).toEqual({
      status: 503,
      code: 'WEFT_QUEUE_FULL',
      docsUrl: docsOf('WEFT_QUEUE_FULL'),
      message:
        'Scheduler: the queue is full (1000 tasks waiting); try again later. [WEFT_QUEUE_FULL]',
    });
  });

  it("gives Retry-After: 5 to every 503 and 429 WeftError a route lets through, a stopping runtime and a plugin's or coordinator's code included, and none to other errors [claim:trig-503] [claim:errors-queue-full-retry-after] [claim:errors-retry-after-429-503] [claim:errors-shutting-down-retry-after]", async () => {
    const errors: Record<string, unknown> = {
      '/stopping': new WeftError('WEFT_SHUTTING_DOWN', 'stopping', { status: 503, expose: true }),
      '/coordinator': new WeftError('WEFT_COORDINATOR_TIMEOUT', 'slow', { status: 503 }),
      // A plugin's own code, as @weft/coordinator-postgres and @weft/plugin-chat raise them.
      '/lost': new WeftError('WEFT_COORDINATOR_CONNECTION_LOST', 'lost', { status: 503 }),
      '/limit': new WeftError('WEFT_CHAT_TOO_MANY_TASKS', 'too many', { status: 429 }),
      // A handler's own error may carry the status of its upstream call: no promise is made.
      '/plain': Object.assign(new Error('busy'), { status: 503 }),
      '/plain-429': Object.assign(new Error('slow down'), { status: 429, expose: true }),
      // A full queue's code on another status is not a refusal to come back from.
      '/odd': new WeftError('WEFT_QUEUE_FULL', 'odd', { status: 500 }),
      '/bad': new WeftError('WEFT_INVALID_SPACE', 'bad space', { status: 400 }),
    };
    const server = await serve(throwingRoutes(errors));
    const headers: Record<string, [number, string | null]> = {};
    for (const path of Object.keys(errors)) {
      const response = await post(`${server.url}${path}`, '{}');
      headers[path] = [response.status, response.headers.get('retry-after')];
    }
    expect(headers).toEqual({
      '/stopping': [503, '5'],
      '/coordinator': [503, '5'],
      '/lost': [503, '5'],
      '/limit': [429, '5'],
      '/plain': [503, null],
      '/plain-429': [429, null],
      '/odd': [500, null],
      '/bad': [400, null],
    });
  });

  it("answers a 4xx error's own status, message and code when the error exposes it [claim:trig-4xx-own] [claim:tsdoc-route-4xx] [claim:errors-bad-request-route-4xx] [claim:wp-error-answers] [claim:wp-error-answers-4xx]", async () => {
    const server = await serve([
      route({
        handler: () => {
          throw Object.assign(new Error('expected { repository }'), { status: 422, expose: true });
        },
      }),
    ]);
    const response = await post(`${server.url}/echo`, '{}');
    expect(response.status).toBe(422);
    expect(await errorBody(response)).toEqual({
      status: 422,
      code: 'WEFT_BAD_REQUEST',
      docsUrl: docsOf('WEFT_BAD_REQUEST'),
      message: 'expected { repository }',
    });
    // `statusCode`, as some libraries' errors carry it, is read the same way.
    const other = await serve([
      route({
        handler: () => {
          throw Object.assign(new Error('legal hold'), { statusCode: 451, expose: true });
        },
      }),
    ]);
    const held = await post(`${other.url}/echo`, '{}');
    expect(held.status).toBe(451);
    expect(await errorBody(held)).toMatchObject({
      code: 'WEFT_BAD_REQUEST',
      message: 'legal hold',
    });
    // A WeftError's message is sent with its code in brackets at the end.
    const weft = await serve([
      route({
        handler: () => {
          throw new WeftError('WEFT_DUPLICATE', 'note 7 exists', { status: 409 });
        },
      }),
    ]);
    const duplicate = await post(`${weft.url}/echo`, '{}');
    expect(duplicate.status).toBe(409);
    expect(await errorBody(duplicate)).toMatchObject({
      code: 'WEFT_DUPLICATE',
      message: 'note 7 exists [WEFT_DUPLICATE]',
    });
    // Only a number is a status: a `status` that is a word does not hide a numeric
    // `statusCode`, and a status written as a string is none.
    const shaped = await serve(
      throwingRoutes({
        '/worded': Object.assign(new Error('no such note'), {
          status: 'NOT_FOUND',
          statusCode: 404,
          expose: true,
        }),
        '/string': Object.assign(new Error('not a status'), { status: '404', expose: true }),
      }),
    );
    const worded = await post(`${shaped.url}/worded`, '{}');
    expect(worded.status).toBe(404);
    expect(await errorBody(worded)).toMatchObject({ message: 'no such note' });
    const string = await post(`${shaped.url}/string`, '{}');
    expect(string.status).toBe(500);
    expect(await errorBody(string)).toMatchObject({ code: 'WEFT_INTERNAL' });
  });

  it("hides the message of a 4xx error that does not say it is for the client, such as an API client's 401, and logs it under the request id [claim:trig-4xx-foreign-hidden] [claim:errors-4xx-foreign-hidden] [claim:wp-error-answers-4xx] [claim:tsdoc-route-4xx] [claim:errors-bad-request-route-4xx] [claim:obs-request-refused]", async () => {
    const { logger, lines } = capturingLogger();
    // Shaped as model SDKs shape their errors: the status of their own upstream call, a code,
    // and a message naming the key and the gateway.
    const upstream = Object.assign(
      new Error('401 Incorrect API key provided: sk-live-****abcd (https://gateway.corp:8443/v1)'),
      { status: 401, code: 'invalid_api_key' },
    );
    const server = await serve(throwingRoutes({ '/sdk': upstream }), {}, logger);
    const response = await post(`${server.url}/sdk`, '{}');
    expect(response.status).toBe(401);
    const body = await errorBody(response);
    expect(body).toMatchObject({
      status: 401,
      message: 'Unauthorized; the server log has the details under this requestId',
    });
    expect(JSON.stringify(body)).not.toMatch(/sk-live|gateway\.corp/);
    const logged = lines.find((line) => line.requestId === response.headers.get('x-request-id'));
    expect(logged).toMatchObject({ msg: 'request refused', level: 40, status: 401, path: '/sdk' });
    expect(String(logged?.error)).toMatch(/sk-live-\*{4}abcd/);
  });

  it('hides the message of a 4xx error made with expose: false, answering its status, code and reason phrase, and logs it under the request id with that code [claim:obs-request-refused-codes] [claim:tsdoc-weft-error-expose] [claim:trig-4xx-hidden] [claim:obs-request-refused] [claim:errors-4xx-message-hidden] [claim:wp-error-answers] [claim:errors-bad-request-4xx-hidden]', async () => {
    const { logger, lines } = capturingLogger();
    const server = await serve(
      throwingRoutes({
        '/weft': new WeftError('WEFT_INVALID_SPACE', 'space of tenant "acme-secret" is archived', {
          status: 409,
          expose: false,
        }),
        '/http-error': Object.assign(new Error('token for admin@corp expired'), {
          status: 401,
          expose: false,
        }),
      }),
      {},
      logger,
    );
    for (const [path, status, code] of [
      ['/weft', 409, 'WEFT_INVALID_SPACE'],
      ['/http-error', 401, 'WEFT_BAD_REQUEST'],
    ] as const) {
      const response = await post(`${server.url}${path}`, '{}');
      expect(response.status).toBe(status);
      const body = await errorBody(response);
      expect(body).toMatchObject({ status, code });
      expect(body.message).toMatch(/; the server log has the details under this requestId$/);
      expect(JSON.stringify(body)).not.toMatch(/secret|admin@corp/);
      const logged = lines.find((line) => line.requestId === response.headers.get('x-request-id'));
      expect(logged).toMatchObject({ msg: 'request refused', level: 40, status, path });
      // The code the client got, and its section, when the error is not a Weft error.
      expect(logged).toMatchObject({
        code,
        docsUrl: expect.stringMatching(new RegExp(`#${code.toLowerCase()}$`)),
      });
      expect(String(logged?.error)).toMatch(/acme-secret|admin@corp/);
    }
    expect(lines.filter((line) => line.msg === 'request refused')).toHaveLength(2);
  });

  it('answers a WeftError made with a 4xx status and no expose option with its message, and logs no request refused line [claim:obs-request-refused-weft-4xx]', async () => {
    const { logger, lines } = capturingLogger();
    const server = await serve(
      throwingRoutes({
        '/weft': new WeftError('WEFT_INVALID_SPACE', 'space "a b" has a space in it', {
          status: 400,
        }),
      }),
      {},
      logger,
    );
    const response = await post(`${server.url}/weft`, '{}');
    expect(response.status).toBe(400);
    const body = await errorBody(response);
    expect(body).toMatchObject({ status: 400, code: 'WEFT_INVALID_SPACE' });
    expect(body.message).toMatch(/^space "a b" has a space in it/);
    expect(lines.filter((line) => line.msg === 'request refused')).toEqual([]);
    expect(lines.filter((line) => line.msg === 'request failed')).toEqual([]);
  });

  it("points a WeftError's answer at its own docsUrl, and a foreign 4xx code at none [claim:triggers-error-body-docs-url]", async () => {
    const failures: Record<string, unknown> = {
      '/own-docs': new WeftError('WEFT_INVALID_SPACE', 'bad space', {
        status: 400,
        docsUrl: 'https://example.com/errors#bad-space',
      }),
      '/foreign': Object.assign(new Error('token expired'), {
        status: 401,
        code: 'EAUTH',
        expose: true,
      }),
    };
    const server = await serve(
      Object.entries(failures).map(([path, failure]) =>
        route({
          path,
          handler: () => {
            throw failure;
          },
        }),
      ),
    );
    const own = await post(`${server.url}/own-docs`, '{}');
    expect(await errorBody(own)).toEqual({
      status: 400,
      code: 'WEFT_INVALID_SPACE',
      docsUrl: 'https://example.com/errors#bad-space',
      message: 'bad space [WEFT_INVALID_SPACE]',
    });
    const foreign = await post(`${server.url}/foreign`, '{}');
    expect(await errorBody(foreign)).toEqual({
      status: 401,
      code: 'EAUTH',
      message: 'token expired',
    });
  });

  it("answers a code that is not Weft's without a docsUrl when nothing says where it is explained: a route's own invalidBodyCode, a WeftError made without one [claim:triggers-error-body-docs-url] [claim:errors-docs-url-foreign-code] [claim:errors-docs-url-weft-prefix]", async () => {
    const server = await serve([
      route({ path: '/notes', invalidBodyCode: 'NOTES_INVALID_BODY', handler: () => undefined }),
      route({
        path: '/plugin-code',
        handler: () => {
          throw new WeftError('NOTES_TOO_MANY', 'too many notes', { status: 429 });
        },
      }),
      route({
        path: '/plugin-docs',
        handler: () => {
          throw new WeftError('NOTES_TOO_MANY', 'too many notes', {
            status: 429,
            docsUrl: 'https://notes.example/errors#too-many',
          });
        },
      }),
      route({
        path: '/plugin-weft-prefix',
        handler: () => {
          throw new WeftError('WEFT_NOTES_TOO_MANY', 'too many notes', { status: 429 });
        },
      }),
      route({
        path: '/plain-weft-prefix',
        handler: () => {
          throw Object.assign(new Error('note clash'), {
            status: 409,
            expose: true,
            code: 'WEFT_NOTES_CLASH',
          });
        },
      }),
      route({
        path: '/plugin-5xx',
        handler: () => {
          throw new WeftError('NOTES_STORE_DOWN', 'store at 10.0.0.5 is down', { status: 502 });
        },
      }),
    ]);
    const notJson = await post(`${server.url}/notes`, '42');
    expect(await errorBody(notJson)).toEqual({
      status: 400,
      code: 'NOTES_INVALID_BODY',
      message: expect.stringMatching(/^The body must be JSON of an object or array/),
    });
    expect(await errorBody(await post(`${server.url}/plugin-code`, '{}'))).toEqual({
      status: 429,
      code: 'NOTES_TOO_MANY',
      message: 'too many notes [NOTES_TOO_MANY]',
    });
    expect(await errorBody(await post(`${server.url}/plugin-docs`, '{}'))).toEqual({
      status: 429,
      code: 'NOTES_TOO_MANY',
      docsUrl: 'https://notes.example/errors#too-many',
      message: 'too many notes [NOTES_TOO_MANY]',
    });
    // A code that begins with WEFT_ is taken for Weft's, and gets the address of its section.
    expect(await errorBody(await post(`${server.url}/plugin-weft-prefix`, '{}'))).toEqual({
      status: 429,
      code: 'WEFT_NOTES_TOO_MANY',
      docsUrl: docsOf('WEFT_NOTES_TOO_MANY'),
      message: 'too many notes [WEFT_NOTES_TOO_MANY]',
    });
    // So is one that an error other than a WeftError carries.
    expect(await errorBody(await post(`${server.url}/plain-weft-prefix`, '{}'))).toEqual({
      status: 409,
      code: 'WEFT_NOTES_CLASH',
      docsUrl: docsOf('WEFT_NOTES_CLASH'),
      message: 'note clash',
    });
    expect(await errorBody(await post(`${server.url}/plugin-5xx`, '{}'))).toEqual({
      status: 502,
      code: 'NOTES_STORE_DOWN',
      message: 'Bad Gateway; the server log has the details under this requestId',
    });
  });

  it('points a Weft code at its section also when the error carrying it is not a WeftError [claim:triggers-error-body-docs-url]', async () => {
    const server = await serve(
      throwingRoutes({
        '/weft-code': Object.assign(new Error('no note 7'), {
          status: 404,
          code: 'WEFT_NOT_FOUND',
          expose: true,
        }),
        '/own-code': Object.assign(new Error('no note 8'), {
          status: 404,
          code: 'NOTE_MISSING',
          expose: true,
        }),
      }),
    );
    expect(await errorBody(await post(`${server.url}/weft-code`, '{}'))).toEqual({
      status: 404,
      code: 'WEFT_NOT_FOUND',
      docsUrl: docsOf('WEFT_NOT_FOUND'),
      message: 'no note 7',
    });
    expect(await errorBody(await post(`${server.url}/own-code`, '{}'))).toEqual({
      status: 404,
      code: 'NOTE_MISSING',
      message: 'no note 8',
    });
  });

  it('gives each request an id, in X-Request-Id and as request.requestId for handlers [claim:trig-request-id]', async () => {
    const server = await serve([
      route({
        handler: (request, response) => {
          response.json({ seen: request.requestId });
        },
      }),
    ]);
    const first = await post(`${server.url}/echo`, '{}');
    const second = await post(`${server.url}/echo`, '{}');
    const firstId = first.headers.get('x-request-id');
    expect(firstId).toMatch(UUID);
    expect(await first.json()).toEqual({ seen: firstId });
    expect(second.headers.get('x-request-id')).not.toBe(firstId);
  });

  it('sends X-Content-Type-Options: nosniff on every answer [claim:trig-request-id]', async () => {
    const server = await serve([
      echo,
      route({
        path: '/boom',
        handler: () => {
          throw new Error('boom');
        },
      }),
    ]);
    const answers = [
      await post(`${server.url}/echo`, '{}'),
      await post(`${server.url}/echo`, '{"a":'),
      await post(`${server.url}/boom`, '{}'),
      await fetch(`${server.url}/nowhere`),
    ];
    const refused = await rawRequest(`${server.url}/echo`, {
      headers: { host: 'attacker.example' },
      body: '{}',
    });
    expect(answers.map((answer) => answer.status)).toEqual([200, 400, 500, 404]);
    expect(refused.status).toBe(403);
    for (const answer of answers) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect(refused.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends Access-Control-Allow-Origin with cors: true, and none by default [claim:trig-cors]', async () => {
    const withCors = await serve([echo], { cors: true });
    const allowed = await fetch(`${withCors.url}/echo`, {
      method: 'POST',
      headers: { origin: 'https://example.com' },
    });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('*');
    // Without cors, another origin is refused outright (server-origin.test.ts) and its answer
    // carries no CORS header either.
    const without = await serve([echo]);
    const plain = await fetch(`${without.url}/echo`, {
      method: 'POST',
      headers: { origin: 'https://example.com' },
    });
    expect(plain.status).toBe(403);
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

  it('rejects with WEFT_RUNTIME_STOPPED a route mounted while the server starts or after it stopped, which no request could reach [claim:errors-runtime-stopped-mount]', async () => {
    const server = new ServerManager({ port: 0 });
    servers.push(server);
    server.mount('one', echo, runtime);
    const starting = server.start();
    expect(() =>
      server.mount('two', route({ path: '/early', handler: () => undefined }), runtime),
    ).toThrow(expect.objectContaining({ code: 'WEFT_RUNTIME_STOPPED' }));
    await starting;
    await server.stop();
    expect(() =>
      server.mount('three', route({ path: '/late', handler: () => undefined }), runtime),
    ).toThrow(expect.objectContaining({ code: 'WEFT_RUNTIME_STOPPED' }));
  });

  it.each([-1, 65_536, 1.5, Number.NaN])('rejects port %s, naming the option', (port) => {
    expect(() => new ServerManager({ port })).toThrow(
      `ServerManager: option "port" must be an integer from 0 to 65535, got ${port}.`,
    );
  });

  it('names the host and port it cannot listen on [claim:trouble-listen-failed]', async () => {
    const first = await serve([]);
    const second = new ServerManager({ port: first.port }, silentLogger);
    const error = await errorOf(second.start());
    expect(error.message).toContain(`ServerManager: cannot listen on 127.0.0.1:${first.port}`);
    expect(error.message).toContain('EADDRINUSE');
  });
  describe('Host check against DNS rebinding', () => {
    function counted() {
      const calls: string[] = [];
      const counting = route({
        handler: (_request, response) => {
          calls.push('ran');
          response.json({ ok: true });
        },
      });
      return { calls, counting };
    }

    it('refuses a spoofed Host with a matching Origin before the route runs [claim:trig-host-first] [claim:trig-403-row] [claim:prod-allowed-hosts-403] [claim:errors-403-cause] [claim:errors-host-not-allowed-section]', async () => {
      const { logger, lines } = capturingLogger();
      const { calls, counting } = counted();
      const server = new ServerManager({ port: 0, cors: true }, logger);
      servers.push(server);
      server.mount('test-plugin', counting, runtime);
      await server.start();
      const answer = await rawRequest(`${server.url}/echo`, {
        headers: {
          host: `attacker.example:${server.port}`,
          origin: `http://attacker.example:${server.port}`,
          'content-type': 'application/json',
        },
        body: '{"message":"run a task"}',
      });
      expect(answer.status).toBe(403);
      const { error } = JSON.parse(answer.body) as { error: Record<string, unknown> };
      expect(error).toEqual({
        status: 403,
        code: 'WEFT_HOST_NOT_ALLOWED',
        docsUrl: docsOf('WEFT_HOST_NOT_ALLOWED'),
        message: 'Host "attacker.example" is not allowed by this server',
        requestId: answer.headers['x-request-id'],
      });
      expect(calls).toEqual([]);
      const logged = lines.find((line) => line.requestId === error.requestId);
      expect(logged?.msg).toMatch(/allowedHosts.*0\.0\.0\.0 or ::/);
      // The line names the host it refused.
      expect(logged?.msg).toContain('refused a request for host "attacker.example"');
      expect(logged?.host).toBe(`attacker.example:${server.port}`);
    });

    it.each([
      'localhost',
      'LOCALHOST:3000',
      'localhost.',
      '127.0.0.1:3000',
      '[::1]:3000',
      '192.168.1.20:3000',
    ])(
      'allows the loopback names and IP literals by default: %s [claim:tsdoc-host-checker-ip] [claim:tsdoc-hostname-of] [claim:prod-allowed-hosts-403] [claim:errors-host-not-allowed-section]',
      async (host) => {
        const { calls, counting } = counted();
        const server = await serve([counting]);
        const answer = await rawRequest(`${server.url}/echo`, { headers: { host }, body: '{}' });
        expect(answer.status).toBe(200);
        expect(calls).toEqual(['ran']);
      },
    );

    it.each(['localhost.attacker.example', 'attacker.example', 'x127.0.0.1', 'app.localhost:3000'])(
      'refuses %j by default [claim:prod-allowed-hosts-403]',
      async (host) => {
        const server = await serve([echo]);
        const answer = await rawRequest(`${server.url}/echo`, { headers: { host }, body: '{}' });
        expect(answer.status).toBe(403);
      },
    );

    it('allows listed names, subdomains of a dotted name and the configured host [claim:prod-allowed-hosts-403] [claim:errors-host-not-allowed-section]', async () => {
      const server = await serve([echo], {
        host: '127.0.0.1',
        allowedHosts: ['agent.example.com', '.corp.example'],
      });
      const status = async (host: string) =>
        (await rawRequest(`${server.url}/echo`, { headers: { host }, body: '{}' })).status;
      expect(await status('Agent.Example.com:443')).toBe(200);
      expect(await status('corp.example')).toBe(200);
      expect(await status('a.b.corp.example')).toBe(200);
      expect(await status('notcorp.example')).toBe(403);
      expect(await status('other.example.com')).toBe(403);
    });

    it.each([true, 'all'] as const)(
      'allows any host with allowedHosts: %j',
      async (allowedHosts) => {
        const server = await serve([echo], { allowedHosts });
        const answer = await rawRequest(`${server.url}/echo`, {
          headers: { host: 'anything.example' },
          body: '{}',
        });
        expect(answer.status).toBe(200);
      },
    );

    it.each([undefined, true] as const)(
      'answers a request without Host in JSON: 400 for HTTP/1.1, 403 for HTTP/1.0 (allowedHosts: %j) [claim:errors-missing-host] [claim:errors-host-missing-http10] [claim:errors-400-missing-host] [claim:trig-node-refusals] [claim:trig-403-row]',
      async (allowedHosts) => {
        const server = await serve([echo], allowedHosts === undefined ? {} : { allowedHosts });
        const http11 = await rawExchange(server, 'GET /echo HTTP/1.1\r\nConnection: close\r\n\r\n');
        expect(http11).toMatchObject({
          status: 400,
          error: {
            status: 400,
            code: 'WEFT_BAD_REQUEST',
            docsUrl: docsOf('WEFT_BAD_REQUEST'),
            message: 'An HTTP/1.1 request must carry a Host header',
          },
        });
        // HTTP/1.0 makes Host optional: with any host allowed, the request passes the host
        // check (and finds no GET route); otherwise a missing Host is not an allowed one.
        expect(await rawExchange(server, 'GET /echo HTTP/1.0\r\n\r\n')).toMatchObject(
          allowedHosts === true
            ? { status: 404, error: { code: 'WEFT_NOT_FOUND' } }
            : {
                status: 403,
                error: { code: 'WEFT_HOST_NOT_ALLOWED', docsUrl: docsOf('WEFT_HOST_NOT_ALLOWED') },
              },
        );
      },
    );

    it.each([undefined, true] as const)(
      'answers a request whose Host is empty 400 in JSON, as a missing one over HTTP/1.1, over HTTP/1.1 and HTTP/1.0 (allowedHosts: %j) [claim:errors-400-empty-host] [claim:errors-400-empty-host-any-version] [claim:trig-node-refusals]',
      async (allowedHosts) => {
        const server = await serve([echo], allowedHosts === undefined ? {} : { allowedHosts });
        for (const request of [
          'GET /echo HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n',
          'GET /echo HTTP/1.1\r\nHost:   \r\nConnection: close\r\n\r\n',
          'GET /echo HTTP/1.0\r\nHost:\r\n\r\n',
        ]) {
          expect(await rawExchange(server, request), JSON.stringify(request)).toMatchObject({
            status: 400,
            error: {
              status: 400,
              code: 'WEFT_BAD_REQUEST',
              docsUrl: docsOf('WEFT_BAD_REQUEST'),
              message: 'The Host header must name a host; it is empty',
            },
          });
        }
      },
    );

    it.each([undefined, true] as const)(
      'answers a request with more than one Host header 400 in JSON, whichever comes first (allowedHosts: %j) [claim:errors-400-duplicate-host] [claim:trig-node-refusals]',
      async (allowedHosts) => {
        const server = await serve([echo], allowedHosts === undefined ? {} : { allowedHosts });
        for (const [first, second] of [
          ['localhost', 'evil.example'],
          ['evil.example', 'localhost'],
          ['localhost', 'localhost'],
        ]) {
          for (const version of ['1.1', '1.0']) {
            const received = await rawExchange(
              server,
              `POST /echo HTTP/${version}\r\nHost: ${first}\r\nhost: ${second}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
            );
            expect(received, `${version} ${first} ${second}`).toMatchObject({
              status: 400,
              error: {
                status: 400,
                code: 'WEFT_BAD_REQUEST',
                docsUrl: docsOf('WEFT_BAD_REQUEST'),
                message: 'A request must carry one Host header, not 2',
              },
            });
          }
        }
      },
    );

    it('judges the host a request target in absolute form names, not the Host header, as RFC 9112 asks, for the host check and the server own origin; a target naming no host or user information gets 400 [claim:tsdoc-absolute-form-authority] [claim:cfg-allowed-hosts-absolute-form] [claim:prod-allowed-hosts-absolute-form] [claim:errors-host-absolute-form] [claim:errors-bad-request-absolute-form] [claim:trig-403-row] [claim:trig-host-first] [claim:trig-node-refusals] [claim:tsdoc-server-default-allowed-hosts]', async () => {
      const { logger, lines } = capturingLogger();
      const { calls, counting } = counted();
      const server = new ServerManager({ port: 0, allowedHosts: ['agent.example.com'] }, logger);
      servers.push(server);
      server.mount('test-plugin', counting, runtime);
      await server.start();
      const anyHost = await serve([echo], { allowedHosts: true });
      const post = (target: string, host: string, origin = ''): string =>
        `POST ${target} HTTP/1.1\r\nHost: ${host}\r\n${origin}Content-Type: application/json\r\n` +
        'Content-Length: 2\r\nConnection: close\r\n\r\n{}';
      const statusOf = async (target: ServerManager, bytes: string): Promise<string> => {
        const connection = rawConnection(target);
        connection.socket.write(bytes);
        return (await connection.closedWithin(5_000)).slice(0, 12);
      };
      // An allowed Host does not let through a target that names another host.
      for (const target of [
        'http://attacker.example/echo',
        'HTTP://attacker.example:80/echo?x=1',
      ]) {
        const refused = await rawExchange(server, post(target, `127.0.0.1:${server.port}`));
        expect(refused, target).toMatchObject({
          status: 403,
          error: {
            code: 'WEFT_HOST_NOT_ALLOWED',
            message: 'Host "attacker.example" is not allowed by this server',
          },
        });
        const logged = lines.find((line) => line.requestId === refused.error.requestId);
        expect(logged?.msg).toContain('refused a request for host "attacker.example"');
      }
      // A target that names no host, or user information, is malformed whatever the allowed hosts.
      for (const target of [
        'http:///echo',
        'http://:80/echo',
        'http://localhost@attacker.example/echo',
        'http://user:secret@localhost/echo',
      ]) {
        for (const to of [server, anyHost]) {
          expect(await rawExchange(to, post(target, 'localhost')), target).toMatchObject({
            status: 400,
            error: {
              code: 'WEFT_BAD_REQUEST',
              message:
                'A request target in absolute form must name a host, without user information (user@)',
            },
          });
        }
      }
      expect(calls).toEqual([]);
      // A target naming an allowed host passes whatever Host says, and its host is the server's
      // own origin for the origin check.
      expect(
        await statusOf(server, post('http://agent.example.com/echo', 'attacker.example')),
      ).toBe('HTTP/1.1 200');
      expect(
        await statusOf(
          server,
          post(
            `http://localhost:${server.port}/echo`,
            'attacker.example',
            `Origin: http://localhost:${server.port}\r\n`,
          ),
        ),
      ).toBe('HTTP/1.1 200');
      expect(calls).toEqual(['ran', 'ran']);
      expect(
        await rawExchange(
          server,
          post(
            `http://localhost:${server.port}/echo`,
            `attacker.example:${server.port}`,
            `Origin: http://attacker.example:${server.port}\r\n`,
          ),
        ),
      ).toMatchObject({ status: 403, error: { code: 'WEFT_ORIGIN_NOT_ALLOWED' } });
      expect(calls).toEqual(['ran', 'ran']);
    });

    it('rejects a malformed allowedHosts option, naming it [claim:tsdoc-server-constructor]', () => {
      expect(() => new ServerManager({ allowedHosts: [''] })).toThrow(
        /option "allowedHosts" must be true, 'all' or a list of host names/,
      );
    });

    it('rejects an allowedHosts entry with a scheme, port, path or *, naming it [claim:tsdoc-server-constructor] [claim:tsdoc-server-default-allowed-hosts]', () => {
      for (const entry of [
        'http://example.com',
        'name:8080',
        'example.com/',
        '[::1]:80',
        '*.example.com',
        '*',
      ]) {
        expect(() => new ServerManager({ allowedHosts: ['ok.example', entry] }), entry).toThrow(
          `ServerManager: option "allowedHosts" must list host names; each must be a host name such as 'agent.example.com', or '.example.com' for a name and its subdomains, without a scheme, port or path, and without a '*', which is no wildcard here: it is compared with the name of the Host header, whose port is left out. Got ${JSON.stringify(entry)}.`,
        );
      }
      const allowed = ['::1', '[::ffff:10.0.0.1]', '.corp.example', 'Agent.Example.com.'];
      expect(new ServerManager({ allowedHosts: allowed })).toBeInstanceOf(ServerManager);
    });
  });

  describe('JSON nesting limit', () => {
    it('refuses a body nested 100,000 levels with 400, quickly and without overflowing [claim:trig-400-json] [claim:prod-json-depth] [claim:tsdoc-nests-deeper-hostile]', async () => {
      const server = await serve([echo]);
      const deep = '['.repeat(100_000) + ']'.repeat(100_000);
      const started = performance.now();
      const response = await post(`${server.url}/echo`, deep);
      expect(response.status).toBe(400);
      expect(await errorBody(response)).toEqual({
        status: 400,
        code: 'WEFT_BAD_REQUEST',
        docsUrl: docsOf('WEFT_BAD_REQUEST'),
        message: 'JSON body nests deeper than the limit of 64 levels [WEFT_BAD_REQUEST]',
      });
      // Generous bound: the check is one pass over 200 KB; this only catches a hang.
      expect(performance.now() - started).toBeLessThan(5_000);
    });

    it('accepts exactly maxJsonDepth levels and ignores brackets inside strings [claim:prod-json-depth]', async () => {
      const server = await serve([echo], { maxJsonDepth: 3 });
      const atLimit = await post(`${server.url}/echo`, '{"a":[{"b":"[[[[{{{{\\"]]"}]}');
      expect(atLimit.status).toBe(200);
      expect(await atLimit.json()).toEqual({ got: { a: [{ b: '[[[[{{{{"]]' }] } });
      const over = await post(`${server.url}/echo`, '{"a":[{"b":[1]}]}');
      expect(over.status).toBe(400);
      expect((await errorBody(over)).message).toMatch(/limit of 3 levels/);
    });

    it('holds the limit for a UTF-16 body whose bytes pass for a quote, also on a route with its own invalidBodyCode [claim:cfg-max-json-depth] [claim:prod-slow-clients] [claim:prod-json-depth]', async () => {
      let ran = false;
      const handler = (_request: unknown, response: { json(body: unknown): void }) => {
        ran = true;
        response.json({});
      };
      const own = route({ path: '/own', invalidBodyCode: 'WEFT_CHAT_INVALID_REQUEST', handler });
      const server = await serve([route({ handler }), own], { maxJsonDepth: 3 });
      // A UTF-8 body is measured before it is parsed: a deep one that would not parse either gets
      // the depth's refusal, not the parser's.
      for (const body of ['[[[[1]]]]', '[[[[1]]]] not JSON']) {
        const utf8 = await post(`${server.url}/echo`, body);
        expect(utf8.status).toBe(400);
        expect(await errorBody(utf8)).toMatchObject({
          code: 'WEFT_BAD_REQUEST',
          message: 'JSON body nests deeper than the limit of 3 levels [WEFT_BAD_REQUEST]',
        });
        const ownUtf8 = await post(`${server.url}/own`, body);
        expect(ownUtf8.status).toBe(400);
        expect((await errorBody(ownUtf8)).code).toBe('WEFT_CHAT_INVALID_REQUEST');
      }
      expect(ran).toBe(false);
      const send = (path: string, text: string) =>
        fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=utf-16le' },
          body: Buffer.from(text, 'utf16le'),
        });
      // U+2200 is the bytes 00 22 in UTF-16LE: read byte by byte, it would end the string.
      const deep = `["\u2200",${'['.repeat(20)}${']'.repeat(20)}]`;
      const refused = await send('/echo', deep);
      expect(refused.status).toBe(400);
      expect(await errorBody(refused)).toMatchObject({
        code: 'WEFT_BAD_REQUEST',
        message: 'JSON body nests deeper than the limit of 3 levels [WEFT_BAD_REQUEST]',
      });
      const ownRefused = await send('/own', deep);
      expect(ownRefused.status).toBe(400);
      expect((await errorBody(ownRefused)).code).toBe('WEFT_CHAT_INVALID_REQUEST');
      expect(ran).toBe(false);
      const atLimit = await send('/echo', '["\u2200",[[1]]]');
      expect(atLimit.status).toBe(200);
      expect(ran).toBe(true);
      // The limit is inclusive: a UTF-8 body nested exactly maxJsonDepth levels is taken.
      const utf8AtLimit = await post(`${server.url}/echo`, '[[[1]]]');
      expect(utf8AtLimit.status).toBe(200);
      // Any other charset the parser takes is held to the limit too: UTF-7 writes brackets and
      // digits as themselves.
      const utf7 = await fetch(`${server.url}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-7' },
        body: '[[[[1]]]]',
      });
      expect(utf7.status).toBe(400);
      expect((await errorBody(utf7)).message).toMatch(/limit of 3 levels/);
    });
  });

  describe('timeouts and stop()', () => {
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    /** Answers 200 ms after its request arrives: a request still open when a stop begins. */
    /** How many requests the quick route has begun to handle. */
    let quickStarted = 0;
    const quickRoute = route({
      method: 'GET',
      path: '/quick',
      handler: async (_request, response) => {
        quickStarted += 1;
        await wait(200);
        response.json({ finished: true });
      },
    });

    it('stop() closes a connection that drips header lines, within the grace [claim:trig-stop-grace]', async () => {
      const server = await serve([echo], { stopGraceMs: 300 });
      const socket = connect(server.port as number, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.on('error', () => undefined);
      socket.write(`GET /echo HTTP/1.1\r\nHost: localhost\r\n`);
      let line = 0;
      const drip = setInterval(() => {
        line += 1;
        if (!socket.destroyed) socket.write(`X-Drip-${line}: ${line}\r\n`);
      }, 100);
      const closed = new Promise((resolve) => socket.once('close', resolve));
      await new Promise((resolve) => setTimeout(resolve, 250));
      const started = performance.now();
      await server.stop();
      const elapsed = performance.now() - started;
      clearInterval(drip);
      await closed;
      expect(line).toBeGreaterThan(1);
      expect(elapsed).toBeGreaterThanOrEqual(250);
      // Below the default grace of 1000 ms, so a server that ignored stopGraceMs fails here.
      expect(elapsed).toBeLessThan(900);
    });

    it('lets a request open at stop() finish within stopGraceMs, and closes one still open after it without an answer [claim:trig-stop-grace] [claim:cfg-stop-grace]', async () => {
      const server = await serve(
        [
          quickRoute,
          route({
            method: 'GET',
            path: '/slow',
            handler: async (_request, response) => {
              slowStarted = true;
              await wait(6_000);
              if (!response.headersSent) response.json({ finished: true });
            },
          }),
        ],
        { stopGraceMs: 2_000 },
      );
      let slowStarted = false;
      const quickBefore = quickStarted;
      /** Sends a GET on a connection of its own; resolves with the status line, or '' if none came. */
      const get = (path: string) =>
        new Promise<string>((resolve) => {
          const socket = connect(server.port as number, '127.0.0.1');
          let received = '';
          socket.on('data', (chunk) => (received += String(chunk)));
          socket.on('error', () => undefined);
          socket.on('close', () => resolve(received.split('\r\n')[0] ?? ''));
          socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
        });
      const quick = get('/quick');
      const slow = get('/slow');
      // Both requests open, their handlers running, before the stop begins: on a loaded machine a
      // request still on its way when stop() closes idle connections would get no answer at all.
      const openBy = Date.now() + 10_000;
      while ((quickStarted === quickBefore || !slowStarted) && Date.now() < openBy) await wait(5);
      const started = performance.now();
      await server.stop();
      const elapsed = performance.now() - started;
      // The quick handler answered 150 ms into the stop; the slow one was cut off at the grace.
      expect(await quick).toBe('HTTP/1.1 200 OK');
      expect(await slow).toBe('');
      // Past the default grace of 1000 ms, so a server that ignored stopGraceMs fails here, and
      // short of twice the grace, which a server waiting longer reaches (timers fire late, never
      // early), with nearly two seconds of margin for a loaded machine's timers.
      expect(elapsed).toBeGreaterThanOrEqual(1_950);
      expect(elapsed).toBeLessThan(3_900);
    });

    it('ends a stop soon after the last open request is answered, closing its keep-alive connection then rather than at stopGraceMs [claim:trig-stop-grace]', async () => {
      const server = await serve([quickRoute], { stopGraceMs: 3_000 });
      const socket = connect(server.port as number, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => (received += String(chunk)));
      socket.on('error', () => undefined);
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      // A keep-alive request, as a browser sends, on a connection that would otherwise stay open.
      socket.write('GET /quick HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
      await wait(50);
      const started = performance.now();
      await server.stop();
      const elapsed = performance.now() - started;
      await closed;
      expect(received.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
      expect(elapsed).toBeGreaterThanOrEqual(100);
      // Well before the 3 s grace: the connection was closed once its answer was sent.
      expect(elapsed).toBeLessThan(1_500);
    });

    it('answers 408 to a client that takes longer than headersTimeout, with a JSON body and X-Request-Id [claim:trig-headers-timeout] [claim:prod-slow-clients] [claim:errors-408-json] [claim:errors-408-cause] [claim:trig-node-refusals]', async () => {
      // requestTimeout is far past rawExchange's 5 s deadline, so only headersTimeout can answer.
      const server = await serve([echo], { headersTimeout: 300, requestTimeout: 60_000 });
      const received = await rawExchange(server, 'GET /echo HTTP/1.1\r\nHost: localhost\r\n', {
        drip: 'X-Drip: 1\r\n',
      });
      expect(received.status).toBe(408);
      expect(received.error).toMatchObject({
        status: 408,
        code: 'WEFT_BAD_REQUEST',
        docsUrl: docsOf('WEFT_BAD_REQUEST'),
        message: expect.stringContaining('server.headersTimeout'),
      });
    });

    it("counts headersTimeout from the request's first byte, and from the opening of a connection that has sent none [claim:errors-408-from-first-byte] [claim:prod-headers-timeout-from-first-byte] [claim:trig-headers-timeout]", async () => {
      const server = await serve([echo], { headersTimeout: 2_000, requestTimeout: 60_000 });
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const exchange = async (firstByteAtMs: number | undefined, restAtMs: number) => {
        const socket = connect(server.port as number, '127.0.0.1');
        socket.on('error', () => undefined);
        let received = '';
        socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
        const closed = new Promise((resolve) => socket.once('close', resolve));
        const request =
          'POST /echo HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}';
        if (firstByteAtMs !== undefined) {
          await sleep(firstByteAtMs);
          if (!socket.destroyed) socket.write(request.slice(0, 1));
          await sleep(restAtMs - firstByteAtMs);
          if (!socket.destroyed) socket.write(request.slice(1));
        }
        await Promise.race([closed, sleep(restAtMs + 3_000)]);
        socket.destroy();
        return Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1]);
      };
      const [trickled, silent] = await Promise.all([
        // Headers done 3 s after connecting, but 1.5 s after their first byte: served.
        exchange(1_500, 3_000),
        // Nothing sent: refused once headersTimeout has passed since the connection opened.
        exchange(undefined, 2_000),
      ]);
      expect(trickled).toBe(200);
      expect(silent).toBe(408);
    });

    it("gives the next request on a kept-alive connection headersTimeout from its first byte, not Node's keep-alive timer, and answers it 408 once that has passed [claim:trig-headers-timeout] [claim:trig-node-refusals]", async () => {
      // Node.js alone would close each connection 1.5 s after the next request's last byte,
      // before the rest of its headers come (2.5 s) and without an answer.
      const server = await serve([echo], {
        keepAliveTimeout: 500,
        headersTimeout: 5_000,
        requestTimeout: 60_000,
      });
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const next = async (rest: string | undefined) => {
        const socket = connect(server.port as number, '127.0.0.1');
        socket.on('error', () => undefined);
        let received = '';
        socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
        const closed = new Promise((resolve) => socket.once('close', resolve));
        const request =
          'POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n';
        socket.write(`${request}\r\n{}`);
        const answeredBy = Date.now() + 5_000;
        while (!received.includes('}}') && Date.now() < answeredBy) await sleep(5);
        socket.write(request);
        await sleep(2_500);
        if (rest !== undefined && !socket.destroyed) socket.write(rest);
        await Promise.race([closed, sleep(10_000)]);
        socket.destroy();
        return [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => match[1]);
      };
      const [finished, stalled] = await Promise.all([
        // The headers end 2.5 s after they began, within headersTimeout: served.
        next('Connection: close\r\n\r\n{}'),
        // The headers never end: 408 once headersTimeout has passed since they began.
        next(undefined),
      ]);
      expect(finished).toEqual(['200', '200']);
      expect(stalled).toEqual(['200', '408']);
    });

    it('answers a late client 408 once a check finds it past its deadline: after it, and at most about a second later [claim:prod-slow-clients] [claim:cfg-headers-timeout-late] [claim:cfg-request-timeout-late] [claim:trig-timeouts-late]', async () => {
      // With headersTimeout at 1000 ms, Node checks every 1000 ms, as it does with the defaults.
      const server = await serve([echo], { headersTimeout: 1_000, requestTimeout: 2_000 });
      const timed = async (bytes: string, drip?: string) => {
        const started = performance.now();
        const { status } = await rawExchange(server, bytes, { drip });
        return { status, ms: performance.now() - started };
      };
      const [idle, headers, body] = await Promise.all([
        // A connection that sends nothing is timed from its opening.
        timed(''),
        timed('GET /echo HTTP/1.1\r\nHost: localhost\r\n', 'X-Drip: 1\r\n'),
        timed(
          'POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n[',
          ' ',
        ),
      ]);
      expect(idle.status).toBe(408);
      expect(idle.ms).toBeGreaterThanOrEqual(1_000);
      expect(idle.ms).toBeLessThan(2_000 + 500);
      expect(headers.status).toBe(408);
      expect(headers.ms).toBeGreaterThanOrEqual(1_000);
      expect(headers.ms).toBeLessThan(2_000 + 500);
      expect(body.status).toBe(408);
      expect(body.ms).toBeGreaterThanOrEqual(2_000);
      expect(body.ms).toBeLessThan(3_000 + 500);
    });

    it('looks for late clients once a second with a headersTimeout above a second too, as with the default of 10 s: no idle connection waits more than about a second past its deadline [claim:trig-timeouts-late] [claim:cfg-headers-timeout-late]', async () => {
      const headersTimeout = 2_500;
      const server = await serve([echo], { headersTimeout, requestTimeout: 5_000 });
      // Opened 400 ms apart, the connections reach their deadlines over 2 s: with a checking
      // period of 3 s, one of them waits 2 s or more past its deadline, whatever the timers' lag,
      // and with the period of a second none waits more than a second and that lag.
      const lateness = await Promise.all(
        Array.from({ length: 6 }, async (_, index) => {
          await new Promise((resolve) => setTimeout(resolve, index * 400));
          const started = performance.now();
          const { status } = await rawExchange(server, '');
          expect(status).toBe(408);
          return performance.now() - started - headersTimeout;
        }),
      );
      for (const ms of lateness) {
        expect(ms).toBeGreaterThanOrEqual(0);
        expect(ms).toBeLessThan(1_950);
      }
    });

    it('answers 408 to a client whose body is still arriving after requestTimeout, after the middleware ran and before any route handler, with the request id the middleware saw, and to late headers before any middleware [claim:errors-408-cause] [claim:errors-408-late-body] [claim:trig-request-timeout] [claim:trig-request-id]', async () => {
      const server = new ServerManager(
        { port: 0, headersTimeout: 300, requestTimeout: 600 },
        silentLogger,
      );
      servers.push(server);
      const seen: string[] = [];
      server.app.use((request, response, next) => {
        seen.push(`${request.method} ${request.path} ${String(response.locals.requestId)}`);
        next();
      });
      let ran = false;
      server.mount(
        'test-plugin',
        route({
          handler: (_request, response) => {
            ran = true;
            response.json({});
          },
        }),
        runtime,
      );
      await server.start();
      const received = await rawExchange(
        server,
        'POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n[',
        { drip: ' ' },
      );
      expect(received.status).toBe(408);
      expect(received.error).toMatchObject({ status: 408, code: 'WEFT_BAD_REQUEST' });
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatch(/^POST \/echo [0-9a-f-]{36}$/);
      expect(seen[0]).toBe(`POST /echo ${String(received.error.requestId)}`);
      // Late headers, on the other hand, are answered before the middleware sees anything.
      const lateHeaders = await rawExchange(server, 'POST /echo HTTP/1.1\r\nHost: localhost\r\n', {
        drip: 'X-Drip: 1\r\n',
      });
      expect(lateHeaders.status).toBe(408);
      expect(seen).toHaveLength(1);
      expect(ran).toBe(false);
    });

    it('answers 408 with the request id the handler read when a body not sent as JSON is still arriving at requestTimeout [claim:trig-request-id] [claim:errors-408-unparsed-body]', async () => {
      const ids: string[] = [];
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let handled!: () => void;
      const done = new Promise<void>((resolve) => (handled = resolve));
      const server = await serve(
        [
          route({
            handler: async (request, response) => {
              ids.push(request.requestId);
              await released;
              // The connection is gone by now; answering it must not throw.
              response.json({});
              handled();
            },
          }),
        ],
        { headersTimeout: 300, requestTimeout: 600 },
      );
      const received = await rawExchange(
        server,
        'POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\nx',
        { drip: 'x' },
      );
      expect(received.status).toBe(408);
      expect(ids).toEqual([received.error.requestId]);
      release();
      await done;
    });

    it('answers a body over bodyLimit 413 as soon as its Content-Length or its bytes so far pass the limit, though it is still arriving [claim:trig-413-early]', async () => {
      let ran = false;
      const server = await serve(
        [
          route({
            handler: (_request, response) => {
              ran = true;
              response.json({});
            },
          }),
        ],
        { bodyLimit: 100, headersTimeout: 300, requestTimeout: 600 },
      );
      const head = 'POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n';
      // Declared over the limit, sent whole at once: 413.
      const whole = await rawExchange(
        server,
        `${head}Content-Length: 1000\r\nConnection: close\r\n\r\n[${' '.repeat(998)}]`,
      );
      expect(whole).toMatchObject({
        status: 413,
        error: { status: 413, code: 'WEFT_BAD_REQUEST' },
      });
      // Declared over the limit, or chunked past it, and still arriving: 413 all the same, long
      // before requestTimeout would answer 408.
      const declared = await rawExchange(server, `${head}Content-Length: 100000\r\n\r\n[`, {
        drip: '          ',
      });
      expect(declared).toMatchObject({ status: 413, error: { status: 413 } });
      // 40 bytes every 100 ms: past the limit of 100 at the third, before requestTimeout (600 ms).
      const chunked = await rawExchange(server, `${head}Transfer-Encoding: chunked\r\n\r\n`, {
        drip: `28\r\n${' '.repeat(40)}\r\n`,
      });
      expect(chunked).toMatchObject({ status: 413, error: { status: 413 } });
      expect(ran).toBe(false);
    });

    it('closes without a 408 a connection whose answer is still being written when requestTimeout passes, and sends the 408 after an answer already complete, with the request id of that answer [claim:errors-408-json] [claim:errors-408-after-answer]', async () => {
      const server = new ServerManager(
        { port: 0, headersTimeout: 300, requestTimeout: 600 },
        silentLogger,
      );
      servers.push(server);
      // Middleware that answers before the body has arrived: in part, or in full (a refusal).
      server.app.use((request, response) => {
        if (request.path === '/partial') {
          response.writeHead(200, { 'content-type': 'text/plain' });
          response.write('partial');
        } else response.status(401).json({ refused: true });
      });
      await server.start();
      const lateBody = async (path: string): Promise<string> => {
        const connection = rawConnection(server);
        connection.socket.write(
          `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n[`,
        );
        return await connection.closedWithin(5_000, { text: ' ', everyMs: 100 });
      };
      const partial = await lateBody('/partial');
      expect(partial).toMatch(/^HTTP\/1\.1 200 /);
      expect(partial).toContain('partial');
      expect(partial).not.toMatch(/^HTTP\/1\.1 408/m);
      const refused = await lateBody('/refused');
      const answers = refused.split(/(?=HTTP\/1\.1 \d{3} )/);
      expect(answers).toHaveLength(2);
      expect(answers[0]).toMatch(/^HTTP\/1\.1 401 [\s\S]*\{"refused":true\}$/);
      expect(answers[1]).toMatch(/^HTTP\/1\.1 408 /);
      expect(answers[1]).toMatch(/^connection: close$/im);
      const body = JSON.parse(answers[1]?.split('\r\n\r\n')[1] ?? '') as {
        error: Record<string, unknown>;
      };
      expect(body.error).toMatchObject({ status: 408, code: 'WEFT_BAD_REQUEST' });
      // The 408 is about the same request: it carries the id the 401 was sent with.
      const answeredId = /^x-request-id: (\S+)$/im.exec(answers[0] ?? '')?.[1];
      expect(answeredId).toMatch(UUID);
      expect(body.error.requestId).toBe(answeredId);
      expect(/^x-request-id: (\S+)$/im.exec(answers[1] ?? '')?.[1]).toBe(answeredId);
    });

    it('closes without a 408, once keepAliveTimeout has passed, the connection of a client that sends nothing more of its body after a complete answer [claim:errors-408-after-answer-silent]', async () => {
      // keepAliveTimeout well before requestTimeout, as with the defaults (5 s and 30 s).
      const server = new ServerManager(
        { port: 0, headersTimeout: 300, keepAliveTimeout: 600, requestTimeout: 6_000 },
        silentLogger,
      );
      servers.push(server);
      server.app.use((_request, response) => {
        response.status(401).json({ refused: true });
      });
      await server.start();
      const connection = rawConnection(server);
      let answeredAt = 0;
      connection.socket.on('data', () => {
        answeredAt ||= performance.now();
      });
      // The body's first byte, then nothing more.
      connection.socket.write(
        'POST /refused HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n[',
      );
      const received = await connection.closedWithin(12_000);
      const closedAt = performance.now();
      // Only the 401: the connection was closed before requestTimeout could send its 408.
      const answers = received.split(/(?=HTTP\/1\.1 \d{3} )/);
      expect(answers).toHaveLength(1);
      expect(answers[0]).toMatch(/^HTTP\/1\.1 401 [\s\S]*\{"refused":true\}$/);
      // Timers never fire early: held for keepAliveTimeout after the answer, not closed with it.
      expect(closedAt - answeredAt).toBeGreaterThanOrEqual(550);
    });

    it('answers 408 to a kept-alive connection whose next request stalls in its headers for longer than keepAliveTimeout, once headersTimeout has passed, as to one that keeps sending them [claim:errors-408-keep-alive-later-request]', async () => {
      // keepAliveTimeout (and Node's extra second) well before headersTimeout, as with the
      // defaults (5 s and 10 s).
      const server = await serve(
        [
          route({
            method: 'GET',
            path: '/first',
            handler: (_request, response) => response.json({ first: true }),
          }),
        ],
        { headersTimeout: 4_000, keepAliveTimeout: 500, requestTimeout: 8_000 },
      );
      const nextRequest = async (drip: boolean): Promise<string> => {
        const connection = rawConnection(server);
        const answered = new Promise<void>((resolve) => {
          connection.socket.on('data', () => {
            if (connection.received().includes('{"first":true}')) resolve();
          });
        });
        connection.socket.write('GET /first HTTP/1.1\r\nHost: localhost\r\n\r\n');
        await answered;
        // The next request's line, then its headers byte by byte, or nothing more.
        connection.socket.write('GET /first HTTP/1.1\r\nX-Slow: ');
        return await connection.closedWithin(
          15_000,
          drip ? { text: 'a', everyMs: 200 } : undefined,
        );
      };
      // Node.js alone would close the silent one 1.5 s after its last byte, without an answer.
      const silent = (await nextRequest(false)).split(/(?=HTTP\/1\.1 \d{3} )/);
      expect(silent).toHaveLength(2);
      expect(silent[0]).toMatch(/^HTTP\/1\.1 200 [\s\S]*\{"first":true\}/);
      expect(silent[1]).toMatch(/^HTTP\/1\.1 408 /);
      const dripping = (await nextRequest(true)).split(/(?=HTTP\/1\.1 \d{3} )/);
      expect(dripping).toHaveLength(2);
      expect(dripping[1]).toMatch(/^HTTP\/1\.1 408 /);
    });

    it('answers chunk extensions over the size limit with 413 as JSON, before the handler of a JSON body runs [claim:errors-413-chunk-extensions] [claim:trig-node-refusals]', async () => {
      let ran = false;
      const server = await serve([
        route({
          handler: (_request, response) => {
            ran = true;
            response.json({});
          },
        }),
      ]);
      const received = await rawExchange(
        server,
        `POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2;ext=${'a'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`,
      );
      expect(received.status).toBe(413);
      expect(received.error).toMatchObject({
        status: 413,
        code: 'WEFT_BAD_REQUEST',
        docsUrl: docsOf('WEFT_BAD_REQUEST'),
        message: expect.stringContaining('chunk extensions'),
      });
      expect(ran).toBe(false);
    });

    it('lets a route that answers without reading a body of another type run first, and sends the 413 for its chunk extensions after its answer [claim:errors-413-chunk-extensions]', async () => {
      let ran = 0;
      const server = await serve([
        route({
          handler: (_request, response) => {
            ran += 1;
            response.status(400).json({});
          },
        }),
      ]);
      const socket = connect(server.port as number, '127.0.0.1');
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (received += chunk));
      try {
        socket.write(
          'POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n',
        );
        await expect.poll(() => received).toMatch(/^HTTP\/1\.1 400 /);
        expect(ran).toBe(1);
        socket.write(`2;ext=${'a'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`);
        await expect.poll(() => received).toMatch(/HTTP\/1\.1 413 [^]*"code":"WEFT_BAD_REQUEST"/);
      } finally {
        socket.destroy();
      }
    });

    it('answers chunk extensions over the limit with the request id the middleware saw, without running a JSON route, and in place of a later answer of a route whose body is not JSON [claim:errors-413-chunk-extensions-after-headers]', async () => {
      const server = new ServerManager({ port: 0 }, silentLogger);
      servers.push(server);
      const seen: string[] = [];
      server.app.use((request, response, next) => {
        seen.push(`${request.path} ${String(response.locals.requestId)}`);
        next();
      });
      const handled: string[] = [];
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let answered!: () => void;
      const done = new Promise<void>((resolve) => (answered = resolve));
      server.mount(
        'test-plugin',
        route({
          path: '/json',
          handler: (request, response) => {
            handled.push(`/json ${request.requestId}`);
            response.json({});
          },
        }),
        runtime,
      );
      server.mount(
        'test-plugin',
        route({
          path: '/plain',
          handler: async (request, response) => {
            handled.push(`/plain ${request.requestId}`);
            await released;
            // The connection is answered and closed by now; this answer is lost.
            response.json({ late: true });
            answered();
          },
        }),
        runtime,
      );
      await server.start();
      const chunked = (path: string, type: string): string =>
        `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${type}\r\nTransfer-Encoding: chunked\r\n\r\n2;ext=${'a'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`;
      const json = await rawExchange(server, chunked('/json', 'application/json'));
      expect(json).toMatchObject({ status: 413, error: { code: 'WEFT_BAD_REQUEST' } });
      expect(seen).toEqual([`/json ${String(json.error.requestId)}`]);
      const plain = await rawExchange(server, chunked('/plain', 'text/plain'));
      expect(plain).toMatchObject({ status: 413, error: { code: 'WEFT_BAD_REQUEST' } });
      expect(seen[1]).toBe(`/plain ${String(plain.error.requestId)}`);
      // Only the handler of the body that is not JSON ran, before the 413, which replaced its answer.
      expect(handled).toEqual([`/plain ${String(plain.error.requestId)}`]);
      release();
      await done;
    });

    it('answers headers over the size limit with 431 and bytes that are not HTTP with 400, both as JSON [claim:errors-431] [claim:errors-431-cause] [claim:trig-node-refusals]', async () => {
      const server = await serve([echo]);
      const large = await rawExchange(
        server,
        `GET /echo HTTP/1.1\r\nHost: localhost\r\nX-Large: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(large.status).toBe(431);
      expect(large.error).toMatchObject({ status: 431, code: 'WEFT_BAD_REQUEST' });
      // The request line counts too: a long URL with small headers is refused the same way.
      const longUrl = await rawExchange(
        server,
        `GET /echo?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
      );
      expect(longUrl.status).toBe(431);
      expect(longUrl.error).toMatchObject({
        status: 431,
        code: 'WEFT_BAD_REQUEST',
        message: expect.stringContaining('the URL included'),
      });
      const garbage = await rawExchange(server, 'NOT HTTP AT ALL\r\n\r\n');
      expect(garbage.status).toBe(400);
      expect(garbage.error).toMatchObject({ status: 400, code: 'WEFT_BAD_REQUEST' });
    });

    it('counts the URL and the header names and values against the header limit, not the separators and line breaks [claim:errors-431-counted-bytes] [claim:chat-readme-431] [claim:httpchat-row-431]', async () => {
      const server = await serve([echo]);
      // `X-0000: a` is 11 bytes on the wire, of which Node.js counts the 7 of its name and value.
      const request = (count: number): string =>
        `POST /echo HTTP/1.1\r\nHost: localhost\r\n${Array.from(
          { length: count },
          (_, index) => `X-${String(index).padStart(4, '0')}: a\r\n`,
        ).join(
          '',
        )}Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`;
      // 2,000 headers: over 22,000 bytes on the wire, about 14,050 counted, below 16 KiB.
      expect(Buffer.byteLength(request(2_000))).toBeGreaterThan(16 * 1024 + 4_096);
      const connection = rawConnection(server);
      connection.socket.write(request(2_000));
      expect(await connection.closedWithin(5_000)).toMatch(/^HTTP\/1\.1 200 /);
      // 2,500 headers: about 17,550 counted, over 16 KiB.
      const refused = await rawExchange(server, request(2_500));
      expect(refused.status).toBe(431);
      expect(refused.error).toMatchObject({ status: 431, code: 'WEFT_BAD_REQUEST' });
    });

    it('refuses a head of exactly 16 KiB counted bytes with 431, and takes one byte less [claim:httpchat-row-431]', async () => {
      const server = await serve([echo]);
      // Counted: the URL (5), "Host" and "localhost" (13), "Connection" and "close" (15), "X"
      // (1) and its value: 34 bytes and the padding.
      const request = (counted: number): string =>
        `GET /echo HTTP/1.1\r\nHost: localhost\r\nX: ${'a'.repeat(counted - 34)}\r\nConnection: close\r\n\r\n`;
      expect((await rawExchange(server, request(16 * 1024 - 1))).status).toBe(404);
      const refused = await rawExchange(server, request(16 * 1024));
      expect(refused.status).toBe(431);
      expect(refused.error).toMatchObject({ status: 431, code: 'WEFT_BAD_REQUEST' });
    });

    it('answers an Expect header other than 100-continue with 417 as JSON, before any route runs [claim:errors-417-expectation] [claim:trig-node-refusals] [claim:httpchat-row-417] [claim:chat-readme-417]', async () => {
      let ran = false;
      const server = await serve([
        route({
          handler: (_request, response) => {
            ran = true;
            response.json({});
          },
        }),
      ]);
      const received = await rawExchange(
        server,
        'POST /echo HTTP/1.1\r\nHost: localhost\r\nExpect: something-else\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
      );
      expect(received.status).toBe(417);
      expect(received.error).toMatchObject({
        status: 417,
        code: 'WEFT_BAD_REQUEST',
        docsUrl: docsOf('WEFT_BAD_REQUEST'),
        message: expect.stringContaining('100-continue'),
      });
      expect(ran).toBe(false);
      // 100-continue itself is met: the route runs.
      const continued = await rawRequest(`${server.url}/echo`, {
        headers: { 'content-type': 'application/json', expect: '100-continue' },
        body: '{}',
      });
      expect(continued.status).toBe(200);
      expect(ran).toBe(true);
      // A list that names 100-continue is met as 100-continue.
      ran = false;
      const listed = await rawRequest(`${server.url}/echo`, {
        headers: { 'content-type': 'application/json', expect: '100-continue, something-else' },
        body: '{}',
      });
      expect(listed.status).toBe(200);
      expect(ran).toBe(true);
      // Node looks for 100-continue as a word anywhere in the value, even inside another token.
      ran = false;
      const inside = await rawRequest(`${server.url}/echo`, {
        headers: { 'content-type': 'application/json', expect: 'x-100-continue' },
        body: '{}',
      });
      expect(inside.status).toBe(200);
      expect(ran).toBe(true);
      // Node ignores the Expect header of an HTTP/1.0 request: the route runs.
      ran = false;
      const socket = connect(server.port as number, '127.0.0.1');
      socket.on('error', () => undefined);
      let old = '';
      socket.on('data', (chunk: Buffer) => (old += chunk.toString('utf8')));
      const closed = new Promise((resolve) => socket.once('close', resolve));
      socket.write(
        'POST /echo HTTP/1.0\r\nHost: localhost\r\nExpect: something-else\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
      );
      await closed;
      expect(old).toMatch(/^HTTP\/1\.1 200 /);
      expect(ran).toBe(true);
    });

    it.each([
      [{ maxJsonDepth: 0 }, 'maxJsonDepth'],
      [{ headersTimeout: -1 }, 'headersTimeout'],
      [{ requestTimeout: 1.5 }, 'requestTimeout'],
      [{ keepAliveTimeout: Number.NaN }, 'keepAliveTimeout'],
      [{ stopGraceMs: 0 }, 'stopGraceMs'],
    ])('rejects %j, naming the option', (config, name) => {
      expect(() => new ServerManager(config)).toThrow(
        `ServerManager: option "${name}" must be a positive integer`,
      );
    });

    it('rejects an empty or non-string host, which Node would take for every interface [claim:tsdoc-server-constructor]', () => {
      for (const host of ['', 42 as unknown as string]) {
        expect(() => new ServerManager({ host }), JSON.stringify(host)).toThrow(
          'ServerManager: option "host" must be a non-empty string',
        );
      }
      expect(new ServerManager({ host: '::1' })).toBeInstanceOf(ServerManager);
    });

    it('rejects a host of spaces or with spaces around it, which Node.js would fail to look up only when listening [claim:tsdoc-server-constructor]', () => {
      for (const host of [' ', ' 127.0.0.1', 'localhost\n']) {
        expect(() => new ServerManager({ host }), JSON.stringify(host)).toThrow(
          `ServerManager: option "host" must not be blank or begin or end with a space, such as '127.0.0.1' or '0.0.0.0': Node.js would fail to look it up when the server starts listening, got ${JSON.stringify(host)}.`,
        );
      }
    });

    it('rejects a headersTimeout longer than requestTimeout [claim:tsdoc-server-constructor]', () => {
      expect(() => new ServerManager({ headersTimeout: 5_000, requestTimeout: 1_000 })).toThrow(
        /"headersTimeout" \(5000 ms\) must not exceed "requestTimeout" \(1000 ms\)/,
      );
    });
  });
});
