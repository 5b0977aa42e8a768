/**
 * Hover types (src/remark/type-hovers, src/theme/CodeBlock/Content/highlighted-markup.ts): an identifier of a
 * TypeScript sample shows the type TypeScript reports for it when hovered and when it takes
 * keyboard focus, in a popup that stays inside the viewport without making the page scroll
 * sideways, is legible, and is described to assistive technology. The popup is drawn by the
 * stylesheet from the identifier's `data-type` (no element of its own), so it is measured here
 * from the identifier's `::after` as the browser lays it out. The copy button still copies the
 * plain code. The expected types are read from TypeScript here, not copied in.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { sampleHoverTypes, typeOfIdentifier } from '../support/sample-hover-types';
import { gotoHydrated } from './support/shell';

const SAMPLE = 'examples/getting-started/scripted-model.ts';
const PAGE = '/docs/getting-started/';

function sampleBlock(page: Page): Locator {
  return page.locator('.theme-code-block').filter({ has: page.getByText(SAMPLE, { exact: true }) });
}

/** TypeScript's text, with whitespace collapsed as toHaveText compares it. */
const collapsed = (text: string) => text.replace(/\s+/g, ' ').trim();

interface Popup {
  /** The text drawn, and its alternative text for assistive technology (absent: the text). */
  text: string;
  alternative: string | undefined;
  left: number;
  right: number;
  height: number;
  colour: string;
  background: string;
}

/** The identifier's popup as laid out, or null while it is not drawn. */
async function popupOf(identifier: Locator): Promise<Popup | null> {
  const drawn = await identifier.evaluate((span) => {
    const style = getComputedStyle(span, '::after');
    if (style.display === 'none' || style.content === 'none' || style.content === 'normal') {
      return null;
    }
    // The popup is absolutely placed in the frame around the <pre> (its offset parent).
    const frame = (span as HTMLElement).offsetParent;
    if (!frame) throw new Error('the identifier has no positioned frame');
    const px = (value: string) => Number.parseFloat(value) || 0;
    const edges =
      style.boxSizing === 'border-box'
        ? 0
        : px(style.paddingLeft) +
          px(style.paddingRight) +
          px(style.borderLeftWidth) +
          px(style.borderRightWidth);
    const left = frame.getBoundingClientRect().left + frame.clientLeft + px(style.left);
    return {
      content: style.content,
      left,
      right: left + px(style.width) + edges,
      height: px(style.height),
      colour: style.color,
      background: style.backgroundColor,
    };
  });
  return drawn && { ...drawn, ...textOfContent(drawn.content) };
}

/** A CSS string's value, as the browser escapes it (a newline is `\a `). */
function unescapeCss(value: string): string {
  return value.replace(/\\(?:([0-9a-f]{1,6}) ?|(.))/gis, (_, hex?: string, char?: string) =>
    hex === undefined ? char! : String.fromCodePoint(Number.parseInt(hex, 16)),
  );
}

/**
 * The text of a computed `content` (the browser resolves `attr()` to a string), and the
 * alternative text after its "/", if it has one.
 */
function textOfContent(content: string): { text: string; alternative: string | undefined } {
  const string = '"((?:[^"\\\\]|\\\\.)*)"';
  const match = new RegExp(`^${string}(?:\\s*/\\s*${string})?$`, 's').exec(content);
  if (!match) throw new Error(`Expected the popup's content as a string, got ${content}`);
  return {
    text: unescapeCss(match[1]!),
    alternative: match[2] === undefined ? undefined : unescapeCss(match[2]),
  };
}

