/**
 * What a reader does first on a fresh page, and how to tell whether the page answered: shared by
 * the browser tests (tests/e2e/first-tap.spec.ts) and the side-by-side benchmark
 * (bench/interactive.ts), which runs them on this site and on a stock Docusaurus site.
 *
 * Each interaction uses real input (Playwright's mouse and keyboard, which Chromium sees as
 * trusted events) on controls the server's HTML already shows, so it can be made at the `load`
 * event or at the first moment the control is visible, before or during hydration. Two controls
 * are rendered in the browser only, on both sites (Docusaurus does so on purpose): a code block's
 * copy and word-wrap buttons, and the mobile menu's back button. For those the reader's first
 * step is made at that moment (pointing at the block, opening the menu) and the button is used
 * the moment it shows. A tap counts as answered only if its effect shows within a deadline and
 * is still there a moment later (a tap handled twice would toggle the menu open and shut again, a
 * link followed twice adds two history entries), so a page that drops input, or replays it
 * twice, fails. Copies are read back from the clipboard, in a context given its permissions.
 */
import type { Page } from '@playwright/test';

/** How long an answer may take; a tap left unanswered this long counts as lost. */
export const ANSWER_DEADLINE_MS = 5_000;
/** After the answer shows, how long it must stay (a second, replayed handling would undo it). */
export const SETTLE_MS = 400;
const POLL_MS = 25;
/**
 * How long a control rendered in the browser only may take to show once the reader has made the
 * first step (pointed at the code block, opened the menu): it shows after hydration, later at a
 * 4x CPU slowdown. A page that never shows it fails the visit.
 */
const SHOW_DEADLINE_MS = 10_000;

export type Viewport = 'desktop' | 'phone';
export const VIEWPORTS: Record<Viewport, { width: number; height: number }> = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 375, height: 812 },
};

export interface FirstTap {
  name: string;
  viewport: Viewport;
  /** Browser permissions the visit's context needs (the copy buttons: the clipboard). */
  permissions?: string[];
  /**
   * Whether the page has the control (a page without tabs has no tab to choose), read from the
   * page as the tap is about to be made. May note the page's state before the tap.
   */
  applies: (page: Page) => Promise<boolean>;
  /** The reader's action; Playwright waits only for the control to be visible. */
  act: (page: Page) => Promise<void>;
  /**
   * True once the page shows the action's effect. Read with page.evaluate, never with a locator
   * that would wait for an element: it is polled, and may run while the page navigates.
   */
  answered: (page: Page) => Promise<boolean>;
}

const TYPED_QUERY = 'runtime';
/** Written to the clipboard before a copy, so a copy left over from an earlier visit never counts. */
const CLIPBOARD_BEFORE = 'first-tap: nothing copied yet';

export const menuToggle = 'nav.navbar button.navbar__toggle';
const menuBack = 'nav.navbar .navbar-sidebar__back';
const searchInput = '.navbar input.navbar__search-input';
export const announcementClose = '.theme-announcement-bar button.clean-btn.close';
/** The first tab set's second tab (a tab that is not already chosen). */
const secondTab = '[role="tablist"] >> nth=0 >> [role="tab"] >> nth=1';
/**
 * A docs sidebar category that toggles: the caret button of a category with its own page, or
 * the label of one without (an <a role="button"> that links to the category's first page in
 * the server's HTML, so that it works without JavaScript; the API reference's are all of this
 * kind).
 */
export const sidebarCategoryToggle =
  '.theme-doc-sidebar-menu .menu__list-item-collapsible :is(button, a[role="button"])[aria-expanded]';
const codeBlock = '.theme-code-block';
const copyPageButton = 'button:text-is("Copy page")';
/** Links in the navbar to another page of the site (not the brand, not a new tab). */
const navbarLinks = 'nav.navbar a.navbar__item.navbar__link[href^="/"]:not([target])';

const exists = (selector: string) => async (page: Page) =>
  (await page.locator(selector).count()) > 0;

