/**
 * A code token; one that names an identifier with a type (./../../Content/type-hover-tokens.ts)
 * can take keyboard focus and shows that type in a popup on hover and focus, with CSS only
 * (src/css/custom.css, "Hover types"): the popup is in the page's HTML, hidden until then, and
 * describes the identifier to screen readers. Wraps the theme's component.
 */
import React, { type ComponentProps, type ReactNode } from 'react';
import Token from '@theme-original/CodeBlock/Line/Token';
import type { TypeHoverToken } from '../../Content/type-hover-tokens';

type Props = ComponentProps<typeof Token>;

export default function TokenWithType(props: Props): ReactNode {
  const hover = (props.token as TypeHoverToken).typeHover;
  if (!hover) {
    return <Token {...props} />;
  }
  return (
    <span className="weft-type-hover" tabIndex={0} aria-describedby={hover.id}>
      <Token {...props} />
      <span role="tooltip" id={hover.id} className="weft-type-popup">
        {hover.text}
      </span>
    </span>
  );
}
