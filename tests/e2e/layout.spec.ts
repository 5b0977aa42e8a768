/**
 * SITE-REQUIREMENTS.md, "Page layout": skip link,
 * announcement bar, hide-on-scroll navbar, navbar items, whitepaper, footer, table of contents,
 * edit links, docs sidebar behaviour and the version label.
 */
import { test, expect, type Locator, type Page } from '@playwright/test';
import { announcement, editUrl, links, site } from '@weft-internal/docs-model/site';
import {
  gotoHydrated,
  hexToRgb,
  readStorage,
  storageKeys,
  waitForHydration,
  writeStorage,
} from './support/shell';

test.describe('skip to content', () => {
  test('is the first focusable element and moves focus to the main content', async ({ page }) => {
    await gotoHydrated(page, '/docs/getting-started/');
    await page.keyboard.press('Tab');
    const skipLink = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skipLink).toBeFocused();

    await page.evaluate(() => {
      const main = document.querySelector('main');
      main?.addEventListener('focus', () => document.body.setAttribute('data-main-focused', ''), {
        once: true,
      });
    });
    await page.keyboard.press('Enter');
    // Docusaurus focuses the first <main> programmatically (with a temporary tabindex, so
    // Chromium's focus fixup may hand activeElement back to <body> at once); the focus event
    // fires on <main> and the next Tab continues from there.
    await expect(page.locator('body')).toHaveAttribute('data-main-focused', '');
    await expect(skipLink).not.toBeFocused();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true);
  });
});

test.describe('announcement bar', () => {
  const bar = (page: Page): Locator => page.locator('.theme-announcement-bar');

  test('shows the configured colours and links to the bounty program', async ({ page }) => {
    await gotoHydrated(page, '/');
    await expect(bar(page)).toBeVisible();
    await expect(bar(page)).toHaveCSS('background-color', hexToRgb(announcement.backgroundColor));
    await expect(bar(page)).toHaveCSS('color', hexToRgb(announcement.textColor));

    const link = bar(page).getByRole('link', { name: /bounty program/i });
    await expect(link).toHaveAttribute('href', '/docs/bounty-program/');
    await link.click();
    await expect(page).toHaveURL(/\/docs\/bounty-program\/$/);
    await expect(page.locator('h1').first()).toHaveText(/bounty program/i);
  });

  test('closing it stores the dismissal, and it stays closed after a reload', async ({ page }) => {
    await gotoHydrated(page, '/docs/');
    await expect(bar(page)).toBeVisible();
    expect(await readStorage(page, storageKeys.announcementId)).toBe(announcement.id);

    await bar(page).getByRole('button', { name: 'Close' }).click();
    await expect(bar(page)).toBeHidden();
    expect(await readStorage(page, storageKeys.announcementDismissed)).toBe('true');
    expect(await readStorage(page, storageKeys.announcementId)).toBe(announcement.id);

    await page.reload();
    await waitForHydration(page);
    await expect(page.locator('html')).toHaveAttribute(
      'data-announcement-bar-initially-dismissed',
      'true',
    );
    await expect(bar(page)).toBeHidden();

    // Still closed on another page of the site.
    await gotoHydrated(page, '/plugins/');
    await expect(bar(page)).toBeHidden();
  });

  test('a dismissal stored for an older announcement id does not hide it', async ({ page }) => {
    await gotoHydrated(page, '/');
    await writeStorage(page, {
      [storageKeys.announcementDismissed]: 'true',
      [storageKeys.announcementId]: 'an-older-announcement',
    });
    await page.reload();
    await waitForHydration(page);
    await expect(bar(page)).toBeVisible();
    // The changed id resets the dismissal.
    await expect.poll(() => readStorage(page, storageKeys.announcementId)).toBe(announcement.id);
    expect(await readStorage(page, storageKeys.announcementDismissed)).toBe('false');
  });
});

