/**
 * What a task leaves in memory: the trigger's metadata on both its memories, only the trigger
 * memory while it runs (which is what a crash would leave behind), and a bounded chain write.
 */
import { type Runtime } from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  deferred,
  makeRuntime,
  plan,
  planner,
  recordingExecutor,
  startedRuntime,
  TestPlugin,
  waitFor,
} from './fixtures.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.stop()));
});

describe('task memories', () => {
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
});

describe('a task that has not finished', () => {
  it('has stored its trigger memory but no chain memory yet [claim:task-records-trigger] [claim:task-crash-leaves-trigger-memory] [claim:tut-no-chain-yet]', async () => {
    const release = deferred();
    const memory = new InMemoryMemoryProvider();
    const slow = recordingExecutor('slow', async () => {
      await release.promise;
      return { success: true };
    });
    const { runtime } = await makeRuntime({
      plugins: [new TestPlugin('work', { executors: [slow] })],
      responses: { fallback: plan(['work', 'slow']) },
      memory,
    });
    runtimes.push(runtime);
    await runtime.start();
    const finished = runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'unfinished' });
    await waitFor(() => slow.calls.length === 1);

    const during = await memory.query({ space: 'unfinished' });
    expect(during.map((stored) => stored.kind)).toEqual(['trigger']);

    release.resolve();
    await finished;
    const after = await memory.query({ space: 'unfinished', order: 'asc' });
    expect(after.map((stored) => stored.kind)).toEqual(['trigger', 'chain']);
  });
});

/** Stores trigger memories, and never answers for a chain memory, like a hung database. */
class ChainHangingMemory extends InMemoryMemoryProvider {
  override store(
    memory: Parameters<InMemoryMemoryProvider['store']>[0],
  ): ReturnType<InMemoryMemoryProvider['store']> {
    return memory.kind === 'chain' ? new Promise(() => undefined) : super.store(memory);
  }
}

describe('the chain write', () => {
  it('a chain write that never answers leaves recorded.chain false and the task ends after 10 s [claim:tsdoc-chain-write-timeout] [claim:tsdoc-task-recorded-chain-timeout]', async () => {
    const reply = recordingExecutor('reply');
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [reply] })],
      responses: planner(['tools', 'reply']),
      memory: new ChainHangingMemory(),
    });
    const started = performance.now();
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'm', space: 'room' });
    const waited = performance.now() - started;
    expect(task.status).toBe('completed');
    expect(task.recorded).toEqual({ trigger: true, chain: false });
    // The runner's bound on the chain write (CHAIN_WRITE_TIMEOUT_MS), not the task's deadline.
    expect(waited).toBeGreaterThanOrEqual(9_900);
    expect(waited).toBeLessThan(15_000);
  }, 20_000);
});
