/** No wait between attempts is ever longer than this, whatever a `Retry-After` header asks. */
export const MAX_RETRY_DELAY_MS = 10_000;

/**
 * Reads a `Retry-After` header: a number of seconds (`"2"`, `"0.5"`) or an HTTP date.
 *
 * @param value - The header's value, or `null` when absent.
 * @param now - The current time in milliseconds since the epoch (for HTTP dates).
 * @returns The wait in milliseconds (never negative), or `undefined` when absent or unreadable.
 */
export function parseRetryAfter(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // Anything else must be an HTTP date, which always names a weekday or month.
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * How long to wait before the next attempt. A `Retry-After` wait from the server is honoured
 * as given; otherwise the wait doubles with each attempt from `baseDelayMs`, and a random
 * jitter picks a value between half and all of it so that many clients do not retry in step.
 * Either way the wait is capped at {@link MAX_RETRY_DELAY_MS}.
 *
 * @param attempt - The attempt that just failed, starting at 1.
 * @param baseDelayMs - The wait after the first failed attempt, before jitter.
 * @param retryAfterMs - The server's requested wait, when it sent one.
 * @param random - A source of numbers in [0, 1); `Math.random` unless testing.
 * @returns The wait in milliseconds.
 */
export function retryDelayMs(
  attempt: number,
  baseDelayMs: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, MAX_RETRY_DELAY_MS);
  const exponential = Math.min(baseDelayMs * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS);
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/**
 * Waits, unless the signal fires first.
 *
 * @param ms - How long to wait.
 * @param signal - Cuts the wait short when it fires.
 * @returns `true` when the full wait elapsed, `false` when the signal fired.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
