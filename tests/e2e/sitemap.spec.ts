/**
 * Every page the built sitemap lists, visited once: it answers 200 at its own path with one h1
 * (the one the route lists expect, where they name it), a title, no console error or uncaught
 * page error, no image that fails to load, no axe violation (every rule axe runs by default,
 * best practices included) at desktop width, and no sideways scroll at 375 px. The sitemap is
 * read from the build, so a new page is walked without editing a list; tests/build/routes.test.ts
 * holds that the sitemap lists exactly the docs pages, the API pages and the other routes.
 *
 * The docs pages share one frame (navbar, docs sidebar, footer) and the API pages another, built
 * by the same components on every page of the kind: axe checks the whole page on the first page
 * of each kind and on every other page, and only the page's own content (its <main>, which holds
 * the article and its table of contents) on the rest. The frame at 375 px is checked per page type
 * by accessibility.spec.ts. axe's page-level rules, which it runs only over a whole page, are kept
 * on every page here: one <main>, one h1, a title (the checks below), and the document's language,
 * which is the same template's.
 *
 * Colour contrast, three quarters of axe's time on a long page, is judged once for each text style
 * a shard meets (see markContrastShapes), and every time for text that may sit over something
 * other than its ancestors' backgrounds.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { SEARCH_PAGE_PATH } from '../../src/data/search-page';
import { apiPages } from './support/api-pages';
import { chromiumArgs, chromiumPath } from './support/browser';
import { siteRoutes } from './support/site-routes';
import { waitForHydration } from './support/shell';

const sitemap = readFileSync(path.resolve(__dirname, '../../build/sitemap.xml'), 'utf8');
const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
  (match) => new URL(match[1]!).pathname,
);

/** What the route lists say a page must show; pages they do not name get the general checks. */
const expectedHeading = new Map<string, RegExp>([
  ...siteRoutes.map((route): [string, RegExp] => [route.path, route.heading]),
  ...apiPages.map((page): [string, RegExp] => [page.path, page.heading]),
]);
const apiPageNames = new Map(apiPages.map((page) => [page.path, page.name]));

/** The kinds of page whose frame is the same on every page of the kind. */
const FRAMED_KINDS = ['/docs/', '/api/'] as const;
const framedKind = (sitePath: string) => FRAMED_KINDS.find((kind) => sitePath.startsWith(kind));
/** The page of each framed kind whose frame is checked with the rest of the page. */
const frameChecked = new Set(
  FRAMED_KINDS.map((kind) => paths.find((sitePath) => sitePath.startsWith(kind))),
);
/** Whether axe checks the whole page, or only its own content inside the frame of its kind. */
const axesWholePage = (sitePath: string) =>
  framedKind(sitePath) === undefined || frameChecked.has(sitePath);

// Once a page has loaded, Docusaurus prefetches the chunks of every link in view, some thirty a
// page, which this walk never opens (prefetch.spec.ts checks prefetching). On what Chromium
// reports as a 2G connection it prefetches none, and the walk's browser works that much less.
test.use({
  launchOptions: {
    executablePath: chromiumPath,
    args: [...chromiumArgs, '--force-effective-connection-type=2G'],
  },
});

/** Pages per test: the shards spread over the workers; each page takes a few seconds with axe. */
const PAGES_PER_TEST = 8;

const checkedImages = new Set<string>();

/**
 * Code blocks repeat a handful of token shapes thousands of times (nine in ten elements of Getting
 * started's <main>), and axe's time grows with the elements it checks; excluding them instead
 * costs more, as axe compares each element with every excluded one.
 *
 * A shape is what axe's rules read of such an element: its tag, classes, attribute names, the
 * values of tabindex and role, its colour, font and text shadow, the colour behind it, and whether
 * it holds text (contrast is judged only on text). The first element of each shape in a shard
 * keeps its markup; the later ones give way to their content, which axe then checks with the code
 * line's own colour, the one plain code has. Elements with an id (checked for duplicates) and the
 * <pre> itself (its scrolling region is checked per block) stay as they are.
 */
