import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AgentTask,
  type Executor,
  type ModelRequestConfig,
  type Runtime,
  type RuntimeOptions,
  type SpaceCoordinator,
  type SpaceCoordinatorHost,
  type SpaceGrant,
  type TaskArrival,
} from '@weft/core';
import { InMemoryMemoryProvider, type ScriptedResponse } from '@weft/testing';
import { capturingLogger } from '@weft-internal/test-support/capturing-logger';
import { runProgram } from '@weft-internal/test-support/program-run';
import {
  deferred,
  type Deferred,
  makeRuntime,
  plan,
  planner,
  recordingExecutor,
  startedRuntime,
  TestPlugin,
  waitFor,
} from './fixtures.js';

/** An executor that never settles and ignores its signal, like a hung network call. */
const hung = recordingExecutor('hang', () => new Promise(() => undefined));

describe('task deadline', () => {
  it('fails a task that outlives taskTimeoutMs, aborts its signal and frees its worker [claim:exec-chain-core-items] [claim:exec-signal] [claim:tsdoc-task-chain-items] [claim:httpchat-task-timeout] [claim:task-status-failed] [claim:task-timeout] [claim:prod-task-timeout] [claim:wp-status-rule] [claim:wp-deadline] [claim:wp-deadline-frees] [claim:prod-hung-holds-workers] [claim:prod-shared-dependency-hangs]', async () => {
    let seen: AbortSignal | undefined;
    const hangs = recordingExecutor('hang', (_task, context) => {
      seen = context.signal;
      return new Promise(() => undefined);
    });
    const reply = recordingExecutor('reply');
    const { runtime } = await startedRuntime({
      // Another plugin replies: the hung call keeps the `tools` bulkhead's one slot after its task
      // timed out, as it may still be running, while the worker is free at once.
      plugins: [
        new TestPlugin('tools', { executors: [hangs] }),
        new TestPlugin('echo', { executors: [reply] }),
      ],
      responses: {
        fallback: (messages) =>
          messages.some((message) => message.content.includes('Message: slow'))
            ? { steps: [{ pluginId: 'tools', action: 'hang' }] }
            : { steps: [{ pluginId: 'echo', action: 'reply' }] },
      },
      options: { taskTimeoutMs: 150, scheduler: { concurrency: 1 } },
    });
    const slow = runtime.dispatch({
      pluginId: 'tools',
      triggerId: 'message',
      space: 'a',
      message: 'slow',
    });
    // With one worker, this task of another space runs only once the hung one is let go.
    const fast = runtime.dispatch({
      pluginId: 'tools',
      triggerId: 'message',
      space: 'b',
      message: 'fast',
    });
    const timedOut = await slow;
    expect(timedOut.status).toBe('failed');
    expect(timedOut.chain.at(-1)).toMatchObject({
      type: 'error',
      pluginId: 'core',
      action: 'timeout',
    });
    expect(timedOut.chain.at(-1)?.error).toContain('[WEFT_TASK_TIMEOUT]');
    expect(timedOut.chain.at(-1)?.error).toContain('150 ms');
    expect(seen?.aborted).toBe(true);
    expect((await fast).status).toBe('completed');
    expect(reply.calls).toHaveLength(1);
  });

  it("starts the space's next task once a task times out, while its executor that ignores the signal still runs [claim:philo-timeout-next-task] [claim:wp-lanes]", async () => {
    const order: string[] = [];
    const released = deferred();
    const writes = recordingExecutor('write', async (task) => {
      const name = task.trigger.message ?? '';
      order.push(`start ${name}`);
      if (name === 'first') {
        // Ignores its signal; held until the test lets go, or at most a second.
        await Promise.race([
          released.promise,
          new Promise((resolve) => setTimeout(resolve, 1_000)),
        ]);
      }
      order.push(`end ${name}`);
      return { success: true };
    });
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('state', { executors: [writes] })],
      responses: planner(['state', 'write']),
      options: { taskTimeoutMs: 150, pipelineReview: 'never' },
    });
    const dispatch = (message: string) =>
      runtime.dispatch({ pluginId: 'state', triggerId: 'message', space: 'user-1', message });
    const [first, second] = await Promise.all([dispatch('first'), dispatch('second')]);
    expect(first.status).toBe('failed');
    expect(first.chain.at(-1)).toMatchObject({ pluginId: 'core', action: 'timeout' });
    expect(second.status).toBe('completed');
    // The second task's executor ran from start to end while the first one's had not returned.
    expect(order).toEqual(['start first', 'start second', 'end second']);
    released.resolve();
    await waitFor(() => order.includes('end first'));
  });

  it("keeps the plugin's one slot for an executor that ignored its task's timeout: with one worker, the plugin's next step waits for it and fails with WEFT_BULKHEAD_FULL [claim:task-timeout-plugin-slot]", async () => {
    const released = deferred();
    const calls: string[] = [];
    const writes = recordingExecutor('write', async (task) => {
      const name = task.trigger.message ?? '';
      calls.push(name);
      // Ignores its signal, and returns only when the test lets it.
      if (name === 'first') await released.promise;
      return { success: true };
    });
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('state', { executors: [writes] })],
      responses: planner(['state', 'write']),
      // No bulkhead limits are set: one worker gives each plugin one slot. The slot of a call
      // whose task ended is held for taskTimeoutMs more at most (2 s here), well past the next
      // step's wait of 500 ms.
      options: {
        taskTimeoutMs: 2_000,
        pipelineReview: 'never',
        scheduler: { concurrency: 1 },
        bulkhead: { maxWaitMs: 500 },
      },
    });
    const dispatch = (message: string, space: string) =>
      runtime.dispatch({ pluginId: 'state', triggerId: 'message', space, message });
    const first = await dispatch('first', 'a');
    expect(first.chain.at(-1)?.error).toContain('[WEFT_TASK_TIMEOUT]');
    // Another space, so nothing but the plugin's slot stands in its way.
    const second = await dispatch('second', 'b');
    expect(second.status).toBe('failed');
    expect(second.chain.at(-1)).toMatchObject({
      type: 'error',
      pluginId: 'state',
      action: 'write',
    });
    expect(second.chain.at(-1)?.error).toContain('[WEFT_BULKHEAD_FULL]');
    expect(second.chain.at(-1)?.error).toContain('plugin:state');
    expect(calls).toEqual(['first']);
    // Once the ignored executor returns, its slot is free again.
    released.resolve();
    const third = await dispatch('third', 'c');
    expect(third.status).toBe('completed');
    expect(calls).toEqual(['first', 'third']);
  });
  it("starts the space's next task after a timeout only once the timed-out task's chain is stored [claim:wp-lanes] [claim:wp-deadline-frees]", async () => {
    const events: string[] = [];
    /** Stores the first chain 300 ms late, and notes when each memory is stored. */
    class SlowChainMemory extends InMemoryMemoryProvider {
      override async store(
        memory: Parameters<InMemoryMemoryProvider['store']>[0],
      ): ReturnType<InMemoryMemoryProvider['store']> {
        const message = (memory.content as { message?: string } | undefined)?.message;
        if (memory.kind === 'chain' && !events.includes('chain stored')) {
          await new Promise((resolve) => setTimeout(resolve, 300));
          events.push('chain stored');
        } else if (memory.kind === 'trigger') {
          events.push(`trigger ${message ?? ''}`);
        }
        return super.store(memory);
      }
    }
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [hung] })],
      responses: planner(['tools', 'hang']),
      memory: new SlowChainMemory(),
      options: { taskTimeoutMs: 100, pipelineReview: 'never' },
    });
    const dispatch = (message: string) =>
      runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 'one', message });
    const [first] = await Promise.all([dispatch('first'), dispatch('second')]);
    expect(first.chain.at(-1)).toMatchObject({ pluginId: 'core', action: 'timeout' });
    expect(first.recorded.chain).toBe(true);
    // The second task of the space started (and stored its trigger) after the first's chain.
    expect(events.slice(0, 3)).toEqual(['trigger first', 'chain stored', 'trigger second']);
  });

  it('counts the deadline from when the task leaves the queue, not from its dispatch [claim:task-timeout-default]', async () => {
    // Each task works 60 ms of its 300 ms; the last of six in one space waits about 300 ms in
    // the queue first, which a deadline counted from dispatch would not allow it.
    const work = recordingExecutor('reply', async () => {
      await new Promise((resolve) => setTimeout(resolve, 60));
      return { success: true };
    });
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [work] })],
      responses: planner(['tools', 'reply']),
      options: { taskTimeoutMs: 300, pipelineReview: 'never' },
    });
    const dispatched = performance.now();
    const tasks = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(() =>
        runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 'one-lane' }),
      ),
    );
    expect(performance.now() - dispatched).toBeGreaterThan(300);
    expect(tasks.map((task) => task.status)).toEqual(Array(6).fill('completed'));
  });

  it('does not count the wait for a free worker, behind tasks of other spaces, against the deadline [claim:prod-client-waits-queue] [claim:trouble-client-waits-queue]', async () => {
    // One worker: the task of space `b` waits about 450 ms for it, behind `a`'s, then takes
    // 300 ms of its 600 ms; a deadline counted from dispatch would have ended it in its step.
    const work = recordingExecutor('reply', async (task) => {
      const ms = task.space.id === 'a' ? 450 : 300;
      await new Promise((resolve) => setTimeout(resolve, ms));
      return { success: true };
    });
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [work] })],
      responses: planner(['tools', 'reply']),
      options: { taskTimeoutMs: 600, pipelineReview: 'never', scheduler: { concurrency: 1 } },
    });
    const dispatched = performance.now();
    const first = runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 'a' });
    const second = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 'b' });
    expect(performance.now() - dispatched).toBeGreaterThan(600);
    expect(second.status).toBe('completed');
    expect((await first).status).toBe('completed');
  });

  it('names the step that was running in the timeout item and the timeout log line [claim:obs-timeout-during] [claim:errors-task-timeout-names-activity] [claim:exec-chain-cut-step]', async () => {
    const { logger, lines } = capturingLogger();
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [recordingExecutor('reply'), hung] })],
      responses: planner(['tools', 'reply'], ['tools', 'hang']),
      options: { taskTimeoutMs: 150, pipelineReview: 'never', logger },
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 'a' });
    expect(task.chain.at(-1)?.error).toContain('during step 2 (tools.hang)');
    // The step cut short has no item of its own: the timeout item follows the step before it.
    expect(task.chain.map((item) => `${item.type}:${item.pluginId}/${item.action}`)).toEqual([
      'trigger:tools/message',
      'result:tools/reply',
      'error:core/timeout',
    ]);
    expect(task.steps.map((step) => step.action)).toEqual(['reply']);
    // The hung executor never logs `step failed`: the timeout line is the only trace of it.
    expect(lines.some((line) => line.msg === 'step failed')).toBe(false);
    expect(lines.find((line) => line.msg === 'task timed out')).toMatchObject({
      taskId: task.id,
      timeoutMs: 150,
      during: 'step 2 (tools.hang)',
      step: { pluginId: 'tools', action: 'hang' },
    });
    // The planned step as the model gave it, not the text of `during`.
    const { step } = lines.find((line) => line.msg === 'task timed out') as { step: object };
    expect(Object.keys(step).every((key) => ['pluginId', 'action', 'reason'].includes(key))).toBe(
      true,
    );
  });

  it('adds no item for a step cut short by the timeout when its executor returns later [claim:exec-chain-cut-step] [claim:wp-cut-step]', async () => {
    let returned = false;
    // Ignores its signal and answers 200 ms after the task's 100 ms deadline.
    const late = recordingExecutor('late', async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      returned = true;
      return { success: true, message: 'too late' };
    });
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [recordingExecutor('reply'), late] })],
      responses: planner(['tools', 'reply'], ['tools', 'late']),
      options: { taskTimeoutMs: 100, pipelineReview: 'never' },
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 'a' });
    expect(returned).toBe(false);
    await waitFor(() => returned);
    // Let the runner see the late answer: it must leave the finished task as it was.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(task.chain.map((item) => `${item.type}:${item.pluginId}/${item.action}`)).toEqual([
      'trigger:tools/message',
      'result:tools/reply',
      'error:core/timeout',
    ]);
    expect(task.chain.at(-1)?.error).toContain('during step 2 (tools.late)');
    expect(task.steps.map((step) => step.action)).toEqual(['reply']);
  });

  it('runs none of the later steps of a task whose dependency hangs, of its own plugin or another, and ends it failed at taskTimeoutMs [claim:philo-hung-dependency]', async () => {
    const save = recordingExecutor('save');
    const { runtime } = await startedRuntime({
      plugins: [
        new TestPlugin('mail', { executors: [hung] }),
        new TestPlugin('notes', { executors: [save] }),
      ],
      responses: planner(['mail', 'hang'], ['notes', 'save']),
      options: { taskTimeoutMs: 150 },
    });
    const started = Date.now();
    const task = await runtime.dispatch({ pluginId: 'notes', triggerId: 'message', space: 'h' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(task.status).toBe('failed');
    expect(task.chain.map((item) => `${item.type}:${item.pluginId}/${item.action}`)).toEqual([
      'trigger:notes/message',
      'error:core/timeout',
    ]);
    expect(save.calls).toHaveLength(0);
  });

  it('logs a step that rejects at its task’s timeout as failed with WEFT_TASK_TIMEOUT, adds no item for it and leaves it out of the steps of task finished [claim:obs-step-failed-after-timeout] [claim:obs-task-finished-steps]', async () => {
    const { logger, lines } = capturingLogger();
    // Passes its signal on, as a fetch does: it rejects with the signal's reason when it aborts.
    const honours = recordingExecutor(
      'wait',
      (_task, context) =>
        new Promise((_resolve, reject) =>
          context.signal.addEventListener('abort', () => reject(context.signal.reason)),
        ),
    );
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [recordingExecutor('reply'), honours] })],
      responses: planner(['tools', 'reply'], ['tools', 'wait']),
      options: { taskTimeoutMs: 150, pipelineReview: 'never', logger },
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 'a' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(task.chain.map((item) => `${item.type}:${item.pluginId}/${item.action}`)).toEqual([
      'trigger:tools/message',
      'result:tools/reply',
      'error:core/timeout',
    ]);
    const ofTask = lines.filter((line) => line.taskId === task.id);
    expect(ofTask.filter((line) => line.msg === 'step failed')).toEqual([
      expect.objectContaining({
        step: expect.objectContaining({ pluginId: 'tools', action: 'wait' }),
        code: 'WEFT_TASK_TIMEOUT',
      }),
    ]);
    expect(ofTask.find((line) => line.msg === 'task finished')).toMatchObject({
      status: 'failed',
      steps: 1,
    });
  });

  it('says the task was planning when the planning call outlives the limit [claim:obs-timeout-during] [claim:errors-task-timeout-names-activity] [claim:go-plan-timeout]', async () => {
    const { logger, lines } = capturingLogger();
    const { runtime } = await startedRuntime({
      responses: { fallback: () => new Promise(() => undefined) },
      options: { taskTimeoutMs: 150, logger },
    });
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 'a' });
    expect(task.status).toBe('failed');
    // The timeout item only: the aborted planning call adds no core/plan item.
    expect(task.chain.map((item) => `${item.type}:${item.pluginId}/${item.action}`)).toEqual([
      'trigger:echo/message',
      'error:core/timeout',
    ]);
    expect(task.chain.at(-1)?.error).toContain('during planning');
    const line = lines.find((entry) => entry.msg === 'task timed out');
    expect(line).toMatchObject({ during: 'planning' });
    expect(line).not.toHaveProperty('step');
  });

  it('logs no failed review when the deadline cuts a review short: the remaining steps are not kept [claim:obs-review-failed-not-on-timeout]', async () => {
    const { logger, lines } = capturingLogger();
    const reply = recordingExecutor('reply');
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [reply] })],
      responses: {
        // The review waits until the task's signal aborts, as a provider that honours it does.
        fallback: (_messages, request) =>
          request.purpose === 'review'
            ? new Promise((_resolve, reject) =>
                request.signal?.addEventListener('abort', () => reject(request.signal?.reason)),
              )
            : plan(['tools', 'reply'], ['tools', 'reply']),
      },
      options: { taskTimeoutMs: 150, logger },
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 'a' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(task.status).toBe('failed');
    expect(task.chain.at(-1)?.error).toContain('during reviewing the pipeline');
    expect(reply.calls).toHaveLength(1);
    expect(lines.find((line) => line.msg === 'task timed out')).toMatchObject({
      during: 'reviewing the pipeline',
    });
    expect(lines.some((line) => String(line.msg).startsWith('pipeline review failed'))).toBe(false);
  });

  it('says the task was recording the trigger when the memory store hangs on it [claim:obs-timeout-during] [claim:errors-task-timeout-names-activity] [claim:task-hung-store-times-out] [claim:task-cost-one-plan] [claim:index-trigger-store-hangs]', async () => {
    const { logger, lines } = capturingLogger();
    /** Hangs on the trigger memory only, so the chain memory is stored without waiting. */
    class HangsOnTrigger extends InMemoryMemoryProvider {
      override store(memory: Parameters<InMemoryMemoryProvider['store']>[0]) {
        return memory.kind === 'trigger'
          ? new Promise<never>(() => undefined)
          : super.store(memory);
      }
    }
    const { runtime, model } = await startedRuntime({
      memory: new HangsOnTrigger(),
      options: { taskTimeoutMs: 150, logger },
    });
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 'a' });
    expect(task.status).toBe('failed');
    expect(task.recorded.trigger).toBe(false);
    expect(task.chain.at(-1)?.error).toContain('during recording the trigger');
    expect(model.requests).toHaveLength(0);
    expect(lines.find((line) => line.msg === 'task timed out')).toMatchObject({
      taskId: task.id,
      during: 'recording the trigger',
    });
  });

  it('resolves a task whose store never answers 10 s after its deadline, failed and never planned, as the chain waits for the same store [claim:index-trigger-store-hangs]', async () => {
    /** Never answers a write, the trigger's or the chain's. */
    class NeverAnswers extends InMemoryMemoryProvider {
      override store(): Promise<never> {
        return new Promise<never>(() => undefined);
      }
    }
    const { runtime, model } = await startedRuntime({
      memory: new NeverAnswers(),
      options: { taskTimeoutMs: 300, shutdown: 'cancel' },
    });
    const started = performance.now();
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 'a' });
    const tookMs = performance.now() - started;
    expect(task.status).toBe('failed');
    expect(task.recorded).toEqual({ trigger: false, chain: false });
    expect(model.requests).toHaveLength(0);
    // The deadline, then the chain's 10 s.
    expect(tookMs).toBeGreaterThanOrEqual(10_250);
    expect(tookMs).toBeLessThan(15_000);
  }, 20_000);

  it('makes no planning call when the history read it waited for returns after the deadline [claim:task-cost-one-plan] [claim:task-aborted-call-not-sent]', async () => {
    /** Holds every read until the test lets it go, like a store that answers very late. */
    class LateReads extends InMemoryMemoryProvider {
      readonly gate = deferred();
      reads = 0;
      override async query(options: Parameters<InMemoryMemoryProvider['query']>[0]) {
        this.reads += 1;
        await this.gate.promise;
        return super.query(options);
      }
    }
    const memory = new LateReads();
    const { runtime, model } = await startedRuntime({
      memory,
      responses: planner(['echo', 'reply']),
      options: { taskTimeoutMs: 150 },
    });
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 'a' });
    expect(task.status).toBe('failed');
    expect(task.chain.at(-1)?.error).toContain('during planning');
    expect(memory.reads).toBe(1);
    // The read answers now; the planning the task no longer waits for must not reach the model.
    memory.gate.resolve();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(model.requests).toHaveLength(0);
  });

  it('does not send a model call an executor makes after its task timed out [claim:task-aborted-call-not-sent]', async () => {
    const late = deferred();
    let outcome: unknown;
    const ignores = recordingExecutor('late', async (_task, context) => {
      // Ignores its signal: waits past the deadline, then asks the model.
      await late.promise;
      outcome = await context.models.generateText('still there?').catch((error: unknown) => error);
      return { success: true };
    });
    const { runtime, model } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [ignores] })],
      responses: planner(['tools', 'late']),
      options: { taskTimeoutMs: 150 },
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 'a' });
    expect(task.status).toBe('failed');
    expect(model.requests).toHaveLength(1);
    late.resolve();
    await waitFor(() => outcome !== undefined);
    expect(String(outcome)).toContain('WEFT_TASK_TIMEOUT');
    expect(model.requests).toHaveLength(1);
  });

  it('does not make a memory call an executor makes after its task timed out: it rejects with the timeout and stores nothing [claim:task-late-memory-call-refused]', async () => {
    const late = deferred();
    let outcome: unknown;
    const ignores = recordingExecutor('late', async (_task, context) => {
      // Ignores its signal: waits past the deadline, then stores a memory.
      await late.promise;
      outcome = await context.memory
        .store({ space: 'a', kind: 'note', content: 'written late', metadata: {} })
        .catch((error: unknown) => error);
      return { success: true };
    });
    const { runtime, memory } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [ignores] })],
      responses: planner(['tools', 'late']),
      options: { taskTimeoutMs: 150 },
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 'a' });
    expect(task.status).toBe('failed');
    late.resolve();
    await waitFor(() => outcome !== undefined);
    expect(String(outcome)).toContain('WEFT_TASK_TIMEOUT');
    const notes = await memory.query({ space: 'a', kind: 'note' });
    expect(notes).toEqual([]);
  });

  it('gives each task its own signal, so listeners do not pile up on one [claim:wp-deadline]', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const signals = new Set<AbortSignal>();
      const listens = recordingExecutor('listen', async (_task, context) => {
        signals.add(context.signal);
        // What a provider does for each call: listen for the abort while the call runs.
        context.signal.addEventListener('abort', () => undefined);
        await new Promise((resolve) => setTimeout(resolve, 20));
        return { success: true };
      });
      const { runtime } = await startedRuntime({
        plugins: [new TestPlugin('tools', { executors: [listens] })],
        responses: planner(['tools', 'listen']),
        options: { scheduler: { concurrency: 16 } },
      });
      const tasks = await Promise.all(
        Array.from({ length: 16 }, (_, index) =>
          runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: `s${index}` }),
        ),
      );
      expect(tasks.every((task) => task.status === 'completed')).toBe(true);
      expect(signals.size).toBe(16);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual(
        [],
      );
    } finally {
      process.off('warning', onWarning);
    }
  });
});

