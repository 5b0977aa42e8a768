/**
 * `npm run build`: the generated assets (tooling/assets/generate-assets.ts), then
 * `docusaurus build`, and when that fails, Rspack's persistent cache removed. The samples' hover
 * types, when some are not cached, are read in a process of their own that starts first and runs
 * while Docusaurus loads (TypeDoc, the Git history), which needs none of them; a page whose
 * sample's types are not read yet waits for them (src/remark/type-hovers/pending.ts). One process
 * runs the other generators and starts Docusaurus: each `tsx` command starts Node twice (its
 * command line, then the script), about 0.4 s a build.
 *
 * Rspack 1.7 (Docusaurus 3.10's `faster` bundler, whose persistent cache is on) restores a failed
 * build's module graph from that cache: seen here when a module imported all of
 * `@weft/core/internal`, whose server helpers import `node:net`. The build failed, as it should;
 * after the import was fixed, every later build failed with the same error until the cache was
 * removed. Removing it on failure costs the next build its cache, once, and spares a
 * contributor chasing an error their code no longer has.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HOVER_TYPES_PENDING_VARIABLE } from '../src/remark/type-hovers/pending';
import { chosenGenerators, generateAssets } from '../tooling/assets/generate-assets';
import { uncachedSamples } from '../tooling/assets/generate-hover-types';
import { runWhenMain } from '../tooling/run-when-main';

/** What a build generates before Docusaurus starts: every asset but the hover types. */
export const BUILD_GENERATORS = chosenGenerators([]);

/** Where Docusaurus keeps Rspack's persistent cache, under the site's folder. */
export const RSPACK_CACHE_DIR = path.join('node_modules', '.cache', 'rspack');

/**
 * Docusaurus's own variable for the number of threads that render the pages. Past 100 pages it
 * starts a worker thread per core, and each worker loads the bundler (for its HTML minifier) and
 * compiles React's renderer again before its first page; at this site's size that costs more
 * than the second core gives back, while the main thread has all of it loaded already. One
 * thread, then, unless the caller's environment names a count: to compare, time a build with
 * the variable at 2 beside one without it.
 */
export const SSG_THREADS_VARIABLE = 'DOCUSAURUS_SSG_WORKER_THREAD_COUNT';

/** Resolves with a process's exit status once it has ended (1 when it was killed or could not start). */
function exitOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('error', () => resolve(1));
    child.once('close', (code) => resolve(code ?? 1));
  });
}

/** Removes `siteDir/RSPACK_CACHE_DIR` after a failed build, and says why. */
function clearRspackCache(siteDir: string): void {
  rmSync(path.join(siteDir, RSPACK_CACHE_DIR), { recursive: true, force: true });
  console.error(
    `build: failed, so ${RSPACK_CACHE_DIR} was removed: Rspack would restore the failure from it into the next build, even once the cause is fixed. The next build starts without that cache.`,
  );
}

/** A running hover-types process. */
export interface HoverTypesRun {
  /** A file that exists while the process runs. */
  marker: string;
  /** Its exit status, once it has ended and the marker is gone. */
  ended: Promise<number>;
  /** Ends it early. */
  stop(): void;
}

/** Runs `command` with `args` in `siteDir` as a hover-types process, its marker made first. */
export function hoverTypesProcess(
  siteDir: string,
  command: string,
  args: readonly string[],
): HoverTypesRun {
  const folder = mkdtempSync(path.join(tmpdir(), 'weft-hover-types-'));
  const marker = path.join(folder, 'reading');
  writeFileSync(marker, '');
  const child = spawn(command, args, { cwd: siteDir, stdio: 'inherit' });
  const ended = exitOf(child).finally(() => rmSync(folder, { recursive: true, force: true }));
  return { marker, ended, stop: () => child.kill() };
}

/**
 * Starts `npm run generate:assets -- hover-types` as a process of its own when some sample's
 * types are not cached; undefined when all are.
 */
export function startHoverTypes(siteDir: string): HoverTypesRun | undefined {
  if (uncachedSamples().uncached.size === 0) return undefined;
  return hoverTypesProcess(siteDir, process.execPath, [
    '--import',
    'tsx',
    path.join(siteDir, 'scripts', 'generate-assets.ts'),
    'hover-types',
  ]);
}

/**
 * Starts the hover types (`hoverTypes`), generates the other assets, then runs
 * `command build ...args` in `siteDir` while the hover types are read: a failed generator starts
 * no build, and hover types that fail (a sample that does not type-check) stop it. The steps are
 * parameters for the tests.
 *
 * @returns The build's exit status, or the hover types' when they failed.
 */
export async function buildSite(
  siteDir: string,
  args: readonly string[],
  generate: (names: typeof BUILD_GENERATORS) => Promise<void> = generateAssets,
  // npm puts node_modules/.bin on the PATH of its scripts, so `docusaurus` is the site's own.
  command = 'docusaurus',
  env: NodeJS.ProcessEnv = process.env,
  hoverTypes: () => HoverTypesRun | undefined = () => startHoverTypes(siteDir),
): Promise<number> {
  // First: reading the samples' types is the longest step, and the other generators leave it
  // most of a processor.
  const reading = hoverTypes();
  const hoverStatus = reading?.ended ?? Promise.resolve(0);
  try {
    await generate(BUILD_GENERATORS);
  } catch (error) {
    reading?.stop();
    await hoverStatus;
    throw error;
  }
  const build = spawn(command, ['build', ...args], {
    cwd: siteDir,
    stdio: 'inherit',
    env: {
      ...env,
      [SSG_THREADS_VARIABLE]: env[SSG_THREADS_VARIABLE] ?? '1',
      ...(reading ? { [HOVER_TYPES_PENDING_VARIABLE]: reading.marker } : {}),
    },
  });
  const built = exitOf(build);
  const hovers = await Promise.race([hoverStatus, built.then(() => 0)]);
  if (hovers !== 0) build.kill();
  const status = await built;
  // A build that ended first has no more use for the hover types.
  reading?.stop();
  await hoverStatus;
  const result = hovers !== 0 ? hovers : status;
  if (result !== 0) clearRspackCache(siteDir);
  return result;
}

runWhenMain(import.meta.url, 'build the site', async () => {
  process.exitCode = await buildSite(process.cwd(), process.argv.slice(2));
});
