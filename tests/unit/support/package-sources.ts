import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PACKAGES_DIRECTORY, REPOSITORY_ROOT } from '@weft-internal/docs-model/error-registries';

/** A source file of a package, by its path from the repository root, with its text. */
export interface SourceFile {
  readonly path: string;
  readonly text: string;
}

function filesUnder(directory: string, accept: (name: string) => boolean): string[] {
  let entries;
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(path, accept);
    return accept(entry.name) ? [path] : [];
  });
}

/**
 * Every file under `packages/<name>/<folder>` for every package (such as `src`, or `templates`
 * of create-weft) whose name passes `accept`.
 */
export function packageFiles(folder: string, accept: (name: string) => boolean): SourceFile[] {
  return readdirSync(PACKAGES_DIRECTORY, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => filesUnder(join(PACKAGES_DIRECTORY, entry.name, folder), accept))
    .map((file) => ({
      path: relative(REPOSITORY_ROOT, file),
      text: readFileSync(file, 'utf8'),
    }));
}

/** The TypeScript sources of every package's `src/`. */
export function packageSources(): SourceFile[] {
  return packageFiles('src', (name) => name.endsWith('.ts') && !name.endsWith('.d.ts'));
}
