import { WeftError } from '../errors/weft-error.js';
import {
  bigIntProblem,
  circularReferenceProblem,
  JsonWalk,
  shownJsonPath,
} from '../util/json-walk.js';
import type { Memory, QueryMemoryOptions } from './memory-provider.js';

/**
 * The input rules every memory store keeps, so that a memory one store accepts every other store
 * accepts too, and a mistake is refused with the same code whichever store is plugged in. Stores
 * call these checks before they touch their backend and keep only the codes of the backend
 * itself (opening, migrations, connections, timeouts).
 */

/** How many memories {@link MemoryProvider.query} returns when the options give no `limit`. */
export const DEFAULT_MEMORY_QUERY_LIMIT = 100;

/**
 * The most patterns one query's `spacePatterns` may hold. Each pattern becomes a condition of one
 * statement in a database store, and databases cap the size of a statement (SQLite refuses an
 * expression nested 1000 deep, which a thousand alternatives reach).
 */
export const MAX_QUERY_SPACE_PATTERNS = 100;

/**
 * The most UTF-16 code units a memory's `space`, `kind` or `taskId` may have. A database store
 * indexes these columns, and an index entry has a size limit (PostgreSQL's is about 2700 bytes);
 * 500 code units take at most 1500 bytes of UTF-8.
 */
export const MAX_MEMORY_KEY_LENGTH = 500;

/**
 * The most UTF-16 code units of JSON text a memory's `content`, and its `metadata`, may each take.
 * PostgreSQL's `jsonb` holds at most 256 MiB, and its binary form of an array of small numbers is
 * six times the size of the text (`[0,0,…]`); it also parses a value in memory with a cap of 1 GiB
 * per allocation, which an array of 24 million small numbers (48 MB of text) exceeds. 16 Mi code units keep every
 * value well within both, so what one store keeps every store keeps.
 */
export const MAX_MEMORY_JSON_LENGTH = 16 * 1024 * 1024;

/**
 * The most levels of objects and arrays a memory's `content`, and its `metadata`, may each nest:
 * the outermost object or array counts as level 1, so `[[1]]` takes 2. `JSON.stringify` follows
 * nesting on the JavaScript stack, so without a limit how deep a value may go would depend on how
 * deep the caller already is. 100 levels leave room for a request body of the server's 64
 * (`server.maxJsonDepth`) kept inside a task's chain, and stay well within what the stores read
 * back: SQLite's JSON functions refuse text nested past 1000 levels, and PostgreSQL's `jsonb`
 * parser follows nesting on its own stack, whose size `max_stack_depth` sets.
 */
export const MAX_MEMORY_JSON_DEPTH = 100;

/** A new memory that passed {@link checkNewMemory}, with its JSON fields as text. */
export interface CheckedMemory {
  /** The space id: a non-empty string. */
  readonly space: string;
  /** The kind: a non-empty string. */
  readonly kind: string;
  /** The producing task's id, when one was given. */
  readonly taskId: string | undefined;
  /** The content as JSON text. */
  readonly content: string;
  /** The metadata as JSON text of a plain object (`{}` when none was given). */
  readonly metadata: string;
}

/** A patch that passed {@link checkMemoryPatch}; a field left out of the patch is absent. */
export interface CheckedMemoryPatch {
  /** The memory's id. */
  readonly id: string;
  /** The new content as JSON text. */
  readonly content?: string;
  /** The new metadata as JSON text of a plain object. */
  readonly metadata?: string;
}

/** Query options that passed {@link checkMemoryQuery}, with the defaults filled in. */
export interface CheckedMemoryQuery {
  /** Exact space id. */
  readonly space?: string;
  /** Space id prefix; left out when it is longer than any kept space. */
  readonly spacePrefix?: string;
  /**
   * Space patterns in which `*` matches any run of characters, each run of `*` written as one;
   * patterns no kept space can match are left out.
   */
  readonly spacePatterns?: readonly string[];
  /** Only memories of this kind. */
  readonly kind?: string;
  /** Only memories produced by this task. */
  readonly taskId?: string;
  /** Only memories created at or after this instant (a copy of the caller's `Date`). */
  readonly since?: Date;
  /** Only memories created before this instant (a copy of the caller's `Date`). */
  readonly until?: Date;
  /**
   * Most memories to return: a positive integer, {@link DEFAULT_MEMORY_QUERY_LIMIT} by default,
   * and at most `Number.MAX_SAFE_INTEGER` (a larger limit is lowered to it).
   */
  readonly limit: number;
  /** Order by creation time, `desc` by default. */
  readonly order: 'asc' | 'desc';
}