/**
 * A coordinator of one instance that hands out grants at once and can lose a space on demand; it
 * records each release as `space#ticket outcome`.
 */
function losingCoordinator() {
  let ticket = 0;
  const lost = new AbortController();
  const released: string[] = [];
  const coordinator: SpaceCoordinator = {
    id: 'losing',
    init: async () => undefined,
    shutdown: async () => undefined,
    admit: async (_arrival: TaskArrival) => (ticket += 1),
    acquire: async (): Promise<SpaceGrant> => ({ ticket, signal: lost.signal }),
    release: async (space, releasedTicket, outcome) => {
      released.push(`${space}#${releasedTicket} ${outcome}`);
    },
  };
  return { coordinator, lose: (reason?: Error) => lost.abort(reason), released };
}

/** A started runtime under `coordinator` whose every task runs the one step `tools.wait`. */
async function waitingRuntime(coordinator: SpaceCoordinator, wait: Executor): Promise<Runtime> {
  const { runtime } = await startedRuntime({
    plugins: [new TestPlugin('tools', { executors: [wait] })],
    responses: planner(['tools', 'wait']),
    coordinator,
  });
  return runtime;
}

/**
 * A coordinator that keeps the host it is given, so a test can hand it a task to resume, with the
 * `admit` and `acquire` given; it records each release as `space#ticket outcome`.
 */
