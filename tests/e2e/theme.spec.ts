/**
 * SITE-REQUIREMENTS.md, "Colour mode and stored preferences": dark by default, no switch, the system preference ignored, key "theme" in
 * localStorage; docs-preferred-version-{id} cleared when the stored version does not exist.
 */
import { test, expect, type Page } from '@playwright/test';
import {
  gotoHydrated,
  readStorage,
  storageKeys,
  waitForHydration,
  writeStorage,
} from './support/shell';

/** The docs plugin instances of the site (docusaurus.config.ts): the docs and the API reference. */
const docsPluginIds = ['default', 'api'] as const;

const colourModeToggle = (page: Page) =>
  page.getByRole('button', { name: /switch between dark and light mode/i });

test.describe('colour mode', () => {
  test.use({ colorScheme: 'light' });

  test('a first visit with a light system preference is dark', async ({ page }) => {
    await gotoHydrated(page, '/');
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await expect(html).toHaveAttribute('data-theme-choice', 'dark');
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: light)').matches)).toBe(
      true,
    );
    // Dark palette in use, not Infima's light default (white background).
    await expect(page.locator('body')).not.toHaveCSS('background-color', 'rgb(255, 255, 255)');
    // Nothing chose a mode, so nothing is persisted.
    expect(await readStorage(page, storageKeys.theme)).toBeNull();
  });

  test('no colour-mode toggle is rendered, on desktop or in the mobile menu', async ({ page }) => {
    await gotoHydrated(page, '/docs/');
    await expect(page.locator('.navbar')).toBeVisible();
    await expect(colourModeToggle(page)).toHaveCount(0);
    await expect(page.locator('[class*="colorModeToggle"]')).toHaveCount(0);

    await page.setViewportSize({ width: 375, height: 812 });
    await page.getByRole('button', { name: 'Toggle navigation bar' }).click();
    await expect(page.locator('.navbar-sidebar')).toBeVisible();
    await expect(colourModeToggle(page)).toHaveCount(0);
  });

  test('a system preference change does not change the mode', async ({ page }) => {
    await gotoHydrated(page, '/docs/getting-started/');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    // Navigating inside the app keeps it.
    await page
      .locator('.theme-doc-sidebar-menu')
      .getByRole('link', { name: 'Bounty program' })
      .click();
    await expect(page).toHaveURL(/\/docs\/bounty-program\/$/);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  });

  test('a stored "theme" value is ignored and removed while the switch is disabled', async ({
    page,
  }) => {
    // Docusaurus keeps the mode under the key "theme" (siteStorageNamespacing is off). With
    // disableSwitch it neither reads the stored value (the inline script applies the default)
    // nor keeps it: on mount it deletes the key, so an old choice cannot come back later.
    for (const stored of ['light', 'dark']) {
      await gotoHydrated(page, '/');
      await writeStorage(page, { [storageKeys.theme]: stored });
      await page.reload();
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
      await waitForHydration(page);
      await expect.poll(() => readStorage(page, storageKeys.theme), stored).toBeNull();
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    }
  });
});

test.describe('docs version preference', () => {
  // Both docs instances have a single version, "current" (labelled Next). Docusaurus writes
  // docs-preferred-version-{id} only when a reader picks a version in a version dropdown, and
  // this site has none, so browsing never writes the key. What is observable is the other half
  // of the rule: on load every docs plugin's stored preference is checked against its versions,
  // kept if the version exists and cleared if it does not.

  test('browsing the docs and the API reference stores no preference', async ({ page }) => {
    await gotoHydrated(page, '/docs/');
    await page
      .locator('.theme-doc-sidebar-menu')
      .getByRole('link', { name: 'Getting started' })
      .click();
    await expect(page).toHaveURL(/\/docs\/getting-started\/$/);
    await page.locator('.navbar').getByRole('link', { name: 'API', exact: true }).click();
    await expect(page).toHaveURL(/\/api\/$/);
    const keys = await page.evaluate(() => Object.keys(window.localStorage));
    expect(keys.filter((key) => key.startsWith('docs-preferred-version-'))).toEqual([]);
  });

  test('a stored version that no longer exists is cleared and the page still renders', async ({
    page,
  }) => {
    await gotoHydrated(page, '/docs/getting-started/');
    await writeStorage(
      page,
      Object.fromEntries(
        docsPluginIds.map((id) => [storageKeys.docsPreferredVersion(id), '0.9.0-removed']),
      ),
    );
    await page.reload();
    await expect(page.locator('h1').first()).toHaveText('Getting started');
    for (const id of docsPluginIds) {
      await expect
        .poll(() => readStorage(page, storageKeys.docsPreferredVersion(id)), id)
        .toBeNull();
    }
    // The navbar's docs links still lead to the current version.
    await page.locator('.navbar').getByRole('link', { name: 'API', exact: true }).click();
    await expect(page.locator('h1').first()).toHaveText('API reference');
  });

  test('a stored version that exists is kept', async ({ page }) => {
    await gotoHydrated(page, '/api/');
    await writeStorage(
      page,
      Object.fromEntries(
        docsPluginIds.map((id) => [storageKeys.docsPreferredVersion(id), 'current']),
      ),
    );
    await page.reload();
    await waitForHydration(page);
    await expect(page.locator('h1').first()).toHaveText('API reference');
    // Give the bogus-version check above a counterpart: after hydration the value is intact.
    await page.locator('.navbar').getByRole('link', { name: 'Documentation' }).click();
    await expect(page).toHaveURL(/\/docs\/$/);
    for (const id of docsPluginIds) {
      expect(await readStorage(page, storageKeys.docsPreferredVersion(id)), id).toBe('current');
    }
  });
});
