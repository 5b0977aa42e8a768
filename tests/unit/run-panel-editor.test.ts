/**
 * The loader behind the Run panel's editor (src/components/RunPanel/editor/load-plugin-source.ts),
 * on the file Getting started shows: the reader's TypeScript is transpiled, evaluated with only
 * `@weft/core` to import, and run through the getting-started run in place of the file's class.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as core from '@weft/core';
import { describe, expect, it } from 'vitest';
import { loadPluginSource } from '../../src/components/RunPanel/editor/load-plugin-source';
import { definition as gettingStarted } from '../../src/components/RunPanel/run-getting-started';
import type { PluginClass, RunEvent } from '../../src/components/RunPanel/run-support';

const FILE = 'examples/getting-started/assistant-plugin.ts';
const source = readFileSync(path.join(import.meta.dirname, '../..', FILE), 'utf8');
const REPLY = 'You said "Hello, agent!". Your Weft agent is listening.';

const load = (text: string) =>
  loadPluginSource(text, {
    exportName: gettingStarted.editable?.exportName ?? '',
    modules: { '@weft/core': core },
    base: core.Plugin,
  });

/** The source with one piece of it replaced, failing when the piece is not there. */
function edit(from: string, to: string): string {
  expect(source).toContain(from);
  return source.replace(from, to);
}

async function runWith(plugin: PluginClass | undefined) {
  const events: RunEvent[] = [];
  const input = await gettingStarted.initialInput('example');
  const task = await gettingStarted.run(input, (event) => events.push(event), undefined, plugin);
  return { task, last: events.at(-1) };
}

function loaded(text: string): PluginClass {
  const result = load(text);
  if (!result.ok) throw new Error(`expected the source to load: ${result.problem.message}`);
  return result.plugin;
}

describe('the Run panel editor: the getting-started plugin as the reader edits it', () => {
  it('offers the file the page shows, under its class name', () => {
    expect(gettingStarted.editable).toMatchObject({ file: FILE, exportName: 'AssistantPlugin' });
  });

  it('runs the unchanged source, with the scripted reply', async () => {
    const plugin = loaded(source);
    const { task, last } = await runWith(plugin);
    expect(task.status).toBe('completed');
    expect(last).toMatchObject({ kind: 'status', status: 'completed', reply: REPLY });
  });

  it('runs an executor edited to return another message, whose reply the task gives', async () => {
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

  it('names the line and column of a syntax error', () => {
    const broken = edit("readonly id = 'assistant';", 'readonly id = ;');
    const lines = broken.split('\n');
    const line = lines.findIndex((text) => text.includes('readonly id = ;')) + 1;
    const column = (lines[line - 1] ?? '').indexOf(';') + 1;
    const result = load(broken);
    expect(result).toMatchObject({ ok: false, problem: { kind: 'syntax', line, column } });
    if (result.ok) return;
    expect(result.problem.message).toMatch(new RegExp(`^Line ${line}, column ${column}: `));
  });

  it('refuses an import of another module, naming it', () => {
    const result = load(`import x from 'fs';\n${source}`);
    expect(result).toMatchObject({
      ok: false,
      problem: { kind: 'unknown-import', specifier: 'fs' },
    });
    if (!result.ok) expect(result.problem.message).toContain('"fs"');
  });

  it('names the export it expects when the source lacks it', () => {
    const result = load(edit('export class AssistantPlugin', 'export class HelperPlugin'));
    expect(result).toMatchObject({
      ok: false,
      problem: { kind: 'missing-export', exportName: 'AssistantPlugin' },
    });
    if (!result.ok) expect(result.problem.message).toContain('"AssistantPlugin"');
  });

  it('names what the constructor threw', () => {
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

  it('refuses an export that is not a plugin class', () => {
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
