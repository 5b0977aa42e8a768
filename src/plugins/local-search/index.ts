/**
 * Local Docusaurus theme: the local search (@easyops-cn/docusaurus-search-local) as configured,
 * ranked by the docs' shared ranking, with its index kept between builds.
 *
 * The plugin's search box, search page and index stay; its search worker is swapped for
 * ranking-worker.ts, which ranks the same index documents with @weft/mcp-docs's DocsSearch (the
 * ranking of the MCP server's `search_docs`), compiled from the package's source (see
 * ../weft-in-browser). The index files keep the plugin's documents and
 * drop its lunr index, which nothing reads any more: a third of the download.
 *
 * The search plugin builds its index in postBuild: it parses every built page and indexes the
 * text, about 2 s of a cold build, on the thread every postBuild shares. When a build's pages are
 * the same as the last build's, the index files come back from .cache/search-index/ instead
 * (../shared/output-cache.ts). The key holds the plugin's options, the site's address and the
 * versions of the plugin and of the packages that shape the index (lunr, its language support
 * and the HTML parser), so an upgrade builds a new index. Everything else is the plugin's own.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoadContext, OptionValidationContext, Plugin } from '@docusaurus/types';
import * as searchPackage from '@easyops-cn/docusaurus-search-local';
import type { PluginOptions as SearchOptions } from '@easyops-cn/docusaurus-search-local';
import { outputCache, sourcesHash } from '../shared/output-cache';
import { DEFINITIONS_ENTRY, type IndexFileEntry } from './site-pages';
import { tableDefinitionsOfHtml, type TableDefinition } from './table-definitions';

const SEARCH_PACKAGE = '@easyops-cn/docusaurus-search-local';

/** The files the plugin writes at the root of the build: one index per search context. */
const INDEX_FILE = /^search-index[^/\\]*\.json$/;

/**
 * The site's own modules that shape the index files (what is kept of the plugin's index, the
 * table definitions added to it): a change to any of them indexes every page again.
 */
export const INDEX_SOURCES = ['index.ts', 'site-pages.ts', 'table-definitions.ts'].map((file) =>
  path.join(__dirname, file),
);

/** The search box's template for a query with no result. */
export const EMPTY_TEMPLATE_MODULE =
  /@easyops-cn[\\/]docusaurus-search-local[\\/]dist[\\/]client[\\/]client[\\/]theme[\\/]SearchBar[\\/]EmptyTemplate\.js$/;

/** The plugin's search worker, which its `searchByWorker` module starts. */
export const SEARCH_WORKER_MODULE =
  /@easyops-cn[\\/]docusaurus-search-local[\\/]dist[\\/]client[\\/]client[\\/]theme[\\/]worker\.js$/;

/**
 * Drops the lunr index from an index file the plugin wrote, keeping its documents.
 *
 * @throws when the file is not the list of `{ documents, index }` the worker reads, so a change
 *   of the plugin's format fails the build instead of the search.
 */
export function documentsOnly(file: string, json: string): string {
  const entries: unknown = JSON.parse(json);
  if (
    !Array.isArray(entries) ||
    !entries.every(
      (entry) =>
        typeof entry === 'object' &&
        entry !== null &&
        Array.isArray((entry as { documents?: unknown }).documents),
    )
  ) {
    throw new Error(
      `local-search: ${file} is not a list of { documents, index } entries; ${SEARCH_PACKAGE} changed its index format, which src/plugins/local-search/site-pages.ts reads.`,
    );
  }
  return JSON.stringify(entries.map(({ documents }: { documents: unknown[] }) => ({ documents })));
}

/**
 * Adds to an index file (documents only) the names each indexed page's tables define, read from
 * the page's built HTML, as the entry after the plugin's own (DEFINITIONS_ENTRY).
 *
 * @param readPage - The built HTML of a page, by its path (`/docs/reference/configuration/`).
 */
export async function withTableDefinitions(
  json: string,
  readPage: (pagePath: string) => Promise<string>,
): Promise<string> {
  const entries = JSON.parse(json) as IndexFileEntry[];
  const pagePaths = new Set((entries[0]?.documents ?? []).map((document) => document.u));
  const definitions: TableDefinition[] = [];
  for (const pagePath of pagePaths) {
    for (const { name, hash } of tableDefinitionsOfHtml(await readPage(pagePath))) {
      definitions.push({ n: name, u: pagePath, h: hash });
    }
  }
  while (entries.length < DEFINITIONS_ENTRY) entries.push({ documents: [] });
  entries[DEFINITIONS_ENTRY] = { documents: [], definitions };
  return JSON.stringify(entries);
}

