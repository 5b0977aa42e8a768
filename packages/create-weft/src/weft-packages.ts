import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { MemoryChoice, ModelChoice } from './choices.js';

const run = promisify(execFile);

/** The folder of this package: src/ and dist/ both sit one level below it. */
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** The Weft packages a project needs for its choices; core and testing always. */
export function weftPackagesFor(choices: { model: ModelChoice; memory: MemoryChoice }): string[] {
  return [
    '@weft/core',
    // The scripted model and the in-memory store both come from here, and the tests use it.
    '@weft/testing',
    ...(choices.model === 'scripted' ? [] : ['@weft/model-openai']),
    ...(choices.memory === 'sqlite' ? ['@weft/memory-sqlite'] : []),
  ];
}

/** This package's version; every Weft package is released under the same one. */
export function ownVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/**
 * The root of the Weft repository this package runs from, or undefined when it was installed
 * from a registry: in a clone, packages/create-weft sits beside packages/core.
 */
export function findWorkspaceRoot(packageDir = PACKAGE_DIR): string | undefined {
  const root = path.resolve(packageDir, '../..');
  const core = path.join(root, 'packages/core/package.json');
  const rootManifest = path.join(root, 'package.json');
  if (!existsSync(core) || !existsSync(rootManifest)) return undefined;
  const { name } = JSON.parse(readFileSync(core, 'utf8')) as { name?: string };
  const { workspaces } = JSON.parse(readFileSync(rootManifest, 'utf8')) as {
    workspaces?: string[];
  };
  return name === '@weft/core' && workspaces?.includes('packages/core') ? root : undefined;
}

export interface PackedPackage {
  name: string;
  version: string;
  /** The tarball's file name in the destination folder. */
  filename: string;
}

/**
 * Builds the given workspace packages and packs them into `destination`, as `npm publish`
 * would. Each tarball holds only what the package's `files` lists.
 */
export async function packWorkspacePackages(
  root: string,
  names: readonly string[],
  destination: string,
): Promise<PackedPackage[]> {
  const workspaces = names.flatMap((name) => ['-w', name]);
  const shell = process.platform === 'win32';
  await run('npm', ['run', 'build', ...workspaces], { cwd: root, shell, maxBuffer: 64 << 20 });
  const { stdout } = await run(
    'npm',
    ['pack', '--json', '--pack-destination', destination, ...workspaces],
    { cwd: root, shell, maxBuffer: 64 << 20 },
  );
  return (JSON.parse(stdout) as PackedPackage[]).map(({ name, version, filename }) => ({
    name,
    version,
    filename,
  }));
}
