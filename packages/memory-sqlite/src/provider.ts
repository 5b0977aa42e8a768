import { randomUUID } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import Database from 'better-sqlite3';
import {
  checkClearSpace,
  checkMemoryId,
  checkMemoryPatch,
  checkMemoryQuery,
  checkNewMemory,
  memoryNotFound,
  MemoryProvider,
  WeftError,
  type Memory,
  type QueryMemoryOptions,
} from '@weft/core';
import { describeError } from '@weft/core/internal';
import { migrate, refuseNewerSchema, SCHEMA_VERSION } from './migrations.js';
import {
  IN_MEMORY_PATH,
  resolveOptions,
  type ResolvedSqliteMemoryProviderOptions,
  type SqliteMemoryProviderOptions,
} from './options.js';
import { buildQuery } from './query.js';
import { rowToMemory, type MemoryRow } from './rows.js';
import { SqliteMemoryProviderError } from './errors.js';

/** Most distinct query shapes whose prepared statements are kept per connection. */
const QUERY_CACHE_SIZE = 64;

const COLUMNS = 'id, space, kind, content, task_id, metadata, created_at';

/** The statements every operation but `query` uses, prepared once per connection. */
interface Statements {
  insert: Database.Statement<[string, string, string, string, string | null, string, number]>;
  update: Database.Statement<[string | null, string | null, string], MemoryRow>;
  remove: Database.Statement<[string]>;
  clearAll: Database.Statement<[]>;
  clearSpace: Database.Statement<[string]>;
  ping: Database.Statement<[], { ok: number }>;
  newest: Database.Statement<[], { newest: number | null }>;
}

/** An open connection with its prepared statements. */
interface Connection {
  readonly db: Database.Database;
  readonly statements: Statements;
  readonly queries: Map<string, Database.Statement<(string | number)[], MemoryRow>>;
}

/**
 * A Weft memory provider backed by one SQLite file through better-sqlite3. Memories survive
 * restarts, several providers (in one process or several) may share a file thanks to WAL mode
 * and a busy timeout, and the schema is versioned with `PRAGMA user_version` and migrated
 * forward on {@link SqliteMemoryProvider.init}.
 *
 * Every statement is prepared and takes its values as bound parameters. `createdAt` comes from
 * a per-instance monotonic clock, so memories stored by one provider within the same
 * millisecond still get strictly increasing timestamps; ties between instances are ordered by
 * insertion.
 *
 * @example
 * ```ts
 * import { SqliteMemoryProvider } from '@weft/memory-sqlite';
 *
 * const memory = new SqliteMemoryProvider({ path: './weft-memory.db' });
 * await memory.init(); // the Runtime does this for you in Runtime.start()
 *
 * await memory.store({
 *   space: 'chat-room-42-user-7',
 *   kind: 'note',
 *   content: { text: 'prefers short answers' },
 *   metadata: {},
 * });
 *
 * // Everything in room 42 and the spaces under it, newest first.
 * const recent = await memory.query({ spacePatterns: ['chat-room-42', 'chat-room-42-*'], limit: 20 });
 *
 * await memory.shutdown();
 * ```
 */
export class SqliteMemoryProvider extends MemoryProvider {
  /** Unique id of this provider instance, used in logs and errors. */
  readonly id: string;

  /** The database file, or `':memory:'`. */
  readonly path: string;

  private readonly options: ResolvedSqliteMemoryProviderOptions;
  private connection: Connection | undefined;
  private lastCreatedAt = 0;

  /**
   * Creates the provider; nothing is opened until {@link SqliteMemoryProvider.init}.
   *
   * @param options - Where the database lives and how to name and tune the provider.
   * @throws `WeftError` `WEFT_SQLITE_INVALID_OPTIONS` naming the first
   * option that is missing or invalid.
   */
  constructor(options: SqliteMemoryProviderOptions) {
    super();
    this.options = resolveOptions(options);
    this.id = this.options.id;
    this.path = this.options.path;
  }

  private get label(): string {
    return `SqliteMemoryProvider "${this.id}"`;
  }

