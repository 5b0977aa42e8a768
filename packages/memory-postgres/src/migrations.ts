import type pg from 'pg';
import { clientGaveUp, isCancelled, isConnectionError, isTimeoutError } from './connection.js';
import { PostgresMemoryProviderError } from './errors.js';

/** The tables of one schema, quoted and schema-qualified, ready to put into SQL text. */
export interface Tables {
  /** The schema's name, unquoted (it was checked to be a plain identifier). */
  readonly schema: string;
  /** `"schema"."weft_memories"`. */
  readonly memories: string;
  /** `"schema"."weft_memory_migrations"`: one row per applied step. */
  readonly migrations: string;
}

/**
 * Names the tables of a schema.
 *
 * @param schema - A schema name that matches `[A-Za-z_][A-Za-z0-9_]*` (checked by the options).
 * @returns The quoted, qualified names.
 */
export function tablesOf(schema: string): Tables {
  return {
    schema,
    memories: `"${schema}"."weft_memories"`,
    migrations: `"${schema}"."weft_memory_migrations"`,
  };
}

/** One step of the schema's history, applied once and recorded in the migrations table. */
export interface Migration {
  /** The version the schema has once this step has run; steps count up from 1. */
  readonly version: number;
  /** What the step changes, recorded with it and named in errors. */
  readonly description: string;
  /**
   * The statements of the step. They run inside the migration transaction, so a failure leaves
   * the database exactly as it was.
   */
  statements(tables: Tables): string[];
}

/**
 * Every schema step, oldest first. Append new steps; never edit or reorder released ones, since
 * databases in the field have already recorded them as applied.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'create the memories table and an index for each query filter',
    statements: ({ memories, schema }) => [
      // seq orders memories stored in the same millisecond, by any instance, by insertion.
      // The "C" collation makes LIKE case-sensitive and lets a prefix use the btree index.
      `CREATE TABLE ${memories} (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id uuid NOT NULL UNIQUE,
        space text COLLATE "C" NOT NULL,
        kind text COLLATE "C" NOT NULL,
        content jsonb NOT NULL,
        task_id text COLLATE "C",
        metadata jsonb NOT NULL,
        created_at timestamptz NOT NULL
      )`,
      `CREATE INDEX weft_memories_space_created ON ${memories} (space, created_at, seq)`,
      `CREATE INDEX weft_memories_kind_created ON ${memories} (kind, created_at, seq)`,
      `CREATE INDEX weft_memories_task_id ON ${memories} (task_id) WHERE task_id IS NOT NULL`,
      `CREATE INDEX weft_memories_created ON ${memories} (created_at, seq)`,
      `COMMENT ON TABLE ${memories} IS 'Memories of Weft agents, written by @weft/memory-postgres (schema "${schema}")'`,
    ],
  },
];

/** The schema version this code writes and understands: the last migration's version. */
export const SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/**
 * Hides the connection's password in what {@link migrate} quotes of PostgreSQL's errors, which
 * may name a database called like it (`permission denied for database ...`).
 */
export interface Masking {
  /** The text with the password masked. */
  text(text: string): string;
  /** The error to keep as a cause: itself, or a copy with the password masked. */
  error(error: unknown): unknown;
}

const NO_MASKING: Masking = { text: (text) => text, error: (error) => error };

/** PostgreSQL's SQLSTATE for `permission denied`. */
const INSUFFICIENT_PRIVILEGE = '42501';

/**
 * The first key of the advisory lock taken while migrating ('WEFT' in ASCII); the second is a
 * hash of the schema's name, so instances migrating different schemas do not wait for each other.
 */
export const MIGRATION_LOCK_CLASS = 0x57454654;

/**
 * Reads the schema version recorded in a schema.
 *
 * @param client - A connection.
 * @param tables - The schema's tables.
 * @returns The highest applied version; 0 when the migrations table does not exist.
 */
export async function readSchemaVersion(client: pg.ClientBase, tables: Tables): Promise<number> {
  const exists = await client.query<{ found: string | null }>(
    'SELECT to_regclass($1)::text AS found',
    [tables.migrations],
  );
  if (exists.rows[0]?.found == null) return 0;
  const result = await client.query<{ version: number | null }>(
    `SELECT max(version) AS version FROM ${tables.migrations}`,
  );
  return result.rows[0]?.version ?? 0;
}

