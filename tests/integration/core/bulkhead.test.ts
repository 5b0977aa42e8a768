/**
 * One hung dependency cannot take every worker: a plugin or model provider that never answers
 * holds at most its bulkhead's limit of the scheduler's workers, tasks waiting for it give
 * their worker back, and a task of an unrelated space is answered meanwhile.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  Runtime,
  type AgentTask,
  type Executor,
  type ModelCapability,
  type ModelRequestConfig,
  type PluginResult,
  type RuntimeOptions,
} from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import {
  deferred,
  errorOf,
  gatedExecutor,
  plan,
  planner,
  recordingExecutor,
  sentimentCapability,
  silentLogger,
  startedRuntime,
  stopAfterTest,
  TestModelProvider,
  TestPlugin,
} from './fixtures.js';
import { capturingLogger } from '@weft-internal/test-support/capturing-logger';

const never = (): Promise<PluginResult> => new Promise(() => undefined);

/**
 * Checks that `task` failed at the step of `step.action` of `step.pluginId`, with an error
 * WEFT_BULKHEAD_FULL whose message holds each of `fragments`.
 */
function expectBulkheadFull(
  task: AgentTask,
  step: { pluginId: string; action: string },
  ...fragments: string[]
): void {
  expect(task.status).toBe('failed');
  const failure = task.chain.find((item) => item.type === 'error');
  expect(failure).toMatchObject(step);
  expect(failure?.error).toContain('[WEFT_BULKHEAD_FULL]');
  for (const fragment of fragments) expect(failure?.error).toContain(fragment);
}

/** Plans `weather.forecast` for messages saying "forecast", `echo.reply` for the others. */
const router = {
  fallback: (messages: readonly { content: string }[], request: ModelRequestConfig) => {
    if (request.purpose === 'review') return { type: 'continue' };
    const asksForecast = messages.some((message) => message.content.includes('Message: forecast'));
    return {
      steps: [
        asksForecast
          ? { pluginId: 'weather', action: 'forecast' }
          : { pluginId: 'echo', action: 'reply' },
      ],
    };
  },
};

/**
 * A started runtime with a plugin `weather` whose executor is `forecast`, a plugin `echo` that
 * replies, and the model that routes between them; it is stopped after the test.
 */
function weatherRuntime(forecast: Executor, options?: RuntimeOptions) {
  return startedRuntime({
    plugins: [
      new TestPlugin('weather', { executors: [forecast] }),
      new TestPlugin('echo', { executors: [recordingExecutor('reply')] }),
    ],
    responses: router,
    options,
  });
}

function dispatchAll(runtime: Runtime, count: number, message: string) {
  return Array.from({ length: count }, (_, index) =>
    runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: `w${index}`, message }),
  );
}

/** A model provider, `sentiment-upstream`, whose `sentiment` calls never answer. */
function hangingSentimentProvider(): TestModelProvider {
  const hanging: ModelCapability = { id: 'sentiment', run: () => new Promise(() => undefined) };
  return new TestModelProvider('sentiment-upstream', {
    capabilities: [hanging],
    descriptors: [sentimentCapability],
  });
}

/** The `score` step of plugin `mood`: it asks the `sentiment` model about the task's message. */
function scoresMood() {
  return recordingExecutor('score', async (task, context) => {
    const { score } = await context.models.call('sentiment', {
      text: task.trigger.message ?? '',
    });
    return { success: true, data: { score } };
  });
}

/**
 * An in-memory store whose writes of `kind` in space `a` never return, as a hung store's; it
 * counts those writes.
 */
function hangingStore(kind: 'trigger' | 'chain') {
  const memory = new InMemoryMemoryProvider();
  const store = memory.store.bind(memory);
  let hung = 0;
  memory.store = (input) => {
    if (input.space !== 'a' || input.kind !== kind) return store(input);
    hung += 1;
    return new Promise(() => undefined);
  };
  return { memory, hungCalls: () => hung };
}

/**
 * A started runtime over a {@link hangingStore} hung on `kind`, whose tasks reply with
 * `echo.reply` and which cancels its tasks when it stops; `options` adds the rest.
 */
async function echoOverHangingStore(
  kind: 'trigger' | 'chain',
  options: RuntimeOptions,
): Promise<Runtime> {
  const { memory } = hangingStore(kind);
  const { runtime } = await startedRuntime({
    memory,
    responses: planner(['echo', 'reply']),
    options: { shutdown: 'cancel', ...options },
  });
  return runtime;
}

