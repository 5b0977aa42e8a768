import type { WorkerLease } from '../bulkhead/bulkhead.js';
import { WeftError } from '../errors/weft-error.js';
import { WorkerLending } from './worker-lending.js';

interface Job {
  run: (signal: AbortSignal, lease: WorkerLease) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

/**
 * Runs tasks with bounded concurrency. Tasks of one space run one at a time, in the order they
 * arrived, so a conversation is never answered out of order; tasks of different spaces run in
 * parallel up to `concurrency`. When `maxQueueSize` tasks are already waiting, a new one is
 * rejected at once with an error whose `status` is 503, which HTTP triggers pass on to the
 * client. A task that fails rejects only its own promise.
 *
 * Each task also gets a lease, its second argument: `lease.away(promise)` waits for `promise`
 * without holding a worker (other tasks run meanwhile), then takes one again, before any queued
 * task. The runtime's bulkheads wait this way, so one hung dependency cannot hold every worker.
 *
 * @example
 * ```ts
 * import { Scheduler } from '@weft/core';
 *
 * const scheduler = new Scheduler({ concurrency: 2 });
 * scheduler.start();
 * const first = scheduler.schedule('room-1', async () => 'first');
 * const second = scheduler.schedule('room-1', async () => 'second, after first');
 * console.log(await Promise.all([first, second]));
 * await scheduler.stop();
 * ```
 */
export class Scheduler {
  /** Most tasks running at once. */
  readonly concurrency: number;
  /** Most tasks waiting at once. */
  readonly maxQueueSize: number;
  private readonly queues = new Map<string, Job[]>();
  private readonly ready: string[] = [];
  private readonly busy = new Set<string>();
  private readonly controller = new AbortController();
  private waiting = 0;
  private active = 0;
  private started = false;
  private closed = false;
  private idleWaiters: (() => void)[] = [];
  private readonly lending = new WorkerLending();
  private readonly hasFreeWorker = (): boolean =>
    this.active - this.lending.lent < this.concurrency;

  /**
   * Creates a scheduler; it runs nothing until {@link Scheduler.start}.
   *
   * @param options - `concurrency` (default 4) and `maxQueueSize` (default 1000).
   * @throws Error when either is not a positive integer.
   */
  constructor(options: { concurrency?: number; maxQueueSize?: number } = {}) {
    this.concurrency = positiveInteger('concurrency', options.concurrency ?? 4);
    this.maxQueueSize = positiveInteger('maxQueueSize', options.maxQueueSize ?? 1000);
  }

  /** Number of tasks waiting to run. */
  get pending(): number {
    return this.waiting;
  }

  /** Number of tasks running now. */
  get running(): number {
    return this.active;
  }

  /** Starts running tasks; tasks scheduled before this wait for it. */
  start(): void {
    this.started = true;
    this.pump();
  }

  /**
   * Queues a task.
   *
   * @param space - The space the task belongs to.
   * @param task - The work; its signal is aborted when the scheduler stops in `cancel` mode.
   * @returns What the task returns, once it has run.
   * @throws Error with `status` 503 when the queue is full or the scheduler is stopping.
   */
  schedule<T>(
    space: string,
    task: (
      signal: AbortSignal,
      lease: {
        /**
         * Waits for a promise without holding a worker, then takes one again.
         *
         * @param promise - What the task waits for.
         * @returns The promise's value, once the task holds a worker again.
         */
        away<R>(promise: Promise<R>): Promise<R>;
      },
    ) => Promise<T>,
  ): Promise<T> {
    if (this.closed) {
      return Promise.reject(
        new WeftError(
          'WEFT_SHUTTING_DOWN',
          'Scheduler: the runtime is shutting down and accepts no new tasks.',
          { status: 503, expose: true },
        ),
      );
    }
    if (this.waiting >= this.maxQueueSize) {
      return Promise.reject(
        new WeftError(
          'WEFT_QUEUE_FULL',
          `Scheduler: the queue is full (${this.maxQueueSize} tasks waiting); try again later.`,
          { status: 503, expose: true },
        ),
      );
    }
    return new Promise<T>((resolve, reject) => {
      const job: Job = { run: task, resolve: resolve as (value: unknown) => void, reject };
      const queue = this.queues.get(space);
      if (queue) queue.push(job);
      else this.queues.set(space, [job]);
      this.waiting += 1;
      if (!this.busy.has(space) && queue === undefined) this.ready.push(space);
      this.pump();
    });
  }

  /**
   * Resolves when no task is waiting or running.
   *
   * @returns A promise that settles once idle.
   */
  onIdle(): Promise<void> {
    if (this.waiting === 0 && this.active === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Stops accepting tasks, then either lets every queued task run (`drain`, the default) or
   * rejects the waiting ones and aborts the running ones (`cancel`). Calling it again is
   * harmless.
   *
   * @param mode - `drain` or `cancel`.
   * @returns A promise that settles when no task is left.
   */
  async stop(mode: 'drain' | 'cancel' = 'drain'): Promise<void> {
    this.closed = true;
    if (mode === 'cancel') {
      for (const [space, queue] of this.queues) {
        for (const job of queue) {
          job.reject(
            new WeftError(
              'WEFT_TASK_CANCELLED',
              `Scheduler: task of space "${space}" was cancelled by shutdown.`,
              { status: 503 },
            ),
          );
        }
        this.waiting -= queue.length;
        queue.length = 0;
      }
      this.queues.clear();
      this.ready.length = 0;
      this.controller.abort(
        new WeftError('WEFT_TASK_CANCELLED', 'Scheduler: cancelled by shutdown.'),
      );
    } else {
      this.start();
    }
    await this.onIdle();
  }

  private pump(): void {
    this.lending.resume(this.hasFreeWorker);
    while (this.started && this.hasFreeWorker() && this.ready.length > 0) {
      const space = this.ready.shift() as string;
      const queue = this.queues.get(space);
      const job = queue?.shift();
      if (!job) continue;
      this.waiting -= 1;
      this.active += 1;
      this.busy.add(space);
      void this.execute(space, job);
    }
    if (this.waiting === 0 && this.active === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private async execute(space: string, job: Job): Promise<void> {
    const taskLease = this.lending.lease(() => this.pump(), this.hasFreeWorker);
    try {
      job.resolve(await job.run(this.controller.signal, taskLease.lease));
    } catch (error) {
      job.reject(error);
    } finally {
      taskLease.end();
      this.active -= 1;
      this.busy.delete(space);
      const queue = this.queues.get(space);
      if (queue && queue.length > 0) this.ready.push(space);
      else this.queues.delete(space);
      this.pump();
    }
  }
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new WeftError(
      'WEFT_INVALID_ARGUMENT',
      `Scheduler: option "${name}" must be a positive integer, got ${String(value)}.`,
    );
  }
  return value;
}
