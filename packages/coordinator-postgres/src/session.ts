import pg from 'pg';
import { maskedMessage, type ResolvedCoordinatorOptions } from './options.js';
import { prepareSchema } from './schema.js';
import { StartDeadline, StartTimeout } from './start-deadline.js';

/**
 * One connection of the coordinator to PostgreSQL, from connecting to losing it: a pool, the
 * lock connection, and the instance key that connection holds. Everything PostgreSQL keeps for
 * a session (the instance lock, the space locks, LISTEN) lives and dies with the lock
 * connection, so a coordinator that reconnects opens a new session, under a new key.
 */
export interface Session {
  /** The instance key whose advisory lock the lock connection holds. */
  readonly key: string;
  readonly pool: pg.Pool;
  readonly lockClient: pg.Client;
  /** Aborted when this session's lock connection is lost; the grants of its tasks carry it. */
  readonly lost: AbortController;
  /** Tickets handed to the scheduler in this session (admitted here or resumed), with their space. */
  readonly known: Map<number, string>;
  /**
   * Spaces whose advisory lock this session holds, each with the ticket it was taken for: only
   * that ticket's release lets it go, not that of a task given back before it ever ran.
   */
  readonly held: Map<string, number>;
  /** The lock connection's queries, one after another: a client runs one query at a time. */
  lockQueue: Promise<unknown>;
}

/** What a session tells its coordinator. */
export interface SessionEvents {
  /** The lock connection failed or ended. */
  onLost(session: Session, error: Error): void;
  /** A release notification arrived. */
  onNotification(payload: string): void;
}

/**
 * Connects, creates the tables when missing, draws a new instance key, takes its lock and
 * listens for releases. On failure it closes what it opened and rethrows.
 */
export async function openSession(
  options: ResolvedCoordinatorOptions,
  channel: string,
  events: SessionEvents,
): Promise<Session> {
  const { connectionString, connectTimeoutMs, statementTimeoutMs, poolSize, schema } = options;
  const config = {
    connectionString,
    connectionTimeoutMillis: connectTimeoutMs,
    statement_timeout: statementTimeoutMs,
    // The client's own deadline, for a server that stops answering altogether.
    query_timeout: statementTimeoutMs + 1_000,
    keepAlive: true,
    application_name: 'weft-coordinator',
    // The server probes each connection, so that a host that vanished without closing its
    // connections loses its locks within about 25 s rather than hours. Probes stop while the
    // server has unacknowledged data for the host, which every release notification of another
    // instance is; `tcp_user_timeout` ends the connection 25 s into that silence too, rather
    // than after the kernel's retransmissions give up (about 15 minutes, past
    // `acquireTimeoutMs`). The pool's connections get the same, so that those of a session lost
    // to a network cut do not hold the server's connection slots for the two hours of its
    // default keepalive while the instance opens new ones.
    options: [
      '-c tcp_keepalives_idle=10',
      '-c tcp_keepalives_interval=5',
      '-c tcp_keepalives_count=3',
      '-c tcp_user_timeout=25000',
    ].join(' '),
  };
  const pool = new pg.Pool({ ...config, max: poolSize });
  pool.on('error', (error) =>
    options.logger.warn(
      { error: maskedMessage(error, options.connectionString) },
      'idle PostgreSQL connection failed',
    ),
  );
  const lockClient = new pg.Client(config);
  const partial = {
    pool,
    lockClient,
    lost: new AbortController(),
    known: new Map<number, string>(),
    held: new Map<string, number>(),
    lockQueue: Promise.resolve() as Promise<unknown>,
  };
  let session: Session | undefined;
  lockClient.on('error', (error) => {
    if (session) events.onLost(session, error);
  });
  lockClient.on('end', () => {
    if (session) events.onLost(session, new Error('the connection ended'));
  });
  lockClient.on('notification', (message) => {
    if (message.payload !== undefined) events.onNotification(message.payload);
  });
  let deadline: StartDeadline | undefined;
  try {
    // Both connections first, each within connectTimeoutMs; then the start's statements, which
    // have connectTimeoutMs together, whatever statementTimeoutMs says.
    const client = await pool.connect();
    let prepared = false;
    try {
      await lockClient.connect();
      deadline = new StartDeadline(connectTimeoutMs);
      await prepareSchema(client, schema, deadline);
      prepared = true;
    } finally {
      // A connection whose statement failed, or is still running, is not given back.
      client.release(!prepared);
    }
    // The instance lock is database-wide, while the sequence is the schema's: each schema's
    // keys start at 1. The upper 32 bits, from the schema's name, keep two groups in one
    // database (separate schemas) from waiting on each other's instance locks. In a
    // transaction only for the deadline: the session-level lock and LISTEN outlast it.
    deadline.step = 'opening the transaction that takes the instance lock';
    await deadline.begin(lockClient);
    deadline.step = 'drawing an instance key';
    const drawn = await deadline.query<{ key: string }>(
      lockClient,
      `SELECT (((hashtext($2) & 2147483647)::bigint << 32) | nextval($1::regclass))::text AS key`,
      [`"${schema}".instance_keys`, schema],
    );
    const key = drawn.rows[0]?.key as string;
    deadline.step = 'taking the instance lock';
    await deadline.query(lockClient, 'SELECT pg_advisory_lock($1::bigint)', [key]);
    deadline.step = 'listening for release notifications';
    await deadline.query(lockClient, `LISTEN "${channel}"`);
    await deadline.query(lockClient, 'COMMIT');
    session = { ...partial, key };
    return session;
  } catch (error) {
    await closeConnections(lockClient, pool, connectTimeoutMs);
    if (deadline?.passed(error) && !(error instanceof StartTimeout)) {
      throw new StartTimeout(deadline, error);
    }
    throw error;
  }
}

/** Runs a query on the session's lock connection once the queries before it have ended. */
export function lockQuery<R extends pg.QueryResultRow>(
  session: Session,
  text: string,
  values: unknown[],
): Promise<pg.QueryResult<R>> {
  const result = session.lockQueue.then(() => session.lockClient.query<R>(text, values));
  session.lockQueue = result.catch(() => undefined);
  return result;
}

/** Closes a session's connections, which lets go of every lock it holds; bounded in time. */
export function closeSession(session: Session, timeoutMs: number): Promise<void> {
  return closeConnections(session.lockClient, session.pool, timeoutMs);
}

async function closeConnections(
  lockClient: pg.Client,
  pool: pg.Pool,
  timeoutMs: number,
): Promise<void> {
  const bounded = (promise: Promise<unknown>) =>
    Promise.race([
      promise.catch(() => undefined),
      new Promise((resolve) => setTimeout(resolve, timeoutMs).unref()),
    ]);
  await Promise.all([bounded(lockClient.end()), bounded(pool.end())]);
}

/**
 * How long to wait before reconnection attempt `attempt` (0 for the first): the delay doubles
 * from `reconnectDelayMs` up to `reconnectMaxDelayMs`, and each wait is drawn between half and
 * all of it, so instances that lost the server together do not all come back at once.
 */
export function reconnectDelay(
  attempt: number,
  options: Pick<ResolvedCoordinatorOptions, 'reconnectDelayMs' | 'reconnectMaxDelayMs'>,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(
    options.reconnectMaxDelayMs,
    options.reconnectDelayMs * 2 ** Math.min(attempt, 30),
  );
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
