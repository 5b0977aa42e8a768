import { MemoryProvider, type Memory, type QueryMemoryOptions } from '@weft/core';
import { testingError } from './errors.js';

/**
 * A memory provider that keeps memories in a Map: for tests, examples and short-lived agents.
 * It keeps the memory-provider contract that `memoryProviderContract` checks, which
 * `SqliteMemoryProvider` keeps too: content and metadata are stored as their JSON form (cloned
 * on the way in and out, as a serialising store would), `undefined` content and content with no
 * JSON form (a `BigInt`, a circular structure) are rejected on store and update, an empty
 * `space` or `kind` is rejected, and `createdAt` is a `Date`. What it does not share with a
 * durable store: memories are lost when the process ends.
 */
export class InMemoryMemoryProvider extends MemoryProvider {
  readonly id: string;
  private readonly memories = new Map<string, Memory>();
  private lastTime = 0;

  constructor(options: { id?: string } = {}) {
    super();
    this.id = options.id ?? 'in-memory';
  }

  async store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
    for (const field of ['space', 'kind'] as const) {
      if (typeof memory[field] !== 'string' || memory[field] === '') {
        throw testingError(
          'WEFT_TESTING_INVALID_MEMORY',
          `InMemoryMemoryProvider: a memory's "${field}" must be a non-empty string, got ${JSON.stringify(memory[field])}; give every memory a space id and a kind such as "note"`,
        );
      }
    }
    const where = `a "${memory.kind}" memory in space "${memory.space}"`;
    const content = toJsonForm(memory.content, `the content of ${where}`);
    const metadata = toJsonForm(memory.metadata ?? {}, `the metadata of ${where}`);
    // Strictly increasing timestamps keep "newest first" well defined within one millisecond.
    this.lastTime = Math.max(Date.now(), this.lastTime + 1);
    const stored: Memory = {
      space: memory.space,
      kind: memory.kind,
      content,
      ...(memory.taskId !== undefined ? { taskId: memory.taskId } : {}),
      metadata: metadata as Record<string, unknown>,
      // Web Crypto, which browsers have too: the provider also serves runs in a page.
      id: globalThis.crypto.randomUUID(),
      createdAt: new Date(this.lastTime),
    };
    this.memories.set(stored.id, stored);
    return structuredClone(stored);
  }

  async update(
    id: string,
    patch: { content?: unknown; metadata?: Record<string, unknown> },
  ): Promise<Memory> {
    const current = this.memories.get(id);
    if (!current) {
      throw testingError(
        'WEFT_TESTING_MEMORY_NOT_FOUND',
        `InMemoryMemoryProvider: no memory with id "${id}"; use an id that store() or query() returned`,
      );
    }
    // Both fields are converted before either is applied, so a rejected patch changes nothing.
    const content =
      patch.content === undefined
        ? current.content
        : toJsonForm(patch.content, `the new content of memory "${id}"`);
    const metadata =
      patch.metadata === undefined
        ? current.metadata
        : (toJsonForm(patch.metadata, `the new metadata of memory "${id}"`) as Record<
            string,
            unknown
          >);
    const updated: Memory = { ...current, content, metadata };
    this.memories.set(id, updated);
    return structuredClone(updated);
  }

  async query(options: QueryMemoryOptions): Promise<Memory[]> {
    const limit = options.limit ?? 100;
    if (!Number.isInteger(limit) || limit < 1) {
      throw testingError(
        'WEFT_TESTING_INVALID_QUERY',
        `InMemoryMemoryProvider: query option "limit" must be a positive integer, got ${limit}; leave it out for the default of 100`,
      );
    }
    const patterns = (options.spacePatterns ?? []).map(patternToRegExp);
    const filterBySpace =
      options.space !== undefined ||
      options.spacePrefix !== undefined ||
      options.spacePatterns !== undefined;
    const matches = [...this.memories.values()].filter((memory) => {
      if (filterBySpace) {
        const inSpace =
          memory.space === options.space ||
          (options.spacePrefix !== undefined && memory.space.startsWith(options.spacePrefix)) ||
          patterns.some((pattern) => pattern.test(memory.space));
        if (!inSpace) return false;
      }
      if (options.kind !== undefined && memory.kind !== options.kind) return false;
      if (options.taskId !== undefined && memory.taskId !== options.taskId) return false;
      if (options.since && memory.createdAt < options.since) return false;
      if (options.until && memory.createdAt >= options.until) return false;
      return true;
    });
    const direction = options.order === 'asc' ? 1 : -1;
    matches.sort((a, b) => direction * (a.createdAt.getTime() - b.createdAt.getTime()));
    return matches.slice(0, limit).map((memory) => structuredClone(memory));
  }

  async remove(id: string): Promise<boolean> {
    return this.memories.delete(id);
  }

  async clear(space?: string): Promise<number> {
    if (space === undefined) {
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

/** The value as a JSON store reads it back, or a clear error when it has no JSON form. */
function toJsonForm(value: unknown, what: string): unknown {
  let json: string | undefined;
  try {
    json = JSON.stringify(value) as string | undefined;
  } catch (error) {
    throw testingError(
      'WEFT_TESTING_INVALID_MEMORY',
      `InMemoryMemoryProvider: ${what} is not JSON-serialisable (${(error as Error).message}); store plain objects, arrays, strings, numbers, booleans or null`,
      error,
    );
  }
  if (json === undefined) {
    throw testingError(
      'WEFT_TESTING_INVALID_MEMORY',
      `InMemoryMemoryProvider: ${what} is ${typeof value}, which has no JSON form; store null instead of nothing`,
    );
  }
  return JSON.parse(json) as unknown;
}

function patternToRegExp(pattern: string): RegExp {
  const escaped = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${escaped}$`);
}
