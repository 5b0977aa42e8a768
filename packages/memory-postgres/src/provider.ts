import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import {
  checkClearSpace,
  checkMemoryId,
  checkMemoryPatch,
  checkMemoryQuery,
  checkNewMemory,
  memoryNotFound,
  MemoryProvider,
  type Memory,
  type QueryMemoryOptions,
} from '@weft/core';
import { describeError, unstorableText } from '@weft/core/internal';
import {
  clientGaveUp,
  ConnectionRunner,
  createPool,
  isConnectionError,
  isTimeoutError,
  listenForBreaks,
  maskedError,
} from './connection.js';
import { PostgresMemoryProviderError } from './errors.js';
import { migrate, tablesOf, type Tables } from './migrations.js';
import {
  CLIENT_GRACE_MS,
  describeServer,
  resolveOptions,
  scrub,
  type PostgresMemoryProviderOptions,
  type ResolvedPostgresMemoryProviderOptions,
} from './options.js';
import { buildQuery, SELECT_COLUMNS } from './query.js';
import { rowToMemory, type MemoryRow } from './rows.js';

/** The ids this provider hands out: lower-case canonical UUIDs, as `randomUUID()` writes them. */
const MEMORY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** An open pool with what runs statements on it. */
interface Connection {
  readonly pool: pg.Pool;
  readonly runner: ConnectionRunner;
}

/**
 * A Weft memory provider backed by PostgreSQL through node-postgres, for agents that run as
 * several processes or on several hosts and share one store. Content and metadata are `jsonb`;
 * the schema is versioned and migrated forward by {@link PostgresMemoryProvider.init} under an
 * advisory lock, so instances that start together do not race.
 *
 * Every wait has a deadline: connecting, waiting for a free connection, each statement, and the
 * retries while the server restarts. Stores and updates are retried after a broken connection
 * without being applied twice (each memory's id is chosen before the first attempt), so a write
 * that resolved is stored. `createdAt` comes from a per-instance monotonic clock; ties between
 * instances are ordered by insertion.
 *
 * @example
 * ```ts
 * import { PostgresMemoryProvider } from '@weft/memory-postgres';
 *
 * const memory = new PostgresMemoryProvider({
 *   connectionString: process.env.DATABASE_URL ?? 'postgres://weft:secret@localhost:5432/weft',
 *   pool: { max: 10, statementTimeoutMs: 10_000 },
 * });
 * await memory.init(); // the Runtime does this for you in Runtime.start()
 *
 * await memory.store({ space: 'chat-room-42', kind: 'note', content: { text: 'hi' }, metadata: {} });
 * const recent = await memory.query({ spacePrefix: 'chat-room-42', limit: 20 });
 *
 * await memory.shutdown();
 * ```
 */
export class PostgresMemoryProvider extends MemoryProvider {
  /** Unique id of this provider instance, used in logs and errors. */
  readonly id: string;

  /** The PostgreSQL schema that holds the tables. */
  readonly schema: string;

  private readonly options: ResolvedPostgresMemoryProviderOptions;
  private readonly tables: Tables;
  private connection: Connection | undefined;
  private lastCreatedAt = 0;
  private opening: Promise<void> | undefined;

  /**
   * Creates the provider; nothing is connected until {@link PostgresMemoryProvider.init}.
   *
   * @param options - Where the server is, which schema to use, and the pool's size and timeouts.
   * @throws `WeftError` `WEFT_POSTGRES_INVALID_OPTIONS` naming the
   * first option that is missing or invalid.
   */
  constructor(options: PostgresMemoryProviderOptions) {
    super();
    this.options = resolveOptions(options);
    this.id = this.options.id;
    this.schema = this.options.schema;
    this.tables = tablesOf(this.schema);
  }

  private get label(): string {
    return `PostgresMemoryProvider "${this.id}"`;
  }

  /** Where the server is, for messages: a host or database named like the password is masked. */
  private get where(): string {
    return scrub(describeServer(this.options.connectionString), this.options.secrets);
  }

