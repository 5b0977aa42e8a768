/**
 * A date as Intl.DateTimeFormat writes it in English with LAST_UPDATED_DATE_FORMAT ("Nov 23,
 * 2026"), without creating that formatter: the first Intl formatter a page creates loads the
 * browser's ICU date data, 50–60 ms of main-thread work on a phone-speed CPU, and the theme's
 * "Last updated" line did it while the page hydrated. tests/unit/last-updated-date.test.ts holds
 * this to Intl's output.
 */

/** How the "Last updated" line writes its date, as Intl.DateTimeFormat options. */
export const LAST_UPDATED_DATE_FORMAT: Intl.DateTimeFormatOptions = {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
};

const SHORT_MONTHS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const;

/** Locales whose dates this module writes; any other goes through Intl. */
export function writesDatesFor(locale: string, calendar: string): boolean {
  return (locale === 'en' || locale === 'en-US') && calendar === 'gregory';
}

export function formatEnglishUtcDate(date: Date): string {
  return `${SHORT_MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
}
