/**
 * The Run panel of docs/tutorials/chat-assistant.md, used as a reader would: it runs the
 * tutorial's conversation plugin with a scripted planner and writer in the page, at 1280 and
 * 375 px, with a second message in the same conversation, a review answer that is not JSON, the
 * writer-down preset, the keyboard alone and axe.
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

const PATH = '/docs/tutorials/chat-assistant/';
const BUTTON = /^Run the chat assistant/;
const FIRST_REPLY = 'You said "My name is Ada." after 0 earlier message(s).';

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.label}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('plans with the planner, answers with the writer, remembers the conversation, and a preset starts a new one', async ({
      page,
      baseURL,
    }) => {
      const offSite = offSiteRequests(page, baseURL);
      await openAndRun(page, PATH, BUTTON);
      await expect(liveRegion(page)).toHaveText(
        `Task completed after 8 events. Reply: ${FIRST_REPLY}`,
      );
      const calls = events(page).locator('li[data-kind="model-call"]');
      await expect(calls.first()).toContainText('plan to planner');
      await expect(calls.nth(1)).toContainText('reply to writer');
      await expect(events(page).locator('li[data-kind="step"]')).toContainText(
        `conversation.answer result: ${FIRST_REPLY}`,
      );
      await expectEveryEventTimed(page);

      await openEditors(page);
      await page.getByLabel(/^Your message/).fill('What is my name?');
      await runButton(page, BUTTON).click();
      await expect(liveRegion(page)).toContainText(
        'Reply: You said "What is my name?" after 1 earlier message(s).',
      );

      // Choosing a preset starts a new conversation: the writer sees no earlier message.
      await choosePreset(page, 'A step fails: the writer model does not answer');
      await choosePreset(page, 'The planner plans, the writer answers');
      await runButton(page, BUTTON).click();
      await expect(liveRegion(page)).toContainText(
        'Reply: You said "What is my name?" after 0 earlier message(s).',
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

  test('a review answer that is not JSON shows the error inline, naming the field', async ({
    page,
  }) => {
    await openAndRun(page, PATH, BUTTON);
    await openEditors(page);
    const review = page.getByLabel(/^The model's review answer/);
    await review.fill('{"type": "stop"');
    await runButton(page, BUTTON).click();
    await expect(review).toHaveAttribute('aria-invalid', 'true');
    await expect(review).toHaveAccessibleDescription(/^review answer: not valid JSON/);
    await expect(liveRegion(page)).toContainText('Not run. review answer: not valid JSON');
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('the writer-down preset: the answer step fails, the planner reviews and stops, status failed', async ({
    page,
  }) => {
    await openAndRun(page, PATH, BUTTON);
    await choosePreset(page, 'A step fails: the writer model does not answer');
    await runButton(page, BUTTON).click();
    await expect(liveRegion(page)).toContainText(
      'Task failed after 10 events. A step failed; the review answered stop.',
    );
    await expect(events(page).locator('li[data-kind="step"]')).toContainText(
      /conversation\.answer error: .*The writer model did not answer \(the failing preset\)\./,
    );
    await expect(
      events(page).locator('li[data-kind="model-call"]').filter({ hasText: 'review' }),
    ).toContainText('review to planner');
    await expect(events(page).locator('li[data-kind="status"]')).toHaveText(/Task failed$/);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });
});

test('keyboard only: Tab reaches Run, Enter runs, the live region announces', async ({ page }) => {
  await page.goto(PATH);
  await waitForHydration(page);
  await runWithKeyboard(page, BUTTON, `Reply: ${FIRST_REPLY}`);
});

test('axe finds nothing with the panel open and its events listed', async ({ page }) => {
  test.slow();
  await openAndRun(page, PATH, BUTTON);
  await openEditors(page);
  expect(await panelViolations(page)).toEqual([]);
});
