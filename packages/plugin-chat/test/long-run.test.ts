/**
 * Over a long run of chat requests, nothing per request stays behind: the task, the express
 * request and response are collectable once the reply is sent. A FinalizationRegistry (which
 * holds no reference of its own) watches them; forced collections run until every one is
 * finalized, with a deadline instead of a fixed sleep.
 */
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryProvider, Runtime, type Memory } from '@weft/core';
import { serverOf } from '@weft/core/node';
import { ScriptedModelProvider } from '@weft/testing';
import { ChatPlugin } from '../src/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Keeps nothing, so only what the runtime, the server and the plugin hold can stay alive. */
class DiscardingMemoryProvider extends MemoryProvider {
  readonly id = 'discarding';
  async store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
    return { ...memory, id: randomUUID(), createdAt: new Date() };
  }
  async update(id: string): Promise<Memory> {
    throw new Error(`no memory ${id}`);
  }
  async query(): Promise<Memory[]> {
    return [];
  }
  async remove(): Promise<boolean> {
    return false;
  }
  async clear(): Promise<number> {
    return 0;
  }
}

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
    const finalized = new Map<string, number>();
    const watcher = new FinalizationRegistry<string>((kind) => {
      finalized.set(kind, (finalized.get(kind) ?? 0) + 1);
    });
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
        analytics: { trackers: [{ onTaskEnd: (task) => watcher.register(task, 'task') }] },
      },
    });
    serverOf(runtime).app.use((request, response, next) => {
      watcher.register(request, 'request');
      watcher.register(response, 'response');
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
    const deadline = Date.now() + 10_000;
    while (!done() && Date.now() < deadline) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(Object.fromEntries(finalized)).toEqual({
      task: requests,
      request: requests,
      response: requests,
    });
  }, 60_000);
});
