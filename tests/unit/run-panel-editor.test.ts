/**
 * The loader behind the Run panel's editor (src/components/RunPanel/editor/load-plugin-source.ts),
 * on the files Getting started, Executors, Triggers and the chat tutorial show, and on the source of
 * `@weft/plugin-chat`'s `ChatPlugin`, which the HTTP chat page runs: the reader's TypeScript is
 * transpiled, evaluated with only `@weft/core` (and, for the calendar, zod) to import, and run
 * through the example's run in place of the file's class.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorDocsUrl, unstorableText } from '@weft/core/internal';
import * as zod from 'zod';
import * as history from '../../examples/tutorial-chat/history';
import * as chatAccess from '../../packages/plugin-chat/src/chat-access';
import * as chatReply from '../../packages/plugin-chat/src/chat-reply';
import * as chatErrors from '../../packages/plugin-chat/src/errors';
import { editedPluginLoader } from '../../src/components/RunPanel/editor/edited-plugin-loader';
import { WRITER_ID, definition as chat } from '../../src/components/RunPanel/examples/chat/run';
import { definition as executors } from '../../src/components/RunPanel/examples/executors/run';
import { definition as gettingStarted } from '../../src/components/RunPanel/examples/getting-started/run';
import { definition as httpChat } from '../../src/components/RunPanel/examples/http-chat/run';
import {
  HEARTBEAT_INTERVAL_MS,
  definition as triggers,
} from '../../src/components/RunPanel/examples/triggers/run';
import { checkAnswers } from '../../src/components/RunPanel/run/answers';
import {
  editableFor,
  type PluginClass,
  type RunDefinition,
  type RunEvent,
} from '../../src/components/RunPanel/run/definition';

const FILE = 'examples/getting-started/assistant-plugin.ts';
const readExample = (file: string) =>
  readFileSync(path.join(import.meta.dirname, '../..', file), 'utf8');
const source = readExample(FILE);
const REPLY = 'You said "Hello, agent!". Your Weft agent is listening.';

const loadGettingStarted = editedPluginLoader();
const load = (text: string) =>
  loadGettingStarted(text, editableFor(gettingStarted, 'example')?.exportName ?? '');

/** The text with one piece of it replaced, failing when the piece is not there. */
function replaced(text: string, from: string, to: string): string {
  expect(text).toContain(from);
  return text.replace(from, to);
}
const edit = (from: string, to: string) => replaced(source, from, to);

async function runOf(
  definition: RunDefinition,
  plugin: PluginClass | undefined,
  preset = 'example',
) {
  const events: RunEvent[] = [];
  const input = await definition.initialInput(preset);
  const task = await definition.run(input, (event) => events.push(event), undefined, plugin);
  return { task, events, last: events.at(-1) };
}
const runWith = (plugin: PluginClass | undefined) => runOf(gettingStarted, plugin);

function loaded(text: string, loader = load): PluginClass {
  const result = loader(text);
  if (!result.ok) throw new Error(`expected the source to load: ${result.problem.message}`);
  return result.plugin;
}

