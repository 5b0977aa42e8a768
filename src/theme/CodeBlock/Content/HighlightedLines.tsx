/**
 * The lines of a code block, highlighted by Prism. This module and Prism (with its languages)
 * load only when a block has to be highlighted: on the server, and in the browser for a block
 * whose highlighted markup the page does not already hold (./index.tsx).
 */
import React, { type ReactNode } from 'react';
import type { PrismTheme } from 'prism-react-renderer';
import { Highlight } from 'prism-react-renderer';
import Line from '@theme/CodeBlock/Line';
import './prism-languages';

export interface HighlightedLinesProps {
  code: string;
  language: string;
  theme: PrismTheme;
  lineClassNames: Record<number, string[]>;
  showLineNumbers: boolean;
}

export default function HighlightedLines({
  code,
  language,
  theme,
  lineClassNames,
  showLineNumbers,
}: HighlightedLinesProps): ReactNode {
  return (
    <Highlight theme={theme} code={code} language={language}>
      {({ tokens: lines, getLineProps, getTokenProps }) =>
        lines.map((line, i) => (
          <Line
            key={i}
            line={line}
            getLineProps={getLineProps}
            getTokenProps={getTokenProps}
            classNames={lineClassNames[i]}
            showLineNumbers={showLineNumbers}
          />
        ))
      }
    </Highlight>
  );
}
