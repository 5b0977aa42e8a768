import {
  checkClearSpace,
  checkMemoryId,
  checkMemoryPatch,
  checkMemoryQuery,
  checkNewMemory,
  matchesSpacePattern,
  memoryNotFound,
  MemoryProvider,
  type Memory,
  type QueryMemoryOptions,
} from '@weft/core';
import { WeftTestingError } from './errors.js';
import { ID_OPTION_RULE, isBadIdOption } from './id-option.js';

/**
 * A memory provider that keeps memories in a Map: for tests, examples and short-lived agents.
 * It checks its input with the core's shared checks (`checkNewMemory`, `checkMemoryPatch`,
 * `checkMemoryQuery`), as `SqliteMemoryProvider` and `PostgresMemoryProvider` do, so it accepts
 * and refuses exactly what they do, with the same codes: content and metadata are stored as their
 * JSON form (copied on the way in and out, as a serialising store would), a memory with an empty
 * `space` or `kind` or content with no JSON form is refused with `WEFT_MEMORY_INVALID`, a bad
 * query option with `WEFT_MEMORY_INVALID_QUERY`, an unknown id on update with
 * `WEFT_MEMORY_NOT_FOUND`, and `createdAt` is a `Date`. What it does not share with a durable
 * store: memories are lost when the process ends.
 */
export class InMemoryMemoryProvider extends MemoryProvider {
  readonly id: string;
  private readonly memories = new Map<string, Kept>();
  private lastTime = 0;

  /**
   * Creates an empty store.
   *
   * @param options - `id`, the provider's id (default `'in-memory'`).
   * @throws {@link WeftTestingError} `WEFT_TESTING_INVALID_OPTIONS` naming the option when the
   * options are not an object, name an option it does not have, or `id` is not a non-empty
   * string or is white space alone.
   * @claim tsdoc-in-memory-options
   */
  constructor(options: { id?: string } = {}) {
    super();
    checkOptions(options);
    this.id = options.id ?? 'in-memory';
  }

  private get label(): string {
    return `InMemoryMemoryProvider "${this.id}"`;
  }

  async store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
    const checked = checkNewMemory(memory, this.label);
    // Strictly increasing timestamps keep "newest first" well defined within one millisecond.
    this.lastTime = Math.max(Date.now(), this.lastTime + 1);
    const kept: Kept = {
      // Web Crypto, which browsers have too: the provider also serves runs in a page.
      id: globalThis.crypto.randomUUID(),
      space: checked.space,
      kind: checked.kind,
      content: checked.content,
      taskId: checked.taskId,
      metadata: checked.metadata,
      createdAt: this.lastTime,
    };
    this.memories.set(kept.id, kept);
    return read(kept);
  }

  async update(
    id: string,
    patch: { content?: unknown; metadata?: Record<string, unknown> },
  ): Promise<Memory> {
    // The whole patch is checked before the lookup, as a database store checks before its
    // statement, so a bad patch is refused the same way for a known and an unknown id.
    const checked = checkMemoryPatch(id, patch, this.label);
    const current = this.memories.get(checked.id);
    if (!current) throw memoryNotFound(checked.id, this.label);
    const updated: Kept = {
      ...current,
      content: checked.content ?? current.content,
      metadata: checked.metadata ?? current.metadata,
    };
    this.memories.set(checked.id, updated);
    return read(updated);
  }

  async query(options: QueryMemoryOptions): Promise<Memory[]> {
    const query = checkMemoryQuery(options, this.label);
    const patterns = query.spacePatterns ?? [];
    const filterBySpace =
      query.space !== undefined ||
      query.spacePrefix !== undefined ||
      query.spacePatterns !== undefined;
    const matches = [...this.memories.values()].filter((memory) => {
      if (filterBySpace) {
        const inSpace =
          memory.space === query.space ||
          (query.spacePrefix !== undefined && memory.space.startsWith(query.spacePrefix)) ||
          patterns.some((pattern) => matchesSpacePattern(memory.space, pattern));
        if (!inSpace) return false;
      }
      if (query.kind !== undefined && memory.kind !== query.kind) return false;
      if (query.taskId !== undefined && memory.taskId !== query.taskId) return false;
      if (query.since && memory.createdAt < query.since.getTime()) return false;
      if (query.until && memory.createdAt >= query.until.getTime()) return false;
      return true;
    });
    const direction = query.order === 'asc' ? 1 : -1;
    matches.sort((a, b) => direction * (a.createdAt - b.createdAt));
    return matches.slice(0, query.limit).map(read);
  }

  async remove(id: string): Promise<boolean> {
    return this.memories.delete(checkMemoryId(id, 'remove', this.label));
  }

  async clear(space?: string): Promise<number> {
    if (checkClearSpace(space, this.label) === undefined) {
      const count = this.memories.size;
      this.memories.clear();
      return count;
    }
    let count = 0;
    for (const [id, memory] of this.memories) {
      if (memory.space === space) {
        this.memories.delete(id);
        count += 1;
      }
    }
    return count;
  }
}

/**
 * A memory as the provider keeps it: content and metadata as the JSON text the checks produced,
 * and the time in milliseconds, as a database row holds them. Each read parses a new copy, so a
 * caller never holds the kept value; parsing, unlike `structuredClone`, takes content as deeply
 * nested as the checks accept, as SQLite and PostgreSQL do.
 */
interface Kept {
  readonly id: string;
  readonly space: string;
  readonly kind: string;
  readonly content: string;
  readonly taskId: string | undefined;
  readonly metadata: string;
  readonly createdAt: number;
}

/**
 * A new {@link Memory} read from what is kept, `taskId` present only when there is one. Its fields
 * come in the order SQLite and PostgreSQL give them (`taskId` last), so a memory's JSON text and
 * its list of keys are the same from every store.
 */
function read(kept: Kept): Memory {
  return {
    id: kept.id,
    space: kept.space,
    kind: kept.kind,
    content: JSON.parse(kept.content) as unknown,
    metadata: JSON.parse(kept.metadata) as Record<string, unknown>,
    createdAt: new Date(kept.createdAt),
    ...(kept.taskId !== undefined ? { taskId: kept.taskId } : {}),
  };
}

/** The error for an option the store would otherwise ignore or keep, naming it. */
function refuse(problem: string): never {
  throw new WeftTestingError('WEFT_TESTING_INVALID_OPTIONS', `InMemoryMemoryProvider: ${problem}.`);
}

/**
 * Refuses options the store would otherwise ignore (a misspelt name) or keep as a bad id,
 * naming the option, as the other first-party providers do.
 */
function checkOptions(options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    const got = options === null ? 'null' : Array.isArray(options) ? 'a list' : typeof options;
    refuse(`options must be an object such as { id: 'scratch' }, got ${got}`);
  }
  const given = options as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (name !== 'id') refuse(`unknown option "${name}"; its only option is id`);
  }
  // A blank id is refused too, as SqliteMemoryProvider and PostgresMemoryProvider refuse it.
  if (given.id !== undefined && isBadIdOption(given.id)) {
    const got = typeof given.id === 'string' ? JSON.stringify(given.id) : typeof given.id;
    refuse(`${ID_OPTION_RULE}, got ${got}`);
  }
}
