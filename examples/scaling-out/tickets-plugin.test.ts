/**
 * The support agent's HTTP side, as main.ts starts it in the Compose image (HOST=0.0.0.0, no
 * `allowedHosts`), without PostgreSQL: which `Host` headers its server answers behind a proxy,
 * and how many answers its answers route lists.
 */
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { Runtime } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TicketsPlugin } from './tickets-plugin.js';

/** The image's HOST, from the Dockerfile's ENV line. */
const imageHost = /^ENV HOST=(\S+)$/m.exec(
  readFileSync(new URL('./Dockerfile', import.meta.url), 'utf8'),
)?.[1];

const memory = new InMemoryMemoryProvider();
let runtime: Runtime;
let port = 0;

beforeAll(async () => {
  runtime = await Runtime.init({
    models: [new ScriptedModelProvider()],
    memory,
    plugins: [new TicketsPlugin({ instance: 'a', workMs: 0 })],
    // As main.ts passes them: the port and the host, nothing else.
    options: {
      server: { port: 0, host: imageHost as string },
      logger: pino({ level: 'silent' }),
    },
  });
  await runtime.start();
  port = Number(new URL(runtime.server.url as string).port);
});

afterAll(async () => {
  await runtime?.stop();
});

/** GETs a path with the given `Host` header; the status and the parsed body. */
function get(
  path: string,
  host: string,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      { host: '127.0.0.1', port, path, headers: { host } },
      (response) => {
        let text = '';
        response
          .setEncoding('utf8')
          .on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: JSON.parse(text) as unknown,
          }),
        );
      },
    );
    sent.on('error', reject).end();
  });
}

describe('the scaling-out instance’s server', () => {
  it('answers loopback names and addresses, and refuses the names a proxy may send until main.ts lists them in allowedHosts [claim:scaling-compose-allowed-hosts]', async () => {
    expect(imageHost).toBe('0.0.0.0');
    // main.ts gives the server its port and host only.
    const main = readFileSync(new URL('./main.ts', import.meta.url), 'utf8');
    expect(main).toContain(
      'server: { port: settings.port, host: settings.host }',
    );
    expect(main).not.toContain('allowedHosts');
    // Loopback names, and any IP address, such as the one a proxy in front reaches it by.
    for (const host of ['localhost:8787', '127.0.0.1:8788', '10.1.2.3:8787']) {
      expect((await get('/tickets/1/answers', host)).status).toBe(200);
    }
    for (const host of ['agent:8787', 'support.example.com']) {
      const refused = await get('/tickets/1/answers', host);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        error: { code: 'WEFT_HOST_NOT_ALLOWED' },
      });
    }
  });

  it('lists the first 100 answers of a ticket, oldest first [claim:scaling-local-example]', async () => {
    for (let n = 0; n < 101; n += 1) {
      await memory.store({
        space: 'ticket-7',
        kind: 'answer',
        content: { message: `message ${n}`, answeredBy: 'a' },
        taskId: `task-${n}`,
        metadata: {},
      });
    }
    const { status, body } = await get('/tickets/7/answers', 'localhost');
    expect(status).toBe(200);
    const answers = body as { taskId: string; message: string }[];
    expect(answers).toHaveLength(100);
    expect(answers[0]).toEqual({
      taskId: 'task-0',
      message: 'message 0',
      answeredBy: 'a',
    });
    expect(answers.at(-1)?.taskId).toBe('task-99');
  });
});
