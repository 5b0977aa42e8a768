/**
 * Every row of the lean client (src/plugins/lean-client/rows.ts) still finds what it reaches
 * into: a module path its pattern matches, an import it relies on. A rule that stops matching
 * fails silently (the build succeeds and the bytes or milliseconds it saved come back), so after
 * an upgrade this test names the row to revisit. The cases come from the rows themselves; the
 * table "The lean client's rows" in docs/contributing-guide.md is generated from the same rows.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEAN_CLIENT_ROWS, type GuardedFile } from '../../src/plugins/lean-client/rows';

const siteDir = path.resolve(__dirname, '../..');

/** The file on disk, as the row names it. */
function located(file: GuardedFile): string {
  if (!('package' in file)) return path.join(siteDir, file.file);
  const packageDir = path.join(siteDir, 'node_modules', file.package);
  if ('file' in file) return path.join(packageDir, file.file);
  return createRequire(path.join(packageDir, 'package.json')).resolve(file.resolve);
}

const guarded = LEAN_CLIENT_ROWS.flatMap((row) =>
  row.guard ? [{ ...row, guard: row.guard }] : [],
);

describe('the Docusaurus internals lean-client rows reach into [claim:cg-lean-client-rules-from-rows]', () => {
  it('every row that changes what Docusaurus wrote has a guard', () => {
    const unguarded = LEAN_CLIENT_ROWS.filter(
      (row) => !row.guard && row.rule.kind !== 'client-module',
    ).map((row) => row.id);
    expect(unguarded).toEqual([]);
    expect(guarded.length).toBeGreaterThan(0);
  });

  it.each(guarded)('$id: the code it relies on is still there', ({ id, rule, guard }) => {
    expect(guard.contains.length + (guard.matches?.length ?? 0), id).toBeGreaterThan(0);
    const pattern = 'test' in rule && rule.test instanceof RegExp ? rule.test : undefined;
    for (const { in: file, text } of guard.contains) {
      const where = located(file);
      const source = readFileSync(where, 'utf8');
      if (typeof text === 'string') expect(source, `${id}: ${where}`).toContain(text);
      else expect(source, `${id}: ${where}`).toMatch(text);
    }
    for (const file of guard.matches ?? []) {
      const where = located(file);
      expect(existsSync(where) || existsSync(`${where}.js`), `${id}: ${where} exists`).toBe(true);
      expect(pattern?.test(where), `${id}: its pattern matches ${where}`).toBe(true);
    }
    for (const request of guard.requests ?? []) {
      expect(pattern?.test(request), `${id}: its pattern matches the request ${request}`).toBe(
        true,
      );
    }
  });
});
