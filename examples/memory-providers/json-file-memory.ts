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

  constructor(private readonly path: string) {
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

  async store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
    // Strictly increasing timestamps keep "newest first" exact within one
    // millisecond.
    this.lastTime = Math.max(Date.now(), this.lastTime + 1);
    const stored: Memory = {
      ...memory,
      content: JSON.parse(JSON.stringify(memory.content ?? null)),
      metadata: { ...memory.metadata },
      id: randomUUID(),
      createdAt: new Date(this.lastTime),
    };
    this.memories.push(stored);
    await this.save();
    return stored;
  }

  async update(
    id: string,
    patch: { content?: unknown; metadata?: Record<string, unknown> },
  ): Promise<Memory> {
    const index = this.memories.findIndex((memory) => memory.id === id);
    if (index < 0)
      throw new Error(`JsonFileMemoryProvider: no memory with id "${id}"`);
    const updated: Memory = {
      ...this.memories[index]!,
      ...(patch.content !== undefined ? { content: patch.content } : {}),
      ...(patch.metadata !== undefined ? { metadata: patch.metadata } : {}),
    };
    this.memories[index] = updated;
    await this.save();
    return updated;
  }

  async query(options: QueryMemoryOptions): Promise<Memory[]> {
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
    return matches.slice(0, options.limit ?? 100);
  }

  async remove(id: string): Promise<boolean> {
    const before = this.memories.length;
    this.memories = this.memories.filter((memory) => memory.id !== id);
    if (this.memories.length === before) return false;
    await this.save();
    return true;
  }

  async clear(space?: string): Promise<number> {
    const before = this.memories.length;
    this.memories =
      space === undefined
        ? []
        : this.memories.filter((memory) => memory.space !== space);
    await this.save();
    return before - this.memories.length;
  }

  /**
   * Writes a temporary file and renames it, so a crash never leaves half a file
   * behind.
   */
  private async save(): Promise<void> {
    await writeFile(`${this.path}.tmp`, JSON.stringify(this.memories, null, 2));
    await rename(`${this.path}.tmp`, this.path);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
