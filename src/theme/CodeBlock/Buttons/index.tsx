/**
 * The code block's copy and word-wrap buttons (the theme's component, wrapped), mounted as a
 * transition once the block has mounted.
 *
 * The theme renders them only in the browser, so right after hydration every block of the page
 * mounts its buttons and their icons at once: on Getting started, 20 blocks in the one
 * synchronous render that follows hydration. As a transition, React renders them in slices
 * between which the browser answers input. The theme draws them transparent until the block is
 * hovered or a button focused, so the short wait shows nothing.
 */
import React, { startTransition, useEffect, useState, type ReactNode } from 'react';
import Buttons from '@theme-original/CodeBlock/Buttons';
import type ButtonsType from '@theme/CodeBlock/Buttons';
import type { WrapperProps } from '@docusaurus/types';

type Props = WrapperProps<typeof ButtonsType>;

export default function ButtonsWrapper(props: Props): ReactNode {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    startTransition(() => setMounted(true));
  }, []);
  return mounted ? <Buttons {...props} /> : null;
}
