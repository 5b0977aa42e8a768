/**
 * SITE-REQUIREMENTS.md, "Routes": the two sidebars, paths without the slash or ending in
 * index.html / .html reach the clean path, and unknown paths get the not-found page. That every
 * route and API page answers at its trailing-slash path with its heading is sitemap.spec.ts's
 * walk of the built sitemap.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { apiPages } from './support/api-pages';
import { notFoundHeading, siteRoutes } from './support/site-routes';
import { waitForHydration } from './support/shell';

const buildDir = path.resolve(__dirname, '../../build');

/** The hydrated page's single h1 (the not-found page has one too). */
function pageHeading(page: Page) {
  return page.locator('h1').first();
}

test.describe('spec routes', () => {
  test('/docs/ has the docs sidebar and /api/ has its own API sidebar', async ({ page }) => {
    await page.goto('/docs/');
    const docsSidebar = page.locator('.theme-doc-sidebar-menu');
    await expect(docsSidebar.getByRole('link', { name: 'Getting started' })).toBeVisible();
    await expect(docsSidebar.getByRole('link', { name: 'Contributing guide' })).toBeVisible();
    await expect(docsSidebar.getByRole('link', { name: 'Overview', exact: true })).toHaveCount(0);

    await page.goto('/api/');
    const apiSidebar = page.locator('.theme-doc-sidebar-menu');
    await expect(apiSidebar.getByRole('link', { name: 'Overview', exact: true })).toBeVisible();
    await expect(apiSidebar.getByText('Classes', { exact: true })).toBeVisible();
    await expect(apiSidebar.getByRole('link', { name: 'Getting started' })).toHaveCount(0);
  });

  test('every docs page of the sitemap is linked from the docs sidebar', async ({ page }) => {
    const sitemap = await readFile(path.join(buildDir, 'sitemap.xml'), 'utf8');
    const docsPaths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)]
      .map((match) => new URL(match[1]!).pathname)
      .filter((sitePath) => sitePath.startsWith('/docs/'));
    expect(docsPaths.length).toBeGreaterThan(siteRoutes.filter((route) => route.docsPage).length);
    await page.goto('/docs/getting-started/');
    await waitForHydration(page);
    const sidebar = page.locator('.theme-doc-sidebar-menu');
    const collapsed = sidebar.locator('.menu__list-item--collapsed > .menu__list-item-collapsible');
    while ((await collapsed.count()) > 0) {
      await collapsed.first().locator('.menu__link, .menu__caret').first().click();
    }
    const linked = await sidebar
      .locator('a.menu__link')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    // The docs index is the navbar's "Docs" link and the sidebar's parent, not an entry of it.
    expect(
      docsPaths.filter((sitePath) => sitePath !== '/docs/' && !linked.includes(sitePath)),
    ).toEqual([]);
  });

  test('paths without the trailing slash redirect to it', async ({ request }) => {
    const paths = [...siteRoutes.map((route) => route.path), ...apiPages.map((p) => p.path)];
    for (const target of paths.filter((p) => p !== '/')) {
      const bare = target.slice(0, -1);
      const response = await request.get(bare, { maxRedirects: 0 });
      expect(response.status(), bare).toBe(301);
      expect(response.headers()['location'], bare).toBe(target);
    }
  });

  test('a path without the trailing slash reaches the same page in the browser', async ({
    page,
  }) => {
    await page.goto('/docs/building-plugins/triggers');
    await expect(page).toHaveURL(/\/docs\/building-plugins\/triggers\/$/);
    await expect(pageHeading(page)).toHaveText('Triggers');

    await page.goto('/api/classes/Runtime');
    await expect(page).toHaveURL(/\/api\/classes\/Runtime\/$/);
    await expect(pageHeading(page)).toHaveText('Class: Runtime');
  });
});

test.describe('API reference pages', () => {
  test('the API sidebar lists exactly the specified exports', async ({ page }) => {
    await page.goto('/api/');
    await waitForHydration(page);
    const sidebar = page.locator('.theme-doc-sidebar-menu');
    // Expand every collapsed category (categories do not auto-collapse, so all stay open).
    const collapsed = sidebar.locator('.menu__list-item--collapsed > .menu__list-item-collapsible');
    while ((await collapsed.count()) > 0) {
      await collapsed.first().locator('.menu__link').click();
    }
    const hrefs = await sidebar
      .locator('a.menu__link[href^="/api/"]:not(.menu__link--sublist)')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs.filter((href) => href !== '/api/').sort()).toEqual(
      apiPages.map((p) => p.path).sort(),
    );
  });
});

test.describe('normalised paths', () => {
  test('the server sends …/index.html and .html paths to the clean path', async ({ page }) => {
    for (const [from, to, heading] of [
      ['/docs/getting-started/index.html', '/docs/getting-started/', 'Getting started'],
      ['/docs/getting-started.html', '/docs/getting-started/', 'Getting started'],
      ['/api/classes/Runtime/index.html', '/api/classes/Runtime/', 'Class: Runtime'],
      ['/index.html', '/', 'Weft'],
    ] as const) {
      const response = await page.goto(from);
      expect(response?.status(), from).toBe(200);
      expect(new URL(page.url()).pathname, from).toBe(to);
      await expect(pageHeading(page)).toHaveText(heading);
    }
  });

  test('the client renders …/index.html served as is (static hosts), not the not-found page', async ({
    page,
  }) => {
    // GitHub Pages and most static hosts answer /x/index.html with the file itself, without a
    // redirect. Serve it that way here so the check is of the client's own normalisation.
    for (const [url, file, heading] of [
      ['/docs/getting-started/index.html', 'docs/getting-started/index.html', 'Getting started'],
      ['/api/classes/Runtime/index.html', 'api/classes/Runtime/index.html', 'Class: Runtime'],
      ['/plugins/index.html', 'plugins/index.html', 'Plugins'],
    ] as const) {
      const body = await readFile(path.join(buildDir, file));
      await page.route(`**${url}`, (route) =>
        route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body }),
      );
      await page.goto(url);
      expect(new URL(page.url()).pathname).toBe(url);
      await waitForHydration(page);
      await expect(pageHeading(page)).toHaveText(heading);
      await expect(page.getByRole('heading', { name: notFoundHeading })).toHaveCount(0);
      await page.unroute(`**${url}`);
    }
  });
});

test.describe('not-found page', () => {
  test('an unknown path answers 404 with the not-found page', async ({ page }) => {
    const response = await page.goto('/no-such-page/');
    expect(response?.status()).toBe(404);
    await waitForHydration(page);
    await expect(pageHeading(page)).toHaveText(notFoundHeading);
    await expect(page).toHaveTitle(/Page Not Found/);
  });

  test('an unknown docs path renders the not-found page too', async ({ page }) => {
    const response = await page.goto('/docs/no-such-doc/');
    expect(response?.status()).toBe(404);
    await expect(pageHeading(page)).toHaveText(notFoundHeading);
  });
});
