/**
 * requestTimeout bounds how long a request takes to arrive, not how long its handler takes to
 * answer: a trigger may wait for its task.
 */
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
