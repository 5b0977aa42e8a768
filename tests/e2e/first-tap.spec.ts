/**
 * Every page answers the first tap: a reader who uses a control the moment the page has loaded
 * (`page.goto` resolves at the `load` event; nothing else is awaited but the control itself)
 * gets an answer. Each control is tried once, in a fresh context, with no retries, on a page
 * type of its own, so a control that loses its first tap, or whose selector went stale, fails
 * here. Every control on every page type, how often taps are lost over many visits, and at 4x
 * CPU beside a stock site, is a rate: that is `npm run bench -- interactive`'s job
 * (bench/interactive.ts), which uses the same interactions and answers
 * (support/first-tap.ts). The tests at the end click in the riskiest moment, between
 * hydration's commit and its effects, on purpose rather than by chance.
 */
import { expect, test, type Page } from '@playwright/test';
import {
  FIRST_TAPS,
  announcementClose,
  awaitAnswer,
  menuToggle,
  sidebarCategoryToggle,
  VIEWPORTS,
  type FirstTap,
} from './support/first-tap';

/** Passing on a retry would hide exactly the intermittent loss these tests look for. */
test.describe.configure({ retries: 0 });

/** Every page type: home, a guide, an API class page, the API index, plugins, 404. */
const PAGE_TYPES = [
  '/',
  '/docs/getting-started/',
  '/api/classes/Runtime/',
  '/api/',
  '/plugins/',
  '/no-such-page-here/',
];

/**
 * Each control, and the one page it is tried on here: the pages rotate so that every page type
 * is loaded and tapped at least once. Every control on every page type, over many visits, is
 * the bench's loop.
 */
const CONTROLS: [name: string, path: string][] = [
  ['mobile menu toggle', '/'],
  ['search box typing', '/docs/getting-started/'],
  ['search shortcut (Ctrl+K)', '/api/classes/Runtime/'],
  ['announcement bar close', '/api/'],
  ['announcement bar close (375 px)', '/plugins/'],
  ['navbar link', '/no-such-page-here/'],
  ['tab choice', '/docs/installation/'],
  ['tab choice (375 px)', '/docs/getting-started/'],
  ['sidebar category toggle', '/api/'],
  ['code block copy', '/'],
  ['code block copy (375 px)', '/api/classes/Runtime/'],
  ['code block word wrap (375 px)', '/docs/getting-started/'],
  ['copy page', '/api/classes/Runtime/'],
  ['copy page (375 px)', '/docs/getting-started/'],
  ['mobile menu back to main menu', '/api/'],
];

function tapNamed(name: string): FirstTap {
  const tap = FIRST_TAPS.find((candidate) => candidate.name === name);
  if (!tap) {
    throw new Error(`support/first-tap.ts has no interaction named "${name}"`);
  }
  return tap;
}

for (const [name, path] of CONTROLS) {
  test(`${name} answers when used right after load, on ${path}`, async ({ browser, baseURL }) => {
    const tap = tapNamed(name);
    const context = await browser.newContext({
      baseURL,
      viewport: VIEWPORTS[tap.viewport],
      permissions: tap.permissions ?? [],
    });
    try {
      const page = await context.newPage();
      await page.goto(path);
      expect(await tap.applies(page), `${path} shows the ${tap.name} control`).toBe(true);
      await tap.act(page);
      expect(await awaitAnswer(page, tap), `${path}: ${tap.name}`).toBe('answered');
    } finally {
      await context.close();
    }
  });
}

test('every control in support/first-tap.ts is tried here, and every page type is loaded', () => {
  expect(CONTROLS.map(([name]) => name).sort()).toEqual(FIRST_TAPS.map((tap) => tap.name).sort());
  const tried = new Set(CONTROLS.map(([, path]) => path));
  expect(PAGE_TYPES.filter((path) => !tried.has(path))).toEqual([]);
});

test('no page inserts the "site did not load properly" banner', async ({ page }) => {
  test.setTimeout(PAGE_TYPES.length * 30_000);
  // Docusaurus inserts it at DOMContentLoaded when its entry has not run yet; CSS hides it, but
  // crawlers and screen readers still meet it.
  for (const path of PAGE_TYPES) {
    await page.goto(path);
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    await expect(page.locator('#__docusaurus-base-url-issue-banner'), path).toHaveCount(0);
  }
});

/**
 * The sidebar category's toggle flipped, on the same page: it no longer says what it said just
 * before the click (noted by the init script below).
 */
const sidebarFlipped = (path: string, selector: string) => (page: Page) =>
  page.evaluate(
    ({ path, selector }) =>
      location.pathname === path &&
      document.querySelector(selector)?.getAttribute('aria-expanded') !==
        document.documentElement.dataset.expandedBeforeTap,
    { path, selector },
  );

/**
 * The riskiest moment for a tap: React has attached the page (its commit) but has not yet run
 * its effects, some of which read storage or the window and set state. A tap handled in that
 * moment must not be undone by them (the announcement bar's close was: its effect saw a new
 * announcement id and reopened the bar, 1 visit in 20 in CI). The first commit is seen through
 * the hook React offers its developer tools, and the control is clicked in the microtask right
 * after it, before the effects' task. Controls whose own element the server renders; the
 * sidebar's answer compares with what its toggle said just before the click.
 */
const AT_COMMIT: {
  tap: string;
  path: string;
  selector: string;
  /** The answer, when the tap's own check needs a note taken before the tap. */
  answered?: (page: Page) => Promise<boolean>;
}[] = [
  {
    tap: 'announcement bar close',
    path: '/docs/getting-started/',
    selector: announcementClose,
  },
  {
    tap: 'announcement bar close (375 px)',
    path: '/',
    selector: announcementClose,
  },
  { tap: 'mobile menu toggle', path: '/api/classes/Runtime/', selector: menuToggle },
  {
    tap: 'tab choice',
    path: '/docs/installation/',
    selector: '[role="tablist"] > [role="tab"]:nth-child(2)',
  },
  {
    tap: 'sidebar category toggle',
    path: '/api/classes/Runtime/',
    selector: sidebarCategoryToggle,
    answered: sidebarFlipped('/api/classes/Runtime/', sidebarCategoryToggle),
  },
];

for (const { tap: name, path, selector, answered } of AT_COMMIT) {
  test(`${name}, clicked between hydration's commit and its effects, is kept`, async ({
    browser,
    baseURL,
  }) => {
    const tap = tapNamed(name);
    const context = await browser.newContext({ baseURL, viewport: VIEWPORTS[tap.viewport] });
    try {
      const page = await context.newPage();
      await page.addInitScript((controlSelector) => {
        let committed = false;
        const hook = {
          supportsFiber: true,
          renderers: new Map(),
          inject: () => 1,
          onCommitFiberRoot: () => {
            if (committed) {
              return;
            }
            committed = true;
            queueMicrotask(() => {
              const control = document.querySelector<HTMLElement>(controlSelector);
              document.documentElement.dataset.expandedBeforeTap =
                control?.getAttribute('aria-expanded') ?? '';
              control?.click();
              document.documentElement.dataset.clickedAtCommit = String(control !== null);
            });
          },
          onCommitFiberUnmount: () => undefined,
          onPostCommitFiberRoot: () => undefined,
          checkDCE: () => undefined,
        };
        Object.defineProperty(window, '__REACT_DEVTOOLS_GLOBAL_HOOK__', { value: hook });
      }, selector);
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('data-clicked-at-commit', 'true');
      expect(await awaitAnswer(page, answered ? { ...tap, answered } : tap)).toBe('answered');
    } finally {
      await context.close();
    }
  });
}
