/**
 * What a task's end does to a model call still waiting for its answer: the runtime aborts the
 * task's signal, which reaches the provider without the executor passing it, and the call fails
 * with WEFT_OPENAI_ABORTED. Shown with a real runtime and a chat server that never answers.
 */
import {
  Plugin,
  Runtime,
  WeftError,
  type Executor,
  type RuntimeOptions,
  type SpaceCoordinator,
} from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import { OpenAIModelProvider } from '../src/index.js';
import { hang } from './chat-server.js';
import { askAnswerPlanner, chatServerPerTest } from './support/chat-server-per-test.js';

const server = chatServerPerTest();

/** A plugin whose one step asks the OpenAI provider for text and keeps what the call threw. */
class AskPlugin extends Plugin {
  readonly id = 'ask';
  readonly description = 'Asks the model.';
  readonly failures: unknown[] = [];
  override readonly executors: readonly Executor[] = [
    {
      action: 'answer',
      description: 'Asks the model for an answer.',
      execute: async (_task, context) => {
        try {
          return {
            success: true,
            data: await context.models.generateText('hi', { provider: 'openai' }),
          };
        } catch (error) {
          this.failures.push(error);
          throw error;
        }
      },
    },
  ];
}

/** A started runtime that plans `ask.answer` with a scripted model and calls the chat server. */
async function startRuntime(
  options: RuntimeOptions,
  coordinator?: SpaceCoordinator,
): Promise<{ runtime: Runtime; plugin: AskPlugin }> {
  const plugin = new AskPlugin();
  const runtime = await Runtime.init({
    models: [
      askAnswerPlanner(),
      new OpenAIModelProvider({ id: 'openai', baseUrl: server.baseUrl, model: 'm' }),
    ],
    memory: new InMemoryMemoryProvider(),
    plugins: [plugin],
    ...(coordinator === undefined ? {} : { coordinator }),
    options: { pipelineReview: 'never', ...options },
  });
  onTestFinished(() => runtime.stop());
  await runtime.start();
  return { runtime, plugin };
}

/** Waits, at most 5 s, until the chat server has received a request. */
async function untilAsked(): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (server.requests.length === 0) {
    if (Date.now() > deadline) throw new Error('the model was not called within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a model call inside a task that ends first', () => {
  it('fails with WEFT_OPENAI_ABORTED when the task passes taskTimeoutMs [claim:errors-openai-aborted-causes]', async () => {
    server.enqueue(hang());
    const { runtime, plugin } = await startRuntime({ taskTimeoutMs: 300 });
    const task = await runtime.dispatch({ pluginId: 'ask', triggerId: 'manual', space: 'late' });
    expect(task.status).toBe('failed');
    await expect.poll(() => plugin.failures.length, { timeout: 5_000 }).toBe(1);
    expect(WeftError.is(plugin.failures[0], 'WEFT_OPENAI_ABORTED')).toBe(true);
  });

  it('fails with WEFT_OPENAI_ABORTED when a draining stop outlasts shutdownTimeoutMs [claim:errors-openai-aborted-causes]', async () => {
    server.enqueue(hang());
    const { runtime, plugin } = await startRuntime({ shutdownTimeoutMs: 100 });
    const running = runtime.dispatch({ pluginId: 'ask', triggerId: 'manual', space: 'draining' });
    await untilAsked();
    await runtime.stop();
    expect((await running).status).toBe('cancelled');
    expect(plugin.failures).toHaveLength(1);
    expect(WeftError.is(plugin.failures[0], 'WEFT_OPENAI_ABORTED')).toBe(true);
  });

  it('fails with WEFT_OPENAI_ABORTED when a stop in cancel mode cancels the task [claim:errors-openai-aborted-causes]', async () => {
    server.enqueue(hang());
    // A drain long enough that only the cancel mode can end the call within the test.
    const { runtime, plugin } = await startRuntime({
      shutdown: 'cancel',
      shutdownTimeoutMs: 60_000,
    });
    const running = runtime.dispatch({ pluginId: 'ask', triggerId: 'manual', space: 'cancelled' });
    await untilAsked();
    const stopping = Date.now();
    await runtime.stop();
    expect(Date.now() - stopping).toBeLessThan(5_000);
    expect((await running).status).toBe('cancelled');
    expect(plugin.failures).toHaveLength(1);
    expect(WeftError.is(plugin.failures[0], 'WEFT_OPENAI_ABORTED')).toBe(true);
  });

  it('fails with WEFT_OPENAI_ABORTED when the space coordinator loses the task’s space [claim:errors-openai-aborted-causes]', async () => {
    server.enqueue(hang());
    // Grants every space at once, with a signal the test aborts to take the space away.
    const lost = new AbortController();
    let ticket = 0;
    const coordinator: SpaceCoordinator = {
      id: 'losing',
      init: async () => undefined,
      shutdown: async () => undefined,
      admit: async () => (ticket += 1),
      acquire: async () => ({ ticket, signal: lost.signal }),
      release: async () => undefined,
    };
    const { runtime, plugin } = await startRuntime({}, coordinator);
    const running = runtime.dispatch({ pluginId: 'ask', triggerId: 'manual', space: 'room' });
    await untilAsked();
    lost.abort(new Error('lost the lock connection'));
    expect((await running).status).toBe('cancelled');
    await expect.poll(() => plugin.failures.length, { timeout: 5_000 }).toBe(1);
    expect(WeftError.is(plugin.failures[0], 'WEFT_OPENAI_ABORTED')).toBe(true);
  });
});
