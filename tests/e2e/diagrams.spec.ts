/**
 * Diagrams (src/remark/diagrams.ts) in a browser: they load, a phone never scrolls the page
 * sideways because of one, a wide one scrolls inside its own region (reachable with the
 * keyboard) and keeps a legible size, and on a desktop no diagram needs to scroll.
 */
import { expect, test, type Page } from '@playwright/test';
import { gotoHydrated } from './support/shell';

const diagramPages = [
  '/docs/',
  '/docs/concepts/how-a-task-runs/',
  '/docs/capabilities/transforms/',
  '/docs/core-utilities/spaces/',
  '/docs/core-utilities/getObject/',
];

/** Every diagram of the page, with what the browser made of it. */
async function measure(page: Page) {
  return page.locator('figure.weft-diagram').evaluateAll((figures) =>
    figures.map((figure) => {
      const image = figure.querySelector('img') as HTMLImageElement;
      const region = figure.querySelector<HTMLElement>('.weft-diagram__scroll');
      return {
        alt: image.alt,
        loaded: image.complete && image.naturalWidth > 0,
        drawnWidth: image.getBoundingClientRect().width,
        naturalWidth: Number(image.getAttribute('width')),
        scrolls: region ? region.scrollWidth > region.clientWidth : false,
        regionTabIndex: region?.tabIndex,
      };
    }),
  );
}

for (const path of diagramPages) {
  test(`${path}: diagrams load and fit a phone`, async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await gotoHydrated(page, path);
    const figures = page.locator('figure.weft-diagram');
    await expect(figures.first()).toBeVisible();
    // The images load lazily: bring each into view and wait until it has been decoded.
    for (const figure of await figures.all()) {
      await figure.scrollIntoViewIfNeeded();
      await expect
        .poll(() => figure.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth))
        .toBeGreaterThan(0);
    }
    const diagrams = await measure(page);
    expect(diagrams.length).toBeGreaterThan(0);
    for (const diagram of diagrams) {
      expect(diagram.loaded, diagram.alt).toBe(true);
      expect(diagram.alt.length).toBeGreaterThan(50);
      // Never shrunk below 65 % of its size: 13 px labels stay at 8.5 px or more.
      expect(diagram.drawnWidth / diagram.naturalWidth, diagram.alt).toBeGreaterThanOrEqual(0.65);
      if (diagram.scrolls) expect(diagram.regionTabIndex, diagram.alt).toBe(0);
    }
    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(pageWidth).toBeLessThanOrEqual(375);
  });
}

test('on a desktop no diagram scrolls sideways', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const path of diagramPages) {
    await gotoHydrated(page, path);
    for (const diagram of await measure(page))
      expect(diagram.scrolls, `${path}: ${diagram.alt}`).toBe(false);
  }
});

test('a wide diagram scrolls with the keyboard on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await gotoHydrated(page, '/docs/concepts/how-a-task-runs/');
  const region = page.locator('.weft-diagram__scroll').first();
  await region.focus();
  await expect(region).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
});
