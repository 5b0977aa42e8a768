/**
 * Offline mode of the progressive web app (SITE-REQUIREMENTS.md,
 * "Offline mode"), with the queryString
 * activation strategy: /?offlineMode=true registers the service worker with a precache of the
 * whole site. Each test serves its own copy of the build on its own port, so it can stop the
 * server or publish a "new version" without touching the shared server.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  copyBuild,
  startStaticServer,
  type BuildCopy,
  type StaticServer,
} from './support/static-server';
import { waitForHydration } from './support/shell';

interface SwParams {
  offlineMode?: unknown;
  debug?: unknown;
}

// The "Copy page" check reads what was copied.
test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

let copy: BuildCopy;
let server: StaticServer;

test.beforeEach(async () => {
  copy = copyBuild('weft-e2e-pwa-');
  server = await startStaticServer({ dir: copy.dir });
});

test.afterEach(async () => {
  await server?.stop();
  copy?.remove();
});

/** Precache entries in the service worker of the served copy (workbox's injected manifest). */
function precacheManifestSize(): number {
  const sw = readFileSync(join(copy.dir, 'sw.js'), 'utf8');
  return sw.match(/"url":"/g)?.length ?? 0;
}

/** The `params` query parameter of every service worker script request the server received. */
function swScriptParams(): SwParams[] {
  return server.requests
    .filter((url) => url.startsWith('/sw.js?'))
    .map((url) => {
      const params = new URL(url, server.origin).searchParams.get('params');
      return JSON.parse(params ?? 'null') as SwParams;
    });
}

async function precachedEntries(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const names = (await caches.keys()).filter((name) => name.startsWith('workbox-precache'));
    const counts = await Promise.all(
      names.map(async (name) => (await (await caches.open(name)).keys()).length),
    );
    return counts.reduce((sum, count) => sum + count, 0);
  });
}

/**
 * Opens the site in offline mode and waits until its service worker is active, has precached
 * every entry of its manifest and controls the page. The worker does not claim the page that
 * registered it, so control starts with the next load.
 */
async function installOfflineMode(page: Page): Promise<void> {
  await page.goto(`${server.url}?offlineMode=true`);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  const expected = precacheManifestSize();
  expect(expected).toBeGreaterThan(50);
  await expect.poll(() => precachedEntries(page)).toBe(expected);

  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated');
  await waitForHydration(page);
}

async function stopServer(page: Page): Promise<void> {
  await server.stop();
  // Nothing answers on the port any more: whatever renders from now on comes from the cache.
  await expect(page.request.get(server.url)).rejects.toThrow();
}

const h1 = (page: Page) => page.locator('article h1, main h1').first();

test('with ?offlineMode=true the whole site is precached and keeps working with the server stopped', async ({
  page,
}) => {
  // The whole site, its Markdown copies included, is precached before the journey starts.
  test.slow();
  await installOfflineMode(page);

  // SITE-REQUIREMENTS.md, "Offline mode": the worker script is requested with params={"offlineMode":…,"debug":…}.
  const params = swScriptParams();
  expect(params.length).toBeGreaterThan(0);
  for (const entry of params) {
    expect(Object.keys(entry).sort()).toEqual(['debug', 'offlineMode']);
    expect(entry.offlineMode).toBe(true);
    expect(typeof entry.debug).toBe('boolean');
  }
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? ''))
    .toContain(`params=${encodeURIComponent(JSON.stringify({ offlineMode: true, debug: false }))}`);

  await stopServer(page);

  // The current page reloads from the cache.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await waitForHydration(page);

  // Client-side navigation: route chunks come from the cache.
  await page.locator('.navbar').getByRole('link', { name: 'Documentation', exact: true }).click();
  await expect(page).toHaveURL(`${server.origin}/docs/`);
  await expect(h1(page)).toHaveText('Weft documentation');

  await page
    .locator('.theme-doc-sidebar-container')
    .getByRole('link', { name: 'Getting started', exact: true })
    .click();
  await expect(page).toHaveURL(`${server.origin}/docs/getting-started/`);
  await expect(h1(page)).toHaveText('Getting started');

  await page.locator('.navbar').getByRole('link', { name: 'API', exact: true }).click();
  await expect(page).toHaveURL(`${server.origin}/api/`);
  await expect(h1(page)).toHaveText('API reference');

  // The index is a table of exports; descriptions link to other exports too, so use the row's own link.
  await page
    .locator('article tr', { has: page.locator('td:first-child a', { hasText: /^ModelManager$/ }) })
    .locator('td:first-child a')
    .click();
  await expect(page).toHaveURL(`${server.origin}/api/classes/ModelManager/`);
  await expect(h1(page)).toHaveText('Class: ModelManager');

  // Full page loads: documents come from the cache too, and hydrate.
  for (const [path, title] of [
    ['/docs/', 'Weft documentation'],
    ['/docs/core-utilities/liquid-templates/', 'Liquid templates'],
    ['/api/interfaces/Executor/', 'Interface: Executor'],
  ] as const) {
    await page.goto(`${server.origin}${path}`);
    await expect(h1(page)).toHaveText(title);
    await waitForHydration(page);
  }
  await page.reload();
  await expect(h1(page)).toHaveText('Interface: Executor');

  // "Copy page" fetches the page's Markdown copy, which is precached like the page.
  await page.getByRole('button', { name: 'Copy page', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(readFileSync(join(copy.dir, 'api/interfaces/Executor.md'), 'utf8'));

  // The navbar's whitepaper is a PDF, outside the plugin's own precache patterns.
  const whitepaper = await page.evaluate(async () => {
    const response = await fetch('/whitepaper.pdf');
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { status: response.status, start: String.fromCharCode(...bytes.slice(0, 5)) };
  });
  expect(whitepaper).toEqual({ status: 200, start: '%PDF-' });

  // Search works offline too: its index files are precached like the pages.
  await page.locator('.navbar input.navbar__search-input').fill('ModelManager');
  const hit = page.getByRole('option').filter({ hasText: 'ModelManager' }).first();
  // The first suggestions wait for the 2 MB index to load in a worker: slow on a busy machine.
  await expect(hit).toBeVisible({ timeout: 30_000 });
  await hit.click();
  // The search plugin adds ?_highlight=… to the page it opens.
  await expect(page).toHaveURL(new RegExp(`^${server.origin}/api/classes/ModelManager/(\\?.*)?$`));
  await expect(h1(page)).toContainText('ModelManager');
});

