/**
 * Code tokens' colours come from stylesheet rules generated from the site's code theme
 * (src/plugins/prism-token-css, src/theme/CodeBlock/Content/token-stylesheet.ts): the rules plus
 * what the highlighter leaves inline give every token exactly the style Prism would have put on it.
 */
import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Highlight, themes, type PrismTheme, type TokenOutputProps } from 'prism-react-renderer';
import { describe, expect, it } from 'vitest';
import { codeTheme } from '../../src/config/prism';
import { prismTokenCss } from '../../src/plugins/prism-token-css';
import {
  inlineStyleLeft,
  lineStyleLeft,
  styleFromRules,
  tokenRules,
} from '../../src/theme/CodeBlock/Content/token-stylesheet';

/** prism-react-renderer's own style for a token of these types, from its getTokenProps. */
function prismStyle(theme: PrismTheme, types: string[]): TokenOutputProps['style'] {
  let style: TokenOutputProps['style'];
  renderToStaticMarkup(
    createElement(Highlight, {
      theme,
      code: 'x',
      language: 'ts',
      children: ({ getTokenProps }): ReactNode => {
        style = getTokenProps({ token: { types, content: 'x' } }).style;
        return null;
      },
    }),
  );
  return style;
}

/** The style a token ends with: the stylesheet's rules, then its inline style on top. */
function finalStyle(theme: PrismTheme, types: string[]): Record<string, unknown> {
  const rules = tokenRules(theme);
  return {
    ...styleFromRules(types, rules),
    ...inlineStyleLeft(prismStyle(theme, types), types, rules),
  };
}

describe('code token colours as stylesheet rules', () => {
  it('writes one rule per token type with the theme colours, the site lightening included', () => {
    const css = prismTokenCss({ prism: { theme: codeTheme, darkTheme: codeTheme } });
    expect(css).toContain('.token.comment{color:hsl(220, 12%, 62%)}');
    expect(css).toContain('.token.keyword{color:hsl(286, 60%, 67%)}');
    // Two entries of the theme style `important`: their declarations are merged, the later colour wins.
    expect(css).toContain('.token.important{color:hsl(220, 14%, 71%);font-weight:bold}');
    expect(css).not.toContain('.token.plain');
  });

  it('leaves nothing inline for a token of one type', () => {
    const rules = tokenRules(codeTheme);
    for (const { type } of rules) {
      expect(inlineStyleLeft(prismStyle(codeTheme, [type]), [type], rules), type).toBeUndefined();
      expect(finalStyle(codeTheme, [type]), type).toEqual(prismStyle(codeTheme, [type]));
    }
  });

  it('gives every pair of types, in either order, Prism style, keeping inline only what the rules get wrong [claim:contributing-token-colours-rules]', () => {
    const types = tokenRules(codeTheme).map((rule) => rule.type);
    let keptInline = 0;
    for (const outer of types) {
      for (const inner of types) {
        const pair = [outer, inner];
        expect(finalStyle(codeTheme, pair), pair.join(' ')).toEqual(prismStyle(codeTheme, pair));
        if (inlineStyleLeft(prismStyle(codeTheme, pair), pair, tokenRules(codeTheme))) keptInline++;
      }
    }
    // Conflicting pairs exist (keyword inside a string, say) and must keep their colour inline.
    expect(keptInline).toBeGreaterThan(0);
  });

  it('drops a line style that only repeats what the line inherits from its <pre>', () => {
    expect(
      lineStyleLeft({ color: 'red', textShadow: 'none', backgroundColor: undefined }),
    ).toBeUndefined();
    expect(lineStyleLeft({ color: 'red', display: 'block' })).toEqual({
      color: 'red',
      display: 'block',
    });
  });

  it('refuses a dark code theme other than the light one, and per-language entries [claim:contributing-token-colours-dark-theme]', () => {
    expect(() => prismTokenCss({ prism: { theme: codeTheme, darkTheme: themes.github } })).toThrow(
      /darkTheme differs from prism\.theme/,
    );
    const perLanguage: PrismTheme = {
      ...codeTheme,
      styles: [{ types: ['keyword'], languages: ['ts'], style: { color: 'red' } }],
    };
    expect(() => tokenRules(perLanguage)).toThrow(/for some languages only \(ts\)/);
  });
});
