/**
 * How fast the Run panel of Getting started runs the agent once its chunk has loaded: in a fresh
 * browser context at a 4x CPU slowdown (CDP Emulation.setCPUThrottlingRate), it opens the built
 * page, presses Run and times, in the page's clock:
 *
 * - chunk fetched → run done, the stricter reading of the measure ("the getting-started
 *   run finishes within 100 ms of its chunk loading"): from the last script file the press
 *   fetched (Resource Timing `responseEnd`) to the end of the first run (the panel's
 *   `weft:run-panel-run-done` mark). It includes compiling and evaluating the chunk: the core's
 *   schemas, liquid, pino.
 * - chunk loaded → run done, the reading of "loading" that webpack's runtime has: a chunk has
 *   loaded when its file has been fetched, compiled and run, which registers its modules
 *   (`webpackChunkweft_website.push` returns). From the last of the press's chunks to do so to
 *   the same end: what is left is evaluating the modules (the core, zod's schemas, liquid) and
 *   the run. The script element's `load` event is no measure of it: it fires after the microtask
 *   checkpoint that follows the script, and with the scripted model the whole run (evaluation
 *   included) completes in that checkpoint, so the event comes after the run's end.
 * - chunk evaluated → run done, from the panel's `weft:run-panel-loaded` mark, which its module
 *   sets after everything it imports has been evaluated, to the same end: building the runtime,
 *   the task and rendering its events.
 * - chunk fetched → status shown: until the panel shows "Task completed" (the final render).
 * - the run's own time: Runtime.init to the task's status (the last event's offset), and the
 *   time from the press to the announced result, in the test's clock.
 *
 * It also prints how much script the press fetched (what the browser compiles before the run) and
 * the host's load average: a shared host's speed changes from hour to hour, so compare two builds
 * in alternating runs (BENCH_BUILD_DIR) rather than with figures taken at another time. Where the
 * time goes inside a reading is a question for a Chromium trace, not for this script.
 *
 * A visit whose chunk was fetched before the press (the panel preloads when scrolled near) would
 * time the wait for the press too; the script refuses it.
 *
 * Prints a table; asserts nothing. Run: npm run bench -- run-panel (build the site first).
 * Environment: BENCH_VISITS (default 10), BENCH_CPU_RATE (default 4), CHROMIUM_PATH,
 * BENCH_BUILD_DIR (the built site to serve; default the worktree's build/).
 */
import { availableParallelism, loadavg } from 'node:os';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '@weft-internal/test-support/chromium';
import { buildDir, startStaticServer } from '../tests/e2e/support/static-server';
import { median, positiveInteger } from './support/sites';

const SCRIPT = 'bench -- run-panel';
const PAGE = 'docs/getting-started/';
const RUN_DEADLINE_MS = 30_000;
/** The ceiling on the time from the chunk's arrival to the end of the run. */
const GOAL_MS = 100;

/**
 * Reads, in the page, the panel's marks, the offset of its last event, and when the last script
 * file fetched after `pressedAt` (the press, in the page's clock) arrived before the panel's
 * chunk was evaluated: the search bar loads chunks of its own around the same time, and one that
 * arrives after the panel's is none of the panel's.
 */
const marksScript = (pressedAt: number): string => `(() => {
  const at = (name) => performance.getEntriesByName(name)[0]?.startTime ?? NaN;
  const times = Array.from(document.querySelectorAll('[data-run-panel] li')).map((item) =>
    Number(/^\\+([\\d.]+) ms/.exec(item.textContent ?? '')?.[1]),
  );
  const loaded = at('weft:run-panel-loaded');
  const installs = (window.__weftChunkInstalls ?? []).filter(
    (time) => time >= ${pressedAt} && time <= loaded,
  );
  const scripts = performance
    .getEntriesByType('resource')
    .filter(
      (entry) =>
        entry.initiatorType === 'script' &&
        entry.startTime >= ${pressedAt} &&
        entry.responseEnd <= loaded,
    );
  return {
    fetched: Math.max(...scripts.map((entry) => entry.responseEnd)),
    scriptFiles: scripts.length,
    scriptBytes: scripts.reduce((sum, entry) => sum + entry.decodedBodySize, 0),
    scriptTransferBytes: scripts.reduce((sum, entry) => sum + entry.encodedBodySize, 0),
    installed: installs.length > 0 ? Math.max(...installs) : NaN,
    loaded,
    done: at('weft:run-panel-run-done'),
    shown: window.__weftStatusShown ?? NaN,
    taskMs: Math.max(...times),
  };
})()`;

/**
 * Installed before the press: records when the panel's status first says the task completed,
 * in the page's clock, keeps a promise of that moment for the wait after the press, and returns
 * the clock's reading at installation. The script waits on that promise rather than on a
 * Playwright locator: a locator polls the page's DOM from its main thread, and at a 4x slowdown
 * those polls took tens of milliseconds of the very window being timed.
 */
const WATCH_STATUS_SCRIPT = `(() => {
  // webpack's runtime replaced the array's push with its chunk callback; this wraps that.
  window.__weftChunkInstalls = [];
  const chunks = self.webpackChunkweft_website;
  const install = chunks.push;
  chunks.push = function (...args) {
    const result = install.apply(this, args);
    window.__weftChunkInstalls.push(performance.now());
    return result;
  };
  const status = document.querySelector('[data-run-panel] [role="status"]');
  window.__weftStatusShownPromise = new Promise((resolve) => {
    new MutationObserver((_, observer) => {
      if (status.textContent.includes('Task completed')) {
        window.__weftStatusShown = performance.now();
        observer.disconnect();
        resolve(true);
      }
    }).observe(status, { childList: true, characterData: true, subtree: true });
  });
  return performance.now();
})()`;

