/**
 * Writes what the error registries say in two forms: the sections of the errors reference page
 * (docs/reference/errors.md) and the TSDoc'd code union of each package.
 */
import type { ErrorCodeEntry, ErrorRegistry } from '../../packages/core/src/errors/error-registry';
import type { LoadedRegistry } from '@weft-internal/docs-model/error-registries';

/** The generated part of the errors page runs from this heading to {@link ERRORS_PAGE_END}. */
export const ERRORS_PAGE_START = '## Core codes';
export const ERRORS_PAGE_END = '## HTTP statuses';

/** The lines of a package's errors.ts between which its code union is generated. */
export const CODE_UNION_START =
  '// <error-codes> generated from the registry by: npm run generate:references';
export const CODE_UNION_END = '// </error-codes>';

/** The statuses of an entry, as a list. */
export function statusesOf(entry: ErrorCodeEntry): number[] {
  if (entry.status === undefined) return [];
  return typeof entry.status === 'number' ? [entry.status] : [...entry.status];
}

function codeSection(code: string, entry: ErrorCodeEntry, level: string): string {
  const statuses = statusesOf(entry);
  const status =
    statuses.length === 0
      ? ''
      : ` Answered with HTTP ${statuses.map((value) => `\`${value}\``).join(' or ')}.`;
  return [
    `${level} ${code}`,
    `**Raised by:** ${entry.raisedBy}.${status}`,
    `**Cause:** ${entry.cause}`,
    `**Fix:** ${entry.fix}`,
  ].join('\n\n');
}

function codeSections(registry: ErrorRegistry, level: string): string[] {
  return Object.entries(registry.codes).map(([code, entry]) => codeSection(code, entry, level));
}

/**
 * The page's generated part: the core's codes, then each package's under its name.
 *
 * @param registries - From `loadErrorRegistries`, the core's first.
 */
export function errorSections(registries: readonly LoadedRegistry[]): string {
  const [core, ...packages] = registries;
  if (core?.directory !== 'core') throw new Error('the core registry must come first');
  const parts = [
    ERRORS_PAGE_START,
    'Generated from `CORE_ERRORS` in `packages/core/src/errors.ts`.',
    ...codeSections(core.registry, '###'),
    '## Package codes',
    'The first-party packages raise errors of their own, with codes prefixed by the package. Those a package throws are of an error class of its own, a subclass of `WeftError` named for the package (`SqliteMemoryProviderError`, `ChatPluginError`, `WeftTestingError`), so `WeftError.is(error, code)` recognises them, and their `docsUrl` points here; `create-weft`’s section says how its errors differ. Codes that refuse a client, such as those of the chat route and the websocket listener, are not thrown but reach the client in the answer or an error frame, as their sections say. Each package’s codes come from the registry in its `src/errors.ts`, named for the codes’ prefix (`SQLITE_ERRORS` holds the `WEFT_SQLITE_` codes).',
  ];
  for (const { registry } of packages) {
    parts.push(`### ${registry.packageName}`);
    if (registry.intro !== undefined) parts.push(registry.intro);
    parts.push(...codeSections(registry, '####'));
  }
  return `${parts.join('\n\n')}\n`;
}

/**
 * The code union of a package, with a TSDoc list of its codes, as TypeScript.
 *
 * @param registry - The package's registry.
 * @param typeName - The union's name, such as `WeftErrorCode`.
 */
export function codeUnion(registry: ErrorRegistry, typeName: string): string {
  const codes = Object.entries(registry.codes);
  const list = codes.flatMap(([code, entry]) => wrapComment(`- \`${code}\`: ${entry.summary}`));
  return [
    '/**',
    ` * The code of an error raised by \`${registry.packageName}\`. The list is closed (a new code is`,
    ' * a change to the public API) and stable across versions, so callers branch on the code rather',
    ' * than on messages. Each code has a section of the same name in the errors reference of',
    ' * the documentation, with what raises it, its cause and its fix; the error’s `docsUrl` links it.',
    ' *',
    ...list,
    ' */',
    `export type ${typeName} =`,
    ...codes.map(([code], index) => `  | '${code}'${index === codes.length - 1 ? ';' : ''}`),
  ].join('\n');
}

/** The name of the code union a type file declares, read from its generated block. */
export function codeUnionName(text: string, file: string): string {
  const name = /^export type (\w+) =/m.exec(text)?.[1];
  if (name === undefined) throw new Error(`${file} declares no code union (export type X =)`);
  return name;
}

/** Wraps one TSDoc list item at 100 columns, continuing under the item's text. */
function wrapComment(item: string): string[] {
  const lines: string[] = [];
  let line = ' *';
  for (const word of item.split(' ')) {
    if (line.length + 1 + word.length > 100 && line !== ' *' && line !== ' *  ') {
      lines.push(line);
      line = ' *  ';
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}
