/**
 * Hover types (src/remark/type-hovers, src/theme/CodeBlock/Line/Token): an identifier of a
 * TypeScript sample shows the type TypeScript reports for it when hovered and when it takes
 * keyboard focus, in a popup that stays inside the viewport without making the page scroll
 * sideways, and that describes the identifier to assistive technology. The copy button still
 * copies the plain code. The expected types are read from TypeScript here, not copied in.
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

async function expectInsideViewport(page: Page, popup: Locator): Promise<void> {
  const box = await popup.boundingBox();
  const viewport = page.viewportSize();
  expect(box).not.toBeNull();
  expect(viewport).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(viewport!.width);
  const sideways = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(sideways).toBeLessThanOrEqual(0);
}

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } });

    test('hovering an identifier shows its type, inside the viewport [claim:contributing-hover-types-shown]', async ({
      page,
    }) => {
      await gotoHydrated(page, PAGE);
      const block = sampleBlock(page);
      const identifier = block.locator('.weft-type-hover', { hasText: /^createScriptedModel/ });
      const popup = identifier.getByRole('tooltip');
      await identifier.scrollIntoViewIfNeeded();
      await expect(popup).toBeHidden();
      await identifier.hover();
      await expect(popup).toBeVisible();
      await expect(popup).toHaveText(collapsed(typeOfIdentifier(SAMPLE, 'createScriptedModel')));
      await expectInsideViewport(page, popup);
      await page.mouse.move(0, 0);
      await expect(popup).toBeHidden();
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
      const expected = collapsed(hovers[0]!.text);
      // The identifier is the span's text before its popup (in a token's span, or bare text).
      const identifier = await first.evaluate((span) =>
        Array.from(span.childNodes)
          .filter((node) => !(node instanceof Element && node.getAttribute('role') === 'tooltip'))
          .map((node) => node.textContent)
          .join(''),
      );
      expect(code.slice(hovers[0]!.start, hovers[0]!.start + hovers[0]!.length)).toBe(identifier);
      const popup = first.getByRole('tooltip');
      await expect(popup).toBeVisible();
      await expect(popup).toHaveText(expected);
      await expect(first).toHaveAccessibleDescription(expected);
      await expectInsideViewport(page, popup);
      await page.keyboard.press('Tab');
      await expect(popup).toBeHidden();
    });
  });
}

test('a sample block with a popup open has no axe violations', async ({ page }) => {
  await gotoHydrated(page, PAGE);
  const block = sampleBlock(page);
  await block.locator('pre').focus();
  await page.keyboard.press('Tab');
  await expect(block.getByRole('tooltip')).toBeVisible();
  // Only this block: axe over every sample on the page (thousands of typed tokens, each with a
  // popup) takes longer than a test may on a shared CI machine, and the blocks are built alike.
  await block.evaluate((element) => element.setAttribute('data-axe-scope', ''));
  const results = await new AxeBuilder({ page }).include('[data-axe-scope]').analyze();
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
