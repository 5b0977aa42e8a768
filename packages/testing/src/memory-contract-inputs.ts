import {
  MAX_MEMORY_JSON_DEPTH,
  MAX_MEMORY_JSON_LENGTH,
  type Memory,
  type MemoryProvider,
  type QueryMemoryOptions,
} from '@weft/core';

/** The codes a store refuses input with under the memory contract. */
export type MemoryContractCode =
  | 'WEFT_MEMORY_INVALID'
  | 'WEFT_MEMORY_INVALID_QUERY'
  | 'WEFT_MEMORY_NOT_FOUND'
  | 'WEFT_INVALID_ARGUMENT';

/** One input every store must refuse, with the code it must refuse it with. */
export interface InvalidMemoryInput {
  /** What the input is, as a test title. */
  readonly name: string;
  /** The code of the error the store must throw. */
  readonly code: MemoryContractCode;
  /** A word the error's message must hold: the field, option or argument at fault. */
  readonly names: string;
  /**
   * Makes the call.
   *
   * @param provider - An open store holding one memory.
   * @param storedId - That memory's id.
   */
  readonly call: (provider: MemoryProvider, storedId: string) => Promise<unknown>;
}

type NewMemory = Omit<Memory, 'id' | 'createdAt'>;

const valid: NewMemory = { space: 'inputs', kind: 'note', content: { ok: true }, metadata: {} };

// The calls pass what TypeScript would refuse, as a plugin written in JavaScript or reading JSON
// from a peer may; the casts say so once, here.
const store = (memory: unknown) => (provider: MemoryProvider) =>
  provider.store(memory as NewMemory);
const storeWith = (fields: Record<string, unknown>) => store({ ...valid, ...fields });
const update =
  (patch: unknown, id?: unknown) =>
  (provider: MemoryProvider, storedId: string): Promise<Memory> =>
    provider.update((id ?? storedId) as string, patch as { content?: unknown });
const query = (options: unknown) => (provider: MemoryProvider) =>
  provider.query(options as QueryMemoryOptions);

/** A value one level deeper than MAX_MEMORY_JSON_DEPTH allows: objects in objects, around 1. */
function tooDeep(): unknown {
  let value: unknown = 1;
  for (let level = 0; level <= MAX_MEMORY_JSON_DEPTH; level += 1) value = { a: value };
  return value;
}

function circular(): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  value.self = value;
  return value;
}

/**
 * Inputs every memory store refuses, each with the shared code and the word its message names.
 * `memoryProviderContract` runs them all against a store holding one memory and then checks that
 * the memory is unchanged and nothing else was stored. Exported so a store's own tests can run
 * them one by one.
 */
