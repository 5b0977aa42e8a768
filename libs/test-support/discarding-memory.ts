import { randomUUID } from 'node:crypto';
import { MemoryProvider, type Memory } from '@weft/core';

/**
 * A memory provider that keeps nothing: in a long-run test, only what the runtime, its server
 * and its plugins hold can then stay alive.
 */
export class DiscardingMemoryProvider extends MemoryProvider {
  readonly id = 'discarding';
  async store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
    return { ...memory, id: randomUUID(), createdAt: new Date() };
  }
  async update(id: string): Promise<Memory> {
    throw new Error(`no memory ${id}`);
  }
  async query(): Promise<Memory[]> {
    return [];
  }
  async remove(): Promise<boolean> {
    return false;
  }
  async clear(): Promise<number> {
    return 0;
  }
}