function handingCoordinator(
  id: string,
  admit: SpaceCoordinator['admit'],
  acquire: SpaceCoordinator['acquire'],
) {
  let host: SpaceCoordinatorHost | undefined;
  const released: string[] = [];
  const coordinator: SpaceCoordinator = {
    id,
    init: async (given) => {
      host = given;
    },
    shutdown: async () => undefined,
    admit,
    acquire,
    release: async (space, ticket, outcome) => {
      released.push(`${space}#${ticket} ${outcome}`);
    },
  };
  return {
    coordinator,
    /** Hands the host a task of `pluginId`'s message trigger in space `room` to resume. */
    resume: (taskId: string, pluginId: string, ticket: number) =>
      host?.resume(
        {
          taskId,
          createdAt: new Date().toISOString(),
          pluginId,
          triggerId: 'message',
          space: { id: 'room' },
        },
        ticket,
      ),
    released,
  };
}

/** A coordinator that grants every space already lost, as one that lost its connection does. */
function lostBeforeRunCoordinator(): SpaceCoordinator {
  let ticket = 0;
  return {
    id: 'lost-before-run',
    init: async () => undefined,
    shutdown: async () => undefined,
    admit: async (_arrival: TaskArrival) => (ticket += 1),
    // What @weft/coordinator-postgres hands a task still queued when its connection was lost.
    acquire: async (): Promise<SpaceGrant> => ({
      ticket,
      signal: AbortSignal.abort(new Error('connection lost')),
    }),
    release: async () => undefined,
  };
}

