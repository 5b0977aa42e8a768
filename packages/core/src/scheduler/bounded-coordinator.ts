import type { Logger } from 'pino';
import { allowManyListeners } from '#platform';
import { WeftError } from '../errors/weft-error.js';
import { settleWithin, TIMED_OUT } from '../util/deadline.js';
import { errorLogFields } from '../util/logger.js';
import type { SpaceCoordinator, SpaceGrant, TaskArrival } from './space-coordinator.js';

/**
 * The runtime's hold on a {@link SpaceCoordinator}, with a deadline on every wait: a coordinator
 * whose call never settles must not hang a `dispatch`, a space's queue or a stop. A call past its
 * deadline goes on (nothing can cancel it), but its late result is given back, so that no task
 * runs, and no space stays held, for a caller that was told it failed. Each call is the
 * coordinator's own again, so one that answers again is used again without a restart.
 *
 * @internal
 */
export class BoundedCoordinator {
  /**
   * @param coordinator - The coordinator to call.
   * @param limits - `callMs` bounds `admit` and `release`, `acquireMs` bounds `acquire`.
   * @param logger - Where calls that time out, or end after their deadline, are logged.
   */
  constructor(
    private readonly coordinator: SpaceCoordinator,
    private readonly limits: { callMs: number; acquireMs: number },
    private readonly logger: Logger,
  ) {}

  /**
   * Records a task through the coordinator.
   *
   * @param arrival - The task's event.
   * @returns The task's ticket.
   * @throws {@link WeftError} `WEFT_COORDINATOR_TIMEOUT` (503) when `admit` has not settled
   * within `callMs`; the coordinator's own error when it rejects in time.
   */
  async admit(arrival: TaskArrival): Promise<number> {
    const space = arrival.space.id;
    const call = this.coordinator.admit(arrival);
    const ticket = await settleWithin(call, this.limits.callMs);
    if (ticket !== TIMED_OUT) return ticket;
    call.then(
      (late) => {
        // Its caller was refused, so the task is done with: nobody should run it later.
        this.logger.warn(
          { space, taskId: arrival.taskId, ticket: late },
          'coordinator admitted a task after its deadline; giving its ticket back finished',
        );
        void this.release(space, late, 'finished');
      },
      (error: unknown) =>
        this.logger.warn(
          { space, taskId: arrival.taskId, ...errorLogFields(error) },
          'coordinator admit failed after its deadline',
        ),
    );
    throw this.timedOut(
      `did not record a task of space "${space}" within coordinatorTimeoutMs (${this.limits.callMs} ms), so the task was not accepted and will not run`,
      'coordinatorTimeoutMs',
    );
  }

  /**
   * Waits for the coordinator to grant a space.
   *
   * @param space - The space id.
   * @param signal - Passed to the coordinator.
   * @returns The grant.
   * @throws {@link WeftError} `WEFT_COORDINATOR_TIMEOUT` (503) when `acquire` has not settled
   * within `acquireMs`; the coordinator's own error when it rejects in time.
   */
  async acquire(space: string, signal: AbortSignal): Promise<SpaceGrant> {
    const call = this.coordinator.acquire(space, signal);
    // A stop aborts the signal: the wait ends then, even when the coordinator ignores it, so that
    // no deadline timer keeps the process alive after the runtime stopped.
    const stopped = whenAborted(signal);
    let grant: SpaceGrant | typeof TIMED_OUT;
    try {
      grant = await settleWithin(Promise.race([call, stopped.promise]), this.limits.acquireMs);
    } catch (error) {
      if (signal.aborted) this.giveBackLate(space, call);
      throw error;
    } finally {
      stopped.dispose();
    }
    if (grant !== TIMED_OUT) return grant;
    this.giveBackLate(space, call);
    throw this.timedOut(
      `did not grant space "${space}" within coordinatorAcquireTimeoutMs (${this.limits.acquireMs} ms), so the space's tasks waiting on this instance fail`,
      'coordinatorAcquireTimeoutMs',
    );
  }

  /** Lets a space go that `call` grants after nobody waits for it any more. */
  private giveBackLate(space: string, call: Promise<SpaceGrant>): void {
    call.then(
      (late) => {
        // The space's waiting tasks have failed or were cancelled; let the space go.
        this.logger.warn(
          { space, ticket: late.ticket },
          'coordinator granted a space after its deadline; giving it back',
        );
        void this.release(space, late.ticket, 'abandoned');
      },
      () => undefined,
    );
  }

  /**
   * Gives a space back. Never rejects and never waits longer than `callMs`: a release that
   * fails or hangs is logged, and the scheduler goes on as if it had ended.
   *
   * @param space - The space id.
   * @param ticket - The task's ticket.
   * @param outcome - `finished` or `abandoned`.
   */
  async release(space: string, ticket: number, outcome: 'finished' | 'abandoned'): Promise<void> {
    try {
      const released = await settleWithin(
        this.coordinator.release(space, ticket, outcome),
        this.limits.callMs,
      );
      if (released === TIMED_OUT) {
        this.logger.warn(
          { space, ticket, outcome, timeoutMs: this.limits.callMs },
          'coordinator release did not end within coordinatorTimeoutMs; going on without it',
        );
      }
    } catch (error) {
      this.logger.warn(
        { space, ticket, outcome, ...errorLogFields(error) },
        'coordinator release failed',
      );
    }
  }

  private timedOut(what: string, option: string): WeftError {
    return new WeftError(
      'WEFT_COORDINATOR_TIMEOUT',
      `Runtime: coordinator "${this.coordinator.id}" ${what}. Find out why it hangs (its logs, the store it uses), or raise options.${option} if it legitimately needs longer.`,
      { status: 503 },
    );
  }
}

/** A promise that rejects with the signal's reason once it is aborted, and a way to stop listening. */
function whenAborted(signal: AbortSignal): { promise: Promise<never>; dispose: () => void } {
  let onAbort: () => void = () => undefined;
  const promise = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason);
  });
  // Handled by the race it joins; a rejection after the race settled must not go unhandled.
  promise.catch(() => undefined);
  if (signal.aborted) onAbort();
  else {
    // The scheduler's signal holds one of these per space waiting for its grant: more than
    // Node's warning threshold of 10 is expected, not a leak.
    allowManyListeners(signal);
    signal.addEventListener('abort', onAbort, { once: true });
  }
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}
