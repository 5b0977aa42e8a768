/**
 * The local search (@easyops-cn/docusaurus-search-local): the navbar search box with its keyboard
 * shortcut hint, suggestions from the docs and from the API reference, and the search results page.
 * Every link it produces keeps the trailing slash the site enforces (SITE-REQUIREMENTS.md, "Routes").
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { gotoHydrated } from './support/shell';

/**
 * The first results wait for the search index to download and load in a worker, which takes
 * well over the default 10 s when the machine running the tests is busy.
 */
const indexLoad = { timeout: 30_000 };

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
  await expect(executors).toBeVisible(indexLoad);
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
  await expect(modelManager).toBeVisible(indexLoad);
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
  await expect(page.getByText(/^\d+ documents? found$/)).toBeVisible(indexLoad);

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

/** The suggestion the keyboard cursor is on (autocomplete.js marks it with a "cursor" class). */
function cursorSuggestion(page: Page): Locator {
  return page.locator('[role="option"][class*="cursor"]');
}

async function openSearchWithShortcut(page: Page): Promise<Locator> {
  const input = searchInput(page);
  const [modifier] = await page.locator('.navbar .navbar__search kbd').allInnerTexts();
  await page.keyboard.press(modifier === '⌘' ? 'Meta+k' : 'Control+k');
  await expect(input).toBeFocused();
  return input;
}

test.describe('search finds every page from every page, with the keyboard only', () => {
  test('from a guide page, an API symbol is the first result, labelled API, and Enter opens it', async ({
    page,
  }) => {
    await gotoHydrated(page, '/docs/getting-started/');
    await openSearchWithShortcut(page);
    await page.keyboard.type('PipelineModificationSchema');

    // Best match first: the symbol's own page, its path starting with its section.
    const first = page.getByRole('option').first();
    await expect(first.locator('[class*="hitTitle"]')).toHaveText(
      'Variable: PipelineModificationSchema',
      indexLoad,
    );
    await expect(first.locator('[class*="hitPath"]')).toHaveText(/^API › /);
    await expect(page.getByText('No results')).toHaveCount(0);
    await expect(page.getByRole('link', { name: /outside/ })).toHaveCount(0);

    // Arrows move the cursor; it starts on the best match.
    await expect(cursorSuggestion(page)).toHaveCount(1);
    const firstTitle = await cursorSuggestion(page).locator('[class*="hitTitle"]').innerText();
    await page.keyboard.press('ArrowDown');
    await expect(cursorSuggestion(page).locator('[class*="hitTitle"]')).not.toHaveText(firstTitle);
    await page.keyboard.press('ArrowUp');
    await expect(cursorSuggestion(page).locator('[class*="hitTitle"]')).toHaveText(firstTitle);

    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(
      (url) => url.pathname === '/api/variables/PipelineModificationSchema/',
    );
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Variable: PipelineModificationSchema',
    );
  });

  test('from an API page, a guide topic is found, labelled Documentation, and Enter opens it', async ({
    page,
  }) => {
    await gotoHydrated(page, '/api/classes/Runtime/');
    await openSearchWithShortcut(page);
    await page.keyboard.type('Liquid templates');

    const first = page.getByRole('option').first();
    await expect(first.locator('[class*="hitTitle"]')).toHaveText('Liquid templates', indexLoad);
    await expect(first.locator('[class*="hitPath"]')).toHaveText(/^Documentation › /);

    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(
      (url) => url.pathname === '/docs/core-utilities/liquid-templates/',
    );
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Liquid templates');
  });

  test('one list mixes guides and API pages, each labelled with its section', async ({ page }) => {
    await gotoHydrated(page, '/docs/building-plugins/executors/');
    await searchInput(page).fill('Executor');
    const options = page.getByRole('option');
    await expect(options.first()).toBeVisible(indexLoad);
    // One row per page, each with its section's name at the start of its path.
    const labels = await options.locator('[class*="hitPath"]').allInnerTexts();
    expect(labels.length).toBe(await options.count());
    const sections = new Set(labels.map((label) => label.split(' › ')[0]));
    expect([...sections].sort()).toEqual(['API', 'Documentation']);
  });
});

