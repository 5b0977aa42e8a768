/**
 * The lean client's rows: every change it makes to Docusaurus's bundles, in one typed table.
 * The plugin (index.ts) builds its Rspack rules from it, tests/unit/lean-client-internals.test.ts
 * runs one guard per row, and the table "The lean client's rows" in docs/contributing-guide.md is
 * generated from it (`npm run generate:references`). Each row is paid again at every Docusaurus
 * upgrade, so a row stays only while it saves at least 1.5 KB of first-load JavaScript (gzipped)
 * or 20 ms of main-thread time on a first visit.
 */

/** Which bundle a row changes: the browser's, the server-side render's, or both. */
export type LeanClientBundle = 'client' | 'server' | 'both';

/**
 * A file the row depends on: a package's installed file (`package` and `file`), a module a package
 * resolves (`package` and `resolve`, as that package's code would require it), or a file of the
 * site (`file` alone, from the site's folder).
 */
export type GuardedFile =
  | { readonly package: string; readonly file: string }
  | { readonly package: string; readonly resolve: string }
  | { readonly file: string };

/** What must stay true of the code a row reaches into; a false one means the row no longer applies. */
export interface LeanClientGuard {
  /** Files and a text each must still contain. */
  readonly contains: readonly { readonly in: GuardedFile; readonly text: string | RegExp }[];
  /** Files the row's pattern must match by path (they must exist, `.js` may be left off). */
  readonly matches?: readonly GuardedFile[];
  /** Requests, as the importing code writes them, that the row's pattern must match. */
  readonly requests?: readonly string[];
}

/** How the row changes the bundle. Paths are from the site's folder. */
export type LeanClientRule =
  /** The module whose resolved path (or request, before resolution) matches `test` is replaced. */
  | { readonly kind: 'replace-module'; readonly test: RegExp; readonly replacement: string }
  /** A bare import of `request` resolves to `replacement` instead. */
  | { readonly kind: 'alias'; readonly request: string; readonly replacement: string }
  /** A loader rewrites the modules that match `test` (a RegExp, or a file of `.docusaurus/`). */
  | {
      readonly kind: 'loader';
      readonly test: RegExp | { readonly generated: string };
      readonly loader: string;
    }
  /** A client module of the site's own. */
  | { readonly kind: 'client-module'; readonly module: string };

export interface LeanClientRow {
  /** Kebab-case, unique; names the row in the guide and in the guard test's titles. */
  readonly id: string;
  readonly bundle: LeanClientBundle;
  readonly rule: LeanClientRule;
  /** The guide's "Replaces" cell (Markdown): what of Docusaurus's the row changes. */
  readonly replaces: string;
  /** The guide's "Why" cell (Markdown): what it saves, in bytes or main-thread time. */
  readonly why: string;
  /** Claim ids the guide writes beside the row's tests (each has its test elsewhere). */
  readonly claims?: readonly string[];
  /** Tests besides the guard that hold the row's behaviour (Markdown, for the guide). */
  readonly alsoTested?: string;
  /**
   * The row saves less than 1.5 KB and 20 ms, and stays only because the first load would exceed
   * the budget of tests/build/javascript-budget.test.ts without it: the first such row to go when
   * the bundle shrinks.
   */
  readonly keptForBudget?: boolean;
  /** Absent only for a row that reaches into nothing Docusaurus may move. */
  readonly guard?: LeanClientGuard;
}

const THEME_CLASSIC = '@docusaurus/theme-classic';
const THEME_COMMON = '@docusaurus/theme-common';

