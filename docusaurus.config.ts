import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';
import type { Options as DocsOptions } from '@docusaurus/plugin-content-docs';
import type { PluginOptions as PwaOptions } from '@docusaurus/plugin-pwa';
import npm2yarn from '@docusaurus/remark-plugin-npm2yarn';
import type { PluginOptions as SearchOptions } from '@easyops-cn/docusaurus-search-local';
import { announcement, editUrl, links, site } from '@weft-internal/docs-model/site';
import { withoutClaimComments } from '@weft-internal/docs-model/claim-comments';
import { announcementHeadScript } from './src/config/announcement-storage';
import { apiDocsDir, apiPagesLeftOut, writeApiStandIn } from './src/config/api-in-dev';
import { parseSiteEnv } from './src/config/env';
import { mcpDocsLink } from './src/config/llms-txt-links';
import { codeTheme } from './src/config/prism';
import {
  API_OUT_DIR,
  API_ROUTE_BASE_PATH,
  typedocOptions,
} from '@weft-internal/docs-model/typedoc';
import { FAVICON, PWA_OUT_DIR } from './src/pwa/assets';
import { ensureApiDir, type ApiReferencePluginOptions } from './src/plugins/api-reference';
import type { PluginCatalogueOptions } from './src/plugins/plugin-catalogue';
import { PLUGINS_PAGE_PATH } from '@weft-internal/docs-model/catalogue/model';
import type { MarkdownCopiesOptions } from './src/plugins/markdown-copies';
import { SOCIAL_CARD_DIR } from './src/plugins/social-cards/card-path';
import type { SocialCardsOptions } from './src/plugins/social-cards';
import codeImport from 'remark-code-import';
import { convertNpmCommands, OTHER_PACKAGE_MANAGERS } from './src/config/package-manager-commands';
import rehypeFocusableTables from './src/config/rehype-focusable-tables';
import rehypeHeadingBreaks from './src/config/rehype-heading-breaks';
import remarkDiagrams from './src/remark/diagrams';
import remarkSampleClaimTags from './src/remark/sample-claim-tags';
import rehypeTypeHovers from './src/remark/type-hovers';
import { SEARCH_PAGE_PATH } from './src/data/search-page';

const env = parseSiteEnv();
ensureApiDir(__dirname, API_OUT_DIR);
/**
 * `npm start` serves a one-page stand-in at /api/ instead of the ~60 generated API pages unless
 * DEV_API_PAGES=true (src/config/api-in-dev.ts): the dev server compiles every page before its
 * first answer, and TypeDoc's watch is not started either.
 */
const apiLeftOut = apiPagesLeftOut(env);
if (apiLeftOut) {
  writeApiStandIn(__dirname, site.url);
}

