/**
 * The assistant links of the copy-page bar, in a chunk of their own that the bar loads after
 * the page has hydrated: they are not needed for a first paint or a first tap, and every byte
 * before hydration counts against the page's budget (tests/build/javascript-budget.test.ts).
 */
import type { ReactNode } from 'react';
import useBaseUrl from '@docusaurus/useBaseUrl';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import { CHAT_LINKS, chatUrl, CURSOR_LINK } from './assistant-links';
import styles from './styles.module.css';

export default function AssistantLinks({ markdownPath }: { markdownPath: string }): ReactNode {
  // The assistants fetch the copy from the public site, so their prompt needs its full address.
  const markdownUrl = `${useDocusaurusContext().siteConfig.url}${markdownPath}`;
  const cursorSetup = useBaseUrl(CURSOR_LINK.href);
  return (
    <>
      {CHAT_LINKS.map(([label, start]) => (
        <a
          key={label}
          className={styles.button}
          href={chatUrl(start, markdownUrl)}
          target="_blank"
          rel="noreferrer"
        >
          {label}
        </a>
      ))}
      <a className={styles.button} href={CURSOR_LINK.internal ? cursorSetup : CURSOR_LINK.href}>
        {CURSOR_LINK.label}
      </a>
    </>
  );
}
