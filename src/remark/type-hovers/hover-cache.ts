/**
 * Hover types kept on disk by content, so a build spends TypeScript's time only on what changed.
 *
 * A sample's types depend on its own text and on everything TypeScript reads to check it: the
 * packages' sources, the other samples, the compiler options, the installed libraries and
 * TypeScript itself. An entry's key is the hash of the sample's path and text, inside a folder
 * named by the hash of all those inputs (the fingerprint), so editing a page costs nothing, and
 * editing a sample (which the other samples may import) or a package's source re-reads every
 * sample once. The cache lives in `.cache/` at the site's root, beside the generated assets' stamps,
 * where `npx docusaurus clear` (which empties `node_modules/.cache`) leaves it. Folders of other
 * fingerprints are removed when a new one is written, so the cache holds one generation.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import type { TypeHover } from './sample-types';

const siteDir = path.resolve(__dirname, '../../..');

/** TypeScript's version, read from its package.json: loading TypeScript itself is slow. */
function typescriptVersion(): string {
  const manifest = require.resolve('typescript/package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** Where entries are kept; `WEFT_HOVER_CACHE_DIR` moves it (tests use a temporary folder). */
export function hoverCacheDir(): string {
  return process.env.WEFT_HOVER_CACHE_DIR ?? path.join(siteDir, '.cache', 'hover-types');
}

/** Files and folders whose contents decide the samples' types (relative to the site). */
const INPUT_FILES = [
  'package-lock.json',
  'tsconfig.strict.json',
  'packages/tsconfig.base.json',
  'examples/tsconfig.json',
  // This step's own code: a change to how types are read must not reuse old answers.
  'src/remark/type-hovers/sample-types.ts',
  'src/remark/type-hovers/hover-cache.ts',
];
const SOURCE_FILE = /\.(?:ts|tsx|mts|cts|json)$/;
// Installed and built files only: any other folder may hold a file a sample imports.
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist']);

function listSources(folder: string, into: string[]): void {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name) && !entry.name.startsWith('.')) {
        listSources(full, into);
      }
    } else if (entry.isFile() && SOURCE_FILE.test(entry.name)) {
      into.push(full);
    }
  }
}

/** The hash of every input a sample's types depend on, but the sample's own text. */
export function hoverInputsFingerprint(root: string = siteDir): string {
  const hash = createHash('sha256').update(`typescript ${typescriptVersion()}\n`);
  const files = INPUT_FILES.map((file) => path.join(root, file)).filter((file) => existsSync(file));
  // Every sample, and of each package what a sample can import: its sources and its manifest.
  listSources(path.join(root, 'examples'), files);
  for (const name of readdirSync(path.join(root, 'packages'))) {
    const pkg = path.join(root, 'packages', name);
    if (existsSync(path.join(pkg, 'src'))) {
      listSources(path.join(pkg, 'src'), files);
      files.push(path.join(pkg, 'package.json'));
    }
  }
  for (const file of files.sort()) {
    hash
      .update(`${path.relative(root, file)}\n`)
      .update(readFileSync(file))
      .update('\n');
  }
  return hash.digest('hex').slice(0, 24);
}

export interface HoverCache {
  read(file: string, code: string): TypeHover[] | undefined;
  write(file: string, code: string, hovers: readonly TypeHover[]): void;
}

function entryName(file: string, code: string): string {
  const key = createHash('sha256')
    .update(path.relative(siteDir, file))
    .update('\0')
    .update(code)
    .digest('hex');
  return `${key.slice(0, 32)}.json`;
}

function createHoverCache(): HoverCache {
  const root = hoverCacheDir();
  const folder = path.join(root, hoverInputsFingerprint());
  let pruned = false;
  return {
    read(file, code) {
      const entry = path.join(folder, entryName(file, code));
      try {
        return JSON.parse(readFileSync(entry, 'utf8')) as TypeHover[];
      } catch {
        // No entry yet, or one left half-written by a killed build: read the types again.
        return undefined;
      }
    },
    write(file, code, hovers) {
      if (!pruned) {
        pruned = true;
        if (existsSync(root)) {
          for (const name of readdirSync(root)) {
            const other = path.join(root, name);
            if (other !== folder && statSync(other).isDirectory()) {
              rmSync(other, { recursive: true, force: true });
            }
          }
        }
      }
      mkdirSync(folder, { recursive: true });
      const entry = path.join(folder, entryName(file, code));
      // Written aside, then renamed: a reader never sees half an entry.
      const partial = `${entry}.${process.pid}.partial`;
      writeFileSync(partial, JSON.stringify(hovers));
      renameSync(partial, entry);
    },
  };
}

let cache: HoverCache | undefined;

/** This process's cache; its fingerprint is taken once, when first asked for. */
export function hoverCache(): HoverCache {
  cache ??= createHoverCache();
  return cache;
}
