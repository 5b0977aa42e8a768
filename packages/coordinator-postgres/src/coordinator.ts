import {
  WeftError,
  type SpaceCoordinator,
  type SpaceCoordinatorHost,
  type SpaceGrant,
  type TaskArrival,
} from '@weft/core';
import pg from 'pg';
import { coordinatorError, type WeftCoordinatorErrorCode } from './errors.js';
import {
  describeTarget,
  resolveOptions,
  type PostgresSpaceCoordinatorOptions,
  type ResolvedCoordinatorOptions,
} from './options.js';
import { prepareSchema } from './schema.js';
import { SpaceWaiters } from './space-waiters.js';

/** A task's row as the sweep reads it; node-postgres returns the bigint ticket as a string. */
interface TaskRow {
  ticket: string;
  arrival: TaskArrival;
  attempts: number;
}

/** How long a space's previous holder may take to let go before the next one looks again. */
const HANDOVER_RETRY_MS = 10;
/** How often recording a finished task is tried before this instance gives its spaces up. */
const FINISH_ATTEMPTS = 3;

/**
 * A {@link SpaceCoordinator} on PostgreSQL: several runtimes, in separate processes or on
 * separate hosts, share one database and keep each space's tasks in order across them.
 *
 * - A task's arrival is a row in `<schema>.tasks`, inserted before `Runtime.accept` (or the
 *   trigger) answers; its ticket, from a sequence, is its place in its space.
 * - A space's oldest unfinished task runs first, on the instance that owns its row, and only
 *   while that instance holds the space's session-level advisory lock.
 * - Each instance holds an advisory lock of its own on one dedicated connection. When the
 *   process dies, PostgreSQL ends that session and drops the lock; within `sweepIntervalMs` a
 *   surviving instance takes the dead one's unfinished tasks over and runs them in order.
 *
 * A task that was running when its instance died runs again from the start (at least once).
 *
 * @example
 * ```ts
 * import { PostgresSpaceCoordinator } from '@weft/coordinator-postgres';
 *
 * const coordinator = new PostgresSpaceCoordinator({
 *   connectionString: 'postgres://weft:secret@db:5432/weft',
 * });
 * // Runtime.init({ models, memory, plugins, coordinator })
 * ```
 */
export class PostgresSpaceCoordinator implements SpaceCoordinator {
  readonly id = 'postgres-coordinator';
  private readonly options: ResolvedCoordinatorOptions;
  private readonly table: string;
  private readonly channel: string;
  private pool: pg.Pool | undefined;
  private lockClient: pg.Client | undefined;
  private host: SpaceCoordinatorHost | undefined;
  private instanceKey: string | undefined;
  private state: 'new' | 'starting' | 'running' | 'lost' | 'closed' = 'new';
  private readonly lost = new AbortController();
  /** Tickets this instance handed to its scheduler (admitted here or resumed). */
  private readonly known = new Set<number>();
  /** Admissions in flight per space: a row may exist before its ticket is known. */
  private readonly admitting = new Map<string, number>();
  /** Spaces whose advisory lock this instance holds. */
  private readonly held = new Set<string>();
  private readonly waiters = new SpaceWaiters();
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  /** The lock connection's queries, one after another: a client runs one query at a time. */
  private lockQueue: Promise<unknown> = Promise.resolve();

  /**
   * @param options - The connection string, and optionally the schema, pool size and timeouts.
   * @throws `WEFT_COORDINATOR_INVALID_OPTIONS` naming each bad option.
   */
  constructor(options: PostgresSpaceCoordinatorOptions) {
    this.options = resolveOptions(options);
    this.table = `"${this.options.schema}".tasks`;
    this.channel = `${this.options.schema}_released`;
  }

  /** This instance's key in the shared tables, once started; for logs and tests. */
  get instance(): string | undefined {
    return this.instanceKey;
  }

  /** `true` while the coordinator is connected and holds its instance lock. */
  async checkHealth(): Promise<boolean> {
    return this.state === 'running';
  }

