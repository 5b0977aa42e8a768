/**
 * A code block's <code>, filled with its lines highlighted by Prism (./highlighted-markup.ts).
 * This module and Prism (with its languages) load only when a block has to be highlighted: on
 * the server, and in the browser for a block whose highlighted markup the page does not already
 * hold (./index.tsx).
 */
import React, { useMemo, type ReactNode } from 'react';
import Code from './code';
import { highlightedMarkup, type HighlightedMarkupOptions } from './highlighted-markup';

export type HighlightedLinesProps = HighlightedMarkupOptions;

export default function HighlightedLines({
  code,
  language,
  theme,
  lineClassNames,
  showLineNumbers,
  typeHovers,
}: HighlightedLinesProps): ReactNode {
  const html = useMemo(
    () => highlightedMarkup({ code, language, theme, lineClassNames, showLineNumbers, typeHovers }),
    [code, language, theme, lineClassNames, showLineNumbers, typeHovers],
  );
  return <Code dangerouslySetInnerHTML={{ __html: html }} />;
}
