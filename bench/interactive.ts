/**
 * Does every page answer the first tap? Side by side with a stock Docusaurus 3.10 site (same
 * plugins, an announcement bar added), built in the same run: for each page type, each control
 * the reader can see (tests/e2e/support/first-tap.ts) and each CPU speed, it opens the page in a
 * fresh browser context, makes the interaction at the `load` event and, in other visits, at the
 * first moment the control is visible, and counts the taps the page lost (no effect within 5 s,
 * or an effect that undid itself; a visit that failed outright counts as lost and is reported).
 * It also prints the median time from navigation to hydration (Docusaurus sets
 * `data-has-hydrated` on <html> in its first effect; an init script marks `weft:hydrated` with
 * performance.mark when it appears).
 *
 * Prints tables; asserts nothing. Run: npm run bench -- interactive (build this site first with
 * npm run build). Environment:
 * - BENCH_VISITS: visits at `load` per page type, interaction, CPU rate and site (default 20);
 * - BENCH_VISITS_VISIBLE: visits at first visibility, likewise (default 5; that moment is
 *   compared with stock, not held to zero);
 * - BENCH_CPU_RATES: CPU slowdowns, comma-separated (default "1,4"; CDP
 *   Emulation.setCPUThrottlingRate);
 * - BENCH_PAGES: page types, comma-separated (default all: home, guide, API class, API index,
 *   plugins, 404);
 * - BENCH_TAPS: interactions by name, comma-separated (default all);
 * - BENCH_MOMENTS: "load", "visible" or both (default "load,visible");
 * - BENCH_STOCK=false measures this site only (no stock site is generated);
 * - BENCH_STOCK_DIR: where to keep the stock site; a stock site already built there is reused
 *   (generating and building it takes minutes), otherwise it is made there and kept;
 * - BENCH_PORT: the port this site is served on, the stock site on the next one (default 4320;
 *   both must be free, so that a server left by another run is never measured by mistake);
 * - CHROMIUM_PATH (default /usr/bin/chromium).
 *
 * Cost: one browser serves the whole run, each visit gets a fresh context, the stock build can
 * be kept and reused (BENCH_STOCK_DIR), and each control is tried only on the page types that
 * show it (a first probe visit per page type and width finds them, a fraction of
 * every page type x control pair). The defaults make 20 visits at `load` and 5 at first
 * visibility per pair, rate and site: thousands of visits, hours on a 2-core machine and longer
 * on a busy one. The script times one visit per rate and site and prints its own estimate
 * before the run, and the time left after each page type. For a quick look, narrow it
 * (BENCH_VISITS=2, BENCH_PAGES, BENCH_TAPS, BENCH_MOMENTS=load). Visits run one at a time: two at once would share the CPU and slow
 * hydration, which is what is being measured.
 */
