/**
 * The assistant links of the copy-page bar, in a chunk of their own that the bar loads after
 * the page has hydrated: they are not needed for a first paint or a first tap, and every byte
 * before hydration counts against the page's budget (tests/build/javascript-budget.test.ts).
 */
import type { ReactNode } from 'react';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import { CHAT_LINKS, chatUrl, CURSOR_INSTALL_URL } from './assistant-links';
import styles from './styles.module.css';

export default function AssistantLinks({ markdownPath }: { markdownPath: string }): ReactNode {
  // The assistants fetch the copy from the public site, so their prompt needs its full address.
  const markdownUrl = `${useDocusaurusContext().siteConfig.url}${markdownPath}`;
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
      <a className={styles.button} href={CURSOR_INSTALL_URL}>
        Add docs to Cursor
      </a>
    </>
  );
}
