/**
 * The Run panel of docs/building-plugins/http-chat.md, used as a reader would: it posts the
 * page's chat body to the `ChatPlugin`'s route handler in the page, with a second message in the
 * same room, a user id the route refuses, a plan answer that is not JSON, the model-down preset,
 * and axe with a field refused. The checks every panel shares (keyboard, axe, layout, no request
 * leaving the site) are in run-panel-shared.spec.ts.
 */
import { expect, test } from '@playwright/test';
import {
  NARROW,
  choosePreset,
  events,
  liveRegion,
  openAndRun,
  openEditors,
  panelViolations,
  pressRun,
  sidewaysOverflow,
} from './support/run-panel';

const PATH = '/docs/building-plugins/http-chat/';
const BUTTON = /^Run the HTTP chat agent/;
const FIRST_REPLY =
  'Hello ada, you wrote “My name is Ada.” (the plan saw 0 earlier message(s) of room 42).';

test('posts to the chat route, shows the 200 answer, remembers the room, and a preset starts afresh [claim:httpchat-panel-runs] [claim:httpchat-panel-route] [claim:httpchat-panel-reply] [claim:httpchat-panel-memory]', async ({
  page,
}) => {
  await openAndRun(page, PATH, BUTTON);
  await expect(liveRegion(page)).toHaveText(`Task completed after 9 events. Reply: ${FIRST_REPLY}`);
  await expect(events(page).locator('li[data-kind="trigger"]')).toContainText(
    'chat.message in space chat-room-42-user-ada: “My name is Ada.”',
  );
  await expect(events(page).locator('li[data-kind="step"]')).toContainText('chat.reply result:');
  const answer = events(page).locator('li[data-kind="response"]');
  await expect(answer).toContainText('Route answered HTTP 200');
  await expect(answer).toContainText('"status": "completed"');
  await expect(events(page).locator('li[data-kind="status"]')).toContainText(
    `Task completed: reply “${FIRST_REPLY}”`,
  );

  // A second message, from the same user in the same room: the plan saw the first (another
  // user's plan would not: rooms are private unless shared).
  await openEditors(page);
  await page.getByLabel(/^Message/).fill('Who is here?');
  await pressRun(page, BUTTON);
  await expect(liveRegion(page)).toContainText(
    'Reply: Hello ada, you wrote “Who is here?” (the plan saw 1 earlier message(s) of room 42).',
  );

  // Choosing a preset starts afresh: no earlier message.
  await choosePreset(page, 'A step fails: the model does not write the reply');
  await choosePreset(page, 'The model plans chat.reply, then writes the reply');
  await pressRun(page, BUTTON);
  await expect(liveRegion(page)).toContainText('(the plan saw 0 earlier message(s) of room 42)');
});

// What a run shows does not depend on the width: the behaviours that show a field's error are
// tried at 375 px, where that error has the least room, and the page must not scroll sideways.
test.describe(`at ${NARROW.label}`, () => {
  test.use({ viewport: { width: NARROW.width, height: NARROW.height } });

  test('a user id the route refuses and a plan answer that is not JSON are named beside their fields [claim:httpchat-panel-refused]', async ({
    page,
  }) => {
    await openAndRun(page, PATH, BUTTON);
    await openEditors(page);
    const user = page.getByLabel('User', { exact: true });
    await user.fill('ada lovelace');
    await pressRun(page, BUTTON);
    await expect(user).toHaveAttribute('aria-invalid', 'true');
    await expect(user).toHaveAccessibleDescription(
      /^user: the route would answer 400 WEFT_CHAT_INVALID_REQUEST: .*"user" must be a user id/,
    );
    await expect(liveRegion(page)).toContainText('Not run. user: the route would answer 400');

    await user.fill('ada');
    const plan = page.getByLabel(/^The model's plan answer/);
    await plan.fill('{"steps": [');
    await pressRun(page, BUTTON);
    await expect(user).not.toHaveAttribute('aria-invalid', 'true');
    await expect(plan).toHaveAttribute('aria-invalid', 'true');
    await expect(plan).toHaveAccessibleDescription(/^plan answer: not valid JSON/);
    await expect(liveRegion(page)).toContainText('Not run. plan answer: not valid JSON');
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('the model-down preset: the reply step fails, the review stops, status failed, and the route answers 502 [claim:httpchat-panel-failing]', async ({
    page,
  }) => {
    await openAndRun(page, PATH, BUTTON);
    await choosePreset(page, 'A step fails: the model does not write the reply');
    await pressRun(page, BUTTON);
    await expect(liveRegion(page)).toContainText(
      'Task failed after 11 events. A step failed; the review answered stop.',
    );
    await expect(events(page).locator('li[data-kind="step"]')).toContainText(
      /chat\.reply error: .*The model did not answer \(the failing preset\)\./,
    );
    await expect(events(page).locator('li[data-kind="review"]')).toContainText('Review: stop');
    const answer = events(page).locator('li[data-kind="response"]');
    await expect(answer).toContainText('Route answered HTTP 502');
    await expect(answer).toContainText('WEFT_CHAT_NO_REPLY');
    await expect(answer).not.toContainText('the failing preset');
    await expect(events(page).locator('li[data-kind="status"]')).toHaveText(/Task failed$/);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });
});

test('axe finds nothing with the panel open, its events listed and a field refused', async ({
  page,
}) => {
  test.slow();
  await openAndRun(page, PATH, BUTTON);
  await openEditors(page);
  await page.getByLabel('Room', { exact: true }).fill('room 42');
  await pressRun(page, BUTTON);
  await expect(page.getByLabel('Room', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  expect(await panelViolations(page)).toEqual([]);
});
