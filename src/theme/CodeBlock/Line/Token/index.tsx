/**
 * A code token; one that names an identifier with a type (./../../Content/type-hover-tokens.ts)
 * can take keyboard focus and shows that type on hover and focus, with CSS only
 * (src/css/custom.css, "Hover types"). Wraps the theme's component.
 *
 * A typed identifier is one element: its token's span (or, for plain text, a span of its own)
 * carries the type in `data-type`, which the stylesheet shows in a popup drawn from the attribute,
 * and in `aria-description`, which screen readers announce. A popup element per identifier would
 * be in the page's HTML whether read or not: over a thousand hidden elements on a code-heavy page,
 * each parsed, styled and walked by every tool that reads the page, before a reader hovers any.
 *
 * Plain text is left bare, without the theme's `<span class="token plain">`: such a span carries
 * nothing (the <pre> gives plain text its colours, and the stylesheet has no rule for it), and it
 * was almost a third of the elements on a code-heavy page. A plain token that keeps an inline
 * style (an empty line's `display: inline-block`) keeps its span.
 */
import React, { type ComponentProps, type ReactNode } from 'react';
import Token from '@theme-original/CodeBlock/Line/Token';
import type { TypeHoverToken } from '../../Content/type-hover-tokens';

type Props = ComponentProps<typeof Token>;

function isBarePlainText({ token, style }: Props): boolean {
  return (
    token.types.length === 1 &&
    token.types[0] === 'plain' &&
    (style === undefined || Object.keys(style).length === 0)
  );
}

export default function TokenWithType(props: Props): ReactNode {
  const bare = isBarePlainText(props);
  const hover = (props.token as TypeHoverToken).typeHover;
  if (!hover) {
    return bare ? props.children : <Token {...props} />;
  }
  return (
    <Token
      {...props}
      className={bare ? 'weft-type-hover' : `${props.className ?? ''} weft-type-hover`.trim()}
      tabIndex={0}
      data-type={hover.text}
      aria-description={hover.text}
    />
  );
}
