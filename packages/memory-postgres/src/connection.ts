import pg from 'pg';
import { PostgresMemoryProviderError } from './errors.js';
import {
  CLIENT_GRACE_MS,
  describeServer,
  scrub,
  type ResolvedPostgresMemoryProviderOptions,
} from './options.js';

/** First and longest pause between attempts while the server cannot be reached. */
const FIRST_RETRY_DELAY_MS = 50;
const MAX_RETRY_DELAY_MS = 1000;

/** SQLSTATE classes and codes that mean "the server went away", not "the statement is wrong". */
const CONNECTION_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
/**
 * Network errors that mean the server cannot be reached for now. `ENOTFOUND` is one: the server's
 * host name may stop resolving while the server restarts (a container's name in Docker's or
 * Kubernetes' DNS does), and `init()`, which connects once, has already refused a name that
 * never resolved.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** What pg-pool says when a caller waited `connectionTimeoutMillis` for a free connection. */
const POOL_WAIT_TIMEOUT = 'timeout exceeded when trying to connect';

// node-postgres reports these without a code.
const CONNECTION_MESSAGES = [
  'Connection terminated',
  POOL_WAIT_TIMEOUT,
  'Client has encountered a connection error',
  'Connection ended',
];

/** Whether an error means the connection or server is gone, so another attempt may succeed. */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (CONNECTION_STATES.has(code) || code.startsWith('08') || NETWORK_CODES.has(code))
      return true;
  }
  return CONNECTION_MESSAGES.some((text) => error.message.includes(text));
}

/** Whether an error is pg-pool giving up waiting for a free connection of a full pool. */
function isPoolWaitTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === POOL_WAIT_TIMEOUT;
}

/**
 * Whether an error is a statement cut short by the server's or the client's timeout.
 *
 * The server reports its timeout and a cancel asked for by another session (`pg_cancel_backend`)
 * with the same code, 57014, in the language of its `lc_messages`, so the English text alone
 * would miss the timeout on a server set to another language: a cancel that came once the
 * statements had run for the whole statement timeout is taken for it too.
 *
 * @param error - What the statements failed with.
 * @param ranMs - How long the statements had run when they failed.
 * @param statementTimeoutMs - The connection's statement timeout.
 */
export function isTimeoutError(error: unknown, ranMs = 0, statementTimeoutMs = Infinity): boolean {
  if (!(error instanceof Error)) return false;
  if (isCancelled(error)) {
    return /statement timeout/.test(error.message) || ranMs >= statementTimeoutMs;
  }
  return clientGaveUp(error);
}

/** Whether the server cancelled the statement (57014), for its timeout or at another's request. */
export function isCancelled(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === '57014';
}

/**
 * Whether the client stopped waiting for an answer that never came. Unlike the server's cancel,
 * this does not undo the statement: the server may have run it and lost only its answer.
 */
export function clientGaveUp(error: unknown): boolean {
  return error instanceof Error && error.message === 'Query read timeout';
}

/**
 * Creates the pool: every wait has a deadline (connecting and waiting for a free connection,
 * each statement on the server, and each answer on the client), and TCP keep-alive notices a
 * server that vanished without closing its sockets.
 */
export function createPool(options: ResolvedPostgresMemoryProviderOptions): pg.Pool {
  const { pool } = options;
  const created = new pg.Pool({
    connectionString: options.connectionString,
    max: pool.max,
    connectionTimeoutMillis: pool.connectionTimeoutMs,
    idleTimeoutMillis: pool.idleTimeoutMs,
    statement_timeout: pool.statementTimeoutMs,
    query_timeout: pool.statementTimeoutMs + CLIENT_GRACE_MS,
    // A client that dies inside a transaction must not hold its locks for long.
    idle_in_transaction_session_timeout: pool.statementTimeoutMs + CLIENT_GRACE_MS,
    application_name: `weft-memory-postgres/${options.id}`.slice(0, 63),
    keepAlive: true,
  });
  // An idle connection that the server closes (a restart) is dropped by the pool, which also
  // emits it here; without a listener Node would treat it as an unhandled error and exit. The
  // next operation opens a new connection.
  created.on('error', () => undefined);
  return created;
}

/** What an operation may do again after the connection broke while it was running. */
export type Retry = 'idempotent' | 'once';

/**
 * Runs operations on a pool: it retries them while the server cannot be reached, up to the
 * reconnect window, turns timeouts and outages into clear errors, and destroys a connection
 * that failed instead of handing it out again.
 */
