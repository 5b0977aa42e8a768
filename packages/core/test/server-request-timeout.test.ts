/**
 * requestTimeout bounds how long a request takes to arrive, not how long its handler takes to
 * answer: a trigger may wait for its task.
 */
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { ServerManager } from '@weft/core/node';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from './fixtures.js';

let server: ServerManager | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('ServerManager requestTimeout', () => {
  it('lets a handler answer after requestTimeout once the whole request has arrived [claim:httpchat-request-timeout] [claim:trig-request-timeout] [claim:prod-client-waits-task]', async () => {
    server = new ServerManager({ port: 0, requestTimeout: 600, headersTimeout: 300 }, silentLogger);
    server.mount(
      'slow',
      {
        method: 'POST',
        path: '/slow',
        async handler(_request, response) {
          await sleep(1_200);
          response.json({ answered: true });
        },
      },
      undefined,
    );
    await server.start();
    const response = await fetch(`${server.url}/slow`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ answered: true });
  });

  it('lets a handler answer after requestTimeout when a large body was not sent as JSON, which the server reads off unparsed [claim:trig-request-timeout] [claim:trig-unparsed-body]', async () => {
    server = new ServerManager({ port: 0, requestTimeout: 600, headersTimeout: 300 }, silentLogger);
    server.mount(
      'slow',
      {
        method: 'POST',
        path: '/slow',
        async handler(request, response) {
          await sleep(1_200);
          response.json({ body: request.body === undefined ? 'none' : 'parsed' });
        },
      },
      undefined,
    );
    await server.start();
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
  it('closes a kept-alive connection whose request was answered before its body ended, when the body then outlasts requestTimeout, without a second answer [claim:httpchat-row-408] [claim:chat-readme-404-408]', async () => {
    server = new ServerManager({ port: 0, requestTimeout: 400, headersTimeout: 200 }, silentLogger);
    server.mount(
      'early',
      {
        method: 'POST',
        path: '/early',
        handler(_request, response) {
          response.status(400).json({ answered: 'early' });
        },
      },
      undefined,
    );
    await server.start();
    const { hostname, port, host } = new URL(server.url as string);
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.on('error', () => {});
    // Headers that promise a body of 100 bytes, and 10 of them: the rest never comes.
    socket.write(
      `POST /early HTTP/1.1\r\nHost: ${host}\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n0123456789`,
    );
    await closed;
    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => match[1]);
    expect(statuses).toEqual(['400']);
    expect(received).toContain('"answered":"early"');
  });
});
