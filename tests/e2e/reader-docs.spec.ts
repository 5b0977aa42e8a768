/**
 * Reading the docs: install commands as npm / yarn / pnpm tabs whose choice is remembered, and the
 * "Last updated" date that docs pages take from git history (the date itself depends on the
 * checkout, so only its presence and form are checked).
 */
import { expect, test, type Page } from '@playwright/test';
import { gotoHydrated, sidebarLink } from './support/shell';

const installPage = '/docs/getting-started/';

function installTabs(page: Page) {
  return page
    .locator('article [role="tablist"]')
    .filter({ has: page.getByRole('tab', { name: 'pnpm', exact: true }) })
    .first();
}

test('install commands are npm / yarn / pnpm tabs, and the choice is remembered', async ({
  page,
}) => {
  await gotoHydrated(page, installPage);
  const tabs = installTabs(page);
  await expect(tabs.getByRole('tab')).toHaveText(['npm', 'Yarn', 'pnpm']);
  await expect(tabs.getByRole('tab', { name: 'npm', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  const panel = page.locator('article [role="tabpanel"]:not([hidden])').first();
  await expect(panel).toContainText('npm install');

  // Keyboard: arrows move between tabs, as in any tab list.
  await tabs.getByRole('tab', { name: 'npm', exact: true }).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(tabs.getByRole('tab', { name: 'pnpm', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(panel).toContainText('pnpm install');

  // Another page, then back by a client-side link: still pnpm.
  await sidebarLink(page, 'Bounty program').click();
  await expect(page).toHaveURL((url) => url.pathname === '/docs/bounty-program/');
  await sidebarLink(page, 'Getting started').click();
  await expect(page).toHaveURL((url) => url.pathname === installPage);
  await expect(installTabs(page).getByRole('tab', { name: 'pnpm', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );

  // A new visit (full load) remembers it too.
  await gotoHydrated(page, installPage);
  await expect(installTabs(page).getByRole('tab', { name: 'pnpm', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.locator('article [role="tabpanel"]:not([hidden])').first()).toContainText(
    'pnpm install',
  );
});

for (const path of ['/docs/getting-started/', '/docs/capabilities/transforms/']) {
  test(`${path} shows when it was last updated`, async ({ page }) => {
    await gotoHydrated(page, path);
    const lastUpdated = page.locator('article footer .theme-last-updated');
    await expect(lastUpdated).toContainText('Last updated');
    const datetime = await lastUpdated.locator('time').getAttribute('datetime');
    expect(Number.isNaN(Date.parse(datetime ?? ''))).toBe(false);
  });
}
