/**
 * The tutorial, guide and reference pages of issue 7: each is in the docs sidebar, renders its
 * title, fits a 375 px screen without sideways scrolling (long code lines and tables scroll inside
 * their own boxes), and has no WCAG 2.1 A or AA violations at either width.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { gotoHydrated } from './support/shell';

const pages = [
  {
    path: '/docs/tutorials/chat-assistant/',
    title: /^Tutorial: a chat assistant on a real model$/,
  },
  { path: '/docs/guides/production/', title: /^Running in production$/ },
  { path: '/docs/guides/observability/', title: /^Observability$/ },
  { path: '/docs/guides/testing/', title: /^Testing your plugins and providers$/ },
  { path: '/docs/guides/troubleshooting/', title: /^Troubleshooting$/ },
  { path: '/docs/reference/configuration/', title: /^Configuration reference$/ },
  { path: '/docs/reference/errors/', title: /^Errors reference$/ },
  { path: '/docs/reference/stability/', title: /^Changelog and stability policy$/ },
];

for (const viewport of [
  { label: 'desktop', width: 1280, height: 800 },
  { label: '375 px', width: 375, height: 812 },
]) {
  test.describe(`at ${viewport.label}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });
    // axe takes tens of seconds on the longest of these pages when the machine is busy.
    test.setTimeout(180_000);

    for (const { path, title } of pages) {
      test(`${path} renders, fits the screen and passes axe`, async ({ page }) => {
        await gotoHydrated(page, path);
        await expect(page.locator('h1')).toHaveText(title);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
        const results = await new AxeBuilder({ page })
          .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
          .analyze();
        expect(results.violations.map((violation) => violation.id)).toEqual([]);
      });
    }
  });
}

test('every one of these pages is linked from the docs sidebar', async ({ page }) => {
  await gotoHydrated(page, '/docs/getting-started/');
  const sidebar = page.locator('.theme-doc-sidebar-container');
  for (const category of ['Guides', 'Reference']) {
    const button = sidebar.getByRole('button', { name: category, exact: true });
    if ((await button.getAttribute('aria-expanded')) === 'false') await button.click();
  }
  for (const { path } of pages) {
    await expect(sidebar.locator(`a[href="${path}"]`)).toHaveCount(1);
  }
});
