/**
 * The repository's `allowScripts` (package.json) decides for every dependency in
 * package-lock.json that has an install script, and names nothing else: a new dependency with a
 * script fails here, by name, before npm 12 silently skips its script on a contributor's machine.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packagesWithInstallScripts, reviewInstallScripts } from '../support/install-scripts';
import rootManifest from '../../package.json';

const root = path.resolve(__dirname, '../..');
const lockfile = path.join(root, 'package-lock.json');

describe("the repository's allowScripts", () => {
  it('decides for every package with an install script, and only for those', () => {
    expect(reviewInstallScripts(lockfile, rootManifest.allowScripts)).toEqual({
      undecided: [],
      stale: [],
    });
  });

  it('lets better-sqlite3 build its native module', () => {
    expect(rootManifest.allowScripts['better-sqlite3']).toBe(true);
  });
});

describe('reviewInstallScripts', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'weft-install-scripts-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  const lock = path.join(work, 'package-lock.json');
  writeFileSync(
    lock,
    JSON.stringify({
      packages: {
        '': { name: 'demo' },
        'node_modules/esbuild': { version: '0.27.7', hasInstallScript: true },
        'node_modules/tsx/node_modules/esbuild': { version: '0.28.2', hasInstallScript: true },
        'node_modules/@scope/native': { version: '1.0.0', hasInstallScript: true },
        'node_modules/plain': { version: '1.0.0' },
        'packages/own': { version: '1.0.0', hasInstallScript: true },
      },
    }),
  );

  it('lists each scripted package once, by its name, scoped or nested', () => {
    expect(packagesWithInstallScripts(lock)).toEqual(['@scope/native', 'esbuild']);
  });

  it('names the package that arrives without a decision', () => {
    expect(reviewInstallScripts(lock, { esbuild: false })).toEqual({
      undecided: ['@scope/native'],
      stale: [],
    });
  });

  it('takes pinned keys and names decisions for packages that have no script', () => {
    expect(
      reviewInstallScripts(lock, { 'esbuild@0.27.7': false, '@scope/native': true, plain: true }),
    ).toEqual({ undecided: [], stale: ['plain'] });
  });
});
