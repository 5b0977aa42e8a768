/**
 * Keeps what a postBuild step wrote on the last build, and gives it back when a build's pages are
 * the same, instead of running the step again. The Markdown copies (about 4 s: every page's HTML
 * parsed into Markdown) and the search index (about 2 s: every page parsed, then indexed) use it.
 *
 * The key is a hash of everything such a step reads: every HTML page of the build and the
 * settings the caller passes (the step's versions and options, functions by their source).
 * Docusaurus names the entry script and stylesheet after their contents, so a change to any
 * component renames them in every page; those names are left out of the hash, because these
 * steps read the article, not the scripts. Any other change to a page is a miss, and the step
 * runs again over every page.
 *
 * Each cache lives in its own folder under .cache/ (beside the generated-asset stamps), which
 * `docusaurus clear` leaves alone; it holds one build's files.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** References to the build's hashed entry scripts and stylesheets. */
const ENTRY_ASSET = /\/assets\/(?:js|css)\/[^"'\s>]+\.(?:js|css)/g;

export interface OutputCacheInputs {
  /** The built site. */
  outDir: string;
  /** Anything else the outputs depend on (options, versions); serialised as JSON. */
  settings: unknown;
}

/** JSON in which functions appear as their source text, so a changed plugin misses. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'function' ? `function:${item.toString()}` : item,
  );
}

/** Files under `dir` that `accept` takes, as paths relative to it, in a stable order. */
export async function filesUnder(
  dir: string,
  accept: (file: string) => boolean,
): Promise<string[]> {
  const files = await readdir(dir, { recursive: true, withFileTypes: true });
  return files
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .filter(accept)
    .sort();
}

/**
 * A hash of files' names and contents: for settings that must change when the site's own code
 * that shapes an output changes, since that code is not in the options or versions.
 */
export function sourcesHash(files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(file).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** The cache key of a build: its pages without the entry asset names, and the settings. */
export async function outputCacheKey({ outDir, settings }: OutputCacheInputs): Promise<string> {
  const hash = createHash('sha256').update(stableJson(settings)).update('\0');
  for (const page of await filesUnder(outDir, (file) => file.endsWith('.html'))) {
    const html = await readFile(path.join(outDir, page), 'utf8');
    hash.update(page).update('\0').update(html.replace(ENTRY_ASSET, '')).update('\0');
  }
  return hash.digest('hex');
}

export interface OutputCache {
  /**
   * Writes the outputs into `outDir`: from the cache when the key matches, otherwise by running
   * `generate` and then storing what it added to `outDir` (files `isOutput` accepts).
   * Returns whether the cache was used.
   */
  restoreOrGenerate(generate: () => Promise<void>): Promise<boolean>;
}

export function outputCache(
  cacheDir: string,
  inputs: OutputCacheInputs,
  isOutput: (file: string) => boolean,
): OutputCache {
  const { outDir } = inputs;
  return {
    async restoreOrGenerate(generate) {
      const key = await outputCacheKey(inputs);
      const entry = path.join(cacheDir, key);
      if (existsSync(path.join(entry, '.complete'))) {
        const files = await filesUnder(entry, (file) => file !== '.complete');
        await Promise.all(
          files.map(async (file) => {
            await mkdir(path.dirname(path.join(outDir, file)), { recursive: true });
            await cp(path.join(entry, file), path.join(outDir, file));
          }),
        );
        return true;
      }
      const before = new Set(await filesUnder(outDir, isOutput));
      await generate();
      const outputs = (await filesUnder(outDir, isOutput)).filter((file) => !before.has(file));
      // Written under a temporary name and renamed, so an interrupted build leaves no
      // half-filled entry behind; the older entry is dropped.
      const staging = `${entry}.partial-${process.pid}`;
      await rm(staging, { recursive: true, force: true });
      await mkdir(staging, { recursive: true });
      for (const file of outputs) {
        await mkdir(path.dirname(path.join(staging, file)), { recursive: true });
        await cp(path.join(outDir, file), path.join(staging, file));
      }
      await writeFile(path.join(staging, '.complete'), `${outputs.length} files\n`);
      const older = (await readdir(cacheDir)).filter((name) => name !== path.basename(staging));
      await Promise.all(
        older.map((name) => rm(path.join(cacheDir, name), { recursive: true, force: true })),
      );
      await rename(staging, entry);
      return false;
    },
  };
}