describe('the Run panel editor: the getting-started plugin as the reader edits it', () => {
  it('offers the file the page shows, under its class name [claim:cg-run-panel-editable]', () => {
    expect(gettingStarted.editable).toMatchObject({ file: FILE, exportName: 'AssistantPlugin' });
  });

  it('runs the unchanged source, with the scripted reply', async () => {
    const plugin = loaded(source);
    const { task, last } = await runWith(plugin);
    expect(task.status).toBe('completed');
    expect(last).toMatchObject({ kind: 'status', status: 'completed', reply: REPLY });
  });

  it('runs an executor edited to return another message, whose reply the task gives [claim:gs-run-panel-code-editor] [claim:cg-run-panel-constructor-args]', async () => {
    const plugin = loaded(
      edit('message: text }', 'message: `Edited in the page: ${text.toUpperCase()}` }'),
    );
    const { last } = await runWith(plugin);
    expect(last).toMatchObject({
      status: 'completed',
      reply: `Edited in the page: ${REPLY.toUpperCase()}`,
    });
    // The file's own class still answers as before.
    expect((await runWith(undefined)).last).toMatchObject({ reply: REPLY });
  });

  it('names the line and column of a syntax error [claim:gs-run-panel-code-errors] [claim:cg-run-panel-editor-refusals]', () => {
    const broken = edit("readonly id = 'assistant';", 'readonly id = ;');
    const lines = broken.split('\n');
    const line = lines.findIndex((text) => text.includes('readonly id = ;')) + 1;
    const column = (lines[line - 1] ?? '').indexOf(';') + 1;
    const result = load(broken);
    expect(result).toMatchObject({ ok: false, problem: { kind: 'syntax', line, column } });
    if (result.ok) return;
    expect(result.problem.message).toMatch(new RegExp(`^Line ${line}, column ${column}: `));
  });

  it('refuses an import of another module, naming it [claim:gs-run-panel-code-imports] [claim:cg-run-panel-editor-refusals]', () => {
    const result = load(`import x from 'fs';\n${source}`);
    expect(result).toMatchObject({
      ok: false,
      problem: { kind: 'unknown-import', specifier: 'fs' },
    });
    if (!result.ok) expect(result.problem.message).toContain('"fs"');
  });

  it('names the export it expects when the source lacks it [claim:cg-run-panel-editor-refusals]', () => {
    const result = load(edit('export class AssistantPlugin', 'export class HelperPlugin'));
    expect(result).toMatchObject({
      ok: false,
      problem: { kind: 'missing-export', exportName: 'AssistantPlugin' },
    });
    if (!result.ok) expect(result.problem.message).toContain('"AssistantPlugin"');
  });

  it('names what the constructor threw [claim:cg-run-panel-editor-refusals]', () => {
    const result = load(
      edit(
        "readonly id = 'assistant';",
        "readonly id = 'assistant';\n  constructor() { super(); throw new Error('not today'); }",
      ),
    );
    expect(result).toMatchObject({
      ok: false,
      problem: { kind: 'construction', message: 'new AssistantPlugin() threw: Error: not today' },
    });
  });

  it('refuses an export that is not a plugin class [claim:cg-run-panel-editor-refusals]', () => {
    expect(load('export const AssistantPlugin = 1;')).toMatchObject({
      ok: false,
      problem: { kind: 'not-a-plugin' },
    });
    expect(load('export class AssistantPlugin {}')).toMatchObject({
      ok: false,
      problem: { kind: 'not-a-plugin' },
    });
  });
});

describe('the Run panel editor: the calendar plugin of Executors as the reader edits it', () => {
  const CALENDAR = 'examples/building-plugins/executors/calendar-plugin.ts';
  const calendar = readExample(CALENDAR);
  // The modules src/components/RunPanel/examples/executors/editor.ts gives the loader: the file imports zod.
  const loadExecutors = editedPluginLoader({ zod });
  const loadCalendar = (text: string) =>
    loadExecutors(text, editableFor(executors, 'example')?.exportName ?? '');

  it('offers the file the Executors page shows, under its class name [claim:exec-run-panel-editor-opens]', () => {
    expect(executors.editable).toMatchObject({ file: CALENDAR, exportName: 'CalendarPlugin' });
  });

  it('runs the unchanged source, zod import and all, and books 10:30 [claim:exec-run-panel-editor-imports] [claim:cg-run-panel-editable] [claim:cg-run-panel-constructor-args]', async () => {
    const { task, last } = await runOf(executors, loaded(calendar, loadCalendar));
    expect(task.status).toBe('completed');
    expect(last).toMatchObject({ reply: 'Booked "Release planning" on 2025-03-04 at 10:30' });
  });

  it("runs a day edited to start at 11:00, which books 11:00, with the preset's bookings [claim:exec-run-panel-editor-day-start]", async () => {
    const plugin = loaded(
      replaced(calendar, 'const DAY_START = 9 * 60;', 'const DAY_START = 11 * 60;'),
      loadCalendar,
    );
    const { events, last } = await runOf(executors, plugin);
    expect(events.find((event) => event.kind === 'step')).toMatchObject({
      action: 'find-slot',
      text: 'Free at 11:00 on 2025-03-04',
    });
    expect(last).toMatchObject({ reply: 'Booked "Release planning" on 2025-03-04 at 11:00' });
    // The failing preset's offsite still fills the edited day: the run passed its bookings.
    expect((await runOf(executors, plugin, executors.failingPreset)).task.status).toBe('failed');
  });

  it("checks the slot answer against the file's SlotRequest, not an edited one [claim:exec-run-panel-editor-schema]", async () => {
    const input = await executors.initialInput('example');
    const longMeeting = {
      ...input,
      answers: {
        ...input.answers,
        slot: '{"date": "2025-03-04", "minutes": 600, "title": "Offsite"}',
      },
    };
    expect(checkAnswers(executors.answerFields, longMeeting)).toMatchObject([{ field: 'slot' }]);
  });

  it('refuses an import of another module, naming the two it allows [claim:exec-run-panel-editor-imports]', () => {
    const result = loadCalendar(`import { readFileSync } from 'fs';\n${calendar}`);
    expect(result).toMatchObject({
      ok: false,
      problem: { kind: 'unknown-import', specifier: 'fs' },
    });
    if (!result.ok) {
      expect(result.problem.message).toBe(
        'The code imports "fs"; in the page it can import only "@weft/core", "zod".',
      );
    }
  });
});

