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
