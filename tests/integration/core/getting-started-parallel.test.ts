/**
 * "What happened" in docs/getting-started.md: how many users' messages the getting-started agent
 * answers at once. The scheduler runs four tasks, but the one model provider and the one plugin
 * each take one call fewer (the bulkhead's default), so three replies are written at a time.
 */
import type { Runtime } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '../../../examples/getting-started/agent.js';
import { pino } from 'pino';

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

describe('the getting-started agent, several users at once', () => {
  it("writes three users' replies at a time with the default options, the fourth waiting for the model [claim:gs-what-happened-queue]", async () => {
    // The scripted model's plan, and reply calls that wait until released.
    let replying = 0;
    let mostReplying = 0;
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const model = new ScriptedModelProvider({
      fallback: async (_messages, request) => {
        if (request.purpose === 'plan') {
          return { steps: [{ pluginId: 'assistant', action: 'reply', reason: 'The user wrote.' }] };
        }
        if (request.purpose === 'review') return { type: 'stop', reason: 'Done.' };
        replying += 1;
        mostReplying = Math.max(mostReplying, replying);
        await released;
        replying -= 1;
        return 'Hi.';
      },
    });
    runtime = await createAgent({
      model,
      memory: new InMemoryMemoryProvider(),
      port: 0,
      logger: pino({ level: 'silent' }),
    });
    await runtime.start();
    const agent = runtime;

    const users = ['ada', 'grace', 'alan', 'edsger', 'barbara'];
    const answers = users.map((user) =>
      fetch(`${agent.server.url}/messages`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ user, text: 'Hello' }),
      }).then(async (response) => ({ status: response.status, body: await response.json() })),
    );
    await until(() => replying >= 3, 30_000, 'three replies being written');
    // Given time, no fourth reply starts while three are held.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(replying).toBe(3);
    expect(mostReplying).toBe(3);

    release();
    const results = await Promise.all(answers);
    expect(results.map((result) => result.status)).toEqual([200, 200, 200, 200, 200]);
    expect(mostReplying).toBe(3);
  }, 60_000);
});
