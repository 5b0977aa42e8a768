/**
 * The HTTP server's connection caps (`server.maxConnections`, `server.maxConnectionsPerClient`),
 * shown with real sockets: a connection over a cap is answered 503 and closed before any route
 * runs, the connections already open go on, and a slot is taken again once one closes.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { WeftError, type TriggerRoute } from '@weft/core';
import { ServerManager } from '@weft/core/node';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { SERVER_DEFAULTS } from '../src/server/server-options.js';
import { capturingLogger } from '@weft-internal/test-support/capturing-logger';
import { silentLogger, startServer } from './fixtures.js';

const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

/** The server's line about refused connections. */
const refusedLine = (line: Record<string, unknown>): boolean =>
  String(line.msg).startsWith('refused connections over a connection cap');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A server with one route, `GET /ping`, that counts its calls. */
async function serve(
  config: ConstructorParameters<typeof ServerManager>[0],
  logger = silentLogger,
): Promise<{ server: ServerManager; calls: () => number }> {
  let calls = 0;
  const ping: TriggerRoute = {
    type: 'route',
    id: 'ping',
    method: 'GET',
    path: '/ping',
    handler: (_request, response) => {
      calls += 1;
      response.json({ pong: true });
    },
  };
  const server = await startServer([ping], config, { logger });
  return { server, calls: () => calls };
}

/**
 * An open connection that has sent nothing yet, with everything it receives. `from` is the
 * client's address: Linux routes all of 127.0.0.0/8 to the loopback interface.
 */
async function openConnection(
  server: ServerManager,
  from = '127.0.0.1',
): Promise<{ socket: Socket; received: () => string; closed: Promise<unknown> }> {
  const socket = connect({ port: server.port as number, host: '127.0.0.1', localAddress: from });
  sockets.push(socket);
  socket.on('error', () => undefined);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  const closed = once(socket, 'close');
  await once(socket, 'connect');
  return { socket, received: () => received, closed };
}

