/**
 * Writes `data/docs-bundle.json`, the documentation the server answers from: every docs and API
 * page from the site build's Markdown copies (`build/docs/…md`, `build/api/…md`, what a reader's
 * "Copy page" gives), in the docs model's sidebar order; the `get_api_symbol` records from TypeDoc
 * over the packages' sources with the docs model's options; every package's error registry and
 * the plugin catalogue through the docs model. It never imports the site's source.
 *
 * So the site must be built first: `npm run build` at the repository's root, then
 * `npm run build` in this folder (or `npm run build -w @weft/mcp-docs` at the root). Without a
 * site build, or with one older than the docs, it fails naming what is missing.
 *
 * `--site-build <dir>` (or the WEFT_SITE_BUILD environment variable) reads another build folder
 * than `<repository>/build`; `--out <file>` writes elsewhere than `data/docs-bundle.json`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadErrorRegistries } from '@weft-internal/docs-model/error-registries';
import sidebars from '@weft-internal/docs-model/sidebar-order';
import { site } from '@weft-internal/docs-model/site';
import { readCatalogue } from '@weft-internal/docs-model/catalogue/catalogue';
import {
  BUNDLE_FORMAT,
  DEFAULT_BUNDLE_FILE,
  type DocsBundle,
  type ErrorCodeDoc,
} from '../src/bundle.js';
import {
  apiSection,
  readCoreSymbols,
  readPackageSymbols,
  type PackageEntryPoints,
} from './api-symbols.js';
import { readPackages } from './package-rows.js';
import { cachedSymbols } from './symbols-cache.js';
import {
  assertSiteBuild,
  readSitePages,
  registryLinks,
  SITE_BUILD_ENV,
  SiteBuildError,
} from './site-pages.js';

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT_DIR = join(PACKAGE_DIR, '..', '..');
const ERRORS_PAGE = '/docs/reference/errors/';

async function readErrors(sidebar: unknown): Promise<ErrorCodeDoc[]> {
  const registries = await loadErrorRegistries();
  // The registries' Markdown links are relative to the errors page; the bundle's are site paths.
  const links = (markdown: string): string => registryLinks(markdown, sidebar);
  return registries.flatMap(({ registry }) =>
    Object.entries(registry.codes).map(([code, entry]) => ({
      code,
      packageName: registry.packageName,
      summary: entry.summary,
      ...(entry.status === undefined ? {} : { status: entry.status }),
      raisedBy: links(entry.raisedBy),
      cause: links(entry.cause),
      fix: links(entry.fix),
      docsPath: `${ERRORS_PAGE}#${code.toLowerCase()}`,
    })),
  );
}

/**
 * The first-party packages other than the core (whose API the site's reference covers), each
 * with the source files of its `exports`, its guide and its README.
 */
async function otherPackages(): Promise<PackageEntryPoints[]> {
  const packagesDir = join(ROOT_DIR, 'packages');
  const { entries } = await readCatalogue(packagesDir);
  return entries
    .filter((entry) => entry.name !== '@weft/core')
    .map((entry) => {
      const manifest = JSON.parse(
        readFileSync(join(packagesDir, entry.directory, 'package.json'), 'utf8'),
      ) as { homepage: string; exports?: Record<string, { 'weft-source'?: string } | string> };
      const entryPoints = Object.values(manifest.exports ?? {}).flatMap((target) =>
        typeof target === 'object' && target['weft-source'] !== undefined
          ? [target['weft-source']]
          : [],
      );
      return {
        name: entry.name,
        directory: entry.directory,
        entryPoints,
        guide: entry.guide,
        readme: manifest.homepage,
      };
    })
    .filter((entry) => entry.entryPoints.length > 0);
}

/** Builds the bundle from the site build in `siteBuild` and the docs model. */
export async function buildBundle(siteBuild: string): Promise<DocsBundle> {
  assertSiteBuild(siteBuild, ROOT_DIR);
  const version = (
    JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string }
  ).version;
  // The sidebar module is CommonJS at the root; tsx hands it over as the default export.
  const sidebarModule = sidebars as typeof sidebars & { default?: typeof sidebars };
  const sidebar = (sidebarModule.default ?? sidebarModule).docs;
  const { symbols, apiPages } = await cachedSymbols(ROOT_DIR, async () => {
    const core = await readCoreSymbols(ROOT_DIR);
    const packageSymbols = await readPackageSymbols(ROOT_DIR, await otherPackages());
    return { symbols: [...core.symbols, ...packageSymbols], apiPages: core.apiPages };
  });
  const pages = readSitePages({
    siteBuild,
    rootDir: ROOT_DIR,
    sidebar,
    siteTitle: site.title,
    apiPages,
    apiSection,
  });
  return {
    format: BUNDLE_FORMAT,
    version,
    siteUrl: site.url,
    pages,
    symbols,
    errors: await readErrors(sidebar),
    packages: await readPackages(ROOT_DIR),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { out: { type: 'string' }, 'site-build': { type: 'string' } },
  });
  const out = values.out ?? DEFAULT_BUNDLE_FILE;
  const siteBuild = resolve(
    values['site-build'] ?? process.env[SITE_BUILD_ENV] ?? join(ROOT_DIR, 'build'),
  );
  const bundle = await buildBundle(siteBuild);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(bundle));
  process.stderr.write(
    `weft-docs-mcp data: ${bundle.pages.length} pages, ${bundle.symbols.length} symbols, ${bundle.errors.length} error codes, ${bundle.packages.length} packages → ${out}\n`,
  );
}

main().catch((error: unknown) => {
  // A site build to make first is the reader's next step, not a crash: its message says it all.
  const detail =
    error instanceof SiteBuildError
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  process.stderr.write(`Could not generate the docs bundle: ${detail}\n`);
  process.exitCode = 1;
});