  /**
   * Opens the database, creating the file when missing, switches file databases to WAL mode
   * with every commit synced to disk (`synchronous = FULL`), sets the busy timeout and applies
   * pending schema migrations in one transaction. A file in WAL mode whose schema is current is
   * not written to, so opening it does not wait for another writer. Calling it on an open
   * provider does nothing; calling it after {@link SqliteMemoryProvider.shutdown}
   * opens the database again.
   *
   * @throws `WeftError` `WEFT_SQLITE_OPEN_FAILED` when the file cannot be
   * opened, the process may not write it, its directory or the `-wal` and `-shm` files beside it, or it is not a SQLite database, or, when the file needs switching to WAL mode or a schema
   * migration, another connection holds its write lock (or, on a file in rollback-journal mode
   * being switched to WAL, any lock) longer than `busyTimeoutMs` (SQLite's
   * error is the `cause`), `WEFT_SQLITE_SCHEMA_TOO_NEW` when its schema version is newer than this package
   * knows (before anything writes to the file), or `WEFT_SQLITE_MIGRATION_FAILED` when a migration
   * step fails (none is applied then).
   * @claim tsdoc-sqlite-init
   */
  override async init(): Promise<void> {
    if (this.connection) return;
    const { path, busyTimeoutMs } = this.options;
    // SQLite opens a file it may not write read-only without a word, and only a later write
    // would fail; a store that cannot keep a memory is refused at start instead.
    if (path !== IN_MEMORY_PATH) this.refuseUnwritableFile(path);
    let db: Database.Database;
    try {
      db = new Database(path, { timeout: busyTimeoutMs });
    } catch (error) {
      // A missing directory is said by better-sqlite3's own message; a folder the process may not
      // write, or a path naming a folder, gets the advice below.
      const hint = isAccessError(error) ? `; ${ACCESS_HINT}` : '';
      throw new SqliteMemoryProviderError(
        'WEFT_SQLITE_OPEN_FAILED',
        `${this.label}: cannot open the database "${path}": ${describeError(error)}${hint}`,
        { cause: error },
      );
    }
    // When the step that needs a lock began: how long SQLite waited tells a lock it waits for from
    // one it does not, and loading the native module or opening the file must not count.
    let stepStarted = performance.now();
    try {
      // better-sqlite3 opens lazily: a file that is not a SQLite database (SQLITE_NOTADB) or whose
      // first page is damaged (SQLITE_CORRUPT) first fails here, when a statement reads its
      // header; damage further in shows only when a later statement reads it.
      // PRAGMA cannot take bound parameters; the timeout was validated as an integer.
      db.pragma(`busy_timeout = ${busyTimeoutMs}`);
      const label = `${this.label} (${path})`;
      // Switching to WAL rewrites the file's header, so a file this version must refuse is
      // refused first, untouched; migrate() checks again under its write lock.
      stepStarted = performance.now();
      const version = refuseNewerSchema(db, label);
      if (path !== IN_MEMORY_PATH) {
        stepStarted = performance.now();
        db.pragma('journal_mode = WAL');
        // SQLite as better-sqlite3 builds it defaults a database in WAL mode to synchronous =
        // NORMAL, which syncs the log only at checkpoints: a power cut or a crash of the system
        // could then take back writes that had returned. FULL syncs the log at every commit, so
        // a memory that was stored stays stored.
        db.pragma('synchronous = FULL');
      }
      // A current schema needs no write lock, so opening it never waits for another writer.
      // Otherwise migrate() takes the lock and reads the version again, since another connection
      // may have migrated the file meanwhile.
      stepStarted = performance.now();
      if (version < SCHEMA_VERSION) migrate(db, label);
      const statements = prepareStatements(db);
      // A burst of stores runs the clock ahead of Date.now(), a millisecond per store; starting
      // after the newest memory on file keeps a memory stored after a restart the newest.
      const newest = statements.newest.get()?.newest;
      if (typeof newest === 'number' && newest > this.lastCreatedAt) this.lastCreatedAt = newest;
      this.connection = { db, statements, queries: new Map() };
    } catch (error) {
      db.close();
      // The migrations raise their own codes; anything else means the file cannot be used.
      if (WeftError.is(error)) throw error;
      throw new SqliteMemoryProviderError(
        'WEFT_SQLITE_OPEN_FAILED',
        `${this.label}: cannot open the database "${path}": ${describeError(error)}; ` +
          openFailureHint(error, busyTimeoutMs, performance.now() - stepStarted),
        { cause: error },
      );
    }
  }

  /**
   * Runs `SELECT 1` against the database.
   *
   * @returns `true` when the database answers; `false` when it does not or is not open. Never
   * throws.
   */
  override async checkHealth(): Promise<boolean> {
    try {
      return this.connection?.statements.ping.get()?.ok === 1;
    } catch {
      return false;
    }
  }

  /**
   * Closes the database; with WAL mode the log is checkpointed into the file first. Calling it
   * again, or before {@link SqliteMemoryProvider.init}, does nothing.
   */
  override async shutdown(): Promise<void> {
    const connection = this.connection;
    if (!connection) return;
    this.connection = undefined;
    connection.queries.clear();
    connection.db.close();
  }

