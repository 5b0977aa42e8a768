/**
 * The document head after client-side navigation: the title, the meta and link tags the pages
 * manage (marked data-rh), and the <html> and <body> attributes are exactly what the server
 * renders for the same URL, so a reader who navigates, shares or bookmarks sees the right
 * metadata, and nothing is duplicated or left behind from the previous page.
 */
import { expect, test, type Page } from '@playwright/test';
import { gotoHydrated } from './support/shell';

interface HeadState {
  title: string;
  /** Managed head tags, each as "tag attr=value … text", sorted. */
  tags: string[];
  htmlAttributes: Record<string, string>;
  bodyClass: string;
}

/**
 * The head state of a document. Left out, because they differ between the server's copy and the
 * page on purpose: <html> attributes that Docusaurus's inline scripts set as the page loads (the
 * theme, the announcement bar's state, `data-has-hydrated`), and the script that warns about a
 * wrong baseUrl, which only the server's HTML carries.
 */
function readHead(doc: Document): HeadState {
  const setByScripts =
    /^data-(has-hydrated|theme|theme-choice|announcement-bar-initially-dismissed|rh)$/;
  // JSON data (structured data for search engines) by its content: the HTML minifier reorders
  // its keys in the server's copy.
  const sortedJson = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sortedJson)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([key, item]) => [key, sortedJson(item)]),
          )
        : value;
  const text = (element: Element) =>
    element.matches('script[type*="json"]')
      ? JSON.stringify(sortedJson(JSON.parse(element.textContent ?? 'null')))
      : (element.textContent ?? '');
  const describe = (element: Element) =>
    [
      element.tagName.toLowerCase(),
      ...Array.from(element.attributes)
        .filter((attribute) => attribute.name !== 'data-rh')
        .map((attribute) => `${attribute.name}=${attribute.value}`)
        .sort(),
      text(element),
    ].join(' ');
  const htmlAttributes: Record<string, string> = {};
  for (const attribute of Array.from(doc.documentElement.attributes)) {
    if (!setByScripts.test(attribute.name)) {
      htmlAttributes[attribute.name] = attribute.value;
    }
  }
  return {
    title: doc.title,
    tags: Array.from(doc.head.querySelectorAll('[data-rh]:not(title)'))
      .filter((element) => !element.textContent?.includes('__docusaurus-base-url-issue-banner'))
      .map(describe)
      .sort(),
    htmlAttributes,
    bodyClass: doc.body.className.split(/\s+/).filter(Boolean).sort().join(' '),
  };
}

/** The head the browser shows now, and the one the server sends for the same URL. */
async function headsNowAndFromServer(page: Page): Promise<[HeadState, HeadState]> {
  return page.evaluate(
    async ([readHeadSource]) => {
      const read = new Function(`return (${readHeadSource})`)() as typeof readHead;
      const response = await fetch(location.pathname, { cache: 'no-store' });
      const served = new DOMParser().parseFromString(await response.text(), 'text/html');
      return [read(document), read(served)] as [HeadState, HeadState];
    },
    [readHead.toString()],
  );
}

async function expectHeadAsServed(page: Page): Promise<void> {
  // Head changes are applied after the new page renders; wait for the title first.
  await expect
    .poll(async () => {
      const [now, served] = await headsNowAndFromServer(page);
      return now.title === served.title;
    })
    .toBe(true);
  const [now, served] = await headsNowAndFromServer(page);
  expect(now).toEqual(served);
}

test('after each client-side navigation the head is the one the server renders [claim:cg-size-head-without-helmet]', async ({
  page,
}) => {
  await gotoHydrated(page, '/');
  await expectHeadAsServed(page);

  const navbar = page.locator('.navbar');
  await navbar.getByRole('link', { name: 'Plugins', exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/plugins/');
  await expectHeadAsServed(page);

  await navbar.getByRole('link', { name: 'Documentation', exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname.startsWith('/docs/'));
  await expectHeadAsServed(page);

  await page
    .locator('.theme-doc-sidebar-container')
    .getByRole('link', { name: 'Getting started', exact: true })
    .click();
  await expect(page).toHaveURL((url) => url.pathname === '/docs/getting-started/');
  await expectHeadAsServed(page);

  await navbar.getByRole('link', { name: 'API', exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname.startsWith('/api/'));
  await expectHeadAsServed(page);

  await page.goBack();
  await expect(page).toHaveURL((url) => url.pathname === '/docs/getting-started/');
  await expectHeadAsServed(page);
});

test('the first page keeps the server’s head through hydration, without duplicates', async ({
  page,
}) => {
  await gotoHydrated(page, '/docs/getting-started/');
  await page.waitForTimeout(300);
  const [now, served] = await headsNowAndFromServer(page);
  expect(now).toEqual(served);
  expect(new Set(now.tags).size).toBe(now.tags.length);
});