describe('a task handed over by the coordinator', () => {
  it('logs a resumed task whose space the coordinator refuses as failed, and gives its ticket back finished, so no instance runs it [claim:obs-resumed-refused]', async () => {
    const { coordinator, resume, released } = handingCoordinator(
      'refusing',
      async () => 1,
      // The space's earlier tasks did not end in time, as a real coordinator's deadline says.
      async () => {
        throw new Error('the space is held past its deadline');
      },
    );
    const { logger, lines } = capturingLogger();
    const { runtime } = await makeRuntime({ coordinator, options: { logger } });
    await runtime.start();
    resume('handed-over', 'echo', 7);
    await waitFor(() => released.length === 1);
    expect(released).toEqual(['room#7 finished']);
    await waitFor(() => lines.some((line) => line.msg === 'resumed task failed'));
    expect(lines.find((line) => line.msg === 'resuming a task')).toMatchObject({
      taskId: 'handed-over',
      space: 'room',
      ticket: 7,
    });
    expect(lines.find((line) => line.msg === 'resumed task failed')).toMatchObject({
      taskId: 'handed-over',
      space: 'room',
      error: 'the space is held past its deadline',
    });
    await runtime.stop();
  });
});

describe('a task handed over by the coordinator that runs', () => {
  it('logs its end with its status, whichever instance it came from, and gives its ticket back finished [claim:obs-resumed-ended]', async () => {
    const { coordinator, resume, released } = handingCoordinator(
      'handing',
      async () => 1,
      async (): Promise<SpaceGrant> => ({ ticket: 3, signal: new AbortController().signal }),
    );
    const { logger, lines } = capturingLogger();
    const { runtime } = await startedRuntime({
      coordinator,
      responses: planner(['echo', 'reply']),
      options: { logger },
    });
    resume('own-lost-answer', 'echo', 3);
    await waitFor(() => lines.some((line) => line.msg === 'resumed task ended'));
    expect(lines.find((line) => line.msg === 'resumed task ended')).toMatchObject({
      level: 30,
      taskId: 'own-lost-answer',
      space: 'room',
      status: 'completed',
    });
    await waitFor(() => released.length === 1);
    expect(released).toEqual(['room#3 finished']);
    await runtime.stop();
  });
});

describe('a task handed over while this runtime stops', () => {
  it('logs a resumed task that arrives during the stop as failed and leaves its ticket unfinished, for another instance [claim:obs-resumed-refused]', async () => {
    let ticket = 0;
    const { coordinator, resume, released } = handingCoordinator(
      'handing-over',
      async () => (ticket += 1),
      // Grants the one task dispatched here, in space busy; any other space waits for good.
      (space): Promise<SpaceGrant> =>
        space === 'busy'
          ? Promise.resolve({ ticket: 1, signal: new AbortController().signal })
          : new Promise(() => undefined),
    );
    // A task that holds the draining stop open until the gate opens.
    const gate = deferred();
    const wait = recordingExecutor('wait', async () => {
      await gate.promise;
      return { success: true };
    });
    const { logger, lines } = capturingLogger();
    const { runtime } = await makeRuntime({
      plugins: [new TestPlugin('tools', { executors: [wait] })],
      responses: planner(['tools', 'wait']),
      coordinator,
      options: { logger, pipelineReview: 'never' },
    });
    await runtime.start();
    const running = runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 'busy' });
    await waitFor(() => wait.calls.length === 1);
    const stopping = runtime.stop();
    // The stop closes the queue once its teardown begins, a turn of the event loop later.
    await new Promise((resolve) => setTimeout(resolve, 50));
    resume('handed-over', 'tools', 7);
    await waitFor(() => lines.some((line) => line.msg === 'resumed task failed'));
    expect(lines.find((line) => line.msg === 'resumed task failed')).toMatchObject({
      level: 40,
      taskId: 'handed-over',
      space: 'room',
      code: 'WEFT_SHUTTING_DOWN',
    });
    gate.resolve();
    await stopping;
    expect((await running).status).toBe('completed');
    // Only the drained task's ticket was given back: ticket 7 stays unfinished for a takeover.
    expect(released).toEqual(['busy#1 finished']);
  });
});