  /**
   * Stores a memory under a new random UUID, with `createdAt` set to now (nudged forward by a
   * millisecond when needed to stay strictly after this provider's previous memory, and after
   * the newest memory the file held when {@link SqliteMemoryProvider.init} opened it).
   *
   * @param memory - The memory without its id and timestamp. `content` and `metadata` must be
   * JSON-serialisable; `metadata` defaults to `{}`.
   * @returns The stored memory, with `content` and `metadata` as they will be read back.
   * @throws `WeftError` `WEFT_MEMORY_INVALID` naming the field when the memory breaks the
   * memory contract (`checkNewMemory` of `@weft/core`): content or metadata with no JSON form
   * (`undefined`, a `BigInt`, a circular structure), an empty `space` or `kind`, a `taskId` that
   * is neither a string nor `null`; nothing is written then. `WEFT_SQLITE_NOT_OPEN` before {@link SqliteMemoryProvider.init}, as every method that
   * reads or writes.
   */
  override async store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
    const { statements } = this.open();
    const checked = checkNewMemory(memory, this.label);
    const row: MemoryRow = {
      id: randomUUID(),
      space: checked.space,
      kind: checked.kind,
      content: checked.content,
      task_id: checked.taskId ?? null,
      metadata: checked.metadata,
      created_at: this.nextTimestamp(),
    };
    statements.insert.run(
      row.id,
      row.space,
      row.kind,
      row.content,
      row.task_id,
      row.metadata,
      row.created_at,
    );
    return rowToMemory(row);
  }

  /**
   * Replaces the content and/or metadata of a stored memory. A field that is absent or
   * `undefined` in the patch is kept.
   *
   * @param id - The memory's id.
   * @param patch - The fields to replace.
   * @returns The updated memory.
   * @throws `WeftError` `WEFT_MEMORY_NOT_FOUND` naming the id when no memory has it;
   * `WEFT_MEMORY_INVALID` when the patch cannot be stored; `WEFT_INVALID_ARGUMENT` when `id` is
   * not a string.
   * @claim tsdoc-sqlite-codes
   * @claim tsdoc-sqlite-update-id
   */
  override async update(
    id: string,
    patch: { content?: unknown; metadata?: Record<string, unknown> },
  ): Promise<Memory> {
    const { statements } = this.open();
    const checked = checkMemoryPatch(id, patch, this.label);
    const row = statements.update.get(
      checked.content ?? null,
      checked.metadata ?? null,
      checked.id,
    );
    if (!row) throw memoryNotFound(checked.id, this.label);
    return rowToMemory(row);
  }

  /**
   * Finds memories. Space filters (`space`, `spacePrefix`, `spacePatterns`) are OR-ed; every
   * other filter must also match. Results are newest first unless `order` is `asc`, and at most
   * `limit` (default 100) are returned.
   *
   * @param options - Filters, order and limit.
   * @returns The matching memories.
   * @throws `WeftError` `WEFT_MEMORY_INVALID_QUERY` naming the option when one is invalid, such
   * as a `limit` that is not a positive integer.
   * @claim tsdoc-sqlite-query
   */
  override async query(options: QueryMemoryOptions): Promise<Memory[]> {
    const connection = this.open();
    const { sql, params } = buildQuery(checkMemoryQuery(options, this.label));
    let statement = connection.queries.get(sql);
    if (!statement) {
      statement = connection.db.prepare<(string | number)[], MemoryRow>(sql);
      if (connection.queries.size >= QUERY_CACHE_SIZE) {
        const oldest = connection.queries.keys().next();
        if (!oldest.done) connection.queries.delete(oldest.value);
      }
      connection.queries.set(sql, statement);
    }
    return statement.all(...params).map(rowToMemory);
  }

  /**
   * Deletes one memory.
   *
   * @param id - The memory's id.
   * @returns `true` when a memory was deleted, `false` when none had this id.
   * @throws `WeftError` `WEFT_INVALID_ARGUMENT` when `id` is not a string.
   */
  override async remove(id: string): Promise<boolean> {
    const { statements } = this.open();
    return statements.remove.run(checkMemoryId(id, 'remove', this.label)).changes > 0;
  }

  /**
   * Deletes every memory, or those whose space is exactly `space` (spaces under it are kept).
   *
   * @param space - When given, the one space to empty.
   * @returns How many memories were deleted.
   * @throws `WeftError` `WEFT_INVALID_ARGUMENT` when `space` is given and not a string.
   * @claim tsdoc-sqlite-clear
   */
  override async clear(space?: string): Promise<number> {
    const { statements } = this.open();
    const only = checkClearSpace(space, this.label);
    if (only === undefined) return statements.clearAll.run().changes;
    return statements.clearSpace.run(only).changes;
  }

  private refuseUnwritableFile(path: string): void {
    // A -wal or -shm file left beside the database by a process of another user (one that still
    // has it open, or crashed) makes SQLite open the database read-only just the same.
    for (const file of [path, `${path}-wal`, `${path}-shm`]) {
      try {
        accessSync(file, constants.W_OK);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // A missing file is created by SQLite, or refused with its own message.
        if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') continue;
        throw new SqliteMemoryProviderError(
          'WEFT_SQLITE_OPEN_FAILED',
          `${this.label}: cannot open the database "${path}" for writing: ${describeError(error)}; ` +
            ACCESS_HINT,
          { cause: error },
        );
      }
    }
  }

  private open(): Connection {
    if (!this.connection) {
      throw new SqliteMemoryProviderError(
        'WEFT_SQLITE_NOT_OPEN',
        `${this.label} is not open: call init() first (Runtime.start() does this for you)`,
      );
    }
    return this.connection;
  }

  private nextTimestamp(): number {
    const now = Date.now();
    this.lastCreatedAt = now > this.lastCreatedAt ? now : this.lastCreatedAt + 1;
    return this.lastCreatedAt;
  }
}

