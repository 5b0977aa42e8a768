import { createHash } from 'node:crypto';

/**
 * What a release notification carries for a space: a hash of its id, 64 characters however
 * long the id is, since PostgreSQL refuses a notification payload of 8,000 bytes or more and a
 * refused notification would fail the release. Two ids that share a hash only wake each other's
 * waits for one more look.
 * @claim tsdoc-coordinator-release-key
 */
export function releaseKey(space: string): string {
  return createHash('sha256').update(space, 'utf8').digest('hex');
}

/**
 * Acquires that wait for a space to be released, woken by a PostgreSQL notification, a
 * deadline, or an abort; whichever comes first. Waits are filed under the space's
 * {@link releaseKey}, which is what notifications carry. Each signal gets one listener however many
 * waits share it, so fifty waiting spaces do not pile fifty listeners onto the runtime's signal.
 */
export class SpaceWaiters {
  private readonly bySpace = new Map<string, Set<() => void>>();
  private readonly bySignal = new Map<
    AbortSignal,
    { waits: Set<() => void>; onAbort: () => void }
  >();

  /**
   * Resolves after `ms` milliseconds, or earlier when the space is woken or a signal aborts.
   * Never rejects: the caller looks at the signals again.
   */
  wait(space: string, ms: number, signals: readonly AbortSignal[]): Promise<void> {
    const key = releaseKey(space);
    return new Promise((resolve) => {
      if (signals.some((signal) => signal.aborted)) {
        resolve();
        return;
      }
      const done = (): void => {
        clearTimeout(timer);
        this.remove(this.bySpace, key, done);
        for (const signal of signals) {
          const entry = this.bySignal.get(signal);
          entry?.waits.delete(done);
          if (entry?.waits.size === 0) {
            signal.removeEventListener('abort', entry.onAbort);
            this.bySignal.delete(signal);
          }
        }
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.add(this.bySpace, key, done);
      for (const signal of signals) {
        let entry = this.bySignal.get(signal);
        if (!entry) {
          const waits = new Set<() => void>();
          entry = { waits, onAbort: () => [...waits].forEach((wake) => wake()) };
          signal.addEventListener('abort', entry.onAbort, { once: true });
          this.bySignal.set(signal, entry);
        }
        entry.waits.add(done);
      }
    });
  }

  /** Wakes every wait on a space. */
  wake(space: string): void {
    this.wakeKey(releaseKey(space));
  }

  /**
   * Wakes the waits a release notification names. An instance of an earlier version of the
   * package sends the space's id itself, so the payload is tried both as a key and as an id.
   * @claim tsdoc-coordinator-earlier-version-payload
   */
  wakeNotified(payload: string): void {
    this.wakeKey(payload);
    this.wake(payload);
  }

  /** Wakes every wait, as when the coordinator stops. */
  wakeAll(): void {
    for (const key of [...this.bySpace.keys()]) this.wakeKey(key);
  }

  private wakeKey(key: string): void {
    for (const done of [...(this.bySpace.get(key) ?? [])]) done();
  }

  /** How many waits are pending, and how many signal listeners they hold, for tests. */
  get size(): { waits: number; listeners: number } {
    let waits = 0;
    for (const set of this.bySpace.values()) waits += set.size;
    return { waits, listeners: this.bySignal.size };
  }

  private add(map: Map<string, Set<() => void>>, key: string, done: () => void): void {
    const set = map.get(key);
    if (set) set.add(done);
    else map.set(key, new Set([done]));
  }

  private remove(map: Map<string, Set<() => void>>, key: string, done: () => void): void {
    const set = map.get(key);
    set?.delete(done);
    if (set?.size === 0) map.delete(key);
  }
}
