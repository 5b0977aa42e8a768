/**
 * Helpers for the browser tests of the Run panels (src/components/RunPanel/): finding a page's
 * panel, its live region and its list of events, opening its editors, choosing a preset,
 * checking the sideways scroll and running axe over the panel.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { waitForHydration } from './shell';

export const VIEWPORTS = [
  { label: '1280 px', width: 1280, height: 800 },
  { label: '375 px', width: 375, height: 812 },
] as const;

export const runButton = (page: Page, name: RegExp) => page.getByRole('button', { name });

/**
 * Presses Run after a reader's edits further down the page. The button is brought to the middle of
 * the window first: one cut off at the top would be scrolled only to the window's top edge, and
 * scrolling up brings back the navbar (it hides on scroll), which can slide over the button
 * between the mouse's press and release, so that the click reaches no button.
 */
export async function pressRun(page: Page, name: RegExp): Promise<void> {
  const button = runButton(page, name);
  await button.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await button.click();
}
export const liveRegion = (page: Page) => page.locator('[data-run-panel] [role="status"]');
export const events = (page: Page) => page.getByRole('list', { name: 'What happened in the run' });

/** Opens the page, waits for React, presses Run and waits for the run's end. */
export async function openAndRun(page: Page, path: string, button: RegExp): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
  await runButton(page, button).click();
  await expect(liveRegion(page)).toContainText(/^Task \w+ after \d+ events\./);
}

export async function openEditors(page: Page): Promise<void> {
  const summary = page.getByText('Change the message and the model’s answers');
  if ((await summary.locator('..').getAttribute('open')) === null) await summary.click();
}

export async function choosePreset(page: Page, label: string): Promise<void> {
  await openEditors(page);
  await page.getByLabel('Preset').selectOption({ label });
}

/** How many pixels the page scrolls sideways; 0 or less when it does not. */
export async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

/** Every event is timed: each item starts with "+<ms> ms". */
export async function expectEveryEventTimed(page: Page): Promise<void> {
  for (const item of await events(page).locator('li').all()) {
    await expect(item).toContainText(/^\+\d+\.\d ms/);
  }
}

/**
 * Axe's violations inside the panel, one line each. Every rule runs; axe runs in the page itself
 * (the site has no frames) and leaves out the details of what passes (see sitemap.spec.ts).
 */
export async function panelViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] })
    .include('[data-run-panel]')
    .analyze();
  return results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} (${violation.nodes
        .slice(0, 3)
        .map((node) => node.target.join(' '))
        .join('; ')})`,
  );
}

/**
 * Tab reaches the Run button from the element before it, Enter runs, and the live region (polite)
 * announces the end of the run while the focus stays on the button.
 */
export async function runWithKeyboard(
  page: Page,
  button: RegExp,
  announced: string | RegExp,
): Promise<void> {
  await runButton(page, button).evaluate((element) => {
    const before = document.createElement('a');
    before.href = '#';
    before.textContent = 'start';
    element.parentElement?.parentElement?.before(before);
    before.focus();
  });
  await page.keyboard.press('Tab');
  await expect(runButton(page, button)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(liveRegion(page)).toHaveAttribute('aria-live', 'polite');
  await expect(liveRegion(page)).toContainText(announced);
  await expect(runButton(page, button)).toBeFocused();
}

/** Requests that left the site while the page was open, collected from now on. */
export function offSiteRequests(page: Page, baseURL: string | undefined): string[] {
  const offSite: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(baseURL ?? '')) offSite.push(request.url());
  });
  return offSite;
}

/** The narrow width, where the panel's controls are squeezed most. */
export const NARROW = VIEWPORTS[1];
