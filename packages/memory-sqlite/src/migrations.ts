import type BetterSqlite3 from 'better-sqlite3';
import { SqliteMemoryProviderError } from './errors.js';

/** One step of the schema's history, applied once and recorded in `PRAGMA user_version`. */
export interface Migration {
  /** The `user_version` the database has once this step has run; steps count up from 1. */
  readonly version: number;
  /** What the step changes, for error messages. */
  readonly description: string;
  /**
   * Applies the step. It runs inside the migration transaction, so a failure leaves the
   * database exactly as it was.
   *
   * @param db - The open database.
   */
  up(db: BetterSqlite3.Database): void;
}

/**
 * Every schema step, oldest first. Append new steps; never edit or reorder released ones, since
 * databases in the field have already recorded them as applied.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'create the memories table and its indexes',
    up(db) {
      db.exec(`
        CREATE TABLE memories (
          id TEXT PRIMARY KEY,
          space TEXT NOT NULL,
          kind TEXT NOT NULL,
          content TEXT NOT NULL,
          task_id TEXT,
          metadata TEXT NOT NULL,
          created_at INTEGER NOT NULL
        );
        CREATE INDEX memories_space_created_at ON memories (space, created_at);
        CREATE INDEX memories_created_at ON memories (created_at);
        CREATE INDEX memories_task_id ON memories (task_id);
      `);
    },
  },
];

/** The schema version this code writes and understands: the last migration's version. */
export const SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/**
 * Reads the database's schema version from `PRAGMA user_version`.
 *
 * @param db - The open database.
 * @returns The recorded version; 0 for a new database.
 */
export function readSchemaVersion(db: BetterSqlite3.Database): number {
  return Number(db.pragma('user_version', { simple: true }));
}

/**
 * Refuses a database written by a newer version of this package, before anything changes it.
 *
 * @param db - The open database.
 * @param label - Names the provider and file in the error message.
 * @returns The recorded version, at most {@link SCHEMA_VERSION}.
 * @throws `WEFT_SQLITE_SCHEMA_TOO_NEW` when the recorded version is newer.
 */
export function refuseNewerSchema(db: BetterSqlite3.Database, label: string): number {
  const current = readSchemaVersion(db);
  if (current > SCHEMA_VERSION) {
    throw new SqliteMemoryProviderError(
      'WEFT_SQLITE_SCHEMA_TOO_NEW',
      `${label}: the database has schema version ${current}, but this version of ` +
        `@weft/memory-sqlite only knows versions up to ${SCHEMA_VERSION}; upgrade ` +
        `@weft/memory-sqlite, or point it at another file`,
    );
  }
  return current;
}

/**
 * Brings the database's schema up to {@link SCHEMA_VERSION}. All pending steps run in one
 * `BEGIN IMMEDIATE` transaction, which takes the write lock before the version is read, so two
 * processes opening a new file at once cannot both apply the same step. Steps already recorded
 * in `user_version` are skipped, so reopening a database never re-runs them.
 *
 * @param db - The open database.
 * @param label - Names the provider and file in error messages.
 * @returns The versions of the steps that were applied (empty when the schema was current).
 * @throws `WEFT_SQLITE_SCHEMA_TOO_NEW` when the database was written by a newer version of this
 * package; `WEFT_SQLITE_MIGRATION_FAILED` when a step fails.
 */
export function migrate(db: BetterSqlite3.Database, label: string): number[] {
  const run = db.transaction((): number[] => {
    const current = refuseNewerSchema(db, label);
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      if (migration.version <= current) continue;
      try {
        migration.up(db);
      } catch (error) {
        throw new SqliteMemoryProviderError(
          'WEFT_SQLITE_MIGRATION_FAILED',
          `${label}: schema migration ${migration.version} (${migration.description}) failed ` +
            `and was rolled back: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
      // PRAGMA cannot take bound parameters; the version is this module's own integer constant.
      db.pragma(`user_version = ${Math.trunc(migration.version)}`);
      applied.push(migration.version);
    }
    return applied;
  });
  return run.immediate();
}