/** The page's state before the tap, noted by `applies`, so `answered` can tell what changed. */
function notes<T>() {
  const byPage = new WeakMap<Page, T>();
  return {
    set: (page: Page, value: T) => byPage.set(page, value),
    get: (page: Page): T => {
      const value = byPage.get(page);
      if (value === undefined) {
        throw new Error('first-tap: answered() was called before applies() for this page');
      }
      return value;
    },
  };
}

const categoryBefore = notes<{ expanded: string | null; pathname: string }>();
const linkBefore = notes<{ pathname: string; historyLength: number }>();
const wrapBlockIndex = notes<number>();

/** The first code block on the page the reader can see (not one in a hidden tab panel). */
const firstVisibleCodeBlock = codeBlock + ' >> visible=true >> nth=0';

async function clearClipboard(page: Page): Promise<void> {
  await page.evaluate((text) => navigator.clipboard.writeText(text), CLIPBOARD_BEFORE);
}

/** The reader's tap on the menu toggle (375 px), also the first step back to the main menu. */
async function openMobileMenu(page: Page): Promise<void> {
  await page.locator(menuToggle).click();
}

const searchTyping: FirstTap = {
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
};

const searchShortcut: FirstTap = {
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
};

const sidebarToggle: FirstTap = {
  name: 'sidebar category toggle',
  viewport: 'desktop',
  applies: async (page) => {
    const state = await page.evaluate((selector) => {
      const toggle = document.querySelector(selector);
      return toggle
        ? { expanded: toggle.getAttribute('aria-expanded'), pathname: location.pathname }
        : null;
    }, sidebarCategoryToggle);
    if (state === null) {
      return false;
    }
    categoryBefore.set(page, state);
    return true;
  },
  act: (page) => page.locator(sidebarCategoryToggle).first().click(),
  // The category flipped, on this page: a label clicked before hydration follows its fallback
  // link instead, to a page where the first category may well be open.
  answered: (page) =>
    page.evaluate(
      ({ selector, before }) => {
        const now = document.querySelector(selector)?.getAttribute('aria-expanded') ?? null;
        return location.pathname === before.pathname && now !== null && now !== before.expanded;
      },
      { selector: sidebarCategoryToggle, before: categoryBefore.get(page) },
    ),
};

const navbarLink: FirstTap = {
  name: 'navbar link',
  viewport: 'desktop',
  applies: async (page) => {
    const before = await page.evaluate((selector) => {
      const link = Array.from(document.querySelectorAll<HTMLAnchorElement>(selector)).find(
        (candidate) => new URL(candidate.href).pathname !== location.pathname,
      );
      return link ? { pathname: new URL(link.href).pathname, historyLength: history.length } : null;
    }, navbarLinks);
    if (before === null) {
      return false;
    }
    linkBefore.set(page, before);
    return true;
  },
  act: async (page) => {
    const { pathname } = linkBefore.get(page);
    await page.locator(`${navbarLinks}[href="${pathname}"]`).first().click();
  },
  // The address changed, by exactly one history entry (not zero, not a navigation made twice),
  // and the new page rendered: its own head (canonical link) and a main element on screen.
  answered: (page) =>
    page.evaluate(({ pathname, historyLength }) => {
      const canonical = document.querySelector<HTMLLinkElement>('link[rel="canonical"]');
      const main = document.querySelector('main');
      return (
        location.pathname === pathname &&
        history.length === historyLength + 1 &&
        canonical !== null &&
        new URL(canonical.href).pathname === pathname &&
        main !== null &&
        main.getClientRects().length > 0
      );
    }, linkBefore.get(page)),
};

/** A control a reader meets at both widths (see atWidth). */
type AnyWidthTap = Omit<FirstTap, 'viewport'>;

const announcementBarClose: AnyWidthTap = {
  name: 'announcement bar close',
  applies: exists(announcementClose),
  act: (page) => page.locator(announcementClose).click(),
  answered: (page) =>
    page.evaluate(() => {
      const bar = document.querySelector<HTMLElement>('.theme-announcement-bar');
      return bar === null || bar.getBoundingClientRect().height === 0;
    }),
};