export class ConnectionRunner {
  private closed = false;
  /** How many connections operations of this runner hold at the moment. */
  private inUse = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: ResolvedPostgresMemoryProviderOptions,
    private readonly label: string,
  ) {}

  /** Stops retries in flight; their operations fail at their next attempt. */
  close(): void {
    this.closed = true;
  }

  /**
   * Runs `work` on a connection of the pool.
   *
   * @param operation - Names the call in errors, such as `store() of a "note" memory`.
   * @param retry - `idempotent` when running `work` twice leaves the same result as once, so it
   * may be retried after the connection broke mid-statement; `once` when a second run could
   * report something else (`remove`, `clear`): it is retried only when it never reached the
   * server.
   * @param work - The statements.
   * @returns What `work` returns.
   */
  async run<T>(
    operation: string,
    retry: Retry,
    work: (client: pg.PoolClient) => Promise<T>,
  ): Promise<T> {
    const { reconnectTimeoutMs, statementTimeoutMs, max } = this.options.pool;
    const deadline = Date.now() + reconnectTimeoutMs;
    let delay = FIRST_RETRY_DELAY_MS;
    for (let attempt = 1; ; attempt += 1) {
      if (this.closed) throw this.shutDown(operation, 'the server');
      let client: pg.PoolClient;
      try {
        client = await this.pool.connect();
      } catch (error) {
        // shutdown() ran while this call waited: the pool it waited on is closing.
        if (this.closed) throw this.shutDown(operation, 'a free connection');
        if (!isConnectionError(error)) throw this.clean(error);
        // Every connection is held by another operation of this provider: the server answers,
        // so waiting again would only stretch connectionTimeoutMs into reconnectTimeoutMs.
        if (isPoolWaitTimeout(error) && this.inUse >= max) throw this.busy(operation, error);
        if (!(await pauseBeforeRetry(deadline, delay))) {
          throw this.unavailable(operation, attempt, error);
        }
        delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
        continue;
      }
      this.inUse += 1;
      const stopListening = listenForBreaks(client);
      const started = Date.now();
      try {
        const result = await work(client);
        stopListening();
        client.release();
        this.inUse -= 1;
        return result;
      } catch (error) {
        const timedOut = isTimeoutError(error, Date.now() - started, statementTimeoutMs);
        const broken = isConnectionError(error) || timedOut;
        // A connection whose statement timed out on the client may still be busy: destroy it.
        if (broken) client.release(error as Error);
        else {
          stopListening();
          client.release();
        }
        this.inUse -= 1;
        if (timedOut) {
          throw new PostgresMemoryProviderError(
            'WEFT_POSTGRES_STATEMENT_TIMEOUT',
            clientGaveUp(error)
              ? `${this.label}: ${operation} got no answer within ${statementTimeoutMs + CLIENT_GRACE_MS} ms ` +
                  `(the statement timeout and ${CLIENT_GRACE_MS} ms more) and was given up; the ` +
                  `server may still have run it, so query to find out whether it took effect, and ` +
                  `check the server and the network`
              : `${this.label}: ${operation} ran past the statement timeout of ${statementTimeoutMs} ms ` +
                  `and was cancelled; look for long-held locks on the table, or raise ` +
                  `pool.statementTimeoutMs`,
            { cause: error },
          );
        }
        if (!isConnectionError(error)) throw error;
        if (retry === 'once') throw this.unavailable(operation, attempt, error, true);
        if (!(await pauseBeforeRetry(deadline, delay))) {
          throw this.unavailable(operation, attempt, error);
        }
        delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
      }
    }
  }

  /**
   * Runs `SELECT 1` on a connection of the pool, once, counting the connection as held by this
   * runner meanwhile: a call that finds the pool full of health checks and operations is then
   * told the pool stayed busy, not that the server is away.
   *
   * @returns `true` when the server answers; `false` otherwise. Never throws.
   */
  async ping(): Promise<boolean> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch {
      return false;
    }
    this.inUse += 1;
    const stopListening = listenForBreaks(client);
    try {
      const result = await client.query<{ ok: number }>('SELECT 1 AS ok');
      stopListening();
      client.release();
      return result.rows[0]?.ok === 1;
    } catch (error) {
      // A connection that failed or timed out may still be busy: destroy it.
      client.release(error instanceof Error ? error : true);
      return false;
    } finally {
      this.inUse -= 1;
    }
  }

  /** Where the server is, for messages, the password masked should a name there equal it. */
  get where(): string {
    return scrub(describeServer(this.options.connectionString), this.options.secrets);
  }

  /** The error of an operation that was waiting when shutdown() closed the pool. */
  private shutDown(operation: string, waitedFor: 'the server' | 'a free connection'): Error {
    return new PostgresMemoryProviderError(
      'WEFT_POSTGRES_NOT_OPEN',
      `${this.label} was shut down while ${operation} waited for ${waitedFor}; finish ` +
        `operations before calling shutdown(), or call init() to open it again`,
    );
  }

  /** The error of an operation that found every connection of the pool busy for too long. */
  private busy(operation: string, error: unknown): Error {
    const { max, connectionTimeoutMs } = this.options.pool;
    return new PostgresMemoryProviderError(
      'WEFT_POSTGRES_UNAVAILABLE',
      `${this.label}: ${operation} waited ${connectionTimeoutMs} ms (pool.connectionTimeoutMs) for ` +
        `a free connection, but all ${max} connections of the pool (pool.max) stayed busy with ` +
        `other operations; look for slow statements, long-held locks or a server that stopped ` +
        `answering, or raise pool.max or pool.connectionTimeoutMs`,
      { cause: this.safeCause(error) },
    );
  }

  private unavailable(
    operation: string,
    attempts: number,
    error: unknown,
    outcomeUnknown = false,
  ): Error {
    const reason = scrub(
      error instanceof Error ? error.message : String(error),
      this.options.secrets,
    );
    const { reconnectTimeoutMs } = this.options.pool;
    const what = outcomeUnknown
      ? `the connection to PostgreSQL at ${this.where} broke while ${operation} was running, ` +
        `so whether it took effect is unknown (${reason}); query to find out`
      : `${operation} could not reach PostgreSQL at ${this.where} in ${attempts} attempt(s) ` +
        `over ${reconnectTimeoutMs} ms (${reason}); check that the server ` +
        `runs, or raise pool.reconnectTimeoutMs to wait longer for a restart`;
    return new PostgresMemoryProviderError('WEFT_POSTGRES_UNAVAILABLE', `${this.label}: ${what}`, {
      cause: this.safeCause(error),
    });
  }

  /**
   * An error from the driver, passed on, unless its message would reveal the password: then a
   * copy with the password masked, which keeps PostgreSQL's SQLSTATE `code` (a password equal to
   * the user name appears in `password authentication failed for user "..."`).
   */
  private clean(error: unknown): unknown {
    return maskedError(error, this.options.secrets);
  }

  /** The cause to attach: the driver's error, unless its message holds the password. */
  safeCause(error: unknown): unknown {
    return this.clean(error);
  }
}

