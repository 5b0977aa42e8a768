/**
 * "What happened" in docs/getting-started.md: how many users' messages the getting-started agent
 * answers at once. The scheduler runs four tasks, but the one model provider and the one plugin
 * each take one call fewer (the bulkhead's default), so three replies are written at a time; a
 * fourth task waits at most `bulkhead.maxWaitMs` for them and then fails.
 */
import { Runtime } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '../../../examples/getting-started/agent.js';
import { AssistantPlugin } from '../../../examples/getting-started/assistant-plugin.js';
import { optionsSchema } from '../../../packages/core/src/runtime/options-schema.js';

let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
});

/** Resolves once `check` holds, polling; rejects after `ms`. */
async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not reached within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The scripted model's plan and review, and reply calls held until `release()`. */
function heldModel() {
  const held = { replying: 0, most: 0, release: () => {} };
  const released = new Promise<void>((resolve) => (held.release = resolve));
  const model = new ScriptedModelProvider({
    fallback: async (_messages, request) => {
      if (request.purpose === 'plan') {
        return { steps: [{ pluginId: 'assistant', action: 'reply', reason: 'The user wrote.' }] };
      }
      if (request.purpose === 'review') return { type: 'stop', reason: 'Done.' };
      held.replying += 1;
      held.most = Math.max(held.most, held.replying);
      await released;
      held.replying -= 1;
      return 'Hi.';
    },
  });
  return { model, held };
}

/** Posts the page's message from `user`; resolves with the status and the body. */
async function post(agent: Runtime, user: string) {
  const response = await fetch(`${agent.server.url}/messages`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ user, text: 'Hello' }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('the getting-started agent, several users at once', () => {
  it("writes three users' replies at a time with the default options, the fourth waiting for the model [claim:gs-what-happened-queue] [claim:gs-what-happened-fourth-waits]", async () => {
    const { model, held } = heldModel();
    runtime = await createAgent({
      model,
      memory: new InMemoryMemoryProvider(),
      port: 0,
      logger: pino({ level: 'silent' }),
    });
    await runtime.start();
    const agent = runtime;

    const users = ['ada', 'grace', 'alan', 'edsger', 'barbara'];
    const answers = users.map((user) => post(agent, user));
    await until(() => held.replying >= 3, 30_000, 'three replies being written');
    // Given time, no fourth reply starts while three are held.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(held.replying).toBe(3);
    expect(held.most).toBe(3);

    held.release();
    const results = await Promise.all(answers);
    expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200, 200]);
    expect(held.most).toBe(3);
  }, 60_000);

  it('fails the fourth task with the 500 answer once it has waited maxWaitMs, 30 s by default [claim:gs-what-happened-fourth-waits]', async () => {
    expect(optionsSchema.parse({}).bulkhead.maxWaitMs).toBe(30_000);
    const { model, held } = heldModel();
    // The agent of agent.ts with a shorter wait, so the test need not hold its replies 30 s.
    runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [new AssistantPlugin()],
      options: {
        server: { port: 0, host: '127.0.0.1' },
        bulkhead: { maxWaitMs: 1_000 },
        logger: pino({ level: 'silent' }),
      },
    });
    await runtime.start();
    const agent = runtime;

    const first = ['ada', 'grace', 'alan'].map((user) => post(agent, user));
    await until(() => held.replying === 3, 30_000, 'three replies being written');
    // The fourth is answered while the three are still held: it waited, then failed.
    expect(await post(agent, 'edsger')).toEqual({
      status: 500,
      body: {
        taskId: expect.any(String),
        status: 'failed',
        error: 'The agent could not answer. The server log has the details under this taskId.',
      },
    });
    expect(held.replying).toBe(3);
    held.release();
    expect((await Promise.all(first)).map((result) => result.status)).toEqual([200, 200, 200]);
  }, 60_000);
});
