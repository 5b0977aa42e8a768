/**
 * The route-change progress bar (SITE-REQUIREMENTS.md,
 * "Route-change progress bar"): it starts 200 ms after a route change,
 * has no spinner, starts at the minimum of 0.08, animates with speed 200 ms and easing "ease",
 * trickles every 800 ms by at most 0.02, then completes and is removed. A fast transition never
 * shows it.
 *
 * A script installed before the site's own code records, with page timestamps, every click, when
 * #nprogress is added and removed, and every position of its bar.
 */
import { expect, test, type Page } from '@playwright/test';
import { interceptContentChunk, transition } from './support/route-chunks';
import { gotoHydrated, sidebarLink } from './support/shell';

/** Requests are routed in these tests; the site's service worker would bypass the routes. */
test.use({ serviceWorkers: 'block' });

const { target, origin } = transition;
/**
 * How long the target's content chunk is held back in the slow transition: long enough that the
 * bar, shown 200 ms after the click, trickles (every 800 ms) at least once even when a loaded
 * machine shows it late or runs its timers late (1,800 ms left one trickle's room, and CI once
 * saw none).
 */
const chunkDelayMs = 3000;

interface BarState {
  t: number;
  transform: string;
  transitionDuration: string;
  transitionTimingFunction: string;
}

interface ProgressLog {
  clicks: number[];
  added: { t: number; hasSpinner: boolean; hasPeg: boolean }[];
  removed: number[];
  bar: BarState[];
}

declare global {
  interface Window {
    __weftProgressLog?: ProgressLog;
  }
}

function recordProgressBar(): void {
  const log: ProgressLog = { clicks: [], added: [], removed: [], bar: [] };
  window.__weftProgressLog = log;
  document.addEventListener('click', () => log.clicks.push(performance.now()), true);
  const recordBar = (bar: Element | null): void => {
    if (!(bar instanceof HTMLElement)) {
      return;
    }
    const last = log.bar[log.bar.length - 1];
    const state: BarState = {
      t: performance.now(),
      transform: bar.style.transform,
      transitionDuration: bar.style.transitionDuration,
      transitionTimingFunction: bar.style.transitionTimingFunction,
    };
    if (!last || last.transform !== state.transform) {
      log.bar.push(state);
    }
  };
  new MutationObserver((records) => {
    for (const record of records) {
      record.addedNodes.forEach((node) => {
        if (node instanceof HTMLElement && node.id === 'nprogress') {
          log.added.push({
            t: performance.now(),
            hasSpinner: node.querySelector('.spinner') !== null,
            hasPeg: node.querySelector('.peg') !== null,
          });
          recordBar(node.querySelector('.bar'));
        }
      });
      record.removedNodes.forEach((node) => {
        if (node instanceof HTMLElement && node.id === 'nprogress') {
          log.removed.push(performance.now());
        }
      });
      if (
        record.type === 'attributes' &&
        record.target instanceof HTMLElement &&
        record.target.classList.contains('bar') &&
        record.target.parentElement?.id === 'nprogress'
      ) {
        recordBar(record.target);
      }
    }
  }).observe(document, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ['style'],
  });
}

async function progressLog(page: Page): Promise<ProgressLog> {
  const log = await page.evaluate(() => window.__weftProgressLog);
  if (!log) {
    throw new Error('The progress bar recorder is not installed');
  }
  return log;
}

/** translate3d(-92%, 0px, 0px) -> 0.08 */
function barProgress(transform: string): number {
  const match = /translate3d\((-?[\d.]+)%/.exec(transform);
  if (!match) {
    throw new Error(`Unexpected bar transform "${transform}"`);
  }
  return 1 + Number(match[1]) / 100;
}

function cssTimeMs(value: string): number {
  return value.endsWith('ms') ? Number.parseFloat(value) : Number.parseFloat(value) * 1000;
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(recordProgressBar);
});

test('a slow route change shows the progress bar after 200 ms, without spinner, then removes it', async ({
  page,
}) => {
  await interceptContentChunk(page, target.source, async (route, { response, body }) => {
    await new Promise((resolve) => setTimeout(resolve, chunkDelayMs));
    await route.fulfill({ response, body });
  });
  await gotoHydrated(page, origin);
  expect((await progressLog(page)).added).toHaveLength(0);

  await sidebarLink(page, target.sidebarLabel).click();

  const bar = page.locator('#nprogress .bar');
  await expect(bar).toBeVisible();
  await expect(page.locator('#nprogress .spinner')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: target.h1, exact: true })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${target.path}$`));
  await expect(page.locator('#nprogress')).toHaveCount(0);

  const log = await progressLog(page);
  const click = log.clicks.at(-1)!;
  expect(log.added).toHaveLength(1);
  expect(log.removed).toHaveLength(1);
  const added = log.added[0]!;
  expect(added.hasSpinner).toBe(false);
  expect(added.hasPeg).toBe(true);
  // Starts 200 ms after the route change, while the chunk is still held back.
  expect(added.t - click).toBeGreaterThanOrEqual(200);
  expect(added.t - click).toBeLessThan(chunkDelayMs);

  const positions = log.bar.map((state) => ({ ...state, progress: barProgress(state.transform) }));
  const first = positions[0]!;
  // Minimum 0.08, speed 200 ms, easing "ease".
  expect(first.progress).toBeCloseTo(0.08, 5);
  expect(cssTimeMs(first.transitionDuration)).toBe(200);
  expect(first.transitionTimingFunction).toBe('ease');
  // Trickles every 800 ms by at most 0.02 (trickle rate), then completes at 1. (On completion
  // nprogress first jumps ahead, but within the same task, so only 1 is ever rendered.)
  const last = positions.at(-1)!;
  expect(last.progress).toBeCloseTo(1, 5);
  const trickles = positions.slice(1, -1);
  expect(trickles.length).toBeGreaterThanOrEqual(1);
  let previous = first;
  for (const trickle of trickles) {
    expect(trickle.progress).toBeGreaterThan(previous.progress);
    expect(trickle.progress - previous.progress).toBeLessThanOrEqual(0.02 + 1e-9);
    expect(trickle.t - previous.t).toBeGreaterThanOrEqual(790);
    previous = trickle;
  }
  // Completed, then faded out and removed: two steps of the 200 ms speed.
  expect(log.removed[0]! - last.t).toBeGreaterThanOrEqual(390);
});

test('a fast route change (route code already loaded) never shows the progress bar', async ({
  page,
}) => {
  await gotoHydrated(page, origin);
  // Load the target's route code ahead, as hovering its link does.
  await page.evaluate(async (path) => {
    const docusaurus = (window as unknown as { docusaurus: { preload(p: string): unknown } })
      .docusaurus;
    await docusaurus.preload(path);
  }, target.path);

  await sidebarLink(page, target.sidebarLabel).click();
  await expect(page.getByRole('heading', { level: 1, name: target.h1, exact: true })).toBeVisible();

  // The bar would start 200 ms after the route change: watch well past that.
  await page.waitForFunction(() => {
    const log = window.__weftProgressLog;
    const click = log?.clicks[log.clicks.length - 1];
    return click !== undefined && performance.now() - click > 600;
  });
  const log = await progressLog(page);
  expect(log.clicks.length).toBeGreaterThan(0);
  expect(log.added).toHaveLength(0);
  await expect(page.locator('#nprogress')).toHaveCount(0);
});
