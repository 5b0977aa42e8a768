/**
 * Wraps the theme's site-wide metadata to point og:image and twitter:image at the social card
 * drawn for the current route at build time (src/plugins/social-cards). Rendered after the
 * theme's default image, so the card replaces it; og:title and og:description come from each
 * page's own metadata.
 * Swizzled with: npm run swizzle @docusaurus/theme-classic SiteMetadata -- --wrap --typescript
 */
import type { ReactNode } from 'react';
import { useLocation } from '@docusaurus/router';
import { PageMetadata } from '@docusaurus/theme-common';
import SiteMetadata from '@theme-original/SiteMetadata';
import { socialCardPath } from '@site/src/plugins/social-cards/card-path';

export default function SiteMetadataWithSocialCard(): ReactNode {
  const { pathname } = useLocation();
  return (
    <>
      <SiteMetadata />
      <PageMetadata image={socialCardPath(pathname)} />
    </>
  );
}
