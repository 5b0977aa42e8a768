/**
 * What `totalTimeoutMs` does not count: inside a runtime, a call that finds the provider's
 * bulkhead full waits for a slot before the provider starts it, so the task waits for that
 * slot and then for the provider's own deadline. Shown with a real runtime, a bulkhead of one
 * slot and a chat server that never answers.
 */
import { Plugin, Runtime, WeftError, type Executor } from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import { OpenAIModelProvider, OpenAIModelProviderError } from '../src/index.js';
import { hang } from './chat-server.js';
import { askAnswerPlanner, chatServerPerTest } from './support/chat-server-per-test.js';

const server = chatServerPerTest();

const TOTAL_TIMEOUT_MS = 300;

/** What one model call of a step ended with, and how long the step waited for it. */
interface Outcome {
  readonly space: string;
  readonly error: unknown;
  readonly waitedMs: number;
}

/** Which signal a task's model call carries; without one the call is given none of its own. */
type SignalFor = (...step: Parameters<Executor['execute']>) => AbortSignal;

/** A plugin whose one step asks the OpenAI provider for text and times the call. */
class AskPlugin extends Plugin {
  readonly id = 'ask';
  readonly description = 'Asks the model.';
  readonly outcomes: Outcome[] = [];
  override readonly executors: readonly Executor[];

  constructor(signalFor?: SignalFor) {
    super();
    this.executors = [
      {
        action: 'answer',
        description: 'Asks the model for an answer.',
        execute: async (task, context) => {
          const started = performance.now();
          const signal = signalFor?.(task, context);
          try {
            return {
              success: true,
              data: await context.models.generateText('hi', {
                provider: 'openai',
                ...(signal === undefined ? {} : { signal }),
              }),
            };
          } catch (error) {
            this.outcomes.push({
              space: task.space.id,
              error,
              waitedMs: performance.now() - started,
            });
            throw error;
          }
        },
      },
    ];
  }
}

/**
 * Starts a runtime whose planner gives every task one `ask.answer` step, with the OpenAI
 * provider at `providerTimeoutMs` (for one attempt and in total, no retries) behind a bulkhead
 * of one slot that a call waits for at most `maxWaitMs`. The runtime stops when the test ends.
 */
async function startRuntime(options: {
  readonly plugin: AskPlugin;
  readonly providerTimeoutMs: number;
  readonly maxWaitMs: number;
}): Promise<Runtime> {
  const runtime = await Runtime.init({
    models: [
      askAnswerPlanner(),
      new OpenAIModelProvider({
        id: 'openai',
        baseUrl: server.baseUrl,
        model: 'm',
        timeoutMs: options.providerTimeoutMs,
        totalTimeoutMs: options.providerTimeoutMs,
        maxRetries: 0,
      }),
    ],
    memory: new InMemoryMemoryProvider(),
    plugins: [options.plugin],
    options: {
      pipelineReview: 'never',
      bulkhead: { limits: { 'model:openai': 1 }, maxWaitMs: options.maxWaitMs },
    },
  });
  onTestFinished(() => runtime.stop());
  await runtime.start();
  return runtime;
}

describe('a model call that waits for a bulkhead slot', () => {
  it('waits for the slot before totalTimeoutMs starts counting [claim:oai-bulkhead-wait-first] [claim:mpo-bulkhead-wait-first]', async () => {
    server.enqueue(hang(), hang());
    const plugin = new AskPlugin();
    const runtime = await startRuntime({
      plugin,
      providerTimeoutMs: TOTAL_TIMEOUT_MS,
      maxWaitMs: 10_000,
    });

    const tasks = await Promise.all(
      ['first', 'second'].map((space) =>
        runtime.dispatch({ pluginId: 'ask', triggerId: 'manual', space }),
      ),
    );

    expect(tasks.map((task) => task.status)).toEqual(['failed', 'failed']);
    expect(server.requests).toHaveLength(2);
    const [first, second] = plugin.outcomes;
    // Both calls ran out of the provider's own time, none of the bulkhead's.
    for (const outcome of [first, second]) {
      expect(OpenAIModelProviderError.is(outcome?.error, 'WEFT_OPENAI_TIMEOUT')).toBe(true);
    }
    // The call that got the slot took about totalTimeoutMs; the other waited for that slot
    // first, then as long again: longer than its own totalTimeoutMs, by about the first call.
    expect(second!.waitedMs).toBeGreaterThan(1.5 * TOTAL_TIMEOUT_MS);
    expect(second!.waitedMs - first!.waitedMs).toBeGreaterThan(0.5 * TOTAL_TIMEOUT_MS);
  });

  it('fails with WEFT_BULKHEAD_FULL, sending nothing, when no slot comes free within bulkhead.maxWaitMs [claim:oai-runtime-own-errors] [claim:oai-bulkhead-wait-first]', async () => {
    server.enqueue(hang(), hang());
    const plugin = new AskPlugin();
    const runtime = await startRuntime({
      plugin,
      providerTimeoutMs: 3 * TOTAL_TIMEOUT_MS,
      maxWaitMs: TOTAL_TIMEOUT_MS,
    });

    await Promise.all(
      ['first', 'second'].map((space) =>
        runtime.dispatch({ pluginId: 'ask', triggerId: 'manual', space }),
      ),
    );

    const errors = plugin.outcomes.map((outcome) => outcome.error);
    // The call that waited gave up on the slot before the other's deadline, and sent nothing.
    expect(WeftError.is(errors[0], 'WEFT_BULKHEAD_FULL')).toBe(true);
    expect(OpenAIModelProviderError.is(errors[1], 'WEFT_OPENAI_TIMEOUT')).toBe(true);
    expect(server.requests).toHaveLength(1);
  });
});

describe('a model call whose signal fires while it waits for a bulkhead slot', () => {
  it("rejects with the signal's own reason, sending nothing, rather than WEFT_OPENAI_ABORTED [claim:oai-runtime-own-errors]", async () => {
    server.enqueue(hang());
    const reason = new Error('the user left');
    const leaving = new AbortController();
    // The second space's call carries a signal of its own, which fires while it waits.
    const plugin = new AskPlugin((task, context) =>
      task.space.id === 'second' ? leaving.signal : context.signal,
    );
    const runtime = await startRuntime({
      plugin,
      providerTimeoutMs: 3 * TOTAL_TIMEOUT_MS,
      maxWaitMs: 10_000,
    });

    const first = runtime.dispatch({ pluginId: 'ask', triggerId: 'manual', space: 'first' });
    // The first call holds the one slot once its request has reached the server.
    await expect.poll(() => server.requests.length).toBe(1);
    const second = runtime.dispatch({ pluginId: 'ask', triggerId: 'manual', space: 'second' });
    setTimeout(() => leaving.abort(reason), TOTAL_TIMEOUT_MS / 3);
    await Promise.all([first, second]);

    const errorOf = (space: string) =>
      plugin.outcomes.find((outcome) => outcome.space === space)?.error;
    expect(errorOf('second')).toBe(reason);
    expect(OpenAIModelProviderError.is(errorOf('first'), 'WEFT_OPENAI_TIMEOUT')).toBe(true);
    expect(server.requests).toHaveLength(1);
  });
});
