/**
 * A code token; one that names an identifier with a type (./../../Content/type-hover-tokens.ts)
 * can take keyboard focus and shows that type in a popup on hover and focus, with CSS only
 * (src/css/custom.css, "Hover types"): the popup is in the page's HTML, hidden until then, and
 * describes the identifier to screen readers. Wraps the theme's component.
 *
 * Plain text is left bare, without the theme's `<span class="token plain">`: such a span carries
 * nothing (the <pre> gives plain text its colours, and the stylesheet has no rule for it), and it
 * was almost a third of the elements on a code-heavy page (2,654 of 8,974 on Getting started), each
 * one parsed, styled and laid out before the page can answer. A plain token that keeps an inline
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

/** The theme's token, or its bare text when the span would carry nothing. */
function TokenOrText(props: Props): ReactNode {
  return isBarePlainText(props) ? props.children : <Token {...props} />;
}

export default function TokenWithType(props: Props): ReactNode {
  const hover = (props.token as TypeHoverToken).typeHover;
  if (!hover) {
    return <TokenOrText {...props} />;
  }
  return (
    <span className="weft-type-hover" tabIndex={0} aria-describedby={hover.id}>
      <TokenOrText {...props} />
      <span role="tooltip" id={hover.id} className="weft-type-popup">
        {hover.text}
      </span>
    </span>
  );
}