describe('the Run panel editor: the two plugins of Triggers, one per preset', () => {
  const ISSUES = 'examples/building-plugins/triggers/issues-plugin.ts';
  const HEARTBEAT = 'examples/building-plugins/triggers/heartbeat-plugin.ts';
  const issues = readExample(ISSUES);
  const heartbeat = readExample(HEARTBEAT);
  // src/components/RunPanel/examples/triggers/editor-*.ts give the loader no module besides @weft/core.
  const loadTriggers = editedPluginLoader();
  const loadFor = (preset: string) => (text: string) => {
    const editable = editableFor(triggers, preset);
    if (!editable) throw new Error(`no editable plugin for the preset "${preset}"`);
    return loadTriggers(text, editable.exportName, editable.constructorArgs);
  };
  const titled = async (preset: string, message: string, plugin: PluginClass | undefined) => {
    const events: RunEvent[] = [];
    const input = { ...(await triggers.initialInput(preset)), message };
    const task = await triggers.run(input, (event) => events.push(event), undefined, plugin);
    return { task, events, last: events.at(-1) };
  };

  it('offers the issues plugin for the route-trigger presets and the heartbeat for the start trigger [claim:trig-run-panel-editor-opens]', () => {
    for (const preset of ['issue', triggers.failingPreset]) {
      expect(editableFor(triggers, preset)).toMatchObject({
        file: ISSUES,
        exportName: 'IssuesPlugin',
      });
    }
    expect(editableFor(triggers, 'heartbeat')).toMatchObject({
      file: HEARTBEAT,
      exportName: 'HeartbeatPlugin',
      constructorArgs: [HEARTBEAT_INTERVAL_MS],
    });
  });

  it('runs the issues plugin edited to call a slow start a bug [claim:trig-run-panel-editor-slow-bug]', async () => {
    const unchanged = await titled('issue', 'Slow start', loaded(issues, loadFor('issue')));
    expect(unchanged.last).toMatchObject({ status: 'completed', reply: '#7: question' });
    const plugin = loaded(
      replaced(issues, '/crash|error|broken/i', '/crash|error|broken|slow/i'),
      loadFor('issue'),
    );
    const { events, last } = await titled('issue', 'Slow start', plugin);
    expect(events.find((event) => event.kind === 'step')).toMatchObject({ text: '#7: bug' });
    expect(last).toMatchObject({ status: 'completed', reply: '#7: bug' });
  });

  it("runs the heartbeat as edited, constructed with the panel's interval, its timer dispatching [claim:trig-run-panel-editor-interval] [claim:cg-run-panel-constructor-args]", async () => {
    const plugin = loaded(
      replaced(
        heartbeat,
        'data: { at: task.createdAt.toISOString() },',
        "data: { at: task.createdAt.toISOString() },\n        message: 'Digest sent',",
      ),
      loadFor('heartbeat'),
    );
    const { events, task } = await titled('heartbeat', '', plugin);
    expect(task.status).toBe('completed');
    expect(events.find((event) => event.kind === 'trigger')).toMatchObject({
      pluginId: 'heartbeat',
    });
    expect(events.find((event) => event.kind === 'step')).toMatchObject({
      action: 'tick',
      text: 'Digest sent',
    });
  });

  it('refuses an import of zod, naming the one module it allows [claim:trig-run-panel-editor-imports]', () => {
    const result = loadFor('issue')(`import { z } from 'zod';\n${issues}`);
    expect(result).toMatchObject({
      ok: false,
      problem: { kind: 'unknown-import', specifier: 'zod' },
    });
    if (!result.ok) {
      expect(result.problem.message).toBe(
        'The code imports "zod"; in the page it can import only "@weft/core".',
      );
    }
  });

  it('names the arguments of a heartbeat whose constructor refuses them [claim:trig-run-panel-editor-interval]', () => {
    const result = loadFor('heartbeat')(
      replaced(heartbeat, 'intervalMs < 10', 'intervalMs < 1000'),
    );
    expect(result).toMatchObject({ ok: false, problem: { kind: 'construction' } });
    if (!result.ok) {
      expect(result.problem.message).toBe(
        `new HeartbeatPlugin(${HEARTBEAT_INTERVAL_MS}) threw: Error: HeartbeatPlugin: intervalMs must be an integer of at least 10, got ${HEARTBEAT_INTERVAL_MS}`,
      );
    }
  });
});

