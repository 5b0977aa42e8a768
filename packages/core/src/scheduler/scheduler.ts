import type { WorkerLease } from '../bulkhead/bulkhead.js';
import { WeftError } from '../errors/weft-error.js';
import { WorkerLending } from './worker-lending.js';
import type { SpaceCoordinator, SpaceGrant } from './space-coordinator.js';
import { SignalFanOut } from './signal-fan-out.js';

interface Job {
  run: (signal: AbortSignal, lease: WorkerLease) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
  /** The coordinator's ticket, when a coordinator keeps the space in order across instances. */
  ticket?: number;
  /** Whether the task's value says it ran to its end, so it is finished even if its signal fired. */
  ranToEnd?: (value: unknown) => boolean;
}

/** The parts of a coordinator the scheduler uses; the runtime admits and resumes. */
type SpaceGate = Pick<SpaceCoordinator, 'acquire' | 'release'>;

/**
 * Runs tasks with bounded concurrency. Tasks of one space run one at a time, in the order they
 * arrived, so a conversation is never answered out of order; tasks of different spaces run in
 * parallel up to `concurrency`. When `maxQueueSize` tasks are already waiting, a new one is
 * rejected at once with an error whose `status` is 503, which HTTP triggers pass on to the
 * client. A task that fails rejects only its own promise.
 *
 * With a `coordinator`, every task carries the ticket the coordinator gave it when it arrived,
 * and a space's next task runs only once the coordinator grants the space (it may be busy on
 * another instance); the wait holds no worker, so spaces that are free keep running.
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
  /**
   * Most tasks holding a worker at once. A task waiting through its lease holds none, so
   * {@link Scheduler.running} may be higher.
   * @claim tsdoc-scheduler-concurrency-workers
   */
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
  private readonly coordinator: SpaceGate | undefined;
  /** Spaces whose grant is being asked for. */
  private readonly acquiring = new Set<string>();
  /** Granted spaces' tasks, waiting for a worker. */
  private readonly granted = new Map<string, { job: Job; grant: SpaceGrant }>();
  /** Grants being given back; the scheduler is idle only once none is. */
  private releasing = 0;
  private readonly fanOut = new SignalFanOut();

  /**
   * Creates a scheduler; it runs nothing until {@link Scheduler.start}.
   *
   * @param options - `concurrency` (default 4), `maxQueueSize` (default 1000), and the
   * `coordinator` that grants spaces when several instances share them.
   * @throws {@link WeftError} `WEFT_INVALID_ARGUMENT` naming the option when either number is
   * not a positive integer.
   * @claim tsdoc-scheduler-constructor
   * @claim tsdoc-scheduler-defaults
   */
  constructor(
    options: {
      concurrency?: number;
      maxQueueSize?: number;
      coordinator?: Pick<SpaceCoordinator, 'acquire' | 'release'>;
    } = {},
  ) {
    this.concurrency = positiveInteger('concurrency', options.concurrency ?? 4);
    this.maxQueueSize = positiveInteger('maxQueueSize', options.maxQueueSize ?? 1000);
    this.coordinator = options.coordinator;
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
    for (const space of this.queues.keys()) this.requestSpace(space);
    this.pump();
  }

  /**
   * Why a task scheduled now would be refused, if it would: the runtime asks before a
   * coordinator records the task, since a task with a ticket is never refused for a full queue.
   *
   * @param arriving - Tasks accepted but not scheduled yet (a coordinator is recording them),
   * which count against `maxQueueSize` as if they were waiting.
   * @returns The error `schedule` would reject with, or `undefined`.
   */
  refusal(arriving = 0): WeftError | undefined {
    if (this.closed) {
      return new WeftError(
        'WEFT_SHUTTING_DOWN',
        'Scheduler: the runtime is shutting down and accepts no new tasks.',
        { status: 503, expose: true },
      );
    }
    if (this.waiting + arriving >= this.maxQueueSize) {
      return new WeftError(
        'WEFT_QUEUE_FULL',
        `Scheduler: the queue is full (${this.maxQueueSize} tasks waiting); try again later.`,
        { status: 503, expose: true },
      );
    }
    return undefined;
  }

  /**
   * Queues a task.
   *
   * @param space - The space the task belongs to.
   * @param task - The work; its signal is aborted when the scheduler stops in `cancel` mode,
   * or when the coordinator loses the space.
   * @param ticket - The coordinator's ticket for the task; required with a coordinator, and a
   * task that has one is not refused for a full queue (it was accepted already).
   * @param ranToEnd - Whether the task, by what it returned, ran to its end. Such a task is given
   * back to the coordinator as finished even when its signal fired meanwhile (it was only storing
   * its results), so that no instance runs it again. Without it, a task whose signal fired by the
   * time it returned is given back abandoned, for a rerun.
   * @returns What the task returns, once it has run.
   * @throws The returned promise rejects with a {@link WeftError} whose `status` is 503:
   * `WEFT_QUEUE_FULL` when `maxQueueSize` tasks are waiting, `WEFT_SHUTTING_DOWN` once
   * {@link Scheduler.stop} was called, or `WEFT_TASK_CANCELLED` when a `cancel` stop drops the
   * task before it ran; with `WEFT_INVALID_ARGUMENT` when a coordinator is set and `ticket`
   * is missing.
   * @claim tsdoc-scheduler-queue-full
   * @claim tsdoc-scheduler-shutting-down
   * @claim tsdoc-scheduler-cancelled
   * @claim tsdoc-scheduler-ticket
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
    ticket?: number,
    ranToEnd?: (value: T) => boolean,
  ): Promise<T> {
    const refusal = this.refusal();
    if (refusal && (refusal.code === 'WEFT_SHUTTING_DOWN' || ticket === undefined)) {
      return Promise.reject(refusal);
    }
    if (this.coordinator && ticket === undefined) {
      return Promise.reject(
        new WeftError(
          'WEFT_INVALID_ARGUMENT',
          `Scheduler: a task of space "${space}" has no ticket; with a coordinator, admit each task through it first.`,
        ),
      );
    }
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        run: task,
        resolve: resolve as (value: unknown) => void,
        reject,
        ticket,
        ranToEnd: ranToEnd as ((value: unknown) => boolean) | undefined,
      };
      const queue = this.queues.get(space);
      if (queue) queue.push(job);
      else this.queues.set(space, [job]);
      this.waiting += 1;
      if (this.coordinator) this.requestSpace(space);
      else if (!this.busy.has(space) && queue === undefined) this.ready.push(space);
      this.pump();
    });
  }

  /**
   * Resolves when no task is waiting or running.
   *
   * @returns A promise that settles once idle.
   */
  onIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Stops accepting tasks, then either lets every queued task run (`drain`, the default) or
   * rejects the waiting ones with `WEFT_TASK_CANCELLED` and aborts the running ones' signals
   * (`cancel`). Calling it again is harmless.
   *
   * @param mode - `drain` or `cancel`.
   * @returns A promise that settles when no task is left.
   * @claim tsdoc-scheduler-stop-cancel
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
      for (const [space, { job, grant }] of this.granted) {
        job.reject(
          new WeftError(
            'WEFT_TASK_CANCELLED',
            `Scheduler: task of space "${space}" was cancelled by shutdown.`,
            { status: 503 },
          ),
        );
        this.waiting -= 1;
        this.giveBack(space, grant.ticket, 'abandoned');
      }
      this.granted.clear();
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
      const granted = this.granted.get(space);
      this.granted.delete(space);
      const job = this.coordinator ? granted?.job : this.queues.get(space)?.shift();
      if (!job) continue;
      this.waiting -= 1;
      this.active += 1;
      this.busy.add(space);
      void this.execute(space, job, granted?.grant);
    }
    if (this.isIdle()) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  private isIdle(): boolean {
    return this.waiting === 0 && this.active === 0 && this.releasing === 0;
  }

  private async execute(space: string, job: Job, grant?: SpaceGrant): Promise<void> {
    const linked = grant ? this.fanOut.link([this.controller.signal, grant.signal]) : undefined;
    const taskLease = this.lending.lease(() => this.pump(), this.hasFreeWorker);
    let ranToEnd = false;
    try {
      const value = await job.run(linked?.signal ?? this.controller.signal, taskLease.lease);
      ranToEnd = job.ranToEnd?.(value) === true;
      job.resolve(value);
    } catch (error) {
      job.reject(error);
    } finally {
      linked?.unlink();
      taskLease.end();
      this.active -= 1;
      if (grant) {
        // A task cut short by shutdown or by losing the space stays unfinished, for a rerun; one
        // that ran to its end (the signal fired while it stored its results) is finished.
        const cut = !ranToEnd && (this.controller.signal.aborted || grant.signal.aborted);
        this.giveBack(space, grant.ticket, cut ? 'abandoned' : 'finished');
      } else {
        this.busy.delete(space);
        const queue = this.queues.get(space);
        if (queue && queue.length > 0) this.ready.push(space);
        else this.queues.delete(space);
      }
      this.pump();
    }
  }

  /** Asks the coordinator for a space with waiting tasks, unless it is held or asked for. */
  private requestSpace(space: string): void {
    const coordinator = this.coordinator;
    const queue = this.queues.get(space);
    if (!coordinator || !this.started || !queue || queue.length === 0) return;
    if (this.busy.has(space) || this.acquiring.has(space)) return;
    this.acquiring.add(space);
    coordinator.acquire(space, this.controller.signal).then(
      (grant) => this.onGrant(space, grant),
      (error: unknown) => this.onRefused(space, error),
    );
  }

  private onGrant(space: string, grant: SpaceGrant): void {
    this.acquiring.delete(space);
    const queue = this.queues.get(space) ?? [];
    const index = queue.findIndex((job) => job.ticket === grant.ticket);
    if (index < 0) {
      // Its task was cancelled meanwhile: give the space back, unfinished, for whoever is next.
      this.giveBack(space, grant.ticket, 'abandoned');
      return;
    }
    const [job] = queue.splice(index, 1) as [Job];
    this.busy.add(space);
    this.granted.set(space, { job, grant });
    this.ready.push(space);
    this.pump();
  }

  /** The space could not be had (deadline, lost store, shutdown): its waiting tasks fail. */
  private onRefused(space: string, error: unknown): void {
    this.acquiring.delete(space);
    const queue = this.queues.get(space) ?? [];
    this.queues.delete(space);
    this.waiting -= queue.length;
    for (const job of queue) {
      job.reject(error);
      // The caller has the error, so the task is done with; nobody should run it later.
      if (job.ticket !== undefined) this.giveBack(space, job.ticket, 'finished', false);
    }
    this.pump();
  }

  private giveBack(
    space: string,
    ticket: number,
    outcome: 'finished' | 'abandoned',
    held = true,
  ): void {
    const coordinator = this.coordinator as SpaceGate;
    this.releasing += 1;
    void coordinator.release(space, ticket, outcome).finally(() => {
      this.releasing -= 1;
      if (held) this.busy.delete(space);
      const queue = this.queues.get(space);
      if (queue && queue.length === 0) this.queues.delete(space);
      this.requestSpace(space);
      this.pump();
    });
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
