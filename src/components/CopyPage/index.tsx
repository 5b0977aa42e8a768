/**
 * "Copy page": copies the page's Markdown copy to the clipboard, and links to that copy, to new
 * ChatGPT and Claude chats about it, and to Cursor's set-up of the docs MCP server.
 *
 * The Markdown is fetched on click, not shipped with the page, so the control costs a few hundred
 * bytes of script; the copies are in the offline precache, so it works offline too. The copy is
 * handed to the clipboard as a pending ClipboardItem where the browser supports it, so Safari,
 * which requires the clipboard call to happen in the click itself, accepts it.
 */
import { useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { useLocation } from '@docusaurus/router';
import { markdownCopyPath } from './markdown-path';
import styles from './styles.module.css';

/** How long the copy may take before the reader is told it failed. */
const FETCH_TIMEOUT_MS = 10_000;

type Status = 'idle' | 'copied' | 'failed';

const statusText: Record<Status, string> = {
  idle: '',
  copied: 'Copied',
  failed: 'Could not copy the page',
};

async function fetchMarkdown(url: string): Promise<Blob> {
  const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!response.ok) {
    throw new Error(`${url}: HTTP ${response.status}`);
  }
  return new Blob([await response.text()], { type: 'text/plain' });
}

async function copyToClipboard(url: string): Promise<void> {
  if (typeof ClipboardItem !== 'undefined' && navigator.clipboard.write) {
    await navigator.clipboard.write([new ClipboardItem({ 'text/plain': fetchMarkdown(url) })]);
    return;
  }
  await navigator.clipboard.writeText(await (await fetchMarkdown(url)).text());
}

export default function CopyPage(): ReactNode {
  const markdownUrl = markdownCopyPath(useLocation().pathname);
  const [status, setStatus] = useState<Status>('idle');
  const [AssistantLinks, setAssistantLinks] = useState<ComponentType<{
    markdownPath: string;
  }> | null>(null);

  // The assistant links come after hydration, from their own chunk (see AssistantLinks.tsx).
  // Offline with the chunk missing from the cache, the bar simply goes without them.
  useEffect(() => {
    import('./AssistantLinks').then(
      (module) => setAssistantLinks(() => module.default),
      () => undefined,
    );
  }, []);

  const copy = () => {
    setStatus('idle');
    copyToClipboard(markdownUrl).then(
      () => setStatus('copied'),
      () => setStatus('failed'),
    );
  };

  return (
    <div className={styles.copyPage}>
      <span role="status" className={styles.status}>
        {statusText[status]}
      </span>
      <button type="button" className={styles.button} onClick={copy}>
        Copy page
      </button>
      <a className={styles.button} href={markdownUrl} type="text/markdown">
        View as Markdown
      </a>
      {AssistantLinks && <AssistantLinks markdownPath={markdownUrl} />}
    </div>
  );
}