test.describe('navbar', () => {
  const navbar = (page: Page): Locator => page.locator('nav.navbar');

  async function scrollBy(page: Page, deltaY: number): Promise<void> {
    await page.evaluate(
      (dy) =>
        new Promise<void>((resolve) => {
          window.addEventListener('scroll', () => requestAnimationFrame(() => resolve()), {
            once: true,
          });
          window.scrollBy(0, dy);
        }),
      deltaY,
    );
  }

  test('hides on scroll down, shows on scroll up and near the top', async ({ page }) => {
    await gotoHydrated(page, '/api/classes/Runtime/');
    const nav = navbar(page);
    await expect(nav).toHaveClass(/navbar--fixed-top/);
    await expect(nav).not.toHaveClass(/navbarHidden/);

    // Scrolling down past the navbar height hides it (two steps: the first only records a position).
    await scrollBy(page, 400);
    await scrollBy(page, 400);
    await expect(nav).toHaveClass(/navbarHidden/);
    await expect.poll(async () => (await nav.boundingBox())?.y ?? 0).toBeLessThan(0);

    await scrollBy(page, -200);
    await expect(nav).not.toHaveClass(/navbarHidden/);
    await expect.poll(async () => (await nav.boundingBox())?.y).toBe(0);

    // Hidden again further down, then visible near the top whatever the direction.
    await scrollBy(page, 300);
    await expect(nav).toHaveClass(/navbarHidden/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(nav).not.toHaveClass(/navbarHidden/);
    await expect(nav).toBeInViewport();
  });

  test('has Documentation, API, Plugins and Bounty Program on the left', async ({ page }) => {
    await gotoHydrated(page, '/');
    const left = page.locator('.navbar__items:not(.navbar__items--right)');
    const items = left.locator('a.navbar__item');
    await expect(items).toHaveText(['Documentation', 'API', 'Plugins', 'Bounty Program']);
    await expect(items.nth(0)).toHaveAttribute('href', '/docs/');
    await expect(items.nth(1)).toHaveAttribute('href', '/api/');
    await expect(items.nth(2)).toHaveAttribute('href', '/plugins/');
    await expect(items.nth(3)).toHaveAttribute('href', '/docs/bounty-program/');
    await expect(left.locator('.navbar__brand')).toContainText(site.title);
  });

  test('has the repository and whitepaper links and the search box on the right', async ({
    page,
  }) => {
    await gotoHydrated(page, '/');
    const right = page.locator('.navbar__items--right');
    const items = right.locator('a.navbar__item');
    await expect(items).toHaveText(['GitHub', 'Whitepaper']);
    await expect(items.nth(0)).toHaveAttribute('href', links.repository);
    await expect(items.nth(1)).toHaveAttribute('href', site.whitepaperPath);
    await expect(right.getByRole('searchbox').or(right.getByLabel('Search'))).toBeVisible();
  });

  test('the documentation and API items lead to their pages', async ({ page }) => {
    await gotoHydrated(page, '/');
    const left = page.locator('.navbar__items:not(.navbar__items--right)');
    await left.getByRole('link', { name: 'API', exact: true }).click();
    await expect(page).toHaveURL(/\/api\/$/);
    await expect(page.locator('h1').first()).toHaveText('API reference');
    await left.getByRole('link', { name: 'Documentation' }).click();
    await expect(page).toHaveURL(/\/docs\/$/);
    await expect(left.getByRole('link', { name: 'Documentation' })).toHaveClass(
      /navbar__link--active/,
    );
  });
});

test('the whitepaper link answers with a PDF', async ({ request }) => {
  const response = await request.get(site.whitepaperPath);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^application\/pdf/);
  const body = await response.body();
  expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(body.length).toBeGreaterThan(1000);
});

