import { WeftError, type WeftErrorOptions } from '@weft/core';
import type { ErrorRegistry } from '@weft/core/internal';

// <error-codes> generated from the registry by: npm run generate:references
/**
 * The code of an error raised by `@weft/memory-sqlite`. The list is closed (a new code is
 * a change to the public API) and stable across versions, so callers branch on the code rather
 * than on messages. Each code has a section of the same name in the errors reference of
 * the documentation, with what raises it, its cause and its fix; the error’s `docsUrl` links it.
 *
 * - `WEFT_SQLITE_INVALID_OPTIONS`: The constructor’s options are missing or invalid.
 * - `WEFT_SQLITE_OPEN_FAILED`: The database file could not be opened.
 * - `WEFT_SQLITE_SCHEMA_TOO_NEW`: The file records a schema version newer than the package knows.
 * - `WEFT_SQLITE_MIGRATION_FAILED`: A schema migration failed; no step was applied.
 * - `WEFT_SQLITE_NOT_OPEN`: A method was called before `init()` or after `shutdown()`.
 */
export type SqliteMemoryProviderErrorCode =
  | 'WEFT_SQLITE_INVALID_OPTIONS'
  | 'WEFT_SQLITE_OPEN_FAILED'
  | 'WEFT_SQLITE_SCHEMA_TOO_NEW'
  | 'WEFT_SQLITE_MIGRATION_FAILED'
  | 'WEFT_SQLITE_NOT_OPEN';
// </error-codes>

/**
 * What the errors reference says about each code of `@weft/memory-sqlite`; the code union above
 * and the page are generated from it.
 *
 * @internal
 */
export const SQLITE_ERRORS = {
  packageName: '@weft/memory-sqlite',
  codes: {
    /** @claim errors-sqlite-invalid-options */
    WEFT_SQLITE_INVALID_OPTIONS: {
      summary: 'The constructor’s options are missing or invalid.',
      raisedBy: '`new SqliteMemoryProvider`',
      raisers: ['memory-sqlite/src/options.ts#resolveOptions'],
      cause:
        'the constructor’s options are missing or invalid: options that are not an object, an option name it does not know (a misspelt one), an empty or blank `path` or one with a NUL character, an empty or blank `id`, or a `busyTimeoutMs` that is not a whole number of milliseconds from 0 to 2,147,483,647.',
      fix: 'the message names the option.',
    },
    /** @claim errors-sqlite-open-native-binary */
    WEFT_SQLITE_OPEN_FAILED: {
      summary: 'The database file could not be opened.',
      raisedBy: '`SqliteMemoryProvider.init`, so `Runtime.start` (as `WEFT_START_FAILED`)',
      raisers: [
        'memory-sqlite/src/provider.ts#SqliteMemoryProvider.init',
        'memory-sqlite/src/provider.ts#SqliteMemoryProvider.refuseUnwritableFile',
      ],
      cause:
        'the database file could not be opened: its directory does not exist, the process may not write there, the file is not a SQLite database, or another connection held a lock `init()` needed to switch the file to WAL mode or bring its schema up to date: the write lock longer than `busyTimeoutMs`, or, on a file in rollback-journal mode being switched to WAL, a reader’s lock longer than `busyTimeoutMs` or the write lock at all, which SQLite does not wait for (a file with a current schema, in WAL mode as this package leaves it, takes no write lock, so opening it does not wait for another writer). better-sqlite3 loads its native binary as the first database opens, so a binary built for another Node.js version fails here too, with `NODE_MODULE_VERSION` in the message, and so does a driver left without a binary because npm 12 blocked its install script, with `Could not locate the bindings file`.',
      fix: 'create the directory and give the service’s user write access to it. When the message says `file is not a database`, `path` names a file of another kind: point it at a SQLite database written by this package, or at a new file. When it says `database is locked`, start again once the other connection has released the lock, or raise `busyTimeoutMs` when the message says `init()` waited that long. When it says `NODE_MODULE_VERSION`, run `npm rebuild better-sqlite3` (see [better-sqlite3 compiles from source](../guides/troubleshooting.md#better-sqlite3-compiles-from-source)). When it says `Could not locate the bindings file`, allow the driver’s install script and run it (see [The SQLite driver’s install script](../installation.md#the-sqlite-drivers-install-script)).',
    },
    WEFT_SQLITE_SCHEMA_TOO_NEW: {
      summary: 'The file records a schema version newer than the package knows.',
      raisedBy: '`SqliteMemoryProvider.init`',
      raisers: ['memory-sqlite/src/migrations.ts#refuseNewerSchema'],
      cause:
        'the file’s `PRAGMA user_version` is above the last schema version this `@weft/memory-sqlite` knows: a newer version of the package wrote it, or another program that keeps its own version number there did. Nothing in the file is changed.',
      fix: 'when a newer version of the package wrote it, upgrade the package or restore a backup taken before that version ran; when the file belongs to another program, point `path` at a file of its own.',
    },
    /** @claim errors-sqlite-migration-message */
    WEFT_SQLITE_MIGRATION_FAILED: {
      summary: 'A schema migration failed; no step was applied.',
      raisedBy: '`SqliteMemoryProvider.init`',
      raisers: ['memory-sqlite/src/migrations.ts#migrate'],
      cause:
        'moving the file’s schema to the current version failed; no step was applied, so its tables, rows and schema version are as they were.',
      fix: 'the message includes SQLite’s error; check disk space and permissions, then start again.',
    },
    WEFT_SQLITE_NOT_OPEN: {
      summary: 'A method was called before `init()` or after `shutdown()`.',
      raisedBy: '`store`, `query`, `update`, `remove` and `clear` of `SqliteMemoryProvider`',
      raisers: ['memory-sqlite/src/provider.ts#SqliteMemoryProvider.open'],
      cause:
        'a method was called before `init()` or after `shutdown()`. The runtime calls both for you; this happens when a provider is used outside a runtime, or after `stop()`.',
      fix: 'call `init()` first, and stop using the provider after `shutdown()`.',
    },
  },
} as const satisfies ErrorRegistry<SqliteMemoryProviderErrorCode>;

/**
 * The error `@weft/memory-sqlite` throws on purpose: a {@link WeftError} with a
 * {@link SqliteMemoryProviderErrorCode}. Recognise it with `WeftError.is(error, 'WEFT_SQLITE_…')`.
 */
export class SqliteMemoryProviderError extends WeftError<SqliteMemoryProviderErrorCode> {
  /**
   * @param code - What went wrong.
   * @param message - What went wrong and how to fix it, starting with SqliteMemoryProvider:.
   * @param options - The underlying error, and the HTTP status and exposure when it has them.
   */
  constructor(
    code: SqliteMemoryProviderErrorCode,
    message: string,
    options: WeftErrorOptions = {},
  ) {
    super(code, message, options);
    this.name = 'SqliteMemoryProviderError';
  }
}

/**
 * The former name of {@link SqliteMemoryProviderErrorCode}.
 *
 * @deprecated Use {@link SqliteMemoryProviderErrorCode}; this alias keeps working for at least one minor release after the first release that deprecates it, as the stability policy promises, and is removed in a later one.
 */
export type WeftSqliteErrorCode = SqliteMemoryProviderErrorCode;