  /**
   * Opens the pool, checks that the server answers and the login works, and applies pending
   * schema migrations in one transaction under an advisory lock. Calling it on an open provider
   * does nothing; calling it after {@link PostgresMemoryProvider.shutdown} opens it again.
   *
   * @throws `WeftError` `WEFT_POSTGRES_CONNECT_FAILED` naming host and
   * port (never the password) when the server cannot be reached or refuses the login, or the
   * connection breaks while the schema is prepared;
   * `WEFT_POSTGRES_SCHEMA_TOO_NEW` when the schema is newer than this package knows;
   * `WEFT_POSTGRES_MIGRATION_FAILED` when a migration step fails, or the role may not create the
   * schema or its tables or read the schema's version; `WEFT_POSTGRES_STATEMENT_TIMEOUT` when
   * preparing the schema runs past the statement timeout or its answer is lost. After a broken
   * connection or a lost answer a migration may or may not have been applied, as the message
   * says; the next init() applies only the migrations not recorded in the schema.
   */
  override async init(): Promise<void> {
    if (this.connection) return;
    // A second init() while the first is connecting waits for it instead of opening a second pool.
    this.opening ??= this.open().finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  private async open(): Promise<void> {
    const pool = createPool(this.options);
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      await pool.end().catch(() => undefined);
      const runner = new ConnectionRunner(pool, this.options, this.label);
      throw new PostgresMemoryProviderError(
        'WEFT_POSTGRES_CONNECT_FAILED',
        `${this.label}: cannot connect to PostgreSQL at ${this.where}: ` +
          `${scrub(describeError(error), this.options.secrets)}; check that the server runs and ` +
          `accepts connections there, and the user name and password`,
        { cause: runner.safeCause(error) },
      );
    }
    const stopListening = listenForBreaks(client);
    const started = Date.now();
    try {
      const { secrets } = this.options;
      await migrate(client, this.tables, `${this.label} (${this.where})`, {
        text: (text) => scrub(text, secrets),
        error: (error) => maskedError(error, secrets),
      });
      // A burst of stores runs the clock ahead of Date.now(), a millisecond per store; starting
      // after the newest memory on the server keeps a memory stored after a restart the newest.
      const newest = await client
        .query<{ newest: string | null }>(
          `SELECT (extract(epoch FROM max(created_at)) * 1000)::bigint::text AS newest ` +
            `FROM ${this.tables.memories}`,
        )
        .catch((error: unknown) => {
          // A role that may not read the table fails at its first call, as it always did; its
          // clock starts from the system time.
          if ((error as { code?: unknown } | null)?.code === '42501') return undefined;
          throw error;
        });
      const newestMs = Number(newest?.rows[0]?.newest ?? 0);
      if (newestMs > this.lastCreatedAt) this.lastCreatedAt = newestMs;
      stopListening();
      client.release();
    } catch (error) {
      client.release(true);
      await pool.end().catch(() => undefined);
      throw this.preparingFailed(error, Date.now() - started, pool);
    }
    this.connection = { pool, runner: new ConnectionRunner(pool, this.options, this.label) };
  }