async function unwrapRepeatedCodeShapes(page: Page, checked: Set<string>): Promise<string[]> {
  const added = await page.evaluate(
    (seen) => {
      const known = new Set(seen);
      const fresh: string[] = [];
      const repeated: Element[] = [];
      const backgroundBehind = (element: Element): string => {
        for (let node: Element | null = element; node; node = node.parentElement) {
          const colour = getComputedStyle(node).backgroundColor;
          if (colour !== 'rgba(0, 0, 0, 0)' && colour !== 'transparent') return colour;
        }
        return '';
      };
      for (const element of Array.from(document.querySelectorAll('pre *'))) {
        if (element.id !== '') continue;
        const style = getComputedStyle(element);
        const shape = JSON.stringify([
          element.tagName,
          element.getAttribute('class'),
          element.getAttributeNames().sort(),
          element.getAttribute('tabindex'),
          element.getAttribute('role'),
          style.color,
          style.fontSize,
          style.fontWeight,
          style.fontStyle,
          style.textShadow,
          backgroundBehind(element),
          (element.textContent ?? '').trim() !== '',
        ]);
        if (known.has(shape)) {
          repeated.push(element);
        } else {
          known.add(shape);
          fresh.push(shape);
        }
      }
      // Changed after all styles are read: a change between two reads would make the browser
      // compute the page's styles again for each element.
      for (const element of repeated) element.replaceWith(...Array.from(element.childNodes));
      return fresh;
    },
    [...checked],
  );
  for (const shape of added) checked.add(shape);
  return added;
}

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/** The attribute that puts an element in the colour contrast run. */
const CONTRAST_MARK = 'data-weft-contrast';

/**
 * Marks, within `scope`, the visible elements with text of their own whose contrast axe is to
 * judge: the first of each text style not judged before in the shard, and every one over a box
 * that may not be among its ancestors. Returns the styles it added to `checked`.
 *
 * axe's contrast of a text is a function of the text's colour, size, weight, shadow and stroke,
 * and of what is painted behind it. Behind an element whose ancestors up to the first opaque
 * background are in the flow, untransformed, unfiltered and without background images, that
 * is those ancestors' background colours and opacities, so the style is those values together:
 * two elements of one style get the same verdict. An element placed out of the flow (absolute or
 * fixed), transformed, filtered, blended or over a background image (itself or an ancestor) may
 * sit over anything and is always marked; a sticky one is in the flow until the page scrolls,
 * and axe judges the page unscrolled. An element hidden or one pixel small is never a style's
 * first, since axe skips it and a visible one of its style would then go unjudged.
 */
async function markContrastShapes(
  page: Page,
  scope: string,
  checked: Set<string>,
): Promise<{ marked: number; added: string[] }> {
  const result = await page.evaluate(
    ({ scope, seen, mark }) => {
      const known = new Set(seen);
      const added: string[] = [];
      let marked = 0;
      const root = document.querySelector(scope);
      if (!root) return { marked, added };
      const behind = (element: Element) => {
        const colours: string[] = [];
        let opacity = 1;
        let loose = false;
        for (let node: Element | null = element; node; node = node.parentElement) {
          const style = getComputedStyle(node);
          opacity *= Number(style.opacity);
          if (
            style.position === 'absolute' ||
            style.position === 'fixed' ||
            style.transform !== 'none' ||
            style.filter !== 'none' ||
            style.mixBlendMode !== 'normal' ||
            style.backgroundImage !== 'none'
          ) {
            loose = true;
          }
          const colour = style.backgroundColor;
          if (colour === 'rgba(0, 0, 0, 0)' || colour === 'transparent') continue;
          colours.push(colour);
          // An opaque background hides whatever is further out.
          if (!colour.startsWith('rgba(')) break;
        }
        return { colours, opacity, loose };
      };
      for (const element of Array.from(root.querySelectorAll('*'))) {
        const ownText = Array.from(element.childNodes).some(
          (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '',
        );
        if (!ownText) continue;
        const box = element.getBoundingClientRect();
        if (box.width <= 1 || box.height <= 1) continue;
        if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
        const { colours, opacity, loose } = behind(element);
        if (!loose) {
          const style = getComputedStyle(element);
          const shape = JSON.stringify([
            style.color,
            style.fontSize,
            style.fontWeight,
            style.textShadow,
            style.webkitTextStrokeWidth,
            style.webkitTextStrokeColor,
            colours,
            opacity,
          ]);
          if (known.has(shape)) continue;
          known.add(shape);
          added.push(shape);
        }
        element.setAttribute(mark, '');
        marked += 1;
      }
      return { marked, added };
    },
    { scope, seen: [...checked], mark: CONTRAST_MARK },
  );
  for (const shape of result.added) checked.add(shape);
  return result;
}

/**
 * axe's source, with the colour contrast rule told to judge only the elements
 * {@link markContrastShapes} marks (its selector is every element otherwise); the rule's own
 * filter, text that is visible, still applies to them. One run of every rule over the page.
 */
const axeSource = `${readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')}
;axe.configure({ rules: [{ id: 'color-contrast', selector: '[${CONTRAST_MARK}]' }] });`;

/** axe's violations over `scope`, the contrast of text judged once per style (see above). */
async function axeViolations(
  page: Page,
  scope: 'html' | 'main',
  checkedContrastShapes: Set<string>,
): Promise<Violation[]> {
  await markContrastShapes(page, scope, checkedContrastShapes);
  // Details of the nodes that pass are not needed, and gathering them is a good part of axe's time
  // on a long page; every rule still runs and every violation is reported in full. The site has
  // no frames, so axe runs in the page itself (legacy mode) rather than finishing its run in a
  // new blank page, which costs about a second a page.
  const axe = new AxeBuilder({ page, axeSource })
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] });
  return (await (scope === 'main' ? axe.include('main') : axe).analyze()).violations;
}

