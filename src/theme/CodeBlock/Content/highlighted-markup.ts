/**
 * A code block's lines, highlighted by Prism, as one HTML string: the markup the server render
 * puts in every page and the browser sets after a client-side navigation (./HighlightedLines.tsx).
 *
 * The theme renders a React element per line and per token (prism-react-renderer's `Highlight`,
 * the theme's `Line` and `Line/Token`). Nothing on those elements is interactive to React: the
 * hover types are CSS only, and a hydrating page keeps the server's markup as it is (./index.tsx).
 * Built as a string, a block costs its tokenising and one string instead of thousands of elements
 * for React to create and serialise: on a code-heavy page, most of the static render's time.
 *
 * The markup is the one those components render, with the same classes and attributes:
 * - a line is `<div class="token-line">` (plus its magic-comment classes, and the theme's line
 *   classes with line numbers), ending in a `<br/>` so an empty line keeps its height; a line that
 *   is only a line break holds an empty token instead (as the theme's `Line` does, so that diff
 *   blocks keep their empty lines' height);
 * - a token is `<span class="token <its types>">`, with an inline style only for what the token
 *   stylesheet does not give it (./token-stylesheet.ts);
 * - plain text is bare: a `<span class="token plain">` would carry nothing, the <pre> gives plain
 *   text its colours, and such spans were almost a third of a code-heavy page's elements;
 * - an identifier with a type (../../../remark/type-hovers) is one span that takes keyboard focus
 *   and carries the type in `data-type`, from which the stylesheet (src/css/custom.css, "Hover
 *   types") draws the popup, and in `aria-description`, which screen readers announce. A popup
 *   element per identifier would be in the page whether read or not: over a thousand hidden
 *   elements on a code-heavy page.
 */
import type { CSSProperties } from 'react';
import { normalizeTokens, Prism, type PrismTheme, type Token } from 'prism-react-renderer';
import lineStyles from '@docusaurus/theme-classic/lib/theme/CodeBlock/Line/styles.module.css';
import { decodeTypeHovers } from '../../../remark/type-hovers/encoding';
import './prism-languages';
import { withTypeHovers, type TypeHoverToken } from './type-hover-tokens';
import {
  cssDeclarations,
  inlineStyleLeft,
  lineStyleLeft,
  tokenRules,
  type TokenRule,
} from './token-stylesheet';

export interface HighlightedMarkupOptions {
  code: string;
  language: string;
  theme: PrismTheme;
  /** Classes per line (0-based), from the block's magic comments. */
  lineClassNames: Record<number, string[]>;
  showLineNumbers: boolean;
  /** The identifiers' types, encoded (src/remark/type-hovers/encoding.ts), if the block has them. */
  typeHovers?: string | undefined;
}

/** Prism's tokens for the code, one array per line, as prism-react-renderer's `Highlight` makes them. */
function tokenize(code: string, language: string): Token[][] {
  const grammar = Prism.languages[language];
  if (grammar === undefined) return normalizeTokens([code]);
  const environment: Prism.hooks.RequiredEnvironment<'code' | 'grammar' | 'language'> & {
    tokens: (string | Prism.Token)[];
  } = { code, grammar, language, tokens: [] };
  Prism.hooks.run('before-tokenize', environment);
  environment.tokens = Prism.tokenize(code, grammar);
  Prism.hooks.run('after-tokenize', environment);
  return normalizeTokens(environment.tokens);
}

const ESCAPED: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
};

/** Text or an attribute value made safe to put in HTML (the characters React escapes). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPED[character] ?? character);
}

function attribute(name: string, value: string | undefined): string {
  return value === undefined || value === '' ? '' : ` ${name}="${escapeHtml(value)}"`;
}

function styleAttribute(style: CSSProperties | undefined): string {
  return style === undefined ? '' : attribute('style', cssDeclarations(style));
}

/**
 * The style prism-react-renderer gives a token (its `getTokenProps`): its types' theme styles
 * merged, `display: inline-block` for an empty line's token, and nothing for plain text.
 */
