/**
 * Reading the docs: install commands as npm / pnpm / yarn / bun tabs whose choice is remembered
 * (and the plugins page's script-free switch), and the
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

test('install commands are npm / pnpm / yarn / bun tabs, in step across the page and the site', async ({
  page,
}) => {
  // Three full loads and two client-side navigations: over the default minute on a busy machine.
  test.slow();
  await gotoHydrated(page, installPage);
  const tabs = installTabs(page);
  await expect(tabs.getByRole('tab')).toHaveText(['npm', 'pnpm', 'yarn', 'bun']);
  await expect(tabs.getByRole('tab', { name: 'npm', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  const panels = page.locator('article [role="tabpanel"]:not([hidden])');
  await expect(panels.first()).toHaveText('npm create weft@latest my-agent');

  // Keyboard: arrows move between tabs, as in any tab list.
  await tabs.getByRole('tab', { name: 'npm', exact: true }).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(tabs.getByRole('tab', { name: 'pnpm', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  // Every block on the page follows: the create command and the project's own commands.
  await expect(panels.first()).toHaveText('pnpm create weft my-agent');
  await expect(panels.nth(1)).toContainText(/pnpm test\s*pnpm dev/);
  const tabLists = page.locator('article [role="tablist"]');
  expect(await tabLists.count()).toBeGreaterThanOrEqual(2);
  for (const list of await tabLists.all()) {
    await expect(list.getByRole('tab', { name: 'pnpm', exact: true })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  }

  // bun's words: `bun test` would be bun's own test runner, so the script runs with `bun run`.
  await tabs.getByRole('tab', { name: 'bun', exact: true }).click();
  await expect(panels.first()).toHaveText('bun create weft my-agent');
  await expect(panels.nth(1)).toContainText(/bun run test\s*bun run dev/);

  // Another page, by a client-side link: still bun, with its own commands converted.
  await sidebarLink(page, 'Installation').click();
  await expect(page).toHaveURL((url) => url.pathname === '/docs/installation/');
  await expect(installTabs(page).getByRole('tab', { name: 'bun', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(panels.filter({ hasText: '@weft/testing' })).toHaveText(
    /^bun add zod@\^4\.1 pino@\^9\.7 express@\^5\.1 cors@\^2\.8\s*bun add -d @weft\/testing$/,
  );
  await expect(panels.filter({ hasText: '@weft/model-openai' })).toHaveText(
    'bun add @weft/core @weft/model-openai',
  );

  // A new visit (full load) remembers it too; yarn's words for the same commands.
  await gotoHydrated(page, installPage);
  await expect(installTabs(page).getByRole('tab', { name: 'bun', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await installTabs(page).getByRole('tab', { name: 'yarn', exact: true }).click();
  await expect(panels.first()).toHaveText('yarn create weft my-agent');
  await expect(panels.nth(1)).toContainText(/yarn test\s*yarn dev/);
});

test.describe('the plugins page', () => {
  // The switch is plain radio inputs and CSS: it works without any script.
  test.use({ javaScriptEnabled: false });

  test('shows every card install command for the package manager chosen [claim:plugins-install-commands]', async ({
    page,
  }) => {
    await page.goto('/plugins/');
    const visibleCommands = page.locator('article pre[data-package-manager]:visible');
    const cards = await page.locator('article').count();
    expect(cards).toBeGreaterThanOrEqual(6);
    await expect(visibleCommands).toHaveCount(cards);
    await expect(visibleCommands.filter({ hasText: /^npm / })).toHaveCount(cards);

    await page.getByRole('radio', { name: 'bun' }).check();
    await expect(visibleCommands).toHaveCount(cards);
    await expect(visibleCommands.filter({ hasText: /^bun add @weft\// })).toHaveCount(cards - 1);
    await expect(visibleCommands.filter({ hasText: 'create' })).toHaveText(
      'bun create weft my-agent',
    );

    await page.getByRole('radio', { name: 'pnpm' }).check();
    await expect(visibleCommands.filter({ hasText: /^pnpm add @weft\// })).toHaveCount(cards - 1);
    await expect(visibleCommands.filter({ hasText: 'create' })).toHaveText(
      'pnpm create weft my-agent',
    );
  });
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
