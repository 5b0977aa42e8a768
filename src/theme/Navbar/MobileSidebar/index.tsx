/**
 * The navbar's mobile menu, with its code loaded only on narrow screens. The theme never renders
 * the menu on the server or while hydrating (it depends on the window's width), so loading it
 * lazily changes nothing a reader sees; on a narrow screen it loads right after hydration,
 * before the menu can be opened. Saves its layout, header and menus from every page's bundle.
 *
 * The loaded menu (with the docs sidebar inside it) is rendered as a transition, in slices
 * between which the browser answers input. React's `lazy` would render it when the chunk arrives
 * as a retry of the Suspense boundary, in one task of 60-80 ms at a 4x CPU slowdown.
 * Swizzled with: npm run swizzle @docusaurus/theme-classic Navbar/MobileSidebar -- --wrap
 */
import React, {
  startTransition,
  useEffect,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';
import { useNavbarMobileSidebar } from '@docusaurus/theme-common/internal';

export default function NavbarMobileSidebar(): ReactNode {
  const { shouldRender } = useNavbarMobileSidebar();
  const [Menu, setMenu] = useState<ComponentType | null>(null);
  useEffect(() => {
    if (!shouldRender || Menu) {
      return undefined;
    }
    let current = true;
    import('@theme-original/Navbar/MobileSidebar').then(
      ({ default: loaded }) => {
        if (current) {
          startTransition(() => setMenu(() => loaded));
        }
      },
      (error: unknown) => {
        // The page stays usable without the menu; it is requested again on the next resize
        // into the mobile layout.
        console.error('Loading the navbar menu failed', error);
      },
    );
    return () => {
      current = false;
    };
  }, [shouldRender, Menu]);
  return shouldRender && Menu ? <Menu /> : null;
}
