/**
 * The plugins catalogue: first-party packages described by their own
 * package.json. Pure functions, so the rules are unit-tested
 * (tests/unit/plugin-catalogue.test.ts) apart from Docusaurus.
 *
 * Each package declares, beside name, version, description and keywords:
 *
 *   "weft": { "kind": "model-provider", "displayName": "OpenAI" }
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { CREATE_PACKAGE, PACKAGE_KINDS, type CatalogueEntry, type PackageKind } from './model';

export * from './model';

export class CatalogueError extends Error {
  constructor(
    readonly directory: string,
    readonly field: string,
    problem: string,
  ) {
    super(
      `packages/${directory}/package.json: ${field} ${problem}. ` +
        'Every first-party package describes itself for the plugins page with "name", "version", ' +
        `"description", "keywords" and "weft": { "kind": one of ${PACKAGE_KINDS.join(', ')}, "displayName" }.`,
    );
    this.name = 'CatalogueError';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireString(
  directory: string,
  source: Record<string, unknown>,
  field: string,
  label = field,
): string {
  const value = source[field];
  if (value === undefined) {
    throw new CatalogueError(directory, label, 'is missing');
  }
  if (typeof value !== 'string' || value.trim() === '') {
    throw new CatalogueError(directory, label, 'must be a non-empty string');
  }
  return value.trim();
}

/** Checks one parsed package.json and returns its catalogue entry, or throws a CatalogueError. */
export function validatePackage(directory: string, manifest: unknown): CatalogueEntry {
  if (!isRecord(manifest)) {
    throw new CatalogueError(directory, 'the file', 'must contain a JSON object');
  }
  const name = requireString(directory, manifest, 'name');
  if (!name.startsWith('@weft/') && name !== CREATE_PACKAGE) {
    throw new CatalogueError(
      directory,
      'name',
      `must be in the @weft scope (or be ${CREATE_PACKAGE}), got "${name}"`,
    );
  }
  const version = requireString(directory, manifest, 'version');
  const description = requireString(directory, manifest, 'description');

  const keywords = manifest.keywords;
  if (keywords === undefined) {
    throw new CatalogueError(directory, 'keywords', 'is missing');
  }
  if (
    !Array.isArray(keywords) ||
    keywords.length === 0 ||
    !keywords.every((keyword) => typeof keyword === 'string' && keyword.trim() !== '')
  ) {
    throw new CatalogueError(
      directory,
      'keywords',
      'must be a non-empty array of non-empty strings',
    );
  }

  const weft = manifest.weft;
  if (weft === undefined) {
    throw new CatalogueError(directory, 'weft', 'is missing');
  }
  if (!isRecord(weft)) {
    throw new CatalogueError(directory, 'weft', 'must be an object');
  }
  const kind = requireString(directory, weft, 'kind', 'weft.kind');
  if (!(PACKAGE_KINDS as readonly string[]).includes(kind)) {
    throw new CatalogueError(
      directory,
      'weft.kind',
      `must be one of ${PACKAGE_KINDS.join(', ')}, got "${kind}"`,
    );
  }
  const displayName = requireString(directory, weft, 'displayName', 'weft.displayName');

  return {
    name,
    version,
    description,
    keywords: [...new Set((keywords as string[]).map((keyword) => keyword.trim()))],
    kind: kind as PackageKind,
    displayName,
    directory,
  };
}

/** Kinds in page order, then display names alphabetically. */
export function sortCatalogue(entries: readonly CatalogueEntry[]): CatalogueEntry[] {
  return [...entries].sort(
    (a, b) =>
      PACKAGE_KINDS.indexOf(a.kind) - PACKAGE_KINDS.indexOf(b.kind) ||
      a.displayName.localeCompare(b.displayName, 'en'),
  );
}

export interface CatalogueResult {
  entries: CatalogueEntry[];
  errors: CatalogueError[];
}

/** Reads packages/<dir>/package.json for every folder; valid entries come back sorted. */
export async function readCatalogue(packagesDir: string): Promise<CatalogueResult> {
  const folders = (await readdir(packagesDir, { withFileTypes: true }))
    .filter(
      (entry) =>
        entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules',
    )
    .map((entry) => entry.name)
    .sort();

  const entries: CatalogueEntry[] = [];
  const errors: CatalogueError[] = [];
  for (const directory of folders) {
    let text: string;
    try {
      text = await readFile(path.join(packagesDir, directory, 'package.json'), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        continue; // not a package
      }
      throw error;
    }
    try {
      let manifest: unknown;
      try {
        manifest = JSON.parse(text);
      } catch (error) {
        throw new CatalogueError(
          directory,
          'the file',
          `is not valid JSON (${(error as Error).message})`,
        );
      }
      entries.push(validatePackage(directory, manifest));
    } catch (error) {
      if (error instanceof CatalogueError) {
        errors.push(error);
      } else {
        throw error;
      }
    }
  }
  return { entries: sortCatalogue(entries), errors };
}
