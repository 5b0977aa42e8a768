/**
 * The editor of the Run panels of Getting started, Executors, Triggers, the chat tutorial and HTTP
 * chat (src/components/RunPanel/editor/),
 * used as a reader would, at 1280 and 375 px: the executor's TypeScript edited in CodeMirror with
 * the keyboard and run, a syntax error shown with its line and column and no run, Reset, the
 * keyboard alone, axe with the editor open, no sideways scroll, and CodeMirror loaded only by the
 * edit button.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  NARROW,
  VIEWPORTS,
  choosePreset,
  events,
  liveRegion,
  openAndRun,
  openEditors,
  panelViolations,
  pressRun,
  runButton,
  sidewaysOverflow,
} from './support/run-panel';

const PATH = '/docs/getting-started/';
const RUN = /^Run the getting-started/;
const REPLY = 'You said "Hello, agent!". Your Weft agent is listening.';
const FILE = 'examples/getting-started/assistant-plugin.ts';
const readExample = (file: string) => readFileSync(path.resolve(__dirname, '../..', file), 'utf8');
const source = readExample(FILE);
const CALENDAR = readExample('examples/building-plugins/executors/calendar-plugin.ts');
const ISSUES = readExample('examples/building-plugins/triggers/issues-plugin.ts');
const HEARTBEAT = readExample('examples/building-plugins/triggers/heartbeat-plugin.ts');
const CONVERSATION = readExample('examples/tutorial-chat/conversation-plugin.ts');
const CHAT_PLUGIN = readExample('packages/plugin-chat/src/chat-plugin.ts');

const editButton = (page: Page) =>
  page.getByRole('button', { name: 'Edit the executor’s TypeScript' });
const code = (page: Page) =>
  page.getByRole('textbox', { name: "TypeScript of the example's plugin" });
const status = (page: Page) => events(page).locator('li[data-kind="status"]');

/**
 * Scrolls the page to the editor and the editor down until `text` is on screen, as a reader
 * looking for it would, and fails when it never is: CodeMirror draws only the lines near what the
 * window shows of it, so a line further down a long file is not in the page until then.
 */
async function scrollEditorTo(page: Page, text: string): Promise<void> {
  const scroller = code(page).locator('..');
  await expect
    .poll(() =>
      scroller.evaluate((element, wanted) => {
        if (element.textContent?.includes(wanted)) return true;
        element.scrollIntoView({ block: 'center' });
        element.scrollTop += element.clientHeight / 2;
        return false;
      }, text),
    )
    .toBe(true);
}

/** The file with one piece replaced; fails when the piece is not in it. */
function edited(from: string, to: string, text = source): string {
  expect(text).toContain(from);
  return text.replace(from, to);
}

/** Replaces the editor's text as a reader pasting would: focus, select all, insert. */
async function replaceCode(page: Page, text: string): Promise<void> {
  await code(page).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
}

async function openEditor(page: Page): Promise<void> {
  await openAndRun(page, PATH, RUN);
  await editButton(page).click();
  await expect(code(page)).toContainText('export class AssistantPlugin extends Plugin');
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.label}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('runs the executor as the reader edited it, then the file again after Reset [claim:gs-run-panel-code-editor] [claim:gs-run-panel-code-errors]', async ({
      page,
    }) => {
      await openEditor(page);
      await replaceCode(page, edited('message: text }', 'message: `Edited: ${text}` }'));
      await pressRun(page, RUN);
      await expect(liveRegion(page)).toContainText(`Reply: Edited: ${REPLY}`);
      await expect(status(page)).toContainText(`reply “Edited: ${REPLY}”`);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

      await page.getByRole('button', { name: 'Reset' }).click();
      await expect(code(page)).toContainText('message: text }');
      await expect(code(page)).not.toContainText('Edited: ');
      await pressRun(page, RUN);
      await expect(liveRegion(page)).toHaveText(`Task completed after 8 events. Reply: ${REPLY}`);
    });

    test('axe finds nothing with the editor open, and long lines scroll inside it', async ({
      page,
    }) => {
      test.slow();
      await openEditor(page);
      await replaceCode(page, `// ${'a long comment '.repeat(20)}\n${source}`);
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      const scroller = page.locator('[data-run-panel] .cm-scroller');
      expect(await scroller.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(
        true,
      );
      expect(await panelViolations(page)).toEqual([]);
    });
  });
}