  /**
   * Connects, creates the tables when missing, takes this instance's lock, and starts looking
   * for the tasks of instances that died.
   *
   * @throws `WEFT_COORDINATOR_CONNECT_FAILED` naming host and port, or
   * `WEFT_COORDINATOR_SCHEMA_TOO_NEW`; `WEFT_COORDINATOR_NOT_STARTED` when this coordinator
   * was started before (make a new one).
   */
  async init(host: SpaceCoordinatorHost): Promise<void> {
    if (this.state !== 'new') {
      throw coordinatorError(
        'WEFT_COORDINATOR_NOT_STARTED',
        'PostgresSpaceCoordinator.init: this coordinator was started before; create a new one.',
      );
    }
    this.state = 'starting';
    this.host = host;
    const { connectionString, connectTimeoutMs, statementTimeoutMs, poolSize, schema } =
      this.options;
    const config = {
      connectionString,
      connectionTimeoutMillis: connectTimeoutMs,
      statement_timeout: statementTimeoutMs,
      // The client's own deadline, for a server that stops answering altogether.
      query_timeout: statementTimeoutMs + 1_000,
      keepAlive: true,
      application_name: 'weft-coordinator',
    };
    try {
      this.pool = new pg.Pool({ ...config, max: poolSize });
      this.pool.on('error', (error) =>
        this.options.logger.warn({ error: error.message }, 'idle PostgreSQL connection failed'),
      );
      const client = await this.pool.connect();
      try {
        await prepareSchema(client, schema);
      } finally {
        client.release();
      }
      // The server probes this session, so that a host that vanished without closing its
      // connection loses its locks within about 25 s rather than hours.
      this.lockClient = new pg.Client({
        ...config,
        options: '-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3',
      });
      this.lockClient.on('error', (error) => this.loseConnection(error));
      this.lockClient.on('end', () => this.loseConnection(new Error('the connection ended')));
      this.lockClient.on('notification', (message) => {
        if (message.payload !== undefined) this.waiters.wake(message.payload);
      });
      await this.lockClient.connect();
      const key = await this.lockClient.query<{ key: string }>(
        'SELECT nextval($1::regclass)::text AS key',
        [`"${schema}".instance_keys`],
      );
      this.instanceKey = key.rows[0]?.key;
      await this.lockClient.query('SELECT pg_advisory_lock($1::bigint)', [this.instanceKey]);
      await this.lockClient.query(`LISTEN "${this.channel}"`);
    } catch (error) {
      this.state = 'closed';
      await this.closeConnections();
      if (error instanceof WeftError) throw error;
      throw coordinatorError(
        'WEFT_COORDINATOR_CONNECT_FAILED',
        `PostgresSpaceCoordinator.init: could not connect to PostgreSQL at ${describeTarget(connectionString)}: ${(error as Error).message}. Check that the server runs and the connection string is right.`,
        { cause: error },
      );
    }
    this.state = 'running';
    this.options.logger.info({ instance: this.instanceKey }, 'coordinator started');
    this.scheduleSweep(0);
  }

  /**
   * Records a task's arrival. Arrivals of one space are recorded one at a time (under a
   * transaction-level advisory lock), so tickets of a space become visible in ticket order.
   *
   * @throws `WEFT_COORDINATOR_INVALID_ARRIVAL` (400) when the event has no JSON form;
   * `WEFT_COORDINATOR_ADMIT_FAILED` (503) when PostgreSQL did not record it in time;
   * `WEFT_COORDINATOR_NOT_STARTED` before `init()` or after `shutdown()`, and
   * `WEFT_COORDINATOR_CONNECTION_LOST` (503) once the lock connection dropped.
   */
  async admit(arrival: TaskArrival): Promise<number> {
    this.requireRunning('admit');
    let json: string;
    try {
      json = JSON.stringify(arrival);
    } catch (error) {
      throw coordinatorError(
        'WEFT_COORDINATOR_INVALID_ARRIVAL',
        `PostgresSpaceCoordinator.admit: the event of space "${arrival.space.id}" cannot be recorded, since its data or metadata has no JSON form (${(error as Error).message}); send plain JSON values.`,
        { status: 400, cause: error },
      );
    }
    const space = arrival.space.id;
    this.admitting.set(space, (this.admitting.get(space) ?? 0) + 1);
    try {
      const result = await this.requirePool().query<{ ticket: string }>(
        `WITH turn AS (SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2)))
         INSERT INTO ${this.table} (space, owner, arrival)
         SELECT $2, $3::bigint, $4::json FROM turn RETURNING ticket`,
        [`${this.options.schema}:admit`, space, this.instanceKey, json],
      );
      const ticket = Number(result.rows[0]?.ticket);
      this.known.add(ticket);
      return ticket;
    } catch (error) {
      throw coordinatorError(
        'WEFT_COORDINATOR_ADMIT_FAILED',
        `PostgresSpaceCoordinator.admit: PostgreSQL did not record a task of space "${space}": ${(error as Error).message}.`,
        { status: 503, cause: error },
      );
    } finally {
      const left = (this.admitting.get(space) ?? 1) - 1;
      if (left === 0) this.admitting.delete(space);
      else this.admitting.set(space, left);
    }
  }

