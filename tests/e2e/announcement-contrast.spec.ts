/**
 * The announcement bar's close button against the bar, measured from the colours the browser
 * computes: a control needs 3:1 against what is behind it (WCAG 1.4.11). The cross is drawn by the
 * SVG stroke, faded by the opacity of the button and of everything between it and the bar, so the
 * colour seen is the stroke blended over the bar's background by that opacity.
 */
import { expect, test, type Page } from '@playwright/test';
import { gotoHydrated } from './support/shell';

const MINIMUM = 3;

interface Measured {
  stroke: string;
  opacity: number;
  background: string;
}

/** The stroke of the cross, the opacity it is drawn with, and the bar's background. */
async function measure(page: Page): Promise<Measured> {
  return page.evaluate(() => {
    const bar = document.querySelector<HTMLElement>('.theme-announcement-bar');
    const path = bar?.querySelector('button.close svg path');
    if (!bar || !path) throw new Error('no announcement bar with a close button on the page');
    let opacity = 1;
    for (let node: Element | null = path; node && node !== bar; node = node.parentElement) {
      opacity *= Number(getComputedStyle(node).opacity);
    }
    return {
      stroke: getComputedStyle(path).stroke,
      opacity,
      background: getComputedStyle(bar).backgroundColor,
    };
  });
}

/** "rgb(1, 2, 3)" or "rgba(1, 2, 3, 0.5)" → [r, g, b, a]. */
function channels(colour: string): [number, number, number, number] {
  const match = /^rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)$/.exec(colour);
  if (!match) throw new Error(`Expected an rgb() or rgba() colour, got ${colour}`);
  const [r, g, b] = match.slice(1, 4).map(Number) as [number, number, number];
  return [r, g, b, match[4] === undefined ? 1 : Number(match[4])];
}

function luminance([r, g, b]: readonly number[]): number {
  const linear = (value: number) => {
    const s = value / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r ?? 0) + 0.7152 * linear(g ?? 0) + 0.0722 * linear(b ?? 0);
}

/** The contrast ratio of the stroke as seen (blended by its alpha and opacity) on the background. */
function contrastSeen({ stroke, opacity, background }: Measured): number {
  const [r, g, b, a] = channels(stroke);
  const back = channels(background);
  expect(back[3], 'the bar paints an opaque background').toBe(1);
  const alpha = a * opacity;
  const seen = [r, g, b].map((value, i) => value * alpha + (back[i] ?? 0) * (1 - alpha));
  const [light, dark] = [luminance(seen), luminance(back)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

test('the contrast measure tells the old close button from the fixed one', () => {
  // Infima's black at half opacity on the bar's green, as before the fix: about 1.4:1.
  const old = contrastSeen({ stroke: 'rgb(0, 0, 0)', opacity: 0.5, background: 'rgb(15, 61, 36)' });
  expect(old).toBeGreaterThan(1.3);
  expect(old).toBeLessThan(1.5);
});

for (const viewport of [
  { label: '1280 px', width: 1280, height: 800 },
  { label: '375 px', width: 375, height: 812 },
]) {
  test.describe(`at ${viewport.label}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    for (const path of ['/', '/docs/getting-started/', '/api/', '/plugins/']) {
      test(`the close button on ${path} has at least ${MINIMUM}:1 at rest, hovered and focused`, async ({
        page,
      }) => {
        await gotoHydrated(page, path);
        const close = page
          .locator('.theme-announcement-bar')
          .getByRole('button', { name: 'Close' });
        await expect(close).toBeVisible();
        expect(contrastSeen(await measure(page)), 'at rest').toBeGreaterThanOrEqual(MINIMUM);
        await close.hover();
        expect(contrastSeen(await measure(page)), 'hovered').toBeGreaterThanOrEqual(MINIMUM);
        await close.focus();
        expect(contrastSeen(await measure(page)), 'focused').toBeGreaterThanOrEqual(MINIMUM);
      });
    }
  });
}
