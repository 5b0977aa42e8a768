/**
 * Claims of the docs pages about the runtime that no other test pinned down; each describe names
 * the page and section, and each test's title carries the claim ids of the
 * sentences it guards.
 */
import { CapabilityRegistry, spaceId, WeftError, type ModelRequestConfig } from '@weft/core';
import {
  InMemoryMemoryProvider,
  memoryProviderContract,
  ScriptedModelProvider,
} from '@weft/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  plan,
  planner,
  recordingExecutor,
  sentimentCapability,
  startedRuntime,
  TestPlugin,
} from './fixtures.js';

describe('docs/concepts/how-a-task-runs.md#the-step-limit', () => {
  it('counts steps a review added against maxSteps, which defaults to 10, so a model that keeps replacing the plan is stopped [claim:task-max-steps] [claim:task-max-steps-stops-replacing] [claim:prod-max-steps] [claim:wp-step-limit]', async () => {
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('work', { executors: [recordingExecutor('again')] })],
      // Every review replaces the plan with two more steps, so only the limit ends the task.
      responses: {
        fallback: (_messages, request) =>
          request.purpose === 'review'
            ? { type: 'replace', ...plan(['work', 'again'], ['work', 'again']) }
            : plan(['work', 'again'], ['work', 'again']),
      },
    });
    const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'limit' });
    expect(task.steps).toHaveLength(10);
    expect(task.status).toBe('failed');
    expect(task.chain.at(-1)).toMatchObject({
      type: 'error',
      pluginId: 'core',
      action: 'max-steps',
    });
  });
});

describe('docs/concepts/how-a-task-runs.md#what-the-planner-is-shown', () => {
  it('shows the space id and description, the trigger, its message and its data as JSON [claim:task-planner-sees-trigger] [claim:wp-planning-prompt]', async () => {
    const { runtime, model } = await startedRuntime({
      responses: { fallback: { steps: [] } },
    });
    await runtime.dispatch({
      pluginId: 'echo',
      triggerId: 'incoming',
      space: { id: 'desk-7', description: 'the help desk' },
      message: 'printer on fire',
      data: { floor: 3, urgent: true },
    });
    const prompt = model.requests[0]?.map((message) => message.content).join('\n') ?? '';
    expect(prompt).toContain('Space: desk-7 (the help desk)');
    expect(prompt).toContain('Trigger: echo/incoming');
    expect(prompt).toContain('Message: printer on fire');
    expect(prompt).toContain('Data: {"floor":3,"urgent":true}');
  });

  it("shows the step limit, and a pipeline's JSON Schema in getObject's system prompt [claim:task-planner-sees-limit-schema]", async () => {
    const { runtime, model } = await startedRuntime({
      responses: { fallback: { steps: [] } },
      options: { maxSteps: 4 },
    });
    await runtime.dispatch({ pluginId: 'echo', triggerId: 'test', space: 'schema' });
    const [system, prompt] = model.requests[0] ?? [];
    expect(system?.role).toBe('system');
    expect(system?.content).toContain('It must match this JSON Schema (Pipeline):');
    const schema = JSON.parse(system?.content.split('(Pipeline):\n')[1] ?? '{}') as {
      properties?: { steps?: { items?: { required?: string[] } } };
    };
    expect(schema.properties?.steps?.items?.required).toEqual(['pluginId', 'action']);
    expect(prompt?.content).toContain('Answer with at most 4 steps');
  });

  it('lists every executor in the order the plugins were configured [claim:philo-compose] [claim:task-planner-sees-executors-in-order] [claim:task-every-executor-offered] [claim:prod-every-executor-offered] [claim:prod-no-executor-limit] [claim:prod-only-given-plugins] [claim:core-readme-plugins-order] [claim:wp-planning-prompt] [claim:wp-limits-design]', async () => {
    const { runtime, model } = await startedRuntime({
      plugins: [
        new TestPlugin('zeta', { executors: [recordingExecutor('last-letter')] }),
        new TestPlugin('alpha', {
          executors: [recordingExecutor('first-letter'), recordingExecutor('second')],
        }),
      ],
      responses: { fallback: { steps: [] } },
    });
    await runtime.dispatch({ pluginId: 'alpha', triggerId: 'test', space: 'order' });
    const prompt = model.requests[0]?.map((message) => message.content).join('\n') ?? '';
    const positions = [
      'pluginId "zeta", action "last-letter"',
      'pluginId "alpha", action "first-letter"',
      'pluginId "alpha", action "second"',
    ].map((line) => prompt.indexOf(line));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });
});

