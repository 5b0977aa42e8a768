/**
 * The hover-type cache (src/remark/type-hovers/hover-cache.ts): a sample whose text and inputs
 * did not change is answered from disk without TypeScript, any change to its text is read
 * again, and the inputs' fingerprint follows what TypeScript reads (the packages' sources) and
 * not what it does not (their tests).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const cacheDir = mkdtempSync(path.join(tmpdir(), 'weft-hover-cache-'));
// Read by the cache when it is first used, below.
process.env.WEFT_HOVER_CACHE_DIR = cacheDir;

const { hoverInputsFingerprint } = await import('../../src/remark/type-hovers/hover-cache');
const { sampleTypes } = await import('../../src/remark/type-hovers/sample-types');
const { sampleHoverTypes } = await import('../support/sample-hover-types');

const root = path.resolve(__dirname, '../..');
const SAMPLE = 'examples/getting-started/scripted-model.ts';

afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

function entries(): string[] {
  return readdirSync(cacheDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

// The first answer builds a TypeScript program over every sample: seconds of work, more on a
// loaded machine. No claim here is about time.
describe('the hover-type cache', { timeout: 90_000 }, () => {
  it('answers an unchanged sample from disk, without asking TypeScript again [claim:contributing-hover-types-cache]', () => {
    const { code, hovers } = sampleHoverTypes(SAMPLE);
    expect(hovers.length).toBeGreaterThan(10);
    const [entry, ...others] = entries();
    expect(others).toEqual([]);
    // An answer TypeScript would never give: only the cache can return it.
    const planted = [{ start: 0, length: 6, text: 'planted by the test' }];
    writeFileSync(entry!, JSON.stringify(planted));
    expect(sampleTypes(code, path.join(root, SAMPLE))).toEqual(planted);
  });

  it('reads a sample again when its text changes [claim:contributing-hover-types-cache]', () => {
    const { code } = sampleHoverTypes(SAMPLE);
    const edited = `// An edit.\n${code}`;
    const hovers = sampleTypes(edited, path.join(root, SAMPLE));
    expect(hovers.map(({ text }) => text)).not.toContain('planted by the test');
    const first = hovers[0]!;
    expect(edited.slice(first.start, first.start + first.length)).toBe('ScriptedModelProvider');
    expect(entries()).toHaveLength(2);
  });
});

describe('the fingerprint of the inputs', () => {
  const site = mkdtempSync(path.join(tmpdir(), 'weft-hover-inputs-'));
  afterAll(() => rmSync(site, { recursive: true, force: true }));
  const write = (file: string, text: string): void => {
    mkdirSync(path.dirname(path.join(site, file)), { recursive: true });
    writeFileSync(path.join(site, file), text);
  };
  write('package-lock.json', '{}');
  write('examples/tsconfig.json', '{}');
  write('examples/demo.ts', 'export const a = 1;\n');
  write('packages/core/package.json', '{ "name": "@weft/core" }');
  write('packages/core/src/index.ts', 'export const b = 2;\n');
  write('packages/core/test/index.test.ts', 'it("is", () => {});\n');
  write('packages/tsconfig.base.json', '{}');
  write('examples/data/fixture.json', '{}');
  write('packages/core/src/messages.json', '{}');

  it("changes with a package's source, manifest or JSON, a sample or its JSON, the compiler options, the lockfile; not with a package's tests [claim:contributing-hover-types-cache]", () => {
    const before = hoverInputsFingerprint(site);
    write('packages/core/test/index.test.ts', 'it("is still", () => {});\n');
    expect(hoverInputsFingerprint(site)).toBe(before);
    for (const [file, text] of [
      ['packages/core/src/index.ts', 'export const b = 3;\n'],
      ['examples/demo.ts', 'export const a = 2;\n'],
      ['package-lock.json', '{ "lockfileVersion": 3 }'],
      ['packages/core/package.json', '{ "name": "@weft/core", "version": "0.2.0" }'],
      ['packages/core/src/messages.json', '{ "hello": "hi" }'],
      ['examples/data/fixture.json', '{ "a": 1 }'],
      ['examples/tsconfig.json', '{ "compilerOptions": { "strict": true } }'],
      ['packages/tsconfig.base.json', '{ "compilerOptions": { "strict": true } }'],
    ] as const) {
      const previous = hoverInputsFingerprint(site);
      write(file, text);
      expect({ file, changed: hoverInputsFingerprint(site) !== previous }).toEqual({
        file,
        changed: true,
      });
    }
  });
});
