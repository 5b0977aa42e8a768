import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { isBuildFresh, workspaceDependencyDirs } from '../../build-freshness.js';
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

/**
 * What the project needs besides Weft's packages: `src/agent.ts` takes a pino `Logger`, and its
 * assistant plugin has a route trigger, whose HTTP server (`@weft/core/node`) needs express and
 * cors, @weft/core's optional peer dependencies. The ranges are @weft/core's own, so npm
 * installs one copy of each (a test holds them equal).
 */
export const OTHER_DEPENDENCIES: Readonly<Record<string, string>> = {
  cors: '^2.8.5',
  express: '^5.1.0',
  pino: '^9.7.0',
};

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
  return isWeftClone(root) ? root : undefined;
}

/**
 * Whether `root` is the root of a clone of the Weft repository: its package.json names
 * packages/core among its workspaces, and packages/core/package.json is `@weft/core`.
 *
 * @param root - The folder to look at.
 * @returns `false` also when either file is missing or is not JSON.
 */
export function isWeftClone(root: string): boolean {
  try {
    const core = path.join(root, 'packages/core/package.json');
    const rootManifest = path.join(root, 'package.json');
    if (!existsSync(core) || !existsSync(rootManifest)) return false;
    const { name } = JSON.parse(readFileSync(core, 'utf8')) as { name?: string };
    const { workspaces } = JSON.parse(readFileSync(rootManifest, 'utf8')) as {
      workspaces?: unknown;
    };
    return (
      name === '@weft/core' && Array.isArray(workspaces) && workspaces.includes('packages/core')
    );
  } catch {
    return false;
  }
}

/** One tarball {@link packWorkspacePackages} wrote, as `npm pack --json` describes it. */
export interface PackedPackage {
  name: string;
  version: string;
  /** The tarball's file name in the destination folder. */
  filename: string;
  /** The paths inside the tarball, relative to the package folder. */
  files: { path: string }[];
}

/**
 * Packs the given workspace packages into `destination`, as `npm publish` would, building
 * those whose build is missing or older than their sources first. Each tarball holds only
 * what the package's `files` lists. Aborting `options.signal` stops the npm it is running (with
 * `SIGTERM`) and rejects.
 */
export async function packWorkspacePackages(
  root: string,
  names: readonly string[],
  destination: string,
  options: { signal?: AbortSignal } = {},
): Promise<PackedPackage[]> {
  const { signal } = options;
  const shell = process.platform === 'win32';
  const stale: string[] = [];
  for (const name of names) {
    const packageDir = packageDirOf(root, name);
    // `npm pack` runs a package's `prepack`, which builds it: building it here as well would
    // do that work twice.
    if (buildsWhenPacked(packageDir)) continue;
    if (!isBuildFresh(packageDir)) stale.push(name);
  }
  // Two builds at a time (each is mostly one TypeScript declaration build on one core), each
  // after the stale packages it depends on: it then reads their fresh declarations rather than
  // type-checking their sources again (packages/tsup.base.ts).
  const slots = twoAtATime();
  const builds = new Map<string, Promise<void>>();
  const build = (name: string): Promise<void> => {
    let pending = builds.get(name);
    if (pending === undefined) {
      const dependencies = workspaceDependencyDirs(packageDirOf(root, name))
        .map((dir) => `@weft/${path.basename(dir)}`)
        .filter((dependency) => stale.includes(dependency));
      pending = Promise.all(dependencies.map(build)).then(() =>
        slots(async () => {
          await run('npm', ['run', 'build', '-w', name], {
            cwd: root,
            shell,
            maxBuffer: 64 << 20,
            signal,
          });
        }),
      );
      builds.set(name, pending);
    }
    return pending;
  };
  await Promise.all(stale.map(build));
  const { stdout } = await run(
    'npm',
    ['pack', '--json', '--pack-destination', destination, ...names.flatMap((name) => ['-w', name])],
    { cwd: root, shell, maxBuffer: 64 << 20, signal },
  );
  return (JSON.parse(stdout) as PackedPackage[]).map(({ name, version, filename, files }) => ({
    name,
    version,
    filename,
    files: files.map(({ path: file }) => ({ path: file })),
  }));
}

/** Workspace folders are named after their package, without the scope. */
function packageDirOf(root: string, name: string): string {
  return path.join(root, 'packages', name.replace(/^@weft\//, ''));
}

/** Runs the tasks given to it, at most two at a time, the others waiting in order. */
function twoAtATime(): (task: () => Promise<void>) => Promise<void> {
  let free = 2;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (free > 0) free -= 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    }
  };
}

/** Whether the package's own `prepack` script builds it, as @weft/mcp-docs's does. */
function buildsWhenPacked(packageDir: string): boolean {
  const { scripts } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  return /\bnpm run build\b/.test(scripts?.prepack ?? '');
}