  /**
   * Waits until the space's oldest unfinished task is one of this instance's and the space's
   * advisory lock is free, takes the lock, and marks the task running. Between looks it waits
   * for a release notification or `pollIntervalMs`; transient database errors are retried.
   *
   * @throws `WEFT_COORDINATOR_ACQUIRE_TIMEOUT` (503) after `acquireTimeoutMs`;
   * `WEFT_COORDINATOR_CONNECTION_LOST` when the lock connection dropped;
   * `WEFT_COORDINATOR_NOT_STARTED` before `init()` or after `shutdown()`; the signal's reason
   * when it is aborted.
   */
  async acquire(space: string, signal: AbortSignal): Promise<SpaceGrant> {
    const deadline = Date.now() + this.options.acquireTimeoutMs;
    let lastError: unknown;
    for (;;) {
      if (signal.aborted) throw signal.reason;
      this.requireRunning('acquire');
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw coordinatorError(
          'WEFT_COORDINATOR_ACQUIRE_TIMEOUT',
          `PostgresSpaceCoordinator.acquire: the earlier tasks of space "${space}" did not end within ${this.options.acquireTimeoutMs} ms; try again later.`,
          { status: 503, expose: true, cause: lastError },
        );
      }
      let pause = this.options.pollIntervalMs;
      try {
        const head = await this.oldestUnfinished(space);
        if (head && head.owner === this.instanceKey) {
          if (this.known.has(head.ticket)) {
            if (await this.tryLock(space)) return await this.startRunning(space, head.ticket);
            pause = HANDOVER_RETRY_MS;
          } else if (this.admitting.has(space)) {
            pause = 1;
          }
          // Otherwise it is a task of this instance whose admission answer was lost; the sweep
          // hands it to the scheduler.
        }
      } catch (error) {
        if (error instanceof WeftError && error.code === 'WEFT_COORDINATOR_CONNECTION_LOST') {
          throw error;
        }
        lastError = error;
        this.options.logger.warn({ space, error: (error as Error).message }, 'acquire failed');
      }
      await this.waiters.wait(space, Math.min(pause, remaining), [signal, this.lost.signal]);
    }
  }

  /**
   * Forgets a finished task (or leaves an abandoned one for a rerun), then lets the space's
   * lock go and tells the other instances. Never rejects: when a finished task cannot be
   * recorded, this instance gives all its spaces up, so that the task runs again elsewhere
   * rather than blocking its space.
   */
  async release(space: string, ticket: number, outcome: 'finished' | 'abandoned'): Promise<void> {
    if (this.state !== 'running') return;
    try {
      if (outcome === 'finished') {
        await this.withAttempts(() =>
          this.requirePool().query(`DELETE FROM ${this.table} WHERE ticket = $1 AND owner = $2`, [
            ticket,
            this.instanceKey,
          ]),
        );
        this.known.delete(ticket);
      } else {
        await this.requirePool().query(
          `UPDATE ${this.table} SET running = false WHERE ticket = $1 AND owner = $2`,
          [ticket, this.instanceKey],
        );
      }
    } catch (error) {
      this.options.logger.error(
        { space, ticket, error: (error as Error).message },
        'could not record the end of a task; giving this instance’s spaces up',
      );
      this.loseConnection(error as Error);
      return;
    }
    if (!this.held.delete(space)) return;
    try {
      await this.lockQuery(
        'SELECT pg_advisory_unlock(hashtext($1), hashtext($2)), pg_notify($3, $2)',
        [`${this.options.schema}:space`, space, this.channel],
      );
    } catch (error) {
      this.loseConnection(error as Error);
    }
  }

  /**
   * Stops looking for dead instances' tasks and closes the connections, which lets go of every
   * lock this instance holds; its unfinished tasks pass to the other instances.
   */
  async shutdown(): Promise<void> {
    if (this.state === 'closed' || this.state === 'new') {
      this.state = 'closed';
      return;
    }
    this.state = 'closed';
    clearTimeout(this.sweepTimer);
    this.waiters.wakeAll();
    await this.sweeping;
    await this.closeConnections();
    this.options.logger.info({ instance: this.instanceKey }, 'coordinator stopped');
  }

  /** node-postgres returns bigint columns as strings; tickets stay below 2^53. */
  private async oldestUnfinished(
    space: string,
  ): Promise<{ ticket: number; owner: string } | undefined> {
    const result = await this.requirePool().query<{ ticket: string; owner: string }>(
      `SELECT ticket, owner FROM ${this.table} WHERE space = $1 ORDER BY ticket LIMIT 1`,
      [space],
    );
    const row = result.rows[0];
    return row && { ticket: Number(row.ticket), owner: row.owner };
  }

  private async tryLock(space: string): Promise<boolean> {
    let locked: boolean;
    try {
      const result = await this.lockQuery<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS locked',
        [`${this.options.schema}:space`, space],
      );
      locked = result.rows[0]?.locked === true;
    } catch (error) {
      this.loseConnection(error as Error);
      throw this.notRunning('acquire');
    }
    if (locked) this.held.add(space);
    return locked;
  }

  private async startRunning(space: string, ticket: number): Promise<SpaceGrant> {
    try {
      await this.requirePool().query(
        `UPDATE ${this.table} SET running = true, attempts = attempts + 1 WHERE ticket = $1`,
        [ticket],
      );
    } catch (error) {
      await this.release(space, ticket, 'abandoned');
      throw error;
    }
    return { ticket, signal: this.lost.signal };
  }

  /** Sweeps start a fixed interval apart, however long each took, so takeover stays bounded. */
  private scheduleSweep(delayMs: number): void {
    if (this.state !== 'running') return;
    this.sweepTimer = setTimeout(() => {
      const started = Date.now();
      this.sweeping = this.sweep().finally(() => {
        this.sweeping = undefined;
        const elapsed = Date.now() - started;
        this.scheduleSweep(Math.max(0, this.options.sweepIntervalMs - elapsed));
      });
    }, delayMs);
  }

  private async sweep(): Promise<void> {
    try {
      await this.adoptDeadInstancesTasks();
      await this.resumeStrays();
    } catch (error) {
      this.options.logger.warn({ error: (error as Error).message }, 'sweep failed; retrying');
    }
  }

  /**
   * Takes over, in one statement, every unfinished task whose owner's instance lock is gone.
   * It runs on the lock connection, ahead of a pool that may be busy, since its latency is the
   * takeover time.
   */
  private async adoptDeadInstancesTasks(): Promise<void> {
    if (this.state !== 'running') return;
    const adopted = await this.lockQuery<TaskRow>(
      `UPDATE ${this.table} AS t SET owner = $1::bigint, running = false
       WHERE t.owner IN (
         SELECT DISTINCT owner FROM ${this.table} o
         WHERE o.owner <> $1::bigint AND NOT EXISTS (
           SELECT 1 FROM pg_locks l
           WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted
             AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
             AND ((l.classid::bigint << 32) | l.objid::bigint) = o.owner))
       RETURNING t.ticket, t.arrival, t.attempts`,
      [this.instanceKey],
    );
    this.resume(adopted.rows);
  }

  /** Hands the scheduler this instance's own tasks whose admission answer was lost. */
  private async resumeStrays(): Promise<void> {
    if (this.state !== 'running') return;
    const pool = this.requirePool();
    const mine = await pool.query<{ ticket: string }>(
      `SELECT ticket FROM ${this.table} WHERE owner = $1::bigint`,
      [this.instanceKey],
    );
    const lostTrack = mine.rows.map((row) => Number(row.ticket)).filter((t) => !this.known.has(t));
    if (lostTrack.length === 0) return;
    const strays = await pool.query<TaskRow>(
      `SELECT ticket, arrival, attempts FROM ${this.table} WHERE ticket = ANY($1::bigint[])`,
      [lostTrack],
    );
    this.resume(strays.rows.filter((row) => !this.admitting.has(row.arrival.space.id)));
  }

  private resume(rows: readonly TaskRow[]): void {
    if (this.state !== 'running') return;
    const fresh = rows
      .filter((row) => !this.known.has(Number(row.ticket)))
      .sort((a, b) => Number(a.ticket) - Number(b.ticket));
    for (const row of fresh) {
      const ticket = Number(row.ticket);
      this.known.add(ticket);
      this.options.logger.info(
        {
          ticket,
          space: row.arrival.space.id,
          taskId: row.arrival.taskId,
          rerun: row.attempts > 0,
        },
        'taking over a task',
      );
      this.host?.resume(row.arrival, ticket);
      this.waiters.wake(row.arrival.space.id);
    }
  }

  private async withAttempts<T>(work: () => Promise<T>): Promise<T> {
    let failure: unknown;
    for (let attempt = 0; attempt < FINISH_ATTEMPTS; attempt += 1) {
      try {
        return await work();
      } catch (error) {
        failure = error;
        await new Promise((resolve) => setTimeout(resolve, 100 * (attempt + 1)));
      }
    }
    throw failure;
  }

  /**
   * The lock connection is gone, so PostgreSQL has let go of this instance's locks and another
   * instance may take its tasks over: abort the running ones and refuse new work.
   */
  private loseConnection(error: Error): void {
    if (this.state !== 'running') return;
    this.state = 'lost';
    clearTimeout(this.sweepTimer);
    this.held.clear();
    this.options.logger.error(
      { instance: this.instanceKey, error: error.message },
      'lost the connection holding this instance’s locks; other instances take its spaces over',
    );
    this.lost.abort(this.notRunning('run'));
    this.waiters.wakeAll();
    void this.closeConnections();
  }

  private requireRunning(method: string): void {
    if (this.state !== 'running') throw this.notRunning(method);
  }

  private notRunning(method: string): WeftError<WeftCoordinatorErrorCode> {
    if (this.state === 'lost') {
      return coordinatorError(
        'WEFT_COORDINATOR_CONNECTION_LOST',
        `PostgresSpaceCoordinator.${method}: the connection holding this instance's locks dropped, so other instances took its spaces over; restart this process.`,
        { status: 503 },
      );
    }
    return coordinatorError(
      'WEFT_COORDINATOR_NOT_STARTED',
      `PostgresSpaceCoordinator.${method}: the coordinator is not running; call init() first (the runtime does, in start()), and not after shutdown().`,
      { status: 503 },
    );
  }

  /** Runs a query on the lock connection once the queries before it have ended. */
  private lockQuery<R extends pg.QueryResultRow>(
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult<R>> {
    const client = this.lockClient;
    if (!client) return Promise.reject(this.notRunning('lock'));
    const result = this.lockQueue.then(() => client.query<R>(text, values));
    this.lockQueue = result.catch(() => undefined);
    return result;
  }

  private requirePool(): pg.Pool {
    if (!this.pool) throw this.notRunning('query');
    return this.pool;
  }

  private async closeConnections(): Promise<void> {
    const bounded = (promise: Promise<unknown> | undefined) =>
      Promise.race([
        (promise ?? Promise.resolve()).catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, this.options.connectTimeoutMs).unref()),
      ]);
    const { lockClient, pool } = this;
    this.lockClient = undefined;
    this.pool = undefined;
    await Promise.all([bounded(lockClient?.end()), bounded(pool?.end())]);
  }
}