function prismTokenStyle(
  { types, empty }: Token,
  styleByType: ReadonlyMap<string, CSSProperties>,
): CSSProperties | undefined {
  const emptyLine = empty === undefined ? {} : { display: 'inline-block' };
  if (types.length === 1 && types[0] === 'plain') {
    return empty === undefined ? undefined : emptyLine;
  }
  if (types.length === 1 && empty !== undefined) return styleByType.get(types[0] ?? '');
  return Object.assign(emptyLine, ...types.map((type) => styleByType.get(type)));
}

/**
 * What the markup of a theme's tokens needs, made once per theme: the token rules, and the
 * inline style attribute of each kind of token (its types and whether it stands for an empty
 * line), which is the same for every token of that kind.
 */
interface ThemeMarkup {
  rules: readonly TokenRule[];
  styleByType: ReadonlyMap<string, CSSProperties>;
  lineStyle: string;
  tokenStyles: Map<string, string>;
}

const markupByTheme = new WeakMap<PrismTheme, ThemeMarkup>();

function themeMarkup(theme: PrismTheme): ThemeMarkup {
  let markup = markupByTheme.get(theme);
  if (markup === undefined) {
    const rules = tokenRules(theme);
    markup = {
      rules,
      styleByType: new Map(rules.map((rule) => [rule.type, rule.style])),
      lineStyle: styleAttribute(lineStyleLeft({ ...theme.plain, backgroundColor: undefined })),
      tokenStyles: new Map(),
    };
    markupByTheme.set(theme, markup);
  }
  return markup;
}

/** A token's inline style attribute ('' for none), from the theme's cache of token kinds. */
function tokenStyle(token: TypeHoverToken, markup: ThemeMarkup): string {
  const kind = token.empty === undefined ? token.types.join(' ') : `${token.types.join(' ')}|empty`;
  let style = markup.tokenStyles.get(kind);
  if (style === undefined) {
    style = styleAttribute(
      inlineStyleLeft(prismTokenStyle(token, markup.styleByType), token.types, markup.rules),
    );
    markup.tokenStyles.set(kind, style);
  }
  return style;
}

function tokenMarkup(token: TypeHoverToken, markup: ThemeMarkup): string {
  const style = tokenStyle(token, markup);
  const content = escapeHtml(token.content);
  const bare = token.types.length === 1 && token.types[0] === 'plain' && style === '';
  // An identifier TypeScript gives no type text (`meta` in `import.meta`) gets no popup: a focus
  // stop that announces nothing would only cost keyboard readers a Tab.
  const hover = token.typeHover?.text ? token.typeHover : undefined;
  if (hover === undefined && bare) return content;
  const typeClasses = ['token', ...token.types].join(' ');
  const className =
    hover === undefined ? typeClasses : bare ? 'weft-type-hover' : `${typeClasses} weft-type-hover`;
  const hoverAttributes =
    hover === undefined
      ? ''
      : ` tabindex="0"${attribute('data-type', hover.text)}${attribute('aria-description', hover.text)}`;
  return `<span${attribute('class', className)}${style}${hoverAttributes}>${content}</span>`;
}

/** A line that is only a line break holds an empty token, as the theme's `Line` renders it. */
function withoutLoneLineBreak(line: readonly TypeHoverToken[]): readonly TypeHoverToken[] {
  const only = line.length === 1 ? line[0] : undefined;
  return only?.content === '\n' ? [{ ...only, content: '' }] : line;
}

export function highlightedMarkup({
  code,
  language,
  theme,
  lineClassNames,
  showLineNumbers,
  typeHovers,
}: HighlightedMarkupOptions): string {
  const markup = themeMarkup(theme);
  const tokens = tokenize(code, language.toLowerCase());
  const hovers = typeHovers === undefined ? [] : decodeTypeHovers(typeHovers);
  const lines = hovers.length > 0 ? withTypeHovers(tokens, hovers) : tokens;
  return lines
    .map((line, index) => {
      const classes = [
        'token-line',
        ...(lineClassNames[index] ?? []),
        ...(showLineNumbers ? [lineStyles.codeLine] : []),
      ].join(' ');
      const content = withoutLoneLineBreak(line)
        .map((token) => tokenMarkup(token, markup))
        .join('');
      const numbered = showLineNumbers
        ? `<span class="${lineStyles.codeLineNumber}"></span><span class="${lineStyles.codeLineContent}">${content}</span>`
        : content;
      return `<div${attribute('class', classes)}${markup.lineStyle}>${numbered}<br/></div>`;
    })
    .join('');
}