const tabChoice: AnyWidthTap = {
  name: 'tab choice',
  applies: exists(secondTab),
  act: (page) => page.locator(secondTab).click(),
  answered: (page) =>
    page.evaluate(
      () =>
        document
          .querySelector('[role="tablist"]')
          ?.querySelectorAll('[role="tab"]')[1]
          ?.getAttribute('aria-selected') === 'true',
    ),
};

const codeBlockCopy: AnyWidthTap = {
  // The theme renders a code block's buttons in the browser only (on both sites), so the
  // server's HTML shows the block, not the button: the reader points at the block at `load`
  // and clicks the button the moment it shows.
  name: 'code block copy',
  permissions: ['clipboard-read', 'clipboard-write'],
  applies: async (page) => {
    if ((await page.locator(firstVisibleCodeBlock).count()) === 0) {
      return false;
    }
    await clearClipboard(page);
    return true;
  },
  act: async (page) => {
    const block = page.locator(firstVisibleCodeBlock);
    await block.hover();
    await block
      .getByRole('button', { name: 'Copy code to clipboard' })
      .click({ timeout: SHOW_DEADLINE_MS });
  },
  // The clipboard holds the block's code (its non-blank lines, as innerText shows each line's
  // own <br> as a blank line).
  answered: (page) =>
    page.evaluate(async () => {
      const lines = (text: string) =>
        text
          .split('\n')
          .map((line) => line.trimEnd())
          .filter((line) => line.trim() !== '')
          .join('\n');
      const block = Array.from(document.querySelectorAll<HTMLElement>('.theme-code-block')).find(
        (candidate) => candidate.checkVisibility(),
      );
      const code = block?.querySelector<HTMLElement>('pre code');
      if (!code) {
        return false;
      }
      const copied = await navigator.clipboard.readText();
      return lines(copied) === lines(code.innerText);
    }),
};

/** Only this site has it (docs and API pages). */
const copyPage: AnyWidthTap = {
  name: 'copy page',
  permissions: ['clipboard-read', 'clipboard-write'],
  applies: async (page) => {
    if ((await page.locator(copyPageButton).count()) === 0) {
      return false;
    }
    await clearClipboard(page);
    return true;
  },
  act: (page) => page.locator(copyPageButton).click(),
  // The bar says so, and the clipboard holds the page's Markdown copy, headed by its title.
  answered: (page) =>
    page.evaluate(async () => {
      const title = document.querySelector('.theme-doc-markdown h1')?.textContent ?? '';
      const status = document.querySelector('[role="status"]')?.textContent ?? '';
      if (title === '' || !status.includes('Copied')) {
        return false;
      }
      const copied = await navigator.clipboard.readText();
      return copied.split('\n')[0] === `# ${title}`;
    }),
};

const mobileMenuToggle: FirstTap = {
  name: 'mobile menu toggle',
  viewport: 'phone',
  applies: exists(menuToggle),
  act: openMobileMenu,
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
};

const mobileMenuBack: FirstTap = {
  // On a docs page the menu opens on the docs sidebar, with a button back to the main menu.
  // The menu is rendered in the browser only: the reader taps the toggle at `load` and the
  // back button the moment it shows.
  name: 'mobile menu back to main menu',
  viewport: 'phone',
  applies: async (page) =>
    (await page.locator(menuToggle).count()) > 0 &&
    (await page.evaluate(() => document.documentElement.classList.contains('docs-doc-page'))),
  act: async (page) => {
    await openMobileMenu(page);
    await page.locator(menuBack).click({ timeout: SHOW_DEADLINE_MS });
  },
  answered: (page) =>
    page.evaluate(() => {
      const items = document.querySelector('nav.navbar-sidebar--show .navbar-sidebar__items');
      return (
        items !== null &&
        !items.classList.contains('navbar-sidebar__items--show-secondary') &&
        items.querySelector('.navbar-sidebar__item .menu__link') !== null
      );
    }),
};