test.describe('the ranking the box shares with the docs MCP server', () => {
  /** The suggestions' titles, once the first is there. */
  async function titlesFor(page: Page, query: string): Promise<string[]> {
    await searchInput(page).fill(query);
    await expect(page.getByRole('option').first()).toBeVisible(indexLoad);
    return page.getByRole('option').locator('[class*="hitTitle"]').allInnerTexts();
  }

  test('finds a task in the reader’s words, with a word the docs do not use', async ({ page }) => {
    await gotoHydrated(page, '/');
    const titles = await titlesFor(page, 'deploy behind nginx');
    expect(titles.slice(0, 3)).toContain('Running in production');
  });

  test('forgives two typos in a long word, and lists each page once', async ({ page }) => {
    await gotoHydrated(page, '/');
    const titles = await titlesFor(page, 'capabilites');
    expect(titles[0]).toBe('Capabilities');
    expect(new Set(titles).size).toBe(titles.length);
  });

  test('a query nothing is near offers the search page instead of a dead end', async ({ page }) => {
    await gotoHydrated(page, '/');
    await searchInput(page).fill('qqzzxx');
    await expect(page.getByText('No results for “qqzzxx”.')).toBeVisible(indexLoad);
    const searchAll = page.getByRole('link', { name: 'Search all pages' });
    await expect(searchAll).toHaveAttribute('href', '/search/?q=qqzzxx');
    await searchAll.click();
    await expect(page).toHaveURL((url) => url.pathname === '/search/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search results for "qqzzxx"');
  });

  test('a result opens the part of the page that matched, named at the end of its path', async ({
    page,
  }) => {
    await gotoHydrated(page, '/');
    await searchInput(page).fill('graceful shutdown');
    const first = page.getByRole('option').first();
    await expect(first.locator('[class*="hitTitle"]')).toHaveText(
      'Running in production',
      indexLoad,
    );
    await expect(first.locator('[class*="hitPath"]')).toHaveText(/ › Graceful shutdown$/i);
    await first.click();
    await expect(page).toHaveURL(
      (url) => url.pathname === '/docs/guides/production/' && url.hash === '#graceful-shutdown',
    );
  });
});

test('the search page searches everywhere by default and narrows to one section', async ({
  page,
}) => {
  await page.goto('/search/?q=executor');
  const results = page.locator('article h2 a');
  await expect(results.first()).toBeVisible(indexLoad);
  const section = page.getByRole('combobox').filter({ has: page.getByRole('option') });
  await expect(section).toHaveValue('');

  const pathnamesNow = async () =>
    (
      await results.evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))
    ).map((href) => pathnameOf(href, page));
  const everywhere = await pathnamesNow();
  expect(everywhere.some((pathname) => pathname.startsWith('/docs/'))).toBe(true);
  expect(everywhere.some((pathname) => pathname.startsWith('/api/'))).toBe(true);

  await section.selectOption({ label: 'API reference' });
  await expect(page).toHaveURL((url) => url.searchParams.get('ctx') === 'api');
  await expect
    .poll(async () => (await pathnamesNow()).every((pathname) => pathname.startsWith('/api/')))
    .toBe(true);
  expect((await pathnamesNow()).length).toBeGreaterThan(0);

  await section.selectOption({ label: 'Documentation' });
  await expect
    .poll(async () => (await pathnamesNow()).every((pathname) => pathname.startsWith('/docs/')))
    .toBe(true);
  expect((await pathnamesNow()).length).toBeGreaterThan(0);
});

/**
 * The search plugin's code loads after hydration (src/theme/SearchBar); until then a look-alike
 * box stands in. This holds the plugin's chunk back while the reader presses the shortcut and
 * types, on a guide page (where the plugin resets its box on mount), then lets it load.
 */
test('the shortcut and text typed before the search code loads are kept', async ({ page }) => {
  let releasePluginChunk: () => void = () => undefined;
  const pluginChunkReleased = new Promise<void>((resolve) => {
    releasePluginChunk = resolve;
  });
  let pluginChunkHeld = false;
  await page.route('**/assets/js/*.js', async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    // Only the plugin's SearchBar chunk wires autocomplete.js's selection event.
    if (body.includes('autocomplete:selected')) {
      pluginChunkHeld = true;
      await pluginChunkReleased;
    }
    await route.fulfill({ response, body });
  });

  await gotoHydrated(page, '/docs/getting-started/');
  const input = searchInput(page);
  const modifier = (await page.locator('.navbar .navbar__search kbd').first().innerText()) === '⌘';
  await page.keyboard.press(modifier ? 'Meta+k' : 'Control+k');
  await expect(input).toBeFocused();
  await page.keyboard.type('execu');
  await expect
    .poll(() => pluginChunkHeld, { message: 'the plugin chunk was requested' })
    .toBe(true);

  releasePluginChunk();
  await page.keyboard.type('tor');
  // The suggestions wait for the index as well as the plugin's chunk.
  await expect(suggestion(page, 'Executors')).toBeVisible(indexLoad);
  await expect(input).toHaveValue('executor');
  await expect(input).toBeFocused();
});
