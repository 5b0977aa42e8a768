/**
 * The Run panel of Getting started, used as a reader would: it runs the getting-started agent
 * in the page (the example's plugin and scripted model, in-memory memory), with an edited message,
 * a bad model answer, the failing preset, a press made right after load, and offline from the
 * precache (with the plugin edited in the panel's editor). The checks every panel shares
 * (keyboard, axe, layout, no request leaving the site) are in run-panel-shared.spec.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { NARROW, pressRun } from './support/run-panel';
import { waitForHydration } from './support/shell';
import { copyBuild, startStaticServer } from './support/static-server';

const PATH = '/docs/getting-started/';
const REPLY = 'You said "Hello, agent!". Your Weft agent is listening.';

const RUN = /^Run the getting-started/;
// Pressed right after load, where the button is in view; after edits further down, pressRun.
const runButton = (page: Page) => page.getByRole('button', { name: RUN });
const liveRegion = (page: Page) => page.locator('[data-run-panel] [role="status"]');
const events = (page: Page) => page.getByRole('list', { name: 'What happened in the run' });

async function openEditors(page: Page): Promise<void> {
  const summary = page.getByText('Change the message and the model’s answers');
  if ((await summary.locator('..').getAttribute('open')) === null) await summary.click();
}

async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

test('runs the example, then an edited message [claim:gs-run-panel-runs] [claim:gs-run-panel-events] [claim:gs-run-panel-offline]', async ({
  page,
}) => {
  await page.goto(PATH);
  await waitForHydration(page);
  await runButton(page).click();
  await expect(liveRegion(page)).toHaveText(`Task completed after 8 events. Reply: ${REPLY}`);
  const list = events(page);
  await expect(list.locator('li')).toHaveCount(8);
  await expect(list.locator('li[data-kind="trigger"]')).toContainText('“Hello, agent!”');
  await expect(list.locator('li[data-kind="plan"]')).toContainText('assistant.reply');
  const call = list.locator('li[data-kind="model-call"]').first();
  await expect(call).toContainText('plan');
  // The answer has a visible label of its own, like the prompt before it, and shows open.
  await expect(call.locator('summary')).toHaveText(['Prompt', 'Answer']);
  await expect(call.getByText('Answer', { exact: true })).toBeVisible();
  await expect(call.getByRole('region', { name: 'Answer to plan' })).toBeVisible();
  await expect(list.locator('li[data-kind="memory"]')).toHaveCount(2);
  await expect(list.locator('li[data-kind="step"]')).toContainText(`result: ${REPLY}`);
  await expect(list.locator('li[data-kind="status"]')).toContainText('Task completed');

  await openEditors(page);
  await page.getByLabel('Incoming message').fill('What can you do?');
  await pressRun(page, RUN);
  await expect(liveRegion(page)).toContainText(
    'Reply: You said "What can you do?". Your Weft agent is listening.',
  );
  await expect(list.locator('li[data-kind="trigger"]')).toContainText('“What can you do?”');
});

// What a run shows does not depend on the width: the behaviours that show a field's error are
// tried at 375 px, where that error has the least room, and the page must not scroll sideways.
test.describe(`at ${NARROW.label}`, () => {
  test.use({ viewport: { width: NARROW.width, height: NARROW.height } });

  test('an invalid plan answer shows the schema error inline, naming the field [claim:gs-run-panel-edit] [claim:cg-run-panel-reader-edits]', async ({
    page,
  }) => {
    await page.goto(PATH);
    await waitForHydration(page);
    await runButton(page).click();
    await expect(liveRegion(page)).toContainText('Task completed');
    await openEditors(page);
    const plan = page.getByLabel("The model's plan answer (JSON)");
    await plan.fill('{"steps": [{"pluginId": "assistant"}]}');
    await pressRun(page, RUN);
    await expect(plan).toHaveAttribute('aria-invalid', 'true');
    await expect(plan).toHaveAccessibleDescription(/^plan answer: steps\.0\.action: /);
    await expect(liveRegion(page)).toContainText('Not run. plan answer: steps.0.action');
    await plan.fill('{"steps": [');
    await pressRun(page, RUN);
    await expect(plan).toHaveAccessibleDescription(/^plan answer: not valid JSON/);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('the failing preset shows the step error, the review, and status failed [claim:gs-run-panel-edit]', async ({
    page,
  }) => {
    await page.goto(PATH);
    await waitForHydration(page);
    await runButton(page).click();
    await expect(liveRegion(page)).toContainText('Task completed');
    await openEditors(page);
    await page
      .getByLabel('Preset')
      .selectOption({ label: "A step fails: the model does not answer the reply's call" });
    await pressRun(page, RUN);
    await expect(liveRegion(page)).toContainText('Task failed');
    const list = events(page);
    // The step's error is the model manager's, wrapping what the model call threw.
    await expect(list.locator('li[data-kind="step"]')).toContainText(
      /error: ModelManager: .*The model server did not answer \(the failing preset\)\./,
    );
    const review = list.locator('li[data-kind="model-call"]').filter({ hasText: 'review' });
    await expect(review).toContainText('"type": "stop"');
    await expect(list.locator('li[data-kind="status"]')).toHaveText(/Task failed$/);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });
});

// `npm run bench -- run-panel` repeats this visit, in fresh contexts, and times it.
test('a press right after load, in a fresh context, runs the agent', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    await page.goto(PATH);
    await runButton(page).click();
    await expect(liveRegion(page)).toContainText('Task completed');
  } finally {
    await context.close();
  }
});

test('runs offline once the offline mode has precached the site [claim:gs-run-panel-offline]', async ({
  page,
}) => {
  test.slow();
  const copy = copyBuild('weft-e2e-run-panel-');
  const server = await startStaticServer({ dir: copy.dir });
  try {
    await page.goto(`${server.url}?offlineMode=true`);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.waitForFunction(
      async () => {
        const names = await caches.keys();
        for (const name of names) {
          const keys = await (await caches.open(name)).keys();
          if (keys.some((request) => request.url.includes('/docs/getting-started/'))) return true;
        }
        return false;
      },
      undefined,
      { timeout: 60_000 },
    );
    // Offline mode stays on only while the query asks for it; a plain visit would register a
    // worker without the precache.
    await page.goto(`${server.url}docs/getting-started/?offlineMode=true`);
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated');
    await waitForHydration(page);
    await server.stop();
    await expect(page.request.get(server.url)).rejects.toThrow();
    await runButton(page).click();
    await expect(liveRegion(page)).toContainText(`Reply: ${REPLY}`);
    // The editor's chunks are precached with every other script, so it opens and runs offline too.
    await page.getByRole('button', { name: 'Edit the executor’s TypeScript' }).click();
    await page.getByRole('textbox', { name: "TypeScript of the example's plugin" }).click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText(
      readFileSync(
        path.resolve(__dirname, '../../examples/getting-started/assistant-plugin.ts'),
        'utf8',
      ).replace('message: text }', 'message: `Offline: ${text}` }'),
    );
    await pressRun(page, RUN);
    await expect(liveRegion(page)).toContainText(`Reply: Offline: ${REPLY}`);
  } finally {
    await server.stop().catch(() => undefined);
    copy.remove();
  }
});
