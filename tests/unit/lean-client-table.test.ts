/**
 * The lean client's one table (src/plugins/lean-client/rows.ts) drives both the plugin's Rspack
 * configuration and the contributing guide's section on it: a row added, changed or removed
 * reaches both, and neither keeps a row the table lacks.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { LoadContext } from '@docusaurus/types';
import { describe, expect, it } from 'vitest';
import pluginLeanClient from '../../src/plugins/lean-client';
import { LEAN_CLIENT_ROWS } from '../../src/plugins/lean-client/rows';
import {
  LEAN_CLIENT_SECTION_END,
  LEAN_CLIENT_SECTION_START,
} from '../../tooling/references/lean-client-table';
import { CONTRIBUTING_GUIDE, generatedReferences } from '../../tooling/references/generated-files';

const siteDir = '/site';
const generatedFilesDir = '/site/.docusaurus';

/** Stands in for Rspack's plugin class and records what it was given. */
class RecordedReplacement {
  constructor(
    readonly test: RegExp,
    readonly replacement: string,
  ) {}
}

interface Configured {
  resolve?: { alias?: Record<string, string> };
  module?: { rules?: { test: unknown; loader: string; enforce?: string }[] };
  plugins?: RecordedReplacement[];
}

function configure(isServer: boolean): Configured {
  const plugin = pluginLeanClient({ siteDir, generatedFilesDir } as LoadContext);
  const configureWebpack = plugin.configureWebpack as unknown as (
    config: { mode: string },
    isServer: boolean,
    utils: { currentBundler: { instance: { NormalModuleReplacementPlugin: unknown } } },
  ) => Configured;
  return configureWebpack({ mode: 'production' }, isServer, {
    currentBundler: { instance: { NormalModuleReplacementPlugin: RecordedReplacement } },
  });
}

const rowsFor = (isServer: boolean) =>
  LEAN_CLIENT_ROWS.filter((row) => row.bundle === 'both' || (row.bundle === 'server') === isServer);

describe('the lean client built from its rows [claim:cg-lean-client-rules-from-rows]', () => {
  it('has unique kebab-case ids', () => {
    const ids = LEAN_CLIENT_ROWS.map((row) => row.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it.each([false, true])(
    'isServer=%s: one replacement, alias or loader per row of that bundle',
    (isServer) => {
      const rows = rowsFor(isServer);
      const configured = configure(isServer);
      const expectedReplacements = rows.flatMap((row) =>
        row.rule.kind === 'replace-module'
          ? [{ test: row.rule.test, replacement: path.join(siteDir, row.rule.replacement) }]
          : [],
      );
      expect(
        (configured.plugins ?? []).map(({ test, replacement }) => ({ test, replacement })),
      ).toEqual(expectedReplacements);
      expect(configured.resolve?.alias ?? {}).toEqual(
        Object.fromEntries(
          rows.flatMap((row) =>
            row.rule.kind === 'alias'
              ? [[`${row.rule.request}$`, path.join(siteDir, row.rule.replacement)]]
              : [],
          ),
        ),
      );
      expect((configured.module?.rules ?? []).map((rule) => rule.loader)).toEqual(
        rows.flatMap((row) =>
          row.rule.kind === 'loader' ? [path.join(siteDir, row.rule.loader)] : [],
        ),
      );
    },
  );
});

describe("the guide's table of rows [claim:cg-lean-client-table-generated]", () => {
  it('lists every row, once, with its claims', () => {
    const guide = readFileSync(CONTRIBUTING_GUIDE, 'utf8');
    const start = guide.indexOf(`\n${LEAN_CLIENT_SECTION_START}\n`);
    const end = guide.indexOf(`\n${LEAN_CLIENT_SECTION_END}\n`);
    expect(start).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(start);
    const lines = guide.slice(start, end).split('\n');
    const tableRows = lines.filter((line) => /^\| `[a-z0-9-]+` +\|/.test(line));
    expect(tableRows).toHaveLength(LEAN_CLIENT_ROWS.length);
    for (const row of LEAN_CLIENT_ROWS) {
      const lines = tableRows.filter((line) => line.startsWith(`| \`${row.id}\` `));
      expect(lines, row.id).toHaveLength(1);
      for (const claim of row.claims ?? [])
        expect(lines[0], row.id).toContain(`<!-- claim: ${claim} -->`);
    }
  });

  it('is what npm run generate:references writes', async () => {
    const guide = (await generatedReferences()).find(({ file }) => file === CONTRIBUTING_GUIDE);
    expect(guide?.text).toBe(readFileSync(CONTRIBUTING_GUIDE, 'utf8'));
  });
});
