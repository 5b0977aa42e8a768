import { randomUUID } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import {
  MemoryProvider,
  type Memory,
  type QueryMemoryOptions,
} from '@weft/core';

type StoredMemory = Omit<Memory, 'createdAt'> & { createdAt: string };

/**
 * Keeps memories in one JSON file, rewritten on every change: enough for a
 * personal agent with a few thousand memories, and a compact example of the
 * MemoryProvider contract.
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
    for (const field of ['space', 'kind'] as const) {
      if (typeof memory[field] !== 'string' || memory[field] === '') {
        throw new Error(
          `JsonFileMemoryProvider: a memory's "${field}" must be a non-empty string`,
        );
      }
    }
    const where = `a "${memory.kind}" memory in space "${memory.space}"`;
    const { taskId } = memory;
    // Converting first means bad content is rejected before anything changes.
    const content = toJsonForm(memory.content, `the content of ${where}`);
    const metadata = toJsonForm(
      memory.metadata ?? {},
      `the metadata of ${where}`,
    );
    return this.change(() => {
      // Strictly increasing timestamps keep "newest first" exact within one
      // millisecond.
      this.lastTime = Math.max(Date.now(), this.lastTime + 1);
      const stored: Memory = {
        space: memory.space,
        kind: memory.kind,
        content,
        ...(taskId !== undefined ? { taskId } : {}),
        metadata: metadata as Record<string, unknown>,
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
    const content =
      patch.content === undefined
        ? undefined
        : toJsonForm(patch.content, `the new content of memory "${id}"`);
    const metadata =
      patch.metadata === undefined
        ? undefined
        : toJsonForm(patch.metadata, `the new metadata of memory "${id}"`);
    return this.change(() => {
      const index = this.memories.findIndex((memory) => memory.id === id);
      if (index < 0) {
        throw new Error(`JsonFileMemoryProvider: no memory with id "${id}"`);
      }
      const updated: Memory = {
        ...this.memories[index]!,
        ...(content !== undefined ? { content } : {}),
        ...(metadata !== undefined
          ? { metadata: metadata as Record<string, unknown> }
          : {}),
      };
      this.memories[index] = updated;
      return copy(updated);
    });
  }

  async query(options: QueryMemoryOptions): Promise<Memory[]> {
    const limit = options.limit ?? 100;
    if (!Number.isInteger(limit) || limit < 1) {
      throw new Error(
        `JsonFileMemoryProvider: query option "limit" must be a positive integer, got ${limit}`,
      );
    }
    const patterns = (options.spacePatterns ?? []).map(
      (pattern) =>
        new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`),
    );
    const bySpace =
      options.space !== undefined ||
      options.spacePrefix !== undefined ||
      options.spacePatterns !== undefined;
    const matches = this.memories.filter(
      (memory) =>
        // Space filters match when any one of them does...
        (!bySpace ||
          memory.space === options.space ||
          (options.spacePrefix !== undefined &&
            memory.space.startsWith(options.spacePrefix)) ||
          patterns.some((pattern) => pattern.test(memory.space))) &&
        // ...and every other filter must match too.
        (options.kind === undefined || memory.kind === options.kind) &&
        (options.taskId === undefined || memory.taskId === options.taskId) &&
        (options.since === undefined || memory.createdAt >= options.since) &&
        (options.until === undefined || memory.createdAt < options.until),
    );
    const direction = options.order === 'asc' ? 1 : -1;
    matches.sort(
      (a, b) => direction * (a.createdAt.getTime() - b.createdAt.getTime()),
    );
    return matches.slice(0, limit).map(copy);
  }

  async remove(id: string): Promise<boolean> {
    return this.change(() => {
      const before = this.memories.length;
      this.memories = this.memories.filter((memory) => memory.id !== id);
      return this.memories.length < before;
    });
  }

  async clear(space?: string): Promise<number> {
    return this.change(() => {
      const before = this.memories.length;
      this.memories =
        space === undefined
          ? []
          : this.memories.filter((memory) => memory.space !== space);
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

/** The value as it will be read back, or an error naming what has no JSON form. */
function toJsonForm(value: unknown, what: string): unknown {
  let json: string | undefined;
  try {
    json = JSON.stringify(value) as string | undefined;
  } catch (error) {
    // A BigInt or a circular structure.
    throw new Error(
      `JsonFileMemoryProvider: ${what} is not JSON: ${(error as Error).message}`,
    );
  }
  if (json === undefined) {
    throw new Error(`JsonFileMemoryProvider: ${what} has no JSON form`);
  }
  return JSON.parse(json);
}

function copy(memory: Memory): Memory {
  return structuredClone(memory);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
