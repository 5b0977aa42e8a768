/** The testing guide says the tools work under any test runner: nothing here imports one. */
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const RUNNERS = ['vitest', 'jest', '@jest/globals', 'mocha', 'ava', 'tap', 'node:test', 'uvu'];

describe('@weft/testing and test runners', () => {
  it('imports no test runner and declares none, and checks contracts with node:assert [claim:testing-no-runner-dependency]', async () => {
    const source = new URL('../src/', import.meta.url);
    const files = (await readdir(source)).filter((name) => name.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(0);
    const imported = new Set<string>();
    for (const name of files) {
      const text = await readFile(new URL(name, source), 'utf8');
      // Statements only, at the start of a line: the TSDoc examples import a runner, as a
      // user's test file would, and are not part of the module.
      for (const match of text.matchAll(/^(?:import|export)\b[^;]*?'([^']+)';/gms)) {
        imported.add(match[1] ?? '');
      }
      expect(text).not.toMatch(/\bimport\s*\(/);
    }
    expect([...imported].filter((specifier) => RUNNERS.includes(specifier))).toEqual([]);
    expect(imported).toContain('node:assert/strict');
    const manifest = JSON.parse(
      await readFile(new URL('../package.json', import.meta.url), 'utf8'),
    ) as { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
    const declared = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
    expect(declared.filter((name) => RUNNERS.includes(name))).toEqual([]);
  });
});