/**
 * An error from the driver or the server as it is, unless its message quotes the password: then
 * a copy with the password masked, which keeps PostgreSQL's SQLSTATE `code`.
 *
 * @param error - What a statement or a connection failed with.
 * @param secrets - The password in every form the connection string gives it.
 * @returns The error, or its masked copy.
 */
export function maskedError(error: unknown, secrets: readonly string[]): unknown {
  if (!(error instanceof Error)) return error;
  const message = scrub(error.message, secrets);
  if (message === error.message) return error;
  const copy = new Error(message);
  const { code } = error as { code?: unknown };
  if (typeof code === 'string') Object.assign(copy, { code });
  return copy;
}

/**
 * A checked-out connection that the server closes emits an `error` event besides failing its
 * statement, and the pool listens only to idle ones: without a listener Node would exit. The
 * statement in flight reports the failure. Returns the function that stops listening, for a
 * connection going back to the pool in good health.
 *
 * @param client - A connection just taken from the pool.
 */
export function listenForBreaks(client: pg.PoolClient): () => void {
  const ignore = (): void => undefined;
  client.on('error', ignore);
  return () => client.removeListener('error', ignore);
}

/**
 * Waits before the next attempt: the back-off pause, shortened to what is left of the reconnect
 * window, so that the last attempt starts as the window ends rather than up to a whole pause
 * before it (a server back late in the window is still found).
 *
 * @param deadline - When the reconnect window ends (epoch milliseconds).
 * @param delay - The back-off pause due.
 * @returns `false` when the window has ended and no attempt may start; `true` after the pause.
 */
async function pauseBeforeRetry(deadline: number, delay: number): Promise<boolean> {
  const left = deadline - Date.now();
  if (left <= 0) return false;
  await sleep(Math.min(delay, left));
  return true;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
