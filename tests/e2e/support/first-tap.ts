/**
 * What a reader does first on a fresh page, and how to tell whether the page answered: shared by
 * the browser tests (tests/e2e/first-tap.spec.ts) and the side-by-side benchmark
 * (scripts/bench-interactive.ts), which runs them on this site and on a stock Docusaurus site.
 *
 * Each interaction uses real input (Playwright's mouse and keyboard, which Chromium sees as
 * trusted events) on controls the server's HTML already shows, so it can be made at the `load`
 * event or at the first moment the control is visible, before or during hydration. A tap counts
 * as answered only if its effect shows within a deadline and is still there a moment later (a
 * tap handled twice would toggle the menu open and shut again), so a page that drops input, or
 * replays it twice, fails.
 */
import type { Page } from '@playwright/test';

/** How long an answer may take; a tap left unanswered this long counts as lost. */
export const ANSWER_DEADLINE_MS = 5_000;
/** After the answer shows, how long it must stay (a second, replayed handling would undo it). */
export const SETTLE_MS = 400;
const POLL_MS = 25;

export type Viewport = 'desktop' | 'phone';
export const VIEWPORTS: Record<Viewport, { width: number; height: number }> = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 375, height: 812 },
};

export interface FirstTap {
  name: string;
  viewport: Viewport;
  /** Whether the page has the control (a page without tabs has no tab to choose). */
  applies: (page: Page) => Promise<boolean>;
  /** The reader's action; Playwright waits only for the control to be visible. */
  act: (page: Page) => Promise<void>;
  /** True once the page shows the action's effect. */
  answered: (page: Page) => Promise<boolean>;
}

const TYPED_QUERY = 'runtime';

const menuToggle = 'nav.navbar button.navbar__toggle';
const searchInput = '.navbar input.navbar__search-input';
const announcementClose = '.theme-announcement-bar button.clean-btn.close';
/** The first tab set's second tab (a tab that is not already chosen). */
const secondTab = '[role="tablist"] >> nth=0 >> [role="tab"] >> nth=1';
/** A docs sidebar category that toggles from a button: its caret, or its label if it has no page. */
const sidebarCategoryToggle =
  '.theme-doc-sidebar-menu .menu__list-item-collapsible button[aria-expanded] >> nth=0';

const exists = (selector: string) => async (page: Page) =>
  (await page.locator(selector).count()) > 0;

/**
 * A category button's state before the tap, read from the server's HTML as the test starts, so
 * the answer is "it flipped", whichever way it started.
 */
const expandedBefore = new WeakMap<Page, string | null>();

export const FIRST_TAPS: FirstTap[] = [
  {
    name: 'mobile menu toggle',
    viewport: 'phone',
    applies: exists(menuToggle),
    act: (page) => page.locator(menuToggle).click(),
    answered: (page) =>
      page.evaluate(() => {
        const sidebar = document.querySelector<HTMLElement>('.navbar-sidebar');
        return (
          Boolean(document.querySelector('nav.navbar.navbar-sidebar--show')) &&
          sidebar !== null &&
          sidebar.getBoundingClientRect().width > 0 &&
          getComputedStyle(sidebar).visibility !== 'hidden'
        );
      }),
  },
  {
    name: 'search box typing',
    viewport: 'desktop',
    applies: exists(searchInput),
    act: async (page) => {
      await page.locator(searchInput).click();
      await page.keyboard.type(TYPED_QUERY);
    },
    answered: (page) =>
      page.evaluate(
        ([selector, query]) => {
          const input = document.querySelector<HTMLInputElement>(selector ?? '');
          return input !== null && input.value === query && document.activeElement === input;
        },
        [searchInput, TYPED_QUERY],
      ),
  },
  {
    name: 'search shortcut (Ctrl+K)',
    viewport: 'desktop',
    applies: exists(searchInput),
    act: async (page) => {
      // The shortcut acts on the page, so only the box it focuses needs to be there.
      await page.locator(searchInput).waitFor({ state: 'visible' });
      await page.keyboard.press('Control+k');
    },
    answered: (page) =>
      page.evaluate(
        (selector) => document.activeElement === document.querySelector(selector),
        searchInput,
      ),
  },
  {
    name: 'announcement bar close',
    viewport: 'desktop',
    applies: exists(announcementClose),
    act: (page) => page.locator(announcementClose).click(),
    answered: (page) =>
      page.evaluate(() => {
        const bar = document.querySelector<HTMLElement>('.theme-announcement-bar');
        return bar === null || bar.getBoundingClientRect().height === 0;
      }),
  },
  {
    name: 'tab choice',
    viewport: 'desktop',
    applies: exists(secondTab),
    act: (page) => page.locator(secondTab).click(),
    answered: async (page) =>
      (await page.locator(secondTab).getAttribute('aria-selected')) === 'true',
  },
  {
    name: 'sidebar category toggle',
    viewport: 'desktop',
    applies: async (page) => {
      const toggle = page.locator(sidebarCategoryToggle);
      if ((await toggle.count()) === 0) {
        return false;
      }
      expandedBefore.set(page, await toggle.getAttribute('aria-expanded'));
      return true;
    },
    act: (page) => page.locator(sidebarCategoryToggle).click(),
    answered: async (page) => {
      const now = await page.locator(sidebarCategoryToggle).getAttribute('aria-expanded');
      return now !== null && now !== expandedBefore.get(page);
    },
  },
];

async function poll(check: () => Promise<boolean>, deadline: number): Promise<boolean> {
  for (;;) {
    if (await check()) {
      return true;
    }
    if (Date.now() >= deadline) {
      return false;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export type TapOutcome = 'answered' | 'lost' | 'undone';

/**
 * Waits for the action's effect, then checks it is still there after SETTLE_MS. `lost`: it never
 * showed; `undone`: it showed, then went (handled twice, or reset by the page).
 */
export async function awaitAnswer(page: Page, tap: FirstTap): Promise<TapOutcome> {
  if (!(await poll(() => tap.answered(page), Date.now() + ANSWER_DEADLINE_MS))) {
    return 'lost';
  }
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  return (await tap.answered(page)) ? 'answered' : 'undone';
}

/** When the tap is made: as `load` fires, or as soon as the control is visible. */
export type TapMoment = 'load' | 'visible';

/**
 * Opens `url` in `page` (a fresh context's page) and makes the tap at `moment`. Returns null when
 * the page has no such control.
 */
export async function tapAt(
  page: Page,
  url: string,
  tap: FirstTap,
  moment: TapMoment,
): Promise<TapOutcome | null> {
  await page.goto(url, { waitUntil: moment === 'load' ? 'load' : 'commit' });
  if (moment === 'visible') {
    // The controls are in the server's HTML: once the footer is parsed, every one is there. The
    // scripts may not have run yet.
    await page.waitForSelector('footer', { state: 'attached' });
  }
  if (!(await tap.applies(page))) {
    return null;
  }
  await tap.act(page);
  return awaitAnswer(page, tap);
}
