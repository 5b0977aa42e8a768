/**
 * The routes of the table under "Routes" in SITE-REQUIREMENTS.md, each with a pattern its
 * h1 must match. All paths carry the trailing slash the site enforces.
 */

export interface SiteRoute {
  path: string;
  /** The screen, as the specification names it. */
  screen: string;
  /** Matches the page's h1. */
  heading: RegExp;
  /** Served by a docs plugin instance (docs or API), so it renders a doc sidebar. */
  docsPage: boolean;
}

const page = (path: string, screen: string, heading: RegExp, docsPage = true): SiteRoute => ({
  path,
  screen,
  heading,
  docsPage,
});

export const siteRoutes: readonly SiteRoute[] = [
  page('/', 'Home page', /^Weft$/, false),
  page('/plugins/', 'Plugins page', /^Plugins$/, false),
  page('/docs/', 'Docs index', /documentation/i),
  page('/docs/getting-started/', 'Getting started', /^Getting started$/i),
  page('/docs/contributing-guide/', 'Contributing guide', /^Contributing guide$/i),
  page('/docs/bounty-program/', 'Bounty program', /^Bounty program$/i),
  page('/docs/building-plugins/', 'Building plugins', /^Building plugins$/i),
  page('/docs/building-plugins/executors/', 'Executors', /^Executors$/i),
  page('/docs/building-plugins/philosophy/', 'Philosophy', /philosophy/i),
  page('/docs/building-plugins/triggers/', 'Triggers', /^Triggers$/i),
  page('/docs/capabilities/capabilities/', 'Capabilities', /^Capabilities$/i),
  page('/docs/capabilities/transforms/', 'Transforms', /^Transforms$/i),
  page('/docs/core-utilities/', 'Core utilities', /^Core utilities$/i),
  page('/docs/core-utilities/getObject/', 'getObject', /^getObject$/),
  page('/docs/core-utilities/liquid-templates/', 'Liquid templates', /^Liquid templates$/i),
  page('/docs/core-utilities/spaces/', 'Spaces', /^Spaces$/i),
  page('/docs/memory-providers/', 'Memory providers', /^Memory providers$/i),
  page(
    '/docs/memory-providers/overview/',
    'Memory providers overview',
    /^Memory providers overview$/i,
  ),
  page('/docs/model-providers/', 'Model providers', /^Model providers$/i),
  page(
    '/docs/model-providers/overview/',
    'Model providers overview',
    /^Model providers overview$/i,
  ),
  page('/api/', 'API reference index', /^API reference$/i),
];

/** The text Docusaurus's not-found page shows (src/theme/NotFound/Content). */
export const notFoundHeading = 'Page Not Found';