async function expectImagesLoad(page: Page, request: APIRequestContext): Promise<void> {
  // Lazy images below the fold have not been fetched yet: each source is fetched here instead.
  const sources = await page
    .locator('img')
    .evaluateAll((images) =>
      images.map(
        (image) => (image as HTMLImageElement).currentSrc || (image as HTMLImageElement).src,
      ),
    );
  for (const source of sources) {
    if (source === '' || source.startsWith('data:') || checkedImages.has(source)) continue;
    const response = await request.get(source);
    expect(response.status(), `${page.url()}: image ${source}`).toBe(200);
    expect(response.headers()['content-type'], `${page.url()}: image ${source}`).toMatch(
      /^image\//,
    );
    checkedImages.add(source);
  }
}

async function checkPage(
  page: Page,
  request: APIRequestContext,
  sitePath: string,
  problems: string[],
  checkedCodeShapes: Set<string>,
  checkedContrastShapes: Set<string>,
): Promise<void> {
  const response = await page.goto(sitePath);
  expect(response?.status(), sitePath).toBe(200);
  expect(new URL(page.url()).pathname).toBe(sitePath);
  await waitForHydration(page);

  await expect(page.locator('main'), `${sitePath} has one main landmark`).toHaveCount(1);
  const headings = page.locator('h1');
  await expect(headings, `${sitePath} has one h1`).toHaveCount(1);
  const heading = expectedHeading.get(sitePath);
  if (heading) await expect(headings, sitePath).toHaveText(heading);
  // The search plugin's page writes its own document title on the client, without the site's.
  await expect(page, sitePath).toHaveTitle(sitePath === SEARCH_PAGE_PATH ? /\S/ : /Weft/);
  const apiName = apiPageNames.get(sitePath);
  if (apiName !== undefined) {
    // The document title is the h1 as shown, without markdown escapes such as "\_" or "\<".
    await expect(page).toHaveTitle(`${await headings.textContent()} | Weft`);
    // Each API page is in the API sidebar, and marked as the current page there.
    await expect(
      page.locator('.theme-doc-sidebar-menu').getByRole('link', { name: apiName, exact: true }),
    ).toHaveAttribute('aria-current', 'page');
  }
  if (sitePath.startsWith('/docs/') || sitePath.startsWith('/api/')) {
    await expect(page.locator('.theme-doc-sidebar-menu'), sitePath).toBeAttached();
  }

  await expectImagesLoad(page, request);

  await page.setViewportSize({ width: 375, height: 812 });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  if (overflow > 0) problems.push(`${sitePath}: scrolls sideways by ${overflow} px at 375 px`);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Last, as it changes the page: code tokens of shapes checked already become plain text.
  await unwrapRepeatedCodeShapes(page, checkedCodeShapes);
  const violations = await axeViolations(
    page,
    axesWholePage(sitePath) ? 'html' : 'main',
    checkedContrastShapes,
  );
  for (const violation of violations) {
    const where = violation.nodes.slice(0, 3).map((node) => node.target.join(' '));
    problems.push(`${sitePath}: axe ${violation.id}: ${violation.help} (${where.join('; ')})`);
  }
}