describe('a coordinator that loses the space', () => {
  it("aborts the executor's signal and ends the task cancelled, its ticket left unfinished [claim:exec-signal]", async () => {
    // One task, ticket 1: granted at once, with the signal the test aborts to take the space away.
    const { coordinator, lose, released } = losingCoordinator();
    let seen: AbortSignal | undefined;
    const waits = recordingExecutor('wait', (_task, context) => {
      seen = context.signal;
      // Ignores its signal, like a hung call: the task must end all the same.
      return new Promise(() => undefined);
    });
    const runtime = await waitingRuntime(coordinator, waits);
    const running = runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 'room' });
    await waitFor(() => seen !== undefined);
    expect(seen?.aborted).toBe(false);
    lose(new Error('lost the lock connection'));
    const task = await running;
    expect(seen?.aborted).toBe(true);
    expect(task.status).toBe('cancelled');
    await waitFor(() => released.length === 1);
    expect(released).toEqual(['room#1 abandoned']);
  });

  it('a task whose space the coordinator loses while it runs sees its signal aborted and ends cancelled [claim:task-status-cancelled] [claim:task-signal-space-lost] [claim:tsdoc-signal-lost-space] [claim:tsdoc-task-cancelled-lost-space] [claim:wp-status-rule] [claim:wp-cancelled]', async () => {
    const { coordinator, lose, released } = losingCoordinator();
    let aborted = false;
    const waits = recordingExecutor('wait', (_task, context) => {
      return new Promise((resolve) => {
        context.signal.addEventListener('abort', () => {
          aborted = true;
          resolve({ success: true });
        });
      });
    });
    const runtime = await waitingRuntime(coordinator, waits);
    const task = runtime.dispatch({ pluginId: 'tools', triggerId: 'm', space: 'room' });
    await waitFor(() => waits.calls.length === 1);
    lose();
    const done = await task;
    expect(aborted).toBe(true);
    expect(done.status).toBe('cancelled');
    await waitFor(() => released.length === 1);
    expect(released).toEqual(['room#1 abandoned']);
  });

  it('keeps the status of a task whose steps had all run when the space is lost while it stores its chain, and gives it back finished [claim:task-status-cancelled] [claim:task-signal-space-lost-storing]', async () => {
    const { coordinator, lose, released } = losingCoordinator();
    const storing = deferred();
    const stored = deferred();
    /** Holds the chain memory until the test has taken the space away. */
    class HeldChains extends InMemoryMemoryProvider {
      override async store(memory: Parameters<InMemoryMemoryProvider['store']>[0]) {
        if (memory.kind === 'chain') {
          storing.resolve();
          await stored.promise;
        }
        return super.store(memory);
      }
    }
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [recordingExecutor('reply')] })],
      responses: planner(['tools', 'reply']),
      memory: new HeldChains(),
      coordinator,
    });
    const task = runtime.dispatch({ pluginId: 'tools', triggerId: 'm', space: 'room' });
    await storing.promise;
    lose(new Error('lost the lock connection'));
    stored.resolve();
    const done = await task;
    expect(done.status).toBe('completed');
    expect(done.recorded.chain).toBe(true);
    // It ran to its end, so no instance that takes the space over may run it again.
    await waitFor(() => released.length === 1);
    expect(released).toEqual(['room#1 finished']);
  });

  it('ends cancelled, with no planning call, no step and no memory stored, a task whose space the coordinator grants already lost [claim:task-status-cancelled-before-run] [claim:sp-stored-never-ran] [claim:tut-never-ran-stores-none] [claim:wp-never-ran-none]', async () => {
    const coordinator = lostBeforeRunCoordinator();
    const waits = recordingExecutor('wait');
    const { runtime, model, memory } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [waits] })],
      responses: planner(['tools', 'wait']),
      coordinator,
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'm', space: 'room' });
    expect(task.status).toBe('cancelled');
    expect(model.requests).toHaveLength(0);
    expect(waits.calls).toHaveLength(0);
    expect(task.recorded.trigger).toBe(false);
    // Another instance may run it: the space's history must not say it was cancelled.
    expect(task.recorded.chain).toBe(false);
    expect(await memory.query({ space: 'room' })).toEqual([]);
  });

  it('logs a task cancelled before it began at debug, and counts it cancelled but not unrecorded [claim:obs-cancelled-before-run] [claim:obs-snapshot-fields]', async () => {
    const coordinator = lostBeforeRunCoordinator();
    const { logger, lines } = capturingLogger();
    const ended: string[] = [];
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [recordingExecutor('wait')] })],
      responses: planner(['tools', 'wait']),
      coordinator,
      options: {
        logger,
        analytics: { trackers: [{ onTaskEnd: (task) => ended.push(task.status) }] },
      },
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'm', space: 'room' });
    expect(task.status).toBe('cancelled');
    const line = lines.find(
      (entry) => entry.msg === 'task cancelled before it ran; nothing stored',
    );
    expect(line).toMatchObject({
      level: 20,
      component: 'pipeline',
      taskId: task.id,
      space: 'room',
      status: 'cancelled',
    });
    // It stored nothing by design, which is not a memory store failing: not unrecorded.
    const { tasks } = runtime.analytics.snapshot();
    expect(tasks).toMatchObject({ started: 1, cancelled: 1, unrecorded: 0 });
    // Trackers still see it end.
    expect(ended).toEqual(['cancelled']);
  });
});

