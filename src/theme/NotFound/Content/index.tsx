/**
 * Wraps the theme's not-found content (heading and text unchanged) to add the
 * places a lost reader most likely wanted: docs, API reference, plugins, search. Under
 * `npm start`, which leaves the API pages out unless DEV_API_PAGES=true (src/config/api-in-dev.ts),
 * a missing page under /api/ also says why and how to get it.
 * Swizzled with: npm run swizzle @docusaurus/theme-classic NotFound/Content -- --wrap --typescript
 */
import type { ReactNode } from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import { useLocation } from '@docusaurus/router';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import Content from '@theme-original/NotFound/Content';
import type ContentType from '@theme/NotFound/Content';
import type { WrapperProps } from '@docusaurus/types';
import { notFoundDestinations } from '@site/src/data/not-found';
import ApiLeftOutNote from '@site/src/components/ApiLeftOutNote';
import styles from './styles.module.css';

type Props = WrapperProps<typeof ContentType>;

/** The dev server's note on a left-out API page, with what it needs from the page. */
function DevServerApiNote(): ReactNode {
  const { pathname } = useLocation();
  const { siteConfig } = useDocusaurusContext();
  return (
    <ApiLeftOutNote
      pathname={pathname}
      apiPagesLeftOut={siteConfig.customFields?.apiPagesLeftOut}
    />
  );
}

export default function ContentWrapper(props: Props): ReactNode {
  return (
    <>
      <Content {...props} className={clsx(props.className, styles.content)} />
      {/* Only the dev server leaves API pages out: a production bundle drops the note. */}
      {process.env.NODE_ENV === 'development' && <DevServerApiNote />}
      <nav className="container margin-bottom--xl" aria-label="Suggested pages">
        <div className="row">
          <div className="col col--6 col--offset-3">
            <h2 className={styles.heading}>Try one of these</h2>
            <ul className={styles.list}>
              {notFoundDestinations.map((destination) => (
                <li key={destination.to}>
                  <Link to={destination.to}>{destination.label}</Link>
                  <span className={styles.hint}>{destination.hint}</span>
                </li>
              ))}
            </ul>
          </div>
        </div>
      </nav>
    </>
  );
}