describe('docs/concepts/how-a-task-runs.md#deadlines-and-cancellation', () => {
  it("passes the task's signal to planning, review and executor model calls [claim:exec-models-signal] [claim:task-signal-reaches-model-calls] [claim:go-context-abort] [claim:testing-purpose] [claim:mpo-scripted-function] [claim:tst-purpose] [claim:wp-signal-model-calls]", async () => {
    const seen: { purpose: string | undefined; signal: AbortSignal | undefined }[] = [];
    let executorSignal: AbortSignal | undefined;
    const asksModel = recordingExecutor('ask', async (_task, context) => {
      executorSignal = context.signal;
      await context.models.generateText('hi');
      return { success: true };
    });
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('work', { executors: [asksModel, recordingExecutor('after')] })],
      responses: {
        fallback: (_messages, request: ModelRequestConfig) => {
          seen.push({ purpose: request.purpose, signal: request.signal });
          if (request.purpose === 'plan') return plan(['work', 'ask'], ['work', 'after']);
          return request.purpose === 'review' ? { type: 'continue' } : 'hello';
        },
      },
    });
    await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'signals' });
    expect(seen.map((call) => call.purpose)).toEqual(['plan', undefined, 'review']);
    expect(executorSignal).toBeInstanceOf(AbortSignal);
    for (const call of seen) expect(call.signal).toBe(executorSignal);
  });
});

describe('docs/guides/testing.md#the-scripted-model', () => {
  it("marks a getObject call's purpose with its schema name unless the caller gives one [claim:testing-purpose] [claim:mpo-scripted-function] [claim:tst-purpose]", async () => {
    const purposes: (string | undefined)[] = [];
    const { runtime } = await startedRuntime({
      responses: {
        fallback: (_messages, request: ModelRequestConfig) => {
          purposes.push(request.purpose);
          return { city: 'Lisbon' };
        },
      },
    });
    const schema = z.object({ city: z.string() });
    await runtime.models.getObject({ schema, schemaName: 'City', prompt: 'Where?' });
    await runtime.models.getObject({
      schema,
      schemaName: 'City',
      prompt: 'Where?',
      request: { purpose: 'destination' },
    });
    expect(purposes).toEqual(['get-object:City', 'destination']);
  });
});

describe('docs/building-plugins/executors.md#pluginresult', () => {
  async function chainOf(...results: unknown[]) {
    const executors = results.map((result, index) =>
      recordingExecutor(`step-${index}`, () => result as never),
    );
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('work', { executors })],
      responses: {
        fallback: (_messages, request: ModelRequestConfig) =>
          request.purpose === 'review'
            ? { type: 'continue' }
            : plan(...executors.map((executor) => ['work', executor.action] as [string, string])),
      },
    });
    const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'results' });
    return task.chain.slice(1);
  }

  it("records a failed result's error, else its message, else a generic reason [claim:exec-error-fallback]", async () => {
    const chain = await chainOf(
      { success: false, error: 'the error', message: 'the message' },
      { success: false, message: 'only a message' },
      { success: false },
    );
    expect(chain.map((item) => [item.type, item.error])).toEqual([
      ['error', 'the error'],
      ['error', 'only a message'],
      ['error', 'the executor reported failure without a reason'],
    ]);
  });

  it('records a return value that is not a PluginResult as an error item saying so [claim:exec-not-a-result]', async () => {
    const chain = await chainOf(undefined, 'done');
    expect(chain).toHaveLength(2);
    for (const item of chain) {
      expect(item.type).toBe('error');
      expect(item.error).toContain('instead of a PluginResult');
    }
  });
});

describe('docs/capabilities/capabilities.md#validation-errors', () => {
  it("wraps a provider's plain error with its cause, and passes a provider's WeftError through [claim:cap-provider-throws] [claim:mpo-run-throws] [claim:mpo-weft-unwrapped] [claim:oai-unwrapped] [claim:wp-provider-errors-unwrapped]", async () => {
    const plain = new Error('socket hang up');
    const coded = new WeftError('WEFT_PROVIDER_FAILED', 'MyProvider: quota exhausted');
    let next: Error = plain;
    const { runtime } = await startedRuntime({
      responses: {
        fallback: () => {
          throw next;
        },
      },
    });
    const wrapped = await runtime.models.generateText('hi').catch((error: unknown) => error);
    expect(wrapped).toBeInstanceOf(WeftError);
    expect((wrapped as WeftError).code).toBe('WEFT_PROVIDER_FAILED');
    expect((wrapped as Error).message).toContain(
      'ModelManager: provider "scripted" failed on capability "text-generation": socket hang up',
    );
    expect((wrapped as Error).cause).toBe(plain);

    next = coded;
    expect(await runtime.models.generateText('hi').catch((error: unknown) => error)).toBe(coded);
  });
});

