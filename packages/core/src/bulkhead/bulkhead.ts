import { WeftError } from '../errors/weft-error.js';
import { MAX_TIMER_MS } from '../util/timer-limit.js';

/**
 * What a running task can do with its scheduler worker: give it back while it waits for
 * something that is not work of its own, so another task runs meanwhile. The scheduler hands
 * one to every task it runs.
 */
export interface WorkerLease {
  /**
   * Waits for `promise` without holding a worker, then takes a worker again (before any queued
   * task) and settles as `promise` did.
   *
   * @param promise - What the task waits for.
   * @returns The promise's value, once the task holds a worker again.
   */
  away<T>(promise: Promise<T>): Promise<T>;
}

interface Waiter {
  grant: () => void;
  fail: (reason: unknown) => void;
}

/**
 * A concurrency limit around one dependency (a model provider, a plugin's executors, the memory
 * provider): at most `limit` calls into it run at once. A call that finds it full waits for a
 * slot without holding its task's worker, for at most `maxWaitMs`, and then fails with
 * `WEFT_BULKHEAD_FULL`. So a dependency that hangs holds at most `limit` of the scheduler's
 * workers, and the others keep serving tasks that do not need it.
 *
 * A call whose caller's signal aborts while it runs (its task timed out or was cancelled) may
 * still be running in the dependency, so it keeps its slot until it settles, else the limit
 * would be exceeded; but a call that never settles gives its slot back `holdAfterAbortMs` after
 * the abort, so a hung dependency cannot keep its slots for good. `run` settles as `work` does:
 * releasing the caller at the abort is the caller's business (the model manager races the
 * signal, the task runner races the task's), so a late outcome can still be reported.
 */
export class Bulkhead {
  private inFlight = 0;
  private readonly waiters: Waiter[] = [];

  /**
   * @param name - The dependency, as error messages and `options.bulkhead.limits` name it, such
   * as `model:openai`.
   * @param limit - Most calls running at once.
   * @param maxWaitMs - Longest a call waits for a slot.
   * @param option - The option a user changes to raise the limit, for error messages.
   * @param holdAfterAbortMs - Longest a call still running after its caller's signal aborted
   * keeps its slot; the runtime passes `taskTimeoutMs`.
   */
  constructor(
    readonly name: string,
    readonly limit: number,
    readonly maxWaitMs: number,
    private readonly option: string,
    readonly holdAfterAbortMs: number = MAX_TIMER_MS,
  ) {}

  /** Calls running now. */
  get running(): number {
    return this.inFlight;
  }

  /** Calls waiting for a slot now. */
  get waiting(): number {
    return this.waiters.length;
  }

  /**
   * Runs `work` in a slot, waiting for one when all are taken.
   *
   * @param work - The call into the dependency.
   * @param options - The caller's `signal` (an abort ends the wait and frees the slot) and its
   * task's `lease`, through which the worker is given back while waiting.
   * @returns What `work` returns, whenever it does.
   * @throws WeftError `WEFT_BULKHEAD_FULL` when no slot came free within `maxWaitMs`; the
   * signal's reason when it has aborted already, or aborts while waiting, for a slot or for the
   * task's worker once the slot came: then `work` is not called.
   */
  async run<T>(
    work: () => Promise<T>,
    options: { signal?: AbortSignal; lease?: WorkerLease } = {},
  ): Promise<T> {
    const { signal, lease } = options;
    signal?.throwIfAborted();
    if (this.inFlight < this.limit) {
      this.inFlight += 1;
    } else {
      const slot = this.waitForSlot(signal);
      await (lease ? lease.away(slot) : slot);
      // The slot may have come while the task waited for its worker to come back, and the task
      // may have ended meanwhile (timed out, cancelled): its call is not made, as it would
      // be for nobody, after the task's answer was given.
      if (signal?.aborted) {
        this.release();
        throw signal.reason;
      }
    }
    let held = true;
    let holding: ReturnType<typeof setTimeout> | undefined;
    // The caller may be gone (its task ended) while the call still runs in the dependency: it
    // counts until it settles, but for a bounded time, as a hung call would never give it back.
    const hold = (): void => {
      holding = setTimeout(release, this.holdAfterAbortMs);
      // Nothing waits for this timer: it must not keep a process alive that is otherwise done.
      (holding as { unref?: () => void }).unref?.();
    };
    const release = (): void => {
      if (!held) return;
      held = false;
      clearTimeout(holding);
      signal?.removeEventListener('abort', hold);
      this.release();
    };
    signal?.addEventListener('abort', hold, { once: true });
    try {
      return await work();
    } finally {
      release();
    }
  }

  private release(): void {
    // The slot passes straight to the oldest waiter, so a stream of new calls cannot starve it.
    const next = this.waiters.shift();
    if (next) next.grant();
    else this.inFlight -= 1;
  }

  private waitForSlot(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const leave = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
      };
      const waiter: Waiter = {
        grant: () => {
          leave();
          resolve();
        },
        fail: (reason) => {
          leave();
          reject(reason);
        },
      };
      const onAbort = (): void => waiter.fail(signal?.reason);
      const timer = setTimeout(() => {
        waiter.fail(
          new WeftError(
            'WEFT_BULKHEAD_FULL',
            `Bulkhead: ${this.name} already has ${this.limit} calls running, and this call got no slot within ${this.maxWaitMs} ms; it may be hung or overloaded. Raise ${this.option} or options.bulkhead.maxWaitMs if it is only slow.`,
          ),
        );
      }, this.maxWaitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }
}

/** Resolved bulkhead settings: the default limit, the wait, and limits per dependency. */
export interface BulkheadSettings {
  maxConcurrent: number;
  maxWaitMs: number;
  limits: Readonly<Record<string, number>>;
  /** Longest a call still running after its task ended keeps its slot (`taskTimeoutMs`). */
  holdAfterAbortMs: number;
}

/**
 * The bulkheads of one runtime, one per dependency, made on first use.
 *
 * @internal
 */
export class Bulkheads {
  private readonly byName = new Map<string, Bulkhead>();

  constructor(private readonly settings: BulkheadSettings) {}

  /**
   * The bulkhead of a dependency.
   *
   * @param name - `model:<provider id>`, `plugin:<plugin id>` or `memory:<provider id>`.
   * @returns Its bulkhead.
   */
  get(name: string): Bulkhead {
    let bulkhead = this.byName.get(name);
    if (!bulkhead) {
      const own = this.settings.limits[name];
      bulkhead = new Bulkhead(
        name,
        own ?? this.settings.maxConcurrent,
        this.settings.maxWaitMs,
        own === undefined ? 'options.bulkhead.maxConcurrent' : `options.bulkhead.limits["${name}"]`,
        this.settings.holdAfterAbortMs,
      );
      this.byName.set(name, bulkhead);
    }
    return bulkhead;
  }
}

/**
 * Runs a call into a named dependency under that dependency's bulkhead. The task runner gives
 * each task's model and memory views one, bound to the task's signal and worker lease. A call
 * that carries a signal of its own (a model call given `signal`) passes it as `signal`: then
 * either signal ends the wait for a slot.
 *
 * @internal
 */
export type CallGuard = <T>(
  dependency: string,
  work: () => Promise<T>,
  signal?: AbortSignal,
) => Promise<T>;