describe('the Run panel editor: the chat tutorial’s conversation plugin', () => {
  const CONVERSATION = 'examples/tutorial-chat/conversation-plugin.ts';
  const conversation = readExample(CONVERSATION);
  // The modules src/components/RunPanel/examples/chat/editor.ts gives the loader: the file imports its history reader.
  const loadChat = editedPluginLoader({ './history.js': history });
  const loadConversation = (text: string) =>
    loadChat(text, editableFor(chat, 'example')?.exportName ?? '', [{ writerProvider: WRITER_ID }]);

  /** The replies of `count` runs of one conversation (one panel session). */
  async function replies(plugin: PluginClass | undefined, count: number): Promise<unknown[]> {
    const session = chat.newSession?.();
    const input = await chat.initialInput('example');
    const found: unknown[] = [];
    for (let run = 0; run < count; run += 1) {
      const events: RunEvent[] = [];
      await chat.run(input, (event) => events.push(event), session, plugin);
      const last = events.at(-1);
      found.push(last?.kind === 'status' ? last.reply : undefined);
    }
    return found;
  }

  it("offers the file the tutorial shows, constructed with createChatAgent's options [claim:tut-run-panel-editor-opens] [claim:tut-run-panel-editor-options]", () => {
    expect(editableFor(chat, 'example')).toMatchObject({
      file: CONVERSATION,
      exportName: 'ConversationPlugin',
      constructorArgs: [{ writerProvider: WRITER_ID }],
    });
  });

  it('runs a plugin edited to show the writer one exchange: the third reply counts one earlier message [claim:tut-run-panel-editor-history]', async () => {
    const said = 'You said "My name is Ada." after';
    expect(await replies(loaded(conversation, loadConversation), 3)).toEqual([
      `${said} 0 earlier message(s).`,
      `${said} 1 earlier message(s).`,
      `${said} 2 earlier message(s).`,
    ]);
    const plugin = loaded(
      replaced(conversation, 'options.historyTurns ?? 10', 'options.historyTurns ?? 1'),
      loadConversation,
    );
    expect((await replies(plugin, 3)).at(-1)).toBe(`${said} 1 earlier message(s).`);
  });

  it('refuses an import of another module, naming the core and the history reader [claim:tut-run-panel-editor-imports]', () => {
    const result = loadConversation(`import { z } from 'zod';\n${conversation}`);
    expect(result).toMatchObject({
      ok: false,
      problem: { kind: 'unknown-import', specifier: 'zod' },
    });
    if (!result.ok) {
      expect(result.problem.message).toBe(
        'The code imports "zod"; in the page it can import only "@weft/core", "./history.js".',
      );
    }
  });
});

