/**
 * What Runtime.dispatch and Runtime.accept check before a task runs, in which order, and when
 * accept answers.
 */
import { describe, expect, it } from 'vitest';
import type { SpaceCoordinator, SpaceGrant, TaskArrival } from '@weft/core';
import {
  errorOf,
  gatedExecutor,
  planner,
  recordingExecutor,
  startedRuntime,
  TestPlugin,
  waitFor,
} from './fixtures.js';

describe('the order of the checks of Runtime.dispatch', () => {
  it('checks the space id before the plugin: both wrong gives WEFT_INVALID_SPACE, status 400 [claim:tsdoc-runtime-dispatch-400]', async () => {
    const { runtime } = await startedRuntime();
    const both = await errorOf(
      runtime.dispatch({ pluginId: 'nobody', triggerId: 't', space: '-bad id' }),
    );
    expect([both.code, both.status]).toEqual(['WEFT_INVALID_SPACE', 400]);
    const plugin = await errorOf(
      runtime.dispatch({ pluginId: 'nobody', triggerId: 't', space: 'ok' }),
    );
    expect([plugin.code, plugin.status]).toEqual(['WEFT_UNKNOWN_PLUGIN', 400]);
  });

  it('refuses a space id that does not start with a letter or digit, though every character is allowed [claim:errors-invalid-space-first-character]', async () => {
    const { runtime } = await startedRuntime();
    for (const space of ['_room', '.room', ':room']) {
      const error = await errorOf(runtime.dispatch({ pluginId: 'echo', triggerId: 't', space }));
      expect([error.code, error.status]).toEqual(['WEFT_INVALID_SPACE', 400]);
      expect(error.message).toContain('starting with a letter or digit');
    }
  });

  it('refuses a letter outside ASCII anywhere in a space id, and takes ASCII letters, digits, -, _, . and : [claim:errors-invalid-space-first-character] [claim:trig-space-rule]', async () => {
    const { runtime } = await startedRuntime();
    for (const space of ['café', 'élan', 'room-ü']) {
      const error = await errorOf(runtime.dispatch({ pluginId: 'echo', triggerId: 't', space }));
      expect([error.code, error.status]).toEqual(['WEFT_INVALID_SPACE', 400]);
    }
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 't', space: 'Az09-_.:x' });
    expect(task.space.id).toBe('Az09-_.:x');
  });
});

describe('what Runtime.dispatch rejects for, besides its own checks', () => {
  it("rejects with the coordinator's error a task it recorded but whose space it cannot grant, which never runs; and with 503 once the runtime has stopped [claim:index-dispatch-rejects]", async () => {
    const refusal = new Error('the store did not grant the space in time');
    const admitted: string[] = [];
    const coordinator: SpaceCoordinator = {
      id: 'refusing-store',
      init: async () => undefined,
      shutdown: async () => undefined,
      admit: async (arrival: TaskArrival) => {
        admitted.push(arrival.taskId);
        return admitted.length;
      },
      // What @weft/coordinator-postgres does with WEFT_COORDINATOR_ACQUIRE_TIMEOUT.
      acquire: async (): Promise<SpaceGrant> => {
        throw refusal;
      },
      release: async () => undefined,
    };
    const work = recordingExecutor('work');
    const { runtime, model } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [work] })],
      responses: planner(['tools', 'work']),
      coordinator,
    });
    const error = await errorOf(
      runtime.dispatch({ pluginId: 'tools', triggerId: 't', space: 'room' }),
    );
    expect(error).toBe(refusal);
    // Recorded first, then refused its space: neither planned nor run.
    expect(admitted).toHaveLength(1);
    expect(model.requests).toHaveLength(0);
    expect(work.calls).toHaveLength(0);

    await runtime.stop();
    const late = await errorOf(
      runtime.dispatch({ pluginId: 'tools', triggerId: 't', space: 'room' }),
    );
    expect([late.code, late.status]).toEqual(['WEFT_SHUTTING_DOWN', 503]);
  });
});

/**
 * A started runtime of one worker and at most `maxQueueSize` waiting tasks, whose plugin `hook`
 * plans one step, `wait`, held until the test calls `open`.
 */
async function oneWorkerHookRuntime(maxQueueSize: number) {
  const { executor: waiting, open } = gatedExecutor('wait');
  const { runtime } = await startedRuntime({
    plugins: [new TestPlugin('hook', { executors: [waiting] })],
    responses: planner(['hook', 'wait']),
    options: { pipelineReview: 'never', scheduler: { concurrency: 1, maxQueueSize } },
  });
  return { runtime, waiting, open };
}

describe('a full queue', () => {
  it('refuses a burst of dispatches only beyond maxQueueSize waiting tasks, as it refuses them one at a time [claim:index-dispatch-rejects]', async () => {
    const { runtime, waiting, open } = await oneWorkerHookRuntime(2);
    // Called in one turn: one task takes the worker, two wait, and only the fourth is refused.
    const burst = ['a', 'b', 'c', 'd'].map((space) =>
      runtime.dispatch({ pluginId: 'hook', triggerId: 'test', space }).then(
        (task) => task.status,
        (error: { code?: string }) => error.code,
      ),
    );
    await waitFor(() => waiting.calls.length === 1);
    open();
    expect(await Promise.all(burst)).toEqual([
      'completed',
      'completed',
      'completed',
      'WEFT_QUEUE_FULL',
    ]);
  });
});

