/**
 * What `@weft/testing` exports under the `browser` export condition, which bundlers choose for a
 * page, against what Node.js gets from the same import.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const testingDir = path.resolve(__dirname, '../../packages/testing');

describe('@weft/testing in a browser', () => {
  it('leaves out memoryProviderContract, INVALID_MEMORY_INPUTS and their types only [claim:stability-testing-browser-exports] [claim:tst-browser-build] [claim:testing-browser-build]', async () => {
    const manifest = JSON.parse(readFileSync(path.join(testingDir, 'package.json'), 'utf8')) as {
      exports: Record<string, { browser?: Record<string, string>; 'weft-source'?: string }>;
    };
    // The browser condition comes first and names its own entry; the others share index.ts.
    const entry = manifest.exports['.'];
    expect(Object.keys(entry ?? {})[0]).toBe('browser');
    expect(entry?.browser?.['weft-source']).toBe('./src/browser.ts');
    // Its declarations are the browser entry's own (checked in the tarball by tests/pack).
    expect(entry?.browser?.types).toBe('./dist/browser.d.ts');
    expect(entry?.['weft-source']).toBe('./src/index.ts');

    const node = Object.keys(await import('../../packages/testing/src/index'));
    const browser = Object.keys(await import('../../packages/testing/src/browser'));
    expect(browser.filter((name) => !node.includes(name))).toEqual([]);
    expect([...browser].sort()).toEqual([
      'InMemoryMemoryProvider',
      'ScriptedModelProvider',
      'WeftTestingError',
    ]);
    expect(node.filter((name) => !browser.includes(name)).sort()).toEqual([
      'INVALID_MEMORY_INPUTS',
      'memoryProviderContract',
    ]);
    // The types the browser entry leaves out, which the stability page names.
    const typesOf = (file: string): string[] =>
      [
        ...readFileSync(path.join(testingDir, 'src', file), 'utf8').matchAll(/\btype (\w+),?$/gm),
      ].map((match) => match[1] ?? '');
    const browserTypes = typesOf('browser.ts');
    const nodeOnlyTypes = typesOf('index.ts').filter((name) => !browserTypes.includes(name));
    expect(nodeOnlyTypes.sort()).toEqual([
      'InvalidMemoryInput',
      'MemoryContractCode',
      'MemoryProviderContractCase',
      'MemoryProviderContractFactory',
    ]);
    const page = readFileSync(path.resolve(__dirname, '../../docs/reference/stability.md'), 'utf8');
    for (const name of nodeOnlyTypes) expect(page).toContain(`\`${name}\``);
  });
});
