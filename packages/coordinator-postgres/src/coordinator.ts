import pg from 'pg';
import {
  WeftError,
  type SpaceCoordinator,
  type SpaceCoordinatorHost,
  type SpaceGrant,
  type TaskArrival,
} from '@weft/core';
import { arrivalJson } from './arrival-json.js';
import { PostgresSpaceCoordinatorError } from './errors.js';
import {
  describeTarget,
  maskedCause,
  maskedMessage,
  resolveOptions,
  type PostgresSpaceCoordinatorOptions,
  type ResolvedCoordinatorOptions,
} from './options.js';
import { Orphans } from './orphans.js';
import { Reconnector } from './reconnector.js';
import {
  closeSession,
  lockQuery,
  openSession,
  type Session,
  type SessionEvents,
} from './session.js';
import { releaseKey, SpaceWaiters } from './space-waiters.js';
import { StartTimeout } from './start-deadline.js';
import {
  adoptDeadInstancesTasks,
  deleteFinishedOrphans,
  unknownOwnTasks,
  type TaskRow,
} from './takeover.js';

/** How long a space's previous holder may take to let go before the next one looks again. */
const HANDOVER_RETRY_MS = 10;
/**
 * How often recording a finished task is tried before this instance gives its spaces up. Exported
 * for the test that adds up how long a release may take.
 */
export const FINISH_ATTEMPTS = 3;
/** The pause after a failed try is this many milliseconds times the try's number (1, 2, 3). */
export const FINISH_PAUSE_STEP_MS = 100;
/** PostgreSQL's `program_limit_exceeded`: a value too large for a row or an index entry. */
const TOO_LARGE = '54000';
/** PostgreSQL's limit on a B-tree index entry, as the client is told (2,704 bytes with 8 kB pages). */
const INDEX_ENTRY_LIMIT_TEXT = 'about 2,700 bytes';

/**
 * A {@link SpaceCoordinator} on PostgreSQL: several runtimes, in separate processes or on
 * separate hosts, share one database and keep each space's tasks in order across them.
 *
 * - A task's arrival is a row in `<schema>.tasks`, inserted before `Runtime.accept` (or the
 *   trigger) answers; its ticket, from a sequence, is its place in its space.
 * - A space's oldest unfinished task runs first, on the instance that owns its row, and only
 *   while that instance holds the space's session-level advisory lock.
 * - Each instance holds an advisory lock of its own on one dedicated connection. When the
 *   process dies, PostgreSQL ends that session and drops the lock; about `sweepIntervalMs`
 *   later (plus the sweep's own time) a surviving instance takes the dead one's unfinished
 *   tasks over and runs them in order.
 * - When that connection is lost (the server restarted, the network failed), the instance
 *   gives its spaces up as a dead one would, refuses work meanwhile, and reconnects by itself
 *   with a capped, jittered backoff, under a new instance key.
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
 * @claim tsdoc-coordinator-reconnects
 */
export class PostgresSpaceCoordinator implements SpaceCoordinator {
  readonly id = 'postgres-coordinator';
  private readonly options: ResolvedCoordinatorOptions;
  private readonly table: string;
  private readonly channel: string;
  private host: SpaceCoordinatorHost | undefined;
  private instanceKey: string | undefined;
  private state: 'new' | 'starting' | 'running' | 'reconnecting' | 'closed' = 'new';
  /** The live connection; none while reconnecting. */
  private session: Session | undefined;
  /** Tickets of lost sessions that the scheduler has not given back yet. */
  private readonly orphans = new Orphans();
  /**
   * Tickets of lost sessions given back finished, with the instance key their rows name: the
   * next sweep deletes those rows, unless another instance has taken them over meanwhile.
   */
  private readonly finishedOrphans = new Map<number, string>();
  /** Admissions in flight per space: a row may exist before its ticket is known. */
  private readonly admitting = new Map<string, number>();
  private readonly waiters = new SpaceWaiters();
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  /** Reconnects after the session was lost; one per loss. */
  private reconnector: Reconnector | undefined;
  private readonly events: SessionEvents = {
    onLost: (session, error) => this.loseSession(session, error),
    onNotification: (payload) => this.waiters.wakeNotified(payload),
  };

