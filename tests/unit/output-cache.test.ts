/**
 * The build-output cache (src/plugins/shared/output-cache.ts), as the Markdown copies use it: a build whose
 * pages only differ in the names of the entry script and stylesheet gets the last build's
 * copies back; any other change to a page, or to the settings, converts again.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outputCache, sourcesHash } from '../../src/plugins/shared/output-cache';

let root: string;
let outDir: string;
let cacheDir: string;

function page(scriptHash: string, article: string): string {
  return `<html><head><link rel=stylesheet href=/assets/css/styles.${scriptHash}.css><script src=/assets/js/main.${scriptHash}.js defer></script></head><body><article>${article}</article><img src=/assets/images/chart-0a1b2c.png></body></html>`;
}

/** A fresh build folder holding one page, as a build would leave it before the conversion. */
function build(scriptHash: string, article: string): void {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(path.join(outDir, 'docs', 'guide'), { recursive: true });
  writeFileSync(path.join(outDir, 'docs', 'guide', 'index.html'), page(scriptHash, article));
  writeFileSync(path.join(outDir, 'static-notes.md'), 'copied from static/, not an output');
}

const isOutput = (file: string) => file.endsWith('.md') || file === 'llms.txt';

/** Runs the cache with a converter that records its calls and writes what a real one would. */
async function convert(settings: unknown): Promise<{ converted: boolean }> {
  let converted = false;
  const cache = outputCache(cacheDir, { outDir, settings }, isOutput);
  await cache.restoreOrGenerate(async () => {
    converted = true;
    const html = readFileSync(path.join(outDir, 'docs', 'guide', 'index.html'), 'utf8');
    const article = /<article>(.*)<\/article>/.exec(html)?.[1] ?? '';
    writeFileSync(path.join(outDir, 'docs', 'guide.md'), `# ${article}\n`);
    writeFileSync(path.join(outDir, 'llms.txt'), `- [Guide](/docs/guide.md)\n`);
  });
  return { converted };
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'weft-md-cache-'));
  outDir = path.join(root, 'build');
  cacheDir = path.join(root, '.cache', 'markdown-copies');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('the Markdown copies cache', () => {
  it('converts on the first build and restores the same files on an identical one', async () => {
    build('aaaa1111', 'Weave');
    expect(await convert({ depth: 2 })).toEqual({ converted: true });
    build('aaaa1111', 'Weave');
    expect(await convert({ depth: 2 })).toEqual({ converted: false });
    expect(readFileSync(path.join(outDir, 'docs', 'guide.md'), 'utf8')).toBe('# Weave\n');
    expect(readFileSync(path.join(outDir, 'llms.txt'), 'utf8')).toBe('- [Guide](/docs/guide.md)\n');
  });

  it('ignores new names of the entry script and stylesheet [claim:cg-output-cache-key]', async () => {
    build('aaaa1111', 'Weave');
    await convert({ depth: 2 });
    build('bbbb2222', 'Weave');
    expect(await convert({ depth: 2 })).toEqual({ converted: false });
  });

  it('ignores a new name of any other script under /assets/, such as a route chunk a page preloads [claim:cg-output-cache-key]', async () => {
    build('aaaa1111', 'Weave<link rel=preload href=/assets/js/17896441.cccc3333.js as=script>');
    await convert({ depth: 2 });
    build('aaaa1111', 'Weave<link rel=preload href=/assets/js/17896441.dddd4444.js as=script>');
    expect(await convert({ depth: 2 })).toEqual({ converted: false });
  });

  it('converts again when an article changes [claim:cg-output-cache-key]', async () => {
    build('aaaa1111', 'Weave');
    await convert({ depth: 2 });
    build('aaaa1111', 'Weave, revised');
    expect(await convert({ depth: 2 })).toEqual({ converted: true });
    expect(readFileSync(path.join(outDir, 'docs', 'guide.md'), 'utf8')).toBe('# Weave, revised\n');
  });

  it('converts again when the settings change, functions compared by their source [claim:cg-output-cache-key]', async () => {
    build('aaaa1111', 'Weave');
    await convert({ plugins: [() => 'one'] });
    build('aaaa1111', 'Weave');
    expect(await convert({ plugins: [() => 'two'] })).toEqual({ converted: true });
    build('aaaa1111', 'Weave');
    expect(await convert({ plugins: [() => 'two'] })).toEqual({ converted: false });
  });

  it("hashes the site's own sources by name and contents, for the settings of a step they shape [claim:cg-output-cache-key]", () => {
    const first = path.join(root, 'shape.ts');
    const second = path.join(root, 'other.ts');
    writeFileSync(first, 'export const keep = 1;');
    writeFileSync(second, 'export const keep = 1;');
    const before = sourcesHash([first]);
    expect(sourcesHash([first])).toBe(before);
    expect(sourcesHash([second])).not.toBe(before);
    writeFileSync(first, 'export const keep = 2;');
    expect(sourcesHash([first])).not.toBe(before);
  });

  it('stores only what the conversion added, and only the latest build', async () => {
    build('aaaa1111', 'Weave');
    await convert({ depth: 2 });
    build('aaaa1111', 'Weave, revised');
    await convert({ depth: 2 });
    const entries = readdirSync(cacheDir);
    expect(entries).toHaveLength(1);
    const stored = readdirSync(path.join(cacheDir, entries[0] ?? ''), { recursive: true });
    expect(stored.sort()).toEqual(['.complete', 'docs', path.join('docs', 'guide.md'), 'llms.txt']);
    expect(existsSync(path.join(cacheDir, entries[0] ?? '', 'static-notes.md'))).toBe(false);
  });

  it('does not restore from an entry an interrupted build left unfinished', async () => {
    build('aaaa1111', 'Weave');
    await convert({ depth: 2 });
    const [entry] = readdirSync(cacheDir);
    rmSync(path.join(cacheDir, entry ?? '', '.complete'));
    build('aaaa1111', 'Weave');
    expect(await convert({ depth: 2 })).toEqual({ converted: true });
  });
});
