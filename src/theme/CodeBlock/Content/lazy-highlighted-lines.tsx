/**
 * The highlighted <code> as the browser loads it: in its own chunk, with Prism, when the reader first
 * navigates (src/plugins/lean-client/hydration.ts starts the download with the next page's
 * chunks) or a block first needs it. The plain code shows while it loads.
 *
 * The server bundle gets ./HighlightedLines.tsx itself in place of this module
 * (src/plugins/lean-client): every page's HTML holds its highlighted code, and no Suspense
 * boundary, which React's server render would move out of place (with an inline script to put
 * it back) once a page passes its progressive chunk size.
 */
import React, { lazy, Suspense, type ReactNode } from 'react';
import Code from './code';
import type { HighlightedLinesProps } from './HighlightedLines';

const HighlightedLines = lazy(() => import('./HighlightedLines'));

export default function LazyHighlightedLines(props: HighlightedLinesProps): ReactNode {
  return (
    <Suspense fallback={<Code>{props.code}</Code>}>
      <HighlightedLines {...props} />
    </Suspense>
  );
}
