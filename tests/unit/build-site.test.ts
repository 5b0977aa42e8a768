/**
 * scripts/build-site.ts: the assets are generated before Docusaurus starts, the hover types beside
 * it, and hover types that fail stop it; a failed build removes
 * Rspack's persistent cache, which would otherwise bring the failure back into the next build; a
 * build that succeeds keeps it.
 */
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  RSPACK_CACHE_DIR,
  SSG_THREADS_VARIABLE,
  buildSite,
  hoverTypesProcess,
  type BUILD_GENERATORS,
} from '../../scripts/build-site';
import { HOVER_TYPES_PENDING_VARIABLE } from '../../src/remark/type-hovers/pending';
import { hoverCacheDir } from '../../src/remark/type-hovers/hover-cache';

const root = path.resolve(__dirname, '../..');

const sites: string[] = [];
afterEach(() => {
  for (const site of sites.splice(0)) rmSync(site, { recursive: true, force: true });
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** A site folder with a cache file in Rspack's cache folder. */
function siteWithCache(): { site: string; cacheFile: string } {
  const site = mkdtempSync(path.join(tmpdir(), 'weft-build-site-'));
  sites.push(site);
  mkdirSync(path.join(site, RSPACK_CACHE_DIR), { recursive: true });
  const cacheFile = path.join(site, RSPACK_CACHE_DIR, 'pack');
  writeFileSync(cacheFile, 'restored module graph');
  return { site, cacheFile };
}

describe('a build that fails or succeeds', () => {
  /** Runs buildSite in a site whose `build` file exits with `status`; nothing generated, every hover type cached. */
  async function buildExiting(site: string, status: number, command = process.execPath) {
    writeFileSync(path.join(site, 'build'), `process.exit(${status});`);
    return buildSite(
      site,
      [],
      async () => undefined,
      command,
      process.env,
      () => undefined,
    );
  }

  it('keeps the cache when the build succeeds, and answers its status', async () => {
    const { site, cacheFile } = siteWithCache();
    expect(await buildExiting(site, 0)).toBe(0);
    expect(existsSync(cacheFile)).toBe(true);
  });

  it('removes the cache when the build fails, says so, and answers the failing status [claim:contributing-failed-build-keeps-hover-types] [claim:cg-failed-build-clears-rspack-cache]', async () => {
    const { site } = siteWithCache();
    const said = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(RSPACK_CACHE_DIR).toBe(path.join('node_modules', '.cache', 'rspack'));
    expect(await buildExiting(site, 3)).toBe(3);
    expect(existsSync(path.join(site, RSPACK_CACHE_DIR))).toBe(false);
    expect(said).toHaveBeenCalledWith(expect.stringContaining(`${RSPACK_CACHE_DIR} was removed`));
  });

  it('leaves the hover types cached in .cache/hover-types when the build fails [claim:contributing-failed-build-keeps-hover-types]', async () => {
    const { site } = siteWithCache();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubEnv('WEFT_HOVER_CACHE_DIR', undefined);
    const hoverDir = path.relative(root, hoverCacheDir());
    expect(hoverDir).toBe(path.join('.cache', 'hover-types'));
    const hoverEntry = path.join(site, hoverDir, 'fingerprint', 'entry.json');
    mkdirSync(path.dirname(hoverEntry), { recursive: true });
    writeFileSync(hoverEntry, '[]');
    expect(await buildExiting(site, 2)).toBe(2);
    expect(existsSync(path.join(site, RSPACK_CACHE_DIR))).toBe(false);
    expect(existsSync(hoverEntry)).toBe(true);
  });

  it('fails, removing the cache, when the build cannot start', async () => {
    const { site } = siteWithCache();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await buildExiting(site, 0, path.join(site, 'no-such-command'))).toBe(1);
    expect(existsSync(path.join(site, RSPACK_CACHE_DIR))).toBe(false);
  });
});

describe('buildSite', () => {
  /** A site whose `build` file, run by Node as `node build`, logs that the build started. */
  function siteLoggingSteps(): { site: string; log: string } {
    const { site } = siteWithCache();
    const log = path.join(site, 'steps.log');
    writeFileSync(
      path.join(site, 'build'),
      `require('node:fs').appendFileSync(${JSON.stringify(log)}, 'build ' + process.argv.slice(2).join(' ') + '\\n');`,
    );
    return { site, log };
  }

  /** No hover types to read: every sample cached. */
  const cached = (): undefined => undefined;

  it('generates the other assets before the build starts, and the hover types beside it, naming their marker to the build [claim:cg-build-hover-types-beside]', async () => {
    const { site, log } = siteLoggingSteps();
    writeFileSync(
      path.join(site, 'build'),
      // A build that logs its arguments and whether the marker exists, then waits for the types.
      `const fs = require('node:fs'); fs.appendFileSync(${JSON.stringify(log)}, 'build ' + process.argv.slice(2).join(' ') + ' ' + fs.existsSync(process.env.${HOVER_TYPES_PENDING_VARIABLE}) + '\\n'); const wait = setInterval(() => { if (!fs.existsSync(process.env.${HOVER_TYPES_PENDING_VARIABLE})) { clearInterval(wait); fs.appendFileSync(${JSON.stringify(log)}, 'build ended\\n'); } }, 10);`,
    );
    const generate = async (names: typeof BUILD_GENERATORS): Promise<void> => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      appendFileSync(log, `generate ${names.join(' ')}\n`);
    };
    // Hover types that go on until the build has started, then log that they ended.
    const reading = () =>
      hoverTypesProcess(site, process.execPath, [
        '-e',
        `const fs = require('node:fs'); fs.appendFileSync(${JSON.stringify(log)}, 'hover types\\n'); const wait = setInterval(() => { if (fs.readFileSync(${JSON.stringify(log)}, 'utf8').includes('build')) { clearInterval(wait); fs.appendFileSync(${JSON.stringify(log)}, 'hover types read\\n'); } }, 10);`,
      ]);
    expect(
      await buildSite(site, ['--out-dir', 'x'], generate, process.execPath, process.env, reading),
    ).toBe(0);
    const steps = readFileSync(log, 'utf8').trim().split('\n');
    // The hover types' process logs its start whenever Node has started it; the rest is in order:
    // the assets, then the build while the hover types run, which waits for them to end.
    expect(steps.filter((step) => step !== 'hover types')).toEqual([
      'generate pwa-assets diagrams whitepaper',
      'build --out-dir x true',
      'hover types read',
      'build ended',
    ]);
    expect(steps).toContain('hover types');
    expect(steps.indexOf('hover types')).toBeLessThan(steps.indexOf('hover types read'));
  });

  it('stops the build when the hover types fail, answering their status and removing the cache [claim:contributing-hover-types-build-fails]', async () => {
    const { site, log } = siteLoggingSteps();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    writeFileSync(
      path.join(site, 'build'),
      `require('node:fs').appendFileSync(${JSON.stringify(log)}, 'build started\\n'); setTimeout(() => require('node:fs').appendFileSync(${JSON.stringify(log)}, 'build ended\\n'), 10_000);`,
    );
    const none = async (): Promise<void> => {};
    // Hover types that fail once the build has started.
    const failing = () =>
      hoverTypesProcess(site, process.execPath, [
        '-e',
        `const fs = require('node:fs'); setInterval(() => { if (fs.existsSync(${JSON.stringify(log)}) && fs.readFileSync(${JSON.stringify(log)}, 'utf8').includes('build started')) process.exit(4); }, 10);`,
      ]);
    const started = Date.now();
    expect(await buildSite(site, [], none, process.execPath, process.env, failing)).toBe(4);
    // Stopped, not left to its ten seconds.
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(readFileSync(log, 'utf8')).toBe('build started\n');
    expect(existsSync(path.join(site, RSPACK_CACHE_DIR))).toBe(false);
  });

  it('stops hover types still running when the build has ended', async () => {
    const { site, log } = siteLoggingSteps();
    const none = async (): Promise<void> => {};
    let ended: Promise<number> | undefined;
    const lingering = () => {
      const run = hoverTypesProcess(site, process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
      ended = run.ended;
      return run;
    };
    expect(await buildSite(site, [], none, process.execPath, process.env, lingering)).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('build \n');
    // Killed, not left to run for a minute.
    expect(await ended).toBe(1);
  });

  it('renders the pages on one thread unless the caller names a count [claim:cg-build-ssg-one-thread]', async () => {
    const { site, log } = siteLoggingSteps();
    writeFileSync(
      path.join(site, 'build'),
      `require('node:fs').appendFileSync(${JSON.stringify(log)}, String(process.env.${SSG_THREADS_VARIABLE}) + '\\n');`,
    );
    const none = async (): Promise<void> => {};
    const env = { PATH: process.env.PATH };
    expect(await buildSite(site, [], none, process.execPath, env, cached)).toBe(0);
    expect(
      await buildSite(
        site,
        [],
        none,
        process.execPath,
        { ...env, [SSG_THREADS_VARIABLE]: '3' },
        cached,
      ),
    ).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('1\n3\n');
  });

  it("is Docusaurus's thread count, which without it is one thread per 100 pages up to the cores [claim:cg-build-ssg-one-thread]", () => {
    const ssg = path.join(root, 'node_modules/@docusaurus/core/lib/ssg');
    const count = (value: string | undefined): string =>
      execFileSync(
        process.execPath,
        [
          '-p',
          `String(require(${JSON.stringify(path.join(ssg, 'ssgEnv.js'))}).SSGWorkerThreadCount)`,
        ],
        { env: { ...process.env, [SSG_THREADS_VARIABLE]: value }, encoding: 'utf8' },
      ).trim();
    expect(count('1'), `Docusaurus no longer reads ${SSG_THREADS_VARIABLE}`).toBe('1');
    expect(count(undefined)).toBe('undefined');
    // Without the variable, ssgExecutor.js infers the count; the guide says how.
    const executor = readFileSync(path.join(ssg, 'ssgExecutor.js'), 'utf8');
    expect(executor, 'Docusaurus infers its SSG thread count another way').toContain(
      'minPagesPerCpu: 100',
    );
    expect(executor).toContain('Math.min(threadsByWorkload, cpuCount)');
  });

  it('starts no build when a generator fails', async () => {
    const { site, log } = siteLoggingSteps();
    const failing = (): Promise<void> => Promise.reject(new Error('diagram source is broken'));
    await expect(
      buildSite(site, [], failing, process.execPath, process.env, cached),
    ).rejects.toThrow('diagram source is broken');
    expect(existsSync(log)).toBe(false);
  });
});