// A lone surrogate has no UTF-8 form: a database would store U+FFFD in its place, so two
// different ids would become one. NUL is refused by PostgreSQL's text and jsonb types.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Says what keeps a string from being stored unchanged by every store, if anything.
 *
 * @param text - The string.
 * @returns `undefined` when it is storable, else the reason, for an error message.
 * @internal
 * @claim tsdoc-core-unstorable
 */
export function unstorableText(text: string): string | undefined {
  if (text.includes('\0')) return 'contains a NUL character (\\u0000), which stores cannot hold';
  if (hasLoneSurrogate(text)) return 'contains a lone UTF-16 surrogate, which has no UTF-8 form';
  return undefined;
}

/**
 * Tells whether a string holds a UTF-16 surrogate without its pair, which has no UTF-8 form:
 * encoding it gives U+FFFD, the same bytes as a real U+FFFD.
 *
 * @param text - The string.
 * @returns `true` when some surrogate is unpaired.
 * @internal
 */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'an invalid Date' : 'a Date';
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol' || typeof value === 'function') return `a ${typeof value}`;
  return String(value);
}

function invalid(owner: string, message: string, cause?: unknown): WeftError {
  return new WeftError(
    'WEFT_MEMORY_INVALID',
    `${owner}: ${message}`,
    cause === undefined ? {} : { cause },
  );
}

