import * as z from 'zod';
import { MAX_TIMER_MS, TIMER_LIMIT_RULE } from './timer-limit.js';

/**
 * The schema of an option that becomes a timer's delay: a positive integer of milliseconds, at
 * most {@link MAX_TIMER_MS}, since Node.js runs a longer timer after 1 ms.
 *
 * @internal
 */
export const timerMilliseconds = z
  .number()
  .int()
  .positive()
  .max(MAX_TIMER_MS, {
    error: (issue) => `must be ${TIMER_LIMIT_RULE}, got ${String(issue.input)}`,
  });
