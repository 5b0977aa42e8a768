/**
 * The Run panel of docs/concepts/how-a-task-runs.md, used as a reader would: it runs the calendar
 * plugin of the Executors page starting from its failing preset, then the preset whose steps
 * succeed, a review answer edited to continue and one that does not match the schema. The checks
 * every panel shares (keyboard, axe, layout, no request leaving the site) are in
 * run-panel-shared.spec.ts.
 */
import { expect, test } from '@playwright/test';
import {
  NARROW,
  choosePreset,
  events,
  liveRegion,
  openAndRun,
  openEditors,
  pressRun,
  sidewaysOverflow,
} from './support/run-panel';

const PATH = '/docs/concepts/how-a-task-runs/';
const BUTTON = /^Run the calendar agent/;
const FAILED = 'Task failed after 10 events. A step failed; the review answered stop.';

test('starts on the failing preset: the step error, the review stops the plan, status failed [claim:task-run-panel-runs]', async ({
  page,
}) => {
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
});

// What a run shows does not depend on the width: the behaviours that show a field's error are
// tried at 375 px, where that error has the least room, and the page must not scroll sideways.
test.describe(`at ${NARROW.label}`, () => {
  test.use({ viewport: { width: NARROW.width, height: NARROW.height } });

  test('a review edited to continue runs book after the failed step, and it fails too [claim:exec-run-panel-continue] [claim:task-run-panel-other]', async ({
    page,
  }) => {
    await openAndRun(page, PATH, BUTTON);
    await openEditors(page);
    await page.getByLabel(/^The model's review answer/).fill('{"type": "continue"}');
    await pressRun(page, BUTTON);
    await expect(liveRegion(page)).toContainText('A step failed; the review answered continue.');
    const steps = events(page).locator('li[data-kind="step"]');
    await expect(steps).toHaveCount(2);
    await expect(steps.nth(1)).toContainText(
      'calendar.book error: no slot to book: run "find-slot" first',
    );
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('the other preset completes both steps, the review after find-slot continuing [claim:task-run-panel-other]', async ({
    page,
  }) => {
    await openAndRun(page, PATH, BUTTON);
    await choosePreset(page, 'A stand-up until 10:30: the slot is free at 10:30');
    await pressRun(page, BUTTON);
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
    await pressRun(page, BUTTON);
    await expect(review).toHaveAttribute('aria-invalid', 'true');
    await expect(review).toHaveAccessibleDescription(/^review answer: type: /);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });
});