export const INVALID_MEMORY_INPUTS: readonly InvalidMemoryInput[] = [
  // store(): the memory
  { name: 'store() of null', code: 'WEFT_MEMORY_INVALID', names: 'memory', call: store(null) },
  { name: 'store() of an array', code: 'WEFT_MEMORY_INVALID', names: 'memory', call: store([]) },
  ...(
    [
      ['an empty space', { space: '' }, 'space'],
      ['a numeric space', { space: 5 }, 'space'],
      ['no space', { space: undefined }, 'space'],
      ['a space holding a NUL character', { space: 'a\0b' }, 'space'],
      ['a space holding a lone surrogate', { space: 'a\uD800' }, 'space'],
      ['a space of 501 characters', { space: 's'.repeat(501) }, 'space'],
      ['an empty kind', { kind: '' }, 'kind'],
      ['a kind of 501 characters', { kind: 'k'.repeat(501) }, 'kind'],
      ['a numeric kind', { kind: 5 }, 'kind'],
      ['a numeric taskId', { taskId: 5 }, 'taskId'],
      ['a taskId holding a NUL character', { taskId: 't\0' }, 'taskId'],
      ['a taskId of 501 characters', { taskId: 't'.repeat(501) }, 'taskId'],
      ['undefined content', { content: undefined }, 'content'],
      ['BigInt content', { content: 10n }, 'content'],
      ['content holding a BigInt', { content: { amount: 10n } }, 'content'],
      ['circular content', { content: circular() }, 'content'],
      ['a function as content', { content: () => 1 }, 'content'],
      ['content holding a NUL character', { content: { text: 'a\0b' } }, 'content'],
      ['content with a lone surrogate in a key', { content: { ['k\uDC00']: 1 } }, 'content'],
      ['metadata that is an array', { metadata: ['a'] }, 'metadata'],
      ['metadata that is a string', { metadata: 'tag' }, 'metadata'],
      ['metadata that is a Map', { metadata: new Map([['a', 1]]) }, 'metadata'],
      ['metadata holding a BigInt', { metadata: { n: 1n } }, 'metadata'],
      ['metadata whose toJSON() gives a list', { metadata: { toJSON: () => ['a'] } }, 'metadata'],
    ] as const
  ).map(([what, fields, names]): InvalidMemoryInput => ({
    name: `store() of a memory with ${what}`,
    code: 'WEFT_MEMORY_INVALID',
    names,
    call: storeWith(fields),
  })),
  {
    // Built at the call: a module constant would hold 16 MiB for every importer of the package.
    name: 'store() of a memory whose content is longer than MAX_MEMORY_JSON_LENGTH as JSON',
    code: 'WEFT_MEMORY_INVALID',
    names: 'content',
    call: (provider) =>
      provider.store({ ...valid, content: 'x'.repeat(MAX_MEMORY_JSON_LENGTH - 1) }),
  },
  {
    name: 'store() of a memory whose content nests deeper than MAX_MEMORY_JSON_DEPTH',
    code: 'WEFT_MEMORY_INVALID',
    names: 'MAX_MEMORY_JSON_DEPTH',
    call: (provider) => provider.store({ ...valid, content: tooDeep() }),
  },
  // update(): the id, then the patch, then the lookup
  {
    name: 'update() with a numeric id',
    code: 'WEFT_INVALID_ARGUMENT',
    names: 'id',
    call: update({ content: 1 }, 5),
  },
  {
    name: 'update() with a null patch',
    code: 'WEFT_MEMORY_INVALID',
    names: 'patch',
    call: update(null),
  },
  {
    name: 'update() with content holding a BigInt',
    code: 'WEFT_MEMORY_INVALID',
    names: 'content',
    call: update({ content: { amount: 10n } }),
  },
  {
    name: 'update() with metadata nested deeper than MAX_MEMORY_JSON_DEPTH',
    code: 'WEFT_MEMORY_INVALID',
    names: 'metadata',
    call: update({ metadata: tooDeep() }),
  },
  {
    name: 'update() with metadata that is an array',
    code: 'WEFT_MEMORY_INVALID',
    names: 'metadata',
    call: update({ metadata: [1] }),
  },
  {
    name: 'update() with null metadata',
    code: 'WEFT_MEMORY_INVALID',
    names: 'metadata',
    call: update({ metadata: null }),
  },
  {
    name: 'update() of an unknown id with a patch that cannot be stored',
    code: 'WEFT_MEMORY_INVALID',
    names: 'content',
    call: update({ content: 10n }, 'no-such-memory'),
  },
  {
    name: 'update() of an unknown id',
    code: 'WEFT_MEMORY_NOT_FOUND',
    names: 'no-such-memory',
    call: update({ content: 1 }, 'no-such-memory'),
  },
  {
    name: 'update() of an id that is not a UUID',
    code: 'WEFT_MEMORY_NOT_FOUND',
    names: 'not a uuid',
    call: update({ content: 1 }, 'not a uuid'),
  },
  // query(): every option
  {
    name: 'query() of null',
    code: 'WEFT_MEMORY_INVALID_QUERY',
    names: 'options',
    call: query(null),
  },
  ...(
    [
      ['limit', 0],
      ['limit', -1],
      ['limit', 1.5],
      ['limit', '10'],
      ['limit', Number.NaN],
      ['limit', Number.POSITIVE_INFINITY],
      ['limit', null],
      ['order', 'sideways'],
      ['order', null],
      ['order', 'ASC'],
      ['since', '2026-01-01'],
      ['since', new Date(Number.NaN)],
      ['since', Date.now()],
      ['until', '2026-01-01'],
      ['space', 5],
      ['space', 'a\0'],
      ['spacePrefix', null],
      ['kind', 5],
      ['taskId', {}],
      ['spacePatterns', 'inputs*'],
      ['spacePatterns', [5]],
      ['spacePatterns', ['a\uD800*']],
      ['spacePatterns', Array.from({ length: 101 }, (_, index) => `p-${index}*`)],
    ] as const
  ).map(([option, value]): InvalidMemoryInput => ({
    name: `query() with ${option} ${describe(value)}`,
    code: 'WEFT_MEMORY_INVALID_QUERY',
    names: option,
    call: query({ [option]: value }),
  })),
  // remove() and clear(): the argument
  {
    name: 'remove() with a numeric id',
    code: 'WEFT_INVALID_ARGUMENT',
    names: 'id',
    call: (provider) => provider.remove(5 as unknown as string),
  },
  {
    name: 'clear() with a numeric space',
    code: 'WEFT_INVALID_ARGUMENT',
    names: 'space',
    call: (provider) => provider.clear(5 as unknown as string),
  },
];

function describe(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 20 ? value.slice(0, 20) : value);
  if (Array.isArray(value))
    return value.length > 3 ? `[${value.length} patterns]` : `[${value.map(describe).join(', ')}]`;
  if (value instanceof Date) return 'Invalid Date';
  if (value === null) return 'null';
  if (typeof value === 'object') return '{}';
  return String(value);
}
