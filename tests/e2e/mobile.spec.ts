/**
 * SITE-REQUIREMENTS.md, "Mobile sidebar": the mobile sidebar menu (toggle, back-to-main-menu, closing on back
 * navigation and on becoming desktop) and the 996 px mobile/desktop breakpoint.
 */
import { test, expect, type Locator, type Page } from '@playwright/test';
import { gotoHydrated } from './support/shell';

test.use({ viewport: { width: 375, height: 812 } });

const toggle = (page: Page): Locator => page.getByRole('button', { name: 'Toggle navigation bar' });
const mobileSidebar = (page: Page): Locator => page.locator('.navbar-sidebar');
const navbar = (page: Page): Locator => page.locator('nav.navbar');

async function openMobileSidebar(page: Page): Promise<void> {
  await toggle(page).click();
  await expect(navbar(page)).toHaveClass(/navbar-sidebar--show/);
  await expect(mobileSidebar(page)).toBeVisible();
  // The menu spans the full viewport height (a filter or transform on the navbar would make it
  // the containing block and squeeze the fixed-position menu to the navbar's height).
  const viewportHeight = page.viewportSize()?.height ?? 0;
  await expect
    .poll(async () => Math.round((await mobileSidebar(page).boundingBox())?.height ?? 0))
    .toBe(viewportHeight);
}

async function expectClosed(page: Page): Promise<void> {
  await expect(navbar(page)).not.toHaveClass(/navbar-sidebar--show/);
  await expect(mobileSidebar(page)).toBeHidden();
}

test('the navbar collapses into a toggle that opens the sidebar menu', async ({ page }) => {
  await gotoHydrated(page, '/');
  await expect(toggle(page)).toBeVisible();
  await expect(page.locator('.navbar__items a.navbar__item').first()).toBeHidden();
  await expectClosed(page);

  await openMobileSidebar(page);
  // Outside the docs there is only the primary menu: the navbar items.
  const primary = mobileSidebar(page).locator('.menu__list').first();
  await expect(primary.locator('a.menu__link')).toHaveText([
    'Documentation',
    'API',
    'Plugins',
    'Bounty Program',
    /GitHub/,
    /Whitepaper/,
  ]);
  await expect(mobileSidebar(page).locator('.navbar-sidebar__items')).not.toHaveClass(
    /navbar-sidebar__items--show-secondary/,
  );
  await expect(primary.getByRole('link', { name: 'Bounty Program' })).toBeInViewport();

  await page.getByRole('button', { name: 'Close navigation bar' }).click();
  await expectClosed(page);
});

test('on a docs page it shows the docs sidebar with a back-to-main-menu button', async ({
  page,
}) => {
  await gotoHydrated(page, '/docs/getting-started/');
  await openMobileSidebar(page);
  const items = mobileSidebar(page).locator('.navbar-sidebar__items');
  const back = page.getByRole('button', { name: '← Back to main menu' });

  // The secondary menu (the docs sidebar) comes first.
  await expect(items).toHaveClass(/navbar-sidebar__items--show-secondary/);
  await expect(back).toBeVisible();
  const docsMenu = mobileSidebar(page).locator('.theme-doc-sidebar-menu');
  await expect(docsMenu.getByRole('link', { name: 'Getting started' })).toBeInViewport();

  // The button switches to the primary menu.
  await back.click();
  await expect(items).not.toHaveClass(/navbar-sidebar__items--show-secondary/);
  const primaryLink = mobileSidebar(page).getByRole('link', { name: 'Plugins', exact: true });
  await expect(primaryLink).toBeInViewport();
  await expect(docsMenu).not.toBeInViewport();

  // A primary link navigates and closes the menu.
  await primaryLink.click();
  await expect(page).toHaveURL(/\/plugins\/$/);
  await expectClosed(page);
});

test('a docs sidebar link navigates and closes the menu', async ({ page }) => {
  await gotoHydrated(page, '/docs/');
  await openMobileSidebar(page);
  await mobileSidebar(page)
    .locator('.theme-doc-sidebar-menu')
    .getByRole('link', { name: 'Bounty program' })
    .click();
  await expect(page).toHaveURL(/\/docs\/bounty-program\/$/);
  await expectClosed(page);
  await expect(page.locator('h1').first()).toHaveText(/bounty program/i);
});

test('browser back closes the open sidebar', async ({ page }) => {
  await gotoHydrated(page, '/docs/');
  await openMobileSidebar(page);
  await mobileSidebar(page)
    .locator('.theme-doc-sidebar-menu')
    .getByRole('link', { name: 'Getting started' })
    .click();
  await expect(page).toHaveURL(/\/docs\/getting-started\/$/);
  await expectClosed(page);

  await openMobileSidebar(page);
  await page.goBack();
  // Docusaurus consumes the first back press to close the menu (the history pop is blocked).
  await expectClosed(page);
  await expect(page).toHaveURL(/\/docs\/getting-started\/$/);
  await expect(page.locator('h1').first()).toHaveText('Getting started');

  // With the menu closed, back navigates as usual.
  await page.goBack();
  await expect(page).toHaveURL(/\/docs\/$/);
});

test('the sidebar closes when the viewport becomes desktop', async ({ page }) => {
  await gotoHydrated(page, '/docs/getting-started/');
  await openMobileSidebar(page);

  await page.setViewportSize({ width: 1280, height: 812 });
  await expectClosed(page);
  await expect(toggle(page)).toBeHidden();
  const left = page.locator('.navbar__items:not(.navbar__items--right)');
  await expect(left.getByRole('link', { name: 'Documentation' })).toBeVisible();
  await expect(page.locator('.theme-doc-sidebar-container')).toBeVisible();

  // Back to mobile: the menu stays closed until toggled.
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(toggle(page)).toBeVisible();
  await expectClosed(page);
});

test('the layout switches between 996 px (mobile) and 997 px (desktop)', async ({ page }) => {
  await gotoHydrated(page, '/docs/building-plugins/triggers/');
  const desktopItem = page
    .locator('.navbar__items:not(.navbar__items--right)')
    .getByRole('link', { name: 'Documentation' });
  const desktopToc = page.locator('.theme-doc-toc-desktop');
  const mobileToc = page.locator('.theme-doc-toc-mobile');

  for (const [width, mobile] of [
    [996, true],
    [997, false],
    [1000, false],
    [996, true],
  ] as const) {
    await page.setViewportSize({ width, height: 812 });
    if (mobile) {
      await expect(toggle(page), `${width}px`).toBeVisible();
      await expect(desktopItem, `${width}px`).toBeHidden();
      await expect(page.locator('.theme-doc-sidebar-container'), `${width}px`).toBeHidden();
      // The window size class is "mobile": the table of contents is the collapsible one.
      await expect(mobileToc, `${width}px`).toBeVisible();
      await expect(desktopToc, `${width}px`).toBeHidden();
    } else {
      await expect(toggle(page), `${width}px`).toBeHidden();
      await expect(desktopItem, `${width}px`).toBeVisible();
      await expect(page.locator('.theme-doc-sidebar-container'), `${width}px`).toBeVisible();
      await expect(desktopToc, `${width}px`).toBeVisible();
      await expect(mobileToc, `${width}px`).toBeHidden();
    }
  }
});
