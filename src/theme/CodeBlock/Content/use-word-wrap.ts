/**
 * The code block's word-wrap state (the `WordWrap` of theme-common's `useCodeWordWrap`, which the
 * theme's word-wrap button reads from the block's context), for blocks that the browser may not
 * have laid out yet.
 *
 * Whether the button shows depends on whether the code scrolls sideways, which only a laid-out
 * block can tell. Blocks off screen are not laid out (offscreen.module.css), nor are blocks in a
 * hidden tab, so a block measures itself when it comes into view or the browser starts rendering
 * it, and again when the window is resized while it is laid out. State changes only when the
 * answer does: right after hydration most blocks render nothing new.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { useCodeWordWrap } from '@docusaurus/theme-common/internal';

type WordWrap = ReturnType<typeof useCodeWordWrap>;

/** False while the browser skips the block's contents (off screen) or does not render it. */
function isLaidOut(pre: HTMLPreElement): boolean {
  const code = pre.firstElementChild;
  if (!code) {
    return false;
  }
  return typeof code.checkVisibility === 'function'
    ? code.checkVisibility({ contentVisibilityAuto: true })
    : pre.getClientRects().length > 0;
}

export function useWordWrap(): WordWrap {
  const codeBlockRef = useRef<HTMLPreElement>(null);
  const [isEnabled, setIsEnabled] = useState(false);
  const [isCodeScrollable, setIsCodeScrollable] = useState(false);

  const measure = useCallback(() => {
    const pre = codeBlockRef.current;
    if (pre && isLaidOut(pre)) {
      setIsCodeScrollable(pre.scrollWidth > pre.clientWidth);
    }
  }, []);

  useEffect(() => {
    const pre = codeBlockRef.current;
    if (!pre) {
      return undefined;
    }
    const inView = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        measure();
      }
    });
    inView.observe(pre);
    // A block that jumps into view (a link to a heading below it) can still be skipped when the
    // observer reports it; the browser tells when it stops skipping the block's contents.
    const onRenderingChange = (event: Event) => {
      if (!(event as ContentVisibilityAutoStateChangeEvent).skipped) {
        measure();
      }
    };
    pre.addEventListener('contentvisibilityautostatechange', onRenderingChange);
    window.addEventListener('resize', measure, { passive: true });
    return () => {
      inView.disconnect();
      pre.removeEventListener('contentvisibilityautostatechange', onRenderingChange);
      window.removeEventListener('resize', measure);
    };
  }, [measure]);

  // Wrapped code does not scroll (the theme shows the button while wrapping is on anyway); once
  // unwrapped, it is measured again.
  useEffect(measure, [isEnabled, measure]);

  const toggle = useCallback(() => setIsEnabled((enabled) => !enabled), []);
  return { codeBlockRef, isEnabled, isCodeScrollable, toggle };
}
