import {
  AnalyticsManager,
  defineCapability,
  Runtime,
  type AgentTask,
  type AnalyticsTracker,
} from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { capturingLogger } from '@weft-internal/test-support/capturing-logger';
import {
  echoPlugin,
  makeRuntime,
  plan,
  recordingExecutor,
  silentLogger,
  TestModelProvider,
  TestPlugin,
} from './fixtures.js';

const task = (status: AgentTask['status'], recorded = { trigger: true, chain: true }) =>
  ({ status, recorded }) as AgentTask;
const step = { pluginId: 'echo', action: 'reply' };
const modelCall = (overrides: Partial<Parameters<AnalyticsManager['onModelCall']>[0]> = {}) => ({
  capability: 'text-generation',
  providerId: 'local',
  durationMs: 100,
  success: true,
  ...overrides,
});

/**
 * An executor `slow` that ends 20 ms after its task's signal fires: with a result, or rejecting
 * with the signal's reason.
 */
const endsAfterTimeout = (succeeds: boolean) =>
  recordingExecutor(
    'slow',
    (_task, context) =>
      new Promise((resolve, reject) => {
        context.signal.addEventListener('abort', () =>
          setTimeout(
            () => (succeeds ? resolve({ success: true }) : reject(context.signal.reason)),
            20,
          ),
        );
      }),
  );

/**
 * Starts a runtime whose plan runs `slow` as plugin `work`'s one step, under a task timeout of
 * 100 ms and no pipeline review, reporting to `tracker`.
 */
async function startTimingOutTask(
  slow: ReturnType<typeof recordingExecutor>,
  tracker: AnalyticsTracker,
  memory: InMemoryMemoryProvider = new InMemoryMemoryProvider(),
): Promise<Runtime> {
  const runtime = await Runtime.init({
    models: [new ScriptedModelProvider({ fallback: plan(['work', 'slow']) })],
    memory,
    plugins: [new TestPlugin('work', { executors: [slow] })],
    options: {
      logger: silentLogger,
      taskTimeoutMs: 100,
      pipelineReview: 'never',
      analytics: { trackers: [tracker] },
    },
  });
  await runtime.start();
  return runtime;
}

