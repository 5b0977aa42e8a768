/**
 * Does every page answer the first tap? Side by side with a stock Docusaurus 3.10 site (same
 * plugins, an announcement bar added), built in the same run: for each page type, each control
 * the reader can see (tests/e2e/support/first-tap.ts) and each CPU speed, it opens the page in a
 * fresh browser context, makes the interaction at the `load` event and, in another visit, at the
 * first moment the control is visible, and counts the taps the page lost (no effect within 5 s,
 * or an effect that undid itself). It also prints the median time from navigation to hydration
 * (Docusaurus sets `data-has-hydrated` on <html> in its first effect; an init script marks
 * `weft:hydrated` with performance.mark when it appears).
 *
 * Prints tables; asserts nothing. Run: npm run bench:interactive. Environment:
 * - BENCH_VISITS: visits per page type, interaction, moment, CPU rate and site (default 20);
 * - BENCH_CPU_RATES: CPU slowdowns, comma-separated (default "1,4"; CDP
 *   Emulation.setCPUThrottlingRate);
 * - BENCH_PAGES: page types, comma-separated (default all: home, guide, API class, API index,
 *   plugins, 404);
 * - BENCH_TAPS: interactions by name, comma-separated (default all);
 * - BENCH_MOMENTS: "load", "visible" or both (default "load,visible");
 * - BENCH_STOCK=false measures this site only (no stock site is generated);
 * - CHROMIUM_PATH (default /usr/bin/chromium). Build this site first (npm run build).
 *
 * The defaults make 20 visits of each of about 60 combinations per site and rate: most of an
 * hour on a quiet machine. Narrow it with the variables above for a quick look.
 */
import { type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../tests/e2e/support/browser';
import {
  FIRST_TAPS,
  tapAt,
  VIEWPORTS,
  type FirstTap,
  type TapMoment,
} from '../tests/e2e/support/first-tap';
import {
  createStockSite,
  median,
  positiveInteger,
  run,
  serve,
  siteDir,
  STOCK_PAGES,
  stop,
  WEFT_PAGES,
} from './bench-sites';

const SCRIPT = 'bench:interactive';
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

function listFromEnv<T extends string>(name: string, all: readonly T[]): T[] {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') {
    return [...all];
  }
  const chosen = raw.split(',').map((item) => item.trim());
  const unknown = chosen.filter((item) => !all.includes(item as T));
  if (unknown.length > 0) {
    throw new Error(
      `${SCRIPT}: ${name} has ${unknown.map((item) => `"${item}"`).join(', ')}; expected some of: ${all.join(', ')}`,
    );
  }
  return chosen as T[];
}

function cpuRates(): number[] {
  const raw = process.env.BENCH_CPU_RATES ?? '1,4';
  const rates = raw.split(',').map((item) => Number(item.trim()));
  if (rates.some((rate) => !Number.isFinite(rate) || rate < 1)) {
    throw new Error(`${SCRIPT}: BENCH_CPU_RATES must be numbers of at least 1, got "${raw}"`);
  }
  return rates;
}

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

interface Tally {
  lost: number;
  total: number;
}

interface Visit {
  outcome: 'answered' | 'lost' | 'undone' | null;
  hydratedMs: number | null;
}

async function visit(
  browser: Browser,
  url: string,
  tap: FirstTap,
  moment: TapMoment,
  rate: number,
): Promise<Visit> {
  const context = await browser.newContext({ viewport: VIEWPORTS[tap.viewport] });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(PAGE_DEADLINE_MS);
    page.setDefaultNavigationTimeout(PAGE_DEADLINE_MS);
    await page.addInitScript(MARK_HYDRATION);
    if (rate > 1) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    }
    const outcome = await tapAt(page, url, tap, moment);
    const hydratedMs = await page.evaluate(
      () => performance.getEntriesByName('weft:hydrated')[0]?.startTime ?? null,
    );
    return { outcome, hydratedMs };
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const visits = positiveInteger(SCRIPT, 'BENCH_VISITS', 20);
  const rates = cpuRates();
  const pageTypes = listFromEnv('BENCH_PAGES', PAGE_TYPES);
  const taps = listFromEnv(
    'BENCH_TAPS',
    FIRST_TAPS.map((tap) => tap.name),
  ).map((name) => FIRST_TAPS.find((tap) => tap.name === name) as FirstTap);
  const moments = listFromEnv<TapMoment>('BENCH_MOMENTS', ['load', 'visible']);
  if (!existsSync(path.join(siteDir, 'build', 'index.html'))) {
    throw new Error(`${SCRIPT}: no build/ in ${siteDir}; run npm run build first`);
  }

  const workDir = mkdtempSync(path.join(tmpdir(), 'weft-bench-interactive-'));
  const servers: ChildProcess[] = [];
  let browser: Browser | undefined;
  try {
    const sites: Site[] = [
      { label: 'Weft', dir: siteDir, port: 4320, pages: { ...WEFT_PAGES, '404': NOT_FOUND_PATH } },
    ];
    if (process.env.BENCH_STOCK !== 'false') {
      console.log(`${SCRIPT}: generating and building the stock site in ${workDir}`);
      const stockDir = createStockSite(workDir);
      run('npx', ['docusaurus', 'build'], stockDir);
      sites.push({
        label: 'stock 3.10',
        dir: stockDir,
        port: 4321,
        pages: { ...STOCK_PAGES, '404': NOT_FOUND_PATH },
      });
    }
    for (const site of sites) {
      servers.push(await serve(SCRIPT, site.dir, site.port));
    }
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });

    const tallies = new Map<string, Tally>();
    const hydration = new Map<string, number[]>();
    const key = (...parts: (string | number)[]) => parts.join('|');
    for (const rate of rates) {
      for (const pageType of pageTypes) {
        for (const tap of taps) {
          for (const moment of moments) {
            for (let round = 0; round < visits; round += 1) {
              // Alternate which site goes first, so neither always meets a warmer machine.
              const order = round % 2 === 0 ? sites : [...sites].reverse();
              for (const site of order) {
                const url = `http://127.0.0.1:${site.port}${site.pages[pageType]}`;
                const result = await visit(browser, url, tap, moment, rate);
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
                const tally = tallies.get(tallyKey) ?? { lost: 0, total: 0 };
                tally.total += 1;
                tally.lost += result.outcome === 'answered' ? 0 : 1;
                tallies.set(tallyKey, tally);
              }
            }
          }
        }
        process.stdout.write(`${SCRIPT}: ${rate}x ${pageType} done\n`);
      }
    }

    for (const rate of rates) {
      console.log(`\nTaps lost / made, ${rate}x CPU (${visits} fresh visits each)`);
      const rows: Record<string, string>[] = [];
      for (const pageType of pageTypes) {
        for (const tap of taps) {
          const row: Record<string, string> = { page: pageType, interaction: tap.name };
          let any = false;
          for (const site of sites) {
            for (const moment of moments) {
              const tally = tallies.get(key(site.label, rate, pageType, tap.name, moment));
              any ||= tally !== undefined;
              row[`${site.label} @${moment}`] = tally ? `${tally.lost}/${tally.total}` : '–';
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
    }
  } finally {
    await browser?.close();
    servers.forEach(stop);
    if (process.env.BENCH_KEEP !== 'true') {
      rmSync(workDir, { recursive: true, force: true });
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
