/**
 * How long a contributor waits: `npm start` for this site against `docusaurus start` for the
 * stock Docusaurus 3.10 site (bench-sites.ts, same node_modules), in the same run, alternating.
 *
 * For each run and each site, cold (the dev caches cleared: `.docusaurus/` and
 * `node_modules/.cache/`) and warm (straight after another start), it measures:
 * - first answer: from spawning the command to the first answer to `/` with HTTP 200 and a
 *   whole HTML document (the dev server holds requests until its first compilation is done);
 * - home page shown: from spawning the command to the home page, opened in Chromium at the first
 *   answer, rendered (Docusaurus marks <html> `data-has-hydrated` once the page's route has
 *   rendered, and a `main` element is there). This is what a contributor waits for, and the
 *   figure the ratio is judged on: a dev server that compiles pages on demand (such as Rspack's
 *   lazy compilation) answers before the page can show;
 * - its processor time: the user and system CPU time of the command's whole process group (npm,
 *   its scripts, the dev server with its compiler threads) when the home page is shown, read
 *   from /proc (Linux only). On a shared machine it is steadier than the wait, which other work
 *   stretches;
 * - edit: with the guide open in Chromium, from appending a sentence to its Markdown file to the
 *   sentence showing in the page (hot reload), as the page itself notes it, for a few edits; the
 *   file is restored each time.
 *
 * Cold keeps this site's generated assets (the API pages, PWA icons, diagrams, whitepaper) and
 * their stamps in .cache/generated-assets/: they are made once per change of their sources, not
 * once per start, and `docusaurus clear` keeps them too. BENCH_DEV_FIRST=true clears them as
 * well, for the time a fresh clone waits once.
 *
 * Prints medians and the ratios ours/stock; asserts nothing. The machine this runs on may be
 * shared: compare figures from one run only. Run: npm run bench -- dev. Environment:
 * - BENCH_DEV_RUNS: starts per site and cache state (default 3);
 * - BENCH_DEV_EDITS: edits timed per start (default 3);
 * - BENCH_DEV_PORT: the port both dev servers take in turn (default 4181);
 * - BENCH_DEV_FIRST=true: see above; CHROMIUM_PATH (default /usr/bin/chromium);
 * - DEV_API_PAGES=true: passed on to `npm start`, which then serves the API reference's pages
 *   too (src/config/api-in-dev.ts), to time what a contributor editing TSDoc waits.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '@weft-internal/test-support/chromium';
import {
  createStockSite,
  median,
  positiveInteger,
  siteDir,
  STOCK_PAGES,
  WEFT_PAGES,
} from './support/sites';

const SCRIPT = 'bench -- dev';
const FIRST_PAGE_DEADLINE_MS = 300_000;
const EDIT_DEADLINE_MS = 30_000;
const STOP_DEADLINE_MS = 15_000;

type CacheState = 'cold' | 'warm';

interface DevSite {
  label: 'ours' | 'stock';
  dir: string;
  command: string;
  args: (port: number) => string[];
  /** The guide page and the Markdown file it is made from. */
  guidePath: string;
  guideFile: string;
}

interface StartFigures {
  firstAnswerMs: number;
  firstPageMs: number;
  /** CPU time of the command's process group when the home page is shown; undefined off Linux. */
  firstPageCpuMs: number | undefined;
  editMs: number[];
}

/** The guide file being edited and its text, put back if the run is interrupted mid-edit. */
let editInProgress: { file: string; original: string } | undefined;
process.once('SIGINT', () => {
  if (editInProgress !== undefined) {
    writeFileSync(editInProgress.file, editInProgress.original);
  }
  process.exit(130);
});

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function clearDevCaches(site: DevSite, firstStart: boolean): void {
  rmSync(path.join(site.dir, '.docusaurus'), { recursive: true, force: true });
  // Each site has its own node_modules/.cache (see createStockSite).
  rmSync(path.join(site.dir, 'node_modules', '.cache'), { recursive: true, force: true });
  if (firstStart && site.label === 'ours') {
    rmSync(path.join(siteDir, '.cache', 'generated-assets'), { recursive: true, force: true });
  }
}

