/**
 * The `@example` blocks of the package's TSDoc type-check against its sources, as the README's
 * samples do in tests/unit/readme-samples.test.ts.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { typeCheckModules } from '../../../tests/unit/support/type-check-modules.js';
const root = path.resolve(__dirname, '../../..');
const sources = path.resolve(__dirname, '../src');
let dir: string | undefined;

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The ```ts blocks inside `@example` tags of a source file, without the comment's stars. */
function examplesOf(source: string): string[] {
  return [...source.matchAll(/@example\s*\n\s*\*\s*```ts\n([\s\S]*?)\n\s*\*\s*```/g)].map((match) =>
    (match[1] ?? '')
      .split('\n')
      .map((line) => line.replace(/^\s*\* ?/, ''))
      .join('\n'),
  );
}

describe('@weft/plugin-mcp TSDoc examples', () => {
  it('type-check against the package', async () => {
    const examples: string[] = [];
    for (const file of (await readdir(sources)).filter((name) => name.endsWith('.ts'))) {
      examples.push(...examplesOf(await readFile(path.join(sources, file), 'utf8')));
    }
    expect(examples.length).toBeGreaterThan(0);
    // Inside the repository, so `@weft/*` resolve to the workspace packages.
    dir = await mkdtemp(path.join(root, '.tsdoc-mcp-'));
    const modules = new Map(examples.map((code, index) => [`example-${index + 1}`, code]));
    expect(await typeCheckModules(root, dir, modules)).toBe('');
  }, 120_000);
});
