/**
 * The navbar's mobile menu, with its code loaded only on narrow screens. The theme never renders
 * the menu on the server or while hydrating (it depends on the window's width), so loading it
 * lazily changes nothing a reader sees; on a narrow screen it loads right after hydration,
 * before the menu can be opened. Saves its layout, header and menus from every page's bundle.
 * Swizzled with: npm run swizzle @docusaurus/theme-classic Navbar/MobileSidebar -- --wrap
 */
import React, { lazy, Suspense, type ReactNode } from 'react';
import { useNavbarMobileSidebar } from '@docusaurus/theme-common/internal';

const ThemeMobileSidebar = lazy(() => import('@theme-original/Navbar/MobileSidebar'));

export default function NavbarMobileSidebar(): ReactNode {
  if (!useNavbarMobileSidebar().shouldRender) {
    return null;
  }
  return (
    <Suspense fallback={null}>
      <ThemeMobileSidebar />
    </Suspense>
  );
}
