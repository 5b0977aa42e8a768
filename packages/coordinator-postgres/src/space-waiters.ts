/**
 * Acquires that wait for a space to be released, woken by a PostgreSQL notification, a
 * deadline, or an abort; whichever comes first. Each signal gets one listener however many
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
    return new Promise((resolve) => {
      if (signals.some((signal) => signal.aborted)) {
        resolve();
        return;
      }
      const done = (): void => {
        clearTimeout(timer);
        this.remove(this.bySpace, space, done);
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
      this.add(this.bySpace, space, done);
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
    for (const done of [...(this.bySpace.get(space) ?? [])]) done();
  }

  /** Wakes every wait, as when the coordinator stops. */
  wakeAll(): void {
    for (const space of [...this.bySpace.keys()]) this.wake(space);
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
