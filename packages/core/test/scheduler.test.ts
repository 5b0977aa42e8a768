import { Scheduler, WeftError } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { deferred, errorOf, waitFor, type Deferred } from './fixtures.js';

/** Tracks how many tasks run at once. */
function probe() {
  const state = { running: 0, max: 0, order: [] as string[] };
  const gates = new Map<string, Deferred>();
  const task = (name: string) => async () => {
    state.running += 1;
    state.max = Math.max(state.max, state.running);
    state.order.push(`start ${name}`);
    const gate = deferred();
    gates.set(name, gate);
    await gate.promise;
    state.running -= 1;
    state.order.push(`end ${name}`);
    return name;
  };
  const release = async (name: string) => {
    await waitFor(() => gates.has(name));
    gates.get(name)?.resolve();
  };
  return { state, task, release, started: (name: string) => gates.has(name) };
}

describe('Scheduler', () => {
  it('runs tasks of one space one at a time, in arrival order [claim:philo-spaces] [claim:trig-space-order] [claim:task-lanes-per-space] [claim:gs-what-happened-queue] [claim:scaling-one-process] [claim:core-readme-steps-in-order] [claim:tut-conversations-apart] [claim:wp-lanes] [claim:wp-goal-order] [claim:index-scheduler-lanes] [claim:cu-scheduler-row] [claim:sp-scheduler]', async () => {
    const scheduler = new Scheduler({ concurrency: 4 });
    scheduler.start();
    const { state, task, release } = probe();
    const results = ['a', 'b', 'c'].map((name) => scheduler.schedule('room', task(name)));
    for (const name of ['a', 'b', 'c']) await release(name);
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
    expect(state.max).toBe(1);
    expect(state.order).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('runs different spaces in parallel up to the concurrency limit [claim:philo-parallel] [claim:trig-space-order] [claim:task-lanes-per-space] [claim:gs-what-happened-queue] [claim:prod-concurrency] [claim:wp-lanes] [claim:wp-parallel] [claim:wp-goal-order] [claim:index-scheduler-lanes] [claim:cu-scheduler-row] [claim:sp-scheduler]', async () => {
    const scheduler = new Scheduler({ concurrency: 2 });
    scheduler.start();
    const { state, task, release, started } = probe();
    const results = ['s1', 's2', 's3', 's4'].map((space) => scheduler.schedule(space, task(space)));
    await waitFor(() => started('s1') && started('s2'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(scheduler.running).toBe(2);
    expect(scheduler.pending).toBe(2);
    expect(started('s3')).toBe(false);
    for (const name of ['s1', 's2', 's3', 's4']) await release(name);
    await Promise.all(results);
    expect(state.max).toBe(2);
  });

  it('rejects a task with status 503 and WEFT_QUEUE_FULL when the queue is full [claim:task-queue-full-503] [claim:prod-queue-full] [claim:tsdoc-runtime-dispatch-503] [claim:tsdoc-scheduler-queue-full] [claim:wp-queue-bounded] [claim:prod-queue-max] [claim:sp-queue-row]', async () => {
    const scheduler = new Scheduler({ maxQueueSize: 2 });
    const first = scheduler.schedule('a', async () => 1);
    const second = scheduler.schedule('b', async () => 2);
    const error = await errorOf(scheduler.schedule('c', async () => 3));
    expect(error.status).toBe(503);
    expect(error.code).toBe('WEFT_QUEUE_FULL');
    expect(error.message).toContain('the queue is full (2 tasks waiting)');
    scheduler.start();
    expect(await Promise.all([first, second])).toEqual([1, 2]);
  });

  it('refuses with the errors page’s example: a WeftError with status 503, its docsUrl, and the code ending its message [claim:errors-weft-error-shape] [claim:errors-message-first-line] [claim:errors-5xx-message-generic]', async () => {
    const scheduler = new Scheduler({ maxQueueSize: 1000 });
    const waiting = Array.from({ length: 1000 }, (_, index) =>
      scheduler.schedule(`space-${index}`, async () => index),
    );
    const error = await errorOf(scheduler.schedule('one-more', async () => -1));
    if (!WeftError.is(error, 'WEFT_QUEUE_FULL')) throw new Error('expected WEFT_QUEUE_FULL');
    expect(error.status).toBe(503);
    expect(error.cause).toBeUndefined();
    // Made with `expose`: the server answers a 503 with this message rather than a generic one.
    expect(error.expose).toBe(true);
    expect(error.docsUrl).toBe('https://weft-ai.github.io/docs/reference/errors/#weft_queue_full');
    expect(error.message).toBe(
      'Scheduler: the queue is full (1000 tasks waiting); try again later. [WEFT_QUEUE_FULL]',
    );
    scheduler.start();
    expect(await Promise.all(waiting)).toHaveLength(1000);
  });

  it('lets one failing task reject only its own promise [claim:wp-fail-own-record]', async () => {
    const scheduler = new Scheduler();
    scheduler.start();
    const failing = scheduler.schedule('room', async () => {
      throw new Error('boom');
    });
    const next = scheduler.schedule('room', async () => 'still here');
    const other = scheduler.schedule('other', async () => 'fine');
    expect((await errorOf(failing)).message).toBe('boom');
    expect(await next).toBe('still here');
    expect(await other).toBe('fine');
  });

  it('holds tasks scheduled before start [claim:task-held-until-start]', async () => {
    const scheduler = new Scheduler();
    let ran = false;
    const result = scheduler.schedule('room', async () => {
      ran = true;
      return 'done';
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran).toBe(false);
    expect(scheduler.pending).toBe(1);
    scheduler.start();
    expect(await result).toBe('done');
    expect(scheduler.pending).toBe(0);
  });

  it("stop('drain') waits for queued tasks and then refuses new ones", async () => {
    const scheduler = new Scheduler({ concurrency: 1 });
    scheduler.start();
    const { task, release } = probe();
    const results = ['a', 'b'].map((name) => scheduler.schedule('room', task(name)));
    let stopped = false;
    const stopping = scheduler.stop('drain').then(() => {
      stopped = true;
    });
    await release('a');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stopped).toBe(false);
    await release('b');
    await stopping;
    expect(await Promise.all(results)).toEqual(['a', 'b']);
    const error = await errorOf(scheduler.schedule('room', async () => 'late'));
    expect(error.status).toBe(503);
    expect(error.code).toBe('WEFT_SHUTTING_DOWN');
  });

  it("stop('cancel') rejects waiting tasks with 503 and aborts running ones [claim:task-cancel-rejects-waiting] [claim:tsdoc-scheduler-stop-cancel]", async () => {
    const scheduler = new Scheduler({ concurrency: 1 });
    scheduler.start();
    let signal: AbortSignal | undefined;
    const running = scheduler.schedule(
      'room',
      (received) =>
        new Promise<string>((resolve) => {
          signal = received;
          received.addEventListener('abort', () => resolve('aborted'));
        }),
    );
    const waiting = scheduler.schedule('other', async () => 'never');
    const waitingError = errorOf(waiting);
    await waitFor(() => signal !== undefined);
    await scheduler.stop('cancel');
    expect(signal?.aborted).toBe(true);
    expect(await running).toBe('aborted');
    const error = await waitingError;
    expect(error.status).toBe(503);
    expect(error.code).toBe('WEFT_TASK_CANCELLED');
    expect(error.message).toContain('space "other"');
    expect(scheduler.pending).toBe(0);
  });

  it('resolves onIdle once nothing is waiting or running', async () => {
    const scheduler = new Scheduler();
    await scheduler.onIdle();
    const gate = deferred();
    scheduler.start();
    void scheduler.schedule('room', () => gate.promise);
    let idle = false;
    const idled = scheduler.onIdle().then(() => {
      idle = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(idle).toBe(false);
    gate.resolve();
    await idled;
    expect(idle).toBe(true);
  });

  it.each([
    [{ concurrency: 0 }, 'concurrency', '0'],
    [{ concurrency: 1.5 }, 'concurrency', '1.5'],
    [{ maxQueueSize: -3 }, 'maxQueueSize', '-3'],
  ])('rejects the option %j, naming it', (options, name, value) => {
    expect(() => new Scheduler(options)).toThrow(
      `Scheduler: option "${name}" must be a positive integer, got ${value}.`,
    );
  });

  it('defaults to concurrency 4 and a queue of 1000 [claim:philo-parallel] [claim:task-lanes-per-space] [claim:task-queue-full-503] [claim:sp-scheduler] [claim:prod-concurrency] [claim:tsdoc-scheduler-defaults] [claim:prod-queue-max] [claim:prod-hung-holds-workers] [claim:sp-queue-row] [claim:gs-what-happened-queue]', () => {
    const scheduler = new Scheduler();
    expect([scheduler.concurrency, scheduler.maxQueueSize]).toEqual([4, 1000]);
  });
});

describe('Scheduler refusals', () => {
  it('refuses a bad concurrency or maxQueueSize with WEFT_INVALID_ARGUMENT naming it [claim:tsdoc-scheduler-constructor]', () => {
    for (const options of [{ concurrency: 0 }, { maxQueueSize: 1.5 }]) {
      const name = Object.keys(options)[0] as string;
      let caught: unknown;
      try {
        new Scheduler(options);
      } catch (error) {
        caught = error;
      }
      expect(WeftError.is(caught, 'WEFT_INVALID_ARGUMENT')).toBe(true);
      expect((caught as Error).message).toContain(`"${name}"`);
    }
  });

  it('refuses a task without a ticket when it has a coordinator, with WEFT_INVALID_ARGUMENT [claim:tsdoc-scheduler-ticket]', async () => {
    const scheduler = new Scheduler({
      coordinator: {
        acquire: () => new Promise(() => undefined),
        release: async () => undefined,
      },
    });
    const error = await errorOf(scheduler.schedule('room', async () => 'ran'));
    expect(error.code).toBe('WEFT_INVALID_ARGUMENT');
    expect(error.message).toContain('ticket');
  });

  it('queues a task that carries a coordinator ticket even when the queue is full [claim:sp-queue-row] [claim:prod-queue-max]', async () => {
    const released: number[] = [];
    const scheduler = new Scheduler({
      maxQueueSize: 1,
      coordinator: {
        acquire: async (_space, _signal) => ({
          ticket: released.length + 1,
          signal: new AbortController().signal,
        }),
        release: async (_space, ticket) => {
          released.push(ticket);
        },
      },
    });
    const first = scheduler.schedule('room', async () => 'first', 1);
    expect(scheduler.refusal()?.code).toBe('WEFT_QUEUE_FULL');
    // A task handed over by the coordinator already has its ticket: it is queued all the same.
    const handedOver = scheduler.schedule('room', async () => 'handed over', 2);
    expect(scheduler.pending).toBe(2);
    const refused = await errorOf(scheduler.schedule('room', async () => 'new'));
    expect([refused.code, refused.status]).toEqual(['WEFT_QUEUE_FULL', 503]);
    scheduler.start();
    expect(await Promise.all([first, handedOver])).toEqual(['first', 'handed over']);
    await scheduler.stop();
    expect(released).toEqual([1, 2]);
  });

  it('refuses a task after stop with WEFT_SHUTTING_DOWN and status 503 [claim:httpchat-row-503] [claim:tsdoc-scheduler-shutting-down]', async () => {
    const scheduler = new Scheduler();
    scheduler.start();
    await scheduler.stop();
    const error = await errorOf(scheduler.schedule('room', async () => 'ran'));
    expect([error.code, error.status]).toEqual(['WEFT_SHUTTING_DOWN', 503]);
  });

  it('rejects a task that had not run with WEFT_TASK_CANCELLED when stopped with cancel [claim:tsdoc-scheduler-cancelled]', async () => {
    const scheduler = new Scheduler();
    const waiting = scheduler.schedule('room', async () => 'ran');
    await scheduler.stop('cancel');
    const error = await errorOf(waiting);
    expect([error.code, error.status]).toEqual(['WEFT_TASK_CANCELLED', 503]);
  });
});
