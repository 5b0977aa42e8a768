/**
 * The `get_api_symbol` records and the core's API pages, kept in `.cache/` between runs. Two
 * TypeDoc conversions make them, most of the generator's time, and `npm test` generates a bundle
 * several times from the same sources: they are made again only when what they are made from
 * changes (the stamps of libs/generated-assets).
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { API_TSCONFIG } from '@weft-internal/docs-model/typedoc';
import {
  currentSourceHash,
  filesUnder,
  isGenerated,
  recordGenerated,
  type GeneratedAsset,
} from '@weft-internal/generated-assets/stamp';
import type { ApiSymbol } from '../src/bundle.js';

/** Where the symbols are kept, relative to the repository's root. */
export const SYMBOLS_CACHE = '.cache/mcp-docs/symbols.json';

export interface Symbols {
  symbols: ApiSymbol[];
  /** The core's API pages, as their copies' paths in the site build. */
  apiPages: string[];
}

/**
 * What the symbols are made from, relative to `rootDir`: every package's sources, manifest and
 * compiler settings, the TypeDoc options, the code that turns TypeDoc's answer into records, and
 * the versions of TypeDoc and TypeScript.
 */
export function symbolsAsset(rootDir: string): GeneratedAsset {
  const packages = readdirSync(join(rootDir, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `packages/${entry.name}`);
  const sources = packages.flatMap((folder) =>
    [
      ...filesUnder(`${folder}/src`),
      ...readdirSync(join(rootDir, folder))
        .filter((name) => name === 'package.json' || /^tsconfig.*\.json$/.test(name))
        .map((name) => `${folder}/${name}`),
    ].sort(),
  );
  return {
    name: 'mcp-docs-symbols',
    sources: [
      ...sources,
      'packages/tsconfig.base.json',
      API_TSCONFIG,
      'libs/docs-model/typedoc.ts',
      'packages/mcp-docs/scripts/api-symbols.ts',
      'packages/mcp-docs/scripts/generate-data.ts',
      'packages/mcp-docs/scripts/symbols-cache.ts',
    ],
    packages: ['typedoc', 'typedoc-plugin-markdown', 'typescript'],
    outputs: [SYMBOLS_CACHE],
  };
}

/** The symbols kept for the current sources, or those `make` makes (then kept). */
export async function cachedSymbols(
  rootDir: string,
  make: () => Promise<Symbols>,
): Promise<Symbols> {
  const asset = symbolsAsset(rootDir);
  const hash = currentSourceHash(asset);
  const file = join(rootDir, SYMBOLS_CACHE);
  if (isGenerated(asset, hash) && existsSync(file)) {
    return JSON.parse(readFileSync(file, 'utf8')) as Symbols;
  }
  const made = await make();
  mkdirSync(dirname(file), { recursive: true });
  // Written aside, then renamed: a run beside this one never reads half a file.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify(made));
  renameSync(partial, file);
  recordGenerated(asset, hash);
  return made;
}