test.describe('footer', () => {
  test('has three columns with the specified links and the copyright line', async ({ page }) => {
    await gotoHydrated(page, '/');
    const footer = page.locator('footer.footer');
    const columns = footer.locator('.footer__col');
    await expect(columns).toHaveCount(3);
    await expect(columns.locator('.footer__title')).toHaveText(['Docs', 'Community', 'More']);

    const expected: [string, string][][] = [
      [
        ['Getting Started', '/docs/getting-started/'],
        ['Contributing', '/docs/contributing-guide/'],
        ['Bounty Program', '/docs/bounty-program/'],
        ['API', '/api/'],
        ['Whitepaper', site.whitepaperPath],
      ],
      [
        ['Discord', links.chat],
        ['X', links.social],
      ],
      [['GitHub', links.repository]],
    ];
    for (const [index, columnLinks] of expected.entries()) {
      const anchors = columns.nth(index).locator('a.footer__link-item');
      await expect(anchors).toHaveText(columnLinks.map(([label]) => label));
      const hrefs = await anchors.evaluateAll((all) => all.map((a) => a.getAttribute('href')));
      expect(hrefs).toEqual(columnLinks.map(([, href]) => href));
    }

    await expect(footer.locator('.footer__copyright')).toHaveText(site.copyright);
  });
});

test.describe('table of contents', () => {
  /** The ids of the article's headings of the given levels, in document order. */
  async function articleHeadingIds(page: Page, selector: string): Promise<string[]> {
    return page
      .locator('article .theme-doc-markdown')
      .locator(selector)
      .evaluateAll((headings) => headings.map((h) => h.id).filter(Boolean));
  }

  async function tocIds(page: Page): Promise<string[]> {
    return page
      .locator('.theme-doc-toc-desktop .table-of-contents a')
      .evaluateAll((anchors) => anchors.map((a) => (a.getAttribute('href') ?? '').slice(1)));
  }

  test('on a docs page it lists exactly the h2 and h3 headings', async ({ page }) => {
    await gotoHydrated(page, '/docs/building-plugins/triggers/');
    const h3 = await articleHeadingIds(page, 'h3');
    expect(h3.length, 'the page has h3 headings').toBeGreaterThan(0);
    await expect(page.locator('.theme-doc-toc-desktop')).toBeVisible();
    expect(await tocIds(page)).toEqual(await articleHeadingIds(page, 'h2, h3'));
    // h3 entries are nested under their h2.
    await expect(page.locator('.theme-doc-toc-desktop .table-of-contents ul a')).toHaveCount(
      h3.length,
    );
  });

  test('leaves out h4 and deeper headings', async ({ page }) => {
    // No docs page has an h4 today; the generated API pages do (parameters, returns).
    await gotoHydrated(page, '/api/classes/Runtime/');
    const deeper = await articleHeadingIds(page, 'h4, h5, h6');
    expect(deeper.length, 'the page has h4+ headings').toBeGreaterThan(0);
    const toc = await tocIds(page);
    expect(toc).toEqual(await articleHeadingIds(page, 'h2, h3'));
    for (const id of deeper) {
      expect(toc).not.toContain(id);
    }
  });
});

