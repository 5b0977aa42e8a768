import { randomUUID } from 'node:crypto';
import { MemoryProvider, type Memory, type QueryMemoryOptions } from '@weft/core';

/**
 * A memory provider that keeps memories in a Map: for tests, examples and short-lived agents.
 * It implements the query semantics of {@link MemoryProvider} exactly, so tests written
 * against it hold for durable providers too. Content is cloned on the way in and out, as a
 * serialising store would.
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
    let content: unknown;
    try {
      content = JSON.parse(JSON.stringify(memory.content) ?? 'null');
    } catch (error) {
      throw new Error(
        `InMemoryMemoryProvider: content of a "${memory.kind}" memory in space "${memory.space}" is not JSON-serialisable: ${(error as Error).message}`,
      );
    }
    // Strictly increasing timestamps keep "newest first" well defined within one millisecond.
    this.lastTime = Math.max(Date.now(), this.lastTime + 1);
    const stored: Memory = {
      ...memory,
      content,
      metadata: structuredClone(memory.metadata ?? {}),
      id: randomUUID(),
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
    if (!current) throw new Error(`InMemoryMemoryProvider: no memory with id "${id}".`);
    const updated: Memory = {
      ...current,
      ...(patch.content !== undefined ? { content: structuredClone(patch.content) } : {}),
      ...(patch.metadata !== undefined ? { metadata: structuredClone(patch.metadata) } : {}),
    };
    this.memories.set(id, updated);
    return structuredClone(updated);
  }

  async query(options: QueryMemoryOptions): Promise<Memory[]> {
    const limit = options.limit ?? 100;
    if (!Number.isInteger(limit) || limit < 1) {
      throw new Error(
        `InMemoryMemoryProvider: query option "limit" must be a positive integer, got ${limit}.`,
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

function patternToRegExp(pattern: string): RegExp {
  const escaped = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${escaped}$`);
}