describe('AnalyticsManager', () => {
  it('is off by default: events leave the snapshot at zero and reach no tracker', () => {
    const calls: string[] = [];
    const analytics = new AnalyticsManager({
      trackers: [{ onTaskStart: () => calls.push('start') }],
    });
    expect(analytics.enabled).toBe(false);
    analytics.onTaskStart(task('running'));
    analytics.onTaskEnd(task('completed'), 5);
    analytics.onStep({ task: task('running'), step, success: false, durationMs: 1 });
    analytics.onModelCall(modelCall({ usage: { inputTokens: 1, outputTokens: 1 } }));
    const data = analytics.snapshot();
    expect(data.tasks).toEqual({
      started: 0,
      completed: 0,
      failed: 0,
      cancelled: 0,
      unrecorded: 0,
    });
    expect(data.steps).toEqual({ executed: 0, failed: 0 });
    expect(data.modelCalls.total).toBe(0);
    expect(data.tokens).toEqual({ input: 0, output: 0 });
    expect(calls).toEqual([]);
  });

  it('counts tasks, steps, failures, model calls, latency and tokens [claim:obs-snapshot-fields] [claim:wp-analytics-off]', () => {
    const analytics = new AnalyticsManager({ enabled: true });
    analytics.onTaskStart(task('running'));
    analytics.onTaskStart(task('running'));
    analytics.onTaskStart(task('running'));
    analytics.onTaskEnd(task('completed'), 10);
    analytics.onTaskEnd(task('failed'), 10);
    analytics.onTaskEnd(task('cancelled', { trigger: true, chain: false }), 10);
    analytics.onStep({ task: task('running'), step, success: true, durationMs: 1 });
    analytics.onStep({ task: task('running'), step, success: false, durationMs: 1 });
    analytics.onModelCall(
      modelCall({ durationMs: 100, usage: { inputTokens: 10, outputTokens: 4 } }),
    );
    analytics.onModelCall(modelCall({ durationMs: 300, success: false }));
    analytics.onModelCall(
      modelCall({
        capability: 'sentiment',
        durationMs: 200,
        usage: { inputTokens: 2, outputTokens: 1 },
      }),
    );
    const data = analytics.snapshot();
    expect(data.tasks).toEqual({
      started: 3,
      completed: 1,
      failed: 1,
      cancelled: 1,
      unrecorded: 1,
    });
    expect(data.steps).toEqual({ executed: 2, failed: 1 });
    expect(data.modelCalls).toEqual({
      total: 3,
      failed: 1,
      totalLatencyMs: 600,
      averageLatencyMs: 200,
      byCapability: {
        'text-generation': { calls: 2, failed: 1, totalLatencyMs: 400 },
        sentiment: { calls: 1, failed: 0, totalLatencyMs: 200 },
      },
    });
    expect(data.tokens).toEqual({ input: 12, output: 5 });
  });

  it('returns snapshots that later events do not change, and resets [claim:obs-snapshot-copy]', () => {
    const analytics = new AnalyticsManager({ enabled: true });
    analytics.onModelCall(modelCall());
    const before = analytics.snapshot();
    analytics.onModelCall(modelCall());
    expect(before.modelCalls.total).toBe(1);
    expect(analytics.snapshot().modelCalls.total).toBe(2);
    analytics.reset();
    expect(analytics.snapshot().modelCalls.total).toBe(0);
  });

  it('forwards events to trackers, including ones added later, and ignores a tracker that throws [claim:obs-tracker-throws]', () => {
    const received: string[] = [];
    const throwing: AnalyticsTracker = {
      onTaskStart: () => {
        throw new Error('metrics backend down');
      },
      onModelCall: () => {
        throw new Error('metrics backend down');
      },
    };
    const recording: AnalyticsTracker = {
      onTaskStart: () => received.push('taskStart'),
      onTaskEnd: (_task, durationMs) => received.push(`taskEnd ${durationMs}`),
      onStep: (event) => received.push(`step ${event.success}`),
      onModelCall: (event) => received.push(`model ${event.providerId}`),
    };
    const { logger, lines } = capturingLogger();
    const analytics = new AnalyticsManager({
      enabled: true,
      trackers: [throwing],
      logger,
    });
    analytics.addTracker(recording);
    analytics.onTaskStart(task('running'));
    analytics.onStep({ task: task('running'), step, success: true, durationMs: 1 });
    analytics.onModelCall(modelCall());
    analytics.onTaskEnd(task('completed'), 42);
    expect(received).toEqual(['taskStart', 'step true', 'model local', 'taskEnd 42']);
    expect(analytics.snapshot().tasks.started).toBe(1);
    // Each throw is logged once, naming the hook, at warn.
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'analytics tracker threw; ignored',
        hook: 'onTaskStart',
        error: 'metrics backend down',
      }),
      expect.objectContaining({
        level: 40,
        msg: 'analytics tracker threw; ignored',
        hook: 'onModelCall',
        error: 'metrics backend down',
      }),
    ]);
  });
});