function invalidQuery(owner: string, option: string, problem: string): WeftError {
  return new WeftError(
    'WEFT_MEMORY_INVALID_QUERY',
    `${owner}: query option "${option}" ${problem}`,
  );
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function checkLength(owner: string, value: string, field: string, where: string): void {
  if (value.length > MAX_MEMORY_KEY_LENGTH) {
    throw invalid(
      owner,
      `a memory's "${field}"${where} may be at most ${MAX_MEMORY_KEY_LENGTH} characters long, got ${value.length}`,
    );
  }
}

function checkText(owner: string, value: unknown, field: string, where: string): string {
  if (typeof value !== 'string' || value === '') {
    throw invalid(
      owner,
      `a memory's "${field}" must be a non-empty string${where}, got ${show(value)}`,
    );
  }
  checkLength(owner, value, field, where);
  const problem = unstorableText(value);
  if (problem) throw invalid(owner, `a memory's "${field}"${where} ${problem}`);
  return value;
}

/** Thrown from the replacer of {@link toJsonText} to stop the walk at a value past the limit. */
class TooDeep extends Error {
  constructor(readonly path: string) {
    super('nested too deep');
  }
}

/**
 * The JSON text of a value, refusing what has no JSON form, what nests deeper than
 * {@link MAX_MEMORY_JSON_DEPTH}, and strings no store can hold. `Date`s and objects with `toJSON`
 * become what `JSON.stringify` makes of them. A cycle or a `BigInt` is named with its path, from
 * the name `root`. The depth is checked as the value is written, on what `toJSON()` gives: the
 * walk stops at the first object or array past the limit, so it never goes deeper into the stack
 * than the limit, wherever the caller is.
 */
function toJsonText(owner: string, value: unknown, what: string, root: string): string {
  const walk = new JsonWalk(root);
  let unwritable: string | undefined;
  let json: string | undefined;
  try {
    json = JSON.stringify(value, function check(this: unknown, key: string, item: unknown) {
      const keyProblem = unstorableText(key);
      if (keyProblem) throw new Error(`a key ${keyProblem}`);
      const { depth, circular } = walk.visit(this, key, item);
      // JSON.stringify throws its own TypeError once a cycle or a BigInt is returned; the
      // refusal keeps that as its cause and says where, in one line.
      if (circular) unwritable = circularReferenceProblem(walk.path());
      else if (typeof item === 'bigint') unwritable = bigIntProblem(walk.path(), root);
      else if (depth > MAX_MEMORY_JSON_DEPTH) throw new TooDeep(walk.path());
      if (typeof item === 'string') {
        const problem = unstorableText(item);
        if (problem) throw new Error(`the string${key ? ` at key "${key}"` : ''} ${problem}`);
      }
      return item;
    }) as string | undefined;
  } catch (error) {
    if (error instanceof TooDeep) {
      throw invalid(
        owner,
        `${what} nests objects and arrays deeper than the limit of ${MAX_MEMORY_JSON_DEPTH} levels (MAX_MEMORY_JSON_DEPTH): ${shownJsonPath(error.path)} is at level ${MAX_MEMORY_JSON_DEPTH + 1}; store flatter data`,
      );
    }
    const reason =
      unwritable === undefined
        ? error instanceof Error
          ? error.message
          : String(error)
        : `it ${unwritable}`;
    throw invalid(owner, `${what} has no JSON form: ${reason}`, error);
  }
  if (json === undefined) {
    throw invalid(owner, `${what} has no JSON form: it is ${show(value)}; store null for nothing`);
  }
  if (json.length > MAX_MEMORY_JSON_LENGTH) {
    throw invalid(
      owner,
      `${what} is ${json.length} characters long as JSON, over the limit of ${MAX_MEMORY_JSON_LENGTH} (MAX_MEMORY_JSON_LENGTH); store large data elsewhere and keep a reference to it`,
    );
  }
  return json;
}

function metadataJson(owner: string, value: unknown, what: string): string {
  if (!isPlainRecord(value)) {
    throw invalid(owner, `${what} must be a plain object, got ${show(value)}`);
  }
  const json = toJsonText(owner, value, what, 'metadata');
  // A toJSON method may turn the object into anything; what is kept must read back as an object.
  if (!json.startsWith('{')) {
    throw invalid(
      owner,
      `${what} must have a JSON object as its JSON form, but its toJSON() gave ${json.slice(0, 40)}`,
    );
  }
  return json;
}

/**
 * Checks a memory given to {@link MemoryProvider.store} and serialises its content and metadata.
 * The rules: `space` and `kind` are non-empty strings; `taskId` is a string or absent (`null`
 * counts as absent); none of the three is longer than {@link MAX_MEMORY_KEY_LENGTH}; `content`
 * has a JSON form (not `undefined`, a `BigInt`, a function or a cycle); `metadata` is a plain
 * object (absent or `null` means `{}`) whose JSON form is an object too (not what a `toJSON`
 * method turns into a list, say); neither nests objects and arrays more than
 * {@link MAX_MEMORY_JSON_DEPTH} levels deep, nor is its JSON text longer than
 * {@link MAX_MEMORY_JSON_LENGTH}; and no string, key included, holds a NUL character or a lone
 * UTF-16 surrogate.
 *
 * @param memory - The memory as the caller gave it.
 * @param owner - Who checks, at the start of error messages, such as `MyStore "main"`.
 * @returns The memory's fields, with content and metadata as JSON text.
 * @throws {@link WeftError} `WEFT_MEMORY_INVALID` naming the field that breaks a rule.
 *
 * @example
 * ```ts
 * import { checkNewMemory, type Memory } from '@weft/core';
 *
 * function toRow(memory: Omit<Memory, 'id' | 'createdAt'>) {
 *   const checked = checkNewMemory(memory, 'FileMemory');
 *   return { id: crypto.randomUUID(), ...checked, createdAt: Date.now() };
 * }
 * ```
 * @claim tsdoc-core-check-new-memory
 */
export function checkNewMemory(memory: unknown, owner: string): CheckedMemory {
  if (memory === null || typeof memory !== 'object' || Array.isArray(memory)) {
    throw invalid(owner, `store() needs a memory object, got ${show(memory)}`);
  }
  const fields = memory as Partial<Record<keyof Omit<Memory, 'id' | 'createdAt'>, unknown>>;
  const space = checkText(owner, fields.space, 'space', '');
  const kind = checkText(owner, fields.kind, 'kind', ` (space "${space}")`);
  const where = ` (space "${space}", kind "${kind}")`;
  let taskId: string | undefined;
  if (fields.taskId !== undefined && fields.taskId !== null) {
    if (typeof fields.taskId !== 'string') {
      throw invalid(
        owner,
        `a memory's "taskId" must be a string when given${where}, got ${show(fields.taskId)}`,
      );
    }
    checkLength(owner, fields.taskId, 'taskId', where);
    const problem = unstorableText(fields.taskId);
    if (problem) throw invalid(owner, `a memory's "taskId"${where} ${problem}`);
    taskId = fields.taskId;
  }
  const memoryOf = `a memory of kind "${kind}" in space "${space}"`;
  return {
    space,
    kind,
    taskId,
    content: toJsonText(owner, fields.content, `the "content" of ${memoryOf}`, 'content'),
    metadata: metadataJson(owner, fields.metadata ?? {}, `the "metadata" of ${memoryOf}`),
  };
}

/**
 * Checks the arguments of {@link MemoryProvider.update} and serialises the patch. A field that is
 * absent or `undefined` in the patch is left out (the store keeps it); the fields given follow
 * the rules of {@link checkNewMemory}.
 *
 * @param id - The memory's id as the caller gave it.
 * @param patch - The patch as the caller gave it.
 * @param owner - Who checks, at the start of error messages.
 * @returns The id and the patch's fields as JSON text.
 * @throws {@link WeftError} `WEFT_INVALID_ARGUMENT` when `id` is not a string;
 * `WEFT_MEMORY_INVALID` naming the field when the patch is not an object or a field breaks a rule.
 *
 * @example
 * ```ts
 * import { checkMemoryPatch } from '@weft/core';
 *
 * const patch = checkMemoryPatch('m-1', { metadata: { pinned: true } }, 'FileMemory');
 * console.log(patch); // { id: 'm-1', metadata: '{"pinned":true}' }: the content is kept
 * ```
 * @claim tsdoc-core-check-patch
 * @claim tsdoc-core-check-patch-throws
 */
export function checkMemoryPatch(id: unknown, patch: unknown, owner: string): CheckedMemoryPatch {
  const checkedId = checkMemoryId(id, 'update', owner);
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) {
    throw invalid(
      owner,
      `update() of memory ${JSON.stringify(checkedId)} needs a patch object, got ${show(patch)}`,
    );
  }
  const { content, metadata } = patch as { content?: unknown; metadata?: unknown };
  const of = `of memory ${JSON.stringify(checkedId)}`;
  return {
    id: checkedId,
    ...(content === undefined
      ? {}
      : { content: toJsonText(owner, content, `the new "content" ${of}`, 'content') }),
    ...(metadata === undefined
      ? {}
      : { metadata: metadataJson(owner, metadata, `the new "metadata" ${of}`) }),
  };
}

