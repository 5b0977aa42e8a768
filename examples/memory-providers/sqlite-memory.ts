import { SqliteMemoryProvider } from '@weft/memory-sqlite';

/**
 * Durable memory in one SQLite file. The runtime opens it in start() (creating
 * the file and its schema when missing) and closes it in stop().
 */
export function createSqliteMemory(
  path = './data/agent-memory.db',
): SqliteMemoryProvider {
  return new SqliteMemoryProvider({ path, busyTimeoutMs: 10_000 });
}
