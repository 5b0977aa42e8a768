/**
 * Side-by-side benchmark of this site against a stock Docusaurus 3.10 classic site with the same
 * PWA and local-search plugins, built and measured in the same run on the same machine. Prints
 * cold build times (with their ratio to stock's and the build's peak memory) and Lighthouse mobile medians (performance score, total blocking time,
 * largest contentful paint) per page type; asserts nothing (timings swing run to run, so compare
 * the two columns, not absolute numbers).
 *
 * The stock site is generated into a temporary folder with create-docusaurus from the npm
 * registry and shares this site's node_modules (same Docusaurus, React and plugin versions); it
 * is deleted afterwards. Lighthouse runs through npx with the system Chromium, never a
 * downloaded browser.
 *
 * Run: npm run bench -- site. Environment: BENCH_RUNS (Lighthouse runs per page and site,
 * default 3), BENCH_PAGES (page types, comma-separated, default all: home, guide, API class,
 * API index, plugins; to give one page more runs), BENCH_BUILDS (cold builds per site, alternating, default 1), CHROME_PATH
 * (default /usr/bin/chromium), BENCH_KEEP=true keeps the temporary folder, BENCH_BASELINE_REF
 * (a git commit of this repository, e.g. one before a performance change) adds this site as it
 * was at that commit as a third column, checked out into the temporary folder with this
 * checkout's node_modules, so a change is judged against the site before it in the same run.
 * BENCH_FIRST_BUILDS (default 1; 0 for none) times as many first builds of a fresh clone of this
 * checkout's HEAD (nothing generated, no caches), and of BENCH_BASELINE_REF when it is set,
 * after each round of cold builds.
 * BENCH_LIGHTHOUSE=false stops after the builds' tables.
 * BENCH_THROTTLING=devtools runs Lighthouse with the CPU and network really slowed down instead
 * of its default simulation, which estimates the slowed-down timeline from an unthrottled load:
 * the two can disagree about blocking time (see "Size and speed" in docs/contributing-guide.md).
 */
import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createStockSite,
  median,
  listFromEnv,
  nonNegativeInteger as readWholeNumber,
  positiveInteger as readCount,
  run,
  serve as serveSite,
  siteDir,
  STOCK_PAGES,
  stop,
  WEFT_PAGES,
} from './support/sites';
import { firstLoad } from '../tooling/first-load';
import { BUILD_PARTS, buildParts } from '../tooling/build-parts';

const LIGHTHOUSE = 'lighthouse@13.5.0';
const CHROME_FLAGS = '--headless=new --no-sandbox --disable-gpu --disable-background-networking';

const positiveInteger = (name: string, fallback: number): number =>
  readCount('bench -- site', name, fallback);
const nonNegativeInteger = (name: string, fallback: number): number =>
  readWholeNumber('bench -- site', name, fallback);

interface SiteUnderTest {
  label: string;
  dir: string;
  port: number;
  /** Page type → path on that site. The stock site has no API reference or plugins page. */
  pages: Record<string, string>;
  /** The command that builds the site, run in `dir`. */
  build: [string, string[]];
}

const ALL_PAGE_TYPES = ['home', 'guide', 'API class', 'API index', 'plugins'] as const;

/** GNU time, which reports the largest resident set of a command and its children. */
const GNU_TIME = '/usr/bin/time';

interface BuildFigures {
  seconds: number;
  /** Peak resident memory of the build's largest process, in MB; NaN without GNU time. */
  peakMb: number;
  /** Seconds of each part of BUILD_PARTS the build's output named. */
  parts: Map<string, number>;
}

/** Times `site.build` in `site.dir`, with `env` added to this process's environment. */
function timeBuild(
  site: SiteUnderTest,
  workDir: string,
  env: NodeJS.ProcessEnv = {},
): BuildFigures {
  const memoryFile = path.join(workDir, 'peak-kb.txt');
  const [command, args] = site.build;
  const measured: [string, string[]] = existsSync(GNU_TIME)
    ? [GNU_TIME, ['-f', '%M', '-o', memoryFile, command, ...args]]
    : [command, args];
  const start = process.hrtime.bigint();
  const result = spawnSync(measured[0], measured[1], {
    cwd: site.dir,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, ...env, DOCUSAURUS_PERF_LOGGER: 'true' },
  });
  if (result.status !== 0) {
    // The builds' output is not shown (it would bury the figures): name the site to rebuild.
    throw new Error(
      `bench:site: the build of ${site.label} failed; run \`${command} ${args.join(' ')}\` in ${site.dir} to see why`,
      { cause: result.error },
    );
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const peakMb = existsSync(GNU_TIME)
    ? Number(readFileSync(memoryFile, 'utf8').trim().split('\n').pop()) / 1024
    : Number.NaN;
  return { seconds, peakMb, parts: buildParts(`${result.stdout}\n${result.stderr}`) };
}

