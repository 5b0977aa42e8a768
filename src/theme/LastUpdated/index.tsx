/**
 * The "Last updated" line under a docs page: the theme's markup and translation ids, with the
 * date written by ./english-date.ts for this site's locale instead of by a new
 * Intl.DateTimeFormat, whose first use stalled the page's hydration (see that module). Any
 * other locale still goes through Intl.
 * Ejected with: npm run swizzle @docusaurus/theme-classic LastUpdated -- --eject
 */
import React, { type ReactNode } from 'react';
import Translate from '@docusaurus/Translate';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import { ThemeClassNames } from '@docusaurus/theme-common';
import type { Props } from '@theme/LastUpdated';
import { formatEnglishUtcDate, LAST_UPDATED_DATE_FORMAT, writesDatesFor } from './english-date';

function useFormattedDate(date: Date): string {
  const {
    i18n: { currentLocale, localeConfigs },
  } = useDocusaurusContext();
  const calendar = localeConfigs[currentLocale]?.calendar ?? 'gregory';
  if (writesDatesFor(currentLocale, calendar)) {
    return formatEnglishUtcDate(date);
  }
  return new Intl.DateTimeFormat(currentLocale, { calendar, ...LAST_UPDATED_DATE_FORMAT }).format(
    date,
  );
}

function AtDate({ lastUpdatedAt }: { lastUpdatedAt: number }): ReactNode {
  const date = new Date(lastUpdatedAt);
  const formatted = useFormattedDate(date);
  return (
    <Translate
      id="theme.lastUpdated.atDate"
      description="The words used to describe on which date a page has been last updated"
      values={{
        date: (
          <b>
            <time dateTime={date.toISOString()} itemProp="dateModified">
              {formatted}
            </time>
          </b>
        ),
      }}
    >
      {' on {date}'}
    </Translate>
  );
}

function ByUser({ lastUpdatedBy }: { lastUpdatedBy: string }): ReactNode {
  return (
    <Translate
      id="theme.lastUpdated.byUser"
      description="The words used to describe by who the page has been last updated"
      values={{ user: <b>{lastUpdatedBy}</b> }}
    >
      {' by {user}'}
    </Translate>
  );
}

export default function LastUpdated({ lastUpdatedAt, lastUpdatedBy }: Props): ReactNode {
  return (
    <span className={ThemeClassNames.common.lastUpdated}>
      <Translate
        id="theme.lastUpdated.lastUpdatedAtBy"
        description="The sentence used to display when a page has been last updated, and by who"
        values={{
          atDate: lastUpdatedAt ? <AtDate lastUpdatedAt={lastUpdatedAt} /> : '',
          byUser: lastUpdatedBy ? <ByUser lastUpdatedBy={lastUpdatedBy} /> : '',
        }}
      >
        {'Last updated{atDate}{byUser}'}
      </Translate>
    </span>
  );
}