describe('docs/capabilities/transforms.md#how-a-call-is-resolved', () => {
  it('gives WEFT_CAPABILITY_UNAVAILABLE without a provider and WEFT_VALIDATION_FAILED for a bad value [claim:tr-codes]', async () => {
    const { runtime } = await startedRuntime({ responses: { fallback: 'text' } });
    runtime.capabilities.register(sentimentCapability);
    const unavailable = await runtime.models
      .call('sentiment', { text: 'fine' })
      .catch((error: unknown) => error);
    expect((unavailable as WeftError).code).toBe('WEFT_CAPABILITY_UNAVAILABLE');
    const invalid = await runtime.models
      .callDynamic('text-generation', { messages: [] })
      .catch((error: unknown) => error);
    expect((invalid as WeftError).code).toBe('WEFT_VALIDATION_FAILED');
    expect((invalid as Error).message).toContain('input for capability "text-generation"');
  });
});

describe('docs/capabilities/transforms.md#errors', () => {
  it('rejects an alias group with fewer than two distinct ids [claim:tr-errors-groups]', () => {
    const registry = new CapabilityRegistry();
    for (const group of [['text-generation'], ['text-generation', 'text-generation']]) {
      expect(() => registry.addAliasGroup(group)).toThrow(/at least two distinct capability ids/);
    }
  });
});

describe('docs/core-utilities/spaces.md#hierarchical-ids', () => {
  it('throws WEFT_INVALID_SPACE with status 400 for no part, an empty part, a bad start or a long id [claim:sp-throws]', () => {
    const attempts: (() => string)[] = [
      () => spaceId(),
      () => spaceId('support', ''),
      () => spaceId('-team'),
      () => spaceId('support', 'x'.repeat(200)),
    ];
    for (const attempt of attempts) {
      let thrown: unknown;
      try {
        attempt();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(WeftError);
      expect(thrown).toMatchObject({ code: 'WEFT_INVALID_SPACE', status: 400 });
    }
    expect(spaceId('support', 'x'.repeat(190))).toHaveLength(198);
  });
});

describe('docs/core-utilities/spaces.md#scheduling-per-space', () => {
  it('counts working tasks against concurrency: a task waiting for a busy plugin lets another space run [claim:sp-concurrency-working] [claim:tsdoc-scheduler-concurrency-workers]', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const blocking = recordingExecutor('wait', async () => {
      await gate;
      return { success: true };
    });
    // Two workers, so a plugin may hold one call at a time (maxConcurrent = concurrency - 1).
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('slow', { executors: [blocking] })],
      responses: planner(['slow', 'wait']),
      options: { pipelineReview: 'never', scheduler: { concurrency: 2 } },
    });
    const tasks = ['a', 'b', 'c', 'd'].map((space) =>
      runtime.dispatch({ pluginId: 'slow', triggerId: 'test', space }),
    );
    const deadline = Date.now() + 5_000;
    while (runtime.scheduler.running < 4 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    // One task holds the plugin's slot; three wait for it without holding a worker.
    expect(runtime.scheduler.running).toBe(4);
    expect(runtime.scheduler.pending).toBe(0);
    expect(blocking.calls).toHaveLength(1);
    open();
    expect((await Promise.all(tasks)).map((task) => task.status)).toEqual([
      'completed',
      'completed',
      'completed',
      'completed',
    ]);
  });
});