import { type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '@weft-internal/test-support/chromium';
import {
  FIRST_TAPS,
  tapAt,
  VIEWPORTS,
  type FirstTap,
  type TapMoment,
  type TapOutcome,
  type Viewport,
} from '../tests/e2e/support/first-tap';
import {
  createStockSite,
  listFromEnv,
  median,
  positiveInteger,
  run,
  serve,
  siteDir,
  STOCK_PAGES,
  stop,
  WEFT_PAGES,
} from './support/sites';

const SCRIPT = 'bench -- interactive';
const NOT_FOUND_PATH = '/no-such-page-here/';
const PAGE_DEADLINE_MS = 30_000;

type PageType = keyof typeof WEFT_PAGES | '404';
const PAGE_TYPES: PageType[] = [...(Object.keys(WEFT_PAGES) as PageType[]), '404'];

interface Site {
  label: string;
  dir: string;
  port: number;
  pages: Record<PageType, string>;
}

function cpuRates(): number[] {
  const raw = process.env.BENCH_CPU_RATES ?? '1,4';
  const rates = raw.split(',').map((item) => Number(item.trim()));
  if (rates.some((rate) => !Number.isFinite(rate) || rate < 1)) {
    throw new Error(`${SCRIPT}: BENCH_CPU_RATES must be numbers of at least 1, got "${raw}"`);
  }
  return rates;
}

/**
 * tsx compiles this script with esbuild's keepNames, which wraps functions declared inside the
 * callbacks given to page.evaluate in calls to its `__name` helper; the page has no such helper.
 * Defined as the identity in every page, as the browser tests' own transform needs none.
 */
const NAME_HELPER = 'globalThis.__name = (target) => target;';

/** Marks `weft:hydrated` when Docusaurus flags the page as hydrated (same on both sites). */
const MARK_HYDRATION = `(() => {
  const observer = new MutationObserver(() => {
    if (document.documentElement.getAttribute('data-has-hydrated') === 'true') {
      performance.mark('weft:hydrated');
      observer.disconnect();
    }
  });
  // Init scripts run before <html> exists: watch the document for it.
  observer.observe(document, { subtree: true, attributes: true, attributeFilter: ['data-has-hydrated'] });
})();`;

/** Every permission any control needs (the copies read the clipboard back). */
const PERMISSIONS = [...new Set(FIRST_TAPS.flatMap((tap) => tap.permissions ?? []))];

interface Tally {
  lost: number;
  total: number;
  failed: number;
}

interface Visit {
  outcome: TapOutcome | 'failed' | null;
  hydratedMs: number | null;
  seconds: number;
}

async function visit(
  browser: Browser,
  url: string,
  tap: FirstTap,
  moment: TapMoment,
  rate: number,
  failures: Map<string, string>,
): Promise<Visit> {
  const started = Date.now();
  const context = await browser.newContext({
    viewport: VIEWPORTS[tap.viewport],
    permissions: tap.permissions ?? [],
  });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(PAGE_DEADLINE_MS);
    page.setDefaultNavigationTimeout(PAGE_DEADLINE_MS);
    await page.addInitScript(NAME_HELPER);
    await page.addInitScript(MARK_HYDRATION);
    if (rate > 1) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    }
    let outcome: Visit['outcome'];
    try {
      outcome = await tapAt(page, url, tap, moment);
    } catch (error) {
      // The control never showed, or the page never loaded: the reader got nothing either way.
      const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : `${error}`;
      failures.set(`${url} ${tap.name} @${moment} ${rate}x`, message);
      outcome = 'failed';
    }
    const hydratedMs = await page
      .evaluate(() => performance.getEntriesByName('weft:hydrated')[0]?.startTime ?? null)
      .catch(() => null);
    return { outcome, hydratedMs, seconds: (Date.now() - started) / 1000 };
  } finally {
    await context.close();
  }
}

/**
 * Which controls each page type of a site shows, from one load per page type and width (at 1x):
 * a control a page does not have then costs no visits.
 */
async function probe(
  browser: Browser,
  site: Site,
  pageTypes: PageType[],
  taps: FirstTap[],
): Promise<Map<PageType, Set<string>>> {
  const shown = new Map<PageType, Set<string>>();
  for (const pageType of pageTypes) {
    const names = new Set<string>();
    for (const viewport of Object.keys(VIEWPORTS) as Viewport[]) {
      const ofWidth = taps.filter((tap) => tap.viewport === viewport);
      if (ofWidth.length === 0) {
        continue;
      }
      const context = await browser.newContext({
        viewport: VIEWPORTS[viewport],
        permissions: PERMISSIONS,
      });
      try {
        const page = await context.newPage();
        page.setDefaultTimeout(PAGE_DEADLINE_MS);
        await page.goto(`http://127.0.0.1:${site.port}${site.pages[pageType]}`, {
          timeout: PAGE_DEADLINE_MS,
        });
        for (const tap of ofWidth) {
          if (await tap.applies(page)) {
            names.add(tap.name);
          }
        }
      } finally {
        await context.close();
      }
    }
    shown.set(pageType, names);
  }
  return shown;
}

async function assertPortFree(port: number): Promise<void> {
  const problem = await new Promise<string | undefined>((resolve) => {
    const probeServer = createServer();
    probeServer.once('error', (error) => resolve(error.message));
    probeServer.listen(port, '127.0.0.1', () => probeServer.close(() => resolve(undefined)));
  });
  if (problem !== undefined) {
    throw new Error(`${SCRIPT}: port ${port} is in use (${problem}); free it or set BENCH_PORT`);
  }
}

