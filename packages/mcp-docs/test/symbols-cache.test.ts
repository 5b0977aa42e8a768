/**
 * The symbols the generator keeps between runs (scripts/symbols-cache.ts): made from every
 * package's sources and the TypeDoc options, and, once a bundle has been generated, kept for the
 * same sources, equal to what the bundle carries.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isGenerated } from '@weft-internal/generated-assets/stamp';
import type { DocsBundle } from '../src/bundle.js';
import { SYMBOLS_CACHE, symbolsAsset, type Symbols } from '../scripts/symbols-cache.js';
import { repositoryBundle, ROOT_DIR } from './support.js';

describe('the symbols kept between runs', () => {
  it('are made again when any package source, manifest or the TypeDoc options change', () => {
    const { sources, packages } = symbolsAsset(ROOT_DIR);
    for (const file of [
      'packages/core/src/index.ts',
      'packages/core/src/runtime/runtime.ts',
      'packages/plugin-mcp/src/connection.ts',
      'packages/testing/package.json',
      'packages/tsconfig.base.json',
      'libs/docs-model/typedoc.ts',
      'packages/mcp-docs/scripts/api-symbols.ts',
    ]) {
      expect(sources, file).toContain(file);
    }
    expect(sources.some((file) => file.includes('/test/'))).toBe(false);
    expect(packages).toEqual(expect.arrayContaining(['typedoc', 'typescript']));
  });

  it('are kept, for the sources as they are, once a bundle is generated, and are what it carries', async () => {
    const bundle = JSON.parse(await readFile(await repositoryBundle(), 'utf8')) as DocsBundle;
    expect(isGenerated(symbolsAsset(ROOT_DIR))).toBe(true);
    const kept = JSON.parse(await readFile(join(ROOT_DIR, SYMBOLS_CACHE), 'utf8')) as Symbols;
    expect(kept.symbols).toEqual(bundle.symbols);
    expect(kept.apiPages.length).toBeGreaterThan(0);
  }, 300_000);
});
