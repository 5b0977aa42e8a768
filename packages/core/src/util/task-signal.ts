import { allowManyListeners } from '#platform';

/**
 * A signal for one task that follows a long-lived parent (the runtime's) until the task ends.
 *
 * Why not `AbortSignal.any([parent, own])`: the composed signal is registered on the parent
 * through a weak reference, and V8 keeps the target of every weak reference created in a turn
 * of the event loop alive until that turn ends. Tasks that never wait for I/O (instant models,
 * cached answers) run thousands at a time in one turn, so every task's signal, with the
 * listeners, contexts and task it reaches, stayed in the heap until the burst was over. Node 20
 * also never removes the dead entries from the parent (nodejs/node#55351), about 60 bytes per
 * task for the life of the process. A plain listener, removed when the task ends, leaves the
 * parent exactly as it was.
 */
export interface TaskSignal {
  /**
   * Aborted when the parent aborts (with its reason) or {@link TaskSignal.abort} is called.
   * @claim tsdoc-task-signal-signal
   */
  readonly signal: AbortSignal;
  /**
   * Aborts the task's signal alone.
   *
   * @param reason - The abort reason, for example a timeout error.
   * @claim tsdoc-task-signal-abort
   */
  abort(reason: unknown): void;
  /**
   * Detaches from the parent; call it once the task has ended.
   * @claim tsdoc-task-signal-release
   */
  release(): void;
}

/**
 * Creates a task's signal under a parent signal.
 *
 * @param parent - The long-lived signal, such as the scheduler's.
 * @returns The task's signal, and functions to abort it and to detach it from the parent.
 */
export function createTaskSignal(parent: AbortSignal): TaskSignal {
  // The parent holds one listener per running task, as many as the scheduler runs at once.
  allowManyListeners(parent);
  const controller = new AbortController();
  const onParentAbort = (): void => controller.abort(parent.reason);
  if (parent.aborted) onParentAbort();
  else parent.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    abort: (reason) => controller.abort(reason),
    release: () => parent.removeEventListener('abort', onParentAbort),
  };
}
