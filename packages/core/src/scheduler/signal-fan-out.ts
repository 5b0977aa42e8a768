/**
 * Aborts many short-lived controllers when a long-lived signal aborts, through one listener on
 * that signal however many controllers are attached, so running tasks do not pile listeners onto
 * the scheduler's signal or a coordinator's.
 * @claim tsdoc-fan-out-one-listener
 */
export class SignalFanOut {
  private readonly targets = new Map<
    AbortSignal,
    { controllers: Set<AbortController>; onAbort: () => void }
  >();

  /**
   * A signal aborted when any of `sources` is (with its reason), and the function that detaches
   * it once the task ended.
   * @claim tsdoc-fan-out-link
   */
  link(sources: readonly AbortSignal[]): { signal: AbortSignal; unlink: () => void } {
    const controller = new AbortController();
    const aborted = sources.find((source) => source.aborted);
    if (aborted) {
      controller.abort(aborted.reason);
      return { signal: controller.signal, unlink: () => undefined };
    }
    for (const source of sources) {
      let entry = this.targets.get(source);
      if (!entry) {
        const controllers = new Set<AbortController>();
        const onAbort = (): void => {
          for (const target of controllers) target.abort(source.reason);
        };
        entry = { controllers, onAbort };
        source.addEventListener('abort', onAbort, { once: true });
        this.targets.set(source, entry);
      }
      entry.controllers.add(controller);
    }
    return {
      signal: controller.signal,
      unlink: () => {
        for (const source of sources) {
          const entry = this.targets.get(source);
          entry?.controllers.delete(controller);
          if (entry?.controllers.size === 0) {
            source.removeEventListener('abort', entry.onAbort);
            this.targets.delete(source);
          }
        }
      },
    };
  }
}