/** Polls `/` until the dev server answers it with a whole page, or throws at the deadline. */
async function waitForFirstPage(port: number, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + FIRST_PAGE_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) {
      throw new Error(
        `${SCRIPT}: the dev server exited with code ${server.exitCode} before serving`,
      );
    }
    try {
      const response = await fetch(`http://127.0.0.1:${port}/`, {
        signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
      });
      const html = await response.text();
      if (response.status === 200 && html.includes('</html>') && html.includes('<script')) {
        return;
      }
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  throw new Error(`${SCRIPT}: no page on port ${port} within ${FIRST_PAGE_DEADLINE_MS} ms`);
}

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`), or undefined off Linux. */
function clockTicksPerSecond(): number | undefined {
  if (process.platform !== 'linux') {
    return undefined;
  }
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 5_000 }));
  } catch {
    return 100;
  }
}
const CLOCK_TICKS = clockTicksPerSecond();

/**
 * User and system CPU time, in ms, of every live process in process group `groupId`, with the
 * children each has waited for (the asset generation `npm start` runs first counts in its npm's figures).
 */
function processGroupCpuMs(groupId: number): number | undefined {
  if (CLOCK_TICKS === undefined) {
    return undefined;
  }
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // Exited meanwhile.
    }
    // Fields after the command name, which is in parentheses and may hold spaces: state is
    // field 3, the process group 5, utime, stime, cutime and cstime 14 to 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) !== groupId) {
      continue;
    }
    for (const index of [11, 12, 13, 14]) {
      ticks += Number(fields[index] ?? 0);
    }
  }
  return (ticks / CLOCK_TICKS) * 1000;
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.pid === undefined || server.exitCode !== null) {
    return;
  }
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  try {
    // npm and npx start the server as a child: end the whole group.
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    return;
  }
  await Promise.race([exited, sleep(STOP_DEADLINE_MS)]);
  if (server.exitCode === null) {
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
}

/**
 * Appends a sentence to the guide's Markdown and times until the open page shows it. The page
 * notes the moment itself (a MutationObserver reading the article's text, on the wall clock the
 * script shares with it): waiting with Playwright's text locator instead added its own polling
 * to the figure, and on a long guide it also took the main thread from the update it was
 * waiting for.
 */
async function timeEdits(
  browser: Browser,
  site: DevSite,
  port: number,
  edits: number,
): Promise<number[]> {
  const page = await browser.newPage();
  const original = readFileSync(site.guideFile, 'utf8');
  editInProgress = { file: site.guideFile, original };
  const times: number[] = [];
  try {
    await page.goto(`http://127.0.0.1:${port}${site.guidePath}`, { timeout: EDIT_DEADLINE_MS });
    await page.locator('article h1').first().waitFor({ timeout: EDIT_DEADLINE_MS });
    for (let edit = 0; edit < edits; edit += 1) {
      const sentence = `Benchmark edit ${Date.now().toString(36)} number ${edit + 1}.`;
      await page.evaluate(watchForText, sentence);
      const written = Date.now();
      writeFileSync(site.guideFile, `${original.trimEnd()}\n\n${sentence}\n`);
      const shown = await page.waitForFunction(() => window.__benchTextShownAt, undefined, {
        timeout: EDIT_DEADLINE_MS,
      });
      times.push(Number(await shown.jsonValue()) - written);
      writeFileSync(site.guideFile, original);
      await page.getByText(sentence).waitFor({ state: 'detached', timeout: EDIT_DEADLINE_MS });
    }
  } finally {
    writeFileSync(site.guideFile, original);
    editInProgress = undefined;
    await page.close();
  }
  return times;
}

declare global {
  interface Window {
    __benchTextShownAt?: number;
  }
}

