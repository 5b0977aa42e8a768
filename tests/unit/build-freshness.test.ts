/**
 * Packing skips a package whose build is fresh, and a package's declaration build reads its
 * workspace dependencies' built declarations only when each of them is fresh: a stale or missing
 * one is read from its sources, so that any package builds on its own in a fresh clone.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isBuildFresh, workspaceDependencyDirs } from '../../packages/build-freshness';
import { declarationBuild } from '../../packages/tsup.base';

let root: string;
const folder = (name: string) => path.join(root, 'packages', name);

/** Writes `file` under the root with its modification time `seconds` after the epoch. */
function write(file: string, seconds: number, text = ''): void {
  const absolute = path.join(root, file);
  mkdirSync(path.dirname(absolute), { recursive: true });
  writeFileSync(absolute, text);
  utimesSync(absolute, seconds, seconds);
}

/** A workspace package with its sources at time `sourcesAt` and, if given, a build at `builtAt`. */
function writePackage(
  name: string,
  dependencies: Record<string, string>,
  sourcesAt: number,
  builtAt?: number,
): void {
  write(
    `packages/${name}/package.json`,
    sourcesAt,
    JSON.stringify({ name: `@weft/${name}`, dependencies }),
  );
  write(`packages/${name}/src/index.ts`, sourcesAt);
  if (builtAt === undefined) return;
  for (const output of ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts']) {
    write(`packages/${name}/dist/${output}`, builtAt);
  }
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'weft-build-freshness-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('isBuildFresh', () => {
  it('holds for a complete build newer than every source', () => {
    writePackage('core', {}, 1_000, 2_000);
    expect(isBuildFresh(folder('core'))).toBe(true);
  });

  it('fails when a source changed after the build', () => {
    writePackage('core', {}, 1_000, 2_000);
    write('packages/core/src/deep/later.ts', 3_000);
    expect(isBuildFresh(folder('core'))).toBe(false);
  });

  it('fails when the shared build configuration changed after the build', () => {
    writePackage('core', {}, 1_000, 2_000);
    write('packages/tsup.base.ts', 3_000);
    expect(isBuildFresh(folder('core'))).toBe(false);
  });

  it('fails when one of the build outputs is missing', () => {
    writePackage('core', {}, 1_000, 2_000);
    rmSync(path.join(folder('core'), 'dist/index.d.cts'));
    expect(isBuildFresh(folder('core'))).toBe(false);
  });
});

describe('the declaration build', () => {
  it('names the workspace packages a package depends on, not third-party ones', () => {
    writePackage('core', {}, 1_000);
    writePackage(
      'chat',
      { '@weft/core': '0.1.0', express: '^5.0.0', '@weft/absent': '0.1.0' },
      1_000,
    );
    expect(workspaceDependencyDirs(folder('chat'))).toEqual([folder('core')]);
  });

  it("reads the dependencies' built declarations when every one is fresh", () => {
    writePackage('core', {}, 1_000, 2_000);
    writePackage('chat', { '@weft/core': '0.1.0' }, 1_000);
    expect(declarationBuild(folder('chat'))).toEqual({ compilerOptions: { customConditions: [] } });
  });

  it('reads their sources when one is stale or not built', () => {
    writePackage('core', {}, 3_000, 2_000);
    writePackage('chat', { '@weft/core': '0.1.0' }, 1_000);
    expect(declarationBuild(folder('chat'))).toBe(true);
    writePackage('core', {}, 1_000);
    rmSync(path.join(folder('core'), 'dist'), { recursive: true, force: true });
    expect(declarationBuild(folder('chat'))).toBe(true);
  });
});
