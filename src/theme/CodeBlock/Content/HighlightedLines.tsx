/**
 * The lines of a code block, highlighted by Prism. This module and Prism (with its languages)
 * load only when a block has to be highlighted: on the server, and in the browser for a block
 * whose highlighted markup the page does not already hold (./index.tsx).
 *
 * Token colours come from the stylesheet (src/plugins/prism-token-css): tokens and lines keep
 * inline only the part of Prism's style that its rules do not give them (./token-stylesheet.ts).
 */
import React, { useMemo, type ReactNode } from 'react';
import type {
  LineInputProps,
  LineOutputProps,
  PrismTheme,
  TokenInputProps,
  TokenOutputProps,
} from 'prism-react-renderer';
import { Highlight } from 'prism-react-renderer';
import Line from '@theme/CodeBlock/Line';
import { decodeTypeHovers } from '@site/src/remark/type-hovers/encoding';
import './prism-languages';
import { withTypeHovers } from './type-hover-tokens';
import { inlineStyleLeft, lineStyleLeft, tokenRules, type TokenRule } from './token-stylesheet';

export interface HighlightedLinesProps {
  code: string;
  language: string;
  theme: PrismTheme;
  lineClassNames: Record<number, string[]>;
  showLineNumbers: boolean;
  /** The identifiers' types, encoded (src/remark/type-hovers/encoding.ts), if the block has them. */
  typeHovers?: string | undefined;
}

type GetLineProps = (input: LineInputProps) => LineOutputProps;
type GetTokenProps = (input: TokenInputProps) => TokenOutputProps;

function withoutInheritedLineStyle(getLineProps: GetLineProps): GetLineProps {
  return (input) => {
    const props = getLineProps(input);
    return { ...props, style: lineStyleLeft(props.style) };
  };
}

function withoutRuleStyle(
  getTokenProps: GetTokenProps,
  rules: readonly TokenRule[],
): GetTokenProps {
  return (input) => {
    const props = getTokenProps(input);
    return { ...props, style: inlineStyleLeft(props.style, input.token.types, rules) };
  };
}

export default function HighlightedLines({
  code,
  language,
  theme,
  lineClassNames,
  showLineNumbers,
  typeHovers,
}: HighlightedLinesProps): ReactNode {
  const hovers = useMemo(
    () => (typeHovers === undefined ? [] : decodeTypeHovers(typeHovers)),
    [typeHovers],
  );
  const rules = useMemo(() => tokenRules(theme), [theme]);
  return (
    <Highlight theme={theme} code={code} language={language}>
      {({ tokens, getLineProps, getTokenProps }) => {
        const lineProps = withoutInheritedLineStyle(getLineProps);
        const tokenProps = withoutRuleStyle(getTokenProps, rules);
        return (hovers.length > 0 ? withTypeHovers(tokens, hovers) : tokens).map((line, i) => (
          <Line
            key={i}
            line={line}
            getLineProps={lineProps}
            getTokenProps={tokenProps}
            classNames={lineClassNames[i]}
            showLineNumbers={showLineNumbers}
          />
        ));
      }}
    </Highlight>
  );
}
