/**
 * Whether a workspace package's `dist/` is a complete build newer than everything it is built
 * from. Packing skips such a build, and a package's declaration build reads a fresh one instead
 * of the package's sources (tsup.base.ts). Synchronous, as tsup reads its configuration so.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The files every package build writes (tsup: ESM, CommonJS and both declarations). */
const BUILD_OUTPUTS = ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts'];

export function isBuildFresh(packageDir: string): boolean {
  const outputs = BUILD_OUTPUTS.map((file) => path.join(packageDir, 'dist', file));
  if (!outputs.every((output) => existsSync(output))) return false;
  const built = Math.min(...outputs.map((output) => statSync(output).mtimeMs));
  const inputs = [
    ...listFiles(path.join(packageDir, 'src')),
    path.join(packageDir, 'package.json'),
    path.join(packageDir, 'tsup.config.ts'),
    path.join(packageDir, '../tsup.base.ts'),
    path.join(packageDir, '../strip-claim-tags.mjs'),
  ];
  return inputs.every(
    (input) => (statSync(input, { throwIfNoEntry: false })?.mtimeMs ?? 0) <= built,
  );
}

/**
 * The folders of the workspace packages that the package in `packageDir` depends on (its
 * `dependencies` and `peerDependencies` named `@weft/…`; workspace folders are named after their
 * package, without the scope).
 */
export function workspaceDependencyDirs(packageDir: string): string[] {
  const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  const names = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies });
  return names
    .filter((name) => name.startsWith('@weft/'))
    .map((name) => path.join(packageDir, '..', name.slice('@weft/'.length)))
    .filter((dir) => existsSync(path.join(dir, 'package.json')));
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}