// What a run shows does not depend on the width, only the layout does (the tests above check
// it at both): the other behaviours are tried at 375 px, where the panel's controls are narrowest.
test.describe(`at ${NARROW.label}`, () => {
  test.use({ viewport: { width: NARROW.width, height: NARROW.height } });

  test('a syntax error is shown under the editor with its line and column, and nothing runs [claim:gs-run-panel-code-imports] [claim:gs-run-panel-code-errors] [claim:cg-run-panel-editor-refusals]', async ({
    page,
  }) => {
    await openEditor(page);
    await replaceCode(page, edited("readonly id = 'assistant';", 'readonly id = ;'));
    await pressRun(page, RUN);
    await expect(code(page)).toHaveAttribute('aria-invalid', 'true');
    await expect(code(page)).toHaveAccessibleDescription(/^Line 8, column 17: Unexpected token/);
    await expect(liveRegion(page)).toHaveText(/^Not run\. Line 8, column 17: /);
    // The list still shows the run from before the edit.
    await expect(status(page)).toContainText(`reply “${REPLY}”`);
    await replaceCode(page, `import { readFileSync } from 'fs';\n${source}`);
    await pressRun(page, RUN);
    await expect(code(page)).toHaveAccessibleDescription(
      'The code imports "fs"; in the page it can import only "@weft/core".',
    );
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('Executors: the calendar edited to start the day at 11:00 books 11:00, zod and all [claim:exec-run-panel-editor-opens] [claim:exec-run-panel-editor-day-start] [claim:exec-run-panel-editor-imports]', async ({
    page,
  }) => {
    const button = /^Run the calendar agent/;
    await openAndRun(page, '/docs/building-plugins/executors/', button);
    await expect(liveRegion(page)).toContainText(
      'Reply: Booked "Release planning" on 2025-03-04 at 10:30',
    );
    await editButton(page).click();
    await expect(code(page)).toContainText('export class CalendarPlugin extends Plugin');
    await replaceCode(
      page,
      edited('const DAY_START = 9 * 60;', 'const DAY_START = 11 * 60;', CALENDAR),
    );
    await pressRun(page, button);
    await expect(liveRegion(page)).toContainText(
      'Reply: Booked "Release planning" on 2025-03-04 at 11:00',
    );
    await expect(events(page).locator('li[data-kind="step"]').first()).toContainText(
      'result: Free at 11:00 on 2025-03-04',
    );
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await replaceCode(page, `import { readFileSync } from 'fs';\n${CALENDAR}`);
    await pressRun(page, button);
    await expect(code(page)).toHaveAccessibleDescription(
      'The code imports "fs"; in the page it can import only "@weft/core", "zod".',
    );
  });

  test("Triggers: the issues plugin edited to call a slow start a bug; the heartbeat preset shows the heartbeat's file [claim:trig-run-panel-editor-opens] [claim:trig-run-panel-editor-slow-bug] [claim:trig-run-panel-editor-per-preset] [claim:trig-run-panel-editor-interval]", async ({
    page,
  }) => {
    const button = /^Run the triggers example/;
    await openAndRun(page, '/docs/building-plugins/triggers/', button);
    await page.getByRole('button', { name: 'Edit the plugin’s TypeScript' }).click();
    await expect(code(page)).toContainText('export class IssuesPlugin extends Plugin');
    await replaceCode(page, edited('/crash|error|broken/i', '/crash|error|broken|slow/i', ISSUES));
    await openEditors(page);
    await page.getByLabel(/^The issue's title/).fill('Slow start');
    await pressRun(page, button);
    await expect(liveRegion(page)).toContainText('Reply: #7: bug');
    await expect(events(page).locator('li[data-kind="step"]')).toContainText('result: #7: bug');

    await choosePreset(page, "Start trigger: the heartbeat's timer dispatches (no message)");
    await expect(code(page)).toContainText('export class HeartbeatPlugin extends Plugin');
    await expect(liveRegion(page)).toHaveText(
      'The editor shows examples/building-plugins/triggers/heartbeat-plugin.ts. Run runs your edits while it is open.',
    );
    await replaceCode(page, edited('intervalMs < 10', 'intervalMs < 1000', HEARTBEAT));
    await pressRun(page, button);
    await expect(code(page)).toHaveAccessibleDescription(
      'new HeartbeatPlugin(100) threw: Error: HeartbeatPlugin: intervalMs must be an integer of at least 10, got 100',
    );
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

    // Back to the route trigger: the reader's edit of the issues plugin is still there.
    await choosePreset(page, 'Route trigger: the webhook posts issue #7');
    await scrollEditorTo(page, '/crash|error|broken|slow/i');
    await expect(code(page)).not.toHaveAccessibleDescription(/threw/);
  });

  test('Chat tutorial: the plugin edited to show the writer one exchange; the third reply counts one earlier message [claim:tut-run-panel-editor-opens] [claim:tut-run-panel-editor-history] [claim:tut-run-panel-editor-imports]', async ({
    page,
  }) => {
    const button = /^Run the chat assistant/;
    await openAndRun(page, '/docs/tutorials/chat-assistant/', button);
    await expect(liveRegion(page)).toContainText('after 0 earlier message(s).');
    await page.getByRole('button', { name: 'Edit the plugin’s TypeScript' }).click();
    await expect(code(page)).toContainText('export class ConversationPlugin extends Plugin');
    await replaceCode(
      page,
      edited('options.historyTurns ?? 10', 'options.historyTurns ?? 1', CONVERSATION),
    );
    await pressRun(page, button);
    await expect(liveRegion(page)).toContainText(
      'Reply: You said "My name is Ada." after 1 earlier message(s).',
    );
    await openEditors(page);
    await page.getByLabel(/^Your message/).fill('What is my name?');
    await pressRun(page, button);
    // The file's own plugin would show the writer both earlier exchanges: "after 2".
    await expect(liveRegion(page)).toContainText(
      'Reply: You said "What is my name?" after 1 earlier message(s).',
    );
    await replaceCode(page, `import { z } from 'zod';\n${CONVERSATION}`);
    await pressRun(page, button);
    await expect(code(page)).toHaveAccessibleDescription(
      'The code imports "zod"; in the page it can import only "@weft/core", "./history.js".',
    );
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('HTTP chat: ChatPlugin’s source edited to a 10-character limit; the route answers 400 naming "message" [claim:httpchat-panel-editor-opens] [claim:httpchat-panel-editor-limit]', async ({
    page,
  }) => {
    const button = /^Run the HTTP chat agent/;
    await openAndRun(page, '/docs/building-plugins/http-chat/', button);
    await expect(liveRegion(page)).toContainText('Task completed');
    await page.getByRole('button', { name: 'Edit the plugin’s TypeScript' }).click();
    // CodeMirror renders only the lines in view: an import near the top shows the file is
    // ChatPlugin's source.
    const opening =
      "import { ChatAccess, chatSpace, type ChatAccessOptions } from './chat-access.js';";
    expect(CHAT_PLUGIN).toContain(opening);
    await expect(code(page)).toContainText(opening);
    await replaceCode(
      page,
      edited(
        ".max(8000, 'must be at most 8000 characters')",
        ".max(10, 'must be at most 10 characters')",
        CHAT_PLUGIN,
      ),
    );
    await pressRun(page, button);
    await expect(liveRegion(page)).toHaveText(
      'The run stopped: the route answered 400 without running a task',
    );
    const answer = events(page).locator('li[data-kind="response"]');
    await expect(answer).toContainText('Route answered HTTP 400');
    await expect(answer).toContainText(
      'Invalid chat request: \\"message\\" must be at most 10 characters.',
    );
    // The route refused the body before a task existed: no trigger, no model call.
    await expect(events(page).locator('li')).toHaveCount(1);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });
});

test('loads CodeMirror only when the edit button is pressed, not with the page or Run', async ({
  page,
}) => {
  const editorScripts: string[] = [];
  const reading: Promise<void>[] = [];
  page.on('response', (response) => {
    // Scripts the page runs. Docusaurus also prefetches route chunks through <link rel=prefetch>
    // (resource type "other"), whose bodies Chromium may not keep for response.text().
    if (!response.url().endsWith('.js') || response.request().resourceType() !== 'script') return;
    reading.push(
      response.text().then((text) => {
        // CodeMirror's base theme names its scrolling element; no other script of the site does.
        if (text.includes('.cm-scroller')) editorScripts.push(response.url());
      }),
    );
  });
  await openAndRun(page, PATH, RUN);
  await expect(events(page).locator('li[data-kind="status"]')).toBeVisible();
  await Promise.all(reading);
  expect(editorScripts).toEqual([]);
  await editButton(page).click();
  await expect(code(page)).toBeVisible();
  await Promise.all(reading);
  expect(editorScripts.length).toBeGreaterThan(0);
});

test('keyboard only: Tab reaches the edit button, Enter opens the editor, Tab enters and leaves it', async ({
  page,
}) => {
  await openAndRun(page, PATH, RUN);
  await runButton(page, RUN).focus();
  // The message's details, then the edit button.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(editButton(page)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(editButton(page)).toHaveAttribute('aria-expanded', 'true');
  await expect(code(page)).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(code(page)).toBeFocused();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type('\n// typed');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Reset' })).toBeFocused();
  await expect(code(page)).toContainText('// typed');
  // Tab moved the focus and typed no tab character.
  expect(await code(page).evaluate((element) => element.textContent?.includes('\t'))).toBe(false);
});