describe('stop() with tasks that ignore their signal', () => {
  it('resolves within shutdownTimeoutMs plus the grace, the cancelled task ending at once though its executor ignores the signal [claim:task-stop-bounded] [claim:prod-abandon-after-grace] [claim:tsdoc-runtime-stop-bounded] [claim:wp-stop-bounded] [claim:prod-cancelled-ends-at-once]', async () => {
    const { logger, lines } = capturingLogger();
    const { runtime } = await makeRuntime({
      plugins: [new TestPlugin('tools', { executors: [hung] })],
      responses: planner(['tools', 'hang']),
      options: { shutdownTimeoutMs: 200, logger },
    });
    await runtime.start();
    const task = runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 'a' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = performance.now();
    await runtime.stop();
    const elapsed = performance.now() - before;
    // 200 ms of drain, then the cancelled task ends at once: its runner races the abort.
    expect(elapsed).toBeLessThan(200 + 2_000 + 1_000);
    expect((await task).status).toBe('cancelled');
    expect(lines.some((line) => line.msg === 'drain timed out; cancelling remaining tasks')).toBe(
      true,
    );
  });

  it("calls the plugin's shutdown while its executor that ignores the signal still runs [claim:plugin-shutdown-executor-running]", async () => {
    const events: string[] = [];
    const finish = deferred();
    const stubborn = recordingExecutor('wait', async () => {
      events.push('executor began');
      await finish.promise;
      events.push('executor ended');
      return { success: true };
    });
    const { runtime } = await makeRuntime({
      plugins: [
        new TestPlugin('tools', {
          executors: [stubborn],
          shutdown: () => {
            events.push('plugin shut down');
          },
        }),
      ],
      responses: planner(['tools', 'wait']),
      options: { shutdown: 'cancel' },
    });
    await runtime.start();
    const task = runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 'a' });
    await waitFor(() => stubborn.calls.length > 0);
    await runtime.stop();
    expect((await task).status).toBe('cancelled');
    // The task ended when it was cancelled; its executor had not, and shutdown did not wait.
    expect(events).toEqual(['executor began', 'plugin shut down']);
    finish.resolve();
    await waitFor(() => events.length === 3);
    expect(events.at(-1)).toBe('executor ended');
  });

  it('abandons, and names, a cancelled task whose chain the memory store is slow to store [claim:plugin-shutdown-executor-running] [claim:task-stop-bounded] [claim:obs-tasks-abandoned] [claim:prod-abandon-after-grace] [claim:tsdoc-runtime-stop-bounded] [claim:wp-stop-bounded] [claim:prod-cancelled-ends-at-once] [claim:wp-stop-reverse] [claim:task-parts-abandoned-task] [claim:wp-logs-content] [claim:obs-tasks-abandoned-spaces]', async () => {
    const { logger, lines } = capturingLogger();
    const events: string[] = [];
    /** Takes 3 s to store a chain memory, longer than the grace stop() gives cancelled tasks. */
    class SlowChains extends InMemoryMemoryProvider {
      override async store(memory: Parameters<InMemoryMemoryProvider['store']>[0]) {
        if (memory.kind === 'chain') {
          await new Promise((resolve) => setTimeout(resolve, 3_000));
          events.push('chain stored');
        }
        return super.store(memory);
      }
    }
    const hangs = recordingExecutor('hang', () => new Promise(() => undefined));
    const { runtime } = await makeRuntime({
      plugins: [
        new TestPlugin('tools', {
          executors: [hangs],
          shutdown: () => {
            events.push('plugin shut down');
          },
        }),
      ],
      responses: planner(['tools', 'hang']),
      memory: new SlowChains(),
      options: { shutdown: 'cancel', logger },
    });
    await runtime.start();
    const task = runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 'a' });
    await waitFor(() => hangs.calls.length > 0);
    const before = performance.now();
    await runtime.stop();
    expect(performance.now() - before).toBeLessThan(2_000 + 1_000);
    const abandoned = lines.find(
      (line) => line.msg === 'tasks did not end after cancellation; abandoning them',
    );
    const done = await task;
    // Like every line about a task, it gives the task's space beside its id.
    expect(abandoned).toMatchObject({ taskIds: [done.id], spaces: ['a'], graceMs: 2_000 });
    expect(done.status).toBe('cancelled');
    // The plugin was shut down while the abandoned task was still storing its chain, which the
    // store finishes on its own, after the task has ended.
    expect(events).toEqual(['plugin shut down']);
    await waitFor(() => events.length === 2);
    expect(events).toEqual(['plugin shut down', 'chain stored']);
  });

  it('names in the abandoned line a task that had finished and was storing its chain, which keeps its own status [claim:obs-tasks-abandoned-status] [claim:task-cancel-rejects-waiting] [claim:task-status-cancelled]', async () => {
    const { logger, lines } = capturingLogger();
    const storing = deferred();
    /** Takes 3 s to store a chain memory, longer than the grace stop() gives cancelled tasks. */
    class SlowChains extends InMemoryMemoryProvider {
      override async store(memory: Parameters<InMemoryMemoryProvider['store']>[0]) {
        if (memory.kind === 'chain') {
          storing.resolve();
          await new Promise((resolve) => setTimeout(resolve, 3_000));
        }
        return super.store(memory);
      }
    }
    const { runtime } = await makeRuntime({
      plugins: [new TestPlugin('tools', { executors: [recordingExecutor('reply')] })],
      responses: planner(['tools', 'reply']),
      memory: new SlowChains(),
      options: { shutdown: 'cancel', logger },
    });
    await runtime.start();
    const task = runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 'a' });
    await storing.promise;
    await runtime.stop();
    const abandoned = lines.find(
      (line) => line.msg === 'tasks did not end after cancellation; abandoning them',
    );
    const done = await task;
    expect(abandoned).toMatchObject({ taskIds: [done.id] });
    // Its steps had all run before the stop: the cancellation did not change how it ended.
    expect(done.status).toBe('completed');
  });

  it('settles the dispatch of a task it abandons before stop() resolves, cancelled and not recorded, though the chain store never answers [claim:task-cancel-abandoned-dispatch-settles] [claim:prod-abandoned-dispatch-resolves] [claim:obs-tasks-abandoned]', async () => {
    const { logger, lines } = capturingLogger();
    const memory = new InMemoryMemoryProvider();
    const store = memory.store.bind(memory);
    memory.store = (input) =>
      input.kind === 'chain' ? new Promise(() => undefined) : store(input);
    const hangs = recordingExecutor('hang', () => new Promise(() => undefined));
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [hangs] })],
      memory,
      responses: planner(['tools', 'hang']),
      options: { shutdown: 'cancel', logger },
    });
    let outcome: AgentTask | 'pending' = 'pending';
    const task = runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 'a' });
    void task.then((done) => (outcome = done));
    await waitFor(() => hangs.calls.length > 0);
    await runtime.stop();
    expect(outcome).toMatchObject({ status: 'cancelled', recorded: { chain: false } });
    expect(lines.map((line) => line.msg)).toContain(
      'tasks did not end after cancellation; abandoning them',
    );
    // The runner stopped waiting with the stop, not at its own 10 s limit for the chain.
    expect(lines.map((line) => line.msg)).not.toContain('storing the chain memory timed out');
  });

  it('settles, with its own status, the dispatch of a finished task a timed-out drain abandons while it stores its chain, and leaves it unfinished with the coordinator [claim:task-cancel-abandoned-dispatch-settles] [claim:task-cancel-storing-abandoned]', async () => {
    const { coordinator, released } = losingCoordinator();
    const storing = deferred();
    const memory = new InMemoryMemoryProvider();
    const store = memory.store.bind(memory);
    memory.store = (input) => {
      if (input.kind !== 'chain') return store(input);
      storing.resolve();
      return new Promise(() => undefined);
    };
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [recordingExecutor('reply')] })],
      memory,
      responses: planner(['tools', 'reply']),
      coordinator,
      options: { shutdownTimeoutMs: 200 },
    });
    let outcome: AgentTask | 'pending' = 'pending';
    const task = runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 'a' });
    void task.then((done) => (outcome = done));
    await storing.promise;
    await runtime.stop();
    expect(outcome).toMatchObject({ status: 'completed', recorded: { chain: false } });
    // Its chain may never be stored: another instance runs it again.
    await waitFor(() => released.length > 0);
    expect(released).toEqual(['a#1 abandoned']);
  });

  it('waits for the coordinator to release a finished task’s space: a slow release logs the drain timeout and the abandoned line with no task [claim:obs-drain-waits-release] [claim:obs-abandon-release]', async () => {
    const { logger, lines } = capturingLogger();
    const { coordinator } = losingCoordinator();
    // Releases take 4 s: longer than the drain's 200 ms and the 2 s grace after it.
    coordinator.release = () => new Promise((resolve) => setTimeout(resolve, 4_000));
    const { runtime } = await makeRuntime({
      plugins: [new TestPlugin('tools', { executors: [recordingExecutor('reply')] })],
      responses: planner(['tools', 'reply']),
      coordinator,
      options: { shutdownTimeoutMs: 200, logger },
    });
    await runtime.start();
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 'a' });
    expect(task.status).toBe('completed');
    await runtime.stop();
    expect(lines.map((line) => line.msg)).toEqual(
      expect.arrayContaining([
        'drain timed out; cancelling remaining tasks',
        'tasks did not end after cancellation; abandoning them',
      ]),
    );
    expect(
      lines.find((line) => line.msg === 'tasks did not end after cancellation; abandoning them'),
    ).toMatchObject({ taskIds: [], graceMs: 2_000 });
  });

  it('abandons a plugin whose shutdown never ends, and still stops, shutting the memory provider down beside it [claim:task-stop-reverse-order] [claim:mpm-stop-grace]', async () => {
    const events: string[] = [];
    class RecordingMemory extends InMemoryMemoryProvider {
      override async shutdown(): Promise<void> {
        events.push('memory shut down');
      }
    }
    const { logger, lines } = capturingLogger();
    const { runtime } = await makeRuntime({
      memory: new RecordingMemory(),
      plugins: [
        new TestPlugin('stuck', {
          shutdown: () => {
            events.push('plugin shutdown began');
            return new Promise(() => undefined);
          },
        }),
      ],
      options: { logger },
    });
    await runtime.start();
    await runtime.stop();
    expect(runtime.status).toBe('stopped');
    // The plugin's shutdown never ended, and the memory provider was shut down all the same.
    expect(events).toEqual(['plugin shutdown began', 'memory shut down']);
    expect(
      lines.find((line) => line.msg === 'shutdown timed out; going on without it'),
    ).toMatchObject({ component: 'plugin "stuck"' });
  });

  it("names the failed part in the shutdown lines' component field, which the runtime's other lines lack [claim:obs-shutdown-component] [claim:obs-task-fields] [claim:plugin-shutdown] [claim:cfg-signal-exit-code]", async () => {
    const { logger, lines } = capturingLogger();
    const { runtime } = await makeRuntime({
      plugins: [
        new TestPlugin('broken', { shutdown: () => Promise.reject(new Error('socket gone')) }),
        new TestPlugin('stuck', { shutdown: () => new Promise(() => undefined) }),
      ],
      options: { logger },
    });
    await runtime.start();
    // A part that failed to shut down does not fail the stop, which a signalled stop's exit code
    // follows.
    await expect(runtime.stop()).resolves.toBeUndefined();
    expect(lines.find((line) => line.msg === 'shutdown failed')).toMatchObject({
      component: 'plugin "broken"',
      error: 'socket gone',
    });
    expect(
      lines.find((line) => line.msg === 'shutdown timed out; going on without it'),
    ).toMatchObject({ component: 'plugin "stuck"' });
    for (const msg of ['runtime started', 'runtime stopped']) {
      expect(lines.find((line) => line.msg === msg)).not.toHaveProperty('component');
    }
  });

  it('gives all hung shutdowns one grace together, not one each, and still asks every one [claim:task-stop-bounded] [claim:obs-shutdown-shared-grace] [claim:prod-abandon-after-grace] [claim:tsdoc-runtime-stop-bounded] [claim:plugin-shutdown-grace] [claim:mpm-stop-grace]', async () => {
    const { logger, lines } = capturingLogger();
    const asked: string[] = [];
    const stuck = (id: string) =>
      new TestPlugin(id, {
        shutdown: () => {
          asked.push(id);
          return new Promise(() => undefined);
        },
      });
    const { runtime } = await makeRuntime({
      plugins: [stuck('one'), stuck('two'), stuck('three')],
      options: { logger, shutdownTimeoutMs: 100 },
    });
    await runtime.start();
    const before = performance.now();
    await runtime.stop();
    const elapsed = performance.now() - before;
    // One grace of 2 s for all three; waiting 2 s for each would take 6 s.
    expect(elapsed).toBeLessThan(2_000 + 1_000);
    expect(asked).toEqual(['three', 'two', 'one']);
    const abandoned = lines
      .filter((line) => line.msg === 'shutdown timed out; going on without it')
      .map((line) => `${String(line.component)} ${String(line.graceMs)}`);
    expect(abandoned).toEqual(['plugin "three" 2000', 'plugin "two" 2000', 'plugin "one" 2000']);
  });
});

