import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startPostgres, type PostgresServer } from './postgres-server.js';

/** initdb and the first start take a few seconds on a busy machine. */
export const SERVER_START_TIMEOUT_MS = 120_000;

/** What {@link usePostgresPerFile} gives a test file. */
export interface PostgresFixture {
  /** The running server. */
  readonly server: () => PostgresServer;
  /** The connection string of this file's own database. */
  readonly url: () => string;
  /** A schema name no other test uses. */
  readonly newSchema: () => string;
  /** Runs SQL on a connection of its own, as another tool would. */
  readonly sql: <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<R[]>;
}

/** A test runner's file-level hook: vitest's `beforeAll` and `afterAll` fit it. */
export type FileHook = (run: () => Promise<void>, timeoutMs?: number) => void;

/**
 * The hooks of the runner that runs the calling file. The caller passes its own rather than this
 * module importing vitest: a package that lists this library in its devDependencies would
 * otherwise make npm install the whole runner wherever that package's development dependencies
 * are installed, such as the Scaling out image's build stage.
 */
export interface FileHooks {
  readonly beforeAll: FileHook;
  readonly afterAll: FileHook;
}

/**
 * Starts a real PostgreSQL server for the calling test file (initdb in a temporary directory,
 * pg_ctl on a free port) with one database for the file, and destroys it after the file.
 *
 * @param schemaPrefix - What the names {@link PostgresFixture.newSchema} makes start with.
 * @param hooks - The runner's `beforeAll` and `afterAll`, which start and destroy the server.
 */
export function usePostgresPerFile(
  schemaPrefix: string,
  { beforeAll, afterAll }: FileHooks,
): PostgresFixture {
  let server: PostgresServer | undefined;
  let url = '';
  beforeAll(async () => {
    server = await startPostgres();
    url = await server.createDatabase(`weft_${randomUUID().replace(/-/g, '').slice(0, 12)}`);
  }, SERVER_START_TIMEOUT_MS);
  afterAll(async () => {
    await server?.destroy();
  }, SERVER_START_TIMEOUT_MS);
  return {
    server: () => {
      if (!server) throw new Error('the server has not started');
      return server;
    },
    url: () => url,
    newSchema: () => `${schemaPrefix}${randomUUID().replace(/-/g, '')}`,
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