test('a new version shows the reload popup in offline mode, and Refresh loads it', async ({
  page,
}) => {
  await installOfflineMode(page);
  await expect(page.getByText('New version available')).toHaveCount(0);

  // Publish a new version: the home page changes, and so does its precache revision in sw.js,
  // which makes the worker script byte-different.
  const marker = '<meta name="weft-e2e-version" content="2">';
  const indexPath = join(copy.dir, 'index.html');
  const html = readFileSync(indexPath, 'utf8');
  expect(html).toContain('</head>');
  writeFileSync(indexPath, html.replace('</head>', `${marker}</head>`));
  const swPath = join(copy.dir, 'sw.js');
  const sw = readFileSync(swPath, 'utf8');
  const revision = /"revision":"[^"]+"(,"url":"index\.html")/;
  expect(sw).toMatch(revision);
  writeFileSync(swPath, sw.replace(revision, '"revision":"weft-e2e-2"$1'));

  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    await registration?.update();
  });

  const popup = page.locator('.alert').filter({ hasText: 'New version available' });
  await expect(popup).toBeVisible();
  const refresh = popup.getByRole('button', { name: 'Refresh', exact: true });
  await expect(refresh).toBeVisible();
  await expect(popup.getByRole('button', { name: 'Close' })).toBeVisible();
  // The old version is still the one shown until the visitor chooses to refresh.
  await expect(page.locator('meta[name="weft-e2e-version"]')).toHaveCount(0);
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return registration?.waiting?.state ?? null;
      }),
    )
    .toBe('installed');

  // The new worker has precached the new version: it is served even with the server gone.
  await stopServer(page);
  await refresh.click();

  await expect(page.locator('meta[name="weft-e2e-version"]')).toHaveCount(1);
  await expect(page.getByText('New version available')).toHaveCount(0);
  await waitForHydration(page);
  const state = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    return {
      waiting: registration?.waiting ?? null,
      controller: navigator.serviceWorker.controller?.state ?? null,
    };
  });
  expect(state).toEqual({ waiting: null, controller: 'activated' });
});

test('without offline mode a new worker takes over at once, with no popup', async ({ page }) => {
  await page.goto(server.url);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated');
  await waitForHydration(page);
  expect(swScriptParams().map((params) => params.offlineMode)).toContain(false);
  // Nothing is precached when offline mode is off.
  expect(await precachedEntries(page)).toBe(0);

  const swPath = join(copy.dir, 'sw.js');
  writeFileSync(swPath, `${readFileSync(swPath, 'utf8')}\n// weft-e2e: new version\n`);

  const controllerChanged = page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true), {
          once: true,
        });
      }),
  );
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    await registration?.update();
  });

  expect(await controllerChanged).toBe(true);
  await expect(page.getByText('New version available')).toHaveCount(0);
  const waiting = await page.evaluate(
    async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null,
  );
  expect(waiting).toBeNull();
});