/** The whitepaper's precache entry; its revision changes whenever its sources do. */
function whitepaperPrecacheEntry(): { url: string; revision: string } {
  const hash = createHash('sha256');
  for (const source of ['whitepaper/whitepaper.md', 'tooling/assets/generate-whitepaper.ts']) {
    hash.update(readFileSync(path.join(__dirname, source)));
  }
  return { url: site.whitepaperPath.replace(/^\//, ''), revision: hash.digest('hex').slice(0, 32) };
}

/** A link to a file served from static/, outside the client-side router. */
const staticFile = (pathname: string): string => `pathname://${pathname}`;

/**
 * Fills fenced blocks written as ```ts file=<rootDir>/examples/... from the sample files,
 * which are type-checked and tested, so the docs never show code that does not run.
 * A ```bash npm2yarn block becomes npm / pnpm / yarn / bun tabs; `sync` makes the reader's
 * choice apply to every such block, on every page (Docusaurus remembers a tab group's choice).
 * The conversions are ours (src/config/package-manager-commands.ts), not npm-to-yarn's, which
 * turns `npm create weft@latest` into `bunx create-weft` and `npm start` into `bun start`.
 */
const remarkPlugins = [
  [codeImport, { rootDir: __dirname }],
  // After the samples are filled: their tests' titles show without claim ids.
  remarkSampleClaimTags,
  [
    npm2yarn,
    {
      sync: true,
      converters: OTHER_PACKAGE_MANAGERS.map((manager) => [
        manager,
        (code: string) => convertNpmCommands(code, manager),
      ]),
    },
  ],
] as DocsOptions['remarkPlugins'];
const rehypePlugins = [rehypeFocusableTables, rehypeHeadingBreaks] as DocsOptions['rehypePlugins'];
/**
 * The guides' TypeScript samples show each identifier's type on hover and keyboard focus, read
 * from TypeScript at build time; a sample that no longer type-checks fails the build (see
 * src/remark/type-hovers). The API reference's pages have no sample files, so only the docs
 * get it. Production builds only: type-checking every sample costs the dev server seconds per
 * start and per edit, and `npx tsc -p examples/tsconfig.json` checks the samples for contributors.
 */
const docsRehypePlugins = [
  ...(rehypePlugins ?? []),
  ...(env.devServer ? [] : [[rehypeTypeHovers, { rootDir: __dirname }]]),
] as DocsOptions['rehypePlugins'];
/**
 * Turns `![](./diagrams/<name>.svg)` into a captioned figure showing static/diagrams/... (see
 * src/remark/diagrams.ts; `npm run build` renders them first). It must see images before Docusaurus does.
 */
const beforeDefaultRemarkPlugins = [
  [remarkDiagrams, { siteDir: __dirname, baseUrl: site.baseUrl }],
] as DocsOptions['beforeDefaultRemarkPlugins'];

/**
 * Plugins whose work only a production build needs, left out under `docusaurus start`: the
 * entry bundle's module report (it serialised the whole module graph after every rebuild, edits
 * included), the PWA with the Markdown copies and llms.txt (all made in postBuild; plugin-pwa
 * disables itself in development anyway) and the social cards (postBuild too). Not loading
 * them also spares the dev server their modules (sharp, the HTML-to-Markdown pipeline).
 * `npm run build && npm run serve` shows the production site with all of them.
 */
const productionOnly = <T>(...plugins: T[]): T[] => (env.devServer ? [] : plugins);
/** Plugins that only the API pages need (TypeDoc), left out with them (see `apiLeftOut`). */
const withApiPages = <T>(...plugins: T[]): T[] => (apiLeftOut ? [] : plugins);

const config = {
  title: site.title,
  tagline: site.tagline,
  favicon: `${PWA_OUT_DIR}/${FAVICON}`,
  url: site.url,
  baseUrl: site.baseUrl,
  organizationName: site.organizationName,
  projectName: site.projectName,
  trailingSlash: true,
  baseUrlIssueBanner: true,
  headTags: [
    { tagName: 'script', attributes: {}, innerHTML: announcementHeadScript(announcement.id) },
  ],
  // Read by the not-found page, which explains a missing /api/ page under `npm start`; a build
  // leaves the key out rather than ship `false` to every reader.
  ...(apiLeftOut ? { customFields: { apiPagesLeftOut: true } } : {}),

  // Without the API reference (TYPEDOC=false, local builds only) links into /api/ cannot resolve.
  onBrokenLinks: env.typedoc ? 'throw' : 'warn',
  onBrokenAnchors: 'warn',
  onDuplicateRoutes: 'warn',
  markdown: {
    // Claim ids are comments no reader sees; dropped before the page is parsed, they cost the
    // parser nothing (below, MDX still drops any other comment).
    preprocessor: ({ fileContent }) => withoutClaimComments(fileContent),
    hooks: {
      onBrokenMarkdownLinks: 'throw',
    },
    // Pages mark each sentence that states behaviour with `<!-- claim: id -->` (tests/claims/).
    // MDX rejects HTML comments; this documented option parses them and leaves them out of the
    // HTML, so they reach neither readers nor the copies and the search index built from it.
    mdx1Compat: {
      comments: true,
    },
  },

  i18n: {
    defaultLocale: 'en',
    locales: ['en'],
  },

  future: {
    v4: {
      removeLegacyPostBuildHeadAttribute: true,
      fasterByDefault: true,
      mdx1CompatDisabledByDefault: true,
      // With cascade layers on, the built CSS gives Infima's dark-theme rules
      // extra specificity and they outrank src/css/custom.css (checked in a
      // browser: the Weft palette was ignored). Off until the site CSS is layered.
      useCssCascadeLayers: false,
      // Namespacing would suffix every storage key; the spec fixes the plain
      // keys ("theme", "docs-preferred-version-{id}").
      siteStorageNamespacing: false,
    },
    faster: env.faster,
  },

  presets: [
    [
      'classic',
      {
        blog: false,
        docs: {
          path: 'docs',
          routeBasePath: 'docs',
          sidebarPath: './sidebars.ts',
          remarkPlugins,
          rehypePlugins: docsRehypePlugins,
          beforeDefaultRemarkPlugins,
          editUrl,
          // From git history; a checkout without history (or a new file) shows no date.
          showLastUpdateTime: true,
          lastVersion: 'current',
          versions: {
            current: { label: 'Next' },
          },
        },
        theme: {
          customCss: './src/css/custom.css',
        },
      } satisfies Preset.Options,
    ],
  ],

  themes: [
    [
      // The local search plugin, with its index cached between builds.
      './src/plugins/local-search/index.ts',
      {
        hashed: true,
        language: ['en'],
        indexDocs: true,
        indexBlog: false,
        indexPages: true,
        docsRouteBasePath: ['docs', API_ROUTE_BASE_PATH],
        docsDir: ['docs', API_OUT_DIR],
        searchBarShortcutHint: true,
        explicitSearchResultPath: true,
        highlightSearchTermsOnTargetPage: true,
        // The contexts give the search page its section picker ("Everywhere", the default, or
        // one section). The navbar box ignores them and searches everything: see
        // src/plugins/site-wide-search. Each result's path starts with its section's name.
        searchContextByPaths: [
          { label: 'Documentation', path: 'docs' },
          { label: 'API reference', path: API_ROUTE_BASE_PATH },
        ],
        useAllContextsWithNoSearchContext: true,
        // The type popups of code samples (src/remark/type-hovers) are not the page's text.
        ignoreCssSelectors: ['.weft-type-popup'],
      } satisfies Partial<SearchOptions>,
    ],
  ],

  plugins: [
    './src/plugins/lean-client/index.ts',
    './src/plugins/browser-only-modules/index.ts',
    './src/plugins/lean-css/index.ts',
    './src/plugins/prism-token-css/index.ts',
    './src/plugins/type-hovers-report/index.ts',
    ...productionOnly('./src/plugins/bundle-stats/index.ts'),
    ...withApiPages([
      './src/plugins/api-reference/index.ts',
      {
        enabled: env.typedoc,
        watch: env.devServer,
        typedoc: typedocOptions,
      } satisfies ApiReferencePluginOptions,
    ]),
    [
      '@docusaurus/plugin-content-docs',
      {
        id: 'api',
        path: apiDocsDir(env),
        routeBasePath: API_ROUTE_BASE_PATH,
        remarkPlugins,
        rehypePlugins,
        sidebarPath: './sidebars.api.ts',
        // Generated from TSDoc comments: edit the core package, not these pages.
        editUrl: undefined,
        breadcrumbs: false,
        lastVersion: 'current',
        versions: {
          current: { label: 'Next' },
        },
      } satisfies DocsOptions,
    ],
    [
      './src/plugins/plugin-catalogue/index.ts',
      {
        packagesDir: 'packages',
        onInvalidPackage: 'throw',
      } satisfies PluginCatalogueOptions,
    ],
    // The Weft packages compiled from source for the Run panel of Getting started.
    './src/plugins/weft-in-browser/index.ts',
    // The PWA head tags; not plugin-pwa's pwaHead option, which would ship them in the client bundle.
    './src/plugins/pwa-head/index.ts',
    ...productionOnly([
      // The PWA, with the Markdown copies of every page (and llms.txt) written first and precached.
      './src/plugins/markdown-copies/index.ts',
      {
        pwa: {
          offlineModeActivationStrategies: ['appInstalled', 'standalone', 'queryString'],
          injectManifestConfig: {
            // Startup images are fetched by iOS once, at install, and social cards by the
            // sites a page is shared on; keep both out of the precache.
            globIgnores: [`${PWA_OUT_DIR}/startup/**`, `${SOCIAL_CARD_DIR}/**`],
            // The plugin's own patterns leave PDFs out, so the navbar's whitepaper link would
            // fail offline; list it by hand, versioned by the sources it is built from.
            additionalManifestEntries: [whitepaperPrecacheEntry()],
            // Workbox skips files over 2 MB without failing the build; the combined search index
            // outgrew that (2.2 MB), and offline search silently stopped finding anything.
            maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
          },
        } satisfies Omit<Partial<PwaOptions>, 'injectManifestConfig'> & {
          // The plugin sets swSrc, swDest and globPatterns itself; the rest of the config is ours.
          injectManifestConfig: {
            globIgnores: string[];
            additionalManifestEntries: { url: string; revision: string }[];
            maximumFileSizeToCacheInBytes: number;
          };
        },
        llmsTxt: {
          siteTitle: site.title,
          siteDescription: site.description,
          depth: 2,
          // The guides first, then the API reference.
          includeOrder: ['/docs/**', `/${API_ROUTE_BASE_PATH}/**`],
          // Assistants that read llms.txt learn of the MCP server that serves these docs offline.
          // Until the packages are published, the route from a clone (npx answers E404).
          optionalLinks: [mcpDocsLink()],
          logLevel: 0,
          onRouteError: 'throw',
          content: {
            enableMarkdownFiles: true,
            enableLlmsFullTxt: true,
            includeDocs: true,
            includePages: false,
            includeBlog: false,
            // The Markdown of a page is its article; the "Copy page" bar sits outside it.
            contentSelectors: ['.theme-doc-markdown', 'article'],
            // The search page is a page of the search plugin, not a docs page.
            excludeRoutes: ['/search/**', '/search'],
          },
        },
      } satisfies MarkdownCopiesOptions,
    ]),
    './src/plugins/site-wide-search/index.ts',
    ...productionOnly([
      './src/plugins/social-cards/index.ts',
      {
        sections: [
          { prefix: '/', exact: true, label: site.tagline },
          { prefix: '/docs/', label: 'Documentation' },
          { prefix: `/${API_ROUTE_BASE_PATH}/`, label: 'API reference' },
          { prefix: PLUGINS_PAGE_PATH, label: 'Plugins' },
          { prefix: SEARCH_PAGE_PATH, label: 'Search' },
        ],
        defaultSection: site.title,
      } satisfies SocialCardsOptions,
    ]),
  ],

  themeConfig: {
    image: `${PWA_OUT_DIR}/icon-512x512.png`,
    // Defaults for pages without a description of their own (the not-found and search pages).
    metadata: [
      { name: 'description', content: site.description },
      { property: 'og:description', content: site.description },
    ],
    colorMode: {
      defaultMode: 'dark',
      disableSwitch: true,
      respectPrefersColorScheme: false,
    },
    docs: {
      sidebar: {
        hideable: false,
        autoCollapseCategories: false,
      },
    },
    tableOfContents: {
      minHeadingLevel: 2,
      maxHeadingLevel: 3,
    },
    announcementBar: {
      id: announcement.id,
      content: `Build a plugin or fix an issue and get rewarded: read about the <a href="/docs/bounty-program/">${site.title} bounty program</a>.`,
      backgroundColor: announcement.backgroundColor,
      textColor: announcement.textColor,
      isCloseable: true,
    },
    navbar: {
      title: site.title,
      hideOnScroll: true,
      logo: {
        alt: `${site.title} logo`,
        src: 'img/logo.svg',
        width: 32,
        height: 32,
      },
      items: [
        { type: 'docSidebar', sidebarId: 'docs', label: 'Documentation', position: 'left' },
        {
          type: 'docSidebar',
          docsPluginId: 'api',
          sidebarId: 'api',
          label: 'API',
          position: 'left',
        },
        { to: PLUGINS_PAGE_PATH, label: 'Plugins', position: 'left' },
        { to: '/docs/bounty-program/', label: 'Bounty Program', position: 'left' },
        { href: links.repository, label: 'GitHub', position: 'right' },
        { href: staticFile(site.whitepaperPath), label: 'Whitepaper', position: 'right' },
      ],
    },
    footer: {
      style: 'dark',
      links: [
        {
          title: 'Docs',
          items: [
            { label: 'Getting Started', to: '/docs/getting-started/' },
            { label: 'Contributing', to: '/docs/contributing-guide/' },
            { label: 'Bounty Program', to: '/docs/bounty-program/' },
            { label: 'API', to: '/api/' },
            { label: 'Whitepaper', href: staticFile(site.whitepaperPath) },
          ],
        },
        {
          title: 'Community',
          items: [
            { label: 'Discord', href: links.chat },
            { label: 'X', href: links.social },
          ],
        },
        {
          title: 'More',
          items: [{ label: 'GitHub', href: links.repository }],
        },
      ],
      copyright: site.copyright,
    },
    prism: {
      theme: codeTheme,
      darkTheme: codeTheme,
      // json is one of prism-react-renderer's bundled languages already.
      additionalLanguages: ['bash', 'diff'],
    },
  } satisfies Preset.ThemeConfig,
} satisfies Config;

export default config;
