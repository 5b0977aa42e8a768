/**
 * The theme's code-block content, ejected so that the browser highlights code only when the
 * page does not already hold its highlighted markup, and loads Prism only then.
 *
 * - While the first page hydrates, a block renders its <code> as opaque HTML, which React
 *   leaves as the server sent it: no Prism run, and no matching of one element per token (on the
 *   Getting started page, token spans are more than half the elements). The markup is then
 *   remembered (./rendered-blocks.ts).
 * - A block that mounts again with the same code (the first page, visited again after a
 *   client-side navigation) gets that markup back.
 * - Any other block (after a client-side navigation) is highlighted by ./HighlightedLines.tsx,
 *   which brings Prism and its languages in its own chunk (./lazy-highlighted-lines.ts); the
 *   plain code shows while it loads. The server render highlights every block, with the same
 *   module (./highlighted-markup.ts builds the markup).
 * - Under `npm start` the first page is rendered in the browser, not hydrated: a block that finds
 *   no server markup in its <code> is highlighted by Prism too, instead of staying empty.
 *
 * The <pre>'s class and colours are the ones prism-react-renderer gives it (`prism-code
 * language-…` and the code theme's plain style), computed here so this file needs no Prism.
 * Ejected with: npm run swizzle @docusaurus/theme-classic CodeBlock/Content -- --eject
 */
import React, {
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type ReactNode,
} from 'react';
import clsx from 'clsx';
import { useCodeBlockContext } from '@docusaurus/theme-common/internal';
import { usePrismTheme } from '@docusaurus/theme-common';
import styles from '@docusaurus/theme-classic/lib/theme/CodeBlock/Content/styles.module.css';
import offscreen from './offscreen.module.css';
import Code from './code';
import { isHydrating } from '@site/src/plugins/lean-client/hydration';
import HighlightedLines from './lazy-highlighted-lines';
import type { MetadataWithTypeHovers } from './type-hover-tokens';
import { rememberedMarkup, rememberRenderedCode, renderedBlockKey } from './rendered-blocks';

/** The server's token markup, kept as it is; the empty string never differs between renders. */
const SERVER_MARKUP = { __html: '' };

/** Where a block's markup comes from, decided once, when it mounts. */
type Markup = { from: 'server' } | { from: 'memory'; html: string } | { from: 'prism' };

function markupSource(key: string): Markup {
  if (isHydrating()) {
    return { from: 'server' };
  }
  const html = rememberedMarkup(key);
  return html === undefined ? { from: 'prism' } : { from: 'memory', html };
}

export default function CodeBlockContent({ className }: { className?: string }): ReactNode {
  const {
    metadata,
    wordWrap: { codeBlockRef },
  } = useCodeBlockContext();
  const prismTheme = usePrismTheme();
  const { code, language, lineNumbersStart, lineClassNames, typeHovers } =
    metadata as MetadataWithTypeHovers;
  const key = renderedBlockKey(metadata);
  const [markup, setMarkup] = useState(() => markupSource(key));
  const codeRef = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    if (markup.from !== 'server' || !codeRef.current) return;
    if (!codeRef.current.hasChildNodes() && code !== '') {
      setMarkup({ from: 'prism' });
      return;
    }
    rememberRenderedCode(key, codeRef.current);
  }, [markup, key, code]);
  return (
    <pre
      ref={codeBlockRef}
      tabIndex={0}
      className={clsx(
        className,
        `prism-code language-${language.toLowerCase()}`,
        styles.codeBlock,
        offscreen.renderedWhenNear,
        'thin-scrollbar',
      )}
      style={{ ...prismTheme.plain, '--weft-code-lines': code.split('\n').length } as CSSProperties}
    >
      {markup.from === 'server' && (
        <Code ref={codeRef} dangerouslySetInnerHTML={SERVER_MARKUP} suppressHydrationWarning />
      )}
      {markup.from === 'memory' && <Code dangerouslySetInnerHTML={{ __html: markup.html }} />}
      {markup.from === 'prism' && (
        <HighlightedLines
          code={code}
          language={language}
          theme={prismTheme}
          lineClassNames={lineClassNames}
          showLineNumbers={lineNumbersStart !== undefined}
          typeHovers={typeHovers}
        />
      )}
    </pre>
  );
}
