/**
 * Finds the error registry of every package, the core included: the one export of
 * `packages/<name>/src/errors.ts` named `<PREFIX>_ERRORS`, so a new package's codes join the page
 * and the checks without a list to update. Loaded with dynamic imports (the packages
 * import `@weft/core`, resolved to its sources under the `weft-source` condition).
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ErrorCodeEntry, ErrorRegistry } from '@weft/core/internal';

export const REPOSITORY_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const PACKAGES_DIRECTORY = join(REPOSITORY_ROOT, 'packages');

/** A package's registry and the file holding its generated code union. */
export interface LoadedRegistry {
  /** The folder under `packages/`, such as `memory-sqlite`. */
  readonly directory: string;
  readonly registry: ErrorRegistry;
  /** The name of the registry's export, such as `SQLITE_ERRORS`. */
  readonly exportName: string;
  /** The file the registry and its generated code union (with its TSDoc) are in. */
  readonly registryFile: string;
}

/**
 * How a registry's export is named: the prefix its codes share after `WEFT_` (`SQLITE_ERRORS`
 * holds `WEFT_SQLITE_*`), or `CORE_ERRORS` for the core, whose codes have no prefix of their own.
 */
export const REGISTRY_EXPORT_NAME = /^[A-Z][A-Z0-9]*_ERRORS$/;

/** The package folders that have a `src/errors.ts`, in alphabetical order. */
export function packagesWithErrorFiles(): string[] {
  return readdirSync(PACKAGES_DIRECTORY, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .filter((name) => existsSync(join(PACKAGES_DIRECTORY, name, 'src', 'errors.ts')))
    .sort();
}

/**
 * Every registry, the core's first (the page lists it first), then the packages in
 * alphabetical order. Every package with a `src/errors.ts` must export exactly one.
 */
export async function loadErrorRegistries(): Promise<LoadedRegistry[]> {
  const directories = packagesWithErrorFiles().sort((a, b) =>
    a === 'core' ? -1 : b === 'core' ? 1 : 0,
  );
  const loaded: LoadedRegistry[] = [];
  for (const directory of directories) {
    const file = join(PACKAGES_DIRECTORY, directory, 'src', 'errors.ts');
    const exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const names = Object.keys(exports).filter((name) => REGISTRY_EXPORT_NAME.test(name));
    const [exportName] = names;
    if (names.length !== 1 || exportName === undefined) {
      throw new Error(
        `${file}: export exactly one error registry named <PREFIX>_ERRORS (found ${names.length})`,
      );
    }
    loaded.push({
      directory,
      exportName,
      registry: checkRegistry(exports[exportName], file),
      registryFile: file,
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
    const raisers: unknown = entry.raisers;
    if (
      !Array.isArray(raisers) ||
      raisers.length === 0 ||
      !raisers.every(
        (raiser) => typeof raiser === 'string' && /^[a-z0-9-]+\/src\/.+#.+$/.test(raiser),
      )
    ) {
      throw new Error(
        `${file}: ${code} must list its raisers as <package folder>/src/<file>#<function>`,
      );
    }
  }
  return registry as ErrorRegistry;
}
