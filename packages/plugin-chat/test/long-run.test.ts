/**
 * Over a long run of chat requests, nothing per request stays behind: the task, the express
 * request and response are collectable once the reply is sent. A FinalizationRegistry (which
 * holds no reference of its own) watches them; forced collections run until every one is
 * finalized, with a deadline instead of a fixed sleep.
 */
import { request as httpRequest } from 'node:http';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { Runtime } from '@weft/core';
import { serverOf } from '@weft/core/node';
import { ScriptedModelProvider } from '@weft/testing';
import { collectUntil, finalizationCounter } from '@weft-internal/test-support/collection';
import { DiscardingMemoryProvider } from '@weft-internal/test-support/discarding-memory';
import { ChatPlugin } from '../src/index.js';

/**
 * Posts JSON on a connection of its own, closed after the answer: a reused keep-alive
 * connection can be closed by the server just as the next request is sent, which a loaded
 * machine makes likely over hundreds of requests.
 */
function postJson(url: string, body: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch (error) {
            reject(error);
          }
        });
        response.on('error', reject);
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error('no answer within 30 s')));
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
});

describe('ChatPlugin over a long run', () => {
  it('leaves no task, request or response behind after 300 chat requests', async () => {
    const { finalized, watch } = finalizationCounter();
    const model = new ScriptedModelProvider({
      fallback: (_messages, request) => {
        if (request.purpose === 'plan') return { steps: [{ pluginId: 'chat', action: 'reply' }] };
        if (request.purpose === 'review') return { type: 'continue' };
        return 'Hello!';
      },
    });
    runtime = await Runtime.init({
      models: [model],
      memory: new DiscardingMemoryProvider(),
      // Twenty messages of one user at once, a body-named user: past the defaults on purpose.
      plugins: [new ChatPlugin({ trustClientUser: true, maxInFlightPerUser: 20 })],
      options: {
        server: { port: 0 },
        logger: pino({ level: 'silent' }),
        analytics: { trackers: [{ onTaskEnd: (task) => watch(task, 'task') }] },
      },
    });
    serverOf(runtime).app.use((request, response, next) => {
      watch(request, 'request');
      watch(response, 'response');
      next();
    });
    await runtime.start();
    const url = `${runtime.server.url}/chat`;
    const requests = 300;
    for (let batch = 0; batch < requests; batch += 20) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, async (_, index) => {
          const body = { room: `r${(batch + index) % 30}`, user: 'ada', message: 'hi' };
          return ((await postJson(url, body)) as { reply?: string }).reply;
        }),
      );
      expect(answers).toEqual(Array(20).fill('Hello!'));
      // The scripted model's request log belongs to the test double.
      model.requests.length = 0;
      model.requestOptions.length = 0;
    }
    const done = () =>
      ['task', 'request', 'response'].every((kind) => finalized.get(kind) === requests);
    await collectUntil(done);
    expect(Object.fromEntries(finalized)).toEqual({
      task: requests,
      request: requests,
      response: requests,
    });
  }, 60_000);
});