export const LEAN_CLIENT_ROWS: readonly LeanClientRow[] = [
  {
    id: 'prism-client-module',
    bundle: 'both',
    rule: {
      kind: 'replace-module',
      test: /@docusaurus[\\/]theme-classic[\\/]lib[\\/]prism-include-languages(\.js)?$/,
      replacement: 'src/plugins/lean-client/empty-client-module.ts',
    },
    replaces:
      "theme-classic's client module `lib/prism-include-languages`, by an empty one; `src/theme/CodeBlock` registers the languages when Prism loads",
    why: 'it put Prism, its 16 bundled languages and 20 colour themes into every page',
    alsoTested: '`tests/e2e/code-blocks.spec.ts` ("a first visit runs no Prism")',
    guard: {
      contains: [
        {
          in: { package: THEME_CLASSIC, file: 'lib/index.js' },
          text: "'./prism-include-languages'",
        },
      ],
      matches: [{ package: THEME_CLASSIC, file: 'lib/prism-include-languages' }],
    },
  },
  {
    id: 'lazy-code-highlighter',
    bundle: 'server',
    rule: {
      kind: 'replace-module',
      test: /^\.\/lazy-highlighted-lines$/,
      replacement: 'src/theme/CodeBlock/Content/HighlightedLines.tsx',
    },
    replaces:
      "the code block's lazy highlighter (`src/theme/CodeBlock/Content/lazy-highlighted-lines.tsx`), by the highlighter itself",
    why: "the server render highlights code directly instead of waiting for a chunk, so every page's HTML holds its highlighted code",
    alsoTested: '`tests/e2e/code-blocks.spec.ts`',
    guard: {
      contains: [
        {
          in: { file: 'src/theme/CodeBlock/Content/index.tsx' },
          text: "from './lazy-highlighted-lines'",
        },
      ],
      requests: ['./lazy-highlighted-lines'],
    },
  },
  {
    id: 'code-hydration',
    bundle: 'client',
    rule: { kind: 'client-module', module: 'src/plugins/lean-client/hydration.ts' },
    replaces: 'nothing: a client module that tells code blocks whether they hydrate the first page',
    why: "blocks that hydrate keep the server's highlighted HTML, so Prism does not run and React does not match one element per token (token spans are more than half the elements of Getting started)",
  },
  {
    id: 'lazy-mark-js',
    bundle: 'both',
    rule: {
      kind: 'replace-module',
      test: /[\\/]mark\.js[\\/]dist[\\/]mark\.js$/,
      replacement: 'src/plugins/lean-client/lazy-mark.ts',
    },
    replaces:
      "`mark.js`'s package entry, which the search plugin's generated module imports, by a stand-in that loads it when there is something to mark",
    why: 'mark.js is needed only on a page opened from a search result',
    alsoTested: '`tests/e2e/search.spec.ts`',
    guard: {
      contains: [
        {
          in: {
            package: '@easyops-cn/docusaurus-search-local',
            file: 'dist/server/server/utils/generate.js',
          },
          text: 'require.resolve("mark.js")',
        },
      ],
      matches: [{ package: '@easyops-cn/docusaurus-search-local', resolve: 'mark.js' }],
    },
  },
  {
    id: 'collator-free-sorts',
    bundle: 'client',
    rule: {
      kind: 'loader',
      test: /@docusaurus[\\/](plugin-content-docs[\\/]lib[\\/]client[\\/]docsClientUtils|theme-common[\\/]lib[\\/]utils[\\/]reactUtils)\.js$/,
      loader: 'src/plugins/lean-client/code-unit-compare-loader.cjs',
    },
    replaces:
      "`localeCompare` in plugin-content-docs' `docsClientUtils.js` and theme-common's `reactUtils.js`, by a comparison of code units",
    why: "the first `localeCompare` sets up the browser's collator, a long task while every docs and API page hydrates",
    claims: ['cg-internal-locale-compare'],
    alsoTested:
      '`tests/unit/lean-client-loaders.test.ts` (the order is kept; the loader throws, naming itself, on another call shape)',
    guard: {
      contains: [
        {
          in: { package: '@docusaurus/plugin-content-docs', file: 'lib/client/docsClientUtils.js' },
          text: 'localeCompare(',
        },
        { in: { package: THEME_COMMON, file: 'lib/utils/reactUtils.js' }, text: 'localeCompare(' },
      ],
      matches: [
        { package: '@docusaurus/plugin-content-docs', file: 'lib/client/docsClientUtils.js' },
        { package: THEME_COMMON, file: 'lib/utils/reactUtils.js' },
      ],
    },
  },
  {
    id: 'window-size-transition',
    bundle: 'client',
    rule: {
      kind: 'replace-module',
      test: /@docusaurus[\\/]theme-common[\\/]lib[\\/]hooks[\\/]useWindowSize\.js$/,
      replacement: 'src/plugins/lean-client/window-size.ts',
    },
    replaces:
      "theme-common's `lib/hooks/useWindowSize.js`, by a hook that gives its first answer after hydration as a transition",
    why: 'on a phone that answer mounts the mobile menu, which React otherwise renders in one long task',
    alsoTested:
      '`tests/unit/lean-client-replacements.test.ts` (the same breakpoint); `tests/e2e/mobile.spec.ts`',
    guard: {
      contains: [
        {
          in: { package: THEME_COMMON, file: 'lib/hooks/useWindowSize.js' },
          text: 'export function useWindowSize',
        },
      ],
      matches: [{ package: THEME_COMMON, file: 'lib/hooks/useWindowSize.js' }],
    },
  },
  {
    id: 'head-without-helmet',
    bundle: 'client',
    rule: {
      kind: 'alias',
      request: 'react-helmet-async',
      replacement: 'src/plugins/lean-client/head.tsx',
    },
    replaces:
      "react-helmet-async, which core's `<Head>` imports, by a module that applies the same head rules (the server render keeps the library)",
    why: 'the library and its equality helpers were in every page',
    claims: ['cg-size-head-without-helmet'],
    alsoTested: "`tests/e2e/head.spec.ts` (the head after a navigation equals the server's)",
    guard: {
      contains: [
        {
          in: { package: '@docusaurus/core', file: 'lib/client/exports/Head.js' },
          text: "from 'react-helmet-async'",
        },
      ],
    },
  },
  {
    id: 'tslib-helpers',
    bundle: 'client',
    rule: {
      kind: 'alias',
      request: 'tslib',
      replacement: 'src/plugins/lean-client/tslib-helpers.ts',
    },
    replaces:
      'tslib, which `@docusaurus/utils-common` requires for `__importDefault`, by the helpers the client calls',
    why: 'tslib came whole for one helper',
    claims: ['cg-size-tslib-helpers'],
    alsoTested:
      '`tests/build/javascript-budget.test.ts` (the stand-in provides every helper the client bundle calls)',
    guard: {
      contains: [
        {
          in: { package: '@docusaurus/utils-common', file: 'lib/index.js' },
          text: /require\("tslib"\)/,
        },
      ],
    },
  },
  {
    id: 'lazy-nprogress',
    bundle: 'client',
    rule: {
      kind: 'replace-module',
      test: /^nprogress$/,
      replacement: 'src/plugins/lean-client/lazy-nprogress.ts',
    },
    replaces:
      "`nprogress`, as theme-classic's progress-bar module imports it (matched as that request, before resolution), by a stand-in that loads it after the `load` event and replays the calls made before",
    why: 'the bar shows only during a client-side navigation, never on a first visit',
    keptForBudget: true,
    alsoTested: '`tests/e2e/progress.spec.ts`',
    guard: {
      contains: [
        { in: { package: THEME_CLASSIC, file: 'lib/index.js' }, text: "'./nprogress'" },
        { in: { package: THEME_CLASSIC, file: 'lib/nprogress.js' }, text: "from 'nprogress'" },
      ],
      requests: ['nprogress'],
    },
  },
  {
    id: 'client-site-config',
    bundle: 'client',
    rule: {
      kind: 'loader',
      test: { generated: 'docusaurus.config.mjs' },
      loader: 'src/plugins/lean-client/client-site-config-loader.cjs',
    },
    replaces:
      "the browser's copy of the generated `.docusaurus/docusaurus.config.mjs`, without the keys only the build reads: the plugins', presets' and themes' options, the Markdown options, the head tags, scripts and stylesheets, and the rest of the loader's `SERVER_ONLY_KEYS`",
    why: 'Docusaurus serialises the whole config into the entry bundle; those options are read only by the build',
    claims: ['cg-size-site-config-keys'],
    alsoTested:
      '`tests/unit/lean-client-loaders.test.ts` (the loader drops no key that client code reads)',
    guard: {
      contains: [
        {
          in: { package: '@docusaurus/core', file: 'lib/server/codegen/codegen.js' },
          text: '`${utils_1.DEFAULT_CONFIG_FILE_NAME}.mjs`',
        },
        {
          in: { package: '@docusaurus/utils', file: 'lib/constants.js' },
          text: "exports.DEFAULT_CONFIG_FILE_NAME = 'docusaurus.config';",
        },
      ],
    },
  },
  {
    id: 'client-registry',
    bundle: 'client',
    rule: {
      kind: 'loader',
      test: { generated: 'registry.js' },
      loader: 'src/plugins/lean-client/registry-loader.cjs',
    },
    replaces:
      "the browser's copy of the generated `.docusaurus/registry.js`, without each route's source path",
    why: 'each entry names its source file for the server-side render only, one path per route in every page',
    keptForBudget: true,
    alsoTested:
      '`tests/unit/lean-client-loaders.test.ts`; `tests/build/javascript-budget.test.ts` (the entry bundle names no source path)',
    guard: {
      contains: [
        {
          in: { package: '@docusaurus/core', file: 'lib/server/codegen/codegenRoutes.js' },
          text: "generate)(generatedFilesDir, 'registry.js'",
        },
      ],
    },
  },
];
