/**
 * The theme's code-block content, ejected so that hydrating a page keeps the server's highlighted
 * HTML instead of highlighting the code again. To hydrate a block the theme runs Prism over its
 * code and matches one element per token against the server's HTML: on the Getting started
 * page, 3,300 of the 4,700 elements are token spans, most of the main thread's blocking time.
 * A block that mounts during hydration renders its <code> as opaque HTML, which React leaves as
 * the server sent it; a block that mounts later (after a client-side navigation) is highlighted
 * as usual. Ejected with: npm run swizzle @docusaurus/theme-classic CodeBlock/Content -- --eject
 */
import React, { useState, type ComponentProps, type ReactNode } from 'react';
import clsx from 'clsx';
import { useCodeBlockContext } from '@docusaurus/theme-common/internal';
import { usePrismTheme } from '@docusaurus/theme-common';
import { Highlight } from 'prism-react-renderer';
import Line from '@theme/CodeBlock/Line';
import styles from '@docusaurus/theme-classic/lib/theme/CodeBlock/Content/styles.module.css';
import { isHydrating } from '@site/src/plugins/lean-client/hydration';

/** The server's token markup, kept as it is; the empty string never differs between renders. */
const SERVER_HTML = { __html: '' };

function Code(props: ComponentProps<'code'>): ReactNode {
  const { metadata } = useCodeBlockContext();
  return (
    <code
      {...props}
      className={clsx(
        props.className,
        styles.codeBlockLines,
        metadata.lineNumbersStart !== undefined && styles.codeBlockLinesWithNumbering,
      )}
      style={{
        ...props.style,
        counterReset:
          metadata.lineNumbersStart === undefined
            ? undefined
            : `line-count ${metadata.lineNumbersStart - 1}`,
      }}
    />
  );
}

export default function CodeBlockContent({ className }: { className?: string }): ReactNode {
  const { metadata, wordWrap } = useCodeBlockContext();
  const prismTheme = usePrismTheme();
  // Decided once per block: it keeps the server's HTML for as long as it stays mounted.
  const [keepServerHtml] = useState(isHydrating);
  const { code, language, lineNumbersStart, lineClassNames } = metadata;
  return (
    <Highlight theme={prismTheme} code={keepServerHtml ? '' : code} language={language}>
      {({ className: prismClassName, style, tokens: lines, getLineProps, getTokenProps }) => (
        <pre
          ref={wordWrap.codeBlockRef}
          tabIndex={0}
          className={clsx(className, prismClassName, styles.codeBlock, 'thin-scrollbar')}
          style={style}
        >
          {keepServerHtml ? (
            <Code dangerouslySetInnerHTML={SERVER_HTML} suppressHydrationWarning />
          ) : (
            <Code>
              {lines.map((line, i) => (
                <Line
                  key={i}
                  line={line}
                  getLineProps={getLineProps}
                  getTokenProps={getTokenProps}
                  classNames={lineClassNames[i]}
                  showLineNumbers={lineNumbersStart !== undefined}
                />
              ))}
            </Code>
          )}
        </pre>
      )}
    </Highlight>
  );
}
