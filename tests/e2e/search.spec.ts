/**
 * The local search (@easyops-cn/docusaurus-search-local): the navbar search box with its keyboard
 * shortcut hint, suggestions from the docs and from the API reference, and the search results page.
 * Every link it produces keeps the trailing slash the site enforces (SITE-REQUIREMENTS.md, "Routes").
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { gotoHydrated } from './support/shell';

function searchInput(page: Page): Locator {
  // A plain input until the search index loads on first focus; a combobox after.
  return page.locator('.navbar input.navbar__search-input');
}

/** The suggestion whose title is exactly `title` (other suggestions may mention it). */
function suggestion(page: Page, title: string): Locator {
  return page.getByRole('option').filter({
    has: page.locator('[class*="hitTitle"]').getByText(title, { exact: true }),
  });
}

/** Pathname of a link's href, resolved against the current page. */
function pathnameOf(href: string, page: Page): string {
  return new URL(href, page.url()).pathname;
}

test('the search box shows its keyboard shortcut hint, and the shortcut focuses it', async ({
  page,
}) => {
  await gotoHydrated(page, '/');
  const box = page.locator('.navbar .navbar__search');
  const input = box.locator('input');
  await expect(input).toHaveAttribute('placeholder', 'Search');
  const hints = box.locator('kbd');
  await expect(hints).toHaveCount(2);
  const [modifier, key] = await hints.allInnerTexts();
  expect(['ctrl', '⌘']).toContain(modifier);
  expect(key).toBe('K');

  await expect(input).not.toBeFocused();
  await page.keyboard.press(modifier === '⌘' ? 'Meta+k' : 'Control+k');
  await expect(input).toBeFocused();
});

test('typing a docs term suggests docs pages, and choosing one opens it', async ({ page }) => {
  await gotoHydrated(page, '/');
  await searchInput(page).fill('executor');

  const executors = suggestion(page, 'Executors');
  await expect(executors).toBeVisible();
  await expect(executors).toContainText('Documentation');

  // "See all results" links to the search page, with its trailing slash.
  const seeAll = page.getByRole('link', { name: 'See all results' });
  await expect(seeAll).toHaveAttribute('href', '/search/?q=executor');

  await executors.click();
  await expect(page).toHaveURL((url) => url.pathname === '/docs/building-plugins/executors/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Executors');
  // The searched term is highlighted on the page it leads to.
  await expect(page.locator('article mark').first()).toBeVisible();
});

test('typing an API name suggests its API reference page, and choosing it opens it', async ({
  page,
}) => {
  await gotoHydrated(page, '/');
  await searchInput(page).fill('ModelManager');

  const modelManager = suggestion(page, 'Class: ModelManager');
  await expect(modelManager).toBeVisible();
  await expect(modelManager).toContainText('API');

  await modelManager.click();
  await expect(page).toHaveURL((url) => url.pathname === '/api/classes/ModelManager/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Class: ModelManager');
});

test('the search results page lists docs and API results, with trailing-slash links', async ({
  page,
}) => {
  await page.goto('/search/?q=executor');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search results for "executor"');
  await expect(page.getByText(/^\d+ documents? found$/)).toBeVisible();

  const results = page.locator('article h2 a');
  await expect(results.first()).toBeVisible();
  const hrefs = await results.evaluateAll((links) =>
    links.map((link) => link.getAttribute('href') ?? ''),
  );
  const pathnames = hrefs.map((href) => pathnameOf(href, page));
  expect(pathnames).toContain('/docs/building-plugins/executors/');
  expect(pathnames.some((pathname) => pathname.startsWith('/api/'))).toBe(true);
  for (const pathname of pathnames) {
    expect(pathname, `result link ${pathname}`).toMatch(/\/$/);
  }

  // Searching again from the page's own box updates the list and the URL.
  await page
    .locator('.main-wrapper')
    .getByRole('searchbox', { name: 'Search' })
    .fill('ModelManager');
  await expect(page).toHaveURL(
    (url) => url.pathname === '/search/' && url.searchParams.get('q') === 'ModelManager',
  );
  const modelManager = results.filter({ hasText: /^Class: ModelManager$/ }).first();
  await expect(modelManager).toHaveAttribute('href', /^\/api\/classes\/ModelManager\/(\?|#|$)/);

  await modelManager.click();
  await expect(page).toHaveURL((url) => url.pathname === '/api/classes/ModelManager/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Class: ModelManager');
});
