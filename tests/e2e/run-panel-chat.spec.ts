/**
 * The Run panel of docs/tutorials/chat-assistant.md, used as a reader would: it runs the
 * tutorial's conversation plugin with a scripted planner and writer in the page, with a second
 * message in the same conversation, a review answer that is not JSON and the writer-down preset.
 * The checks every panel shares (keyboard, axe, layout, no request leaving the site) are in
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

const PATH = '/docs/tutorials/chat-assistant/';
const BUTTON = /^Run the chat assistant/;
const FIRST_REPLY = 'You said "My name is Ada." after 0 earlier message(s).';

test('plans with the planner, answers with the writer, remembers the conversation, and a preset starts a new one [claim:tut-run-panel-runs] [claim:tut-run-panel-conversation]', async ({
  page,
}) => {
  await openAndRun(page, PATH, BUTTON);
  await expect(liveRegion(page)).toHaveText(`Task completed after 8 events. Reply: ${FIRST_REPLY}`);
  const calls = events(page).locator('li[data-kind="model-call"]');
  await expect(calls.first()).toContainText('plan to planner');
  await expect(calls.nth(1)).toContainText('reply to writer');
  await expect(events(page).locator('li[data-kind="step"]')).toContainText(
    `conversation.answer result: ${FIRST_REPLY}`,
  );

  await openEditors(page);
  await page.getByLabel(/^Your message/).fill('What is my name?');
  await pressRun(page, BUTTON);
  await expect(liveRegion(page)).toContainText(
    'Reply: You said "What is my name?" after 1 earlier message(s).',
  );

  // Choosing a preset starts a new conversation: the writer sees no earlier message.
  await choosePreset(page, 'A step fails: the writer model does not answer');
  await choosePreset(page, 'The planner plans, the writer answers');
  await pressRun(page, BUTTON);
  await expect(liveRegion(page)).toContainText(
    'Reply: You said "What is my name?" after 0 earlier message(s).',
  );
});

// What a run shows does not depend on the width: the behaviours that show a field's error are
// tried at 375 px, where that error has the least room, and the page must not scroll sideways.
test.describe(`at ${NARROW.label}`, () => {
  test.use({ viewport: { width: NARROW.width, height: NARROW.height } });

  test('a review answer that is not JSON shows the error inline, naming the field', async ({
    page,
  }) => {
    await openAndRun(page, PATH, BUTTON);
    await openEditors(page);
    const review = page.getByLabel(/^The model's review answer/);
    await review.fill('{"type": "stop"');
    await pressRun(page, BUTTON);
    await expect(review).toHaveAttribute('aria-invalid', 'true');
    await expect(review).toHaveAccessibleDescription(/^review answer: not valid JSON/);
    await expect(liveRegion(page)).toContainText('Not run. review answer: not valid JSON');
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('the writer-down preset: the answer step fails, the planner reviews and stops, status failed [claim:tut-run-panel-failing]', async ({
    page,
  }) => {
    await openAndRun(page, PATH, BUTTON);
    await choosePreset(page, 'A step fails: the writer model does not answer');
    await pressRun(page, BUTTON);
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
