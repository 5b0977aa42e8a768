/**
 * First-load bytes per page: the JavaScript and CSS a first visit downloads before the page
 * works (the files its HTML references: Docusaurus's runtime, the entry bundle, the stylesheet),
 * gzipped at level 9, and the components its routes load before it hydrates (tooling/route-chunks.ts). A budget catches a dependency or a theme component that pulls code into
 * every page; see "Size and speed" in docs/contributing-guide.md and run `npm run bench -- bundle`
 * to see which modules the bytes come from.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIRST_LOAD_PAGES, firstLoad, type FirstLoadPage } from '../../tooling/first-load';
import { routeChunks } from '../../tooling/route-chunks';
import { BUNDLE_STATS_FILE, type BundleStats } from '../../src/plugins/bundle-stats/model';
import * as tslibHelpers from '../../src/plugins/lean-client/tslib-helpers';
import { assertBuildExists, buildDir } from './support/build-output';

/**
 * Gzipped JavaScript budget in bytes, the same on every page. It is a round ceiling of 115 KiB,
 * not the latest measurement plus a few bytes: a budget that close fails on any Docusaurus patch
 * release whether or not anything was wrong. The few kilobytes of headroom absorb such drift and
 * still fail a dependency or component pulled into every page (those seen so far added 0.6 KB or
 * more, so compare with `npm run bench -- bundle` when the figure moves by that much). Lower it as
 * the bundle shrinks towards the 100 KB goal. `npm run bench -- bundle` prints each page's figure.
 */
const JS_GZIP_CEILING = 117_760;
const JS_GZIP_BUDGET: Record<FirstLoadPage, number> = {
  '/': JS_GZIP_CEILING,
  '/docs/getting-started/': JS_GZIP_CEILING,
  '/api/classes/Runtime/': JS_GZIP_CEILING,
  '/api/': JS_GZIP_CEILING,
  '/plugins/': JS_GZIP_CEILING,
};
/**
 * Gzipped CSS budget in bytes, every page's stylesheet: a little above the measurement, since the
 * stylesheet changes only when a rule is added, and a rule that reaches every page should be
 * noticed (`npm run bench -- bundle` prints the figure).
 */
const CSS_GZIP_BUDGET = 16_100;
/**
 * Gzipped bytes of the components a page's routes load before it hydrates (the theme's doc layout,
 * sidebar, TOC, code block and so on). The page's Markdown and the sidebar data are not counted,
 * so writing docs never breaks this. Each budget is a little above that page's measurement
 * (`npm run bench -- bundle` prints it), so a component that starts loading on a first visit, such
 * as a highlighter that should wait for interaction, fails here by page.
 */
const ROUTE_COMPONENTS_GZIP_BUDGET: Record<FirstLoadPage, number> = {
  // The home page's component holds the text of the getting-started sample it shows, so an edit
  // to that sample's comments moves this figure: 150 bytes of headroom rather than 50.
  '/': 7_800,
  '/docs/getting-started/': 21_200,
  '/api/classes/Runtime/': 21_200,
  '/api/': 21_200,
  '/plugins/': 2_500,
};

beforeAll(assertBuildExists);

describe('first-load bytes per page', () => {
  it.each(FIRST_LOAD_PAGES)('%s stays within its JavaScript and CSS budgets [claim:cg-budget-per-page-type]', (route) => {
    const load = firstLoad(buildDir, route);
    expect(load.scripts.length).toBeGreaterThan(0);
    expect(load.stylesheets.length).toBeGreaterThan(0);
    console.info(
      `${route}: JS ${load.scriptsGzip} bytes gzipped (${load.scriptsRaw} raw) in ${load.scripts.length} files, budget ${JS_GZIP_BUDGET[route]}; CSS ${load.stylesheetsGzip} gzipped, budget ${CSS_GZIP_BUDGET}`,
    );
    expect(load.scriptsGzip).toBeLessThanOrEqual(JS_GZIP_BUDGET[route]);
    expect(load.stylesheetsGzip).toBeLessThanOrEqual(CSS_GZIP_BUDGET);
  });
});

describe('components each page type loads before it hydrates', () => {
  it.each(FIRST_LOAD_PAGES)('%s stays within its route-components budget [claim:cg-budget-leaves-out-page-data]', (route) => {
    const chunks = routeChunks(path.resolve(buildDir, '..'), buildDir, route);
    expect(chunks.components.length).toBeGreaterThan(0);
    console.info(
      `${route}: route components ${chunks.componentsGzip} bytes gzipped in ${chunks.components.map((file) => path.basename(file.file)).join(' ')}, budget ${ROUTE_COMPONENTS_GZIP_BUDGET[route]}; data ${chunks.dataGzip}`,
    );
    expect(chunks.componentsGzip).toBeLessThanOrEqual(ROUTE_COMPONENTS_GZIP_BUDGET[route]);
  });
});

describe('client bundle stand-ins', () => {
  it('the tslib stand-in provides every helper the client bundle calls [claim:cg-size-tslib-helpers]', () => {
    const statsFile = path.resolve(buildDir, '..', '.docusaurus', BUNDLE_STATS_FILE);
    expect(existsSync(statsFile), `${statsFile} is written by every build`).toBe(true);
    const stats = JSON.parse(readFileSync(statsFile, 'utf8')) as BundleStats;
    // The stats describe the build under test: its entry bundle is the one the pages load.
    const homeScripts = firstLoad(buildDir, '/').scripts.map((script) => script.file);
    for (const file of stats.files.filter((name) => name.endsWith('.js'))) {
      expect(homeScripts).toContain(`/${file}`);
    }
    const provided = Object.keys(tslibHelpers);
    const missing = stats.tslibHelpers.filter((helper) => !provided.includes(helper));
    expect(missing, 'add these to src/plugins/lean-client/tslib-helpers.ts').toEqual([]);
  });
});

describe('what the entry bundle leaves out', () => {
  /** The text of every script a first visit of the home page loads. */
  const firstLoadScripts = (): string =>
    firstLoad(buildDir, '/')
      .scripts.map((script) => readFileSync(path.join(buildDir, script.file), 'utf8'))
      .join('\n');

  it('holds the client-side site config without the options only the build reads', () => {
    const scripts = firstLoadScripts();
    expect(scripts).toContain('themeConfig');
    for (const buildOnly of ['remarkPlugins', 'onBrokenLinks', 'docusaurus-search-local",{hashed']) {
      expect(scripts, buildOnly).not.toContain(buildOnly);
    }
  });

  it('holds the chunk registry without the source path of every page, and the route of every page [claim:cg-budget-leaves-out-page-data]', () => {
    const scripts = firstLoadScripts();
    // The route table still names every page; the registry no longer names its source file.
    expect(scripts).toContain('/api/classes/Runtime/');
    expect(scripts).not.toMatch(/"@site\/(docs|api)\//);
  });

  it('leaves the plugins catalogue to its own chunk', () => {
    const scripts = firstLoadScripts();
    expect(scripts).not.toContain('@weft/memory-sqlite');
  });
});