/** Milliseconds until `promise` settles, or `null` when it has not within `limitMs`. */
async function settlesWithin(promise: Promise<unknown>, limitMs: number): Promise<number | null> {
  const started = performance.now();
  const outcome = await Promise.race([
    promise.then(() => 'settled'),
    new Promise((resolve) => setTimeout(resolve, limitMs, 'pending')),
  ]);
  return outcome === 'settled' ? performance.now() - started : null;
}

describe('bulkheads', () => {
  it('answers a healthy space while a hung plugin holds at most maxConcurrent of the workers [claim:prod-bulkhead-default] [claim:wp-workers-lent] [claim:philo-plugin-bulkhead] [claim:index-bulkhead-default]', async () => {
    const forecast = recordingExecutor('forecast', never);
    // Defaults: 4 workers, so a dependency may hold 3.
    const { runtime } = await weatherRuntime(forecast, { shutdown: 'cancel' });
    const hung = dispatchAll(runtime, 6, 'forecast');
    const healthy = runtime.dispatch({
      pluginId: 'echo',
      triggerId: 'message',
      space: 'healthy',
      message: 'hello',
    });
    const elapsed = await settlesWithin(healthy, 2_000);
    expect(elapsed).not.toBeNull();
    expect((await healthy).status).toBe('completed');
    expect(forecast.calls).toHaveLength(3);
    expect(await settlesWithin(Promise.race(hung), 50)).toBeNull();
  });

  it('with a single worker, lets a hung plugin hold it until taskTimeoutMs ends its task, and only then runs another space [claim:philo-plugin-bulkhead-one]', async () => {
    const { runtime } = await weatherRuntime(recordingExecutor('forecast', never), {
      shutdown: 'cancel',
      taskTimeoutMs: 1_000,
      scheduler: { concurrency: 1 },
    });
    const started = performance.now();
    const [hung] = dispatchAll(runtime, 1, 'forecast');
    const healthy = runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 'healthy' });
    // The default limit is 1, the only worker: the healthy space waits for the hung task.
    expect(await settlesWithin(healthy, 500)).toBeNull();
    expect((await hung!).status).toBe('failed');
    expect((await healthy).status).toBe('completed');
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
  });

  it('without a limit below the workers, the same hung plugin holds them all (the failure it prevents) [claim:prod-bulkhead-default] [claim:prod-hung-holds-workers]', async () => {
    const { runtime } = await weatherRuntime(recordingExecutor('forecast', never), {
      shutdown: 'cancel',
      bulkhead: { maxConcurrent: 4 },
    });
    dispatchAll(runtime, 6, 'forecast').forEach((task) => task.catch(() => undefined));
    const healthy = runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 'healthy' });
    healthy.catch(() => undefined);
    expect(await settlesWithin(healthy, 500)).toBeNull();
  });

  it('fails a step that waits past maxWaitMs with WEFT_BULKHEAD_FULL, and the task ends, dispatch resolving with it [claim:prod-bulkhead-wait] [claim:cfg-bulkhead-wait] [claim:errors-bulkhead-stays-in-task] [claim:task-status-failed] [claim:philo-plugin-bulkhead]', async () => {
    const { runtime } = await weatherRuntime(recordingExecutor('forecast', never), {
      shutdown: 'cancel',
      bulkhead: { limits: { 'plugin:weather': 1 }, maxWaitMs: 100 },
    });
    const [hung, waiting] = dispatchAll(runtime, 2, 'forecast');
    hung?.catch(() => undefined);
    const task = await waiting!;
    expectBulkheadFull(
      task,
      { pluginId: 'weather', action: 'forecast' },
      'plugin:weather already has 1 calls running',
      'options.bulkhead.limits["plugin:weather"]',
    );
  });

  it('runs the later steps of a task whose step found a hung plugin’s slots all held, once that step fails at maxWaitMs, well before taskTimeoutMs [claim:philo-hung-dependency-slot-wait]', async () => {
    const forecast = recordingExecutor('forecast', never);
    const { runtime } = await startedRuntime({
      plugins: [
        new TestPlugin('weather', { executors: [forecast] }),
        new TestPlugin('echo', { executors: [recordingExecutor('reply')] }),
      ],
      // Every task asks the hung plugin first, then another plugin.
      responses: planner(['weather', 'forecast'], ['echo', 'reply']),
      options: {
        shutdown: 'cancel',
        taskTimeoutMs: 5_000,
        bulkhead: { limits: { 'plugin:weather': 1 }, maxWaitMs: 100 },
      },
    });
    const holder = runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 'w0' });
    holder.catch(() => undefined);
    // The first task's step holds the plugin's one slot before the second task asks for it.
    await vi.waitFor(() => expect(forecast.calls).toHaveLength(1));
    const started = performance.now();
    const waiting = await runtime.dispatch({
      pluginId: 'echo',
      triggerId: 'message',
      space: 'w1',
    });
    expect(performance.now() - started).toBeLessThan(2_000);
    expectBulkheadFull(waiting, { pluginId: 'weather', action: 'forecast' });
    expect(
      waiting.chain.slice(1).map(({ type, pluginId, action }) => [type, pluginId, action]),
    ).toEqual([
      ['error', 'weather', 'forecast'],
      ['result', 'echo', 'reply'],
    ]);
  });

  it('logs a step that got no slot of its plugin’s bulkhead as step failed, with WEFT_BULKHEAD_FULL [claim:obs-step-failed-bulkhead]', async () => {
    const { logger, lines } = capturingLogger('warn');
    const { runtime } = await weatherRuntime(recordingExecutor('forecast', never), {
      shutdown: 'cancel',
      bulkhead: { limits: { 'plugin:weather': 1 }, maxWaitMs: 100 },
      logger,
    });
    const [hung, waiting] = dispatchAll(runtime, 2, 'forecast');
    hung?.catch(() => undefined);
    const task = await waiting!;
    expect(lines.filter((line) => line.taskId === task.id)).toEqual([
      expect.objectContaining({
        msg: 'step failed',
        step: expect.objectContaining({ pluginId: 'weather', action: 'forecast' }),
        code: 'WEFT_BULKHEAD_FULL',
      }),
    ]);
  });

  it('logs a memory the runtime could not store or read past a full memory bulkhead with WEFT_BULKHEAD_FULL, and runs the task without it [claim:errors-bulkhead-memory-logged] [claim:cfg-bulkhead-wait] [claim:prod-bulkhead-wait]', async () => {
    class StuckMemory extends InMemoryMemoryProvider {
      override store(memory: Parameters<InMemoryMemoryProvider['store']>[0]) {
        return memory.space === 'stuck' ? new Promise<never>(() => undefined) : super.store(memory);
      }
    }
    const { logger, lines } = capturingLogger();
    const { runtime } = await startedRuntime({
      memory: new StuckMemory(),
      responses: { fallback: { steps: [] } },
      options: {
        logger,
        shutdown: 'cancel',
        bulkhead: { limits: { 'memory:in-memory': 1 }, maxWaitMs: 100 },
      },
    });
    const stuck = runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 'stuck' });
    stuck.catch(() => undefined);
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 'free' });
    expect(task.status).toBe('completed');
    expect(task.recorded).toMatchObject({ trigger: false, chain: false });
    const full = lines.filter((line) => line.code === 'WEFT_BULKHEAD_FULL');
    expect(full.map((line) => line.msg)).toEqual(
      expect.arrayContaining([
        'could not store memory',
        'could not read the space’s history; planning the task without it',
      ]),
    );
    expect(task.chain.some((item) => item.type === 'error')).toBe(false);
  });

  it("fails a step whose own memory call gets no slot of a full memory bulkhead, while the runtime's memory calls for the same task are only logged [claim:prod-bulkhead-wait] [claim:prod-shared-memory-hangs] [claim:prod-shared-memory-step]", async () => {
    class StuckMemory extends InMemoryMemoryProvider {
      override store(memory: Parameters<InMemoryMemoryProvider['store']>[0]) {
        return memory.space === 'stuck' ? new Promise<never>(() => undefined) : super.store(memory);
      }
    }
    // The step reads the space's history itself, as the chat tutorial's `answer` step does.
    const reads = recordingExecutor('reads', async (task, context) => {
      const history = await context.memory.query({ space: task.space.id });
      return { success: true, data: { read: history.length } };
    });
    const { logger, lines } = capturingLogger();
    const { runtime } = await startedRuntime({
      memory: new StuckMemory(),
      plugins: [new TestPlugin('history', { executors: [reads] })],
      responses: planner(['history', 'reads']),
      options: {
        logger,
        shutdown: 'cancel',
        pipelineReview: 'never',
        bulkhead: { limits: { 'memory:in-memory': 1 }, maxWaitMs: 100 },
      },
    });
    const stuck = runtime.dispatch({ pluginId: 'history', triggerId: 'message', space: 'stuck' });
    stuck.catch(() => undefined);
    const task = await runtime.dispatch({
      pluginId: 'history',
      triggerId: 'message',
      space: 'free',
    });
    expectBulkheadFull(task, { pluginId: 'history', action: 'reads' }, 'memory:in-memory');
    // The runtime's own calls for the task (its trigger, its history, its chain) were logged.
    const logged = lines.filter((line) => line.code === 'WEFT_BULKHEAD_FULL').map((l) => l.msg);
    expect(logged).toEqual(
      expect.arrayContaining([
        'could not store memory',
        'could not read the space’s history; planning the task without it',
      ]),
    );
    expect(task.historyUnavailable).toBeDefined();
    expect(task.recorded).toMatchObject({ trigger: false, chain: false });
  });

  it('logs a review that got no slot of a full model bulkhead on the review line with WEFT_BULKHEAD_FULL, and the task keeps its steps [claim:errors-bulkhead-review-logged]', async () => {
    const bStepStarted = deferred();
    const aReviewing = deferred();
    const bReviewed = deferred();
    // Task A's review hangs and holds the model's only slot; task B's review then waits for it.
    const fallback = (messages: readonly { content: string }[], request: ModelRequestConfig) => {
      const space = request.task?.message ?? '';
      if (request.purpose === 'review') {
        if (space === 'a') {
          aReviewing.resolve();
          return new Promise<never>(() => undefined);
        }
        bReviewed.resolve();
        return { type: 'continue' };
      }
      return {
        steps: [
          { pluginId: 'work', action: space },
          { pluginId: 'work', action: 'last' },
        ],
      };
    };
    const a = recordingExecutor('a', async () => {
      await bStepStarted.promise;
      return { success: true };
    });
    const b = recordingExecutor('b', async () => {
      bStepStarted.resolve();
      await aReviewing.promise;
      return { success: true };
    });
    const { logger, lines } = capturingLogger();
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('work', { executors: [a, b, recordingExecutor('last')] })],
      responses: { fallback },
      options: {
        logger,
        shutdown: 'cancel',
        bulkhead: { limits: { 'model:scripted': 1 }, maxWaitMs: 100 },
      },
    });
    runtime
      .dispatch({ pluginId: 'work', triggerId: 'message', space: 'a', message: 'a' })
      .catch(() => undefined);
    const task = await runtime.dispatch({
      pluginId: 'work',
      triggerId: 'message',
      space: 'b',
      message: 'b',
    });
    expect(task.status).toBe('completed');
    expect(task.steps.map((step) => step.action)).toEqual(['b', 'last']);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'pipeline review failed; keeping the remaining steps',
        code: 'WEFT_BULKHEAD_FULL',
        taskId: task.id,
      }),
    );
    // The review of task B never reached the model: it got no slot.
    expect(await settlesWithin(bReviewed.promise, 50)).toBeNull();
  });

  it('answers a healthy space while a model provider hangs under a plugin’s steps [claim:prod-bulkhead-default]', async () => {
    const mood = scoresMood();
    const runtime = await Runtime.init({
      models: [
        new ScriptedModelProvider({
          fallback: (messages, request) => {
            if (request.purpose === 'review') return { type: 'continue' };
            const scores = messages.some((message) => message.content.includes('Message: mood'));
            return {
              steps: [
                scores
                  ? { pluginId: 'mood', action: 'score' }
                  : { pluginId: 'echo', action: 'reply' },
              ],
            };
          },
        }),
        hangingSentimentProvider(),
      ],
      memory: new InMemoryMemoryProvider(),
      plugins: [
        new TestPlugin('mood', { executors: [mood], requiredCapabilities: ['sentiment'] }),
        new TestPlugin('echo', { executors: [recordingExecutor('reply')] }),
      ],
      options: {
        logger: silentLogger,
        shutdown: 'cancel',
        bulkhead: { limits: { 'model:sentiment-upstream': 2 } },
      },
    });
    stopAfterTest(runtime);
    await runtime.start();
    for (const task of dispatchAll(runtime, 6, 'mood')) task.catch(() => undefined);
    const healthy = runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 'healthy' });
    expect(await settlesWithin(healthy, 2_000)).not.toBeNull();
    expect((await healthy).status).toBe('completed');
    expect(mood.calls.length).toBeGreaterThanOrEqual(2);
  });

  it('fails a step whose own model call gets no slot of a full model bulkhead within maxWaitMs [claim:prod-bulkhead-wait]', async () => {
    const mood = scoresMood();
    const runtime = await Runtime.init({
      models: [new ScriptedModelProvider(planner(['mood', 'score'])), hangingSentimentProvider()],
      memory: new InMemoryMemoryProvider(),
      plugins: [new TestPlugin('mood', { executors: [mood], requiredCapabilities: ['sentiment'] })],
      options: {
        logger: silentLogger,
        shutdown: 'cancel',
        pipelineReview: 'never',
        bulkhead: { limits: { 'model:sentiment-upstream': 1 }, maxWaitMs: 100 },
      },
    });
    stopAfterTest(runtime);
    await runtime.start();
    const [hung, waiting] = Array.from({ length: 2 }, (_, index) =>
      runtime.dispatch({ pluginId: 'mood', triggerId: 'message', space: `m${index}` }),
    );
    hung?.catch(() => undefined);
    const task = await waiting!;
    expectBulkheadFull(
      task,
      { pluginId: 'mood', action: 'score' },
      'model:sentiment-upstream already has 1 calls running',
    );
  });

  it('lets a busy but healthy plugin use every slot it has, with no task failing', async () => {
    let running = 0;
    let most = 0;
    const slow = recordingExecutor('forecast', async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 30));
      running -= 1;
      return { success: true };
    });
    const { runtime } = await weatherRuntime(slow);
    const tasks = await Promise.all(dispatchAll(runtime, 12, 'forecast'));
    expect(tasks.map((task) => task.status)).toEqual(Array(12).fill('completed'));
    expect(most).toBe(3);
  });
});

