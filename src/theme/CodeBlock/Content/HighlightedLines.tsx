/**
 * The lines of a code block, highlighted by Prism. This module and Prism (with its languages)
 * load only when a block has to be highlighted: on the server, and in the browser for a block
 * whose highlighted markup the page does not already hold (./index.tsx).
 */
import React, { useId, useMemo, type ReactNode } from 'react';
import type { PrismTheme } from 'prism-react-renderer';
import { Highlight } from 'prism-react-renderer';
import Line from '@theme/CodeBlock/Line';
import { decodeTypeHovers } from '@site/src/remark/type-hovers/encoding';
import './prism-languages';
import { withTypeHovers } from './type-hover-tokens';

export interface HighlightedLinesProps {
  code: string;
  language: string;
  theme: PrismTheme;
  lineClassNames: Record<number, string[]>;
  showLineNumbers: boolean;
  /** The identifiers' types, encoded (src/remark/type-hovers/encoding.ts), if the block has them. */
  typeHovers?: string | undefined;
}

export default function HighlightedLines({
  code,
  language,
  theme,
  lineClassNames,
  showLineNumbers,
  typeHovers,
}: HighlightedLinesProps): ReactNode {
  const idPrefix = `type${useId().replace(/[^\w-]/g, '')}`;
  const hovers = useMemo(
    () => (typeHovers === undefined ? [] : decodeTypeHovers(typeHovers)),
    [typeHovers],
  );
  return (
    <Highlight theme={theme} code={code} language={language}>
      {({ tokens, getLineProps, getTokenProps }) =>
        (hovers.length > 0 ? withTypeHovers(tokens, hovers, idPrefix) : tokens).map((line, i) => (
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
