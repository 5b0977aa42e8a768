/**
 * Prints what a first visit downloads per page type (JavaScript and CSS, raw and gzipped; then
 * the components and data its routes load before hydrating) and the largest modules of the
 * entry bundle, from the last build (`npm run build` first; the
 * module list comes from .docusaurus/bundle-stats.json, written by src/plugins/bundle-stats).
 *
 * Run: npm run bench -- bundle [<number of modules to list, default 30>]
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIRST_LOAD_PAGES, firstLoad } from '../tooling/first-load';
import { routeChunks } from '../tooling/route-chunks';
import { BUNDLE_STATS_FILE, type BundleStats } from '../src/plugins/bundle-stats/model';

const siteDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const buildDir = path.join(siteDir, 'build');
const statsFile = path.join(siteDir, '.docusaurus', BUNDLE_STATS_FILE);

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;

/** "./node_modules/@scope/name/lib/x.js" → "@scope/name"; site files keep their path. */
function packageOf(moduleName: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(moduleName);
  return (match ? match[1] : moduleName.replace(/^\.\//, '').split(' ')[0]) ?? moduleName;
}

function main(): void {
  const moduleCount = Number(process.argv[2] ?? 30);
  if (!Number.isInteger(moduleCount) || moduleCount < 1) {
    throw new Error(
      `report:bundle: the module count must be a positive integer, got "${process.argv[2]}"`,
    );
  }
  if (!existsSync(path.join(buildDir, 'index.html'))) {
    throw new Error(`report:bundle: no build in ${buildDir}; run "npm run build" first`);
  }

  console.log('First load per page (gzip -9)');
  console.table(
    FIRST_LOAD_PAGES.map((route) => {
      const load = firstLoad(buildDir, route);
      return {
        page: route,
        'JS gzip': kib(load.scriptsGzip),
        'JS raw': kib(load.scriptsRaw),
        'JS files': load.scripts.map((script) => path.basename(script.file)).join(' '),
        'CSS gzip': kib(load.stylesheetsGzip),
      };
    }),
  );

  console.log(
    "\nLoaded by the page's routes before it hydrates (gzip -9; tooling/route-chunks.ts)",
  );
  console.table(
    FIRST_LOAD_PAGES.map((route) => {
      const chunks = routeChunks(siteDir, buildDir, route);
      return {
        page: route,
        components: kib(chunks.componentsGzip),
        'component files': chunks.components.map((file) => path.basename(file.file)).join(' '),
        data: kib(chunks.dataGzip),
      };
    }),
  );

  if (!existsSync(statsFile)) {
    throw new Error(`report:bundle: ${statsFile} is missing; it is written by every build`);
  }
  const stats = JSON.parse(readFileSync(statsFile, 'utf8')) as BundleStats;
  const scripts = stats.modules.filter((module) => !module.name.startsWith('css '));
  const byPackage = new Map<string, number>();
  for (const module of scripts) {
    byPackage.set(
      packageOf(module.name),
      (byPackage.get(packageOf(module.name)) ?? 0) + module.size,
    );
  }
  console.log(`\nEntry bundle by package (bytes before minification, ${scripts.length} modules)`);
  console.table(
    [...byPackage]
      .sort((a, b) => b[1] - a[1])
      .slice(0, moduleCount)
      .map(([name, size]) => ({ package: name, size: kib(size) })),
  );
  console.log(`\nLargest ${moduleCount} modules of the entry bundle, and what imported them`);
  console.table(
    scripts.slice(0, moduleCount).map((module) => ({
      module: module.name.replace('./node_modules/', ''),
      size: kib(module.size),
      'imported by': module.issuer.replace('./node_modules/', ''),
    })),
  );
}

main();
