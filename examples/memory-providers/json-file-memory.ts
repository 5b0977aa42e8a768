import { randomUUID } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
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

/** Starts the messages of the errors the checks throw. */
const LABEL = 'JsonFileMemoryProvider';

type StoredMemory = Omit<Memory, 'createdAt'> & { createdAt: string };

/**
 * Keeps memories in one JSON file, rewritten on every change: enough for a
 * personal agent with a few thousand memories, and a compact example of the
 * MemoryProvider contract. The checks from @weft/core refuse bad input with
 * the same codes as every other store, so the store itself only has to keep
 * and find memories.
 */
export class JsonFileMemoryProvider extends MemoryProvider {
  readonly id = 'json-file';
  private memories: Memory[] = [];
  private lastTime = 0;
  // Each change waits for the one before it, so concurrent calls never
  // interleave their writes and the file always holds the latest state.
  private writes: Promise<void> = Promise.resolve();

  constructor(readonly path: string) {
    super();
  }

  override async init(): Promise<void> {
    try {
      const stored = JSON.parse(
        await readFile(this.path, 'utf8'),
      ) as StoredMemory[];
      this.memories = stored.map((memory) => ({
        ...memory,
        createdAt: new Date(memory.createdAt),
      }));
      this.lastTime = Math.max(
        0,
        ...this.memories.map((memory) => memory.createdAt.getTime()),
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  override async shutdown(): Promise<void> {
    await this.writes;
  }

  async store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
    // Checking first means bad input is refused before anything changes.
    const checked = checkNewMemory(memory, LABEL);
    return this.change(() => {
      // Strictly increasing timestamps keep "newest first" exact within one
      // millisecond.
      this.lastTime = Math.max(Date.now(), this.lastTime + 1);
      const stored: Memory = {
        space: checked.space,
        kind: checked.kind,
        content: JSON.parse(checked.content),
        ...(checked.taskId !== undefined ? { taskId: checked.taskId } : {}),
        metadata: JSON.parse(checked.metadata),
        id: randomUUID(),
        createdAt: new Date(this.lastTime),
      };
      this.memories.push(stored);
      return copy(stored);
    });
  }

  async update(
    id: string,
    patch: { content?: unknown; metadata?: Record<string, unknown> },
  ): Promise<Memory> {
    const checked = checkMemoryPatch(id, patch, LABEL);
    return this.change(() => {
      const index = this.memories.findIndex(
        (memory) => memory.id === checked.id,
      );
      if (index < 0) throw memoryNotFound(checked.id, LABEL);
      const updated: Memory = {
        ...this.memories[index]!,
        ...(checked.content !== undefined
          ? { content: JSON.parse(checked.content) }
          : {}),
        ...(checked.metadata !== undefined
          ? { metadata: JSON.parse(checked.metadata) }
          : {}),
      };
      this.memories[index] = updated;
      return copy(updated);
    });
  }

  async query(options: QueryMemoryOptions): Promise<Memory[]> {
    // The limit and order come back with their defaults filled in.
    const query = checkMemoryQuery(options, LABEL);
    const patterns = query.spacePatterns ?? [];
    const bySpace =
      query.space !== undefined ||
      query.spacePrefix !== undefined ||
      query.spacePatterns !== undefined;
    const matches = this.memories.filter(
      (memory) =>
        // Space filters match when any one of them does...
        (!bySpace ||
          memory.space === query.space ||
          (query.spacePrefix !== undefined &&
            memory.space.startsWith(query.spacePrefix)) ||
          patterns.some((pattern) =>
            matchesSpacePattern(memory.space, pattern),
          )) &&
        // ...and every other filter must match too.
        (query.kind === undefined || memory.kind === query.kind) &&
        (query.taskId === undefined || memory.taskId === query.taskId) &&
        (query.since === undefined || memory.createdAt >= query.since) &&
        (query.until === undefined || memory.createdAt < query.until),
    );
    const direction = query.order === 'asc' ? 1 : -1;
    matches.sort(
      (a, b) => direction * (a.createdAt.getTime() - b.createdAt.getTime()),
    );
    return matches.slice(0, query.limit).map(copy);
  }

  async remove(id: string): Promise<boolean> {
    const checkedId = checkMemoryId(id, 'remove', LABEL);
    return this.change(() => {
      const before = this.memories.length;
      this.memories = this.memories.filter((memory) => memory.id !== checkedId);
      return this.memories.length < before;
    });
  }

  async clear(space?: string): Promise<number> {
    const only = checkClearSpace(space, LABEL);
    return this.change(() => {
      const before = this.memories.length;
      this.memories =
        only === undefined
          ? []
          : this.memories.filter((memory) => memory.space !== only);
      return before - this.memories.length;
    });
  }

  /**
   * Applies one change and saves the file, after every earlier change has
   * been saved. A change that throws leaves the memories as they were.
   */
  private change<T>(apply: () => T): Promise<T> {
    const result = this.writes.then(async () => {
      const before = this.memories;
      this.memories = [...before];
      try {
        const value = apply();
        await this.save();
        return value;
      } catch (error) {
        this.memories = before;
        throw error;
      }
    });
    this.writes = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /**
   * Writes a temporary file and renames it over the old one, so a crash never
   * leaves half a file behind. Each write has its own temporary name.
   */
  private async save(): Promise<void> {
    const temporary = `${this.path}.${randomUUID()}.tmp`;
    await writeFile(temporary, JSON.stringify(this.memories));
    await rename(temporary, this.path);
  }
}

// Callers get a copy, never the kept object: through JSON, as the file holds
// it.
function copy(memory: Memory): Memory {
  return {
    ...memory,
    content: JSON.parse(JSON.stringify(memory.content)) as unknown,
    metadata: JSON.parse(JSON.stringify(memory.metadata)) as Memory['metadata'],
    createdAt: new Date(memory.createdAt.getTime()),
  };
}