  /**
   * @param options - The connection string, and optionally the schema, pool size, timeouts and
   * reconnection delays.
   * @throws `WEFT_COORDINATOR_INVALID_OPTIONS` naming each bad option.
   */
  constructor(options: PostgresSpaceCoordinatorOptions) {
    this.options = resolveOptions(options);
    this.table = `"${this.options.schema}".tasks`;
    this.channel = `${this.options.schema}_released`;
  }

  /**
   * This instance's key in the shared tables, once started; a new one after each reconnection.
   * For logs and tests.
   */
  get instance(): string | undefined {
    return this.instanceKey;
  }

  /**
   * `true` while the coordinator is connected and holds its instance lock; `false` while it
   * reconnects, for a readiness probe.
   * @claim tsdoc-coordinator-health-reconnecting
   */
  async checkHealth(): Promise<boolean> {
    return this.state === 'running';
  }

  /**
   * Connects, creates the tables when missing, takes this instance's lock, and starts looking
   * for the tasks of instances that died.
   *
   * Each connection may take `connectTimeoutMs`; the statements of the start (creating the
   * tables, waiting while another instance creates them, taking the instance lock) have
   * `connectTimeoutMs` together, not `statementTimeoutMs`, which bounds the tasks' statements.
   *
   * @throws `WEFT_COORDINATOR_CONNECT_FAILED` naming host and port,
   * `WEFT_COORDINATOR_START_TIMEOUT` naming what the start was still waiting for, or
   * `WEFT_COORDINATOR_SCHEMA_TOO_NEW`; `WEFT_COORDINATOR_NOT_STARTED` when this coordinator
   * was started before (make a new one).
   * @claim tsdoc-coordinator-start-deadline
   * @claim tsdoc-coordinator-init-twice
   */
  async init(host: SpaceCoordinatorHost): Promise<void> {
    if (this.state !== 'new') {
      throw new PostgresSpaceCoordinatorError(
        'WEFT_COORDINATOR_NOT_STARTED',
        'PostgresSpaceCoordinator.init: this coordinator was started before; create a new one.',
      );
    }
    this.state = 'starting';
    this.host = host;
    try {
      this.begin(await openSession(this.options, this.channel, this.events));
    } catch (error) {
      this.state = 'closed';
      if (error instanceof WeftError) throw error;
      if (error instanceof StartTimeout) {
        throw new PostgresSpaceCoordinatorError(
          'WEFT_COORDINATOR_START_TIMEOUT',
          `PostgresSpaceCoordinator.init: connected to PostgreSQL at ${describeTarget(this.options.connectionString)}, but its start did not finish within connectTimeoutMs (${error.limitMs} ms): it was still ${error.step}. Look for long transactions holding locks (pg_stat_activity, pg_locks), or raise connectTimeoutMs.`,
          { cause: maskedCause(error.cause, this.options.connectionString) },
        );
      }
      throw new PostgresSpaceCoordinatorError(
        'WEFT_COORDINATOR_CONNECT_FAILED',
        `PostgresSpaceCoordinator.init: could not connect to PostgreSQL at ${describeTarget(this.options.connectionString)}: ${maskedMessage(error, this.options.connectionString)}. Check that the server runs and the connection string is right.`,
        { cause: maskedCause(error, this.options.connectionString) },
      );
    }
    this.options.logger.info({ instance: this.instanceKey }, 'coordinator started');
  }