describe('memory writes', () => {
  it('marks the task when its trigger and chain were not stored, and counts it [claim:task-recorded-flags] [claim:obs-snapshot-fields] [claim:prod-outage-memory-write] [claim:mpm-failed-write] [claim:wp-recorded] [claim:index-memory-store-fails] [claim:index-chain-store-fails]', async () => {
    const memory = new InMemoryMemoryProvider();
    memory.store = () => Promise.reject(new Error('disk full'));
    const { runtime } = await startedRuntime({
      memory,
      responses: planner(['echo', 'reply']),
      options: { analytics: true },
    });
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    expect(task.status).toBe('completed');
    expect(task.recorded).toEqual({ trigger: false, chain: false });
    expect(runtime.analytics.snapshot().tasks.unrecorded).toBe(1);
  });

  // One task shows both: the 10 s wait on the chain is its own, counted after the task's deadline.
  it('ends a task past its deadline only once its chain is stored, or 10 s later, then logs the chain store as timed out and marks the task [claim:obs-chain-store-timeout] [claim:prod-client-waits-chain] [claim:trouble-client-waits-chain] [claim:task-timeout] [claim:wp-deadline-frees] [claim:mpm-hung-store] [claim:index-chain-store-fails]', async () => {
    const { logger, lines } = capturingLogger();
    const memory = new InMemoryMemoryProvider();
    const store = memory.store.bind(memory);
    memory.store = (input) =>
      input.kind === 'chain' ? new Promise(() => undefined) : store(input);
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [hung] })],
      memory,
      responses: planner(['tools', 'hang']),
      options: { logger, shutdown: 'cancel', taskTimeoutMs: 300 },
    });
    const started = performance.now();
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 's' });
    const tookMs = performance.now() - started;
    expect(task.chain.at(-1)?.error).toContain('[WEFT_TASK_TIMEOUT]');
    expect(task.recorded).toEqual({ trigger: true, chain: false });
    // The deadline, then the chain's 10 s.
    expect(tookMs).toBeGreaterThanOrEqual(10_250);
    expect(tookMs).toBeLessThan(15_000);
    expect(lines.find((line) => line.msg === 'storing the chain memory timed out')).toMatchObject({
      level: 50,
      taskId: task.id,
      space: 's',
      timeoutMs: 10_000,
    });
  }, 20_000);

  it('keeps recorded.trigger false when the trigger is stored only after the task timed out, and counts the task as unrecorded [claim:task-recorded-flags] [claim:tsdoc-task-recorded-chain-timeout] [claim:mpm-hung-store] [claim:obs-snapshot-fields]', async () => {
    const late = deferred();
    const memory = new InMemoryMemoryProvider();
    const store = memory.store.bind(memory);
    let storedLate = false;
    memory.store = async (input) => {
      if (input.kind !== 'trigger') return store(input);
      await late.promise;
      const stored = await store(input);
      storedLate = true;
      return stored;
    };
    const { runtime } = await startedRuntime({
      memory,
      responses: planner(['echo', 'reply']),
      options: { taskTimeoutMs: 150, analytics: true },
    });
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    expect(task.status).toBe('failed');
    expect(task.recorded).toEqual({ trigger: false, chain: true });
    // The store answers now: the trigger memory is there, but the finished task is not changed.
    late.resolve();
    await waitFor(() => storedLate);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(task.recorded).toEqual({ trigger: false, chain: true });
    expect(await memory.query({ space: 's', kind: 'trigger' })).toHaveLength(1);
    // The analytics count it among the unrecorded all the same.
    expect(runtime.analytics.snapshot().tasks.unrecorded).toBe(1);
  });

  it('says both memories were stored when they were [claim:task-recorded-flags]', async () => {
    const { runtime } = await startedRuntime({ responses: planner(['echo', 'reply']) });
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    expect(task.recorded).toEqual({ trigger: true, chain: true });
  });
});

describe('review after the final step', () => {
  it('is skipped by default and made with reviewFinalStep [claim:task-review-policy-always] [claim:task-getting-started-costs-two]', async () => {
    const skipped = await startedRuntime({ responses: planner(['echo', 'reply']) });
    await skipped.runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    expect(skipped.model.requests).toHaveLength(1);

    const reviewed = await startedRuntime({
      responses: planner(['echo', 'reply']),
      options: { reviewFinalStep: true },
    });
    await reviewed.runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    expect(reviewed.model.requests).toHaveLength(2);
    expect(reviewed.model.requests[1]?.at(-1)?.content).toContain('Remaining steps');
  });
});

describe('handleSignals', () => {
  it('exits the process soon after SIGTERM even while an executor hangs [claim:prod-handle-signals] [claim:tsdoc-node-stop-signal] [claim:tsdoc-options-default-handle-signals]', async () => {
    // An .mts file, so tsx runs it as ES module (top-level await) in this CommonJS folder.
    const program = path.join(__dirname, 'programs', 'hung-agent.mts');
    let sent = 0;
    const ended = await runProgram(program, [], (line, child) => {
      if (line !== 'ready') return;
      sent = performance.now();
      child.kill('SIGTERM');
    });
    expect(ended.code).toBe(0);
    // Drain of 300 ms, then the cancelled task ends at once; the grace is the upper bound.
    expect(ended.exitAt - sent).toBeLessThan(300 + 2_000 + 1_500);
  }, 40_000);
});

describe('handleSignals and a forwarded signal', () => {
  it('finishes its stop when a copy of SIGINT arrives during it, as a supervisor such as tsx watch forwards one [claim:tsdoc-node-stop-signal-copy]', async () => {
    const program = path.join(__dirname, 'programs', 'slow-stop-agent.mts');
    const ended = await runProgram(program, [], (line, child) => {
      if (line === 'ready') child.kill('SIGINT');
      // The copy comes while the runtime is stopping, well within the second it is ignored.
      if (line === 'stopping') setTimeout(() => child.kill('SIGINT'), 20);
    });
    expect(ended).toMatchObject({ code: 0, signal: null });
    expect(ended.lines).toContain('stopped');
  }, 40_000);
});

/**
 * Starts a runtime whose plan is the one step `work.ask`, run by `asks`; the model answers every
 * call but the plan's with `answer`.
 */
async function startAsking(
  asks: Executor,
  answer: (
    request: ModelRequestConfig,
  ) => ReturnType<Extract<ScriptedResponse, (...args: never[]) => unknown>>,
  options: RuntimeOptions,
): Promise<Runtime> {
  const { runtime } = await startedRuntime({
    plugins: [new TestPlugin('work', { executors: [asks] })],
    responses: {
      fallback: (_messages, request: ModelRequestConfig) =>
        request.purpose === 'plan' ? plan(['work', 'ask']) : answer(request),
    },
    options,
  });
  return runtime;
}