/**
 * Checks the id given to {@link MemoryProvider.update} or {@link MemoryProvider.remove}. Any
 * string is accepted: an id no memory has is not found (`update`) or not deleted (`remove`).
 *
 * @param id - The id as the caller gave it.
 * @param method - The method called, for the message.
 * @param owner - Who checks, at the start of error messages.
 * @returns The id.
 * @throws {@link WeftError} `WEFT_INVALID_ARGUMENT` when `id` is not a string.
 *
 * @example
 * ```ts
 * import { checkMemoryId } from '@weft/core';
 *
 * const memories = new Map<string, unknown>();
 * function remove(id: string): boolean {
 *   return memories.delete(checkMemoryId(id, 'remove', 'MapMemory'));
 * }
 * ```
 * @claim tsdoc-core-check-id
 */
export function checkMemoryId(id: unknown, method: 'update' | 'remove', owner: string): string {
  if (typeof id !== 'string') {
    throw new WeftError(
      'WEFT_INVALID_ARGUMENT',
      `${owner}: ${method}() needs a memory id string, got ${show(id)}`,
    );
  }
  return id;
}

/**
 * Checks the space given to {@link MemoryProvider.clear}.
 *
 * @param space - The space as the caller gave it.
 * @param owner - Who checks, at the start of error messages.
 * @returns The space, or `undefined` to clear everything.
 * @throws {@link WeftError} `WEFT_INVALID_ARGUMENT` when `space` is given and not a string.
 *
 * @example
 * ```ts
 * import { checkClearSpace } from '@weft/core';
 *
 * const only = checkClearSpace(undefined, 'FileMemory');
 * console.log(only === undefined ? 'clear every space' : `clear ${only}`);
 * ```
 */
export function checkClearSpace(space: unknown, owner: string): string | undefined {
  if (space !== undefined && typeof space !== 'string') {
    throw new WeftError(
      'WEFT_INVALID_ARGUMENT',
      `${owner}: clear() takes a space id string, or nothing, got ${show(space)}`,
    );
  }
  return space;
}

/**
 * The error a store throws when {@link MemoryProvider.update} names an id no memory has.
 *
 * @param id - The id.
 * @param owner - Who raises it, at the start of the message.
 * @returns A {@link WeftError} `WEFT_MEMORY_NOT_FOUND` naming the id, to throw.
 *
 * @example
 * ```ts
 * import { memoryNotFound, type Memory } from '@weft/core';
 *
 * function find(memories: Map<string, Memory>, id: string): Memory {
 *   const memory = memories.get(id);
 *   if (!memory) throw memoryNotFound(id, 'MapMemory');
 *   return memory;
 * }
 * ```
 */
