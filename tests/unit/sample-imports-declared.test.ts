/**
 * The samples (examples/) and the reliability probe (bench/probe/) run from the root's install: their
 * own package.json files only make them ES modules. So the root package.json must declare every
 * package they import, or a sample works only while npm happens to hoist what it needs. ESLint's
 * n/no-extraneous-import checks the rest of the tree against each file's nearest package.json;
 * it would read the samples' own, so it is off for them (eslint.config.mjs) and this test holds
 * them to the root's.
 */
import { builtinModules } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const DIRS = ['examples', 'bench/probe'];

const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};
const declared = new Set([
  ...Object.keys(manifest.dependencies ?? {}),
  ...Object.keys(manifest.devDependencies ?? {}),
]);

/** The package a bare specifier names (`@weft/core/internal` → `@weft/core`); undefined for a path or a built-in. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) {
    return undefined;
  }
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
  return builtinModules.includes(name) ? undefined : name;
}

/** Each package imported under the directories, with the first file that imports it. */
function importedPackages(): Map<string, string> {
  const found = new Map<string, string>();
  for (const dir of DIRS) {
    const files = readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).filter(
      (file) => /\.(ts|mts|tsx|js|mjs)$/.test(file) && !file.includes('node_modules'),
    );
    for (const file of files) {
      const text = readFileSync(path.join(root, dir, file), 'utf8');
      for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
        const name = packageOf(fileName);
        if (name !== undefined && !found.has(name)) found.set(name, path.posix.join(dir, file));
      }
    }
  }
  return found;
}

describe('the packages the samples and the probe import', () => {
  it('reads a package name from a specifier', () => {
    expect(packageOf('@weft/core/internal')).toBe('@weft/core');
    expect(packageOf('zod')).toBe('zod');
    expect(packageOf('vitest/config')).toBe('vitest');
    expect(packageOf('node:fs')).toBeUndefined();
    expect(packageOf('fs')).toBeUndefined();
    expect(packageOf('./assistant-plugin.js')).toBeUndefined();
  });

  it('are each declared in the root package.json', () => {
    const imported = importedPackages();
    // The samples import the framework, zod and vitest at least; an empty scan would prove nothing.
    expect([...imported.keys()]).toEqual(expect.arrayContaining(['@weft/core', 'zod', 'vitest']));
    const undeclared = [...imported]
      .filter(([name]) => !declared.has(name))
      .map(([name, file]) => `${name} (imported by ${file})`);
    expect(undeclared, 'imported by a sample or the probe, not declared in package.json').toEqual(
      [],
    );
  });
});
