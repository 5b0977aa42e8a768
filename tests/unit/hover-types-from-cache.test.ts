/**
 * The hover types in the build's Docusaurus process (src/remark/type-hovers): `npm run build`
 * reads the samples' types into the cache in a process beside Docusaurus (scripts/build-site.ts),
 * so there the rehype step answers each block from the cache, waiting for that process's entry
 * when it has not written it yet, and never loads the module that builds a TypeScript program
 * over the samples (./sample-types.ts, mocked here to record its loading).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Element, Root } from 'hast';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { VFile } from 'vfile';

const loaded = vi.hoisted(() => ({ sampleTypes: false }));
vi.mock('../../src/remark/type-hovers/sample-types', () => {
  loaded.sampleTypes = true;
  return {
    sampleTypes: () => {
      throw new Error('TypeScript was asked for the types of a sample');
    },
  };
});

const cacheDir = mkdtempSync(path.join(tmpdir(), 'weft-hover-build-'));
// Read by the cache when it is first used, below.
process.env.WEFT_HOVER_CACHE_DIR = cacheDir;

const { default: rehypeTypeHovers } = await import('../../src/remark/type-hovers');
const { hoverCache } = await import('../../src/remark/type-hovers/hover-cache');
const { decodeTypeHovers } = await import('../../src/remark/type-hovers/encoding');
const { TYPE_HOVERS_PROP } = await import('../../src/remark/type-hovers/prop');
const { HOVER_TYPES_PENDING_VARIABLE, HOVER_TYPES_WAIT_MS, typesReadBeside } =
  await import('../../src/remark/type-hovers/pending');

const siteDir = path.resolve(__dirname, '../..');
const SAMPLE = 'examples/getting-started/scripted-model.ts';

afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

/** Runs the rehype step over a page holding one block filled from `sample`, with `code` as its text. */
async function blockOf(sample: string, code: string): Promise<Element> {
  const element: Element = {
    type: 'element',
    tagName: 'code',
    properties: { className: ['language-ts'] },
    children: [{ type: 'text', value: code }],
    data: { meta: `title="${sample}" file=<rootDir>/${sample}` } as Element['data'],
  };
  const tree: Root = {
    type: 'root',
    children: [{ type: 'element', tagName: 'pre', properties: {}, children: [element] }],
  };
  await rehypeTypeHovers({ rootDir: siteDir })(
    tree,
    new VFile({ path: path.join(siteDir, 'docs/guide.md') }),
  );
  return element;
}

describe('the hover types in the Docusaurus process of a build', () => {
  it('come from the cache the build filled, without loading TypeScript for the samples [claim:cg-build-hover-types-beside]', async () => {
    const code = readFileSync(path.join(siteDir, SAMPLE), 'utf8');
    // What the build's first step (tooling/assets/generate-hover-types.ts) leaves in the cache.
    const planted = [{ start: 0, length: 6, text: 'planted by the test' }];
    hoverCache().write(path.join(siteDir, SAMPLE), code, planted);
    const block = await blockOf(SAMPLE, code);
    expect(decodeTypeHovers(String(block.properties[TYPE_HOVERS_PROP]))).toEqual(planted);
    expect(loaded.sampleTypes).toBe(false);
  });

  it("wait for the entry of the build's hover-types process while it runs, for up to two minutes [claim:cg-build-hover-types-beside]", async () => {
    expect(HOVER_TYPES_WAIT_MS).toBe(120_000);
    const marker = path.join(cacheDir, 'reading');
    writeFileSync(marker, '');
    process.env[HOVER_TYPES_PENDING_VARIABLE] = marker;
    try {
      const sample = 'examples/getting-started/read-beside.ts';
      const code = 'export const beside = 1;\n';
      const written = [{ start: 13, length: 6, text: 'written by the other process' }];
      const writing = new Promise<void>((resolve) =>
        setTimeout(() => {
          hoverCache().write(path.join(siteDir, sample), code, written);
          resolve();
        }, 300),
      );
      const block = await blockOf(sample, code);
      await writing;
      expect(decodeTypeHovers(String(block.properties[TYPE_HOVERS_PROP]))).toEqual(written);
      expect(loaded.sampleTypes).toBe(false);
    } finally {
      delete process.env[HOVER_TYPES_PENDING_VARIABLE];
      rmSync(marker, { force: true });
    }
  });

  it('read the types themselves once that process has ended without them [claim:cg-build-hover-types-beside]', async () => {
    const marker = path.join(cacheDir, 'reading');
    writeFileSync(marker, '');
    process.env[HOVER_TYPES_PENDING_VARIABLE] = marker;
    try {
      setTimeout(() => rmSync(marker, { force: true }), 200);
      await expect(
        blockOf('examples/getting-started/never-written.ts', 'export const never = 1;\n'),
      ).rejects.toThrow('TypeScript was asked for the types of a sample');
      expect(loaded.sampleTypes).toBe(true);
    } finally {
      delete process.env[HOVER_TYPES_PENDING_VARIABLE];
      rmSync(marker, { force: true });
    }
  });

  it('stop waiting for a process that is still running once the wait is over, so the block reads its types itself [claim:cg-build-hover-types-beside]', async () => {
    const marker = path.join(cacheDir, 'still-reading');
    writeFileSync(marker, '');
    try {
      const waitMs = 200;
      const started = Date.now();
      const found = await typesReadBeside(
        path.join(siteDir, 'examples/getting-started/never-written-either.ts'),
        'export const neverEither = 1;\n',
        marker,
        waitMs,
      );
      // The process still runs (its marker is there), yet the wait ended without its answer.
      expect(found).toBeUndefined();
      expect(Date.now() - started).toBeGreaterThanOrEqual(waitMs);
    } finally {
      rmSync(marker, { force: true });
    }
  });

  it('load it for a sample the cache lacks when no hover-types process runs', async () => {
    const code = 'export const lacking = 1;\n';
    await expect(blockOf('examples/getting-started/not-cached.ts', code)).rejects.toThrow(
      'TypeScript was asked for the types of a sample',
    );
    expect(loaded.sampleTypes).toBe(true);
  });
});
