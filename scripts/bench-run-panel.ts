/**
 * How fast the Run panel of Getting started runs the agent once its chunk has loaded: in a fresh
 * browser context at a 4x CPU slowdown (CDP Emulation.setCPUThrottlingRate), it opens the built
 * page, presses Run and times, in the page's clock:
 *
 * - chunk fetched → run done, the stricter reading of the issue's measure ("the getting-started
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
 *   included) completes in that checkpoint, so the event came after the run's end (a trace of
 *   2026-11-27: run done at +346.6 ms, the last chunk's load event at +347.2 ms). Until then this
 *   script read a `load` event and took the last one before the evaluation: that was the other,
 *   earlier chunk's.
 * - chunk evaluated → run done, from the panel's `weft:run-panel-loaded` mark, which its module
 *   sets after everything it imports has been evaluated, to the same end: building the runtime,
 *   the task and rendering its events.
 * - chunk fetched → status shown: until the panel shows "Task completed" (the final render).
 * - the run's own time: Runtime.init to the task's status (the last event's offset), and the
 *   time from the press to the announced result, in the test's clock.
 *
 * A visit whose chunk was fetched before the press (the panel preloads when scrolled near) would
 * time the wait for the press too; the script refuses it.
 *
 * Measured on 2026-11-25 on a shared two-core machine: about 760 ms median from the chunk's
 * evaluation to the end of the first run. On 2026-11-26, after Runtime.init stopped loading date
 * data, parsing the core's templates and compiling zod parsers for one-shot parses, and the core
 * stopped bundling zod's translations (chunk 139 -> 78 KB gzipped), 8 visits at a load average
 * of about 22 on the same machine (figures inflated several times): chunk fetched → run done
 * 2498 ms median, chunk evaluated → run done 909 ms, Runtime.init to the status 362 ms. The run
 * module alone, bundled before and after and loaded in turn in Chromium at 4x under the same
 * load: chunk fetched → run done 2900 -> 1174 ms (evaluation 1788 -> 881, run 1267 -> 316).
 * Far from the goal on a loaded machine; measure again on a quiet one.
 *
 * Later on 2026-11-26, after the panels' chunks got V8's eager-compile hint
 * (src/plugins/weft-in-browser/compile-hints.ts), the build before and the build after served in
 * turn, 3 rounds of 4 visits each, load average 13-16 (medians per round, before -> after):
 * chunk fetched → run done 1094/1625/1269 -> 190/825/890 ms, chunk evaluated → run done
 * 566/628/596 -> 315/524/368 ms, Runtime.init to the status 195/264/306 -> 87/113/75 ms.
 * CDP's slowdown is applied to the page's main thread; V8's background compile threads are
 * probably not slowed by it, so part of that gain may be the emulation's (on a real slow device
 * the compile still leaves the main thread, but runs at the device's speed).
 *
 * Later on 2026-11-26, on a quiet machine (load under 1), 10 visits: the bench's own wait had
 * polled the page through a Playwright locator during the timed window; it now waits on a promise
 * in the page. Then the panel stopped waiting for its first render and paint before starting the
 * run a press had asked for, and zod's compiled fast path was turned off in the page (medians,
 * before -> after): chunk fetched → run done 329 -> 287 ms, chunk evaluated → run done 157 ->
 * 101 ms, Runtime.init to the status 41 -> 39 ms. Then the shell rendered the loaded panel at
 * once (flushSync) instead of at the scheduler's next turn, so its effect starts the run right
 * after the chunk's evaluation: chunk fetched → run done 287 -> 204/225 ms (two runs of 10 visits),
 * chunk evaluated → run done 101 -> 48/56 ms. What is left between the chunk's arrival and its
 * evaluation (about 160 ms) is compiling about 260 KB of script and running its modules.
 *
 * On 2026-11-27, with the "chunk loaded" reading fixed, 20 visits per run: chunk loaded →
 * run done 100 ms median on a quiet hour, then 131-135 ms in three runs later in the session
 * (chunk evaluated → run done 64-68 ms, chunk fetched → run done 290-312 ms). The host's speed
 * varied by about a third between hours. Where the time goes, from temporary marks (8 visits) and a
 * Chromium trace, at 4x: evaluating the modules 56 ms (the core's zod schemas about 25, zod's
 * own modules about 12, liquid 6, webpack's export getters 5); the panel taking the inputs 12 ms;
 * Runtime.init 6 ms; the task 33 ms, of which liquid parsing and rendering the core's two
 * templates is 18 and the plan's JSON Schema 5; runtime.stop() 5 ms. From the chunk's last byte,
 * add the main thread's other work at that moment (the press's own render, layout and paint, and
 * Docusaurus prefetching the routes of links the scroll brought into view: 36 ms in one trace)
 * and compiling the 312 KB of script (27 + 6 ms on the main thread with the compile hint).
 *
 * Later on 2026-11-27, the core's four prompt templates became functions instead of Liquid
 * (packages/core/src/prompts/core-templates.ts). The build before and the build after served in
 * turn, 4 rounds of 10 visits (medians per round, before -> after): chunk loaded → run done
 * 107/92/94/88 -> 65/67/80/78 ms, chunk evaluated → run done 59/50/55/50 -> 27/29/35/34 ms,
 * chunk fetched → run done 225/205/221/209 -> 184/163/213/187 ms; Runtime.init to the status
 * 37/33 -> 21/22 ms (last 2 rounds). The goal is met from webpack's reading, with the host at
 * its speed of that hour (it was a third slower in others). A trace of 3 visits (figures inflated
 * by the profiler) shows what the stricter reading adds: 109-152 ms from the last byte to
 * webpack's first install, in which the main thread runs the frame the press started (layout 12,
 * pre-paint 5 and paint 13 ms), React's render of the press (14 ms) and Docusaurus prefetching
 * the routes of the links the click's scroll brought into view (about 20 ms) before the chunk
 * itself (compile 5 + 25 ms). Evaluating the modules after the install is mostly zod: building
 * the core's schemas (runtime options, plan, text-generation capability) and zod's own modules.
 *
 * Prints a table; asserts nothing. Run: npm run bench:run-panel (build the site first).
 * Environment: BENCH_VISITS (default 10), BENCH_CPU_RATE (default 4), CHROMIUM_PATH,
 * BENCH_BUILD_DIR (the built site to serve; default the worktree's build/).
 */
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../tests/e2e/support/browser';
import { buildDir, startStaticServer } from '../tests/e2e/support/static-server';
import { median, positiveInteger } from './bench-sites';

const SCRIPT = 'bench:run-panel';
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
  console.log(`Run panel, ${PAGE}, ${visits} visits at a ${rate}x CPU slowdown:`);
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
