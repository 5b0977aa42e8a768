/**
 * Every page answers the first tap: a reader who uses the mobile menu, the search box or the
 * announcement bar's close button the moment the page has loaded (`page.goto` resolves at the
 * `load` event; nothing else is awaited but the control itself) gets an answer, every time.
 * Each test makes 20 fresh visits in a row, cycling through the page types, with no retries: an
 * entry that hydrates after `load` loses some of them (it did, 5 taps in 36). The interactions
 * and what counts as an answer are in support/first-tap.ts, which `npm run bench:interactive`
 * also uses.
 */
import { expect, test, type Browser } from '@playwright/test';
import { FIRST_TAPS, awaitAnswer, VIEWPORTS, type FirstTap } from './support/first-tap';

/** Passing on a retry would hide exactly the intermittent loss these tests look for. */
test.describe.configure({ retries: 0 });

const VISITS = 20;
/** Every page type: home, a guide, an API class page, the API index, plugins, 404. */
const PAGES = [
  '/',
  '/docs/getting-started/',
  '/api/classes/Runtime/',
  '/api/',
  '/plugins/',
  '/no-such-page-here/',
];

function tapNamed(name: string): FirstTap {
  const tap = FIRST_TAPS.find((candidate) => candidate.name === name);
  if (!tap) {
    throw new Error(`support/first-tap.ts has no interaction named "${name}"`);
  }
  return tap;
}

async function tapRightAfterLoad(browser: Browser, baseURL: string, tap: FirstTap): Promise<void> {
  for (let visit = 0; visit < VISITS; visit += 1) {
    const path = PAGES[visit % PAGES.length] ?? '/';
    const context = await browser.newContext({ baseURL, viewport: VIEWPORTS[tap.viewport] });
    try {
      const page = await context.newPage();
      await page.goto(path);
      expect(await tap.applies(page), `${path} shows the ${tap.name} control`).toBe(true);
      await tap.act(page);
      expect(await awaitAnswer(page, tap), `visit ${visit + 1}, ${path}: ${tap.name}`).toBe(
        'answered',
      );
    } finally {
      await context.close();
    }
  }
}

for (const name of [
  'mobile menu toggle',
  'search box typing',
  'search shortcut (Ctrl+K)',
  'announcement bar close',
]) {
  test(`${name} answers when used right after load, ${VISITS} times in a row`, async ({
    browser,
    baseURL,
  }) => {
    // Generous per visit: the machine running the suite may be shared and slow.
    test.setTimeout(VISITS * 45_000);
    await tapRightAfterLoad(browser, baseURL ?? '', tapNamed(name));
  });
}

test('no page inserts the "site did not load properly" banner', async ({ page }) => {
  test.setTimeout(PAGES.length * 30_000);
  // Docusaurus inserts it at DOMContentLoaded when its entry has not run yet; CSS hides it, but
  // crawlers and screen readers still meet it.
  for (const path of PAGES) {
    await page.goto(path);
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    await expect(page.locator('#__docusaurus-base-url-issue-banner'), path).toHaveCount(0);
  }
});
