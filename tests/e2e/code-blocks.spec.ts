/**
 * Code blocks: highlighted with the site's code theme (src/config/prism.ts, its token colours
 * as stylesheet rules: src/plugins/prism-token-css) on the server and
 * kept as they are when the page hydrates (src/theme/CodeBlock renders each block once, and
 * src/theme/CodeBlock/Content keeps the server's token markup instead of highlighting again),
 * Prism loaded in the browser only for code it has to highlight (after a client-side
 * navigation), the extra Prism languages registered where code is highlighted
 * (src/plugins/lean-client moves that out of the entry bundle), and the copy button.
 */
import { expect, test, type Page } from '@playwright/test';
import { codeTheme } from '../../src/config/prism';
import { gotoHydrated, sidebarLink } from './support/shell';

/** The code theme's colour for a token type, as the browser computes it (rgb()). */
async function tokenColor(page: Page, type: string): Promise<string> {
  const style = codeTheme.styles.find((candidate) => candidate.types.includes(type));
  if (!style?.style.color) {
    throw new Error(`The code theme has no colour for "${type}" tokens`);
  }
  return page.evaluate((color) => {
    const probe = document.createElement('span');
    probe.style.color = color;
    document.body.append(probe);
    const computed = getComputedStyle(probe).color;
    probe.remove();
    return computed;
  }, style.style.color);
}

/**
 * Counts <pre> elements removed from the page. Hydration adopts the server's elements, so any
 * removal means a block was rendered again from scratch.
 */
async function watchCodeBlockRemounts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const state = window as unknown as { removedCodeBlocks: number };
    state.removedCodeBlocks = 0;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of Array.from(record.removedNodes)) {
          // Tabs included: src/theme/Tabs does not remount them after hydration.
          if (node instanceof Element && (node.matches('pre') || node.querySelector('pre'))) {
            state.removedCodeBlocks += 1;
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
}

test('code is highlighted in the site colours, and hydration keeps the blocks', async ({
  page,
}) => {
  await watchCodeBlockRemounts(page);
  await gotoHydrated(page, '/docs/getting-started/');
  const tsBlock = page.locator('.theme-code-block.language-ts').first();
  const keyword = tsBlock.locator('.token.keyword').first();
  await expect(keyword).toHaveCSS('color', await tokenColor(page, 'keyword'));
  // The colours come from the stylesheet's rules (src/plugins/prism-token-css), not from the token.
  await expect(keyword).not.toHaveAttribute('style');
  const comment = page.locator('.theme-code-block .token.comment').first();
  await expect(comment).toHaveCSS('color', await tokenColor(page, 'comment'));
  // bash is one of themeConfig.prism.additionalLanguages, registered by src/theme/CodeBlock.
  const bashBlock = page.locator('.theme-code-block.language-bash').first();
  await expect(bashBlock.locator('.token.function').first()).toBeVisible();

  // Give a late re-render time to happen before checking none did.
  await page.waitForTimeout(500);
  expect(
    await page.evaluate(
      () => (window as unknown as { removedCodeBlocks: number }).removedCodeBlocks,
    ),
  ).toBe(0);
});

test('hydration keeps the server markup of each block instead of highlighting the code again', async ({
  page,
}) => {
  // A marker the client's own highlighting would never produce, put inside the first block's
  // <code> in the page the server sends. Highlighting again during hydration would replace it
  // (React patches or re-renders a mismatch); keeping the server's markup leaves it in place.
  await page.route('**/docs/getting-started/', async (route) => {
    const response = await route.fetch();
    const html = await response.text();
    const marked = html.replace(
      /(<div class="[^"]*theme-code-block[^"]*"[\s\S]*?<code\b[^>]*>)/,
      '$1<span data-server-markup="kept"></span>',
    );
    expect(marked).not.toBe(html);
    await route.fulfill({ response, body: marked });
  });
  await gotoHydrated(page, '/docs/getting-started/');
  await page.waitForTimeout(500);
  await expect(page.locator('[data-server-markup="kept"]')).toHaveCount(1);
  const keyword = page.locator('.theme-code-block.language-ts .token.keyword').first();
  await expect(keyword).toHaveCSS('color', await tokenColor(page, 'keyword'));
});

/**
 * Records the scripts the page runs that hold Prism. Prism's language definitions extend one
 * another through `languages.insertBefore(...)`, a property call that minification keeps and
 * that nothing else on the site makes.
 */
function watchPrismScripts(page: Page): () => Promise<string[]> {
  // Each script's body is read as its response arrives; the check waits for every read begun so
  // far, so a script that arrived just before it is never missed.
  const reads: Promise<string | undefined>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') {
      return;
    }
    reads.push(
      response
        .text()
        .then((body) =>
          body.includes('languages.insertBefore(') ? new URL(response.url()).pathname : undefined,
        )
        .catch(() => undefined),
    );
  });
  return async () =>
    (await Promise.all(reads)).filter((pathname): pathname is string => pathname !== undefined);
}