test.describe('docs pages', () => {
  test('"Edit this page" points to the file in the repository', async ({ page }) => {
    await gotoHydrated(page, '/docs/building-plugins/triggers/');
    const edit = page.getByRole('link', { name: 'Edit this page' });
    await expect(edit).toHaveAttribute('href', `${editUrl}docs/building-plugins/triggers.md`);
    expect(editUrl.startsWith(`${links.repository}/`)).toBe(true);
  });

  test('generated API pages have no edit link', async ({ page }) => {
    await gotoHydrated(page, '/api/classes/Runtime/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Class: Runtime');
    await expect(page.getByRole('link', { name: 'Edit this page' })).toHaveCount(0);
  });

  test('the sidebar cannot be hidden', async ({ page }) => {
    await gotoHydrated(page, '/docs/');
    await expect(page.locator('.theme-doc-sidebar-container')).toBeVisible();
    await expect(page.getByRole('button', { name: /collapse sidebar/i })).toHaveCount(0);
    await expect(page.getByTitle(/collapse sidebar/i)).toHaveCount(0);
  });

  test('expanding a category does not collapse another', async ({ page }) => {
    await gotoHydrated(page, '/docs/');
    const sidebar = page.locator('.theme-doc-sidebar-menu');
    // A category without a page toggles from its label; one with a page, from its caret.
    const capabilities = sidebar.getByRole('button', { name: 'Capabilities' });
    const buildingCaret = sidebar.getByRole('button', {
      name: "Expand sidebar category 'Building plugins'",
    });
    const coreCaret = sidebar.getByRole('button', {
      name: "Expand sidebar category 'Core utilities'",
    });

    // Each caret is pressed once the category above it has finished opening: while its height
    // animates, the carets below it move, and a press could land beside the one it aimed at.
    const settled = () =>
      expect.poll(() => page.evaluate(() => document.getAnimations().length)).toBe(0);
    await capabilities.click();
    await expect(capabilities).toHaveAttribute('aria-expanded', 'true');
    await settled();
    await buildingCaret.click();
    await expect(
      sidebar.getByRole('button', { name: "Collapse sidebar category 'Building plugins'" }),
    ).toHaveAttribute('aria-expanded', 'true');
    await settled();
    await coreCaret.click();
    await expect(
      sidebar.getByRole('button', { name: "Collapse sidebar category 'Core utilities'" }),
    ).toHaveAttribute('aria-expanded', 'true');

    await expect(capabilities).toHaveAttribute('aria-expanded', 'true');
    await expect(sidebar.getByRole('link', { name: 'Transforms' })).toBeVisible();
    await expect(sidebar.getByRole('link', { name: 'Executors' })).toBeVisible();
    await expect(sidebar.getByRole('link', { name: 'Spaces' })).toBeVisible();
    // The other categories (model and memory providers, guides, reference) stay as they were.
    await expect(sidebar.locator('.menu__list-item--collapsed')).toHaveCount(4);

    // Navigating to a page in another category keeps the opened ones open. The link, too, is
    // pressed once the categories have finished opening.
    await settled();
    await sidebar.getByRole('link', { name: 'Spaces' }).click();
    await expect(page).toHaveURL(/\/docs\/core-utilities\/spaces\/$/);
    await expect(sidebar.getByRole('link', { name: 'Transforms' })).toBeVisible();
    await expect(sidebar.getByRole('link', { name: 'Executors' })).toBeVisible();
  });

  test('at 375 px, a heading with a long constant name wraps after an underscore, not inside a word', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/docs/reference/errors/');
    const heading = page.locator('h3#weft_too_many_connections');
    await expect(heading).toContainText('WEFT_TOO_MANY_CONNECTIONS');
    // Each piece between two break points sits on one line, and the heading takes more than one.
    const lineTops = await heading.evaluate((element) => {
      const range = document.createRange();
      const lines = new Set<number>();
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      const piecesOnOneLine: boolean[] = [];
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        range.selectNodeContents(node);
        const tops = new Set(Array.from(range.getClientRects(), (rect) => Math.round(rect.top)));
        piecesOnOneLine.push(tops.size === 1);
        for (const top of tops) lines.add(top);
      }
      return { lines: lines.size, piecesOnOneLine };
    });
    expect(lineTops.piecesOnOneLine.every(Boolean)).toBe(true);
    expect(lineTops.lines).toBeGreaterThan(1);
  });

  test('the single docs version ("Next") gets no version badge or banner', async ({ page }) => {
    // Both docs instances have one version, "current", labelled "Next" (docusaurus.config.ts).
    // Docusaurus shows the version badge only when a plugin has several versions and the banner
    // only on versions other than the last one, so the label is in the route data (checked in
    // tests/build) but not on screen; the page carries the version's class name.
    for (const path of ['/docs/getting-started/', '/api/classes/Runtime/']) {
      await gotoHydrated(page, path);
      await expect(page.locator('html')).toHaveClass(/\bdocs-version-current\b/);
      await expect(page.locator('.theme-doc-version-badge')).toHaveCount(0);
      await expect(page.locator('.theme-doc-version-banner')).toHaveCount(0);
    }
  });
});