/** "rgb(1, 2, 3)" → its relative luminance (WCAG 2). */
function luminance(colour: string): number {
  const match = /^rgba?\((\d+), (\d+), (\d+)(?:, 1)?\)$/.exec(colour);
  if (!match) throw new Error(`Expected an opaque rgb() colour, got ${colour}`);
  const [r, g, b] = match.slice(1, 4).map((value) => {
    const s = Number(value) / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Shown, with the type's text, inside the viewport, no sideways scroll, text at 4.5:1. */
async function expectPopupShown(page: Page, identifier: Locator, type: string): Promise<void> {
  await expect.poll(async () => (await popupOf(identifier))?.text).toBe(type);
  const popup = (await popupOf(identifier))!;
  // Screen readers get the type from aria-description; the drawn copy is not read again.
  expect(popup.alternative).toBe('');
  const viewport = page.viewportSize()!;
  expect(popup.height).toBeGreaterThan(0);
  expect(popup.left).toBeGreaterThanOrEqual(0);
  expect(popup.right).toBeLessThanOrEqual(viewport.width);
  const sideways = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(sideways).toBeLessThanOrEqual(0);
  // axe cannot read text drawn by the stylesheet, so the popup's contrast is measured here.
  const [light, dark] = [luminance(popup.colour), luminance(popup.background)].sort(
    (x, y) => y - x,
  ) as [number, number];
  expect((light + 0.05) / (dark + 0.05)).toBeGreaterThanOrEqual(4.5);
}

async function expectPopupHidden(identifier: Locator): Promise<void> {
  await expect.poll(async () => popupOf(identifier)).toBeNull();
}

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test('hovering an identifier shows its type, inside the viewport [claim:contributing-hover-types-shown]', async ({
      page,
    }) => {
      await gotoHydrated(page, PAGE);
      const block = sampleBlock(page);
      const identifier = block.locator('.weft-type-hover', { hasText: /^createScriptedModel$/ });
      await identifier.scrollIntoViewIfNeeded();
      await expectPopupHidden(identifier);
      await identifier.hover();
      await expectPopupShown(page, identifier, typeOfIdentifier(SAMPLE, 'createScriptedModel'));
      await page.mouse.move(0, 0);
      await expectPopupHidden(identifier);
    });

    test('Tab from the code reaches an identifier, which shows and announces its type [claim:contributing-hover-types-shown] [claim:contributing-hover-types-accessible]', async ({
      page,
    }) => {
      await gotoHydrated(page, PAGE);
      const block = sampleBlock(page);
      await block.locator('pre').focus();
      await page.keyboard.press('Tab');
      const first = block.locator('.weft-type-hover').first();
      await expect(first).toBeFocused();
      const { code, hovers } = sampleHoverTypes(SAMPLE);
      expect(code.slice(hovers[0]!.start, hovers[0]!.start + hovers[0]!.length)).toBe(
        await first.textContent(),
      );
      await expectPopupShown(page, first, hovers[0]!.text);
      await expect(first).toHaveAccessibleDescription(collapsed(hovers[0]!.text));
      // The popup's text is not read a second time as part of the code.
      expect(await block.locator('pre').ariaSnapshot()).not.toContain(
        hovers[0]!.text.split('\n')[0],
      );
      await page.keyboard.press('Tab');
      await expectPopupHidden(first);
    });
  });
}

test('a sample block with a popup open has no axe violations', async ({ page }) => {
  await gotoHydrated(page, PAGE);
  const block = sampleBlock(page);
  await block.locator('pre').focus();
  await page.keyboard.press('Tab');
  const first = block.locator('.weft-type-hover').first();
  await expect.poll(async () => popupOf(first)).not.toBeNull();
  // Only this block: the blocks of the page are built alike, and the whole page is axed by the
  // sitemap walk (sitemap.spec.ts).
  await block.evaluate((element) => element.setAttribute('data-axe-scope', ''));
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] })
    .include('[data-axe-scope]')
    .analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
});

test('the copy button copies the plain code, without the types [claim:contributing-hover-types-copies]', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await gotoHydrated(page, PAGE);
  const block = sampleBlock(page);
  await expect(block.locator('.weft-type-hover').first()).toBeAttached();
  await block.hover();
  await block.getByRole('button', { name: 'Copy code to clipboard' }).click();
  const { code } = sampleHoverTypes(SAMPLE);
  await expect
    .poll(async () => page.evaluate(() => navigator.clipboard.readText()))
    .toBe(code.replace(/\n$/, ''));
});
