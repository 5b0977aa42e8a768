/**
 * A code block's <code>: the theme's line classes, the line-number counter and the word-wrap
 * style, whatever fills it (the server's markup, remembered markup or the highlighter's).
 */
import React, { type ComponentProps, type CSSProperties, type ReactNode } from 'react';
import clsx from 'clsx';
import { useCodeBlockContext } from '@docusaurus/theme-common/internal';
import styles from '@docusaurus/theme-classic/lib/theme/CodeBlock/Content/styles.module.css';

/** How the word-wrap button wraps the code: long words and strings break too, so nothing scrolls. */
const WRAPPED: CSSProperties = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' };

export default function Code(props: ComponentProps<'code'>): ReactNode {
  const { metadata, wordWrap } = useCodeBlockContext();
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
        ...(wordWrap.isEnabled ? WRAPPED : undefined),
        counterReset:
          metadata.lineNumbersStart === undefined
            ? undefined
            : `line-count ${metadata.lineNumbersStart - 1}`,
      }}
    />
  );
}
