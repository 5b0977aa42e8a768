/**
 * Every page answers the first tap: a reader who uses a control the moment the page has loaded
 * (`page.goto` resolves at the `load` event; nothing else is awaited but the control itself)
 * gets an answer. Each control is tried once on every page type that shows it, in a fresh
 * context, with no retries, so a control that loses its first tap on any page type fails here.
 * How often taps are lost over many visits, and at 4x CPU beside a stock site, is a rate: that
 * is `npm run bench:interactive`'s job (scripts/bench-interactive.ts), which uses the same
 * interactions and answers (support/first-tap.ts). The tests at the end click in the riskiest
 * moment, between hydration's commit and its effects, on purpose rather than by chance.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
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
const PAGES = [
  '/',
  '/docs/getting-started/',
  '/api/classes/Runtime/',
  '/api/',
  '/plugins/',
  '/no-such-page-here/',
];
/** The controls every page type shows. */
const ON_EVERY_PAGE = [
  'mobile menu toggle',
  'search box typing',
  'search shortcut (Ctrl+K)',
  'announcement bar close',
];

const DOCS_PAGES = ['/docs/getting-started/', '/api/classes/Runtime/', '/api/'];
const WITH_CODE = ['/', '/docs/getting-started/', '/api/classes/Runtime/'];
const WITH_TABS = ['/docs/getting-started/', '/docs/installation/'];
/** Each other control, and the pages that show it (each must: a selector gone stale fails). */
const OTHER_CONTROLS: Record<string, string[]> = {
  'tab choice': WITH_TABS,
  'tab choice (375 px)': WITH_TABS,
  'sidebar category toggle': DOCS_PAGES,
  'navbar link': PAGES,
  'code block copy': WITH_CODE,
  'code block copy (375 px)': WITH_CODE,
  'code block word wrap (375 px)': WITH_CODE,
  'copy page': DOCS_PAGES,
  'copy page (375 px)': DOCS_PAGES,
  'mobile menu back to main menu': DOCS_PAGES,
  'announcement bar close (375 px)': PAGES,
};

function tapNamed(name: string): FirstTap {
  const tap = FIRST_TAPS.find((candidate) => candidate.name === name);
  if (!tap) {
    throw new Error(`support/first-tap.ts has no interaction named "${name}"`);
  }
  return tap;
}

async function tapRightAfterLoad(
  browser: Browser,
  baseURL: string,
  tap: FirstTap,
  pages: string[],
): Promise<void> {
  for (const [visit, path] of pages.entries()) {
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
      expect(await awaitAnswer(page, tap), `visit ${visit + 1}, ${path}: ${tap.name}`).toBe(
        'answered',
      );
    } finally {
      await context.close();
    }
  }
}

const CONTROLS: [string, string[]][] = [
  ...ON_EVERY_PAGE.map((name): [string, string[]] => [name, PAGES]),
  ...Object.entries(OTHER_CONTROLS),
];

for (const [name, pages] of CONTROLS) {
  test(`${name} answers when used right after load, on each page type that has it`, async ({
    browser,
    baseURL,
  }) => {
    // Generous per visit: the machine running the suite may be shared and slow.
    test.setTimeout(pages.length * 45_000);
    await tapRightAfterLoad(browser, baseURL ?? '', tapNamed(name), pages);
  });
}

test('every control in support/first-tap.ts is tried here', () => {
  const tried = CONTROLS.map(([name]) => name).sort();
  expect(tried).toEqual(FIRST_TAPS.map((tap) => tap.name).sort());
});

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
