/**
 * Skips regenerating build assets (PWA images, diagrams, whitepaper PDF, the API reference's
 * markdown) whose sources have not changed.
 *
 * A generator hashes its sources (its own script included, and the version of the library that
 * renders) and compares the hash with the stamp it wrote last time, in .cache/generated-assets/
 * (gitignored). It regenerates when the hash differs, when there is no stamp (a clean clone) or
 * when an output file is missing. `docusaurus clear` leaves the stamps alone, so a cold site
 * build does not redo this work.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const siteDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const stampDir = path.join(siteDir, '.cache', 'generated-assets');

export interface GeneratedAsset {
  /** Stamp file name, e.g. "pwa-assets". */
  name: string;
  /** Source files, relative to the site folder. */
  sources: readonly string[];
  /** npm packages whose version changes the output (read from their package.json). */
  packages: readonly string[];
  /** Files the generator writes, relative to the site folder. */
  outputs: readonly string[];
  /** Options the output depends on besides its files (hashed as JSON; functions are left out). */
  settings?: unknown;
}

/** Every file under a folder of the site, as paths relative to the site, in a stable order. */
export function filesUnder(folder: string): string[] {
  return readdirSync(path.join(siteDir, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(siteDir, path.join(entry.parentPath, entry.name)))
    .sort();
}

function sourceHash(asset: GeneratedAsset): string {
  const hash = createHash('sha256');
  for (const source of [...asset.sources, path.relative(siteDir, fileURLToPath(import.meta.url))]) {
    hash
      .update(source)
      .update('\0')
      .update(readFileSync(path.join(siteDir, source)))
      .update('\0');
  }
  for (const name of asset.packages) {
    const manifest = path.join(siteDir, 'node_modules', name, 'package.json');
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
    hash.update(`${name}@${version}\0`);
  }
  if (asset.settings !== undefined) {
    hash.update(JSON.stringify(asset.settings)).update('\0');
  }
  return hash.digest('hex');
}

const stampFile = (asset: GeneratedAsset): string => path.join(stampDir, `${asset.name}.sha256`);

/**
 * True when the outputs exist and the stamp says they were made from the current sources.
 * FORCE_GENERATE=true makes every asset stale.
 */
export function isGenerated(asset: GeneratedAsset, hash: string = sourceHash(asset)): boolean {
  const stamp = stampFile(asset);
  return (
    process.env.FORCE_GENERATE !== 'true' &&
    existsSync(stamp) &&
    readFileSync(stamp, 'utf8').trim() === hash &&
    asset.outputs.every((output) => existsSync(path.join(siteDir, output)))
  );
}

/** The hash of the asset's sources now, to record with {@link recordGenerated} after a run. */
export const currentSourceHash = (asset: GeneratedAsset): string => sourceHash(asset);

/** Records that the outputs were made from the sources whose hash is given. */
export function recordGenerated(asset: GeneratedAsset, hash: string): void {
  mkdirSync(stampDir, { recursive: true });
  writeFileSync(stampFile(asset), `${hash}\n`);
}

/** Forgets the stamp: the outputs are about to be rewritten by something that records none. */
export function forgetGenerated(asset: GeneratedAsset): void {
  rmSync(stampFile(asset), { force: true });
}

/**
 * Runs `generate` unless the outputs exist and were made from the same sources; records the
 * sources' hash after a successful run. Set FORCE_GENERATE=true to regenerate regardless.
 */
export async function generateIfChanged(
  asset: GeneratedAsset,
  generate: () => Promise<void>,
): Promise<void> {
  const hash = sourceHash(asset);
  if (isGenerated(asset, hash)) {
    console.log(`${asset.name}: sources unchanged, keeping the generated files.`);
    return;
  }
  await generate();
  recordGenerated(asset, hash);
}