export function memoryNotFound(id: string, owner: string): WeftError {
  return new WeftError(
    'WEFT_MEMORY_NOT_FOUND',
    `${owner}: no memory with id ${JSON.stringify(id)}; use an id that store() or query() returned`,
  );
}

function optionalQueryText(owner: string, option: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string')
    throw invalidQuery(owner, option, `must be a string, got ${show(value)}`);
  const problem = unstorableText(value);
  if (problem) throw invalidQuery(owner, option, problem);
  return value;
}

function optionalDate(owner: string, option: string, value: unknown): Date | undefined {
  if (value === undefined) return undefined;
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw invalidQuery(owner, option, `must be a valid Date, got ${show(value)}`);
  }
  return new Date(value.getTime());
}

function spacePatterns(owner: string, value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    throw invalidQuery(owner, 'spacePatterns', `must be an array of strings, got ${show(value)}`);
  }
  if (value.length > MAX_QUERY_SPACE_PATTERNS) {
    throw invalidQuery(
      owner,
      'spacePatterns',
      `may hold at most ${MAX_QUERY_SPACE_PATTERNS} patterns, got ${value.length}`,
    );
  }
  // Array.from visits the holes of a sparse array, which map() would skip and keep as holes.
  return Array.from(value as unknown[], (pattern: unknown, index) => {
    const checked = optionalQueryText(owner, `spacePatterns[${index}]`, pattern);
    if (checked === undefined) {
      throw invalidQuery(owner, `spacePatterns[${index}]`, 'must be a string, got undefined');
    }
    // `**` matches what `*` matches; one star keeps a store's LIKE pattern or matcher small.
    return checked.replace(/\*{2,}/g, '*');
  });
}

/**
 * Every option {@link MemoryProvider.query} reads. Another name is refused rather than ignored:
 * a misspelt filter (`spacePatern`) would otherwise leave the query without it, and return the
 * memories of every space.
 */
const QUERY_OPTIONS: ReadonlySet<string> = new Set<keyof QueryMemoryOptions>([
  'space',
  'spacePrefix',
  'spacePatterns',
  'kind',
  'taskId',
  'since',
  'until',
  'limit',
  'order',
]);

/**
 * Whether some space a store keeps could match: a space is at most {@link MAX_MEMORY_KEY_LENGTH}
 * code units long, so a prefix or a pattern's literal text longer than that matches none. Leaving
 * such a filter out keeps every store's statement small (SQLite refuses a LIKE pattern over
 * 50,000 bytes) without changing what a query finds.
 */
function canMatchSomeSpace(literal: string): boolean {
  return literal.length <= MAX_MEMORY_KEY_LENGTH;
}

/**
 * Checks the options given to {@link MemoryProvider.query} and fills in the defaults: `limit`
 * {@link DEFAULT_MEMORY_QUERY_LIMIT} and `order` `desc`. The rules: the options are an object;
 * `space`, `spacePrefix`, `kind` and `taskId` are strings when given; `spacePatterns` is an array
 * of at most {@link MAX_QUERY_SPACE_PATTERNS} strings; `since` and `until` are valid `Date`s;
 * `limit` is a positive integer; `order` is `asc` or `desc`; no other option is named (a misspelt
 * filter would otherwise be ignored, and the query find every space's memories); and no string
 * holds a NUL character or a lone UTF-16 surrogate. The space filters come back in the form every store can run, with
 * the same meaning: each run of `*` in a pattern is one `*`, and a `spacePrefix` or pattern whose
 * literal text is longer than {@link MAX_MEMORY_KEY_LENGTH}, which no kept space can match, is
 * left out (an empty `spacePatterns` list takes its place when it was the only space filter).
 *
 * @param options - The options as the caller gave them.
 * @param owner - Who checks, at the start of error messages.
 * @returns The options with `limit` and `order` always set.
 * @throws {@link WeftError} `WEFT_MEMORY_INVALID_QUERY` naming the first option that breaks a rule.
 *
 * @example
 * ```ts
 * import { checkMemoryQuery } from '@weft/core';
 *
 * const { limit, order } = checkMemoryQuery({ kind: 'note' }, 'FileMemory');
 * console.log(limit, order); // 100 desc
 * ```
 * @claim tsdoc-core-check-query
 */
