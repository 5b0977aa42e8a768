import type pg from 'pg';

/** How long the client waits past the server's own deadline before it gives a statement up. */
const CLIENT_GRACE_MS = 1_000;

/**
 * The one deadline of a session's start statements: preparing the tables (waiting for another
 * instance's migration lock first), drawing the instance key, taking its lock and listening.
 * They run under it rather than under `statementTimeoutMs`, which is for the tasks' statements:
 * a `statementTimeoutMs` of a few hundred milliseconds must not fail a start under load or
 * while another instance creates the tables.
 */
export class StartDeadline {
  /** What the start is doing, for the message when the deadline passes. */
  step = 'running its first statement';
  private readonly at: number;

  constructor(readonly limitMs: number) {
    this.at = Date.now() + limitMs;
  }

  /**
   * Opens a transaction on `client` whose statements PostgreSQL cancels at the deadline
   * (`SET LOCAL` ends with the transaction, so the session's `statementTimeoutMs` is back after).
   */
  begin(client: pg.ClientBase): Promise<unknown> {
    const left = this.remaining();
    // A statement_timeout of 0 would mean none at all.
    if (left <= 0) return Promise.reject(new StartTimeout(this));
    // A whole number of milliseconds, reckoned here: no value from outside.
    return this.query(client, `BEGIN; SET LOCAL statement_timeout = ${left}`);
  }

  /**
   * Runs a statement of the start; the client gives it up a second past the deadline, for a
   * server that does not answer at all.
   */
  query<R extends pg.QueryResultRow>(
    client: pg.ClientBase,
    text: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>> {
    const left = this.remaining();
    if (left <= 0) return Promise.reject(new StartTimeout(this));
    // node-postgres reads a query's own `query_timeout`, which its types leave out.
    const config: pg.QueryConfig & { query_timeout: number } = {
      text,
      values,
      query_timeout: left + CLIENT_GRACE_MS,
    };
    return client.query<R>(config);
  }

  /** Whether `error` is this deadline passing: PostgreSQL's cancel, or the client's own. */
  passed(error: unknown): boolean {
    if (error instanceof StartTimeout) return true;
    const { code, message } = error as { code?: unknown; message?: unknown };
    return (
      (code === '57014' && typeof message === 'string' && message.includes('statement timeout')) ||
      message === 'Query read timeout'
    );
  }

  private remaining(): number {
    return Math.max(0, this.at - Date.now());
  }
}

/**
 * A session's start ran past its deadline; `step` names what it was waiting for. Internal: the
 * coordinator turns it into `WEFT_COORDINATOR_START_TIMEOUT`, and a reconnection logs it.
 */
export class StartTimeout extends Error {
  readonly step: string;
  readonly limitMs: number;

  constructor(deadline: StartDeadline, cause?: unknown) {
    super(
      `the start's statements did not finish within connectTimeoutMs (${deadline.limitMs} ms): it was still ${deadline.step}`,
      { cause },
    );
    this.name = 'StartTimeout';
    this.step = deadline.step;
    this.limitMs = deadline.limitMs;
  }
}
