/** No wait between attempts is ever longer than this, whatever a `Retry-After` header asks. */
export const MAX_RETRY_DELAY_MS = 10_000;

/**
 * The three forms of an HTTP date (RFC 9110, section 5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`, the
 * obsolete `Sunday, 06-Nov-94 08:49:37 GMT`, and asctime's `Sun Nov  6 08:49:37 1994`, which
 * names no zone but is GMT too. Only these are read as dates: `Date.parse` also reads free text
 * such as `soon 1` or `in a bit 5` as some date in 2001, which would retry at once.
 */
const IMF_OR_RFC850_DATE =
  /^[a-z]{3,9},\s*\d{1,2}[\s-][a-z]{3}[\s-]\d{2,4}\s+\d{1,2}:\d{2}:\d{2}\s+GMT$/i;
const ASCTIME_DATE = /^[a-z]{3}\s+[a-z]{3}\s+\d{1,2}\s+\d{1,2}:\d{2}:\d{2}\s+\d{4}$/i;

/**
 * Reads a `Retry-After` header: a number of seconds (`"2"`, `"0.5"`) or an HTTP date.
 *
 * @param value - The header's value, or `null` when absent.
 * @param now - The current time in milliseconds since the epoch (for HTTP dates).
 * @returns The wait in milliseconds (never negative), or `undefined` when absent or unreadable:
 * neither a number of seconds nor an HTTP date in one of its three forms.
 */
export function parseRetryAfter(
  value: string | null,
  now: number = Date.now(),
): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  let date: number;
  if (IMF_OR_RFC850_DATE.test(trimmed)) date = Date.parse(trimmed);
  // asctime names no zone, which Date.parse would take for local time.
  else if (ASCTIME_DATE.test(trimmed)) date = Date.parse(`${trimmed} GMT`);
  else return undefined;
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
