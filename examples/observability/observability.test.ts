import { Runtime } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { describe, expect, it } from 'vitest';
import { AssistantPlugin } from '../getting-started/assistant-plugin.js';
import { LatencyTracker } from './latency-tracker.js';
import { createServiceLogger } from './logger.js';

/** Collects the JSON lines a pino logger writes. */
function lineCollector() {
  const lines: Record<string, unknown>[] = [];
  return {
    lines,
    stream: { write: (line: string) => void lines.push(JSON.parse(line)) },
  };
}

const plan = (action: string) => ({
  steps: [{ pluginId: 'assistant', action }],
});

async function startAgent(
  model: ScriptedModelProvider,
  tracker: LatencyTracker,
) {
  const { lines, stream } = lineCollector();
  const runtime = await Runtime.init({
    models: [model],
    memory: new InMemoryMemoryProvider(),
    plugins: [new AssistantPlugin()],
    options: {
      logger: createServiceLogger(stream),
      analytics: { trackers: [tracker] },
      pipelineReview: 'on-failure',
      // A free port: the plugin's route starts the HTTP server, and the
      // default 3000 may be taken.
      server: { port: 0 },
    },
  });
  await runtime.start();
  return { runtime, lines };
}

describe('observability', () => {
  it('counts tasks and model calls in the snapshot and in a tracker [claim:obs-calls-per-task]', async () => {
    const tracker = new LatencyTracker();
    const model = new ScriptedModelProvider({
      responses: [plan('reply'), 'Hi!'],
    });
    const { runtime } = await startAgent(model, tracker);

    await runtime.dispatch({
      pluginId: 'assistant',
      triggerId: 'message',
      space: 'user-ada',
      message: 'Hello',
    });
    const snapshot = runtime.analytics.snapshot();
    await runtime.stop();

    expect(snapshot.tasks).toEqual({
      started: 1,
      completed: 1,
      failed: 0,
      cancelled: 0,
      unrecorded: 0,
    });
    expect(snapshot.steps).toEqual({ executed: 1, failed: 0 });
    expect(snapshot.modelCalls.total).toBe(2);
    expect(snapshot.modelCalls.byCapability['text-generation']?.calls).toBe(2);
    expect(tracker.providers.get('scripted')).toMatchObject({
      calls: 2,
      failures: 0,
    });
    expect(tracker.failedTaskIds).toEqual([]);
  });

  it('logs a failed step with the task, space and step, and the tracker keeps the task id [claim:obs-task-fields]', async () => {
    const tracker = new LatencyTracker();
    const model = new ScriptedModelProvider({
      responses: [plan('translate'), { type: 'stop' }],
    });
    const { runtime, lines } = await startAgent(model, tracker);

    const task = await runtime.dispatch({
      pluginId: 'assistant',
      triggerId: 'message',
      space: 'user-ada',
      message: 'Traduis-moi ça',
    });
    await runtime.stop();

    expect(task.status).toBe('failed');
    expect(tracker.failedTaskIds).toEqual([task.id]);
    const stepFailed = lines.find((line) => line.msg === 'step failed');
    expect(stepFailed).toMatchObject({
      level: 40,
      service: 'chat',
      component: 'pipeline',
      taskId: task.id,
      space: 'user-ada',
      step: { pluginId: 'assistant', action: 'translate' },
    });
    expect(lines.map((line) => line.msg)).toContain('runtime started');
  });

  it('masks secrets in the fields it is told about [claim:obs-own-logger]', () => {
    const { lines, stream } = lineCollector();
    createServiceLogger(stream).info({ apiKey: 'sk-live-123' }, 'configured');
    expect(lines[0]).toMatchObject({ apiKey: '[redacted]', service: 'chat' });
  });

  it('reads WEFT_LOG_LEVEL for its own level as the runtime does: any case, empty means info', () => {
    const previous = process.env.WEFT_LOG_LEVEL;
    try {
      for (const [value, level] of [
        [' WARN ', 'warn'],
        ['', 'info'],
        ['debug', 'debug'],
      ] as const) {
        process.env.WEFT_LOG_LEVEL = value;
        expect(createServiceLogger().level).toBe(level);
      }
    } finally {
      if (previous === undefined) delete process.env.WEFT_LOG_LEVEL;
      else process.env.WEFT_LOG_LEVEL = previous;
    }
  });

  it('sets the level of the default logger from WEFT_LOG_LEVEL [claim:obs-log-level-values] [claim:obs-log-level-env]', async () => {
    const previous = process.env.WEFT_LOG_LEVEL;
    process.env.WEFT_LOG_LEVEL = 'warn';
    try {
      const runtime = await Runtime.init({
        models: [new ScriptedModelProvider()],
        memory: new InMemoryMemoryProvider(),
        plugins: [],
      });
      expect(runtime.logger.level).toBe('warn');
    } finally {
      if (previous === undefined) delete process.env.WEFT_LOG_LEVEL;
      else process.env.WEFT_LOG_LEVEL = previous;
    }
  });
});
