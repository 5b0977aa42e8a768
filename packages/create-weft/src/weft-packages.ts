import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
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
  const core = path.join(root, 'packages/core/package.json');
  const rootManifest = path.join(root, 'package.json');
  if (!existsSync(core) || !existsSync(rootManifest)) return undefined;
  const { name } = JSON.parse(readFileSync(core, 'utf8')) as { name?: string };
  const { workspaces } = JSON.parse(readFileSync(rootManifest, 'utf8')) as {
    workspaces?: string[];
  };
  return name === '@weft/core' && workspaces?.includes('packages/core') ? root : undefined;
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
    // Workspace folders are named after their package, without the scope.
    const packageDir = path.join(root, 'packages', name.replace(/^@weft\//, ''));
    // `npm pack` runs a package's `prepack`, which builds it: building it here as well would
    // do that work twice.
    if (buildsWhenPacked(packageDir)) continue;
    if (!(await isBuildFresh(packageDir))) stale.push(name);
  }
  // The builds are independent (each resolves the others' types from their sources), and each
  // is mostly one TypeScript declaration build on one core: two run at a time.
  const queue = [...stale];
  const builder = async (): Promise<void> => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      await run('npm', ['run', 'build', '-w', name], {
        cwd: root,
        shell,
        maxBuffer: 64 << 20,
        signal,
      });
    }
  };
  await Promise.all([builder(), builder()]);
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

/** Whether the package's own `prepack` script builds it, as @weft/mcp-docs's does. */
function buildsWhenPacked(packageDir: string): boolean {
  const { scripts } = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  return /\bnpm run build\b/.test(scripts?.prepack ?? '');
}

/** The files every package build writes (tsup: ESM, CommonJS and both declarations). */
const BUILD_OUTPUTS = ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts'];

/**
 * Whether `dist/` holds a complete build newer than everything it is built from, so packing
 * can skip the build (the declaration build is the slow part of making a project).
 */
export async function isBuildFresh(packageDir: string): Promise<boolean> {
  const outputs = await Promise.all(
    BUILD_OUTPUTS.map((file) => stat(path.join(packageDir, 'dist', file)).catch(() => undefined)),
  );
  if (outputs.some((output) => output === undefined)) return false;
  const built = Math.min(...outputs.map((output) => (output as { mtimeMs: number }).mtimeMs));
  const inputs = [
    ...(await listFiles(path.join(packageDir, 'src'))),
    path.join(packageDir, 'package.json'),
    path.join(packageDir, 'tsup.config.ts'),
    path.join(packageDir, '../tsup.base.ts'),
    path.join(packageDir, '../strip-claim-tags.mjs'),
  ];
  for (const input of inputs) {
    const info = await stat(input).catch(() => undefined);
    if (info && info.mtimeMs > built) return false;
  }
  return true;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}
