/**
 * requestTimeout bounds how long a request takes to arrive, not how long its handler takes to
 * answer: a trigger may wait for its task.
 */
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ServerManager } from '@weft/core/node';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from './fixtures.js';

let server: ServerManager | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/**
 * Starts a server with `timeouts` whose one route answers POST /<name> with `handler`; it stops
 * when the test ends.
 */
async function servePost(
  name: string,
  timeouts: { requestTimeout: number; headersTimeout: number },
  handler: Parameters<ServerManager['mount']>[1]['handler'],
): Promise<ServerManager> {
  const started = new ServerManager({ port: 0, ...timeouts }, silentLogger);
  server = started;
  started.mount(name, { method: 'POST', path: `/${name}`, handler }, undefined);
  await started.start();
  return started;
}

/**
 * Opens a connection to the server, runs `steps` on it once it is open, and gives all that came
 * back by the time it closed.
 */
async function exchange(steps: (socket: Socket) => Promise<void>): Promise<string> {
  const { hostname, port } = new URL((server as ServerManager).url as string);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    received += chunk;
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  await steps(socket);
  await closed;
  return received;
}

/** The status codes of the HTTP/1.1 answers in `received`, in order. */
function statusesIn(received: string): string[] {
  return [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => match[1] as string);
}

describe('ServerManager requestTimeout', () => {
  it('lets a handler answer after requestTimeout once the whole request has arrived [claim:httpchat-request-timeout] [claim:trig-request-timeout] [claim:prod-client-waits-task]', async () => {
    server = await servePost(
      'slow',
      { requestTimeout: 600, headersTimeout: 300 },
      async (_request, response) => {
        await sleep(1_200);
        response.json({ answered: true });
      },
    );
    const response = await fetch(`${server.url}/slow`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ answered: true });
  });

  it('lets a handler answer after requestTimeout when a large body was not sent as JSON, which the server reads off unparsed [claim:trig-request-timeout] [claim:trig-unparsed-body]', async () => {
    server = await servePost(
      'slow',
      { requestTimeout: 600, headersTimeout: 300 },
      async (request, response) => {
        await sleep(1_200);
        response.json({ body: request.body === undefined ? 'none' : 'parsed' });
      },
    );
    // Larger than the socket's buffers: left unread, it would still be arriving at requestTimeout.
    const response = await fetch(`${server.url}/slow`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: 'x'.repeat(2_000_000),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ body: 'none' });
  });
});

describe('ServerManager requestTimeout after an early answer', () => {
  it('sends a 408 after the answer a route gave before the request’s body ended, when the body then outlasts requestTimeout, and closes the connection [claim:httpchat-row-408] [claim:chat-readme-404-408]', async () => {
    server = await servePost(
      'early',
      { requestTimeout: 400, headersTimeout: 200 },
      (_request, response) => {
        response.status(400).json({ answered: 'early' });
      },
    );
    const host = new URL(server.url as string).host;
    // Headers that promise a body of 100 bytes, and 10 of them: the rest never comes.
    const received = await exchange(async (socket) => {
      socket.write(
        `POST /early HTTP/1.1\r\nHost: ${host}\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n0123456789`,
      );
    });
    expect(statusesIn(received)).toEqual(['400', '408']);
    expect(received).toContain('"answered":"early"');
  });
});

describe('ServerManager headersTimeout and requestTimeout: where they count from', () => {
  /** Opens a connection, runs `steps` on it, and gives the answers' statuses once it closes. */
  async function statusesOf(steps: (socket: Socket) => Promise<void>): Promise<string[]> {
    return statusesIn(await exchange(steps));
  }

  it('counts from the request’s first byte, not from the connection’s opening, and from the opening while nothing has arrived [claim:httpchat-row-408] [claim:chat-readme-404-408]', async () => {
    server = await servePost(
      'echo',
      { headersTimeout: 1_000, requestTimeout: 1_500 },
      (_request, response) => {
        response.json({ answered: true });
      },
    );
    const host = new URL(server.url as string).host;
    const request = `POST /echo HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`;
    // Idle for 500 ms, then the headers over 700 ms and the body 500 ms later: past both
    // deadlines since the connection opened, within them since the first byte.
    expect(
      await statusesOf(async (socket) => {
        await sleep(500);
        socket.write(request.slice(0, 10));
        await sleep(700);
        socket.write(request.slice(10, -2));
        await sleep(500);
        socket.write(request.slice(-2));
      }),
    ).toEqual(['200']);
    // Nothing sent: the connection is answered 408 once headersTimeout has passed since it opened.
    const started = performance.now();
    expect(await statusesOf(async () => {})).toEqual(['408']);
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
  });
});