/** Packages whose version changes the index the plugin writes, as the plugin resolves them. */
const INDEX_DEPENDENCIES = ['lunr', 'lunr-languages', 'cheerio'] as const;

interface SearchPluginModule {
  default: (context: LoadContext, options: SearchOptions) => Plugin<unknown>;
  validateOptions: (data: OptionValidationContext<SearchOptions, SearchOptions>) => SearchOptions;
}

// The package's declared types describe its options only; its CommonJS entry exports the plugin
// as `default`, beside `validateOptions`.
const searchPlugin = searchPackage as unknown as SearchPluginModule;

/**
 * The folder of the copy of `pkg` that code in `fromDir` loads: the nearest node_modules/<pkg>
 * up the tree, as Node resolves it. (Some packages' export maps hide their package.json from
 * require.resolve.)
 */
function packageDir(pkg: string, fromDir: string): string {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', pkg);
    if (existsSync(path.join(candidate, 'package.json'))) {
      return candidate;
    }
    if (path.dirname(dir) === dir) {
      throw new Error(`local-search: cannot find ${pkg} from ${fromDir}.`);
    }
  }
}

function versionAt(dir: string): string {
  const manifest = readFileSync(path.join(dir, 'package.json'), 'utf8');
  return (JSON.parse(manifest) as { version: string }).version;
}

/**
 * What the index files depend on besides the built pages, for their cache key: the versions of
 * the search plugin and of the packages that shape its index, the plugin's options, the site's
 * address and the site's own modules that shape the files (by their sources' hash).
 */
export function searchIndexCacheSettings(
  context: LoadContext,
  options: SearchOptions,
): { versions: Record<string, string>; options: SearchOptions; site: unknown; code: string } {
  const searchDir = packageDir(SEARCH_PACKAGE, __dirname);
  const { url, baseUrl, trailingSlash } = context.siteConfig;
  return {
    versions: Object.fromEntries([
      [SEARCH_PACKAGE, versionAt(searchDir)],
      ...INDEX_DEPENDENCIES.map((pkg) => [pkg, versionAt(packageDir(pkg, searchDir))]),
    ]) as Record<string, string>,
    options,
    site: { url, baseUrl, trailingSlash },
    code: sourcesHash(INDEX_SOURCES),
  };
}

export default function cachedSearchIndex(
  context: LoadContext,
  options: SearchOptions,
): Plugin<unknown> {
  const search = searchPlugin.default(context, options);
  const { postBuild } = search;
  if (!postBuild) {
    throw new Error(`local-search: ${SEARCH_PACKAGE} no longer builds its index in postBuild.`);
  }
  const { baseUrl } = context.siteConfig;
  const settings = searchIndexCacheSettings(context, options);
  const { configureWebpack } = search;
  return {
    ...search,
    configureWebpack(config, isServer, utils, content) {
      const own = configureWebpack?.call(search, config, isServer, utils, content) ?? {};
      const { NormalModuleReplacementPlugin } = utils.currentBundler.instance;
      return {
        ...own,
        plugins: [
          new NormalModuleReplacementPlugin(
            SEARCH_WORKER_MODULE,
            path.join(__dirname, 'ranking-worker.ts'),
          ),
          new NormalModuleReplacementPlugin(
            EMPTY_TEMPLATE_MODULE,
            path.join(__dirname, 'empty-template.ts'),
          ),
        ],
      };
    },
    async postBuild(props) {
      const cache = outputCache(
        path.join(context.siteDir, '.cache', 'search-index'),
        { outDir: props.outDir, settings },
        (file) => INDEX_FILE.test(file),
      );
      await cache.restoreOrGenerate(async () => {
        await postBuild.call(search, props);
        const files = (await readdir(props.outDir)).filter((file) => INDEX_FILE.test(file));
        if (files.length === 0) {
          throw new Error(`local-search: ${SEARCH_PACKAGE} wrote no search-index*.json file.`);
        }
        for (const file of files) {
          const indexPath = path.join(props.outDir, file);
          const documents = documentsOnly(file, await readFile(indexPath, 'utf8'));
          await writeFile(
            indexPath,
            await withTableDefinitions(documents, (pagePath) =>
              readFile(
                path.join(props.outDir, pagePath.slice(baseUrl.length), 'index.html'),
                'utf8',
              ),
            ),
          );
        }
      });
    },
  };
}

export const { validateOptions } = searchPlugin;