/** Waits, at most 5 s, for a promise such as a socket's close. */
async function within5s(promise: Promise<unknown>, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within 5 s`)), 5_000);
  });
  try {
    await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The answer a refused connection read before the server closed it. */
async function refusal(connection: Awaited<ReturnType<typeof openConnection>>): Promise<{
  status: number;
  retryAfter: string | undefined;
  error: Record<string, unknown>;
}> {
  await within5s(connection.closed, 'close of the refused connection');
  const [head = '', body = ''] = connection.received().split('\r\n\r\n');
  const { error } = JSON.parse(body) as { error: Record<string, unknown> };
  expect(error.requestId).toMatch(UUID);
  expect(/^x-request-id: (.+)$/im.exec(head)?.[1]).toBe(error.requestId);
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
    retryAfter: /^retry-after: (.+)$/im.exec(head)?.[1],
    error,
  };
}

/** `GET /ping` over an open connection; resolves with the status line's code. */
async function ping(connection: Awaited<ReturnType<typeof openConnection>>): Promise<number> {
  const before = connection.received().length;
  connection.socket.write('GET /ping HTTP/1.1\r\nHost: localhost\r\n\r\n');
  const deadline = Date.now() + 5_000;
  while (!/\r\n\r\n\{"pong":true\}/.test(connection.received().slice(before))) {
    if (Date.now() > deadline) throw new Error(`no answer to /ping: ${connection.received()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Number(/HTTP\/1\.1 (\d{3})/.exec(connection.received().slice(before))?.[1]);
}

describe('ServerManager connection caps', () => {
  it('answers 503 WEFT_TOO_MANY_CONNECTIONS with Retry-After to a connection over maxConnections and closes it, keeps the open ones answering, and takes a new one once one closes [claim:errors-too-many-connections] [claim:errors-503-too-many-connections] [claim:errors-5xx-message-generic] [claim:tsdoc-server-default-max-connections] [claim:prod-max-connections] [claim:trig-max-connections] [claim:trig-503-connections] [claim:obs-connections-refused] [claim:httpchat-max-connections] [claim:cfg-max-connections]', async () => {
    const { logger, lines } = capturingLogger();
    const { server, calls } = await serve({ maxConnections: 3 }, logger);
    const open = [
      await openConnection(server),
      await openConnection(server),
      await openConnection(server, '127.0.0.2'),
    ];

    const refused = await refusal(await openConnection(server, '127.0.0.3'));
    expect(refused).toMatchObject({
      status: 503,
      retryAfter: '1',
      error: {
        status: 503,
        code: 'WEFT_TOO_MANY_CONNECTIONS',
        docsUrl: 'https://weft-ai.github.io/docs/reference/errors/#weft_too_many_connections',
      },
    });
    // Unlike other 5xx answers, the message says which limit the client met.
    expect(refused.error.message).toMatch(/as many connections as it takes/);
    expect(calls()).toBe(0);
    expect(await ping(open[0]!)).toBe(200);
    // Against the total cap, `open` counts the server's connections, not the client's.
    expect(lines.filter(refusedLine)).toEqual([
      expect.objectContaining({
        level: 40,
        address: '127.0.0.3',
        open: 3,
        limit: 'maxConnections',
        refused: 1,
      }),
    ]);

    // A closed connection frees its slot: a new one is served.
    open[1]!.socket.destroy();
    await open[1]!.closed;
    const deadline = Date.now() + 5_000;
    for (;;) {
      const next = await openConnection(server);
      const status = await Promise.race([ping(next), next.closed.then(() => 503)]);
      if (status === 200) break;
      if (Date.now() > deadline) throw new Error('no slot came free after a close');
    }
    expect(SERVER_DEFAULTS.maxConnections).toBe(1_000);
  });

  it('refuses a connection over maxConnectionsPerClient before any route sees its request, and logs the refusals at most once in 10 s [claim:errors-too-many-connections] [claim:errors-503-too-many-connections] [claim:errors-503-connection-cap-log] [claim:obs-connections-refused] [claim:tsdoc-server-max-connections-per-client] [claim:prod-max-connections-per-client] [claim:trig-max-connections-per-client] [claim:httpchat-max-connections] [claim:cfg-max-connections-per-client]', async () => {
    const { logger, lines } = capturingLogger();
    const { server, calls } = await serve(
      { maxConnections: 50, maxConnectionsPerClient: 2 },
      logger,
    );
    const first = await openConnection(server);
    await openConnection(server);

    // The third from the same address sends its request at once: the route never runs for it.
    const third = await openConnection(server);
    third.socket.write('GET /ping HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const thirdRefused = await refusal(third);
    expect(thirdRefused).toMatchObject({
      status: 503,
      retryAfter: '1',
      error: { code: 'WEFT_TOO_MANY_CONNECTIONS' },
    });
    const fourthRefused = await refusal(await openConnection(server));
    expect(fourthRefused).toMatchObject({ status: 503 });
    expect(calls()).toBe(0);
    expect(await ping(first)).toBe(200);
    expect(calls()).toBe(1);

    const lineFor = (refused: number) =>
      expect.objectContaining({
        level: 40,
        address: '127.0.0.1',
        open: 2,
        limit: 'maxConnectionsPerClient',
        refused,
      });
    // The first refusal is logged; the second, within 10 s, is only counted.
    expect(lines.filter(refusedLine)).toEqual([lineFor(1)]);
    // The refusals' request ids are in no log line: the warning counts them instead.
    for (const { error } of [thirdRefused, fourthRefused]) {
      expect(JSON.stringify(lines)).not.toContain(String(error.requestId));
    }

    // 10 s later the next refusal writes a line again, counting the one in between and itself.
    const now = performance.now();
    const clock = vi.spyOn(performance, 'now').mockReturnValue(now + 9_000);
    onTestFinished(() => clock.mockRestore());
    expect(await refusal(await openConnection(server))).toMatchObject({ status: 503 });
    expect(lines.filter(refusedLine)).toEqual([lineFor(1)]);
    clock.mockReturnValue(now + 10_500);
    expect(await refusal(await openConnection(server))).toMatchObject({ status: 503 });
    expect(lines.filter(refusedLine)).toEqual([lineFor(1), lineFor(3)]);
    expect(SERVER_DEFAULTS.maxConnectionsPerClient).toBeUndefined();
  });

  it('refuses a connection cap that is not a positive integer, naming it', () => {
    for (const [option, value] of [
      ['maxConnections', 0],
      ['maxConnectionsPerClient', 1.5],
    ] as const) {
      let thrown: unknown;
      try {
        new ServerManager({ [option]: value }, silentLogger);
      } catch (error) {
        thrown = error;
      }
      expect(WeftError.is(thrown, 'WEFT_INVALID_ARGUMENT')).toBe(true);
      expect((thrown as Error).message).toContain(`option "${option}"`);
    }
  });
});
