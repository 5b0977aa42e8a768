/**
 * Local Docusaurus theme: the local search (@easyops-cn/docusaurus-search-local) as configured,
 * with its index kept between builds.
 *
 * The search plugin builds its index in postBuild: it parses every built page and indexes the
 * text, about 2 s of a cold build, on the thread every postBuild shares. When a build's pages are
 * the same as the last build's, the index files come back from .cache/search-index/ instead
 * (../shared/output-cache.ts). The key holds the plugin's options, the site's address and the
 * versions of the plugin and of the packages that shape the index (lunr, its language support
 * and the HTML parser), so an upgrade builds a new index. Everything else is the plugin's own.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { LoadContext, OptionValidationContext, Plugin } from '@docusaurus/types';
import * as searchPackage from '@easyops-cn/docusaurus-search-local';
import type { PluginOptions as SearchOptions } from '@easyops-cn/docusaurus-search-local';
import { outputCache } from '../shared/output-cache';

const SEARCH_PACKAGE = '@easyops-cn/docusaurus-search-local';

/** The files the plugin writes at the root of the build: one index per search context. */
const INDEX_FILE = /^search-index[^/\\]*\.json$/;

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
      throw new Error(`search-index-cache: cannot find ${pkg} from ${fromDir}.`);
    }
  }
}

function versionAt(dir: string): string {
  const manifest = readFileSync(path.join(dir, 'package.json'), 'utf8');
  return (JSON.parse(manifest) as { version: string }).version;
}

export default function cachedSearchIndex(
  context: LoadContext,
  options: SearchOptions,
): Plugin<unknown> {
  const search = searchPlugin.default(context, options);
  const { postBuild } = search;
  if (!postBuild) {
    throw new Error(
      `search-index-cache: ${SEARCH_PACKAGE} no longer builds its index in postBuild.`,
    );
  }
  const searchDir = packageDir(SEARCH_PACKAGE, __dirname);
  const { url, baseUrl, trailingSlash } = context.siteConfig;
  const settings = {
    versions: Object.fromEntries([
      [SEARCH_PACKAGE, versionAt(searchDir)],
      ...INDEX_DEPENDENCIES.map((pkg) => [pkg, versionAt(packageDir(pkg, searchDir))]),
    ]),
    options,
    site: { url, baseUrl, trailingSlash },
  };
  return {
    ...search,
    async postBuild(props) {
      const cache = outputCache(
        path.join(context.siteDir, '.cache', 'search-index'),
        { outDir: props.outDir, settings },
        (file) => INDEX_FILE.test(file),
      );
      await cache.restoreOrGenerate(async () => {
        await postBuild.call(search, props);
      });
    },
  };
}

export const { validateOptions } = searchPlugin;
