/**
 * What {@link settleWithin} resolves with when the promise did not settle in time.
 * @claim tsdoc-timed-out
 */
export const TIMED_OUT = Symbol('timed out');

/**
 * Waits for a promise at most `ms` milliseconds. The promise is not cancelled: whatever it does
 * later is ignored, so callers use this where they would otherwise wait forever on work they do
 * not control (a plugin's shutdown, a memory write).
 *
 * @param promise - The work to wait for; a rejection is passed on.
 * @param ms - The longest wait.
 * @returns The promise's value, or {@link TIMED_OUT}.
 * @claim tsdoc-settle-within-rejection
 * @claim tsdoc-settle-within-timeout
 */
export async function settleWithin<T>(
  promise: Promise<T>,
  ms: number,
): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  try {
    return await Promise.race([promise, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * How long a call whose signal fired still waits for its callee to stop on its own: a callee
 * that honours the signal rejects within it (usually in the same turn of the event loop), and
 * its own error, more precise than the signal's reason, reaches the caller.
 * @internal
 */
export const ABORT_GRACE_MS = 10;

/**
 * Waits for work already started until `signal` aborts, and then at most {@link ABORT_GRACE_MS}
 * more. Work that rejects within that grace passes its error on; otherwise the returned promise
 * rejects with the signal's reason, as `fetch` does, whatever the work does later: a value it
 * gives after the abort is dropped. The work is not cancelled (that is the signal's job).
 *
 * @param work - The running work; its late rejection is handled, never left unhandled.
 * @param signal - The caller's signal; without one this waits for `work` alone.
 * @param onOutlived - Called once when the caller is released while `work` is still running.
 * @returns The work's value, when it came before the abort.
 * @throws The work's error, or the signal's reason.
 */
export async function raceAbort<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  onOutlived?: () => void,
): Promise<T> {
  if (!signal) return work;
  // A rejection after the caller was released is expected: it must not be reported as unhandled.
  work.catch(() => undefined);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<typeof ABORTED>((resolve) => {
    onAbort = () => resolve(ABORTED);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const first = await Promise.race([work, aborted]);
    if (first !== ABORTED) return first;
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
  let settled = false;
  const late = work.then(
    () => {
      settled = true;
    },
    (error: unknown) => {
      settled = true;
      throw error;
    },
  );
  // A rejection within the grace is the callee stopping as asked: its error is passed on.
  await settleWithin(late, ABORT_GRACE_MS);
  if (!settled) onOutlived?.();
  throw signal.reason;
}

const ABORTED = Symbol('aborted');
