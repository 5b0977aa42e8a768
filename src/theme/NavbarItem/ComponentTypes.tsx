/**
 * The navbar item types this site uses. The theme's map imports every type (dropdowns, locale
 * and version pickers, raw HTML), about 2.7 KB gzipped that every page would load for nothing.
 * A navbar item of another type fails the build with "No NavbarItem component found for type":
 * add its component here (from @theme/NavbarItem/...) when the navbar needs it.
 * Swizzled with: npm run swizzle @docusaurus/theme-classic NavbarItem/ComponentTypes -- --eject
 */
import type { ComponentTypesObject } from '@theme/NavbarItem/ComponentTypes';
import DefaultNavbarItem from '@theme/NavbarItem/DefaultNavbarItem';
import DocSidebarNavbarItem from '@theme/NavbarItem/DocSidebarNavbarItem';
import SearchNavbarItem from '@theme/NavbarItem/SearchNavbarItem';

// The theme's type names every built-in item type; this map holds only the site's.
const ComponentTypes = {
  default: DefaultNavbarItem,
  docSidebar: DocSidebarNavbarItem,
  search: SearchNavbarItem,
} as unknown as ComponentTypesObject;

export default ComponentTypes;
