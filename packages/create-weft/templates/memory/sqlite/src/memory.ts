import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { MemoryProvider } from '@weft/core';
import { SqliteMemoryProvider } from '@weft/memory-sqlite';

/** Memories kept in a SQLite file, `WEFT_MEMORY_PATH` (default data/memory.db). */
export function createMemory(env: NodeJS.ProcessEnv): MemoryProvider {
  const file = env.WEFT_MEMORY_PATH?.trim() || 'data/memory.db';
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  return new SqliteMemoryProvider({ path: file });
}