/**
 * The fix an `init()` failure's message suggests. A lock held by another connection (SQLite's
 * `SQLITE_BUSY` family of codes) says nothing about the file, so it gets its own advice. SQLite
 * waits `busyTimeoutMs` for most locks, but not while switching a file in rollback-journal mode to
 * WAL and another connection holds its write lock (waiting could deadlock): it fails at once then,
 * so the advice depends on how long `init()` waited. A reader of such a file blocks the switch too,
 * and SQLite does wait for it. A file or folder the process may not write (SQLite's
 * `SQLITE_READONLY`, `SQLITE_CANTOPEN` and `SQLITE_PERM` families) is a matter of permissions, not
 * of the file's contents.
 *
 * @param error - What SQLite threw.
 * @param busyTimeoutMs - The provider's busy timeout.
 * @param waitedMs - How long the step of `init()` that failed ran.
 * @returns The advice, for the end of the message.
 */
function openFailureHint(error: unknown, busyTimeoutMs: number, waitedMs: number): string {
  const code = sqliteCode(error);
  if (isAccessError(error)) return ACCESS_HINT;
  if (code?.startsWith('SQLITE_BUSY')) {
    // With no wait allowed, how long init() ran cannot tell a lock SQLite would have waited for
    // from one it never waits for, so the advice names both.
    if (busyTimeoutMs === 0) {
      return (
        'another connection holds a lock on this file, and with busyTimeoutMs 0 init() did not ' +
        'wait for it; start again once it is released, or raise busyTimeoutMs, which does not ' +
        'help against the write lock of a file in rollback-journal mode being switched to WAL: ' +
        'SQLite does not wait for that one'
      );
    }
    // Half the timeout leaves room for a clock that measures the full wait a little short.
    if (waitedMs < busyTimeoutMs / 2) {
      return (
        'another connection holds the write lock of this file in rollback-journal mode, which ' +
        'SQLite does not wait for while switching the file to WAL; start again once it is released'
      );
    }
    return (
      `another connection held a lock on this file longer than busyTimeoutMs (${busyTimeoutMs} ms): ` +
      'its write lock, or any lock, a reader’s too, on a file in rollback-journal mode being ' +
      'switched to WAL; start again once it is released, or raise busyTimeoutMs'
    );
  }
  return 'check that the path names a SQLite database file written by this package, or a new file';
}

/** The advice for a file or folder the process may not write, or a path that names a folder. */
const ACCESS_HINT =
  'check that the process may write this file and create files in its directory (SQLite keeps ' +
  'its -wal and -shm files beside it), and that the path names a file, not a folder';

function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether SQLite failed for want of access to the file or its directory. */
function isAccessError(error: unknown): boolean {
  const code = sqliteCode(error);
  return (
    code !== undefined &&
    ['SQLITE_READONLY', 'SQLITE_CANTOPEN', 'SQLITE_PERM'].some(
      (family) => code === family || code.startsWith(`${family}_`),
    )
  );
}

function prepareStatements(db: Database.Database): Statements {
  return {
    insert: db.prepare(`INSERT INTO memories (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`),
    update: db.prepare(
      'UPDATE memories SET content = coalesce(?, content), metadata = coalesce(?, metadata) ' +
        `WHERE id = ? RETURNING ${COLUMNS}`,
    ),
    remove: db.prepare('DELETE FROM memories WHERE id = ?'),
    clearAll: db.prepare('DELETE FROM memories'),
    clearSpace: db.prepare('DELETE FROM memories WHERE space = ?'),
    ping: db.prepare('SELECT 1 AS ok'),
    newest: db.prepare('SELECT max(created_at) AS newest FROM memories'),
  };
}
