/**
 * `npm run build`: the generated assets with the samples' hover types
 * (tooling/assets/generate-assets.ts), then `docusaurus build`, and when that fails, Rspack's
 * persistent cache removed. One process runs the generators and starts Docusaurus: each
 * `tsx` command starts Node twice (its command line, then the script), about 0.4 s a build.
 *
 *
 * Rspack 1.7 (Docusaurus 3.10's `faster` bundler, whose persistent cache is on) restores a failed
 * build's module graph from that cache: seen here when a module imported all of
 * `@weft/core/internal`, whose server helpers import `node:net`. The build failed, as it should;
 * after the import was fixed, every later build failed with the same error until the cache was
 * removed. Removing it on failure costs the next build its cache, once, and spares a
 * contributor chasing an error their code no longer has.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { chosenGenerators, generateAssets } from '../tooling/assets/generate-assets';
import { runWhenMain } from '../tooling/run-when-main';

/** What a build generates before Docusaurus starts: every asset and the samples' hover types. */
export const BUILD_GENERATORS = chosenGenerators(['--hover-types']);

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

/**
 * Runs `command` with `args` in `siteDir`, output to this process's, and removes
 * `siteDir/RSPACK_CACHE_DIR` when it fails.
 *
 * @returns The command's exit status (1 when it was killed or could not start).
 */
export function buildClearingCacheOnFailure(
  siteDir: string,
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): number {
  const result = spawnSync(command, args, { cwd: siteDir, stdio: 'inherit', env });
  const status = result.status ?? 1;
  if (status !== 0) {
    rmSync(path.join(siteDir, RSPACK_CACHE_DIR), { recursive: true, force: true });
    console.error(
      `build: failed, so ${RSPACK_CACHE_DIR} was removed: Rspack would restore the failure from it into the next build, even once the cause is fixed. The next build starts without that cache.`,
    );
  }
  return status;
}

/**
 * Generates the build's assets, then runs `command build ...args` in `siteDir` (a failed
 * generator starts no build); the generators and the command are parameters for the tests.
 *
 * @returns The build's exit status.
 */
export async function buildSite(
  siteDir: string,
  args: readonly string[],
  generate: (names: typeof BUILD_GENERATORS) => Promise<void> = generateAssets,
  // npm puts node_modules/.bin on the PATH of its scripts, so `docusaurus` is the site's own.
  command = 'docusaurus',
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  await generate(BUILD_GENERATORS);
  return buildClearingCacheOnFailure(siteDir, command, ['build', ...args], {
    ...env,
    [SSG_THREADS_VARIABLE]: env[SSG_THREADS_VARIABLE] ?? '1',
  });
}

runWhenMain(import.meta.url, 'build the site', async () => {
  process.exitCode = await buildSite(process.cwd(), process.argv.slice(2));
});
