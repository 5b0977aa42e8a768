/**
 * What a task leaves in memory: the trigger's metadata on both its memories, only the trigger
 * memory while it runs (which is what a crash would leave behind), and a bounded chain write.
 */
import {
  type Runtime,
  type SpaceCoordinator,
  type SpaceCoordinatorHost,
  type TaskArrival,
} from '@weft/core';
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

describe('a task a stop drops from the queue', () => {
  it('stores no memory, while the task that was running stores both [claim:sp-stored] [claim:sp-stored-never-ran] [claim:tut-two-memories] [claim:tut-never-ran-stores-none] [claim:wp-never-ran-none]', async () => {
    const memory = new InMemoryMemoryProvider();
    // The running task's step waits for its cancellation, so the second task stays queued.
    const waits = recordingExecutor(
      'wait',
      (_task, context) =>
        new Promise((resolve) => {
          context.signal.addEventListener('abort', () => resolve({ success: true }));
        }),
    );
    const { runtime } = await makeRuntime({
      plugins: [new TestPlugin('work', { executors: [waits] })],
      responses: { fallback: plan(['work', 'wait']) },
      memory,
      options: { scheduler: { concurrency: 1 }, shutdown: 'cancel' },
    });
    runtimes.push(runtime);
    await runtime.start();
    const running = await runtime.accept({ pluginId: 'work', triggerId: 'test', space: 'first' });
    await waitFor(() => waits.calls.length === 1);
    const queued = await runtime.accept({ pluginId: 'work', triggerId: 'test', space: 'second' });
    expect(runtime.scheduler.pending).toBe(1);
    queued.done.catch(() => undefined);

    await runtime.stop();
    await expect(queued.done).rejects.toMatchObject({ code: 'WEFT_TASK_CANCELLED' });
    expect((await running.done).id).toBe(running.taskId);
    expect(await memory.query({ taskId: queued.taskId })).toEqual([]);
    expect(await memory.query({ space: 'second' })).toEqual([]);
    const first = await memory.query({ taskId: running.taskId, order: 'asc' });
    expect(first.map((stored) => stored.kind)).toEqual(['trigger', 'chain']);
  });
});