describe('docs/building-plugins/triggers.md#dispatching-a-task', () => {
  it('resolves accept once the task is queued, before it runs, and rejects what dispatch rejects [claim:trig-answer-first]', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const waiting = recordingExecutor('wait', async () => {
      await gate;
      return { success: true };
    });
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('hook', { executors: [waiting] })],
      responses: planner(['hook', 'wait']),
      options: { pipelineReview: 'never', scheduler: { concurrency: 1, maxQueueSize: 1 } },
    });
    const accepted = await runtime.accept({ pluginId: 'hook', triggerId: 'test', space: 'a' });
    expect(accepted.taskId).toEqual(expect.any(String));
    const second = await runtime.accept({ pluginId: 'hook', triggerId: 'test', space: 'b' });
    // The first task is still running and the second waits: accept did not wait for either.
    expect(runtime.scheduler.running + runtime.scheduler.pending).toBe(2);
    await expect(
      runtime.accept({ pluginId: 'hook', triggerId: 'test', space: 'not a space' }),
    ).rejects.toMatchObject({ code: 'WEFT_INVALID_SPACE', status: 400 });
    await expect(
      runtime.accept({ pluginId: 'nobody', triggerId: 'test', space: 'c' }),
    ).rejects.toMatchObject({ code: 'WEFT_UNKNOWN_PLUGIN', status: 400 });
    await expect(
      runtime.accept({ pluginId: 'hook', triggerId: 'test', space: 'c' }),
    ).rejects.toMatchObject({ code: 'WEFT_QUEUE_FULL', status: 503 });
    open();
    const [first, next] = await Promise.all([accepted.done, second.done]);
    expect(first).toMatchObject({ id: accepted.taskId, status: 'completed' });
    expect(next).toMatchObject({ id: second.taskId, status: 'completed' });
  });
});

describe('docs/core-utilities/liquid-templates.md#the-core-templates', () => {
  it('registers the four core templates, which a plugin cannot replace [claim:liq-core-four] [claim:liq-core-fixed]', async () => {
    const { runtime } = await startedRuntime();
    expect(runtime.prompts.list().filter((name) => name.startsWith('core/'))).toEqual([
      'core/get-object',
      'core/get-object-retry',
      'core/pipeline-generation',
      'core/pipeline-modification',
    ]);
    expect(() =>
      runtime.prompts.register('core', 'pipeline-generation', 'Plan: {{ task }}'),
    ).toThrow(/already/);
  });
});

describe('docs/model-providers/overview.md#the-modelprovider-class', () => {
  it("answers true from the base class's checkHealth [claim:mpo-base-health]", async () => {
    expect(await new ScriptedModelProvider().checkHealth()).toBe(true);
  });
});

describe('docs/memory-providers/overview.md', () => {
  it("stores the trigger's metadata with the task's trigger and chain memories [claim:trig-metadata] [claim:mpo-metadata-copied]", async () => {
    const { runtime, memory } = await startedRuntime({ responses: { fallback: { steps: [] } } });
    const task = await runtime.dispatch({
      pluginId: 'echo',
      triggerId: 'test',
      space: 'meta',
      metadata: { deliveryId: 'd-17' },
    });
    const stored = await memory.query({ taskId: task.id, order: 'asc' });
    expect(stored.map((entry) => [entry.kind, entry.metadata])).toEqual([
      ['trigger', { deliveryId: 'd-17' }],
      ['chain', { deliveryId: 'd-17' }],
    ]);
  });

  it('gives InMemoryMemoryProvider the id in-memory unless told another [claim:mpo-in-memory-id]', () => {
    expect(new InMemoryMemoryProvider().id).toBe('in-memory');
    expect(new InMemoryMemoryProvider({ id: 'scratch' }).id).toBe('scratch');
  });

  it("makes 32 concurrent store() calls in the contract's concurrency case [claim:mpo-contract-32] [claim:tst-contract]", async () => {
    let stores = 0;
    class CountingProvider extends InMemoryMemoryProvider {
      override store(...args: Parameters<InMemoryMemoryProvider['store']>) {
        stores += 1;
        return super.store(...args);
      }
    }
    const concurrency = memoryProviderContract({ create: () => new CountingProvider() }).find(
      (check) => check.name.includes('concurrent'),
    );
    expect(concurrency?.name).toBe('lands 32 concurrent stores with distinct ids');
    await concurrency?.run();
    expect(stores).toBe(32);
  });
});

describe('packages/testing/README.md#scriptedmodelprovider', () => {
  it('names a ScriptedModelProvider scripted unless told another id, and offers text-generation [claim:testing-scripted-id] [claim:mpo-scripted-id] [claim:tst-scripted-id]', () => {
    expect(new ScriptedModelProvider().id).toBe('scripted');
    expect(new ScriptedModelProvider({ id: 'planner' }).id).toBe('planner');
    expect(new ScriptedModelProvider().capabilities.map((capability) => capability.id)).toEqual([
      'text-generation',
    ]);
  });
});