describe('Runtime.accept', () => {
  it('resolves accept once the task is queued, before it runs, and rejects what dispatch rejects [claim:trig-answer-first] [claim:sp-queue-row] [claim:errors-dispatch-refusals-accept] [claim:wp-accept-queued] [claim:index-dispatch-rejects]', async () => {
    const { runtime, open } = await oneWorkerHookRuntime(1);
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
    // dispatch refuses the same way, at once: the queue is still full and nothing has run.
    await expect(
      runtime.dispatch({ pluginId: 'hook', triggerId: 'test', space: 'c' }),
    ).rejects.toMatchObject({ code: 'WEFT_QUEUE_FULL', status: 503 });
    expect(runtime.scheduler.running + runtime.scheduler.pending).toBe(2);
    open();
    const [first, next] = await Promise.all([accepted.done, second.done]);
    expect(first).toMatchObject({ id: accepted.taskId, status: 'completed' });
    expect(next).toMatchObject({ id: second.taskId, status: 'completed' });
  });

  it('refuses with WEFT_SHUTTING_DOWN, status 503, once stop() was called, as dispatch does [claim:errors-dispatch-refusals-accept]', async () => {
    const { runtime } = await startedRuntime();
    await runtime.stop();
    await expect(
      runtime.accept({ pluginId: 'echo', triggerId: 'test', space: 'a' }),
    ).rejects.toMatchObject({ code: 'WEFT_SHUTTING_DOWN', status: 503 });
    await expect(
      runtime.dispatch({ pluginId: 'echo', triggerId: 'test', space: 'a' }),
    ).rejects.toMatchObject({ code: 'WEFT_SHUTTING_DOWN', status: 503 });
  });
  it('begins each refusal with the method that was called, accept or dispatch', async () => {
    const { runtime } = await startedRuntime();
    const refusals = async (event: Parameters<typeof runtime.accept>[0]) => [
      ((await runtime.accept(event).catch((error: unknown) => error)) as Error).message,
      ((await runtime.dispatch(event).catch((error: unknown) => error)) as Error).message,
    ];
    expect(await refusals({ pluginId: 'echo', triggerId: 'test', space: 'no space' })).toEqual([
      expect.stringMatching(/^Runtime\.accept: invalid space id "no space"/),
      expect.stringMatching(/^Runtime\.dispatch: invalid space id "no space"/),
    ]);
    expect(await refusals({ pluginId: 'nobody', triggerId: 'test', space: 'a' })).toEqual([
      expect.stringMatching(/^Runtime\.accept: no plugin "nobody" is registered/),
      expect.stringMatching(/^Runtime\.dispatch: no plugin "nobody" is registered/),
    ]);
    await runtime.stop();
    expect(await refusals({ pluginId: 'echo', triggerId: 'test', space: 'a' })).toEqual([
      expect.stringMatching(/^Runtime\.accept: the runtime is stopping/),
      expect.stringMatching(/^Runtime\.dispatch: the runtime is stopping/),
    ]);
  });
});

describe('the queue bound with a coordinator', () => {
  it('counts the tasks a coordinator is still recording against maxQueueSize, so a burst arriving meanwhile is refused [claim:prod-queue-max] [claim:prod-queue-full] [claim:errors-queue-full-coordinator]', async () => {
    const tickets = new Map<string, number>();
    let admitted = 0;
    const coordinator: SpaceCoordinator = {
      id: 'slow-store',
      init: async () => undefined,
      shutdown: async () => undefined,
      // Each task takes a while to be recorded, as a row written to PostgreSQL does.
      admit: async (arrival: TaskArrival) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        admitted += 1;
        tickets.set(arrival.space.id, admitted);
        return admitted;
      },
      acquire: async (space): Promise<SpaceGrant> => ({
        ticket: tickets.get(space) as number,
        signal: new AbortController().signal,
      }),
      release: async () => undefined,
    };
    const hang = recordingExecutor('hang', () => new Promise(() => undefined));
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [hang] })],
      responses: planner(['tools', 'hang']),
      coordinator,
      options: { scheduler: { concurrency: 1, maxQueueSize: 2 }, shutdown: 'cancel' },
    });
    const busy = await runtime.accept({ pluginId: 'tools', triggerId: 't', space: 'busy' });
    busy.done.catch(() => undefined);
    await waitFor(() => hang.calls.length === 1);

    const burst = await Promise.allSettled(
      Array.from({ length: 6 }, (_, index) =>
        runtime.accept({ pluginId: 'tools', triggerId: 't', space: `s${index}` }),
      ),
    );
    for (const outcome of burst) {
      if (outcome.status === 'fulfilled') outcome.value.done.catch(() => undefined);
    }
    expect(burst.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(2);
    const refused = burst.filter((outcome) => outcome.status === 'rejected');
    expect(refused).toHaveLength(4);
    for (const outcome of refused) {
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({
        code: 'WEFT_QUEUE_FULL',
        status: 503,
      });
    }
    // Only the accepted tasks were recorded, and no more than the queue holds wait.
    expect(admitted).toBe(3);
    expect(runtime.scheduler.pending).toBe(2);
  });
});