test('axe still sees one code token of each shape on a long guide', async ({ page }) => {
  await page.goto('/docs/getting-started/');
  await waitForHydration(page);
  const shapes = await unwrapRepeatedCodeShapes(page, new Set());
  // What is left is one element per shape: read again, nothing repeats and no shape is missing.
  const left = await unwrapRepeatedCodeShapes(page, new Set());
  expect(left.sort()).toEqual([...shapes].sort());
  expect(await page.locator('pre *').count()).toBe(shapes.length);
  // The guide's code has keywords, strings and typed names, each a shape of its own.
  expect(shapes.length).toBeGreaterThan(10);
});

test("axe's contrast run judges each text style once, a new style and text over a loose box every time", async ({
  page,
}) => {
  await page.goto('/docs/getting-started/');
  await waitForHydration(page);
  const checked = new Set<string>();
  const first = await markContrastShapes(page, 'main', checked);
  expect(first.added.length).toBeGreaterThan(5);
  // Read again, the styles met are not marked again: what is marked is text over loose boxes.
  await page.locator(`[${CONTRAST_MARK}]`).evaluateAll((marked, mark) => {
    for (const element of marked) element.removeAttribute(mark);
  }, CONTRAST_MARK);
  const again = await markContrastShapes(page, 'main', checked);
  expect(again.added).toEqual([]);
  expect(again.marked).toBeLessThan(first.marked);

  // A paragraph in a colour the page does not use, and one in the page's own paragraph style
  // placed over a white box that is not its ancestor: both too faint, both judged.
  await page
    .locator('main article p')
    .first()
    .evaluate((paragraph) => {
      const faint = document.createElement('p');
      faint.id = 'faint-colour';
      faint.style.color = '#3a3a3a';
      faint.textContent = 'A new colour, too dark on this background';
      const frame = document.createElement('div');
      frame.style.position = 'relative';
      const white = document.createElement('div');
      white.style.background = '#ffffff';
      white.style.height = '3em';
      const overWhite = document.createElement('p');
      overWhite.id = 'faint-over-white';
      overWhite.style.position = 'absolute';
      overWhite.style.top = '0';
      overWhite.textContent = 'The paragraph style, over a white box';
      frame.append(white, overWhite);
      paragraph.after(faint, frame);
    });
  const violations = await axeViolations(page, 'main', checked);
  const contrast = violations.find(({ id }) => id === 'color-contrast');
  expect(contrast?.nodes.map((node) => node.target.join(' ')).sort()).toEqual([
    '#faint-colour',
    '#faint-over-white',
  ]);
});

test('the sitemap lists the pages to walk', () => {
  expect(paths.length).toBeGreaterThan(expectedHeading.size);
  // A frame is checked whole on one page of each kind: each kind has pages in the sitemap.
  expect([...frameChecked].every((sitePath) => sitePath !== undefined)).toBe(true);
  expect(paths.filter(axesWholePage).length).toBeLessThan(paths.length);
});

// Every shard-th page, so that each shard mixes short API pages with long guides and the shards
// take about as long as each other.
const shards = Math.ceil(paths.length / PAGES_PER_TEST);
for (let index = 0; index < shards; index += 1) {
  const shard = paths.filter((_, position) => position % shards === index);
  test(`sitemap pages, shard ${index + 1} of ${shards}: ${shard.join(' ')}`, async ({
    page,
    request,
  }) => {
    // axe's full rule set takes seconds on a long page when the machine is shared.
    test.setTimeout(shard.length * 30_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    const problems: string[] = [];
    const checkedCodeShapes = new Set<string>();
    const checkedContrastShapes = new Set<string>();
    page.on('console', (message) => {
      if (message.type() === 'error')
        problems.push(`${page.url()}: console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`${page.url()}: page error: ${error.message}`));
    for (const sitePath of shard) {
      await checkPage(page, request, sitePath, problems, checkedCodeShapes, checkedContrastShapes);
    }
    expect(problems).toEqual([]);
  });
}
