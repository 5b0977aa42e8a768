/**
 * The Run panel of docs/building-plugins/triggers.md, used as a reader would: it runs the issues
 * plugin (its route trigger's dispatch) and the heartbeat (its start trigger) in the page, with an
 * edited issue title, a plan answer missing a field and the preset whose step fails. The checks
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

const PATH = '/docs/building-plugins/triggers/';
const BUTTON = /^Run the triggers example/;

test('runs the issue through the route trigger, then an edited title [claim:trig-run-panel-runs] [claim:trig-run-panel-route] [claim:trig-run-panel-label]', async ({
  page,
}) => {
  await openAndRun(page, PATH, BUTTON);
  await expect(liveRegion(page)).toHaveText('Task completed after 7 events. Reply: #7: bug');
  const list = events(page);
  await expect(list.locator('li[data-kind="trigger"]')).toContainText(
    'issues.issue-opened in space repo-weft: “Crash on start”',
  );
  await expect(list.locator('li[data-kind="plan"]')).toContainText('issues.label');
  await expect(list.locator('li[data-kind="step"]')).toContainText('result: #7: bug');

  await openEditors(page);
  await page.getByLabel(/^The issue's title/).fill('How do I add a trigger?');
  await pressRun(page, BUTTON);
  await expect(liveRegion(page)).toContainText('Reply: #7: question');
  await expect(list.locator('li[data-kind="trigger"]')).toContainText('“How do I add a trigger?”');
});

// What a run shows does not depend on the width: the behaviours that show a field's error are
// tried at 375 px, where that error has the least room, and the page must not scroll sideways.
test.describe(`at ${NARROW.label}`, () => {
  test.use({ viewport: { width: NARROW.width, height: NARROW.height } });

  test('the start-trigger preset runs the heartbeat: its timer dispatches the task [claim:trig-run-panel-runs] [claim:trig-run-panel-heartbeat]', async ({
    page,
  }) => {
    await openAndRun(page, PATH, BUTTON);
    await choosePreset(page, "Start trigger: the heartbeat's timer dispatches (no message)");
    await pressRun(page, BUTTON);
    await expect(liveRegion(page)).toHaveText('Task completed after 7 events.');
    const list = events(page);
    await expect(list.locator('li[data-kind="trigger"]')).toHaveText(
      /heartbeat\.interval in space heartbeat$/,
    );
    await expect(list.locator('li[data-kind="step"]')).toContainText('heartbeat.tick result');
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('an invalid plan answer shows the schema error inline, naming the field', async ({
    page,
  }) => {
    await openAndRun(page, PATH, BUTTON);
    await openEditors(page);
    const plan = page.getByLabel("The model's plan answer (JSON)");
    await plan.fill('{"steps": [{"pluginId": "issues"}]}');
    await pressRun(page, BUTTON);
    await expect(plan).toHaveAttribute('aria-invalid', 'true');
    await expect(plan).toHaveAccessibleDescription(/^plan answer: steps\.0\.action: /);
    await expect(liveRegion(page)).toContainText('Not run. plan answer: steps.0.action');
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('the failing preset: the unknown step is an error, the review replaces it, status failed [claim:trig-run-panel-failing]', async ({
    page,
  }) => {
    await openAndRun(page, PATH, BUTTON);
    await choosePreset(
      page,
      'A step fails: the plan names issues.close, an action the plugin lacks',
    );
    await pressRun(page, BUTTON);
    await expect(liveRegion(page)).toContainText(
      'Task failed after 10 events. A step failed; the review answered replace.',
    );
    const steps = events(page).locator('li[data-kind="step"]');
    await expect(steps.first()).toContainText(
      'issues.close error: unknown step: plugin "issues" has no action "close"',
    );
    await expect(events(page).locator('li[data-kind="review"]')).toContainText(
      'Review: replace with issues.label',
    );
    await expect(steps.nth(1)).toContainText('issues.label result: #7: bug');
    await expect(events(page).locator('li[data-kind="status"]')).toHaveText(/Task failed$/);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });
});