describe('bulkhead slots and deadlines', () => {
  it('keeps a hung call’s slot once its task timed out, for at most taskTimeoutMs more, and then the next call runs [claim:prod-bulkhead-slot-back] [claim:task-hung-store-others-run] [claim:task-timeout-plugin-slot]', async () => {
    let hangs = true;
    const forecast = recordingExecutor('forecast', () => {
      if (!hangs) return { success: true };
      hangs = false;
      return never();
    });
    const { runtime } = await weatherRuntime(forecast, {
      shutdown: 'cancel',
      // The hung call's slot is held for 2 s after its task ended; the next step's wait of
      // 300 ms ends well inside that, even on a loaded machine.
      taskTimeoutMs: 2_000,
      bulkhead: { limits: { 'plugin:weather': 1 }, maxWaitMs: 300 },
    });
    const [hung] = dispatchAll(runtime, 1, 'forecast');
    expect((await hung)?.chain.at(-1)?.error).toContain('[WEFT_TASK_TIMEOUT]');
    const ended = performance.now();
    // The hung call may still be running upstream: it counts against the limit, so the next
    // step gets no slot.
    const [refused] = dispatchAll(runtime, 1, 'forecast');
    expect((await refused)?.chain.at(-1)?.error).toContain('[WEFT_BULKHEAD_FULL]');
    expect(performance.now() - ended).toBeLessThan(2_000);
    // taskTimeoutMs after its task ended (its timer was set before `ended`, and timers only run
    // late), the hung call no longer counts.
    await new Promise((resolve) => setTimeout(resolve, 2_500 - (performance.now() - ended)));
    const [next] = dispatchAll(runtime, 1, 'forecast');
    expect((await next)?.status).toBe('completed');
    expect(forecast.calls).toHaveLength(2);
  });

  it('fails a task whose planning call waits past maxWaitMs on a full model provider, which never makes that call [claim:prod-bulkhead-wait] [claim:cfg-bulkhead-wait] [claim:prod-shared-dependency-hangs] [claim:task-status-failed] [claim:task-cost-one-plan]', async () => {
    const { runtime, model } = await startedRuntime({
      responses: {
        fallback: (messages, request) => {
          if (request.purpose === 'review') return { type: 'continue' };
          const hangs = messages.some((message) => message.content.includes('Message: hang'));
          return hangs
            ? new Promise(() => undefined)
            : { steps: [{ pluginId: 'echo', action: 'reply' }] };
        },
      },
      options: {
        shutdown: 'cancel',
        bulkhead: { limits: { 'model:scripted': 1 }, maxWaitMs: 100 },
      },
    });
    const hung = runtime.dispatch({
      pluginId: 'echo',
      triggerId: 'message',
      space: 'a',
      message: 'hang',
    });
    hung.catch(() => undefined);
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 'b' });
    expect(task.status).toBe('failed');
    expect(task.chain.at(-1)).toMatchObject({ pluginId: 'core', action: 'plan' });
    expect(task.chain.at(-1)?.error).toContain('[WEFT_BULKHEAD_FULL]');
    expect(task.chain.at(-1)?.error).toContain('model:scripted');
    // Only the hung task's planning call reached the provider: the refused one costs nothing.
    expect(model.requests).toHaveLength(1);
  });

  it('keeps the remaining steps when a review call waits past maxWaitMs on a full model provider, and logs why [claim:prod-bulkhead-wait] [claim:cfg-bulkhead-wait] [claim:task-failed-review-keeps-steps]', async () => {
    const { logger, lines } = capturingLogger();
    let openGate: () => void = () => undefined;
    const gateOpen = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    const gate = recordingExecutor('wait', async () => {
      await gateOpen;
      return { success: true, data: 'waited' };
    });
    const reply = recordingExecutor('reply');
    const { runtime, model } = await startedRuntime({
      plugins: [
        new TestPlugin('gate', { executors: [gate] }),
        new TestPlugin('echo', { executors: [reply] }),
      ],
      responses: {
        fallback: (messages, request) => {
          if (request.purpose === 'review') return { type: 'continue' };
          const hangs = messages.some((message) => message.content.includes('Message: hang'));
          return hangs
            ? new Promise(() => undefined)
            : {
                steps: [
                  { pluginId: 'gate', action: 'wait' },
                  { pluginId: 'echo', action: 'reply' },
                ],
              };
        },
      },
      options: {
        logger,
        shutdown: 'cancel',
        bulkhead: { limits: { 'model:scripted': 1 }, maxWaitMs: 100 },
      },
    });
    const reviewed = runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 'b' });
    await vi.waitFor(() => expect(gate.calls).toHaveLength(1));
    // Another task's planning call now holds the provider's one slot, and never returns.
    const hung = runtime.dispatch({
      pluginId: 'echo',
      triggerId: 'message',
      space: 'a',
      message: 'hang',
    });
    hung.catch(() => undefined);
    await vi.waitFor(() => expect(model.requests).toHaveLength(2));
    openGate();

    const task = await reviewed;
    expect(task.status).toBe('completed');
    expect(reply.calls).toHaveLength(1);
    expect(task.steps.map((step) => `${step.pluginId}.${step.action}`)).toEqual([
      'gate.wait',
      'echo.reply',
    ]);
    const failedReview = lines.find(
      (line) => line.msg === 'pipeline review failed; keeping the remaining steps',
    );
    expect(failedReview).toMatchObject({ code: 'WEFT_BULKHEAD_FULL', taskId: task.id });
    expect(failedReview?.error).toContain('model:scripted');
  });

  it('runs the other tasks without their memory while a hung store holds its slots, and times out those holding them [claim:prod-shared-memory-hangs] [claim:sp-hung-store] [claim:task-hung-store-others-run] [claim:mpm-hung-store-others]', async () => {
    const { logger, lines } = capturingLogger();
    // Recording the trigger of a task in space `a` never returns; every other write does.
    const runtime = await echoOverHangingStore('trigger', {
      logger,
      taskTimeoutMs: 1_500,
      bulkhead: { limits: { 'memory:in-memory': 1 }, maxWaitMs: 100 },
    });
    const hung = runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 'a' });
    // The hung call holds the store's only slot before the other task arrives.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const other = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 'b' });
    expect(other.status).toBe('completed');
    expect(other.recorded).toEqual({ trigger: false, chain: false });
    expect(other.historyUnavailable?.errorId).toEqual(expect.any(String));
    const refusals = lines.filter(
      (line) => line.taskId === other.id && line.code === 'WEFT_BULKHEAD_FULL',
    );
    expect(refusals.map((line) => line.msg)).toEqual([
      'could not store memory',
      'could not read the space’s history; planning the task without it',
      'could not store memory',
    ]);
    const timedOut = await hung;
    expect(timedOut.status).toBe('failed');
    expect(timedOut.chain.at(-1)?.error).toContain('[WEFT_TASK_TIMEOUT]');
  });

  it('fails the step of another task whose own memory call waits past maxWaitMs while a hung store holds its slots [claim:mpm-hung-store-step-calls]', async () => {
    // Recording the trigger of a task in space `a` never returns; every other call does.
    const { memory } = hangingStore('trigger');
    const list = recordingExecutor('list', async (task, context) => {
      const found = await context.memory.query({ space: task.space.id });
      return { success: true, data: { found: found.length } };
    });
    const { runtime } = await startedRuntime({
      memory,
      plugins: [new TestPlugin('notes', { executors: [list] })],
      responses: planner(['notes', 'list']),
      options: {
        shutdown: 'cancel',
        taskTimeoutMs: 1_500,
        bulkhead: { limits: { 'memory:in-memory': 1 }, maxWaitMs: 100 },
      },
    });
    const hung = runtime.dispatch({ pluginId: 'notes', triggerId: 'message', space: 'a' });
    // The hung call holds the store's only slot before the other task arrives.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const other = await runtime.dispatch({ pluginId: 'notes', triggerId: 'message', space: 'b' });
    expect(list.calls).toHaveLength(1);
    expectBulkheadFull(
      other,
      { pluginId: 'notes', action: 'list' },
      'memory:in-memory already has 1 calls running',
    );
    expect((await hung).status).toBe('failed');
  });

  it('without a limits entry for the store, holds its calls to maxConcurrent, by default one less than the workers [claim:core-readme-options] [claim:task-hung-store-others-run] [claim:mpm-hung-store-others] [claim:index-trigger-store-bulkhead]', async () => {
    // Recording the trigger of a task in space `a` never returns; every other write does.
    const runtime = await echoOverHangingStore('trigger', {
      taskTimeoutMs: 1_500,
      // Two workers: the store's default limit is 1, which the hung call takes.
      scheduler: { concurrency: 2 },
      bulkhead: { maxWaitMs: 100 },
    });
    const hung = runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 'a' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Each of its memory calls waits maxWaitMs for the slot the hung call holds, then fails.
    const other = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 'b' });
    expect(other.status).toBe('completed');
    expect(other.recorded).toEqual({ trigger: false, chain: false });
    expect(other.historyUnavailable?.errorId).toEqual(expect.any(String));
    expect((await hung).status).toBe('failed');
  });

  it('gives up the chain write after 10 s while it waits for a slot of a hung store, sooner than a longer maxWaitMs and without WEFT_BULKHEAD_FULL [claim:prod-shared-memory-hangs] [claim:cfg-bulkhead-wait] [claim:task-hung-chain-write]', async () => {
    const { logger, lines } = capturingLogger();
    // Recording the trigger of a task in space `a` never returns; every other write does.
    const { memory, hungCalls } = hangingStore('trigger');
    const { executor: step, open } = gatedExecutor('step');
    const { runtime } = await startedRuntime({
      memory,
      plugins: [new TestPlugin('work', { executors: [step] })],
      responses: planner(['work', 'step']),
      options: {
        logger,
        shutdown: 'cancel',
        pipelineReview: 'never',
        taskTimeoutMs: 60_000,
        bulkhead: { limits: { 'memory:in-memory': 1 }, maxWaitMs: 60_000 },
      },
    });
    const waitUntil = async (done: () => boolean) => {
      const deadline = Date.now() + 5_000;
      while (!done() && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(done()).toBe(true);
    };
    // Task `b` has stored its trigger and read its history, and is in its step...
    const pending = runtime.dispatch({ pluginId: 'work', triggerId: 'message', space: 'b' });
    await waitUntil(() => step.calls.length === 1);
    // ...when a task of `a` takes the store's only slot and hangs in it.
    const hung = runtime.dispatch({ pluginId: 'work', triggerId: 'message', space: 'a' });
    hung.catch(() => undefined);
    await waitUntil(() => hungCalls() === 1);
    const stepEnded = Date.now();
    open();
    const task = await pending;
    const waited = Date.now() - stepEnded;
    // The chain write waited for the slot as long as any chain write may take, not maxWaitMs.
    expect(waited).toBeGreaterThanOrEqual(9_900);
    expect(waited).toBeLessThan(20_000);
    expect(task.status).toBe('completed');
    expect(task.recorded).toEqual({ trigger: true, chain: false });
    const ofTask = lines.filter((line) => line.taskId === task.id);
    expect(ofTask.map((line) => line.msg)).toContain('storing the chain memory timed out');
    expect(ofTask.some((line) => line.code === 'WEFT_BULKHEAD_FULL')).toBe(false);
  }, 30_000);

  it('gives the memory slot back when the runtime stops waiting for a chain that is never stored [claim:prod-bulkhead-slot-back-chain] [claim:task-hung-chain-write]', async () => {
    // Storing the chain of a task in space `a` never returns; every other write does.
    const runtime = await echoOverHangingStore('chain', {
      taskTimeoutMs: 1_000,
      bulkhead: { limits: { 'memory:in-memory': 1 }, maxWaitMs: 200 },
    });
    const started = performance.now();
    const first = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 'a' });
    // The hung chain write is waited for 10 s, and no longer; the task keeps its status. The
    // upper bound sits just short of a 12 s wait (timers fire late, never early), leaving the
    // most room for a loaded machine's timers.
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(9_900);
    expect(waited).toBeLessThan(11_900);
    expect(first.status).toBe('completed');
    expect(first.recorded).toEqual({ trigger: true, chain: false });
    // The write may still be running in the store, so it keeps its slot, taskTimeoutMs at most.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // The store's only slot is free again: the next task's memory is stored and read.
    const next = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 'b' });
    expect(next.recorded).toEqual({ trigger: true, chain: true });
    expect(next.historyUnavailable).toBeUndefined();
  }, 20_000);

  it('runs every task with a single worker (the default limit is then 1) [claim:core-readme-options] [claim:prod-bulkhead-one] [claim:index-bulkhead-default]', async () => {
    const { runtime } = await startedRuntime({
      responses: planner(['echo', 'reply']),
      options: { scheduler: { concurrency: 1 } },
    });
    const tasks = await Promise.all(
      ['a', 'b', 'c'].map((space) =>
        runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space }),
      ),
    );
    expect(tasks.map((task) => task.status)).toEqual(['completed', 'completed', 'completed']);
  });

  it('gives each dependency a default limit of 1 with a single worker: a call a timed-out task left running keeps the only slot [claim:prod-bulkhead-one]', async () => {
    // The first task times out at 2 s; its hung call keeps its slot for up to 2 s more. The
    // second task then gets the worker, and its call waits 300 ms for a slot: with a limit of
    // 1 it fails with WEFT_BULKHEAD_FULL, long before that slot frees; with 2 it would hang
    // until its own deadline instead.
    const { runtime } = await weatherRuntime(recordingExecutor('forecast', never), {
      shutdown: 'cancel',
      taskTimeoutMs: 2_000,
      scheduler: { concurrency: 1 },
      bulkhead: { maxWaitMs: 300 },
    });
    const [timedOut, waiting] = dispatchAll(runtime, 2, 'forecast');
    expect((await timedOut!).status).toBe('failed');
    const task = await waiting!;
    expectBulkheadFull(
      task,
      { pluginId: 'weather', action: 'forecast' },
      'plugin:weather already has 1 calls running',
    );
  });
});

