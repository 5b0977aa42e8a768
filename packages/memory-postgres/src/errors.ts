import { WeftError, type WeftErrorOptions } from '@weft/core';
import type { ErrorRegistry } from '@weft/core/internal';

// <error-codes> generated from the registry by: npm run generate:references
/**
 * The code of an error raised by `@weft/memory-postgres`. The list is closed (a new code is
 * a change to the public API) and stable across versions, so callers branch on the code rather
 * than on messages. Each code has a section of the same name in the errors reference of
 * the documentation, with what raises it, its cause and its fix; the error’s `docsUrl` links it.
 *
 * - `WEFT_POSTGRES_INVALID_OPTIONS`: The constructor's options are missing or invalid.
 * - `WEFT_POSTGRES_CONNECT_FAILED`: `init()` could not connect to the server or log in, or lost the
 *   connection while preparing the schema.
 * - `WEFT_POSTGRES_SCHEMA_TOO_NEW`: The tables were migrated by a newer version of the package.
 * - `WEFT_POSTGRES_MIGRATION_FAILED`: A schema migration failed and was rolled back.
 * - `WEFT_POSTGRES_NOT_OPEN`: A method was called before `init()` or after `shutdown()`.
 * - `WEFT_POSTGRES_STATEMENT_TIMEOUT`: A statement ran past the statement timeout and was
 *   cancelled.
 * - `WEFT_POSTGRES_UNAVAILABLE`: The server could not be reached within the reconnect window, every
 *   connection of the pool stayed busy, or the connection broke during a `remove` or `clear`.
 */
export type PostgresMemoryProviderErrorCode =
  | 'WEFT_POSTGRES_INVALID_OPTIONS'
  | 'WEFT_POSTGRES_CONNECT_FAILED'
  | 'WEFT_POSTGRES_SCHEMA_TOO_NEW'
  | 'WEFT_POSTGRES_MIGRATION_FAILED'
  | 'WEFT_POSTGRES_NOT_OPEN'
  | 'WEFT_POSTGRES_STATEMENT_TIMEOUT'
  | 'WEFT_POSTGRES_UNAVAILABLE';
// </error-codes>

/**
 * What the errors reference says about each code of `@weft/memory-postgres`: Markdown, read on
 * the errors page.
 *
 * @internal
 */
