// The memory of a run in the page, observed: each memory stored is a `memory` event.
import type { Memory } from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';

/**
 * The in-memory provider, reporting each memory it stores to whoever listens now: a session's
 * memory outlives the run that created it.
 */
export class ObservedMemory extends InMemoryMemoryProvider {
  listener: ((stored: Memory) => void) | undefined;

  override async store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
    const stored = await super.store(memory);
    this.listener?.(stored);
    return stored;
  }
}