  /**
   * The error `init()` fails with when preparing the schema failed: timeouts and a broken
   * connection get the package's codes, anything else is passed on as it is.
   *
   * @param error - What the migration failed with.
   * @param ranMs - How long it had run.
   * @param pool - The pool it ran on, already ended, to clean the driver's error with.
   */
  private preparingFailed(error: unknown, ranMs: number, pool: pg.Pool): unknown {
    const { statementTimeoutMs } = this.options.pool;
    // Whether the server committed before the answer or the connection was lost cannot be
    // known here. migrate() records each step in the same transaction as the step, and the next
    // init() applies only the steps not recorded.
    const outcome =
      `so any migration it was applying may or may not have been applied; the next init() ` +
      `applies only the migrations not recorded in the schema's weft_memory_migrations table`;
    if (clientGaveUp(error)) {
      return new PostgresMemoryProviderError(
        'WEFT_POSTGRES_STATEMENT_TIMEOUT',
        `${this.label}: preparing schema "${this.schema}" got no answer from ${this.where} ` +
          `within ${statementTimeoutMs + CLIENT_GRACE_MS} ms (the statement timeout and ` +
          `${CLIENT_GRACE_MS} ms more) and was given up, ${outcome}; check the server and the ` +
          `network`,
        { cause: error },
      );
    }
    if (isTimeoutError(error, ranMs, statementTimeoutMs)) {
      // The server cancelled a statement of the transaction, so nothing of it was committed.
      // Usually another instance migrating the same schema, or a session locking its tables.
      return new PostgresMemoryProviderError(
        'WEFT_POSTGRES_STATEMENT_TIMEOUT',
        `${this.label}: preparing schema "${this.schema}" ran past the statement timeout of ` +
          `${statementTimeoutMs} ms and was rolled back; look for a session holding a lock on ` +
          `its tables, or raise pool.statementTimeoutMs`,
        { cause: error },
      );
    }
    if (isConnectionError(error)) {
      const runner = new ConnectionRunner(pool, this.options, this.label);
      return new PostgresMemoryProviderError(
        'WEFT_POSTGRES_CONNECT_FAILED',
        `${this.label}: the connection to PostgreSQL at ${this.where} broke while preparing ` +
          `schema "${this.schema}" (${scrub(describeError(error), this.options.secrets)}), ` +
          `${outcome}; check that the server runs and stays reachable, then call init() again`,
        { cause: runner.safeCause(error) },
      );
    }
    return error;
  }

  /**
   * Runs `SELECT 1` on a connection of the pool, within the connection timeout.
   *
   * @returns `true` when the server answers; `false` when it does not or the provider is not
   * open. Never throws.
   */
  override async checkHealth(): Promise<boolean> {
    const connection = this.connection;
    if (!connection) return false;
    return connection.runner.ping();
  }

  /**
   * Closes every connection of the pool once the operations in flight have finished (each is
   * bounded by the statement timeout). Called while {@link PostgresMemoryProvider.init} is still
   * opening, it waits for that first, so no pool is left open. Calling it again, or before init,
   * does nothing.
   */
  override async shutdown(): Promise<void> {
    // An init() in progress would set the connection after this returned: let it finish first.
    if (this.opening) await this.opening.catch(() => undefined);
    const connection = this.connection;
    if (!connection) return;
    this.connection = undefined;
    connection.runner.close();
    await connection.pool.end();
  }