const codeBlockWordWrap: FirstTap = {
  // Shown on a block whose code scrolls sideways, which at 375 px most blocks do. The block is
  // chosen from the server's HTML (its widest line against its width, measured with the
  // block's font), scrolled to, pointed at, and its button clicked the moment it shows.
  name: 'code block word wrap (375 px)',
  viewport: 'phone',
  applies: async (page) => {
    const index = await page.evaluate((selector) => {
      const context = document.createElement('canvas').getContext('2d');
      if (!context) {
        return -1;
      }
      return Array.from(document.querySelectorAll<HTMLElement>(selector)).findIndex((block) => {
        const pre = block.querySelector('pre');
        if (!pre || !block.checkVisibility()) {
          return false;
        }
        const style = getComputedStyle(pre);
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room =
          pre.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        const widest = Math.max(
          ...(pre.textContent ?? '').split('\n').map((line) => context.measureText(line).width),
        );
        return widest > room + 8;
      });
    }, codeBlock);
    if (index < 0) {
      return false;
    }
    wrapBlockIndex.set(page, index);
    return true;
  },
  act: async (page) => {
    const block = page.locator(codeBlock).nth(wrapBlockIndex.get(page));
    await block.scrollIntoViewIfNeeded();
    await block.hover();
    await block
      .getByRole('button', { name: 'Toggle word wrap' })
      .click({ timeout: SHOW_DEADLINE_MS });
  },
  answered: (page) =>
    page.evaluate(
      ({ selector, index }) => {
        const block = document.querySelectorAll(selector).item(index);
        const pre = block?.querySelector('pre');
        return pre !== null && pre !== undefined && pre.scrollWidth <= pre.clientWidth;
      },
      { selector: codeBlock, index: wrapBlockIndex.get(page) },
    ),
};

/** The tap at 1280 px keeps the plain name; at 375 px the name says so. */
const atWidth = (tap: AnyWidthTap, viewport: Viewport): FirstTap => ({
  ...tap,
  name: viewport === 'phone' ? `${tap.name} (375 px)` : tap.name,
  viewport,
});

const anyWidthTaps = [announcementBarClose, tabChoice, codeBlockCopy, copyPage];

/**
 * Every control the reader can see when the page has loaded, at 1280 px and at 375 px (the
 * mobile menu and the word-wrap button are tried at 375 px only: the menu exists only there,
 * and at 1280 px few blocks are wide enough to show the button; the navbar links, the search
 * box and the sidebar at 1280 px, where they are in the page rather than in the menu).
 */
export const FIRST_TAPS: FirstTap[] = [
  mobileMenuToggle,
  searchTyping,
  searchShortcut,
  ...anyWidthTaps.map((tap) => atWidth(tap, 'desktop')),
  sidebarToggle,
  navbarLink,
  mobileMenuBack,
  codeBlockWordWrap,
  ...anyWidthTaps.map((tap) => atWidth(tap, 'phone')),
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
  if (!(await poll(() => answeredNow(page, tap), Date.now() + ANSWER_DEADLINE_MS))) {
    return 'lost';
  }
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  return (await answeredNow(page, tap)) ? 'answered' : 'undone';
}

/**
 * `tap.answered`, where a page that is navigating (a link followed, or a sidebar category's
 * label clicked before hydration, which follows its fallback link) is not an answer yet.
 */
async function answeredNow(page: Page, tap: FirstTap): Promise<boolean> {
  try {
    return await tap.answered(page);
  } catch (error) {
    if (error instanceof Error && /Execution context was destroyed|navigat/i.test(error.message)) {
      return false;
    }
    throw error;
  }
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
    // The controls counted are in the server's HTML: once the footer is parsed, every one is
    // there. The scripts may not have run yet. (The code block's buttons and the menu's back
    // button are rendered in the browser only: `act` waits for them to show.)
    await page.waitForSelector('footer', { state: 'attached' });
  }
  if (!(await tap.applies(page))) {
    return null;
  }
  await tap.act(page);
  return awaitAnswer(page, tap);
}