describe('a task that has not finished', () => {
  it('has stored its trigger memory but no chain memory yet [claim:task-records-trigger] [claim:task-crash-leaves-trigger-memory] [claim:tut-no-chain-yet]', async () => {
    const release = deferred();
    const memory = new InMemoryMemoryProvider();
    let statusWhileRunning: string | undefined;
    const slow = recordingExecutor('slow', async (task) => {
      statusWhileRunning = task.status;
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
    expect(statusWhileRunning).toBe('running');

    release.resolve();
    await finished;
    const after = await memory.query({ space: 'unfinished', order: 'asc' });
    expect(after.map((stored) => stored.kind)).toEqual(['trigger', 'chain']);
  });
});

/**
 * A coordinator for one instance of a group: it grants each space at once, under a signal the
 * test aborts to take the space away; it records each arrival, each release as
 * `space#ticket outcome`, and the host it was given, through which the test hands it a task.
 */
function recordingCoordinator(id: string) {
  let ticket = 0;
  const lost = new AbortController();
  const arrivals: TaskArrival[] = [];
  const released: string[] = [];
  let host: SpaceCoordinatorHost | undefined;
  const coordinator: SpaceCoordinator = {
    id,
    init: async (given) => {
      host = given;
    },
    shutdown: async () => undefined,
    admit: async (arrival) => {
      arrivals.push(arrival);
      return (ticket += 1);
    },
    acquire: async () => ({ ticket: Math.max(ticket, 1), signal: lost.signal }),
    release: async (space, releasedTicket, outcome) => {
      released.push(`${space}#${releasedTicket} ${outcome}`);
    },
  };
  return { coordinator, arrivals, released, lose: () => lost.abort(), host: () => host };
}

describe('a task that a space coordinator runs again', () => {
  it('writes its trigger and chain memories, and reads the history, once per run, all under its one id [claim:mpm-rerun-writes-again] [claim:mpm-two-writes] [claim:mpm-one-read]', async () => {
    const memory = new InMemoryMemoryProvider();
    const query = memory.query.bind(memory);
    let reads = 0;
    memory.query = (options) => {
      reads += 1;
      return query(options);
    };
    // The first instance's step waits until the task is cancelled; the second one's answers.
    const waits = recordingExecutor(
      'wait',
      (_task, context) =>
        new Promise((resolve) => {
          context.signal.addEventListener('abort', () => resolve({ success: true }));
        }),
    );
    const first = recordingCoordinator('first');
    const { runtime: one } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [waits] })],
      responses: planner(['tools', 'wait']),
      coordinator: first.coordinator,
      memory,
    });
    const cut = one.dispatch({ pluginId: 'tools', triggerId: 'm', space: 'room' });
    await waitFor(() => waits.calls.length === 1);
    // The instance loses the space: the run is cut short and the task left for a rerun.
    first.lose();
    const cancelled = await cut;
    expect(cancelled.status).toBe('cancelled');
    await waitFor(() => first.released.length === 1);
    expect(first.released).toEqual(['room#1 abandoned']);
    expect(reads).toBe(1);

    // Another instance of the group, on the same store, takes the task over and runs it again.
    const second = recordingCoordinator('second');
    const { runtime: two } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [recordingExecutor('wait')] })],
      responses: planner(['tools', 'wait']),
      coordinator: second.coordinator,
      memory,
    });
    const [arrival] = first.arrivals;
    expect(arrival?.taskId).toBe(cancelled.id);
    second.host()?.resume(arrival as TaskArrival, 1);
    await waitFor(() => second.released.length === 1);
    expect(second.released).toEqual(['room#1 finished']);
    expect(reads).toBe(2);
    expect(two.status).toBe('running');

    const stored = await memory.query({ taskId: cancelled.id, order: 'asc' });
    expect(stored.map((entry) => entry.kind)).toEqual(['trigger', 'chain', 'trigger', 'chain']);
    expect(
      stored.filter((entry) => entry.kind === 'chain').map((entry) => entry.content),
    ).toMatchObject([{ status: 'cancelled' }, { status: 'completed' }]);
  });
  it('is planned with relatedMemories earlier entries, though two cut-short runs left five memories under its id [claim:mpm-rerun-reads] [claim:sp-planner-memories]', async () => {
    const memory = new InMemoryMemoryProvider();
    // An earlier task of the room, finished before this one arrived.
    const earlier = { space: 'room', taskId: 'earlier', metadata: {} };
    await memory.store({
      ...earlier,
      kind: 'trigger',
      content: { pluginId: 'tools', action: 'm', message: 'earlier question' },
    });
    await memory.store({ ...earlier, kind: 'chain', content: { status: 'completed', steps: [] } });
    const waitsForCut = () =>
      recordingExecutor(
        'wait',
        (_task, context) =>
          new Promise((resolve) => {
            context.signal.addEventListener('abort', () => resolve({ success: true }));
          }),
      );
    /** An instance of the group on the shared store, with relatedMemories 1. */
    const instance = async (id: string, wait: ReturnType<typeof recordingExecutor>) => {
      const coordinator = recordingCoordinator(id);
      const built = await startedRuntime({
        plugins: [new TestPlugin('tools', { executors: [wait] })],
        responses: planner(['tools', 'wait']),
        coordinator: coordinator.coordinator,
        memory,
        options: { relatedMemories: 1 },
      });
      runtimes.push(built.runtime);
      return { ...coordinator, runtime: built.runtime, model: built.model };
    };
    // Two instances in turn run the task and lose the room while its step waits.
    const firstWait = waitsForCut();
    const first = await instance('first', firstWait);
    const cut = first.runtime.dispatch({
      pluginId: 'tools',
      triggerId: 'm',
      space: 'room',
      message: 'this question',
    });
    await waitFor(() => firstWait.calls.length === 1);
    first.lose();
    const task = await cut;
    await waitFor(() => first.released.length === 1);
    const [arrival] = first.arrivals;
    const secondWait = waitsForCut();
    const second = await instance('second', secondWait);
    second.host()?.resume(arrival as TaskArrival, 1);
    await waitFor(() => secondWait.calls.length === 1);
    second.lose();
    await waitFor(() => second.released.length === 1);
    // A third takes it over and plans it again: its trigger, and the two earlier runs' trigger
    // and cancelled chain, are five memories of its own, newer than the earlier task's.
    const third = await instance('third', recordingExecutor('wait'));
    third.host()?.resume(arrival as TaskArrival, 1);
    await waitFor(() => third.released.length === 1);
    expect(third.released).toEqual(['room#1 finished']);
    const own = await memory.query({ taskId: task.id, order: 'asc' });
    expect(own.map((entry) => entry.kind)).toEqual([
      'trigger',
      'chain',
      'trigger',
      'chain',
      'trigger',
      'chain',
    ]);
    const prompt = String(third.model.requests[0]?.[1]?.content);
    const related = prompt.slice(prompt.indexOf('## Earlier tasks and related memories'));
    expect(related.match(/^- .* UTC, space room, /gm)).toHaveLength(1);
    expect(related).toContain('trigger tools/m: earlier question');
    expect(related).not.toContain('this question');
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
  it('a chain write that never answers leaves recorded.chain false and the task ends after 10 s [claim:tsdoc-chain-write-timeout] [claim:tsdoc-task-recorded-chain-timeout] [claim:gs-handler-warning]', async () => {
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
    // 10 s, give or take the plan and the step (which take milliseconds): an 11 s bound fails.
    expect(waited).toBeGreaterThanOrEqual(9_900);
    expect(waited).toBeLessThan(11_000);
  }, 20_000);
});
