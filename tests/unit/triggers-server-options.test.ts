/**
 * Building plugins, Triggers, "Route triggers": the table of `options.server` shows every
 * server option with the default the server applies (the table's claim id is in this
 * test's title).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  SERVER_DEFAULTS,
  serverOptionsSchema,
} from '../../packages/core/src/server/server-options';
import { readPort } from '../../packages/create-weft/templates/base/src/env';
import { codeRows, readDoc } from './support/doc-tables';

/** The table's default cell as a value: `3000`, `'1mb'`, `[]`; "off" for an option that is off. */
function shownDefault(cell: string): unknown {
  if (cell === 'off') return undefined;
  const code = /^`([^`]+)`$/.exec(cell)?.[1];
  if (code === undefined) throw new Error(`unreadable default ${cell}`);
  if (/^\d+(\.\d+){3}$/.test(code)) return code;
  return JSON.parse(code.replace(/'/g, '"')) as unknown;
}

describe('the server options table of the triggers page', () => {
  const rows = codeRows(readDoc('building-plugins/triggers.md'));
  const names = Object.keys(serverOptionsSchema.shape);

  it('has a row for every server option, with the default the server applies [claim:trig-server-table]', () => {
    for (const name of names) {
      const row = rows.get(name);
      expect(row, `a row for ${name}`).toBeDefined();
      expect(shownDefault(row?.[0] ?? ''), name).toEqual(
        (SERVER_DEFAULTS as Record<string, unknown>)[name],
      );
    }
  });
});

describe('the default port', () => {
  it('is 3000 for an agent, which the docs site also takes: npm start gives Docusaurus no other port [claim:trouble-port-3000] [claim:testing-port-zero-runtime]', () => {
    expect(SERVER_DEFAULTS.port).toBe(3000);
    const manifest = JSON.parse(
      readFileSync(path.join(__dirname, '../../package.json'), 'utf8'),
    ) as {
      scripts: Record<string, string>;
    };
    // Docusaurus serves on 3000 unless told otherwise.
    expect(manifest.scripts.start).toContain('docusaurus start');
    expect(manifest.scripts.start).not.toMatch(/--port|PORT=/);
  });

  it('is 8787 for the agents of Getting started, the tutorial and a generated project [claim:trouble-examples-8787]', () => {
    const root = path.join(__dirname, '../..');
    const portOf = (file: string) =>
      /export const DEFAULT_PORT = (\d+);/.exec(readFileSync(path.join(root, file), 'utf8'))?.[1];
    expect(portOf('examples/getting-started/port.ts')).toBe('8787');
    expect(portOf('packages/create-weft/templates/base/src/port.ts')).toBe('8787');
    // The tutorial's CHAT_PORT falls back to the getting-started constant.
    const settings = readFileSync(path.join(root, 'examples/tutorial-chat/settings.ts'), 'utf8');
    expect(settings).toContain("import { DEFAULT_PORT } from '../getting-started/port.js';");
    expect(settings).toContain("read('CHAT_PORT', String(DEFAULT_PORT))");
  });

  it('follows PORT, for the docs site and for the agents of Getting started and a generated project alike [claim:trouble-port-env-both]', () => {
    const root = path.join(__dirname, '../..');
    // Docusaurus reads its default port from the environment when its utils load.
    const sitePort = (env: NodeJS.ProcessEnv) =>
      execFileSync(
        process.execPath,
        ['-e', "process.stdout.write(String(require('@docusaurus/utils').DEFAULT_PORT))"],
        { cwd: root, env, encoding: 'utf8' },
      );
    const { PORT: _unset, ...withoutPort } = process.env;
    expect(sitePort(withoutPort)).toBe('3000');
    expect(sitePort({ ...withoutPort, PORT: '4123' })).toBe('4123');
    expect(readPort({ PORT: '4123' })).toBe(4123);
    const main = readFileSync(path.join(root, 'examples/getting-started/main.ts'), 'utf8');
    expect(main).toContain('port: Number(process.env.PORT?.trim() || DEFAULT_PORT)');
  });
});
