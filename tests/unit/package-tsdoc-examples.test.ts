/**
 * The `@example` blocks in the TSDoc of every first-party package except the core (whose
 * examples tests/unit/tsdoc-examples.test.ts type-checks and runs through TypeDoc) type-check
 * against the packages' sources, each as a module of its own, as the README samples do in
 * tests/unit/readme-samples.test.ts. An editor shows these examples on hover, so one that does
 * not compile (a missing import, a renamed option) misleads as much as a wrong sentence.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { typeCheckModules } from './support/type-check-modules.js';

const root = path.resolve(__dirname, '../..');
let dir: string | undefined;

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The ```ts blocks inside `@example` tags of a source file, without the comment's stars. */
export function examplesOf(source: string): string[] {
  return [...source.matchAll(/@example\s*\n\s*\*\s*```ts\n([\s\S]*?)\n\s*\*\s*```/g)].map((match) =>
    (match[1] ?? '')
      .split('\n')
      .map((line) => line.replace(/^\s*\* ?/, ''))
      .join('\n'),
  );
}

/** Every `.ts` file under a directory, recursively. */
async function sourceFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const files = await Promise.all(
    entries.map((entry) => {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) return sourceFiles(full);
      return Promise.resolve(entry.name.endsWith('.ts') ? [full] : []);
    }),
  );
  return files.flat();
}

describe('TSDoc examples of the packages other than the core', () => {
  it('reads an example out of its comment', () => {
    const source = '/**\n * Hi.\n *\n * @example\n * ```ts\n * const a = 1;\n *   a;\n * ```\n */';
    expect(examplesOf(source)).toEqual(['const a = 1;\n  a;']);
  });

  it('type-check against the packages, each example as one module [claim:tsdoc-scripted-fallback-purpose] [claim:cg-tsdoc-checks]', async () => {
    const packages = (await readdir(path.join(root, 'packages'), { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() && entry.name !== 'core')
      .map((entry) => entry.name)
      .sort();
    const modules = new Map<string, string>();
    for (const name of packages) {
      const files = await sourceFiles(path.join(root, 'packages', name, 'src')).catch(() => []);
      for (const file of files.sort()) {
        examplesOf(await readFile(file, 'utf8')).forEach((code, index) => {
          modules.set(`${name}-${path.basename(file, '.ts')}-${index + 1}`, code);
        });
      }
    }
    expect(modules.size).toBeGreaterThanOrEqual(9);
    // Inside the repository, so `@weft/*` resolve to the workspace packages.
    dir = await mkdtemp(path.join(root, '.tsdoc-packages-'));
    expect(await typeCheckModules(root, dir, modules)).toBe('');
  }, 180_000);
});