describe('bulkhead options', () => {
  it.each([
    [{ maxConcurrent: 0 }, 'options.bulkhead.maxConcurrent'],
    [{ maxWaitMs: -1 }, 'options.bulkhead.maxWaitMs'],
    [
      { limits: { weather: 1 } },
      'options.bulkhead.limits["weather"]: no such dependency; configured: "model:scripted", "plugin:weather", "memory:in-memory"',
    ],
    [
      { limits: { 'plugin:wether': 1 } },
      'options.bulkhead.limits["plugin:wether"]: no such dependency',
    ],
    [{ size: 3 }, 'options.bulkhead'],
    [{ limits: { 'plugin:weather': 0 } }, 'options.bulkhead.limits.plugin:weather'],
  ])(
    'refuses %j with WEFT_INVALID_CONFIG naming the option [claim:prod-bulkhead-invalid] [claim:errors-invalid-config-peers]',
    async (bulkhead, named) => {
      const error = await errorOf(
        Runtime.init({
          models: [new ScriptedModelProvider()],
          memory: new InMemoryMemoryProvider(),
          plugins: [new TestPlugin('weather', { executors: [recordingExecutor('forecast')] })],
          options: { logger: silentLogger, bulkhead: bulkhead as never },
        }),
      );
      expect(error.code).toBe('WEFT_INVALID_CONFIG');
      expect(error.message).toContain(named);
    },
  );
});

