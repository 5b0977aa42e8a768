/**
 * The "Last updated" line writes this site's dates without Intl (src/theme/LastUpdated): its
 * output must stay exactly what Intl.DateTimeFormat writes for the same options, or the page
 * would show a different date format than before.
 */
import { describe, expect, it } from 'vitest';
import {
  formatEnglishUtcDate,
  LAST_UPDATED_DATE_FORMAT,
  writesDatesFor,
} from '../../src/theme/LastUpdated/english-date';

const intl = new Intl.DateTimeFormat('en', { calendar: 'gregory', ...LAST_UPDATED_DATE_FORMAT });

describe('formatEnglishUtcDate', () => {
  it('writes what Intl writes, for every month and day edge from 1970 to 2100', () => {
    const day = 24 * 60 * 60 * 1000;
    const start = Date.UTC(1970, 0, 1);
    const end = Date.UTC(2100, 11, 31);
    let checked = 0;
    // Every 13th day walks through every month and every day of the month; the last
    // millisecond of each of those days checks the UTC boundary.
    for (let time = start; time <= end; time += 13 * day) {
      for (const at of [time, time + day - 1]) {
        const date = new Date(at);
        expect(formatEnglishUtcDate(date)).toBe(intl.format(date));
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(7000);
  });

  it('is used only for English on the Gregorian calendar', () => {
    expect(writesDatesFor('en', 'gregory')).toBe(true);
    expect(writesDatesFor('en-GB', 'gregory')).toBe(false);
    expect(writesDatesFor('fr', 'gregory')).toBe(false);
    expect(writesDatesFor('en', 'buddhist')).toBe(false);
  });
});