export const POSTGRES_ERRORS = {
  packageName: '@weft/memory-postgres',
  codes: {
    /** @claim errors-postgres-invalid-options */
    WEFT_POSTGRES_INVALID_OPTIONS: {
      summary: "The constructor's options are missing or invalid.",
      raisedBy: '`new PostgresMemoryProvider`',
      raisers: ['memory-postgres/src/options.ts#invalidFor'],
      cause:
        "the constructor's options are missing or invalid: an option name it does not know (a misspelt one), a `connectionString` that is not a `postgres://` URL, a `schema` that is not a plain identifier or starts with `pg_`, an empty or blank `id`, a `pool` that is not an object or has an unknown key, a `pool.max` that is not a positive integer, or a timeout that is not a whole number of milliseconds from 1 (0 for `reconnectTimeoutMs`) to 2,147,483,647 (about 24 days; 2,147,482,647 for `statementTimeoutMs`, which the client waits a second past). The message never repeats the connection string, which may hold a password.",
      fix: 'the message names the option and what it must be.',
    },
    /**
     * @claim errors-postgres-connect-failed-preparing
     * @claim errors-postgres-connect-no-password
     */
    WEFT_POSTGRES_CONNECT_FAILED: {
      summary:
        '`init()` could not connect to the server or log in, or lost the connection while preparing the schema.',
      raisedBy: '`PostgresMemoryProvider.init`, so `Runtime.start` (as `WEFT_START_FAILED`)',
      raisers: [
        'memory-postgres/src/provider.ts#PostgresMemoryProvider.open',
        'memory-postgres/src/provider.ts#PostgresMemoryProvider.preparingFailed',
      ],
      cause:
        "the server refused the connection, did not answer within `pool.connectionTimeoutMs`, or rejected the login; or the connection broke (the server restarted, or ended the session) while `init()` was preparing the schema, in which case a migration it was applying may or may not have been applied, as the message says: the next `init()` applies only the migrations not recorded in the schema's `weft_memory_migrations` table. The message names host, port and database, and the driver's reason (such as `ECONNREFUSED`, `password authentication failed` or `Connection terminated`), never the password, from the connection string or `PGPASSWORD`, which is masked as `***` where PostgreSQL quotes it (a refused login names the user, whose name may be the password).",
      fix: 'check that the server runs and accepts connections at that address (`listen_addresses`, `pg_hba.conf`, a firewall), and the user name and password; after a broken connection, call `init()` (or start the runtime) again.',
    },
    WEFT_POSTGRES_SCHEMA_TOO_NEW: {
      summary: 'The tables were migrated by a newer version of the package.',
      raisedBy: '`PostgresMemoryProvider.init`',
      raisers: ['memory-postgres/src/migrations.ts#migrate'],
      cause:
        "the schema's `weft_memory_migrations` table records a version this version of `@weft/memory-postgres` does not know: a newer version has run against it. Nothing was changed.",
      fix: 'upgrade the package on every instance, or point this one at another `schema`.',
    },
    /** @claim errors-postgres-migration-privilege */
    WEFT_POSTGRES_MIGRATION_FAILED: {
      summary: 'A schema migration failed and was rolled back.',
      raisedBy: '`PostgresMemoryProvider.init`',
      raisers: ['memory-postgres/src/migrations.ts#migrate'],
      cause:
        'creating the schema or its tables failed, usually for a missing privilege (PostgreSQL’s `permission denied`) or a table of the same name in the way, or the role may not read the schema’s version (no `USAGE` on an existing schema, or no `SELECT` on its `weft_memory_migrations`); the whole transaction was rolled back.',
      fix: "the message includes PostgreSQL's error; give the role the `CREATE` privilege on the schema (and the database, for a new schema), or `USAGE` on the schema and `SELECT` on `weft_memory_migrations` when the message says it could not read the version, or choose another `schema`.",
    },
    /** @claim errors-postgres-not-open-shutdown */
    WEFT_POSTGRES_NOT_OPEN: {
      summary: 'A method was called before `init()` or after `shutdown()`.',
      raisedBy: '`store`, `query`, `update`, `remove` and `clear` of `PostgresMemoryProvider`',
      raisers: [
        'memory-postgres/src/connection.ts#ConnectionRunner.shutDown',
        'memory-postgres/src/provider.ts#PostgresMemoryProvider.opened',
      ],
      cause:
        'a method was called before `init()` or after `shutdown()`, or `shutdown()` ran while an operation was still trying to reach the server (within `pool.reconnectTimeoutMs`) or waiting for a free connection. An operation whose statement the server is already running is not failed: `shutdown()` waits for it to end. The runtime calls both for you; this happens when a provider is used outside a runtime, or after `stop()`.',
      fix: 'call `init()` first, and stop using the provider after `shutdown()`.',
    },
    /**
     * @claim errors-postgres-init-statement-timeout
     * @claim errors-postgres-statement-timeout-written
     */
    WEFT_POSTGRES_STATEMENT_TIMEOUT: {
      summary: 'A statement ran past the statement timeout and was cancelled.',
      raisedBy: 'every method of `PostgresMemoryProvider` that reads or writes, `init` included',
      raisers: [
        'memory-postgres/src/connection.ts#ConnectionRunner.run',
        'memory-postgres/src/provider.ts#PostgresMemoryProvider.preparingFailed',
      ],
      cause:
        "a statement ran past `pool.statementTimeoutMs` (the server cancelled it), or the server did not answer within a second more (the client gave up). Waiting for a lock counts: another session holding a lock on `weft_memories` is the usual reason, or, for `init`, another instance preparing the same schema. When the server cancelled the statement nothing was written; when the client gave up, the server may have run the statement and lost only its answer, as the message then says: query to see whether it took effect. For `init`, that means a migration may or may not have been applied; the next `init()` applies only the migrations not recorded in the schema's `weft_memory_migrations` table.",
      fix: 'look for long transactions holding locks (`pg_stat_activity`, `pg_locks`), or raise `pool.statementTimeoutMs`.',
    },
    /** @claim errors-postgres-unavailable-dns */
    WEFT_POSTGRES_UNAVAILABLE: {
      summary:
        'The server could not be reached within the reconnect window, every connection of the pool stayed busy, or the connection broke during a `remove` or `clear`.',
      raisedBy: 'every method of `PostgresMemoryProvider` that reads or writes',
      raisers: [
        'memory-postgres/src/connection.ts#ConnectionRunner.unavailable',
        'memory-postgres/src/connection.ts#ConnectionRunner.busy',
      ],
      cause:
        "the server could not be reached for longer than `pool.reconnectTimeoutMs` (it is down, restarting slowly, out of connections, or its host name does not resolve for a while, as a restarting container's name does), and the message names host and port; or every one of the pool's `pool.max` connections was held by another operation for `pool.connectionTimeoutMs`, which is not retried; or the connection broke while a `remove` or `clear` was running, so whether it took effect is unknown.",
      fix: 'check the server; raise `pool.reconnectTimeoutMs` to ride out longer restarts. For a busy pool, look for slow statements and long-held locks (`pg_stat_activity`), or raise `pool.max` or `pool.connectionTimeoutMs`. After an unknown outcome, query to see what is left.',
    },
  },
} as const satisfies ErrorRegistry<PostgresMemoryProviderErrorCode>;

/**
 * The error `@weft/memory-postgres` throws on purpose: a {@link WeftError} with a
 * {@link PostgresMemoryProviderErrorCode}. Recognise it with `WeftError.is(error, 'WEFT_POSTGRES_…')`.
 */
export class PostgresMemoryProviderError extends WeftError<PostgresMemoryProviderErrorCode> {
  /**
   * @param code - What went wrong.
   * @param message - What went wrong and how to fix it, starting with PostgresMemoryProvider:.
   * @param options - The underlying error, and the HTTP status and exposure when it has them.
   */
  constructor(
    code: PostgresMemoryProviderErrorCode,
    message: string,
    options: WeftErrorOptions = {},
  ) {
    super(code, message, options);
    this.name = 'PostgresMemoryProviderError';
  }
}

/**
 * The former name of {@link PostgresMemoryProviderErrorCode}.
 *
 * @deprecated Use {@link PostgresMemoryProviderErrorCode}; this alias keeps working for at least one minor release after the first release that deprecates it, as the stability policy promises, and is removed in a later one.
 */
export type WeftPostgresErrorCode = PostgresMemoryProviderErrorCode;
