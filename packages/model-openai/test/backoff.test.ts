import { describe, expect, it } from 'vitest';
import { parseRetryAfter, retryDelayMs, sleep } from '../src/backoff.js';

describe('parseRetryAfter', () => {
  it('reads seconds, including fractions [claim:oai-backoff]', () => {
    expect(parseRetryAfter('0')).toBe(0);
    expect(parseRetryAfter('2')).toBe(2_000);
    expect(parseRetryAfter(' 1.5 ')).toBe(1_500);
  });

  it('reads an HTTP date relative to now [claim:oai-backoff] [claim:oai-retry-after]', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0);
    // The two other forms an HTTP date may take; asctime's names no zone and is GMT all the same.
    expect(parseRetryAfter('Wednesday, 01-Jan-25 00:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Wed Jan  1 00:00:05 2025', now)).toBe(5_000);
  });

  it('ignores free text that Date.parse would read as some date, so the backoff applies [claim:oai-retry-after]', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    for (const value of ['soon 1', 'in a bit 5', 'tomorrow 12', 'x 2030', '1 minute']) {
      expect(parseRetryAfter(value, now)).toBeUndefined();
    }
  });

  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('')).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter('-1')).toBeUndefined();
  });
});

describe('retryDelayMs', () => {
  it('doubles per attempt, with jitter between half and all of the wait [claim:mpo-backoff] [claim:mpo-backoff-base] [claim:oai-backoff] [claim:oai-offers-retries]', () => {
    expect(retryDelayMs(1, 500, undefined, () => 0)).toBe(250);
    expect(retryDelayMs(1, 500, undefined, () => 0.999999)).toBe(500);
    expect(retryDelayMs(2, 500, undefined, () => 0.999999)).toBe(1_000);
    expect(retryDelayMs(3, 500, undefined, () => 0)).toBe(1_000);
  });

  it('honours Retry-After, and caps every wait [claim:mpo-backoff] [claim:mpo-backoff-base] [claim:mpo-wait-cap] [claim:oai-backoff] [claim:oai-retry-after]', () => {
    expect(retryDelayMs(1, 500, 0)).toBe(0);
    expect(retryDelayMs(1, 500, 7_000)).toBe(7_000);
    // The README states the cap as 10 s: the figure, not the constant, so changing one fails.
    expect(retryDelayMs(1, 500, 3_600_000)).toBe(10_000);
    expect(retryDelayMs(20, 500, undefined, () => 0.999999)).toBe(10_000);
  });
});

describe('sleep', () => {
  it('resolves true after the wait, false when the signal fires', async () => {
    await expect(sleep(1)).resolves.toBe(true);
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    controller.abort();
    await expect(pending).resolves.toBe(false);
    await expect(sleep(1, AbortSignal.abort())).resolves.toBe(false);
  });
});