function formatDuration(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  const visitsAt: Record<TapMoment, number> = {
    load: positiveInteger(SCRIPT, 'BENCH_VISITS', 20),
    visible: positiveInteger(SCRIPT, 'BENCH_VISITS_VISIBLE', 5),
  };
  const rates = cpuRates();
  const pageTypes = listFromEnv(SCRIPT, 'BENCH_PAGES', PAGE_TYPES);
  const taps = listFromEnv(
    SCRIPT,
    'BENCH_TAPS',
    FIRST_TAPS.map((tap) => tap.name),
  ).map((name) => FIRST_TAPS.find((tap) => tap.name === name) as FirstTap);
  const moments = listFromEnv<TapMoment>(SCRIPT, 'BENCH_MOMENTS', ['load', 'visible']);
  const port = positiveInteger(SCRIPT, 'BENCH_PORT', 4320);
  if (!existsSync(path.join(siteDir, 'build', 'index.html'))) {
    throw new Error(`${SCRIPT}: no build/ in ${siteDir}; run npm run build first`);
  }

  const workDir = mkdtempSync(path.join(tmpdir(), 'weft-bench-interactive-'));
  const servers: ChildProcess[] = [];
  let browser: Browser | undefined;
  try {
    const sites: Site[] = [
      { label: 'Weft', dir: siteDir, port, pages: { ...WEFT_PAGES, '404': NOT_FOUND_PATH } },
    ];
    if (process.env.BENCH_STOCK !== 'false') {
      sites.push({
        label: 'stock 3.10',
        dir: stockSite(workDir),
        port: port + 1,
        pages: { ...STOCK_PAGES, '404': NOT_FOUND_PATH },
      });
    }
    for (const site of sites) {
      await assertPortFree(site.port);
      servers.push(await serve(SCRIPT, site.dir, site.port));
    }
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });

    const shown = new Map<string, Map<PageType, Set<string>>>();
    for (const site of sites) {
      shown.set(site.label, await probe(browser, site, pageTypes, taps));
    }
    const applies = (site: Site, pageType: PageType, tap: FirstTap) =>
      shown.get(site.label)?.get(pageType)?.has(tap.name) ?? false;

    // One timed visit per rate and site, on the first control the site shows: the estimate.
    const failures = new Map<string, string>();
    const secondsPerVisit = new Map<string, number>();
    for (const rate of rates) {
      for (const site of sites) {
        const pageType = pageTypes.find((type) => taps.some((tap) => applies(site, type, tap)));
        const tap = taps.find((candidate) => pageType && applies(site, pageType, candidate));
        if (pageType && tap) {
          const url = `http://127.0.0.1:${site.port}${site.pages[pageType]}`;
          const timed = await visit(browser, url, tap, 'load', rate, failures);
          secondsPerVisit.set(`${site.label}|${rate}`, timed.seconds);
        }
      }
    }
    let plannedVisits = 0;
    let plannedSeconds = 0;
    for (const rate of rates) {
      for (const site of sites) {
        const combos = pageTypes.reduce(
          (count, pageType) => count + taps.filter((tap) => applies(site, pageType, tap)).length,
          0,
        );
        const visits = combos * moments.reduce((sum, moment) => sum + visitsAt[moment], 0);
        plannedVisits += visits;
        plannedSeconds += visits * (secondsPerVisit.get(`${site.label}|${rate}`) ?? 0);
        console.log(
          `${SCRIPT}: ${site.label} at ${rate}x: ${combos} page type x control pairs, ` +
            `${visits} visits, one visit took ${(secondsPerVisit.get(`${site.label}|${rate}`) ?? 0).toFixed(1)} s`,
        );
      }
    }
    console.log(
      `${SCRIPT}: ${plannedVisits} visits in all; estimated ${formatDuration(plannedSeconds)} ` +
        `(setup so far took ${formatDuration((Date.now() - startedAt) / 1000)})`,
    );

    const tallies = new Map<string, Tally>();
    const hydration = new Map<string, number[]>();
    const key = (...parts: (string | number)[]) => parts.join('|');
    // Printed as each rate finishes, so a long run that is stopped early still reports.
    const printTables = (rate: number): void => {
      console.log(
        `\nTaps lost / made, ${rate}x CPU (fresh visits: ${moments
          .map((moment) => `${visitsAt[moment]} @${moment}`)
          .join(', ')}; "–": the page has no such control)`,
      );
      const rows: Record<string, string>[] = [];
      for (const pageType of pageTypes) {
        for (const tap of taps) {
          const row: Record<string, string> = { page: pageType, interaction: tap.name };
          let any = false;
          for (const site of sites) {
            for (const moment of moments) {
              const tally = tallies.get(key(site.label, rate, pageType, tap.name, moment));
              any ||= tally !== undefined;
              row[`${site.label} @${moment}`] = tally
                ? `${tally.lost}/${tally.total}${tally.failed ? ` (${tally.failed} failed)` : ''}`
                : '–';
            }
          }
          if (any) {
            rows.push(row);
          }
        }
      }
      console.table(rows);
      console.log(`Navigation to hydration, median ms, ${rate}x CPU`);
      console.table(
        pageTypes.map((pageType) => {
          const row: Record<string, string> = { page: pageType };
          for (const site of sites) {
            const times = hydration.get(key(site.label, rate, pageType)) ?? [];
            row[site.label] = times.length
              ? `${Math.round(median(times))} (n=${times.length})`
              : '–';
          }
          return row;
        }),
      );
    };
    let done = 0;
    const measuringFrom = Date.now();
    for (const rate of rates) {
      for (const pageType of pageTypes) {
        for (const tap of taps) {
          for (const moment of moments) {
            for (let round = 0; round < visitsAt[moment]; round += 1) {
              // Alternate which site goes first, so neither always meets a warmer machine.
              const order = round % 2 === 0 ? sites : [...sites].reverse();
              for (const site of order) {
                if (!applies(site, pageType, tap)) {
                  continue;
                }
                const url = `http://127.0.0.1:${site.port}${site.pages[pageType]}`;
                const result = await visit(browser, url, tap, moment, rate, failures);
                done += 1;
                if (result.hydratedMs !== null) {
                  const hydrationKey = key(site.label, rate, pageType);
                  hydration.set(hydrationKey, [
                    ...(hydration.get(hydrationKey) ?? []),
                    result.hydratedMs,
                  ]);
                }
                if (result.outcome === null) {
                  continue;
                }
                const tallyKey = key(site.label, rate, pageType, tap.name, moment);
                const tally = tallies.get(tallyKey) ?? { lost: 0, total: 0, failed: 0 };
                tally.total += 1;
                tally.lost += result.outcome === 'answered' ? 0 : 1;
                tally.failed += result.outcome === 'failed' ? 1 : 0;
                tallies.set(tallyKey, tally);
              }
            }
          }
        }
        const elapsed = (Date.now() - measuringFrom) / 1000;
        const left = done > 0 ? (elapsed / done) * Math.max(plannedVisits - done, 0) : 0;
        console.log(
          `${SCRIPT}: ${rate}x ${pageType} done (${done}/${plannedVisits} visits, ` +
            `${formatDuration(elapsed)} so far, about ${formatDuration(left)} left)`,
        );
      }
      printTables(rate);
    }

    if (failures.size > 0) {
      console.log('\nVisits that failed (counted as lost), last error of each:');
      for (const [where, message] of failures) {
        console.log(`- ${where}: ${message}`);
      }
    }
    const measured = (Date.now() - measuringFrom) / 1000;
    console.log(
      `\n${SCRIPT}: ${done} visits in ${formatDuration(measured)} ` +
        `(${done ? (measured / done).toFixed(1) : '–'} s a visit); whole run ` +
        `${formatDuration((Date.now() - startedAt) / 1000)}`,
    );
  } finally {
    await browser?.close();
    servers.forEach(stop);
    if (process.env.BENCH_KEEP !== 'true') {
      rmSync(workDir, { recursive: true, force: true });
    }
  }
}

/**
 * The stock site's folder: BENCH_STOCK_DIR when given (a build already there is reused), else a
 * folder in this run's temporary directory. Generating and building it takes a few minutes.
 */
function stockSite(workDir: string): string {
  const kept = process.env.BENCH_STOCK_DIR;
  const parent = kept ? path.resolve(kept) : workDir;
  const dir = path.join(parent, 'stock');
  if (existsSync(path.join(dir, 'build', 'index.html'))) {
    console.log(`${SCRIPT}: reusing the stock site built in ${dir}`);
    return dir;
  }
  mkdirSync(parent, { recursive: true });
  console.log(`${SCRIPT}: generating and building the stock site in ${dir}`);
  const made = createStockSite(parent);
  run('npx', ['docusaurus', 'build'], made);
  return made;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