function timeColdBuild(site: SiteUnderTest, workDir: string): BuildFigures {
  run('npx', ['docusaurus', 'clear'], site.dir);
  return timeBuild(site, workDir);
}

/**
 * The first `npm run build` of a fresh clone of this checkout at `ref` (committed work only):
 * nothing generated, no cache of its own, and a temporary folder of its own (tsx keeps its
 * compiled files there). It shares the installed packages, as after `npm ci`.
 */
function timeFirstBuild(workDir: string, ref: string): BuildFigures {
  const dir = mkdtempSync(path.join(workDir, 'fresh-'));
  execFileSync('git', ['clone', '--quiet', '--no-checkout', siteDir, dir], { stdio: 'ignore' });
  execFileSync('git', ['checkout', '--quiet', '--detach', ref], { cwd: dir, stdio: 'ignore' });
  shareInstalledPackages(dir);
  const temporary = mkdtempSync(path.join(workDir, 'tmp-'));
  try {
    return timeBuild(
      { label: 'Weft, fresh clone', dir, port: 0, pages: {}, build: ['npm', ['run', 'build']] },
      workDir,
      { TMPDIR: temporary },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(temporary, { recursive: true, force: true });
  }
}

const serve = (site: SiteUnderTest): Promise<ChildProcess> =>
  serveSite('bench -- site', site.dir, site.port);

interface LighthouseResult {
  score: number;
  tbt: number;
  lcp: number;
}

/** Lighthouse's throttling method: its default (`simulate`) or `devtools`. */
function throttlingMethod(): string {
  const method = process.env.BENCH_THROTTLING ?? 'simulate';
  if (method !== 'simulate' && method !== 'devtools') {
    throw new Error(`bench:site: BENCH_THROTTLING must be simulate or devtools, not "${method}"`);
  }
  return method;
}

function lighthouse(url: string, outFile: string): LighthouseResult {
  run(
    'npx',
    [
      '--yes',
      LIGHTHOUSE,
      url,
      '--quiet',
      '--only-categories=performance',
      '--output=json',
      `--output-path=${outFile}`,
      `--throttling-method=${throttlingMethod()}`,
      `--chrome-flags=${CHROME_FLAGS}`,
    ],
    siteDir,
    { CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
  );
  const report = JSON.parse(readFileSync(outFile, 'utf8')) as {
    categories: { performance: { score: number } };
    audits: Record<'total-blocking-time' | 'largest-contentful-paint', { numericValue: number }>;
  };
  return {
    score: Math.round(report.categories.performance.score * 100),
    tbt: report.audits['total-blocking-time'].numericValue,
    lcp: report.audits['largest-contentful-paint'].numericValue,
  };
}

/**
 * `from`'s node_modules in `to`, sharing every installed package but not the workspace links:
 * npm links the workspace packages (`@weft/core` → ../../packages/core) relatively, and those
 * links are made again in `to`, so the baseline builds its own packages' sources, not this
 * checkout's. (One symlink to the whole folder built the baseline against today's core, and
 * failed.)
 */
function linkNodeModules(from: string, to: string): void {
  const isWorkspaceLink = (file: string) =>
    lstatSync(file).isSymbolicLink() && !path.isAbsolute(readlinkSync(file));
  mkdirSync(to);
  // Not the bundler's persistent cache (node_modules/.cache): it holds this checkout's paths.
  for (const entry of readdirSync(from).filter((name) => name !== '.cache')) {
    const source = path.join(from, entry);
    const scoped = entry.startsWith('@') ? readdirSync(source) : [];
    if (isWorkspaceLink(source)) {
      symlinkSync(readlinkSync(source), path.join(to, entry));
    } else if (
      scoped.length > 0 &&
      scoped.some((name) => isWorkspaceLink(path.join(source, name)))
    ) {
      mkdirSync(path.join(to, entry));
      for (const name of scoped) {
        const file = path.join(source, name);
        symlinkSync(isWorkspaceLink(file) ? readlinkSync(file) : file, path.join(to, entry, name));
      }
    } else {
      symlinkSync(source, path.join(to, entry));
    }
  }
}

/** Gives the checkout in `dir` this checkout's installed packages. */
function shareInstalledPackages(dir: string): void {
  linkNodeModules(path.join(siteDir, 'node_modules'), path.join(dir, 'node_modules'));
  // Packages with dependencies of their own (a version the root does not hoist).
  for (const pkg of readdirSync(path.join(siteDir, 'packages'))) {
    const own = path.join(siteDir, 'packages', pkg, 'node_modules');
    if (existsSync(own) && existsSync(path.join(dir, 'packages', pkg))) {
      symlinkSync(own, path.join(dir, 'packages', pkg, 'node_modules'), 'dir');
    }
  }
}

/** This site at another commit, in a detached worktree that shares this checkout's packages. */
function baselineSite(workDir: string, ref: string, pages: Record<string, string>): SiteUnderTest {
  const dir = path.join(workDir, 'baseline');
  execFileSync('git', ['worktree', 'add', '--detach', dir, ref], { cwd: siteDir, stdio: 'ignore' });
  shareInstalledPackages(dir);
  const shortRef = execFileSync('git', ['rev-parse', '--short', ref], { cwd: siteDir })
    .toString()
    .trim();
  return {
    label: `Weft at ${shortRef}`,
    dir,
    port: 4312,
    pages,
    build: ['npm', ['run', 'build']],
  };
}

/** One row per part of BUILD_PARTS, one column per kind of build: the median of its runs. */
function printBuildParts(
  columns: readonly (readonly [string, readonly Map<string, number>[]])[],
): void {
  const measured = columns.filter(([, runs]) => runs.length > 0);
  console.log(
    '\nWhere the builds spend their time (median s of each part; the parts overlap, see BUILD_PARTS)',
  );
  console.table(
    BUILD_PARTS.map(({ part }) => {
      const row: Record<string, string> = { part };
      for (const [label, runs] of measured) {
        // A part some runs of a kind print and others do not was skipped there: a generator
        // whose output was up to date, hover types all in their cache. A part no run prints is
        // not one of that build's ('-').
        const printed = runs.some((parts) => parts.has(part));
        row[label] = printed ? median(runs.map((parts) => parts.get(part) ?? 0)).toFixed(1) : '-';
      }
      return row;
    }),
  );
}

async function main(): Promise<void> {
  const runs = positiveInteger('BENCH_RUNS', 3);
  const builds = positiveInteger('BENCH_BUILDS', 1);
  const firstBuildCount = nonNegativeInteger('BENCH_FIRST_BUILDS', 1);
  const pageTypes = listFromEnv('bench -- site', 'BENCH_PAGES', ALL_PAGE_TYPES);
  const workDir = mkdtempSync(path.join(tmpdir(), 'weft-bench-'));
  const log = path.join(workDir, 'bench.log');
  console.log(`bench:site: working in ${workDir}`);
  const servers: ChildProcess[] = [];
  const baselineRef = process.env.BENCH_BASELINE_REF;
  throttlingMethod(); // A wrong value stops the run here, not after the builds.
  const weftPages = WEFT_PAGES;
  try {
    const stockDir = createStockSite(workDir);
    const sites: SiteUnderTest[] = [
      {
        label: 'Weft',
        dir: siteDir,
        port: 4310,
        pages: weftPages,
        build: ['npm', ['run', 'build']],
      },
      {
        label: 'stock 3.10',
        dir: stockDir,
        port: 4311,
        pages: STOCK_PAGES,
        build: ['npx', ['docusaurus', 'build']],
      },
    ];
    if (baselineRef) {
      sites.push(baselineSite(workDir, baselineRef, weftPages));
    }

    const buildTimes = new Map<string, number[]>(sites.map((site) => [site.label, []]));
    const buildPeaks = new Map<string, number[]>(sites.map((site) => [site.label, []]));
    const coldParts = new Map<string, Map<string, number>[]>(sites.map((site) => [site.label, []]));
    // HEAD's first builds, and the baseline's when there is one, alternating.
    const firstBuildRefs = baselineRef ? ['HEAD', baselineRef] : ['HEAD'];
    const firstBuilds = new Map<string, BuildFigures[]>(firstBuildRefs.map((ref) => [ref, []]));
    for (let round = 0; round < Math.max(builds, firstBuildCount); round += 1) {
      if (round < builds) {
        const order = round % 2 === 0 ? sites : [...sites].reverse();
        for (const site of order) {
          const { seconds, peakMb, parts } = timeColdBuild(site, workDir);
          buildTimes.get(site.label)?.push(seconds);
          buildPeaks.get(site.label)?.push(peakMb);
          coldParts.get(site.label)?.push(parts);
          appendFileSync(
            log,
            `build ${site.label} ${seconds.toFixed(1)} s ${peakMb.toFixed(0)} MB\n`,
          );
        }
      }
      if (round < firstBuildCount) {
        const order = round % 2 === 0 ? firstBuildRefs : [...firstBuildRefs].reverse();
        for (const ref of order) {
          const first = timeFirstBuild(workDir, ref);
          firstBuilds.get(ref)?.push(first);
          appendFileSync(
            log,
            `first build ${ref} ${first.seconds.toFixed(1)} s ${first.peakMb.toFixed(0)} MB\n`,
          );
        }
      }
    }
    const stockMedian = median(buildTimes.get('stock 3.10') ?? []);
    console.log(`\nCold build (docusaurus clear, then build; ${builds} per site, alternating)`);
    console.table(
      sites.map((site) => {
        const times = buildTimes.get(site.label) ?? [];
        return {
          site: site.label,
          'median s': median(times).toFixed(1),
          'x stock': (median(times) / stockMedian).toFixed(2),
          'peak MB (median)': median(buildPeaks.get(site.label) ?? []).toFixed(0),
          runs: times.map((s) => s.toFixed(1)).join(' '),
        };
      }),
    );
    if (firstBuildCount > 0) {
      console.log(
        `\nFirst build of a fresh clone (npm run build, nothing generated; ${firstBuildCount} per commit, alternating)`,
      );
      console.table(
        firstBuildRefs.map((ref) => {
          const runs = firstBuilds.get(ref) ?? [];
          const seconds = median(runs.map((build) => build.seconds));
          return {
            commit: ref,
            'median s': seconds.toFixed(1),
            "x stock's cold build": (seconds / stockMedian).toFixed(2),
            'peak MB (median)': median(runs.map((build) => build.peakMb)).toFixed(0),
            runs: runs.map((build) => build.seconds.toFixed(1)).join(' '),
          };
        }),
      );
    }
    printBuildParts([
      ...sites.map((site) => [`${site.label}, cold`, coldParts.get(site.label) ?? []] as const),
      ...firstBuildRefs.map(
        (ref) =>
          [
            `${ref}, first build`,
            (firstBuilds.get(ref) ?? []).map((build) => build.parts),
          ] as const,
      ),
    ]);
    if (process.env.BENCH_LIGHTHOUSE === 'false') {
      return;
    }

    for (const site of sites) {
      servers.push(await serve(site));
    }
    const results = new Map<string, LighthouseResult[]>();
    for (let round = 0; round < runs; round += 1) {
      for (const pageType of pageTypes) {
        const order = round % 2 === 0 ? sites : [...sites].reverse();
        for (const site of order) {
          const url = `http://127.0.0.1:${site.port}${site.pages[pageType]}`;
          const result = lighthouse(url, path.join(workDir, `lh-${site.port}-${round}.json`));
          const key = `${site.label}|${pageType}`;
          results.set(key, [...(results.get(key) ?? []), result]);
          appendFileSync(log, `${key} ${JSON.stringify(result)}\n`);
        }
      }
    }

    console.log(
      '\nFirst load per page type (JavaScript and CSS its HTML references, gzip -9, KiB)',
    );
    console.table(
      pageTypes.map((pageType) => {
        const row: Record<string, string> = { page: pageType };
        for (const site of sites) {
          const load = firstLoad(path.join(site.dir, 'build'), site.pages[pageType] ?? '/');
          row[`${site.label} JS`] = (load.scriptsGzip / 1024).toFixed(1);
          row[`${site.label} CSS`] = (load.stylesheetsGzip / 1024).toFixed(1);
        }
        return row;
      }),
    );
    console.log(
      `\nLighthouse mobile (throttling: ${throttlingMethod()}), median of ${runs} runs (stock pages: ${sites[1]?.label ?? 'stock'} analogues)`,
    );
    console.table(
      pageTypes.map((pageType) => {
        const row: Record<string, string | number> = { page: pageType };
        for (const site of sites) {
          const list = results.get(`${site.label}|${pageType}`) ?? [];
          row[`${site.label} score`] = median(list.map((r) => r.score));
          row[`${site.label} TBT ms`] = Math.round(median(list.map((r) => r.tbt)));
          row[`${site.label} LCP s`] = (median(list.map((r) => r.lcp)) / 1000).toFixed(2);
        }
        const baseline = sites[2];
        if (baseline) {
          const tbt = (label: string) =>
            median((results.get(`${label}|${pageType}`) ?? []).map((r) => r.tbt));
          row['TBT Weft / baseline'] = (tbt('Weft') / tbt(baseline.label)).toFixed(2);
        }
        return row;
      }),
    );
  } finally {
    servers.forEach(stop);
    if (baselineRef && process.env.BENCH_KEEP !== 'true') {
      try {
        execFileSync('git', ['worktree', 'remove', '--force', path.join(workDir, 'baseline')], {
          cwd: siteDir,
          stdio: 'ignore',
        });
      } catch {
        // The worktree was never added (an unknown ref): there is nothing to unregister.
      }
    }
    if (process.env.BENCH_KEEP !== 'true') {
      rmSync(workDir, { recursive: true, force: true });
    }
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
