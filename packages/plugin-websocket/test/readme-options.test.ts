/**
 * The README's options table against the plugin's own defaults, so the page that says the README
 * "lists every option with its default" stays true when an option is added or a default moves.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WebSocketPlugin } from '../src/index.js';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

/** The rows of the table under `## Options`: the option's name and its Default cell. */
function optionRows(markdown: string): Map<string, string> {
  const section = markdown.split(/^## Options$/m)[1]?.split(/^#{2,3} /m)[0] ?? '';
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const name = /^`(\w+)`$/.exec(cells[1] ?? '')?.[1];
    if (name !== undefined) rows.set(name, cells[2] ?? '');
  }
  return rows;
}

/** A default as the README writes it: a number, a quoted string, `[]`, `false`; else as is. */
function written(value: unknown): string {
  if (typeof value === 'number') return `\`${value}\``;
  if (typeof value === 'string') return `\`'${value}'\``;
  if (Array.isArray(value) && value.length === 0) return '`[]`';
  return `\`${String(value)}\``;
}

describe('the README of @weft/plugin-websocket', () => {
  it('lists every option with the default the plugin takes [claim:wsdoc-readme-options]', () => {
    const rows = optionRows(README);
    const { authenticate, authorizeRoom, reauthenticateMs, ...defaults } = new WebSocketPlugin()
      .options;
    // The two hooks and the check again have no value by default: the README says what their
    // absence means.
    expect(authenticate).toBeUndefined();
    expect(authorizeRoom).toBeUndefined();
    expect(reauthenticateMs).toBeUndefined();
    expect([...rows.keys()].sort()).toEqual(
      [...Object.keys(defaults), 'authenticate', 'authorizeRoom', 'reauthenticateMs'].sort(),
    );
    for (const [name, value] of Object.entries(defaults)) {
      expect(rows.get(name), name).toBe(written(value));
    }
    expect(rows.get('authenticate')).toBe('none');
    expect(rows.get('authorizeRoom')).toBe('every room');
    expect(rows.get('reauthenticateMs')).toBe('none');
  });
});

describe('the Start section of the README', () => {
  it('names every package its sample imports that the install line leaves out [claim:wsreadme-start-packages]', () => {
    const start = README.split(/^## Start$/m)[1]?.split(/^## /m)[0] ?? '';
    const sample = /```ts\n([\s\S]*?)```/.exec(start)?.[1] ?? '';
    const imported = [...sample.matchAll(/from '([^']+)'/g)].map((match) => match[1] ?? '');
    const installLine = /```sh\n(npm install [^\n]*)\n```/.exec(README)?.[1] ?? '';
    const installed = installLine.split(' ').slice(2);
    expect(installed).toEqual(['@weft/core', '@weft/plugin-websocket']);
    const missing = imported.filter((name) => !installed.includes(name));
    expect(missing.sort()).toEqual(['@weft/memory-sqlite', '@weft/model-openai']);
    const sentence = start.split('```')[0] ?? '';
    for (const name of missing) expect(sentence).toContain(`\`${name}\``);
  });
});
