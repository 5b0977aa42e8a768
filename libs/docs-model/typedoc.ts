/**
 * The TypeDoc options for the API reference, in one place.
 *
 * The site config hands them to docusaurus-plugin-typedoc (through the local
 * `api-reference` plugin), and tests import them to check what the reference is
 * built from. Paths are relative to the site directory (the repository root).
 */
import type { Application, SortStrategy } from 'typedoc';
import type { PluginOptions as TypedocPluginOptions } from 'docusaurus-plugin-typedoc';

/** Where the generated markdown goes; a second docs instance serves it at /api/. */
export const API_OUT_DIR = 'api';
export const API_ROUTE_BASE_PATH = 'api';
/** Written by typedoc-docusaurus-theme beside the markdown. */
export const API_SIDEBAR_FILE = 'typedoc-sidebar.cjs';
export const API_ENTRY_POINT = 'packages/core/src/api-reference.ts';
export const API_TSCONFIG = 'packages/core/tsconfig.lib.json';

/**
 * docusaurus-plugin-typedoc converts and renders but does not run TypeDoc's
 * validation step, and it ignores `treatWarningsAsErrors` (only TypeDoc's own CLI
 * enforces that). This TypeDoc plugin restores both, so a broken `{@link}` or a
 * type used in the public API but not exported fails the site build.
 *
 * Under watch mode it reports instead of throwing, so one bad edit does not stop
 * the dev server.
 */
export function strictValidation(app: Application): void {
  const failOnProblems = (stage: string): void => {
    const { logger, options } = app;
    const treatWarningsAsErrors = options.getValue('treatWarningsAsErrors');
    const failed = logger.hasErrors() || (treatWarningsAsErrors && logger.hasWarnings());
    if (!failed || options.getValue('watch')) {
      return;
    }
    throw new Error(
      `TypeDoc reported ${logger.errorCount} error(s) and ${logger.warningCount} warning(s) while ${stage} ` +
        `the API reference from ${API_ENTRY_POINT}; warnings count as errors. ` +
        'Fix the TSDoc comments or exports named above, or set TYPEDOC=false to skip the API reference in a local build.',
    );
  };

  // Event names of TypeDoc's Application (a type-only import keeps TypeDoc, an
  // ESM-only package, out of the config loader).
  app.on('generateOutputsBegin', (project) => {
    app.validate(project);
    failOnProblems('converting and validating');
  });
  app.on('generateOutputsEnd', () => failOnProblems('rendering'));
}

/** Removes markdown backslash escapes: `TEXT\_GENERATION` becomes `TEXT_GENERATION`. */
export function unescapeMarkdown(text: string): string {
  return text.replace(/\\([\\`*_{}[\]()#+\-.!<>|~])/g, '$1');
}

/**
 * Gives a page whose heading carries markdown escapes a front matter title without them.
 * typedoc-plugin-markdown writes `# Variable: TEXT\_GENERATION\_CAPABILITY` and
 * `# Interface: Space\<T\>`; Docusaurus renders that heading correctly but copies the raw
 * text into the document title, social cards and search index, backslashes included.
 */
export function addPlainTitle(contents: string): string {
  const heading = /^# (.+)\n/.exec(contents);
  const title = heading?.[1];
  if (title === undefined || !title.includes('\\')) {
    return contents;
  }
  return `---\ntitle: ${JSON.stringify(unescapeMarkdown(title))}\n---\n\n${contents}`;
}

/** TypeDoc plugin applying {@link addPlainTitle} to every rendered markdown page. */
export function plainPageTitles(app: Application): void {
  app.renderer.on('endPage', (page) => {
    if (page.contents) {
      page.contents = addPlainTitle(page.contents);
    }
  });
}

/**
 * TypeDoc's default `excludeTags` (typedoc's `OptionDefaults.excludeTags`, which this config,
 * loaded without TypeDoc, cannot import); tests/unit/claims-hidden.test.ts compares them.
 */
export const TYPEDOC_EXCLUDED_TAGS = [
  '@override',
  '@virtual',
  '@privateRemarks',
  '@satisfies',
  '@overload',
  '@inline',
  '@inlineType',
] as const;

export type ApiReferenceOptions = Partial<TypedocPluginOptions> & Record<string, unknown>;

/** Options passed to docusaurus-plugin-typedoc, TypeDoc and typedoc-plugin-markdown. */
export const typedocOptions = {
  id: 'api-reference',
  entryPoints: [API_ENTRY_POINT],
  tsconfig: API_TSCONFIG,
  out: API_OUT_DIR,
  // The generated sidebar's doc ids are relative to this folder (the api docs
  // instance), not to the main docs folder the plugin would otherwise assume.
  docsPath: API_OUT_DIR,
  plugin: [strictValidation, plainPageTitles],
  name: '@weft/core',
  readme: 'none',
  entryFileName: 'index.md',
  // The specification's order: exports by the file that declares them, then their place in it,
  // and members in the order their source gives them.
  sort: ['source-order'] as SortStrategy[],
  excludePrivate: true,
  excludeInternal: true,
  // TypeDoc's own list, and `@claim`: the claim ids of tests/claims/ link a comment to the tests
  // that check it and are for contributors, not readers. TypeDoc knows the tag from
  // packages/core/tsdoc.json, which it reads beside API_TSCONFIG.
  excludeTags: [...TYPEDOC_EXCLUDED_TAGS, '@claim' as const],
  treatWarningsAsErrors: true,
  validation: {
    notExported: true,
    invalidLink: true,
    notDocumented: false,
  },
  // TypeDoc's watch (DEV_API_PAGES=true npm start) would clear the terminal as it starts and on
  // every rebuild, wiping the dev server's address and any earlier warning. No effect on a build.
  preserveWatchOutput: true,
  // Source links would point at local paths in a clone without a remote.
  disableSources: true,
  hideBreadcrumbs: true,
  hidePageHeader: true,
  hideGroupHeadings: false,
  useCodeBlocks: true,
  // Index pages list each export with its summary, so a reader can choose without opening each.
  indexFormat: 'table',
  sanitizeComments: true,
  pageTitleTemplates: {
    index: 'API reference',
    member: '{kind}: {name}',
    module: '{name}',
  },
  sidebar: {
    autoConfiguration: true,
    pretty: true,
    typescript: false,
    deprecatedItemClassName: 'typedoc-sidebar-item-deprecated',
  },
} satisfies ApiReferenceOptions;
