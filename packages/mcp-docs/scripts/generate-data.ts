/**
 * Writes `data/docs-bundle.json`, the documentation the server answers from, from the same
 * sources the site is built from: the guides in `docs/`, the API reference TypeDoc makes from
 * `@weft/core` (and the exports of the other first-party packages), every package's error
 * registry and the plugin catalogue. It needs no site build,
 * so it runs in the package's `build` (and `prepack`), and in the tests before they start the
 * server. Run from the repository: `npm run generate:data -w @weft/mcp-docs`.
 *
 * `--out <file>` writes elsewhere.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadErrorRegistries } from '@weft-internal/docs-model/error-registries';
import sidebars from '@weft-internal/docs-model/sidebar-order';
import { site } from '@weft-internal/docs-model/site';
import { readCatalogue } from '@weft-internal/docs-model/catalogue/catalogue';
import { cardFacts } from '@weft-internal/docs-model/catalogue/facts';
import {
  INSTALLATION_PATH,
  installCommand,
  PACKAGES_ON_NPM,
} from '@weft-internal/docs-model/catalogue/model';
import {
  BUNDLE_FORMAT,
  DEFAULT_BUNDLE_FILE,
  type CataloguePackage,
  type DocsBundle,
  type ErrorCodeDoc,
} from '../src/bundle.js';
import { readApiReference, readPackageSymbols, type PackageEntryPoints } from './api-symbols.js';
import { absoluteLinks, guideRoutes, readGuidePages } from './docs-pages.js';

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT_DIR = join(PACKAGE_DIR, '..', '..');
const ERRORS_PAGE = '/docs/reference/errors/';

/** The registries' Markdown links are relative to the errors page; the bundle's are site paths. */
function errorsPageLinks(markdown: string, routes: ReadonlyMap<string, string>): string {
  return absoluteLinks(markdown, 'reference/errors.md', (file) => routes.get(file));
}

async function readErrors(routes: ReadonlyMap<string, string>): Promise<ErrorCodeDoc[]> {
  const registries = await loadErrorRegistries();
  return registries.flatMap(({ registry }) =>
    Object.entries(registry.codes).map(([code, entry]) => ({
      code,
      packageName: registry.packageName,
      summary: entry.summary,
      ...(entry.status === undefined ? {} : { status: entry.status }),
      raisedBy: errorsPageLinks(entry.raisedBy, routes),
      cause: errorsPageLinks(entry.cause, routes),
      fix: errorsPageLinks(entry.fix, routes),
      docsPath: `${ERRORS_PAGE}#${code.toLowerCase()}`,
    })),
  );
}

/** The packages with the facts their cards on the plugins page show, in the page's words. */
async function readPackages(): Promise<CataloguePackage[]> {
  const { entries, errors } = await readCatalogue(join(ROOT_DIR, 'packages'));
  if (errors.length > 0) throw new Error(errors.map((error) => error.message).join('\n'));
  return entries.map((entry) => {
    const facts = new Map(cardFacts(entry).map((fact) => [fact.term, fact.items]));
    const fact = (term: string): string[] => {
      const items = facts.get(term);
      if (items === undefined) throw new Error(`The plugins page's cards no longer say "${term}"`);
      return items;
    };
    return {
      name: entry.name,
      displayName: entry.displayName,
      kind: entry.kind,
      version: entry.version,
      description: entry.description,
      keywords: entry.keywords,
      provides: fact('Provides'),
      requires: fact('Requires'),
      // The core's own card has no "Works with": its heading gives its version.
      worksWith: facts.get('Works with') ?? [],
      runsOn: fact('Runs on'),
      install: installCommand(entry),
      onNpm: PACKAGES_ON_NPM,
      installationPath: INSTALLATION_PATH,
      docsPath: entry.guide,
    };
  });
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

/** Builds the bundle from the repository's sources. */
export async function buildBundle(): Promise<DocsBundle> {
  const version = (
    JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string }
  ).version;
  // The sidebar module is CommonJS at the root; tsx hands it over as the default export.
  const sidebarModule = sidebars as typeof sidebars & { default?: typeof sidebars };
  const guides = readGuidePages(ROOT_DIR, (sidebarModule.default ?? sidebarModule).docs);
  const api = await readApiReference(ROOT_DIR);
  const packageSymbols = await readPackageSymbols(ROOT_DIR, await otherPackages());
  return {
    format: BUNDLE_FORMAT,
    version,
    siteUrl: site.url,
    pages: [...guides, ...api.pages],
    symbols: [...api.symbols, ...packageSymbols],
    errors: await readErrors(guideRoutes(ROOT_DIR)),
    packages: await readPackages(),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  const out = values.out ?? DEFAULT_BUNDLE_FILE;
  const bundle = await buildBundle();
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(bundle));
  process.stderr.write(
    `weft-docs-mcp data: ${bundle.pages.length} pages, ${bundle.symbols.length} symbols, ${bundle.errors.length} error codes, ${bundle.packages.length} packages → ${out}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Could not generate the docs bundle: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
