import type { WorkerLease } from '../bulkhead/bulkhead.js';

/** One task's lease, and what the scheduler does with it when the task ends. */
export interface TaskLease {
  readonly lease: WorkerLease;
  /** Called by the scheduler once the task has ended, whether or not its worker was lent. */
  end(): void;
}

/**
 * The scheduler's book of workers lent out: tasks waiting on a full bulkhead give their worker
 * back through their lease, so other tasks run meanwhile, and take one again, before any queued
 * task, when their wait is over. The scheduler counts a lent task as running (its space stays
 * busy) but not as holding a worker.
 */
export class WorkerLending {
  /** Running tasks whose worker is lent out now. */
  lent = 0;
  private readonly returning: (() => void)[] = [];

  /**
   * Makes a lease for a task that holds a worker.
   *
   * @param changed - Called when a worker was given back, so the scheduler starts another task.
   * @param hasFreeWorker - Whether a worker is free now.
   * @returns The lease, and the function to call when the task ends.
   */
  lease(changed: () => void, hasFreeWorker: () => boolean): TaskLease {
    let lentNow = false;
    let ended = false;
    let comeBack: (() => void) | undefined;
    const lease: WorkerLease = {
      away: async (promise) => {
        // A wait inside another (a model's slot inside a plugin's step) lends the worker once.
        if (ended || lentNow) return promise;
        lentNow = true;
        this.lent += 1;
        changed();
        try {
          return await promise;
        } finally {
          if (!ended) {
            if (hasFreeWorker() && this.returning.length === 0) {
              lentNow = false;
              this.lent -= 1;
            } else {
              await new Promise<void>((resolve) => {
                comeBack = () => {
                  lentNow = false;
                  comeBack = undefined;
                  resolve();
                };
                this.returning.push(comeBack);
              });
            }
          }
        }
      },
    };
    return {
      lease,
      end: () => {
        ended = true;
        if (!lentNow) return;
        // The task ended while its worker was lent (a deadline or a cancel): nothing to return.
        this.lent -= 1;
        lentNow = false;
        if (comeBack) {
          const index = this.returning.indexOf(comeBack);
          if (index >= 0) this.returning.splice(index, 1);
          comeBack();
        }
      },
    };
  }

  /**
   * Gives workers back to tasks whose wait is over, oldest first, while workers are free.
   *
   * @param hasFreeWorker - Whether a worker is free now.
   */
  resume(hasFreeWorker: () => boolean): void {
    while (this.returning.length > 0 && hasFreeWorker()) {
      this.lent -= 1;
      (this.returning.shift() as () => void)();
    }
  }
}