/** Resolves when the status shows the completed task, or with false at the run's deadline. */
const AWAIT_STATUS_SCRIPT = `Promise.race([
  window.__weftStatusShownPromise,
  new Promise((resolve) => setTimeout(() => resolve(false), ${RUN_DEADLINE_MS})),
])`;

interface Visit {
  fetchedToDoneMs: number;
  installedToDoneMs: number;
  loadedToDoneMs: number;
  fetchedToShownMs: number;
  taskMs: number;
  pressToAnnouncedMs: number;
  scriptFiles: number;
  scriptBytes: number;
  scriptTransferBytes: number;
}

async function main(): Promise<void> {
  const visits = positiveInteger(SCRIPT, 'BENCH_VISITS', 10);
  const rate = positiveInteger(SCRIPT, 'BENCH_CPU_RATE', 4);
  // Another build's folder, to compare two builds in alternating runs.
  const server = await startStaticServer({ dir: process.env.BENCH_BUILD_DIR ?? buildDir });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const results: Visit[] = [];
  try {
    for (let visit = 0; visit < visits; visit += 1) {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate });
        await page.goto(`${server.url}${PAGE}`);
        await page.locator('html[data-has-hydrated="true"]').waitFor();
        const pressedAt = (await page.evaluate(WATCH_STATUS_SCRIPT)) as number;
        const pressed = Date.now();
        await page.getByRole('button', { name: /^Run the getting-started/ }).click();
        if ((await page.evaluate(AWAIT_STATUS_SCRIPT)) !== true) {
          throw new Error(
            `${SCRIPT}: visit ${visit + 1}: the panel did not show "Task completed" within ${RUN_DEADLINE_MS} ms`,
          );
        }
        const pressToAnnouncedMs = Date.now() - pressed;
        // A string, not a function: tsx names the helpers of a function it compiles with a
        // `__name` call that the page does not have.
        const marks = (await page.evaluate(marksScript(pressedAt))) as {
          fetched: number;
          installed: number;
          loaded: number;
          done: number;
          shown: number;
          taskMs: number;
          scriptFiles: number;
          scriptBytes: number;
          scriptTransferBytes: number;
        };
        if (!(marks.loaded > pressedAt) || !Number.isFinite(marks.fetched)) {
          throw new Error(
            `${SCRIPT}: visit ${visit + 1}: the panel's chunk loaded before the press (it was preloaded) or no script was fetched after it; the figures would include the wait for the press`,
          );
        }
        results.push({
          fetchedToDoneMs: marks.done - marks.fetched,
          installedToDoneMs: marks.done - marks.installed,
          loadedToDoneMs: marks.done - marks.loaded,
          fetchedToShownMs: marks.shown - marks.fetched,
          taskMs: marks.taskMs,
          pressToAnnouncedMs,
          scriptFiles: marks.scriptFiles,
          scriptBytes: marks.scriptBytes,
          scriptTransferBytes: marks.scriptTransferBytes,
        });
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  const column = (pick: (visit: Visit) => number) => {
    const values = results.map(pick).filter(Number.isFinite);
    return `median ${median(values).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`;
  };
  const [load1 = 0, load5 = 0] = loadavg();
  console.log(`Run panel, ${PAGE}, ${visits} visits at a ${rate}x CPU slowdown:`);
  console.log(
    `  host: load average ${load1.toFixed(1)} (1 min), ${load5.toFixed(1)} (5 min) on ${availableParallelism()} cores`,
  );
  const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  const last = results.at(-1);
  if (last) {
    console.log(
      `  script the press fetched: ${last.scriptFiles} files, ${kib(last.scriptBytes)} (${kib(last.scriptTransferBytes)} as served)`,
    );
  }
  console.log(`  chunk fetched → run done:                   ${column((v) => v.fetchedToDoneMs)}`);
  console.log(
    `  chunk loaded (webpack) → run done:          ${column((v) => v.installedToDoneMs)}`,
  );
  console.log(`  chunk evaluated → run done:                 ${column((v) => v.loadedToDoneMs)}`);
  console.log(`  chunk fetched → "Task completed" shown:     ${column((v) => v.fetchedToShownMs)}`);
  console.log(`  Runtime.init to the status (last event):    ${column((v) => v.taskMs)}`);
  console.log(
    `  press → result announced:                   ${column((v) => v.pressToAnnouncedMs)}`,
  );
  // "Within 100 ms of its chunk loading", read two ways: from webpack's meaning of a chunk having
  // loaded (fetched, compiled and run, its modules registered but not yet evaluated), and,
  // stricter, from its last byte's arrival.
  for (const [reading, pick] of [
    ["the chunk loaded (webpack's reading)", (v: Visit) => v.installedToDoneMs],
    ["the chunk's last byte (stricter)", (v: Visit) => v.fetchedToDoneMs],
  ] as const) {
    const measure = median(results.map(pick).filter(Number.isFinite));
    console.log(
      `The issue's goal, the getting-started run done within ${GOAL_MS} ms of its chunk loading at a ${rate}x CPU slowdown, from ${reading}: ${
        measure <= GOAL_MS ? 'met' : 'not met'
      } (median ${measure.toFixed(1)} ms).`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