describe('workers and waiting tasks', () => {
  it('counts working tasks against concurrency: a task waiting for a busy plugin lets another space run [claim:sp-concurrency-working] [claim:tsdoc-scheduler-concurrency-workers] [claim:task-concurrency-working] [claim:prod-concurrency] [claim:index-scheduler-lanes] [claim:cu-scheduler-row]', async () => {
    const { executor: blocking, open } = gatedExecutor('wait');
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
    // Dispatch queues each task at once; the plugin's call comes once its task has planned.
    while ((runtime.scheduler.running < 4 || blocking.calls.length < 1) && Date.now() < deadline) {
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

  it('never starts a step whose task was cancelled while it waited for a busy plugin, even once the slot came [claim:task-waiting-call-not-made]', async () => {
    const quick = recordingExecutor('quick', async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { success: true };
    });
    const effect = recordingExecutor('effect');
    const long = recordingExecutor('long', never);
    const { runtime } = await startedRuntime({
      plugins: [
        new TestPlugin('tools', { executors: [quick, effect] }),
        new TestPlugin('other', { executors: [long] }),
      ],
      responses: {
        fallback: (_messages, request) => {
          const asked = request.task?.message;
          if (asked === 'a') return plan(['tools', 'quick'], ['other', 'long']);
          if (asked === 'b') return plan(['tools', 'effect']);
          return plan(['other', 'long']);
        },
      },
      options: {
        pipelineReview: 'never',
        shutdown: 'cancel',
        // Two workers, one slot of plugin "tools"; plugin "other" never makes anyone wait.
        scheduler: { concurrency: 2 },
        bulkhead: { limits: { 'plugin:other': 5 } },
      },
    });
    const dispatch = (space: string) =>
      runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space, message: space });
    const a = dispatch('a');
    await vi.waitFor(() => expect(quick.calls).toHaveLength(1));
    // b waits for the slot a holds, and lends its worker to c, which keeps it.
    const b = dispatch('b');
    const c = dispatch('c');
    // a's quick step ends: the slot passes to b, whose worker a and c both hold still.
    await vi.waitFor(() => expect(long.calls).toHaveLength(2));
    await runtime.stop();
    expect((await Promise.all([a, b, c])).map((task) => task.status)).toEqual([
      'cancelled',
      'cancelled',
      'cancelled',
    ]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(effect.calls).toHaveLength(0);
  });
});