/** Runs in the page: notes when the article first contains `text` (see timeEdits). */
function watchForText(text: string): void {
  window.__benchTextShownAt = undefined;
  const observer = new MutationObserver(() => {
    if (document.querySelector('article')?.textContent?.includes(text) === true) {
      window.__benchTextShownAt = Date.now();
      observer.disconnect();
    }
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
}

/** Opens `/` and waits until the page has rendered its route (see the comment at the top). */
async function waitForHomeShown(browser: Browser, port: number): Promise<void> {
  const page = await browser.newPage();
  try {
    await page.goto(`http://127.0.0.1:${port}/`, { timeout: FIRST_PAGE_DEADLINE_MS });
    await page.waitForFunction(
      () =>
        document.documentElement.getAttribute('data-has-hydrated') === 'true' &&
        document.querySelector('main') !== null,
      undefined,
      { timeout: FIRST_PAGE_DEADLINE_MS, polling: 50 },
    );
  } finally {
    await page.close();
  }
}

async function measureStart(
  browser: Browser,
  site: DevSite,
  port: number,
  edits: number,
): Promise<StartFigures> {
  const started = performance.now();
  const server = spawn(site.command, site.args(port), {
    cwd: site.dir,
    stdio: 'ignore',
    detached: true,
    env: { ...process.env, BROWSER: 'none' },
  });
  try {
    await waitForFirstPage(port, server);
    const firstAnswerMs = performance.now() - started;
    await waitForHomeShown(browser, port);
    const firstPageMs = performance.now() - started;
    const firstPageCpuMs = server.pid === undefined ? undefined : processGroupCpuMs(server.pid);
    return {
      firstAnswerMs,
      firstPageMs,
      firstPageCpuMs,
      editMs: await timeEdits(browser, site, port, edits),
    };
  } finally {
    await stopServer(server);
  }
}

const loadAverage = (): string => (loadavg()[0] ?? 0).toFixed(2);
const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const ratio = (ours: number, stock: number): string => `${(ours / stock).toFixed(2)}x`;
const cpuSeconds = (ms: number | undefined): string => (ms === undefined ? 'n/a' : seconds(ms));

async function main(): Promise<void> {
  const runs = positiveInteger(SCRIPT, 'BENCH_DEV_RUNS', 3);
  const edits = positiveInteger(SCRIPT, 'BENCH_DEV_EDITS', 3);
  const port = positiveInteger(SCRIPT, 'BENCH_DEV_PORT', 4181);
  const firstStart = process.env.BENCH_DEV_FIRST === 'true';
  const workDir = mkdtempSync(path.join(tmpdir(), 'weft-bench-dev-'));
  const loadAtStart = loadAverage();
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    console.log(`${SCRIPT}: generating the stock site in ${workDir}`);
    const stockDir = createStockSite(workDir);
    const sites: DevSite[] = [
      {
        label: 'ours',
        dir: siteDir,
        command: 'npm',
        args: (p) => ['start', '--', '--port', String(p), '--host', '127.0.0.1', '--no-open'],
        guidePath: WEFT_PAGES.guide,
        guideFile: path.join(siteDir, 'docs', 'getting-started.md'),
      },
      {
        label: 'stock',
        dir: stockDir,
        command: 'npx',
        args: (p) => [
          'docusaurus',
          'start',
          '--port',
          String(p),
          '--host',
          '127.0.0.1',
          '--no-open',
        ],
        guidePath: STOCK_PAGES.guide,
        guideFile: path.join(stockDir, 'docs', 'intro.mdx'),
      },
    ];
    const figures = new Map<string, StartFigures[]>();
    for (let runIndex = 0; runIndex < runs; runIndex += 1) {
      // Alternate which site goes first, so neither always meets the busier moment.
      const order = runIndex % 2 === 0 ? sites : [...sites].reverse();
      for (const state of ['cold', 'warm'] as CacheState[]) {
        for (const site of order) {
          if (state === 'cold') {
            clearDevCaches(site, firstStart);
          }
          const result = await measureStart(browser, site, port, edits);
          const key = `${site.label} ${state}`;
          figures.set(key, [...(figures.get(key) ?? []), result]);
          console.log(
            `${SCRIPT}: run ${runIndex + 1}/${runs} ${key}: first answer ${seconds(result.firstAnswerMs)}, home page shown ${seconds(result.firstPageMs)} (CPU ${cpuSeconds(result.firstPageCpuMs)}), edits ${result.editMs.map((ms) => seconds(ms)).join(', ')}; load average ${loadAverage()}`,
          );
        }
      }
    }
    printTable(figures, runs, edits, firstStart);
    console.log(
      `\nLoad average (1 min) at the start: ${loadAtStart}; at the end: ${loadAverage()}.`,
    );
  } finally {
    await browser.close();
    rmSync(workDir, { recursive: true, force: true });
  }
}

function printTable(
  figures: Map<string, StartFigures[]>,
  runs: number,
  edits: number,
  firstStart: boolean,
): void {
  const medianOf = (key: string, pick: (start: StartFigures) => number[]): number =>
    median((figures.get(key) ?? []).flatMap(pick));
  console.log(
    `\nDev server, medians of ${runs} starts (${edits} edits each) per row; cold = .docusaurus and node_modules/.cache cleared${firstStart ? ', and the generated assets too' : ''}; ours ${process.env.DEV_API_PAGES === 'true' ? 'with' : 'without'} the API pages (DEV_API_PAGES). Shared machine: compare within this run only.\n`,
  );
  console.log(
    '| cache | first answer, ours | stock | home page shown, ours | stock | ours/stock | its CPU time, ours | stock | ours/stock | edit shown, ours | stock | ours/stock |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const state of ['cold', 'warm'] as CacheState[]) {
    const answer = (label: string): number =>
      medianOf(`${label} ${state}`, (s) => [s.firstAnswerMs]);
    const first = (label: string): number => medianOf(`${label} ${state}`, (s) => [s.firstPageMs]);
    const cpu = (label: string): number | undefined => {
      const times = (figures.get(`${label} ${state}`) ?? []).map((s) => s.firstPageCpuMs);
      return times.every((ms) => ms !== undefined) ? median(times as number[]) : undefined;
    };
    const cpuOurs = cpu('ours');
    const cpuStock = cpu('stock');
    const cpuRatio =
      cpuOurs === undefined || cpuStock === undefined ? 'n/a' : ratio(cpuOurs, cpuStock);
    const edit = (label: string): number => medianOf(`${label} ${state}`, (s) => s.editMs);
    console.log(
      `| ${state} | ${seconds(answer('ours'))} | ${seconds(answer('stock'))} | ${seconds(first('ours'))} | ${seconds(first('stock'))} | ${ratio(first('ours'), first('stock'))} | ${cpuSeconds(cpuOurs)} | ${cpuSeconds(cpuStock)} | ${cpuRatio} | ${seconds(edit('ours'))} | ${seconds(edit('stock'))} | ${ratio(edit('ours'), edit('stock'))} |`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
