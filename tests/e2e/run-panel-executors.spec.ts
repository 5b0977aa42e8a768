/**
 * The Run panel of docs/building-plugins/executors.md, used as a reader would: it runs the
 * calendar plugin in the page, at 1280 and 375 px, with an edited message and slot answer, a slot
 * answer that does not match SlotRequest, the full-day preset, the keyboard alone and axe.
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

const PATH = '/docs/building-plugins/executors/';
const BUTTON = /^Run the calendar agent/;
const BOOKED = 'Booked "Release planning" on 2025-03-04 at 10:30';

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.label}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('runs the calendar plugin, then an edited message and slot answer', async ({
      page,
      baseURL,
    }) => {
      const offSite = offSiteRequests(page, baseURL);
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
      await expectEveryEventTimed(page);

      await openEditors(page);
      await page.getByLabel('Incoming message').fill('Book 30 minutes on 2025-03-04 for a review');
      await page
        .getByLabel(/^The model's answer to find-slot's getObject call/)
        .fill('{"date": "2025-03-04", "minutes": 30, "title": "Review"}');
      await runButton(page, BUTTON).click();
      await expect(liveRegion(page)).toContainText('Reply: Booked "Review" on 2025-03-04 at 10:30');
      await expect(list.locator('li[data-kind="trigger"]')).toContainText(
        '“Book 30 minutes on 2025-03-04 for a review”',
      );
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      expect(offSite).toEqual([]);
    });
  });
}

// What a run shows does not depend on the width, only the layout does (the tests above check
// it at both): the other behaviours are tried at 375 px, where the panel's controls are narrowest.
test.describe(`at ${NARROW.label}`, () => {
  test.use({ viewport: { width: NARROW.width, height: NARROW.height } });

  test('a slot answer that does not match SlotRequest shows the error inline, naming the field', async ({
    page,
  }) => {
    await openAndRun(page, PATH, BUTTON);
    await openEditors(page);
    const slot = page.getByLabel(/^The model's answer to find-slot's getObject call/);
    await slot.fill('{"date": "next Tuesday", "minutes": 60}');
    await runButton(page, BUTTON).click();
    await expect(slot).toHaveAttribute('aria-invalid', 'true');
    await expect(slot).toHaveAccessibleDescription(/^slot answer: date: /);
    await expect(liveRegion(page)).toContainText('Not run. slot answer: date');
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('the full-day preset: find-slot records the error, the review stops, status failed', async ({
    page,
  }) => {
    await openAndRun(page, PATH, BUTTON);
    await choosePreset(page, 'A step fails: an offsite fills the day, so find-slot finds nothing');
    await runButton(page, BUTTON).click();
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

test('keyboard only: Tab reaches Run, Enter runs, the live region announces', async ({ page }) => {
  await page.goto(PATH);
  await waitForHydration(page);
  await runWithKeyboard(page, BUTTON, `Reply: ${BOOKED}`);
});

test('axe finds nothing with the panel open and its events listed', async ({ page }) => {
  test.slow();
  await openAndRun(page, PATH, BUTTON);
  await openEditors(page);
  expect(await panelViolations(page)).toEqual([]);
});