test('a first visit runs no Prism: tabbed and untabbed code keeps the server highlighting', async ({
  page,
}) => {
  const prismScripts = watchPrismScripts(page);
  await gotoHydrated(page, '/docs/getting-started/');
  // The install command is in npm / pnpm / yarn / bun tabs: its hidden panels are highlighted too.
  const tabs = page.locator('.tabs-container').first();
  await tabs.getByRole('tab', { name: 'yarn', exact: true }).click();
  const yarnCode = tabs.locator('[role="tabpanel"]:not([hidden]) pre code');
  await expect(yarnCode).toContainText('yarn');
  await expect(yarnCode.locator('.token.function').first()).toHaveCSS(
    'color',
    await tokenColor(page, 'function'),
  );
  await expect(page.locator('.theme-code-block.language-ts .token.keyword').first()).toHaveCSS(
    'color',
    await tokenColor(page, 'keyword'),
  );
  // Room for a script loaded when the browser is idle, which would run Prism after all.
  await page.waitForTimeout(500);
  expect(await prismScripts()).toEqual([]);

  // The first navigation loads the highlighter, and code on the next page is highlighted.
  await sidebarLink(page, 'Installation').click();
  await expect(page).toHaveURL((url) => url.pathname === '/docs/installation/');
  await expect(page.locator('.theme-code-block .token').first()).toBeVisible();
  // The script's response event can reach the test after the tokens it drew are visible.
  await expect.poll(prismScripts).toHaveLength(1);
});

test('the copy button copies the code', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await gotoHydrated(page, '/docs/getting-started/');
  const block = page.locator('.theme-code-block.language-bash').first();
  // innerText shows each line's own <br> as an extra blank line; the copy has plain lines.
  const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');
  const code = lines(await block.locator('pre code').innerText());
  await block.hover();
  await block.getByRole('button', { name: 'Copy code to clipboard' }).click();
  // The button's "Copied" state lasts a second, too short to check reliably on a busy machine.
  await expect
    .poll(async () => lines(await page.evaluate(() => navigator.clipboard.readText())))
    .toEqual(code);
});

test('after a client-side navigation, code on the new page is highlighted', async ({ page }) => {
  await gotoHydrated(page, '/docs/');
  await sidebarLink(page, 'Getting started').click();
  await expect(page).toHaveURL((url) => url.pathname === '/docs/getting-started/');
  const keyword = page.locator('.theme-code-block.language-ts .token.keyword').first();
  await expect(keyword).toHaveCSS('color', await tokenColor(page, 'keyword'));
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 700 } });

  test('blocks off screen wait to be rendered, at the height their lines will take', async ({
    page,
  }) => {
    await gotoHydrated(page, '/docs/getting-started/');
    const last = page.locator('.theme-code-block pre').last();
    // Not rendered yet: src/theme/CodeBlock/Content/offscreen.module.css.
    expect(
      await last.evaluate(
        (pre) => pre.firstElementChild?.checkVisibility({ contentVisibilityAuto: true }) ?? true,
      ),
    ).toBe(false);
    // The height each block takes before it is rendered is the height it has once rendered, so
    // the page's length and its headings' positions are right from the start.
    const heights = await page.locator('.theme-code-block pre').evaluateAll((pres) => {
      const estimated = pres.map((pre) => pre.getBoundingClientRect().height);
      for (const pre of pres) {
        (pre as HTMLElement).style.contentVisibility = 'visible';
      }
      return pres.map((pre, index) => [estimated[index], pre.getBoundingClientRect().height]);
    });
    expect(heights.length).toBeGreaterThan(10);
    for (const [estimated, rendered] of heights) {
      expect(Math.abs((estimated ?? 0) - (rendered ?? 0))).toBeLessThanOrEqual(1);
    }
  });

  test('a block that scrolls sideways shows the word-wrap button once it comes into view', async ({
    page,
  }) => {
    await gotoHydrated(page, '/docs/getting-started/');
    const block = page.locator('.theme-code-block').last();
    const pre = block.locator('pre');
    const wordWrap = block.getByRole('button', { name: 'Toggle word wrap' });
    // The buttons mount together a moment after hydration (src/theme/CodeBlock/Buttons): once the
    // copy button is there, a missing word-wrap button is the off-screen block's own answer.
    await expect(block.getByRole('button', { name: 'Copy code to clipboard' })).toHaveCount(1);
    await expect(wordWrap).toHaveCount(0);
    await pre.scrollIntoViewIfNeeded();
    const scrollsSideways = () =>
      pre.evaluate((element) => element.scrollWidth > element.clientWidth);
    // The browser lays out a block that came into view only at one of its next frames
    // (content-visibility: auto, src/theme/CodeBlock/Content/offscreen.module.css); until then its
    // code has no width and the block does not scroll, so the check waits for that frame.
    await expect.poll(scrollsSideways).toBe(true);
    await block.hover();
    await expect(wordWrap).toBeVisible();
    await wordWrap.click();
    await expect.poll(scrollsSideways).toBe(false);
    await wordWrap.click();
    await expect.poll(scrollsSideways).toBe(true);
    await expect(wordWrap).toBeVisible();
  });
});
