/**
 * What a finished task leaves behind: nothing. These tests watch per-task objects (the task,
 * its signal, its execution context) with a FinalizationRegistry, which holds no reference of
 * its own, and force collections through V8's gc(). They wait for finalizers with a deadline
 * instead of a fixed sleep, so a slow machine makes them slower, never wrong.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Runtime, TEXT_GENERATION_CAPABILITY, type ModelCapability } from '@weft/core';
import { collectUntil, finalizationCounter, gc } from '@weft-internal/test-support/collection';
import { DiscardingMemoryProvider } from '@weft-internal/test-support/discarding-memory';
import { recordingExecutor, silentLogger, TestModelProvider, TestPlugin } from './fixtures.js';

/** Answers at once, without I/O: planning with one `tools.watch` step, reviews with continue. */
const instantText: ModelCapability<typeof TEXT_GENERATION_CAPABILITY> = {
  id: TEXT_GENERATION_CAPABILITY,
  run: async (_input, request) => ({
    text: JSON.stringify(
      request.purpose === 'plan'
        ? { steps: [{ pluginId: 'tools', action: 'watch' }] }
        : { type: 'continue' },
    ),
  }),
};

/** Tasks the scheduler runs at once. */
const CONCURRENCY = 8;

const watcher = finalizationCounter();
const { finalized } = watcher;

afterEach(() => finalized.clear());

async function watchedRuntime(): Promise<Runtime> {
  const watch = recordingExecutor('watch', (_task, context) => {
    watcher.watch(context.signal, 'signal');
    watcher.watch(context, 'context');
    return { success: true };
  });
  // The recording executor keeps its calls; this test keeps none, so it drops them at once.
  const forgetful = {
    ...watch,
    execute: async (...args: Parameters<typeof watch.execute>) => {
      const result = await watch.execute(...args);
      watch.calls.length = 0;
      return result;
    },
  };
  const runtime = await Runtime.init({
    models: [new TestModelProvider('instant', { capabilities: [instantText] })],
    memory: new DiscardingMemoryProvider(),
    plugins: [new TestPlugin('tools', { executors: [forgetful] })],
    options: {
      logger: silentLogger,
      scheduler: { concurrency: CONCURRENCY, maxQueueSize: 10_000 },
    },
  });
  await runtime.start();
  return runtime;
}

/** Runs `count` tasks over 20 spaces and keeps none of them; returns how many completed. */
async function runTasks(runtime: Runtime, count: number): Promise<number> {
  let completed = 0;
  await Promise.all(
    Array.from({ length: count }, (_, index) =>
      runtime
        .dispatch({ pluginId: 'tools', triggerId: 'message', space: `space-${index % 20}` })
        .then((task) => {
          watcher.watch(task, 'task');
          if (task.status === 'completed') completed += 1;
        }),
    ),
  );
  return completed;
}

function allFinalized(count: number): boolean {
  return ['task', 'signal', 'context'].every((kind) => (finalized.get(kind) ?? 0) >= count);
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

describe('per-task objects after the task ends', () => {
  it('are collected: every task, signal and execution context is finalized', async () => {
    const runtime = await watchedRuntime();
    try {
      expect(await runTasks(runtime, 300)).toBe(300);
      await collectUntil(() => allFinalized(300));
      expect(Object.fromEntries(finalized)).toEqual({ task: 300, signal: 300, context: 300 });
    } finally {
      await runtime.stop();
    }
  });

  it('are released while a burst of tasks runs: what is left at its end is bounded by the concurrency, not by the burst', async () => {
    const runtime = await watchedRuntime();
    try {
      // The tasks never wait for I/O, so the burst and the collection below happen in one turn:
      // anything a weak reference made during the turn keeps alive survives this gc(), which is
      // how AbortSignal.any once held all 300 signals (and their contexts and tasks).
      expect(await runTasks(runtime, 300)).toBe(300);
      await runtime.scheduler.onIdle();
      // Twice, both in this turn: a collection that completes a marking V8 began during the burst
      // keeps what was allocated since it began (such objects are allocated already marked); the
      // second collection marks afresh.
      gc();
      gc();
      // Only the finalizers run later; no further collection is forced. A running task may still
      // be reached from the turn's own frames, so up to the scheduler's concurrency may remain
      // (one signal did, once, in CI); a runtime that holds what a burst made keeps all 300.
      const deadline = Date.now() + 2_000;
      while (!allFinalized(300) && Date.now() < deadline) await nextTurn();
      for (const kind of ['task', 'signal', 'context']) {
        expect(finalized.get(kind) ?? 0, kind).toBeGreaterThanOrEqual(300 - CONCURRENCY);
      }
    } finally {
      await runtime.stop();
    }
  });
});
