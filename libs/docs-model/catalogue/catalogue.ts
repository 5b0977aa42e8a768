/**
 * The plugins catalogue: first-party packages described by their own
 * package.json. Pure functions, so the rules are unit-tested
 * (tests/unit/plugin-catalogue.test.ts) apart from Docusaurus.
 *
 * Each package declares, beside name, version, description, keywords and engines, a "weft"
 * field; the contributing guide's "Catalogue metadata" table lists its fields:
 *
 *   "weft": {
 *     "kind": "model-provider",
 *     "displayName": "OpenAI",
 *     "guide": "/docs/model-providers/overview/",
 *     "provides": { "capabilities": ["text-generation"] },
 *     "requires": { "services": ["openai-compatible-api"] },
 *     "runtimes": ["node"]
 *   }
 *
 * and `"standalone": true` for a package that loads `@weft/core` but runs without a runtime.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
// The docs model's modules name each other by the package's own name rather than a relative path:
// @weft/mcp-docs type-checks them as ES modules under NodeNext, which wants a `.js` extension on a
// relative path, and the site's bundler would not map that extension to the `.ts` file.
import {
  CAPABILITY_IDS,
  CORE_PACKAGE,
  CREATE_PACKAGE,
  PACKAGE_KINDS,
  RUNTIMES,
  SERVICE_IDS,
  type CatalogueEntry,
  type ServiceId,
} from '@weft-internal/docs-model/catalogue/model';
import { describeRange } from '@weft-internal/docs-model/catalogue/version-words';

export * from '@weft-internal/docs-model/catalogue/model';

export class CatalogueError extends Error {
  constructor(
    readonly directory: string,
    readonly field: string,
    problem: string,
  ) {
    super(
      `packages/${directory}/package.json: ${field} ${problem}. ` +
        'Every first-party package describes itself for the plugins page with "name", "version", ' +
        '"description", "keywords", "engines" and "weft": { "kind", "displayName", "guide", ' +
        '"provides", "requires", "runtimes" } (see "Catalogue metadata" in docs/contributing-guide.md).',
    );
    this.name = 'CatalogueError';
  }
}

/** The problem zod reports, in the words of the rest of the catalogue's errors. */
function missingOr(problem: string) {
  return (issue: { input: unknown }) => (issue.input === undefined ? 'is missing' : problem);
}

const text = z
  .string({ error: missingOr('must be a non-empty string') })
  .trim()
  .min(1, 'must be a non-empty string');

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, {
    error: (issue) =>
      issue.input === undefined
        ? 'is missing'
        : `must be one of ${values.join(', ')}, got ${JSON.stringify(issue.input)}`,
  });

/** A list without repeats; an absent list is an empty one. */
const listOf = <T extends z.ZodType<string>>(item: T) =>
  z
    .array(item, { error: 'must be an array' })
    .refine((items) => new Set(items).size === items.length, 'must not repeat an item')
    .default([]);

/** `<plugin id>/<name>`, as pipelines and the runtime's logs write executors and triggers. */
const pluginMember = z
  .string()
  .regex(
    /^(?:[\w.-]|<[\w .-]+>)+\/(?:[\w.-]|<[\w .-]+>)+$/,
    'must name an executor or trigger as <plugin id>/<name> (letters, digits, _ . - and <…> for a part the user chooses)',
  );

const versionRanges = z.record(z.string(), z.string()).optional();

const weftField = z.strictObject(
  {
    kind: oneOf(PACKAGE_KINDS),
    displayName: text,
    guide: z
      .string({ error: missingOr('must be a string') })
      .regex(
        /^\/docs\/(?:[a-z0-9-]+\/)+$/,
        'must be the route of a docs page, such as "/docs/guides/testing/" (lowercase, with the slashes)',
      ),
    provides: z
      .strictObject(
        {
          capabilities: listOf(oneOf(CAPABILITY_IDS)),
          services: listOf(oneOf(SERVICE_IDS as [ServiceId, ...ServiceId[]])),
          executors: listOf(pluginMember),
          triggers: listOf(pluginMember),
        },
        { error: 'must be an object' },
      )
      .default({ capabilities: [], services: [], executors: [], triggers: [] }),
    requires: z
      .strictObject(
        {
          capabilities: listOf(oneOf(CAPABILITY_IDS)),
          services: listOf(
            oneOf(SERVICE_IDS as [ServiceId, ...ServiceId[]]).refine(
              (service) => service !== 'runtime',
              'is read from the dependency on @weft/core, not declared',
            ),
          ),
        },
        { error: 'must be an object' },
      )
      .default({ capabilities: [], services: [] }),
    // A package that loads core for its parts (an error class, say) but runs on its own, not
    // plugged into a runtime: its card then does not say it requires one.
    standalone: z.boolean({ error: 'must be true or false' }).default(false),
    runtimes: z
      .array(oneOf(RUNTIMES), { error: missingOr('must be an array') })
      .min(1, 'must name at least one runtime')
      .refine((items) => new Set(items).size === items.length, 'must not repeat an item'),
  },
  { error: missingOr('must be an object') },
);

