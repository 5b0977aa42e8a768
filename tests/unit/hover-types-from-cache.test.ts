/**
 * The hover types in the build's Docusaurus process (src/remark/type-hovers): `npm run build`
 * reads every sample's types into the cache before Docusaurus starts (scripts/build-site.ts), so
 * there the rehype step answers each block from the cache and never loads the module that builds
 * a TypeScript program over the samples (./sample-types.ts, mocked here to record its loading).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
  it('come from the cache the build filled first, without loading TypeScript for the samples [claim:cg-build-hover-types-first]', async () => {
    const code = readFileSync(path.join(siteDir, SAMPLE), 'utf8');
    // What the build's first step (tooling/assets/generate-hover-types.ts) leaves in the cache.
    const planted = [{ start: 0, length: 6, text: 'planted by the test' }];
    hoverCache().write(path.join(siteDir, SAMPLE), code, planted);
    const block = await blockOf(SAMPLE, code);
    expect(decodeTypeHovers(String(block.properties[TYPE_HOVERS_PROP]))).toEqual(planted);
    expect(loaded.sampleTypes).toBe(false);
  });

  it('load it for a sample the cache lacks, which the build would have read first', async () => {
    const code = 'export const lacking = 1;\n';
    await expect(blockOf('examples/getting-started/not-cached.ts', code)).rejects.toThrow(
      'TypeScript was asked for the types of a sample',
    );
    expect(loaded.sampleTypes).toBe(true);
  });
});