/** Resolves `outcome` with what `call` ended with: 'resolved', or the reason it was rejected. */
function settleInto(call: Promise<unknown>, outcome: Deferred<unknown>): Promise<void> {
  return call.then(
    () => outcome.resolve('resolved'),
    (error: unknown) => outcome.resolve(error),
  );
}

describe('the task signal', () => {
  it('aborts a running context.getObject when the task is cancelled [claim:go-context-abort]', async () => {
    let requestSignal: AbortSignal | undefined;
    const outcome = deferred<unknown>();
    const asks = recordingExecutor('ask', async (_task, context) => {
      await settleInto(
        context.getObject({ schema: z.object({ ok: z.boolean() }), prompt: 'ok?' }),
        outcome,
      );
      return { success: true };
    });
    const runtime = await startAsking(
      asks,
      (request) => {
        requestSignal = request.signal;
        // Like a provider's HTTP call: it ends when its signal aborts, or fails the test later.
        return new Promise<string>((_resolve, reject) => {
          const late = setTimeout(() => reject(new Error('the signal never aborted')), 5_000);
          request.signal?.addEventListener('abort', () => {
            clearTimeout(late);
            reject(new Error('aborted'));
          });
        });
      },
      { shutdown: 'cancel', pipelineReview: 'never' },
    );
    const task = runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'cancel' });
    await waitFor(() => requestSignal !== undefined);
    expect(requestSignal?.aborted).toBe(false);
    await runtime.stop();
    expect((await task).status).toBe('cancelled');
    expect(requestSignal?.aborted).toBe(true);
    expect(describeOutcome(await outcome.promise)).toContain('aborted');
  });
  it('aborts a running context.getObject when the task times out, unless the call passes a signal of its own [claim:go-context-abort]', async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const own = new AbortController();
    const asks = recordingExecutor('ask', async (_task, context) => {
      const ask = { schema: z.object({ ok: z.boolean() }), prompt: 'ok?' };
      await context.getObject({ ...ask, request: { signal: own.signal } });
      await context.getObject(ask).catch(() => undefined);
      return { success: true };
    });
    const runtime = await startAsking(
      asks,
      (request) => {
        signals.push(request.signal);
        if (signals.length === 1) return { ok: true };
        // The second call hangs until its signal aborts, as an HTTP call would.
        return new Promise<string>((_resolve, reject) => {
          request.signal?.addEventListener('abort', () => reject(new Error('aborted')));
        });
      },
      { taskTimeoutMs: 200, pipelineReview: 'never' },
    );
    const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'late' });
    expect(task.chain.at(-1)).toMatchObject({ type: 'error', pluginId: 'core', action: 'timeout' });
    expect(signals).toHaveLength(2);
    // The call that passed its own signal got that one, not the task's.
    expect(signals[0]).toBe(own.signal);
    expect(signals[1]).not.toBe(own.signal);
    expect(signals[1]?.aborted).toBe(true);
    expect(own.signal.aborted).toBe(false);
  });
  it('refuses a call with a signal of its own that still waits for a slot of a full model provider when the task times out [claim:go-context-abort-bulkhead]', async () => {
    const first = new AbortController();
    const second = new AbortController();
    const hold = deferred<string>();
    const outcome = deferred<unknown>();
    let calls = 0;
    const asks = recordingExecutor('ask', async (_task, context) => {
      const ask = { schema: z.object({ ok: z.boolean() }), prompt: 'ok?' };
      // The first call takes the provider's one slot and holds it; the second waits for it.
      const held = context.getObject({ ...ask, request: { signal: first.signal } });
      const waiting = context.getObject({ ...ask, request: { signal: second.signal } });
      await settleInto(waiting, outcome);
      await held;
      return { success: true };
    });
    const runtime = await startAsking(
      asks,
      () => {
        calls += 1;
        return hold.promise;
      },
      {
        taskTimeoutMs: 200,
        pipelineReview: 'never',
        bulkhead: { limits: { 'model:scripted': 1 }, maxWaitMs: 10_000 },
      },
    );
    const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'full' });
    expect(task.chain.at(-1)).toMatchObject({ type: 'error', pluginId: 'core', action: 'timeout' });
    // The waiting call ended with the task's reason, though its own signal never aborted.
    const refused = await outcome.promise;
    expect(refused).toMatchObject({ code: 'WEFT_TASK_TIMEOUT' });
    expect(second.signal.aborted).toBe(false);
    expect(calls).toBe(1);
    hold.resolve('{"ok":true}');
  });
  it('lets a running call with a signal of its own outlive the task, but refuses the next attempt it starts after the task ended [claim:go-context-abort] [claim:go-context-abort-bulkhead]', async () => {
    const own = new AbortController();
    const firstAnswer = deferred<string>();
    const outcome = deferred<unknown>();
    const signals: (AbortSignal | undefined)[] = [];
    const asks = recordingExecutor('ask', async (_task, context) => {
      await settleInto(
        context.getObject({
          schema: z.object({ ok: z.boolean() }),
          prompt: 'ok?',
          maxRetries: 1,
          request: { signal: own.signal },
        }),
        outcome,
      );
      return { success: true };
    });
    const runtime = await startAsking(
      asks,
      (request) => {
        signals.push(request.signal);
        // The first answer comes after the task's time limit, and is not valid: getObject asks
        // again, once the task has ended.
        return signals.length === 1 ? firstAnswer.promise : '{"ok":true}';
      },
      { taskTimeoutMs: 100, pipelineReview: 'never' },
    );
    const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'late' });
    expect(task.chain.at(-1)).toMatchObject({ type: 'error', pluginId: 'core', action: 'timeout' });
    // The running call was not aborted: its own signal took the task's place.
    expect(own.signal.aborted).toBe(false);
    firstAnswer.resolve('not JSON');
    // Its next attempt, started after the task ended, was refused with the task's reason, and
    // the provider was not asked again, though it had a free slot and the call's signal never
    // fired.
    expect(await outcome.promise).toMatchObject({ code: 'WEFT_TASK_TIMEOUT' });
    expect(signals).toEqual([own.signal]);
    expect(own.signal.aborted).toBe(false);
  });
  it("passes the task's signal to planning, review and executor model calls [claim:exec-models-signal] [claim:exec-getobject-signal] [claim:task-signal-reaches-model-calls] [claim:go-context-abort] [claim:testing-purpose] [claim:mpo-scripted-function] [claim:tst-purpose] [claim:wp-signal-model-calls] [claim:cap-request-purpose] [claim:cap-request-signal]", async () => {
    const seen: { purpose: string | undefined; signal: AbortSignal | undefined }[] = [];
    let executorSignal: AbortSignal | undefined;
    const asksModel = recordingExecutor('ask', async (_task, context) => {
      executorSignal = context.signal;
      await context.models.generateText('hi');
      await context.getObject({ schema: z.object({ ok: z.boolean() }), prompt: 'ok?' });
      return { success: true };
    });
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('work', { executors: [asksModel, recordingExecutor('after')] })],
      responses: {
        fallback: (_messages, request: ModelRequestConfig) => {
          seen.push({ purpose: request.purpose, signal: request.signal });
          if (request.purpose === 'plan') return plan(['work', 'ask'], ['work', 'after']);
          if (request.purpose === 'get-object:object') return { ok: true };
          return request.purpose === 'review' ? { type: 'continue' } : 'hello';
        },
      },
    });
    await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'signals' });
    // The executor's context.getObject carries the task's signal too.
    expect(seen.map((call) => call.purpose)).toEqual([
      'plan',
      undefined,
      'get-object:object',
      'review',
    ]);
    expect(executorSignal).toBeInstanceOf(AbortSignal);
    for (const call of seen) expect(call.signal).toBe(executorSignal);
  });
});

function describeOutcome(outcome: unknown): string {
  return outcome instanceof Error ? outcome.message : String(outcome);
}