const manifestSchema = z.object(
  {
    name: text.refine(
      (name) => name.startsWith('@weft/') || name === CREATE_PACKAGE,
      `must be in the @weft scope (or be ${CREATE_PACKAGE})`,
    ),
    version: text,
    description: text,
    keywords: z
      .array(text, { error: missingOr('must be a non-empty array of non-empty strings') })
      .min(1, 'must be a non-empty array of non-empty strings'),
    engines: z.object(
      { node: text },
      { error: missingOr('must be an object naming the Node.js versions supported') },
    ),
    dependencies: versionRanges,
    peerDependencies: versionRanges,
    weft: weftField,
  },
  { error: 'must contain a JSON object' },
);

/** Field path as package.json writes it: `weft.provides.capabilities[0]`. */
function fieldOf(issuePath: readonly PropertyKey[], keys: readonly string[] = []): string {
  let field = '';
  for (const part of [...issuePath, ...keys.slice(0, 1)]) {
    field += typeof part === 'number' ? `[${part}]` : `${field ? '.' : ''}${String(part)}`;
  }
  return field || 'the file';
}

/** Checks one parsed package.json and returns its catalogue entry, or throws a CatalogueError. */
export function validatePackage(directory: string, manifest: unknown): CatalogueEntry {
  const parsed = manifestSchema.safeParse(manifest);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') {
      throw new CatalogueError(directory, fieldOf(issue.path, issue.keys), 'is not a known field');
    }
    throw new CatalogueError(directory, fieldOf(issue.path), issue.message);
  }
  const { name, version, description, keywords, engines, weft } = parsed.data;
  const coreVersions =
    name === CORE_PACKAGE
      ? version
      : (parsed.data.peerDependencies?.[CORE_PACKAGE] ?? parsed.data.dependencies?.[CORE_PACKAGE]);
  // The page shows ranges in words; one it cannot put in words fails here, not misstated there.
  const unreadable =
    'is a version range the plugins page cannot put in words: use exact versions, ^x.y.z or >=x.y.z, joined by ||';
  if (describeRange(engines.node) === undefined) {
    throw new CatalogueError(directory, 'engines.node', unreadable);
  }
  if (
    name !== CORE_PACKAGE &&
    coreVersions !== undefined &&
    describeRange(coreVersions) === undefined
  ) {
    const field = parsed.data.peerDependencies?.[CORE_PACKAGE]
      ? 'peerDependencies'
      : 'dependencies';
    throw new CatalogueError(directory, `${field}["${CORE_PACKAGE}"]`, unreadable);
  }
  if (name === CORE_PACKAGE && !weft.provides.services.includes('runtime')) {
    throw new CatalogueError(directory, 'weft.provides.services', 'must include "runtime"');
  }
  return {
    name,
    version,
    description,
    keywords: [...new Set(keywords)],
    kind: weft.kind,
    displayName: weft.displayName,
    directory,
    guide: weft.guide,
    provides: weft.provides,
    requires: {
      capabilities: weft.requires.capabilities,
      // Every package that loads core needs a runtime to be plugged into, unless it says it runs
      // on its own (weft.standalone).
      services:
        coreVersions !== undefined && name !== CORE_PACKAGE && !weft.standalone
          ? ['runtime', ...weft.requires.services]
          : weft.requires.services,
    },
    runtimes: weft.runtimes,
    coreVersions,
    nodeVersions: engines.node,
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
    let content: string;
    try {
      content = await readFile(path.join(packagesDir, directory, 'package.json'), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        continue; // not a package
      }
      throw error;
    }
    try {
      let manifest: unknown;
      try {
        manifest = JSON.parse(content);
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
