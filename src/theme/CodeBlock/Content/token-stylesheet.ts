/**
 * Code tokens' colours as stylesheet rules instead of a `style` attribute on every token.
 *
 * prism-react-renderer gives each token an inline style merged from the code theme's entries for
 * the token's types. On Getting started that was about 3,400 `style="color:…"` attributes
 * (137 KB of HTML) repeating a dozen colours. The site's stylesheet now holds one rule per token
 * type, generated from the same theme object the site config gives Docusaurus
 * (src/plugins/prism-token-css), and the highlighter (./highlighted-markup.ts) leaves out of a
 * token's inline style what those rules already give it.
 *
 * Both sides use the same rules from this module, so what is left inline is exactly what the
 * rules cannot express: a token whose types set one property to two values, where Prism lets the
 * later type win and the stylesheet the later rule. Such a token keeps that property inline.
 */
import type { CSSProperties } from 'react';
import type { PrismTheme } from 'prism-react-renderer';

type TokenStyle = CSSProperties;

/** One token type and the style the theme gives it: a rule `.token.<type> { … }`. */
export interface TokenRule {
  type: string;
  style: TokenStyle;
}

/**
 * The theme's style per token type, merged across its entries as prism-react-renderer's
 * dictionary does (src/utils/themeToDict.ts there), in the order the types first appear, which is
 * the rules' order in the stylesheet. `plain` is left out: Prism gives plain text no token style
 * (the <pre> carries the plain colours).
 */
export function tokenRules(theme: PrismTheme): TokenRule[] {
  const byType = new Map<string, TokenStyle>();
  for (const entry of theme.styles) {
    if (entry.languages !== undefined) {
      throw new Error(
        `token-stylesheet: the code theme styles ${entry.types.join(', ')} for some languages only (${entry.languages.join(', ')}); per-language token rules are not generated. Add them to src/theme/CodeBlock/Content/token-stylesheet.ts or drop the entry's \`languages\`.`,
      );
    }
    for (const type of entry.types) {
      if (type !== 'plain') byType.set(type, { ...byType.get(type), ...entry.style });
    }
  }
  return [...byType].map(([type, style]) => ({ type, style }));
}

/** `textShadow` → `text-shadow`. */
function cssProperty(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** A style's declarations as CSS text (`color:#abc;font-style:italic`), unset entries left out. */
export function cssDeclarations(style: TokenStyle): string {
  return Object.entries(style)
    .filter(([, value]) => value !== undefined && value !== null && value !== '')
    .map(([name, value]) => `${cssProperty(name)}:${String(value)}`)
    .join(';');
}

/** The stylesheet for the rules, one rule per type. */
export function tokenStylesheet(rules: readonly TokenRule[]): string {
  return rules
    .map(({ type, style }) => {
      const declarations = cssDeclarations(style);
      if (!/^[\w-]+$/.test(type)) {
        throw new Error(
          `token-stylesheet: the code theme names a token type "${type}" that is not a plain class name.`,
        );
      }
      return `.token.${type}{${declarations}}`;
    })
    .join('\n');
}

/** The style the rules give a token of these types: later rules win, as in the cascade. */
export function styleFromRules(types: readonly string[], rules: readonly TokenRule[]): TokenStyle {
  const style: Record<string, unknown> = {};
  for (const rule of rules) {
    if (types.includes(rule.type)) Object.assign(style, rule.style);
  }
  return style as TokenStyle;
}

/**
 * What of Prism's inline style for a token the rules do not already give it, or undefined when
 * they give all of it.
 */
export function inlineStyleLeft(
  prismStyle: TokenStyle | undefined,
  types: readonly string[],
  rules: readonly TokenRule[],
): TokenStyle | undefined {
  if (prismStyle === undefined) return undefined;
  const fromRules = styleFromRules(types, rules) as Record<string, unknown>;
  const left = Object.entries(prismStyle).filter(
    ([name, value]) => value !== undefined && fromRules[name] !== value,
  );
  return left.length === 0 ? undefined : (Object.fromEntries(left) as TokenStyle);
}

/** CSS properties a line inherits from its <pre> when it has no style of its own. */
const INHERITED = new Set(['color', 'textShadow', 'fontStyle', 'fontWeight', 'fontFamily']);

/**
 * A line's inline style: prism-react-renderer gives every line the theme's plain style without
 * its background, which is what the line inherits from the <pre> (./index.tsx sets the
 * plain style there). Kept only if it holds something the line would not inherit.
 */
export function lineStyleLeft(lineStyle: TokenStyle | undefined): TokenStyle | undefined {
  if (lineStyle === undefined) return undefined;
  const set = Object.entries(lineStyle).filter(([, value]) => value !== undefined);
  return set.every(([name]) => INHERITED.has(name)) ? undefined : lineStyle;
}
