/**
 * theme-common's `useWindowSize`, in the browser bundle: the same answers ("ssr" until the
 * component has mounted, then "desktop" above the 996 px breakpoint that Infima's CSS also uses,
 * else "mobile"), but the first answer after mounting is given as a transition.
 *
 * Right after hydration on a phone, that answer mounts the navbar's mobile menu with the docs
 * sidebar inside it and unmounts the desktop sidebar and table of contents, which CSS already
 * hides: 50-70 ms of rendering at a 4x CPU slowdown that React did in one task. As a transition
 * it is done in slices between which the browser answers input. Resizes across the breakpoint
 * still apply at once.
 */
import { startTransition, useEffect, useState } from 'react';

type WindowSize = 'desktop' | 'mobile' | 'ssr';

/** Infima's desktop breakpoint (its media queries use the same width). */
const DESKTOP_BREAKPOINT = 996;

export function useWindowSize({
  desktopBreakpoint = DESKTOP_BREAKPOINT,
}: { desktopBreakpoint?: number } = {}): WindowSize {
  // Constant until mounted, so the hydrating render matches the server's.
  const [windowSize, setWindowSize] = useState<WindowSize>('ssr');
  useEffect(() => {
    const measure = () => {
      setWindowSize(window.innerWidth > desktopBreakpoint ? 'desktop' : 'mobile');
    };
    startTransition(measure);
    window.addEventListener('resize', measure);
    return () => {
      window.removeEventListener('resize', measure);
    };
  }, [desktopBreakpoint]);
  return windowSize;
}
