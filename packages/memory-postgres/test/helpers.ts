import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startPostgres, type PostgresServer } from '../../../libs/test-support/postgres-server.js';
import { PostgresMemoryProvider, type PostgresMemoryProviderOptions } from '../src/index.js';

/** initdb and the first start take a few seconds on a busy machine. */
export const SERVER_START_TIMEOUT_MS = 120_000;

/** What {@link useServer} gives a test file. */
export interface ServerFixture {
  /** The running server. */
  readonly server: () => PostgresServer;
  /** The connection string of this file's own database. */
  readonly url: () => string;
  /** A schema name no other test uses. */
  readonly newSchema: () => string;
  /** Creates (without init) a provider on a new schema, shut down after the test. */
  readonly create: (options?: Partial<PostgresMemoryProviderOptions>) => PostgresMemoryProvider;
  /** Creates and initialises a provider on a new schema, shut down after the test. */
  readonly open: (
    options?: Partial<PostgresMemoryProviderOptions>,
  ) => Promise<PostgresMemoryProvider>;
  /** Runs SQL on a connection of its own, as another tool would. */
  readonly sql: <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<R[]>;
}

/**
 * Starts a real PostgreSQL server for the test file (in a temporary directory, on a free port),
 * with one database for the file, and shuts down every provider a test opened.
 */
export function useServer(): ServerFixture {
  let server: PostgresServer | undefined;
  let url = '';
  const providers: PostgresMemoryProvider[] = [];
  beforeAll(async () => {
    server = await startPostgres();
    url = await server.createDatabase(`weft_${randomUUID().replace(/-/g, '').slice(0, 12)}`);
  }, SERVER_START_TIMEOUT_MS);
  afterEach(async () => {
    await Promise.all(providers.splice(0).map((provider) => provider.shutdown()));
  });
  afterAll(async () => {
    await server?.destroy();
  }, SERVER_START_TIMEOUT_MS);

  const newSchema = (): string => `t_${randomUUID().replace(/-/g, '')}`;
  const create = (options: Partial<PostgresMemoryProviderOptions> = {}): PostgresMemoryProvider => {
    const provider = new PostgresMemoryProvider({
      connectionString: url,
      schema: newSchema(),
      ...options,
    });
    providers.push(provider);
    return provider;
  };
  return {
    server: () => {
      if (!server) throw new Error('the server has not started');
      return server;
    },
    url: () => url,
    newSchema,
    create,
    open: async (options) => {
      const provider = create(options);
      await provider.init();
      return provider;
    },
    sql: async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
      await client.connect();
      try {
        return (await client.query<R>(text, values)).rows;
      } finally {
        await client.end();
      }
    },
  };
}