  /**
   * Records a task's arrival. Arrivals of one space are recorded one at a time (under a
   * transaction-level advisory lock), so tickets of a space become visible in ticket order.
   *
   * @throws `WEFT_COORDINATOR_INVALID_ARRIVAL` (400) when the event has no JSON form, nests its
   * `data` or `metadata` deeper than 100 levels of objects and arrays, or is too large for
   * PostgreSQL to record; `WEFT_COORDINATOR_ADMIT_FAILED` (503) when recording it
   * failed or its answer did not come in time (then the row may have been written after all, and
   * the task runs); `WEFT_COORDINATOR_NOT_STARTED` before `init()` or after
   * `shutdown()`, and `WEFT_COORDINATOR_CONNECTION_LOST` (503) while it reconnects.
   * @claim tsdoc-coordinator-not-started
   * @claim tsdoc-coordinator-too-large
   * @claim tsdoc-coordinator-admit-failed
   */
  async admit(arrival: TaskArrival): Promise<number> {
    const session = this.requireSession('admit');
    const written = arrivalJson(arrival);
    if (!('json' in written)) {
      throw new PostgresSpaceCoordinatorError(
        'WEFT_COORDINATOR_INVALID_ARRIVAL',
        `PostgresSpaceCoordinator.admit: the event of space "${bounded(arrival.space.id)}" cannot be recorded, since ${written.problem}; ${written.fix}.`,
        { status: 400, ...(written.cause === undefined ? {} : { cause: written.cause }) },
      );
    }
    const { json } = written;
    const space = arrival.space.id;
    this.admitting.set(space, (this.admitting.get(space) ?? 0) + 1);
    try {
      const result = await session.pool.query<{ ticket: string }>(
        `WITH turn AS (SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2)))
         INSERT INTO ${this.table} (space, owner, arrival)
         SELECT $2, $3::bigint, $4::json FROM turn RETURNING ticket`,
        [`${this.options.schema}:admit`, space, session.key, json],
      );
      const ticket = Number(result.rows[0]?.ticket);
      // Recorded under a session lost meanwhile, the task is left for a takeover like the rest.
      if (session === this.session) session.known.set(ticket, space);
      else this.orphans.add(ticket, space);
      return ticket;
    } catch (error) {
      if ((error as { code?: string }).code === TOO_LARGE) {
        // A 400's message reaches the HTTP client, so it is in the coordinator's words only:
        // PostgreSQL's text names the index and its internals. That text goes to the log here,
        // with the task id, and stays the error's cause for the caller.
        this.options.logger.warn(
          {
            space: bounded(space),
            taskId: arrival.taskId,
            spaceBytes: Buffer.byteLength(space),
            error: maskedMessage(error, this.options.connectionString),
          },
          'task too large for PostgreSQL to record; refused',
        );
        throw new PostgresSpaceCoordinatorError(
          'WEFT_COORDINATOR_INVALID_ARRIVAL',
          `PostgresSpaceCoordinator.admit: a task of space "${bounded(space)}" is too large for PostgreSQL to record: its space id (${Buffer.byteLength(space)} bytes) must fit an index entry of at most ${INDEX_ENTRY_LIMIT_TEXT} after compression. Use a shorter space id and smaller data.`,
          { status: 400, cause: error },
        );
      }
      throw new PostgresSpaceCoordinatorError(
        'WEFT_COORDINATOR_ADMIT_FAILED',
        `PostgresSpaceCoordinator.admit: PostgreSQL did not confirm that it recorded a task of space "${bounded(space)}", which may still run: ${maskedMessage(error, this.options.connectionString)}.`,
        { status: 503, cause: maskedCause(error, this.options.connectionString) },
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
   * `WEFT_COORDINATOR_CONNECTION_LOST` while it reconnects; `WEFT_COORDINATOR_NOT_STARTED`
   * before `init()` or after `shutdown()`; the signal's reason when it is aborted. A task of the
   * space accepted before the connection was lost, still queued here, is granted with a signal
   * already aborted, so that it ends cut short and its row passes to a takeover.
   * @claim tsdoc-coordinator-acquire-timeout
   * @claim tsdoc-coordinator-orphan-grant
   */
  async acquire(space: string, signal: AbortSignal): Promise<SpaceGrant> {
    const deadline = Date.now() + this.options.acquireTimeoutMs;
    let lastError: unknown;
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const session = this.requireSession('acquire');
      // A task of the space accepted before the connection was lost is still queued here. Its
      // row passes to whichever instance takes it over, so it is handed back cut short, as the
      // loss cut the running ones, rather than holding the space's newer tasks behind it.
      const orphan = this.orphans.oldestIn(space);
      if (orphan !== undefined) {
        return { ticket: orphan, signal: AbortSignal.abort(this.connectionLost('run')) };
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new PostgresSpaceCoordinatorError(
          'WEFT_COORDINATOR_ACQUIRE_TIMEOUT',
          `PostgresSpaceCoordinator.acquire: the earlier tasks of space "${bounded(space)}" did not end within ${this.options.acquireTimeoutMs} ms; try again later.`,
          { status: 503, expose: true, cause: lastError },
        );
      }
      let pause = this.options.pollIntervalMs;
      try {
        const head = await this.oldestUnfinished(session, space);
        // PostgreSQL answered: a failure of an earlier look is no reason for a timeout now, so
        // it must not become the cause of one that other instances' tasks bring.
        lastError = undefined;
        if (head && head.owner === session.key) {
          if (session.known.has(head.ticket)) {
            if (session.held.has(space)) {
              // Held already by this instance: its grant is still out, or its release still
              // runs. That release's notification, or pollIntervalMs, brings the next look.
            } else if (await this.tryLock(session, space, head.ticket)) {
              return await this.startRunning(session, space, head.ticket);
            } else {
              pause = HANDOVER_RETRY_MS;
            }
          } else if (this.admitting.has(space)) {
            pause = 1;
          }
          // Otherwise it is a task of this instance whose admission answer was lost; the sweep
          // hands it to the scheduler.
        }
      } catch (error) {
        if (WeftError.is(error, 'WEFT_COORDINATOR_CONNECTION_LOST')) throw error;
        lastError = maskedCause(error, this.options.connectionString);
        this.options.logger.warn(
          { space: bounded(space), error: maskedMessage(error, this.options.connectionString) },
          'acquire failed',
        );
      }
      // The look may have taken a statement deadline: wait no longer than what is left now.
      const left = Math.max(0, deadline - Date.now());
      await this.waiters.wait(space, Math.min(pause, left), [signal, session.lost.signal]);
    }
  }

  /**
   * Forgets a finished task (or leaves an abandoned one for a rerun), then lets the space's
   * lock go and tells the other instances. Never rejects: when a finished task cannot be
   * recorded, this instance gives all its spaces up and reconnects, so that the task runs again
   * rather than blocking its space. A task of a lost session is left as it is, for a takeover,
   * except one that was running and finished: this instance deletes its row once it has
   * reconnected, at its next sweep, unless another instance has taken it over (and runs it
   * again) before that.
   */
  async release(space: string, ticket: number, outcome: 'finished' | 'abandoned'): Promise<void> {
    const ranBy = this.orphans.ranBy(ticket);
    if (this.orphans.forget(ticket)) {
      if (outcome === 'finished' && ranBy !== undefined) this.finishedOrphans.set(ticket, ranBy);
      return;
    }
    const session = this.session;
    if (this.state !== 'running' || !session) return;
    try {
      await this.releaseIn(session, space, ticket, outcome);
    } finally {
      // The session was lost during the release, which made the ticket an orphan; this was
      // the scheduler's one release of it.
      if (session !== this.session) this.orphans.forget(ticket);
    }
  }

  /**
   * Stops reconnecting and looking for dead instances' tasks, and closes the connections, which
   * lets go of every lock this instance holds; its unfinished tasks pass to the other instances.
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
    await this.reconnector?.stop();
    const session = this.session;
    this.session = undefined;
    if (session) await closeSession(session, this.options.connectTimeoutMs);
    this.options.logger.info({ instance: this.instanceKey }, 'coordinator stopped');
  }

  /** Makes a freshly opened session the live one and starts sweeping with it. */
  private begin(session: Session): void {
    this.session = session;
    this.instanceKey = session.key;
    this.state = 'running';
    this.scheduleSweep(session, 0);
  }

  private async releaseIn(
    session: Session,
    space: string,
    ticket: number,
    outcome: 'finished' | 'abandoned',
  ): Promise<void> {
    try {
      if (outcome === 'finished') {
        await this.withAttempts(session, () =>
          session.pool.query(`DELETE FROM ${this.table} WHERE ticket = $1 AND owner = $2`, [
            ticket,
            session.key,
          ]),
        );
        session.known.delete(ticket);
      } else {
        await session.pool.query(
          `UPDATE ${this.table} SET running = false WHERE ticket = $1 AND owner = $2`,
          [ticket, session.key],
        );
      }
    } catch (error) {
      // A session lost meanwhile has given its spaces up already; its tasks pass on as they are.
      if (session !== this.session) return;
      this.options.logger.error(
        {
          space: bounded(space),
          ticket,
          error: maskedMessage(error, this.options.connectionString),
        },
        'could not record the end of a task; giving this instance’s spaces up',
      );
      this.loseSession(session, error as Error);
      return;
    }
    if (session.held.get(space) !== ticket) return;
    session.held.delete(space);
    try {
      // The notification names the space by a bounded key: a long id must not fail the unlock.
      await lockQuery(
        session,
        'SELECT pg_advisory_unlock(hashtext($1), hashtext($2)), pg_notify($3, $4)',
        [`${this.options.schema}:space`, space, this.channel, releaseKey(space)],
      );
    } catch (error) {
      this.loseSession(session, error as Error);
    }
  }

  /** node-postgres returns bigint columns as strings; tickets stay below 2^53. */
  private async oldestUnfinished(
    session: Session,
    space: string,
  ): Promise<{ ticket: number; owner: string } | undefined> {
    const result = await session.pool.query<{ ticket: string; owner: string }>(
      `SELECT ticket, owner FROM ${this.table} WHERE space = $1 ORDER BY ticket LIMIT 1`,
      [space],
    );
    const row = result.rows[0];
    return row && { ticket: Number(row.ticket), owner: row.owner };
  }

  private async tryLock(session: Session, space: string, ticket: number): Promise<boolean> {
    let locked: boolean;
    try {
      const result = await lockQuery<{ locked: boolean }>(
        session,
        'SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS locked',
        [`${this.options.schema}:space`, space],
      );
      locked = result.rows[0]?.locked === true;
      // The lock is the session's: PostgreSQL grants it again to a second acquire of the space
      // on this instance (one the runtime stopped waiting for, still looking) and counts it
      // twice, while a release lets it go once. Only one of them may hold the space.
      if (locked && session.held.has(space)) {
        await lockQuery(session, 'SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', [
          `${this.options.schema}:space`,
          space,
        ]);
        return false;
      }
    } catch (error) {
      this.loseSession(session, error as Error);
      throw this.connectionLost('acquire');
    }
    if (locked) session.held.set(space, ticket);
    return locked;
  }

  private async startRunning(session: Session, space: string, ticket: number): Promise<SpaceGrant> {
    try {
      await session.pool.query(
        `UPDATE ${this.table} SET running = true, attempts = attempts + 1 WHERE ticket = $1`,
        [ticket],
      );
    } catch (error) {
      await this.release(space, ticket, 'abandoned');
      throw error;
    }
    return { ticket, signal: session.lost.signal };
  }

  /**
   * Sweeps start a fixed interval apart, however long each took, so takeover stays bounded.
   * Each session sweeps with its own connections and stops when it is lost.
   */
  private scheduleSweep(session: Session, delayMs: number): void {
    if (this.state !== 'running' || session !== this.session) return;
    this.sweepTimer = setTimeout(() => {
      const started = Date.now();
      this.sweeping = this.sweep(session).finally(() => {
        this.sweeping = undefined;
        const elapsed = Date.now() - started;
        this.scheduleSweep(session, Math.max(0, this.options.sweepIntervalMs - elapsed));
      });
    }, delayMs);
  }

  private async sweep(session: Session): Promise<void> {
    try {
      await this.takeOver(session);
    } catch (error) {
      if (session !== this.session) return;
      this.options.logger.warn(
        { error: maskedMessage(error, this.options.connectionString) },
        'sweep failed; retrying',
      );
    }
  }

  /**
   * Takes over the tasks of dead instances, and of this instance's lost sessions once the
   * scheduler has given them back; then hands the scheduler this session's own tasks whose
   * admission answer was lost.
   */
  private async takeOver(session: Session): Promise<void> {
    if (session !== this.session) return;
    const finished = [...this.finishedOrphans];
    if (finished.length > 0) {
      await this.sweepQuery(session, () => deleteFinishedOrphans(session, this.table, finished));
      for (const [ticket] of finished) this.finishedOrphans.delete(ticket);
    }
    const adopted = await this.sweepQuery(session, () =>
      adoptDeadInstancesTasks(session, this.table, [
        ...this.orphans.tickets(),
        ...this.finishedOrphans.keys(),
      ]),
    );
    this.resume(session, adopted);
    if (session !== this.session) return;
    const strays = await this.sweepQuery(session, () => unknownOwnTasks(session, this.table));
    this.resume(
      session,
      strays.filter((row) => !this.admitting.has(row.arrival.space.id)),
    );
  }

  /**
   * Runs a sweep's query, which goes over the lock connection. A failure that is not the
   * server's answer (no SQLSTATE: the client's read deadline, a broken socket) means that
   * connection is gone. A network cut leaves it open on this side, and these queries, run every
   * sweep, are what notice. The server lets go of the locks once its keepalives give up, so the
   * instance gives its spaces up first, or another instance would run them at the same time.
   */
  private async sweepQuery<T>(session: Session, query: () => Promise<T>): Promise<T> {
    try {
      return await query();
    } catch (error) {
      if (!(error instanceof pg.DatabaseError)) this.loseSession(session, error as Error);
      throw error;
    }
  }

  private resume(session: Session, rows: readonly TaskRow[]): void {
    if (this.state !== 'running' || session !== this.session) return;
    const fresh = rows
      .filter((row) => !session.known.has(Number(row.ticket)))
      .sort((a, b) => Number(a.ticket) - Number(b.ticket));
    for (const row of fresh) {
      const ticket = Number(row.ticket);
      session.known.set(ticket, row.arrival.space.id);
      this.options.logger.info(
        {
          ticket,
          space: bounded(row.arrival.space.id),
          taskId: row.arrival.taskId,
          rerun: row.attempts > 0,
        },
        'taking over a task',
      );
      this.host?.resume(row.arrival, ticket);
      this.waiters.wake(row.arrival.space.id);
    }
  }

  /** Tries `work` a few times while the session lives; its connections end when it is lost. */
  private async withAttempts<T>(session: Session, work: () => Promise<T>): Promise<T> {
    let failure: unknown;
    for (let attempt = 0; attempt < FINISH_ATTEMPTS; attempt += 1) {
      try {
        return await work();
      } catch (error) {
        failure = error;
        if (session !== this.session) break;
        await new Promise((resolve) => setTimeout(resolve, FINISH_PAUSE_STEP_MS * (attempt + 1)));
      }
    }
    throw failure;
  }

  /**
   * The session's lock connection is gone, so PostgreSQL has let go of its locks and another
   * instance may take its tasks over: abort the running ones, refuse new work, leave the
   * session's tasks to whoever sweeps first, and reconnect.
   */
  private loseSession(session: Session, error: Error): void {
    if (this.state !== 'running' || session !== this.session) return;
    this.state = 'reconnecting';
    this.session = undefined;
    clearTimeout(this.sweepTimer);
    const running = new Set(session.held.values());
    for (const [ticket, space] of session.known) {
      this.orphans.add(ticket, space, running.has(ticket) ? session.key : undefined);
    }
    this.options.logger.error(
      { instance: session.key, error: maskedMessage(error, this.options.connectionString) },
      'lost the connection holding this instance’s locks; its spaces pass to other instances while it reconnects',
    );
    session.lost.abort(this.connectionLost('run'));
    this.waiters.wakeAll();
    void closeSession(session, this.options.connectTimeoutMs);
    this.reconnector = new Reconnector(this.options, {
      open: () => openSession(this.options, this.channel, this.events),
      pending: () => this.orphans.size,
      adopt: (next, attempts) => this.reconnected(next, attempts),
    });
    this.reconnector.start();
  }

  private reconnected(session: Session, attempts: number): boolean {
    if (this.state !== 'reconnecting') return false;
    const previous = this.instanceKey;
    this.begin(session);
    this.options.logger.info(
      { instance: session.key, previous, attempts },
      'coordinator reconnected',
    );
    return true;
  }

  private requireSession(method: string): Session {
    if (this.state === 'running' && this.session) return this.session;
    if (this.state === 'reconnecting') throw this.connectionLost(method);
    throw new PostgresSpaceCoordinatorError(
      'WEFT_COORDINATOR_NOT_STARTED',
      `PostgresSpaceCoordinator.${method}: the coordinator is not running; call init() first (the runtime does, in start()), and not after shutdown().`,
      { status: 503 },
    );
  }

  private connectionLost(method: string): PostgresSpaceCoordinatorError {
    return new PostgresSpaceCoordinatorError(
      'WEFT_COORDINATOR_CONNECTION_LOST',
      `PostgresSpaceCoordinator.${method}: the connection holding this instance's locks was lost, so the tasks it had accepted pass to whichever instance takes them over; it reconnects by itself, try again shortly.`,
      { status: 503 },
    );
  }
}

/** A space id as messages and logs show it: long ids are cut, so a log line stays bounded. */
function bounded(space: string): string {
  return space.length <= 200 ? space : `${space.slice(0, 200)}… (${space.length} characters)`;
}
