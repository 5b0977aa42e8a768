/**
 * What a browser test's fresh context costs the machine: Chromium launched as the tests launch it
 * (`chromiumArgs`) beside the same launch that leaves the address bar's popups on (Playwright's
 * own switches only), alternating, each opening BENCH_CONTEXTS contexts one after the other, each
 * loading a built page until the network is idle and closing. It prints the processor seconds
 * the whole machine was busy during each run, and the medians' ratio: Chromium's helper
 * processes are not all this process's descendants, so only the machine's count sees them all.
 * Keep the machine quiet while it runs: anything else busy counts too.
 *
 * Prints a table; asserts nothing. Run: npm run bench -- browser-context (build the site first).
 * Environment: BENCH_CONTEXTS (default 15), BENCH_RUNS (pairs, default 3), CHROMIUM_PATH,
 * BENCH_BUILD_DIR (the built site to serve; default the worktree's build/).
 */
import { chromium } from '@playwright/test';
import {
  BROWSER_UI_FEATURES_OFF,
  PLAYWRIGHT_DISABLED_FEATURES,
  chromiumArgs,
  chromiumPath,
} from '@weft-internal/test-support/chromium';
import { buildDir, startStaticServer } from '../tests/e2e/support/static-server';
import { machineCpuTicks, ticksPerSecond } from '../tooling/children-cpu';
import { median, positiveInteger } from './support/sites';

const SCRIPT = 'bench -- browser-context';
const PAGE = 'docs/getting-started/';

/** The tests' arguments with Playwright's own feature list in place of theirs. */
const withPopups = chromiumArgs.map((arg) =>
  arg.startsWith('--disable-features=')
    ? `--disable-features=${PLAYWRIGHT_DISABLED_FEATURES.join(',')}`
    : arg,
);

async function cpuSecondsOf(args: string[], pageUrl: string, contexts: number): Promise<number> {
  const before = machineCpuTicks();
  if (before === undefined) throw new Error(`${SCRIPT}: needs /proc to count processor time`);
  const browser = await chromium.launch({ executablePath: chromiumPath, args });
  for (let index = 0; index < contexts; index += 1) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(pageUrl, { waitUntil: 'networkidle' });
    await context.close();
  }
  await browser.close();
  const after = machineCpuTicks() ?? before;
  return (after.busy - before.busy) / ticksPerSecond();
}

async function main(): Promise<void> {
  const contexts = positiveInteger(SCRIPT, 'BENCH_CONTEXTS', 15);
  const runs = positiveInteger(SCRIPT, 'BENCH_RUNS', 3);
  const server = await startStaticServer({ dir: process.env.BENCH_BUILD_DIR ?? buildDir });
  const pageUrl = new URL(PAGE, server.url).href;
  const off: number[] = [];
  const on: number[] = [];
  try {
    for (let run = 0; run < runs; run += 1) {
      off.push(await cpuSecondsOf(chromiumArgs, pageUrl, contexts));
      on.push(await cpuSecondsOf(withPopups, pageUrl, contexts));
    }
  } finally {
    await server.stop();
  }
  console.log(
    `${contexts} contexts a run, each loading /${PAGE}; seconds the machine's processors were busy, per run:`,
  );
  console.table([
    { launch: `the tests' (${BROWSER_UI_FEATURES_OFF.join(', ')} off)`, runs: off.map(round) },
    { launch: "Playwright's switches only (popups on)", runs: on.map(round) },
  ]);
  const ratio = median(off) / median(on);
  console.log(
    `median ${round(median(off))} s against ${round(median(on))} s: ${ratio.toFixed(2)}x, ${round((median(on) - median(off)) / contexts)} s less a context`,
  );
}

const round = (seconds: number): number => Math.round(seconds * 10) / 10;

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
