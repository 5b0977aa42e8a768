/**
 * The Run panel of docs/concepts/how-a-task-runs.md, used as a reader would: it runs the calendar
 * plugin of the Executors page starting from its failing preset, at 1280 and 375 px, then the
 * preset whose steps succeed and a review answer edited to continue, a review answer that does not
 * match the schema, the keyboard alone and axe.
 */
import { expect, test } from '@playwright/test';
import {
  NARROW,
  VIEWPORTS,
  choosePreset,
  events,
  expectEveryEventTimed,
  liveRegion,
  offSiteRequests,
  openAndRun,
  openEditors,
  panelViolations,
  runButton,
  runWithKeyboard,
  sidewaysOverflow,
} from './support/run-panel';
import { waitForHydration } from './support/shell';

const PATH = '/docs/concepts/how-a-task-runs/';
const BUTTON = /^Run the calendar agent/;
const FAILED = 'Task failed after 10 events. A step failed; the review answered stop.';

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.label}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('starts on the failing preset: the step error, the review stops the plan, status failed', async ({
      page,
      baseURL,
    }) => {
      const offSite = offSiteRequests(page, baseURL);
      await openAndRun(page, PATH, BUTTON);
      await expect(liveRegion(page)).toHaveText(FAILED);
      const list = events(page);
      await expect(list.locator('li[data-kind="plan"]')).toContainText(
        'calendar.find-slot, calendar.book',
      );
      await expect(list.locator('li[data-kind="step"]')).toHaveCount(1);
      await expect(list.locator('li[data-kind="step"]')).toContainText(
        'calendar.find-slot error: no free 60-minute slot on 2025-03-04',
      );
      await expect(list.locator('li[data-kind="review"]')).toContainText('Review: stop');
      await expect(list.locator('li[data-kind="status"]')).toHaveText(/Task failed$/);
      await expectEveryEventTimed(page);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      expect(offSite).toEqual([]);
    });
  });
}

// What a run shows does not depend on the width, only the layout does (the tests above check
// it at both): the other behaviours are tried at 375 px, where the panel's controls are narrowest.
test.describe(`at ${NARROW.label}`, () => {
  test.use({ viewport: { width: NARROW.width, height: NARROW.height } });

  test('a review edited to continue runs book after the failed step, and it fails too', async ({
    page,
  }) => {
    await openAndRun(page, PATH, BUTTON);
    await openEditors(page);
    await page.getByLabel(/^The model's review answer/).fill('{"type": "continue"}');
    await runButton(page, BUTTON).click();
    await expect(liveRegion(page)).toContainText('A step failed; the review answered continue.');
    const steps = events(page).locator('li[data-kind="step"]');
    await expect(steps).toHaveCount(2);
    await expect(steps.nth(1)).toContainText(
      'calendar.book error: no slot to book: run "find-slot" first',
    );
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('the other preset completes both steps, the review after find-slot continuing', async ({
    page,
  }) => {
    await openAndRun(page, PATH, BUTTON);
    await choosePreset(page, 'A stand-up until 10:30: the slot is free at 10:30');
    await runButton(page, BUTTON).click();
    await expect(liveRegion(page)).toHaveText(
      'Task completed after 11 events. Reply: Booked "Release planning" on 2025-03-04 at 10:30',
    );
    await expect(events(page).locator('li[data-kind="review"]')).toContainText('Review: continue');
  });

  test('a review answer that does not match the schema shows the error inline, naming the field', async ({
    page,
  }) => {
    await openAndRun(page, PATH, BUTTON);
    await openEditors(page);
    const review = page.getByLabel(/^The model's review answer/);
    await review.fill('{"type": "pause"}');
    await runButton(page, BUTTON).click();
    await expect(review).toHaveAttribute('aria-invalid', 'true');
    await expect(review).toHaveAccessibleDescription(/^review answer: type: /);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });
});

test('keyboard only: Tab reaches Run, Enter runs, the live region announces', async ({ page }) => {
  await page.goto(PATH);
  await waitForHydration(page);
  await runWithKeyboard(page, BUTTON, FAILED);
});

test('axe finds nothing with the panel open and its events listed', async ({ page }) => {
  test.slow();
  await openAndRun(page, PATH, BUTTON);
  await openEditors(page);
  expect(await panelViolations(page)).toEqual([]);
});
