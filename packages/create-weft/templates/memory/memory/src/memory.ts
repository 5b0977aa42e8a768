import type { MemoryProvider } from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';

/**
 * Memories kept in memory and lost when the agent stops. Swap in `SqliteMemoryProvider` from
 * `@weft/memory-sqlite` to keep them.
 */
export function createMemory(_env: NodeJS.ProcessEnv): MemoryProvider {
  return new InMemoryMemoryProvider();
}
