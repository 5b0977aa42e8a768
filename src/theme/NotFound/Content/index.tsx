/**
 * Wraps the theme's not-found content (heading and text unchanged) to add the
 * places a lost reader most likely wanted: docs, API reference, plugins, search.
 * Swizzled with: npm run swizzle @docusaurus/theme-classic NotFound/Content -- --wrap --typescript
 */
import type { ReactNode } from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import Content from '@theme-original/NotFound/Content';
import type ContentType from '@theme/NotFound/Content';
import type { WrapperProps } from '@docusaurus/types';
import { notFoundDestinations } from '@site/src/data/not-found';
import styles from './styles.module.css';

type Props = WrapperProps<typeof ContentType>;

export default function ContentWrapper(props: Props): ReactNode {
  return (
    <>
      <Content {...props} className={clsx(props.className, styles.content)} />
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