describe('the Run panel editor: ChatPlugin on the HTTP chat page, from the package source', () => {
  const CHAT_PLUGIN = 'packages/plugin-chat/src/chat-plugin.ts';
  const chatPlugin = readExample(CHAT_PLUGIN);
  // The modules src/components/RunPanel/examples/http-chat/editor.ts gives the loader: the file's own imports.
  const loadHttpChat = editedPluginLoader({
    '@weft/core/internal': { errorDocsUrl, unstorableText },
    zod,
    './chat-access.js': chatAccess,
    './chat-reply.js': chatReply,
    './errors.js': chatErrors,
  });
  const loadChatPlugin = (text: string) =>
    loadHttpChat(text, editableFor(httpChat, 'example')?.exportName ?? '', [{ path: '/chat' }]);

  it('offers the package source of ChatPlugin, constructed as the page’s createChatPlugin does [claim:httpchat-panel-editor-opens] [claim:httpchat-panel-editor-options]', () => {
    expect(editableFor(httpChat, 'example')).toMatchObject({
      file: CHAT_PLUGIN,
      exportName: 'ChatPlugin',
      constructorArgs: [{ path: '/chat' }],
    });
  });

  it('runs the unchanged source: the route answers 200 with the scripted reply [claim:httpchat-panel-editor-imports]', async () => {
    const { task, events } = await runOf(httpChat, loaded(chatPlugin, loadChatPlugin));
    expect(task.status).toBe('completed');
    const response = events.find((event) => event.kind === 'response');
    expect(response).toMatchObject({ status: 200 });
    expect(events.at(-1)).toMatchObject({
      kind: 'status',
      reply:
        'Hello ada, you wrote “My name is Ada.” (the plan saw 0 earlier message(s) of room 42).',
    });
  });

  it('runs a message limit edited to 10 characters: the route answers 400 naming "message", and no task or model call happens [claim:httpchat-panel-editor-limit] [claim:httpchat-panel-editor-check]', async () => {
    const plugin = loaded(
      replaced(
        chatPlugin,
        ".max(8000, 'must be at most 8000 characters')",
        ".max(10, 'must be at most 10 characters')",
      ),
      loadChatPlugin,
    );
    const events: RunEvent[] = [];
    const input = await httpChat.initialInput('example');
    // The panel's own check of the fields is the package's, which the edit does not change.
    expect(httpChat.checkInput?.(input)).toEqual([]);
    await expect(
      httpChat.run(input, (event) => events.push(event), undefined, plugin),
    ).rejects.toThrow('the route answered 400 without running a task');
    const response = events.find((event) => event.kind === 'response');
    expect(response?.kind === 'response' && JSON.parse(response.body)).toMatchObject({
      error: {
        status: 400,
        code: 'WEFT_CHAT_INVALID_REQUEST',
        message: 'Invalid chat request: "message" must be at most 10 characters.',
      },
    });
    expect(events.map((event) => event.kind)).toEqual(['response']);
  });

  it('offers exactly the helpers of @weft/core/internal the file imports, errorDocsUrl and unstorableText [claim:httpchat-panel-editor-imports]', () => {
    const internalNames = (text: string) =>
      /import \{([^}]*)\} from '@weft\/core\/internal';/
        .exec(text)?.[1]
        ?.split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '')
        .sort();
    const editor = readExample('src/components/RunPanel/examples/http-chat/editor.ts');
    expect(internalNames(chatPlugin)).toEqual(['errorDocsUrl', 'unstorableText']);
    expect(internalNames(editor)).toEqual(['errorDocsUrl', 'unstorableText']);
    expect(editor).toContain("'@weft/core/internal': { errorDocsUrl, unstorableText },");
  });

  it('refuses an import of another module, naming the six the file may import [claim:httpchat-panel-editor-imports]', () => {
    const result = loadChatPlugin(`import { pino } from 'pino';\n${chatPlugin}`);
    expect(result).toMatchObject({
      ok: false,
      problem: { kind: 'unknown-import', specifier: 'pino' },
    });
    if (!result.ok) {
      expect(result.problem.message).toBe(
        'The code imports "pino"; in the page it can import only "@weft/core", "@weft/core/internal", "zod", "./chat-access.js", "./chat-reply.js", "./errors.js".',
      );
    }
  });

  it('names the path a constructor edited to refuse it was given [claim:httpchat-panel-editor-options]', () => {
    const result = loadChatPlugin(
      replaced(chatPlugin, "!path.startsWith('/')", "!path.startsWith('/api/')"),
    );
    expect(result).toMatchObject({ ok: false, problem: { kind: 'construction' } });
    if (!result.ok) {
      expect(result.problem.message).toBe(
        'new ChatPlugin({"path":"/chat"}) threw: ChatPluginError: ChatPlugin: option "path" must start with "/", got "/chat". [WEFT_CHAT_INVALID_OPTIONS]',
      );
    }
  });
});
