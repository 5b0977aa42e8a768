/**
 * Finds the error registry of every package: the core's in `src/errors/core-errors.ts`, and the
 * `errorRegistry` export of each `packages/<name>/src/errors.ts`, so a new package's codes join
 * the page and the checks without a list to update. Loaded with dynamic imports (the packages
 * import `@weft/core`, resolved to its sources under the `weft-source` condition).
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ErrorCodeEntry, ErrorRegistry } from '../../packages/core/src/errors/error-registry';

export const REPOSITORY_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PACKAGES_DIRECTORY = join(REPOSITORY_ROOT, 'packages');

/** A package's registry and the file holding its generated code union. */
export interface LoadedRegistry {
  /** The folder under `packages/`, such as `memory-sqlite`. */
  readonly directory: string;
  readonly registry: ErrorRegistry;
  /** The file the registry is defined in. */
  readonly registryFile: string;
  /** The file whose code union (and its TSDoc) is generated from the registry. */
  readonly typeFile: string;
}

const CORE_REGISTRY_FILE = join(PACKAGES_DIRECTORY, 'core', 'src', 'errors', 'core-errors.ts');
const CORE_TYPE_FILE = join(PACKAGES_DIRECTORY, 'core', 'src', 'errors', 'codes.ts');

/** The package folders that have a `src/errors.ts`, in alphabetical order. */
export function packagesWithErrorFiles(): string[] {
  return readdirSync(PACKAGES_DIRECTORY, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .filter((name) => existsSync(join(PACKAGES_DIRECTORY, name, 'src', 'errors.ts')))
    .sort();
}

/**
 * Every registry, the core's first. A package's `src/errors.ts` without an `errorRegistry`
 * export is skipped only when it defines no `WEFT_` code (create-weft's errors are not
 * WeftErrors); the checks of the sources catch a package that raises codes without one.
 */
export async function loadErrorRegistries(): Promise<LoadedRegistry[]> {
  const core = (await import(pathToFileURL(CORE_REGISTRY_FILE).href)) as Record<string, unknown>;
  const loaded: LoadedRegistry[] = [
    {
      directory: 'core',
      registry: checkRegistry(core.CORE_ERRORS, CORE_REGISTRY_FILE),
      registryFile: CORE_REGISTRY_FILE,
      typeFile: CORE_TYPE_FILE,
    },
  ];
  for (const directory of packagesWithErrorFiles()) {
    if (directory === 'core') continue;
    const file = join(PACKAGES_DIRECTORY, directory, 'src', 'errors.ts');
    const exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    if (exports.errorRegistry === undefined) continue;
    loaded.push({
      directory,
      registry: checkRegistry(exports.errorRegistry, file),
      registryFile: file,
      typeFile: file,
    });
  }
  return loaded;
}

/** Checks at run time what the compiler checks in each package, for a clear failure here. */
function checkRegistry(value: unknown, file: string): ErrorRegistry {
  const registry = value as Partial<ErrorRegistry> | undefined;
  if (
    typeof registry !== 'object' ||
    registry === null ||
    typeof registry.packageName !== 'string' ||
    typeof registry.codes !== 'object'
  ) {
    throw new Error(`${file}: the error registry must have a packageName and codes`);
  }
  for (const [code, entry] of Object.entries(registry.codes as Record<string, ErrorCodeEntry>)) {
    if (!/^WEFT_[A-Z0-9_]+$/.test(code)) {
      throw new Error(`${file}: error code "${code}" must match WEFT_[A-Z0-9_]+`);
    }
    for (const field of ['summary', 'raisedBy', 'cause', 'fix'] as const) {
      if (typeof entry[field] !== 'string' || entry[field].trim() === '') {
        throw new Error(`${file}: ${code} has no ${field}`);
      }
    }
  }
  return registry as ErrorRegistry;
}
