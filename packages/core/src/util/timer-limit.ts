/**
 * The longest delay a Node.js timer keeps: 2147483647 ms (2^31 − 1, about 24.8 days). `setTimeout`
 * and `setInterval` run a longer delay after 1 ms instead, with a `TimeoutOverflowWarning`, so a
 * timeout option above it would fire at once. The options that become timers are refused above
 * it, with {@link TIMER_LIMIT_RULE} in the message.
 *
 * @internal
 */
export const MAX_TIMER_MS = 0x7fffffff;

/**
 * What an option that becomes a timer must be at most, worded to follow "must be".
 *
 * @internal
 */
export const TIMER_LIMIT_RULE = `at most ${MAX_TIMER_MS} ms (about 24.8 days), the longest delay a Node.js timer keeps`;
