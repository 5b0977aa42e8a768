/**
 * SITE-REQUIREMENTS.md, "Error screens", and the chunk-failure rule under "Navigation" (a route whose code
 * fails to load reloads the page).
 *
 * Nothing here ships a broken page: the failures are injected in the browser, by rewriting or
 * aborting the chunk that holds one page's content, or by serving the build under a wrong path.
 */
import { expect, test, type Request } from '@playwright/test';
import {
  crashFlag,
  crashingContentChunk,
  interceptContentChunk,
  isScriptLoad,
} from './support/route-chunks';
import { buildDir, startStaticServer, type StaticServer } from './support/static-server';
import { gotoHydrated, sidebarLink, waitForHydration } from './support/shell';

/**
 * Requests are routed in these tests. The site registers a service worker on every visit, and once
 * it controls a page (after the reload below) its requests could bypass the routes.
 */
test.use({ serviceWorkers: 'block' });

/** The page the failures are injected into, and the page the visitor comes from. */
const target = {
  path: '/docs/bounty-program/',
  source: '@site/docs/bounty-program.md',
  sidebarLabel: 'Bounty program',
  h1: 'Bounty program',
};
const origin = { path: '/docs/getting-started/', h1: 'Getting started' };

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const endsWithPath = (path: string): RegExp => new RegExp(`${escapeRegExp(path)}$`);

test.describe('page crash', () => {
  test('a page that throws while rendering shows "This page crashed." and Try again renders it again', async ({
    page,
  }) => {
    await interceptContentChunk(page, target.source, async (route, { response, body }) => {
      await route.fulfill({ response, body: crashingContentChunk(body) });
    });
    await gotoHydrated(page, origin.path);

    await sidebarLink(page, target.sidebarLabel).click();

    await expect(page).toHaveURL(endsWithPath(target.path));
    await expect(
      page.getByRole('heading', { level: 1, name: 'This page crashed.', exact: true }),
    ).toBeVisible();
    await expect(page.getByText('Injected crash while rendering the page')).toBeVisible();
    const tryAgain = page.getByRole('button', { name: 'Try again', exact: true });
    await expect(tryAgain).toBeVisible();
    // The crash is contained by the layout's error boundary: the navbar still works.
    await expect(page.locator('.navbar')).toBeVisible();

    // "Try again" renders the page again; with the cause gone, the page shows.
    await page.evaluate((flag) => {
      (window as unknown as Record<string, unknown>)[flag] = false;
    }, crashFlag);
    await tryAgain.click();
    await expect(
      page.getByRole('heading', { level: 1, name: target.h1, exact: true }),
    ).toBeVisible();
    await expect(page.getByText('This page crashed.')).toHaveCount(0);
  });
});

test.describe('route chunk load failure', () => {
  /*
   * The catalogue's "error text with a Retry button" is what @theme/Loading (src/theme/Loading) renders when a
   * route's loader has failed at render time. In Docusaurus 3.10 a route is never rendered before
   * its chunks loaded: a client-side transition preloads them first and, when that fails, reloads
   * the page (PendingNavigation.js); the first render after a full load also waits for the preload
   * (clientEntry.js). So a failed chunk leads to a reload, which these tests check, and the Retry
   * fallback cannot be reached by a visitor (see the report that came with these tests).
   */
  test('a chunk that fails during a client-side transition makes the page reload, and the reloaded page renders', async ({
    page,
  }) => {
    const aborted: Request[] = [];
    let failing = true;
    const documentLoads: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
        documentLoads.push(new URL(request.url()).pathname);
        // The chunk is only unreachable until the page reloads (as after a redeployment).
        if (new URL(request.url()).pathname === target.path) {
          failing = false;
        }
      }
    });
    await interceptContentChunk(page, target.source, async (route, { response, body }) => {
      if (failing) {
        aborted.push(route.request());
        await route.abort('failed');
        return;
      }
      await route.fulfill({ response, body });
    });
    await gotoHydrated(page, origin.path);
    expect(documentLoads).toEqual([origin.path]);

    await sidebarLink(page, target.sidebarLabel).click();

    await expect(
      page.getByRole('heading', { level: 1, name: target.h1, exact: true }),
    ).toBeVisible();
    await expect(page).toHaveURL(endsWithPath(target.path));
    // The transition tried to run the chunk, failed, and the browser loaded the target afresh.
    expect(aborted.some(isScriptLoad)).toBe(true);
    expect(documentLoads).toEqual([origin.path, target.path]);
    await waitForHydration(page);

    // The reloaded page is a working single-page app again: the next transition is client-side.
    await sidebarLink(page, 'Getting started').click();
    await expect(
      page.getByRole('heading', { level: 1, name: origin.h1, exact: true }),
    ).toBeVisible();
    expect(documentLoads).toEqual([origin.path, target.path]);
  });

  test('when the chunk keeps failing, the reloaded page still shows its server-rendered content', async ({
    page,
  }) => {
    const documentLoads: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
        documentLoads.push(new URL(request.url()).pathname);
      }
    });
    const abortedAfterReload: Request[] = [];
    await interceptContentChunk(page, target.source, async (route) => {
      if (documentLoads.includes(target.path)) {
        abortedAfterReload.push(route.request());
      }
      await route.abort('failed');
    });
    await gotoHydrated(page, origin.path);

    await sidebarLink(page, target.sidebarLabel).click();

    await expect.poll(() => documentLoads).toEqual([origin.path, target.path]);
    await expect.poll(() => abortedAfterReload.some(isScriptLoad)).toBe(true);
    await expect(
      page.getByRole('heading', { level: 1, name: target.h1, exact: true }),
    ).toBeVisible();
    await expect(page.locator('article')).toContainText(target.h1);
  });
});

test.describe('base URL issue banner', () => {
  let server: StaticServer;

  test.beforeAll(async () => {
    // The build expects baseUrl "/"; here it is served under /other/, so its scripts and styles,
    // requested from /assets/..., are redirected to /other/ and fail to load.
    server = await startStaticServer({ dir: buildDir, basePath: '/other/' });
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test('the home page served under another path shows the red banner suggesting a baseUrl', async ({
    page,
  }) => {
    await page.goto(`${server.origin}/other/`);

    const banner = page.locator('#__docusaurus-base-url-issue-banner');
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('Your Docusaurus site did not load properly.');
    await expect(banner).toContainText(
      'A very common reason is a wrong site baseUrl configuration.',
    );
    await expect(banner).toContainText('Current configured baseUrl = /');
    await expect(banner).toContainText('We suggest trying baseUrl = /other/');
    await expect(
      banner.locator('#__docusaurus-base-url-issue-banner-suggestion-container'),
    ).toHaveText('/other/');
    await expect(banner).toHaveCSS('border-top-color', 'rgb(255, 0, 0)');
  });

  test('the banner is not inserted when the site loads at its base URL', async ({ page }) => {
    await gotoHydrated(page, '/');
    await expect(page.locator('#__docusaurus-base-url-issue-banner')).toHaveCount(0);
  });
});
