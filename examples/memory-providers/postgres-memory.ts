import { PostgresMemoryProvider } from '@weft/memory-postgres';

/**
 * Memory in PostgreSQL, shared by every instance of the agent. The runtime
 * connects and migrates the schema in start() and closes the pool in stop().
 */
export function createPostgresMemory(
  connectionString = process.env.DATABASE_URL ??
    'postgres://weft@localhost:5432/weft',
  schema = 'agent_memory',
): PostgresMemoryProvider {
  return new PostgresMemoryProvider({
    connectionString,
    schema,
    pool: {
      max: 10,
      statementTimeoutMs: 5_000,
      // Rides out a restart or fail-over of the server of up to 15 seconds.
      reconnectTimeoutMs: 15_000,
    },
  });
}