describe('AnalyticsManager with an async tracker', () => {
  it('logs an async hook whose promise rejects, as one that throws, without waiting for it [claim:obs-tracker-async]', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const received: string[] = [];
      const { logger, lines } = capturingLogger();
      const analytics = new AnalyticsManager({
        enabled: true,
        trackers: [
          {
            // A tracker that pushes to a metrics backend which is down.
            onModelCall: async () => {
              await new Promise((resolve) => setTimeout(resolve, 10));
              throw new Error('metrics backend down');
            },
          },
          { onModelCall: (event) => received.push(event.providerId) },
        ],
        logger,
      });
      analytics.onModelCall(modelCall());
      // The call returned at once: the other tracker has its event, nothing is logged yet.
      expect(received).toEqual(['local']);
      expect(lines).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(lines).toEqual([
        expect.objectContaining({
          level: 40,
          msg: 'analytics tracker threw; ignored',
          hook: 'onModelCall',
          error: 'metrics backend down',
        }),
      ]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('Runtime analytics', () => {
  it('collects nothing unless enabled [claim:obs-analytics-off] [claim:wp-analytics-off] [claim:obs-analytics-default-off]', async () => {
    const { runtime } = await makeRuntime({ responses: { fallback: plan() } });
    await runtime.start();
    await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    await runtime.stop();
    expect(runtime.analytics.enabled).toBe(false);
    expect(runtime.analytics.snapshot().tasks.started).toBe(0);
  });

  it('collects figures from a real task with options.analytics true, its reviews counted as model calls [claim:obs-analytics-off] [claim:obs-calls-per-task]', async () => {
    let calls = 0;
    const provider = new TestModelProvider('counting', {
      capabilities: [
        {
          id: 'text-generation',
          run: async () => {
            calls += 1;
            const text = JSON.stringify(
              calls === 1 ? plan(['tools', 'works'], ['tools', 'fails']) : { type: 'continue' },
            );
            return { text, usage: { inputTokens: 100, outputTokens: 20 } };
          },
        },
      ],
    });
    const plugin = new TestPlugin('tools', {
      executors: [
        recordingExecutor('works'),
        recordingExecutor('fails', { success: false, error: 'nope' }),
      ],
    });
    const runtime = await Runtime.init({
      models: [provider],
      memory: new InMemoryMemoryProvider(),
      plugins: [plugin],
      options: { logger: silentLogger, analytics: true },
    });
    await runtime.start();
    const finished = await runtime.dispatch({
      pluginId: 'tools',
      triggerId: 'message',
      space: 's',
    });
    await runtime.stop();
    expect(finished.status).toBe('failed');
    const data = runtime.analytics.snapshot();
    expect(data.tasks).toEqual({
      started: 1,
      completed: 0,
      failed: 1,
      cancelled: 0,
      unrecorded: 0,
    });
    expect(data.steps).toEqual({ executed: 2, failed: 1 });
    expect(data.modelCalls.total).toBe(3); // plan + two reviews
    expect(data.modelCalls.byCapability['text-generation']?.calls).toBe(3);
    expect(data.modelCalls.averageLatencyMs).toBeGreaterThanOrEqual(0);
    expect(data.tokens).toEqual({ input: 300, output: 60 });
  });

  it('sums the tokens of answers that carry usage, which a capability output schema without it drops, counting calls made outside a task [claim:obs-tokens-usage] [claim:obs-calls-outside-tasks]', async () => {
    const usage = { inputTokens: 7, outputTokens: 3 };
    const input = z.object({ text: z.string() });
    const keeps = defineCapability({
      id: 'summary-with-usage',
      description: 'Summarises, and says what it cost.',
      input,
      output: z.object({
        summary: z.string(),
        usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }),
      }),
    });
    const drops = defineCapability({
      id: 'summary',
      description: 'Summarises.',
      input,
      output: z.object({ summary: z.string() }),
    });
    const provider = new TestModelProvider('summaries', {
      descriptors: [keeps, drops],
      capabilities: [
        { id: 'summary-with-usage', run: async () => ({ summary: 'short', usage }) },
        // The provider reports usage here too, but the capability's output has no such field.
        { id: 'summary', run: async () => ({ summary: 'short', usage }) },
      ],
    });
    const runtime = await Runtime.init({
      models: [new ScriptedModelProvider(), provider],
      memory: new InMemoryMemoryProvider(),
      plugins: [],
      options: { logger: silentLogger, analytics: true },
    });
    await runtime.models.callDynamic('summary-with-usage', { text: 'a long text' });
    await runtime.models.callDynamic('summary', { text: 'a long text' });
    const data = runtime.analytics.snapshot();
    expect(data.modelCalls.total).toBe(2);
    expect(data.tokens).toEqual({ input: 7, output: 3 });
  });

  it('forwards runtime events to configured trackers, each finished task, step and model call with its duration [claim:obs-analytics-off] [claim:wp-analytics-off] [claim:wp-trackers]', async () => {
    const events: string[] = [];
    const durations: number[] = [];
    const { runtime } = await makeRuntime({
      plugins: [echoPlugin()],
      responses: { responses: [plan(['echo', 'reply']), { type: 'continue' }] },
      options: {
        analytics: {
          trackers: [
            {
              onTaskStart: (started) => events.push(`start ${started.trigger.action}`),
              onStep: (event) => {
                events.push(`step ${event.step.action}`);
                durations.push(event.durationMs);
              },
              onModelCall: (event) => {
                events.push(`model ${event.capability}`);
                durations.push(event.durationMs);
              },
              onTaskEnd: (ended, durationMs) => {
                events.push(`end ${ended.status}`);
                durations.push(durationMs);
              },
            },
          ],
        },
      },
    });
    await runtime.start();
    await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    await runtime.stop();
    // One model call plans; the only step is the last and succeeded, so no review follows it.
    expect(events).toEqual([
      'start message',
      'model text-generation',
      'step reply',
      'end completed',
    ]);
    expect(durations).toHaveLength(3);
    for (const duration of durations) expect(duration).toBeGreaterThanOrEqual(0);
    // Trackers come on top of the counting, which they turn on too.
    expect(runtime.analytics.snapshot().tasks).toMatchObject({ started: 1, completed: 1 });
  });

  it('counts a model call that its provider’s bulkhead refused as a failed call [claim:obs-bulkhead-refused-call]', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const both = recordingExecutor('both', async (_task, context) => {
      const messages = { messages: [{ role: 'user' as const, content: 'hello' }] };
      // The first call holds the provider's only slot until the second has been refused.
      const first = context.models.call('text-generation', messages);
      const second = await context.models.call('text-generation', messages).then(
        () => 'answered',
        (error: { code?: string }) => error.code,
      );
      release();
      await first;
      return { success: true, data: second };
    });
    const runtime = await Runtime.init({
      models: [
        new ScriptedModelProvider({
          fallback: async (_messages, request) => {
            if (request.purpose === 'plan') return plan(['work', 'both']);
            await gate;
            return 'hi';
          },
        }),
      ],
      memory: new InMemoryMemoryProvider(),
      plugins: [new TestPlugin('work', { executors: [both] })],
      options: {
        logger: silentLogger,
        analytics: true,
        pipelineReview: 'never',
        bulkhead: { limits: { 'model:scripted': 1 }, maxWaitMs: 50 },
      },
    });
    await runtime.start();
    const finished = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 's' });
    await runtime.stop();
    expect(finished.chain.at(-1)).toMatchObject({ type: 'result', data: 'WEFT_BULKHEAD_FULL' });
    const { modelCalls } = runtime.analytics.snapshot();
    // The plan, the call that held the slot, and the refused one.
    expect(modelCalls).toMatchObject({ total: 3, failed: 1 });
    expect(modelCalls.byCapability['text-generation']).toMatchObject({ calls: 3, failed: 1 });
  });

  it.each([
    ['rejects', false],
    ['succeeds', true],
  ])(
    'reports a step that %s after its task timed out to onStep after onTaskEnd, and counts it as run [claim:obs-tracker-late-step] [claim:task-timeout-late-step-analytics]',
    async (_outcome, succeeds) => {
      const events: string[] = [];
      let lateStep: () => void = () => undefined;
      const reported = new Promise<void>((resolve) => (lateStep = resolve));
      // Ends soon after the task has timed out: rejecting, as one that passes its signal on to
      // fetch does, or with a result that comes too late.
      const runtime = await startTimingOutTask(endsAfterTimeout(succeeds), {
        onTaskEnd: (ended) => events.push(`end ${ended.status}`),
        onStep: (event) => {
          events.push(`step ${event.step.action} ${event.success}`);
          lateStep();
        },
      });
      const finished = await runtime.dispatch({
        pluginId: 'work',
        triggerId: 'test',
        space: 's',
      });
      expect(finished.status).toBe('failed');
      expect(finished.steps).toEqual([]);
      expect(finished.chain.some((item) => item.action === 'slow')).toBe(false);
      await reported;
      await runtime.stop();
      expect(events).toEqual(['end failed', `step slow ${succeeds}`]);
      expect(runtime.analytics.snapshot().steps).toEqual({
        executed: 1,
        failed: succeeds ? 0 : 1,
      });
    },
  );

  it('reports a step that ends while its timed-out task’s chain is being stored to onStep before onTaskEnd [claim:obs-tracker-late-step] [claim:task-timeout-late-step-analytics]', async () => {
    const events: string[] = [];
    // The chain is stored well after the late step has ended, and onTaskEnd waits for it.
    class SlowChainMemory extends InMemoryMemoryProvider {
      override async store(memory: Parameters<InMemoryMemoryProvider['store']>[0]) {
        if (memory.kind === 'chain') {
          events.push('chain storing');
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        return super.store(memory);
      }
    }
    const runtime = await startTimingOutTask(
      endsAfterTimeout(true),
      {
        onTaskEnd: (ended) => events.push(`end ${ended.status}`),
        onStep: (event) => events.push(`step ${event.step.action} ${event.success}`),
      },
      new SlowChainMemory(),
    );
    const finished = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 's' });
    await runtime.stop();
    expect(finished.status).toBe('failed');
    expect(finished.steps).toEqual([]);
    expect(finished.chain.some((item) => item.action === 'slow')).toBe(false);
    expect(events).toEqual(['chain storing', 'step slow true', 'end failed']);
    expect(runtime.analytics.snapshot().steps).toEqual({ executed: 1, failed: 0 });
  });
});