export function checkMemoryQuery(options: unknown, owner: string): CheckedMemoryQuery {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new WeftError(
      'WEFT_MEMORY_INVALID_QUERY',
      `${owner}: query() needs an options object, got ${show(options)}; pass {} for no filter`,
    );
  }
  for (const name of Object.keys(options)) {
    if (!QUERY_OPTIONS.has(name)) {
      throw invalidQuery(
        owner,
        name,
        `is not an option of query(); its options are ${[...QUERY_OPTIONS].join(', ')}`,
      );
    }
  }
  const given = options as Partial<Record<keyof QueryMemoryOptions, unknown>>;
  const checked: { -readonly [K in keyof CheckedMemoryQuery]?: CheckedMemoryQuery[K] } = {};
  const space = optionalQueryText(owner, 'space', given.space);
  if (space !== undefined) checked.space = space;
  const spacePrefix = optionalQueryText(owner, 'spacePrefix', given.spacePrefix);
  const patterns = spacePatterns(owner, given.spacePatterns);
  // A space filter no kept space can match is left out; an empty pattern list stands in for it,
  // so a query whose only space filter was left out still matches no space.
  const droppedSpaceFilter =
    (spacePrefix !== undefined && !canMatchSomeSpace(spacePrefix)) ||
    (patterns ?? []).some((pattern) => !canMatchSomeSpace(pattern.replace(/\*/g, '')));
  if (spacePrefix !== undefined && canMatchSomeSpace(spacePrefix)) {
    checked.spacePrefix = spacePrefix;
  }
  if (patterns !== undefined || droppedSpaceFilter) {
    checked.spacePatterns = (patterns ?? []).filter((pattern) =>
      canMatchSomeSpace(pattern.replace(/\*/g, '')),
    );
  }
  const kind = optionalQueryText(owner, 'kind', given.kind);
  if (kind !== undefined) checked.kind = kind;
  const taskId = optionalQueryText(owner, 'taskId', given.taskId);
  if (taskId !== undefined) checked.taskId = taskId;
  const since = optionalDate(owner, 'since', given.since);
  if (since !== undefined) checked.since = since;
  const until = optionalDate(owner, 'until', given.until);
  if (until !== undefined) checked.until = until;
  // Only a missing option takes the default: `null` is a value of the wrong type, refused as the
  // filters refuse it.
  const limit = given.limit === undefined ? DEFAULT_MEMORY_QUERY_LIMIT : given.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
    throw invalidQuery(
      owner,
      'limit',
      `must be a positive integer, got ${show(limit)}; leave it out for the default of ${DEFAULT_MEMORY_QUERY_LIMIT}`,
    );
  }
  const order = given.order === undefined ? 'desc' : given.order;
  if (order !== 'asc' && order !== 'desc') {
    throw invalidQuery(owner, 'order', `must be "asc" or "desc", got ${show(order)}`);
  }
  // No store holds more memories than this, and a larger number has no exact form to bind.
  return { ...checked, limit: Math.min(limit, Number.MAX_SAFE_INTEGER), order };
}

/**
 * Whether a space matches one of the patterns of a query's `spacePatterns`, in which `*` matches
 * any run of characters, a line break included, as the database stores' `LIKE` does. The pieces
 * between stars are found in order, each at its first place after the one before: unlike a
 * regular expression, whose backtracking takes minutes on a pattern such as
 * `*a*a*a*a*a*a*a*a*a*a*b`, it reads the space once per piece. For a store that filters memories
 * in its own process, after {@link checkMemoryQuery}.
 *
 * @param space - A stored memory's space.
 * @param pattern - One of the query's patterns.
 * @returns Whether the pattern matches the whole space.
 *
 * @example
 * ```ts
 * import { matchesSpacePattern } from '@weft/core';
 *
 * console.log(matchesSpacePattern('user-ada', 'user-*')); // true
 * console.log(matchesSpacePattern('team-ada', 'user-*')); // false
 * ```
 */
export function matchesSpacePattern(space: string, pattern: string): boolean {
  const [first = '', ...rest] = pattern.split('*');
  const last = rest.pop();
  if (last === undefined) return space === first;
  const end = space.length - last.length;
  if (end < first.length || !space.startsWith(first) || !space.endsWith(last)) return false;
  let at = first.length;
  for (const piece of rest) {
    const found = space.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}