/**
 * Brings the schema up to {@link SCHEMA_VERSION} in one transaction, under a transaction-level
 * advisory lock: instances that start together wait for the first one, then find its steps
 * recorded and apply nothing. The wait is bounded by the connection's statement timeout. A
 * schema whose recorded version is newer than this code knows is refused, and the transaction
 * is rolled back, so nothing is created or changed.
 *
 * @param client - A connection that is not in a transaction. After a timeout on the client or a
 * broken connection, the caller must destroy it: the transaction is left to the server to end.
 * @param tables - The schema's tables.
 * @param label - Names the provider and server in error messages.
 * @param masking - Hides the password in the PostgreSQL errors these messages quote.
 * @returns The versions of the steps that were applied (empty when the schema was current).
 * @throws `WEFT_POSTGRES_SCHEMA_TOO_NEW` when the schema is newer than this package, or
 * `WEFT_POSTGRES_MIGRATION_FAILED` when creating the schema or its migrations table fails
 * (a missing privilege, usually) or a step fails. A timeout or a broken connection is passed on
 * as the driver reported it, for the caller to name: after a broken connection or a lost answer
 * the transaction may have been committed or not.
 */
export async function migrate(
  client: pg.ClientBase,
  tables: Tables,
  label: string,
  masking: Masking = NO_MASKING,
): Promise<number[]> {
  const quote = (error: unknown): string =>
    masking.text(error instanceof Error ? error.message : String(error));
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
      MIGRATION_LOCK_CLASS,
      tables.schema,
    ]);
    let current: number;
    try {
      current = await readSchemaVersion(client, tables);
    } catch (error) {
      // A role without USAGE on an existing schema, or SELECT on its migrations table.
      if ((error as { code?: unknown } | null)?.code !== INSUFFICIENT_PRIVILEGE) throw error;
      throw new PostgresMemoryProviderError(
        'WEFT_POSTGRES_MIGRATION_FAILED',
        `${label}: could not read the version of schema "${tables.schema}", so nothing was ` +
          `changed: ${quote(error)}; give the role ` +
          `USAGE on the schema (and SELECT on its weft_memory_migrations table), or choose ` +
          `another schema`,
        { cause: masking.error(error) },
      );
    }
    if (current > SCHEMA_VERSION) {
      throw new PostgresMemoryProviderError(
        'WEFT_POSTGRES_SCHEMA_TOO_NEW',
        `${label}: schema "${tables.schema}" has version ${current}, but this version of ` +
          `@weft/memory-postgres only knows versions up to ${SCHEMA_VERSION}; upgrade ` +
          `@weft/memory-postgres, or use another schema. Nothing was changed`,
      );
    }
    const applied: number[] = [];
    if (current < SCHEMA_VERSION) {
      try {
        await createSchemaTables(client, tables);
      } catch (error) {
        // A lock waited for past the statement timeout, and a connection that broke, are
        // reported as such by the provider: neither is the role's fault.
        if (isCancelled(error) || isTimeoutError(error) || isConnectionError(error)) throw error;
        // Usually a missing privilege: the role may not create the schema or its tables.
        throw new PostgresMemoryProviderError(
          'WEFT_POSTGRES_MIGRATION_FAILED',
          `${label}: could not create schema "${tables.schema}" or its migrations table, so ` +
            `nothing was changed: ${quote(error)}; ` +
            `give the role the CREATE privilege there, or choose another schema`,
          { cause: masking.error(error) },
        );
      }
      for (const migration of MIGRATIONS) {
        if (migration.version <= current) continue;
        try {
          for (const statement of migration.statements(tables)) await client.query(statement);
        } catch (error) {
          if (isCancelled(error) || isTimeoutError(error) || isConnectionError(error)) throw error;
          throw new PostgresMemoryProviderError(
            'WEFT_POSTGRES_MIGRATION_FAILED',
            `${label}: schema migration ${migration.version} (${migration.description}) failed ` +
              `and was rolled back: ${quote(error)}; ` +
              `remove what PostgreSQL names as in the way, grant what it says is missing, or ` +
              `choose another schema`,
            { cause: masking.error(error) },
          );
        }
        await client.query(
          `INSERT INTO ${tables.migrations} (version, description) VALUES ($1, $2)`,
          [migration.version, migration.description],
        );
        applied.push(migration.version);
      }
    }
    await client.query('COMMIT');
    return applied;
  } catch (error) {
    // A connection that broke, or whose answer the client gave up on, is destroyed by the caller,
    // and the server ends its transaction when it goes. A ROLLBACK sent on it would wait behind
    // the lost answer for a read timeout of its own, doubling the wait.
    if (!clientGaveUp(error) && !isConnectionError(error)) {
      await client.query('ROLLBACK').catch(() => undefined);
    }
    throw error;
  }
}

async function createSchemaTables(client: pg.ClientBase, tables: Tables): Promise<void> {
  // CREATE SCHEMA IF NOT EXISTS checks the CREATE privilege on the database even when the
  // schema exists, so a role that may only use an existing schema would be refused.
  const schema = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [
    tables.schema,
  ]);
  if (schema.rowCount === 0) await client.query(`CREATE SCHEMA "${tables.schema}"`);
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${tables.migrations} (
      version integer PRIMARY KEY,
      description text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`,
  );
}
