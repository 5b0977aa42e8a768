/**
 * Local Docusaurus plugin: the progressive web app (@docusaurus/plugin-pwa) with a Markdown copy
 * of every docs and API page in its offline precache.
 *
 * The Markdown copies, llms.txt and llms-full.txt come from @signalwire/docusaurus-plugin-llms-txt,
 * which converts each built HTML page, so code samples embedded from examples/ appear in full.
 * Both plugins work in postBuild, and Docusaurus runs every postBuild at once: the service worker
 * could be built before the copies exist. Here the copies are written first, then listed in the
 * precache (the PWA plugin's own glob patterns leave .md files out), then the worker is built.
 * The "Copy page" control fetches these copies, so it works offline too. When a build's pages
 * are the same as the last build's, the copies come from .cache/markdown-copies/ instead of
 * being converted again (../shared/output-cache.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoadContext, OptionValidationContext, Plugin } from '@docusaurus/types';
// The package's declared types describe its options only; the plugin itself is typed in lib/.
import pwaPlugin, {
  validateOptions as validatePwaOptions,
} from '@docusaurus/plugin-pwa/lib/index.js';
import type { PluginOptions as PwaOptions } from '@docusaurus/plugin-pwa';
import { convertPages, type LlmsTxtOptions } from './convert-pages';
import { withoutTrailingSlashBeforeMd } from './links';
import { filesUnder, outputCache, sourcesHash } from '../shared/output-cache';

export interface MarkdownCopiesOptions {
  /** Options of @docusaurus/plugin-pwa. */
  pwa: Record<string, unknown>;
  /**
   * Options of @signalwire/docusaurus-plugin-llms-txt, all of them plain data: the plugin adds
   * the site's cleaning step (./clean-docusaurus-html.ts) to `content.beforeDefaultRehypePlugins`.
   */
  llmsTxt: LlmsTxtOptions;
}

interface PrecacheEntry {
  url: string;
  revision: string;
}

/** Every Markdown file under `dir`, as paths relative to it with forward slashes. */
async function markdownFiles(dir: string): Promise<string[]> {
  const files = await filesUnder(dir, (file) => file.endsWith('.md'));
  return files.map((file) => file.split(path.sep).join('/'));
}

async function fixLinks(outDir: string, files: string[]): Promise<void> {
  await Promise.all(
    files.map(async (file) => {
      const target = path.join(outDir, file);
      const markdown = await readFile(target, 'utf8');
      const fixed = withoutTrailingSlashBeforeMd(markdown);
      if (fixed !== markdown) {
        await writeFile(target, fixed);
      }
    }),
  );
}

async function precacheEntries(outDir: string): Promise<PrecacheEntry[]> {
  const files = await markdownFiles(outDir);
  return Promise.all(
    files.map(async (url) => ({
      url,
      revision: createHash('sha256')
        .update(await readFile(path.join(outDir, url)))
        .digest('hex')
        .slice(0, 32),
    })),
  );
}

/** The file of the site's own HTML cleaning step, which shapes the Markdown too. */
export const CLEANER_FILE = 'src/plugins/markdown-copies/clean-docusaurus-html.ts';

/**
 * The file that hands the cleaning step to the converter (`withCleaner`): which steps run, and
 * where, is decided there, outside the options the key holds.
 */
export const CONVERSION_FILE = 'src/plugins/markdown-copies/convert-pages.ts';

/**
 * What the copies depend on besides the built pages, for their cache key: the converter's
 * version, the site's cleaning step and the module that hands it to the converter (by their
 * sources' hash), the converter's options and the site's address.
 */
export function copiesCacheSettings(
  siteDir: string,
  llmsTxt: LlmsTxtOptions,
  site: { url: string; baseUrl: string; trailingSlash: boolean | undefined },
): Record<string, unknown> {
  // The package's exports map hides its package.json from require.resolve.
  const converterManifest = readFileSync(
    path.join(siteDir, 'node_modules', '@signalwire/docusaurus-plugin-llms-txt', 'package.json'),
    'utf8',
  );
  return {
    converter: (JSON.parse(converterManifest) as { version: string }).version,
    // Our cleaner shapes the Markdown too, and so does the way it is handed to the converter: a
    // change to either must convert the pages again.
    cleaner: sourcesHash([CLEANER_FILE, CONVERSION_FILE].map((file) => path.join(siteDir, file))),
    options: llmsTxt,
    site,
  };
}

export default async function markdownCopies(
  context: LoadContext,
  options: MarkdownCopiesOptions,
): Promise<Plugin<void> | null> {
  const pwa = pwaPlugin(context, options.pwa as PwaOptions);
  // The PWA plugin is off outside production builds, and so are the copies made for it.
  if (!pwa) {
    return null;
  }
  const { url, baseUrl, trailingSlash } = context.siteConfig;
  const settings = copiesCacheSettings(context.siteDir, options.llmsTxt, {
    url,
    baseUrl,
    trailingSlash,
  });
  // Docusaurus resolves a plugin's theme and client-module paths against the folder of the
  // module that registered it, which is this one: make the PWA plugin's own paths absolute.
  const pwaDir = path.dirname(require.resolve('@docusaurus/plugin-pwa'));
  const fromPwaDir = (file: string) => path.resolve(pwaDir, file);

  return {
    ...pwa,
    getThemePath: () => fromPwaDir(pwa.getThemePath!()),
    getTypeScriptThemePath: () => fromPwaDir(pwa.getTypeScriptThemePath!()),
    getClientModules: () => (pwa.getClientModules?.() ?? []).map(fromPwaDir),
    async postBuild(props) {
      const cache = outputCache(
        path.join(context.siteDir, '.cache', 'markdown-copies'),
        { outDir: props.outDir, settings },
        (file) => file.endsWith('.md') || file === 'llms.txt' || file === 'llms-full.txt',
      );
      await cache.restoreOrGenerate(() =>
        convertPages({
          options: options.llmsTxt,
          siteDir: context.siteDir,
          generatedFilesDir: context.generatedFilesDir,
          outDir: props.outDir,
          siteConfig: { url, baseUrl, title: context.siteConfig.title, trailingSlash },
          routes: props.routes,
        }),
      );
      await fixLinks(props.outDir, [...(await markdownFiles(props.outDir)), 'llms-full.txt']);
      const entries = await precacheEntries(props.outDir);
      if (entries.length === 0) {
        throw new Error(
          'markdown-copies: no Markdown copy was written to the build; check the llmsTxt options.',
        );
      }
      // The PWA plugin reads its precache options when its postBuild runs, from this object.
      const manifest = options.pwa.injectManifestConfig as {
        additionalManifestEntries?: unknown[];
      };
      manifest.additionalManifestEntries = [
        ...(manifest.additionalManifestEntries ?? []),
        ...entries,
      ];
      await pwa.postBuild?.(props);
    },
  };
}

/** The PWA options are validated (and given their defaults) by the PWA plugin itself. */
export function validateOptions({
  validate,
  options,
}: OptionValidationContext<MarkdownCopiesOptions, MarkdownCopiesOptions>): MarkdownCopiesOptions {
  return {
    ...options,
    pwa: validatePwaOptions({
      // Docusaurus's validate is generic over the schema; its type here is bound to ours.
      validate: validate as unknown as OptionValidationContext<PwaOptions, PwaOptions>['validate'],
      options: options.pwa as PwaOptions,
    }),
  };
}
