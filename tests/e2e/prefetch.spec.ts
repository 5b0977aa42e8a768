/**
 * Prefetching of route code for internal links (SITE-REQUIREMENTS.md,
 * "Navigation"): a link that comes into
 * view has its route chunks prefetched, hovering it preloads (runs) them, and neither happens on
 * a 2g connection or with data saver on; the chunks are then only loaded by the navigation itself.
 *
 * Requests for the target page's content chunk are recorded through a route, which also turns the
 * HTTP cache off, so every prefetch and load shows up as its own request.
 */
import { expect, test, type Page } from '@playwright/test';
import { chunkUrlPattern, interceptContentChunk, transition } from './support/route-chunks';
import { gotoHydrated, sidebarLink } from './support/shell';

test.use({ serviceWorkers: 'block' });

const { target, origin } = transition;

/** `prefetch` for a `<link rel="prefetch">`, `script` for a chunk that is loaded and run. */
type ChunkRequestKind = 'prefetch' | 'script';

async function recordTargetChunkRequests(page: Page): Promise<ChunkRequestKind[]> {
  const kinds: ChunkRequestKind[] = [];
  await interceptContentChunk(page, target.source, async (route, { response, body }) => {
    kinds.push(route.request().resourceType() === 'script' ? 'script' : 'prefetch');
    await route.fulfill({ response, body });
  });
  return kinds;
}

test('a link in view prefetches its route chunk, and hovering it loads the chunk', async ({
  page,
}) => {
  const kinds = await recordTargetChunkRequests(page);
  await gotoHydrated(page, origin);
  const link = sidebarLink(page, target.sidebarLabel);
  await expect(link).toBeInViewport();

  await expect.poll(() => kinds).toContain('prefetch');
  expect(kinds).not.toContain('script');

  await link.hover();
  await expect.poll(() => kinds).toContain('script');
  await expect(page).toHaveURL(new RegExp(`${origin}$`));
});

const slowConnections = [
  { name: 'data saver', connection: { saveData: true, effectiveType: '4g' } },
  { name: '2g', connection: { saveData: false, effectiveType: '2g' } },
];

for (const { name, connection } of slowConnections) {
  test(`with ${name} on, nothing is prefetched or preloaded; the navigation loads the chunk`, async ({
    page,
  }) => {
    await page.addInitScript((value) => {
      Object.defineProperty(navigator, 'connection', { value, configurable: true });
    }, connection);
    const prefetches: string[] = [];
    page.on('request', (request) => {
      if (chunkUrlPattern.test(request.url()) && request.resourceType() !== 'script') {
        prefetches.push(request.url());
      }
    });
    const kinds = await recordTargetChunkRequests(page);
    await gotoHydrated(page, origin);
    const link = sidebarLink(page, target.sidebarLabel);
    await expect(link).toBeInViewport();

    await link.hover();
    // The site's own prefetch and preload entry points refuse on a slow connection.
    const refused = await page.evaluate((path) => {
      const docusaurus = (
        window as unknown as {
          docusaurus: { prefetch(p: string): unknown; preload(p: string): unknown };
        }
      ).docusaurus;
      return { prefetch: docusaurus.prefetch(path), preload: docusaurus.preload(path) };
    }, target.path);
    expect(refused).toEqual({ prefetch: false, preload: false });

    await link.click();
    await expect(
      page.getByRole('heading', { level: 1, name: target.h1, exact: true }),
    ).toBeVisible();
    // The only request for the target's chunk is the one the navigation made.
    expect(kinds).toEqual(['script']);
    expect(prefetches).toEqual([]);
  });
}