  /**
   * Stores a memory under a new random UUID, with `createdAt` set to now (nudged forward by a
   * millisecond when needed to stay strictly after this provider's previous memory, and after
   * the newest memory of the schema when {@link PostgresMemoryProvider.init} opened it). If the
   * connection breaks, the store is retried with the same id until the reconnect window ends,
   * and a store that reached the server before the break is not stored twice.
   *
   * @param memory - The memory without its id and timestamp. `content` and `metadata` must be
   * JSON-serialisable; `metadata` defaults to `{}`.
   * @returns The stored memory, as a query will read it back.
   * @throws `WeftError` `WEFT_MEMORY_INVALID` naming the field when the memory breaks the
   * memory contract (`checkNewMemory` of `@weft/core`: no JSON form, text no store can hold);
   * nothing is written then. `WEFT_POSTGRES_NOT_OPEN` before init, `WEFT_POSTGRES_UNAVAILABLE`
   * when the server stays unreachable past `reconnectTimeoutMs`, and
   * `WEFT_POSTGRES_STATEMENT_TIMEOUT` past `statementTimeoutMs`, as for every method that reads
   * or writes.
   * @claim tsdoc-postgres-store-invalid
   */
  override async store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
    const { runner } = this.opened();
    const checked = checkNewMemory(memory, this.label);
    const where = `memory of kind "${checked.kind}" in space "${checked.space}"`;
    const id = randomUUID();
    const createdAt = new Date(this.nextTimestamp());
    const values = [
      id,
      checked.space,
      checked.kind,
      checked.content,
      checked.taskId ?? null,
      checked.metadata,
      createdAt,
    ];
    const { memories } = this.tables;
    return runner.run(`store() of a ${where}`, 'idempotent', async (client) => {
      const inserted = await client.query<MemoryRow>(
        `INSERT INTO ${memories} (id, space, kind, content, task_id, metadata, created_at) ` +
          `VALUES ($1, $2, $3, $4::jsonb, $5, $6::jsonb, $7) ON CONFLICT (id) DO NOTHING ` +
          `RETURNING ${SELECT_COLUMNS}`,
        values,
      );
      // No row: an earlier attempt was stored before its connection broke.
      const row =
        inserted.rows[0] ??
        (
          await client.query<MemoryRow>(`SELECT ${SELECT_COLUMNS} FROM ${memories} WHERE id = $1`, [
            id,
          ])
        ).rows[0];
      if (!row) throw new Error(`memory "${id}" was neither inserted nor found`);
      return rowToMemory(row);
    });
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
   * @claim tsdoc-postgres-update-not-found
   */
  override async update(
    id: string,
    patch: { content?: unknown; metadata?: Record<string, unknown> },
  ): Promise<Memory> {
    const { runner } = this.opened();
    const checked = checkMemoryPatch(id, patch, this.label);
    // An id this provider never hands out names no memory; the uuid column would refuse it.
    const row = MEMORY_ID.test(checked.id)
      ? await runner.run(`update() of memory "${checked.id}"`, 'idempotent', async (client) => {
          const result = await client.query<MemoryRow>(
            `UPDATE ${this.tables.memories} SET content = coalesce($1::jsonb, content), ` +
              `metadata = coalesce($2::jsonb, metadata) WHERE id = $3 RETURNING ${SELECT_COLUMNS}`,
            [checked.content ?? null, checked.metadata ?? null, checked.id],
          );
          return result.rows[0];
        })
      : undefined;
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
   * @claim tsdoc-postgres-query
   */
  override async query(options: QueryMemoryOptions): Promise<Memory[]> {
    const { runner } = this.opened();
    const { sql, params } = buildQuery(this.tables.memories, checkMemoryQuery(options, this.label));
    const rows = await runner.run('query()', 'idempotent', async (client) => {
      const result = await client.query<MemoryRow>(sql, [...params]);
      return result.rows;
    });
    return rows.map(rowToMemory);
  }

  /**
   * Deletes one memory.
   *
   * @param id - The memory's id.
   * @returns `true` when a memory was deleted, `false` when none had this id.
   * @throws `WeftError` `WEFT_INVALID_ARGUMENT` when `id` is not a string.
   * @claim tsdoc-postgres-remove
   */
  override async remove(id: string): Promise<boolean> {
    const { runner } = this.opened();
    checkMemoryId(id, 'remove', this.label);
    if (!MEMORY_ID.test(id)) return false;
    return runner.run(`remove() of memory "${id}"`, 'once', async (client) => {
      const result = await client.query(`DELETE FROM ${this.tables.memories} WHERE id = $1`, [id]);
      return (result.rowCount ?? 0) > 0;
    });
  }

  /**
   * Deletes every memory, or those whose space is exactly `space` (spaces under it are kept).
   *
   * @param space - When given, the one space to empty.
   * @returns How many memories were deleted.
   * @throws `WeftError` `WEFT_INVALID_ARGUMENT` when `space` is given and not a string.
   * @claim tsdoc-postgres-arguments
   */
  override async clear(space?: string): Promise<number> {
    const { runner } = this.opened();
    checkClearSpace(space, this.label);
    // A space no store can hold (checkNewMemory refuses it) has no memories.
    if (space !== undefined && unstorableText(space)) return 0;
    const { memories } = this.tables;
    return runner.run(
      space === undefined ? 'clear()' : `clear() of space "${space}"`,
      'once',
      async (client) => {
        const result =
          space === undefined
            ? await client.query(`DELETE FROM ${memories}`)
            : await client.query(`DELETE FROM ${memories} WHERE space = $1`, [space]);
        return result.rowCount ?? 0;
      },
    );
  }

  private opened(): Connection {
    if (!this.connection) {
      throw new PostgresMemoryProviderError(
        'WEFT_POSTGRES_NOT_OPEN',
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
