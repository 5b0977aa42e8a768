/**
 * The navbar's colour-mode toggle. The site is dark only (themeConfig.colorMode.disableSwitch),
 * so the theme's version renders nothing too, but it imports the toggle button and its three
 * icons into every page. Enabling the switch fails the build here rather than showing no toggle.
 * Swizzled with: npm run swizzle @docusaurus/theme-classic Navbar/ColorModeToggle -- --eject
 */
import type { ReactNode } from 'react';
import { useThemeConfig } from '@docusaurus/theme-common';

export default function NavbarColorModeToggle(): ReactNode {
  if (!useThemeConfig().colorMode.disableSwitch) {
    throw new Error(
      'src/theme/Navbar/ColorModeToggle: the colour-mode switch is enabled but this component renders none; delete the file to use the theme toggle.',
    );
  }
  return null;
}
