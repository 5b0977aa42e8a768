/**
 * The Run panel of docs/building-plugins/executors.md, used as a reader would: it runs the
 * calendar plugin in the page, with an edited message and slot answer, a slot answer that does not
 * match SlotRequest and the full-day preset. The checks every panel shares (keyboard, axe, layout,
 * no request leaving the site) are in run-panel-shared.spec.ts.
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

const PATH = '/docs/building-plugins/executors/';
const BUTTON = /^Run the calendar agent/;
const BOOKED = 'Booked "Release planning" on 2025-03-04 at 10:30';

test('runs the calendar plugin, then an edited message and slot answer [claim:exec-run-panel-runs] [claim:exec-run-panel-events] [claim:exec-run-panel-booked]', async ({
  page,
}) => {
  await openAndRun(page, PATH, BUTTON);
  await expect(liveRegion(page)).toHaveText(`Task completed after 11 events. Reply: ${BOOKED}`);
  const list = events(page);
  await expect(list.locator('li[data-kind="plan"]')).toContainText(
    'calendar.find-slot, calendar.book',
  );
  await expect(list.locator('li[data-kind="model-call"]')).toHaveCount(3);
  await expect(list.locator('li[data-kind="model-call"]').nth(1)).toContainText(
    'get-object:SlotRequest',
  );
  await expect(list.locator('li[data-kind="review"]')).toContainText('Review: continue');
  await expect(list.locator('li[data-kind="step"]').first()).toContainText(
    'result: Free at 10:30 on 2025-03-04',
  );

  await openEditors(page);
  await page.getByLabel('Incoming message').fill('Book 30 minutes on 2025-03-04 for a review');
  await page
    .getByLabel(/^The model's answer to find-slot's getObject call/)
    .fill('{"date": "2025-03-04", "minutes": 30, "title": "Review"}');
  await pressRun(page, BUTTON);
  await expect(liveRegion(page)).toContainText('Reply: Booked "Review" on 2025-03-04 at 10:30');
  await expect(list.locator('li[data-kind="trigger"]')).toContainText(
    '“Book 30 minutes on 2025-03-04 for a review”',
  );
});

// What a run shows does not depend on the width: the behaviours that show a field's error are
// tried at 375 px, where that error has the least room, and the page must not scroll sideways.
test.describe(`at ${NARROW.label}`, () => {
  test.use({ viewport: { width: NARROW.width, height: NARROW.height } });

  test('a slot answer that does not match SlotRequest shows the error inline, naming the field [claim:exec-run-panel-bad-slot]', async ({
    page,
  }) => {
    await openAndRun(page, PATH, BUTTON);
    await openEditors(page);
    const slot = page.getByLabel(/^The model's answer to find-slot's getObject call/);
    await slot.fill('{"date": "next Tuesday", "minutes": 60}');
    await pressRun(page, BUTTON);
    await expect(slot).toHaveAttribute('aria-invalid', 'true');
    await expect(slot).toHaveAccessibleDescription(/^slot answer: date: /);
    await expect(liveRegion(page)).toContainText('Not run. slot answer: date');
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('the full-day preset: find-slot records the error, the review stops, status failed [claim:exec-run-panel-full-day]', async ({
    page,
  }) => {
    await openAndRun(page, PATH, BUTTON);
    await choosePreset(page, 'A step fails: an offsite fills the day, so find-slot finds nothing');
    await pressRun(page, BUTTON);
    await expect(liveRegion(page)).toContainText(
      'Task failed after 10 events. A step failed; the review answered stop.',
    );
    const list = events(page);
    await expect(list.locator('li[data-kind="step"]')).toHaveCount(1);
    await expect(list.locator('li[data-kind="step"]')).toContainText(
      'calendar.find-slot error: no free 60-minute slot on 2025-03-04',
    );
    await expect(list.locator('li[data-kind="review"]')).toContainText('Review: stop');
    await expect(list.locator('li[data-kind="status"]')).toHaveText(/Task failed$/);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });
});
