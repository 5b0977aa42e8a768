/**
 * The theme's CodeBlock without its remount after hydration.
 *
 * The theme keys each block on "is this the browser?", so every block renders twice on a first
 * visit: once to hydrate the server's HTML, then again from scratch, re-tokenising the code on
 * the main thread. It does that so a block can switch to the colour mode the reader chose, but
 * this site has one mode and one code theme (themeConfig.prism), so the server's HTML is
 * already right. Swizzled with: npm run swizzle @docusaurus/theme-classic CodeBlock -- --eject
 */
import React, { isValidElement, type ReactNode } from 'react';
import type { Props } from '@theme/CodeBlock';
import ElementContent from '@theme/CodeBlock/Content/Element';
import StringContent from '@theme/CodeBlock/Content/String';

/** Plain-string children become one string, so the copy button can copy them. */
function stringifyChildren(children: ReactNode): ReactNode {
  if (React.Children.toArray(children).some((child) => isValidElement(child))) {
    return children;
  }
  return Array.isArray(children) ? children.join('') : children;
}

export default function CodeBlock({ children: rawChildren, ...props }: Props): ReactNode {
  const children = stringifyChildren(rawChildren);
  if (typeof children === 'string') {
    return <StringContent {...props}>{children}</StringContent>;
  }
  return <ElementContent {...props}>{children}</ElementContent>;
}
