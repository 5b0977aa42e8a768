import { WeftError, type WeftErrorOptions } from '@weft/core';
import type { ErrorRegistry } from '@weft/core/internal';

// <error-codes> generated from the registry by: npm run generate:references
/**
 * The code of an error raised by `@weft/coordinator-postgres`. The list is closed (a new code is
 * a change to the public API) and stable across versions, so callers branch on the code rather
 * than on messages. Each code has a section of the same name in the errors reference of
 * the documentation, with what raises it, its cause and its fix; the error’s `docsUrl` links it.
 *
 * - `WEFT_COORDINATOR_INVALID_OPTIONS`: The constructor’s options are missing or invalid.
 * - `WEFT_COORDINATOR_CONNECT_FAILED`: `init` could not connect to PostgreSQL or prepare its
 *   tables.
 * - `WEFT_COORDINATOR_START_TIMEOUT`: `init` connected, but its own statements did not finish
 *   within `connectTimeoutMs`.
 * - `WEFT_COORDINATOR_SCHEMA_TOO_NEW`: The coordinator’s schema was made by a newer version of the
 *   package.
 * - `WEFT_COORDINATOR_NOT_STARTED`: A method was called before `init()` or after `shutdown()`.
 * - `WEFT_COORDINATOR_INVALID_ARRIVAL`: A task’s event has no JSON form or is nested too deep, or
 *   the task is too large, so it cannot be recorded.
 * - `WEFT_COORDINATOR_ADMIT_FAILED`: PostgreSQL did not record a task’s arrival, or did not answer
 *   in time.
 * - `WEFT_COORDINATOR_ACQUIRE_TIMEOUT`: A space’s tasks on other instances did not end within
 *   `acquireTimeoutMs`.
 * - `WEFT_COORDINATOR_CONNECTION_LOST`: The connection holding this instance’s locks dropped.
 */
export type PostgresSpaceCoordinatorErrorCode =
  | 'WEFT_COORDINATOR_INVALID_OPTIONS'
  | 'WEFT_COORDINATOR_CONNECT_FAILED'
  | 'WEFT_COORDINATOR_START_TIMEOUT'
  | 'WEFT_COORDINATOR_SCHEMA_TOO_NEW'
  | 'WEFT_COORDINATOR_NOT_STARTED'
  | 'WEFT_COORDINATOR_INVALID_ARRIVAL'
  | 'WEFT_COORDINATOR_ADMIT_FAILED'
  | 'WEFT_COORDINATOR_ACQUIRE_TIMEOUT'
  | 'WEFT_COORDINATOR_CONNECTION_LOST';
// </error-codes>

/**
 * What the errors reference says about each code of `@weft/coordinator-postgres`.
 *
 * @internal
 */
export const COORDINATOR_ERRORS = {
  packageName: '@weft/coordinator-postgres',
  codes: {
    /** @claim errors-coordinator-invalid-options */
    WEFT_COORDINATOR_INVALID_OPTIONS: {
      summary: 'The constructor’s options are missing or invalid.',
      raisedBy: '`new PostgresSpaceCoordinator`',
      raisers: ['coordinator-postgres/src/options.ts#resolveOptions'],
      cause:
        'the constructor’s options are missing or invalid: a `connectionString` that is not a `postgres://` URL, a `schema` that is not a lower-case identifier of up to 54 characters or starts with `pg_`, which PostgreSQL keeps for its system schemas, a timeout, interval or pool size that is not a positive whole number, a time that becomes a timer over 2147483647 ms (the longest delay a Node.js timer keeps; 2147482647 for `statementTimeoutMs`), a `reconnectMaxDelayMs` below `reconnectDelayMs`, a `logger` without `info`, `warn` and `error` functions, or a key that is not an option (a misspelt one). The message lists every bad option and never repeats the connection string, which may hold a password.',
      fix: 'the message names each option and what it must be.',
    },
    /**
     * @claim errors-coordinator-schema-beforehand
     * @claim errors-coordinator-connect-no-password
     */
    WEFT_COORDINATOR_CONNECT_FAILED: {
      summary: '`init` could not connect to PostgreSQL or prepare its tables.',
      raisedBy: '`PostgresSpaceCoordinator.init`, so `Runtime.start` (as `WEFT_START_FAILED`)',
      raisers: ['coordinator-postgres/src/coordinator.ts#PostgresSpaceCoordinator.init'],
      cause:
        'the server refused the connection, did not answer within `connectTimeoutMs`, rejected the login, or the user may not create the coordinator’s schema. The message names host, port and database and the driver’s reason, never the password, which is masked as `***` where PostgreSQL quotes it (a refused login names the user, whose name may be the password).',
      fix: 'check that the server runs at that address and accepts the user, and that the user may create the schema, or create it beforehand for the user (`CREATE SCHEMA weft_coordinator AUTHORIZATION agent`); then the user needs no `CREATE` privilege on the database.',
    },
    /**
     * @claim errors-coordinator-start-timeout
     * @claim errors-coordinator-start-not-statement-timeout
     */
    WEFT_COORDINATOR_START_TIMEOUT: {
      summary: '`init` connected, but its own statements did not finish within `connectTimeoutMs`.',
      raisedBy: '`PostgresSpaceCoordinator.init`, so `Runtime.start` (as `WEFT_START_FAILED`)',
      raisers: ['coordinator-postgres/src/coordinator.ts#PostgresSpaceCoordinator.init'],
      cause:
        'the statements that start the coordinator (creating its tables, waiting for the lock under which one instance at a time creates them, drawing its instance key and taking its lock) have `connectTimeoutMs` in all, counted once both connections are open, and did not finish by then: another session held a lock they wait for (an instance preparing the same schema, or a long transaction), or the server was too slow. They are not bound by `statementTimeoutMs`, which is for the tasks’ statements. The message names what the start was still waiting for.',
      fix: 'look for long transactions holding locks (`pg_stat_activity`, `pg_locks`), or raise `connectTimeoutMs`.',
    },
    WEFT_COORDINATOR_SCHEMA_TOO_NEW: {
      summary: 'The coordinator’s schema was made by a newer version of the package.',
      raisedBy: '`PostgresSpaceCoordinator.init`',
      raisers: ['coordinator-postgres/src/schema.ts#prepareSchema'],
      cause:
        'the schema’s `meta` table records a version this version of `@weft/coordinator-postgres` does not know; nothing was changed.',
      fix: 'run the same version of the package on every instance of the group.',
    },
    /** @claim errors-coordinator-not-started-before-start */
    WEFT_COORDINATOR_NOT_STARTED: {
      summary: 'A method was called before `init()` or after `shutdown()`.',
      status: 503,
      raisedBy: '`PostgresSpaceCoordinator.admit`, `acquire`, `init` (a second time)',
      raisers: [
        'coordinator-postgres/src/coordinator.ts#PostgresSpaceCoordinator.init',
        'coordinator-postgres/src/coordinator.ts#PostgresSpaceCoordinator.requireSession',
      ],
      cause:
        'the coordinator was used outside the runtime’s start and stop, or `init` was called twice. A `dispatch` or `accept` on a runtime that has not started its coordinator yet gets this, which a trigger that lets it through answers as a 503 with `Retry-After: 5`; once `stop()` was called, a dispatch gets `WEFT_SHUTTING_DOWN` instead.',
      fix: 'let the runtime start and stop the coordinator; create a new one for a new runtime.',
    },
    /**
     * @claim errors-coordinator-too-large-hidden
     * @claim errors-coordinator-invalid-arrival-one-line
     * @claim errors-coordinator-too-deep
     * @claim errors-coordinator-invalid-arrival-runtime-first
     */
    WEFT_COORDINATOR_INVALID_ARRIVAL: {
      summary:
        'A task’s event has no JSON form or is nested too deep, or the task is too large, so it cannot be recorded.',
      status: 400,
      raisedBy: '`Runtime.accept` and `Runtime.dispatch` with a coordinator',
      raisers: ['coordinator-postgres/src/coordinator.ts#PostgresSpaceCoordinator.admit'],
      cause:
        'the event’s `data` or `metadata` holds a value `JSON.stringify` cannot write, such as a `BigInt` or a circular structure, or nests objects and arrays more than 100 levels deep (the outermost counting as level 1), or the task is too large for PostgreSQL to record (a space id whose index entry passes PostgreSQL’s limit of about 2,700 bytes, which the runtime’s 200-character cap on space ids keeps out of reach). Nothing was recorded and the task did not run. HTTP triggers answer 400 with the coordinator’s message, which for data with no JSON form is one line naming the field and the path to the circular reference or `BigInt` (the `TypeError` of `JSON.stringify` is the error’s `cause`), for data nested too deep names the field and the path of the first value at level 101 (its first 200 characters, then its whole length), and for a task too large names the space id’s size in bytes and the limit of about 2,700 bytes; PostgreSQL’s own error text, which names the index, is not sent but logged by the coordinator as a warning with the space, the task id and the space id’s size, and kept as the error’s `cause`. Through `Runtime.dispatch` and `Runtime.accept`, an event with no JSON form or nested too deep does not get here: the runtime refuses it first, with `WEFT_INVALID_EVENT`, since no memory store could keep its trigger memory either; only a direct call of `admit` meets those refusals.',
      fix: 'send plain JSON values, nested at most 100 levels deep, and a shorter space id; another instance must be able to run the task from its record.',
    },
    /** @claim errors-coordinator-admit-failed-may-run */
    WEFT_COORDINATOR_ADMIT_FAILED: {
      summary: 'PostgreSQL did not record a task’s arrival, or did not answer in time.',
      status: 503,
      raisedBy: '`Runtime.accept` and `Runtime.dispatch` with a coordinator',
      raisers: ['coordinator-postgres/src/coordinator.ts#PostgresSpaceCoordinator.admit'],
      cause:
        'the insert of the task’s row failed, or its answer did not come in time (`statementTimeoutMs`, and the client’s own deadline a second later), for example while the server restarts. The task was not acknowledged, and usually nothing was recorded; but when PostgreSQL wrote the row and only its answer came too late, the row holds this instance’s key, and the instance’s next sweep runs the task all the same. HTTP triggers answer 503 with `Retry-After: 5` and without the details, which go to the log.',
      fix: 'retry the request; if it lasts, check the server’s health and connection limits. A retry may run a task twice when the first attempt was written after all: give tasks that must not run twice an id of the client’s, and skip one already done.',
    },
    /**
     * @claim errors-coordinator-acquire-timeout-runtime-deadline
     * @claim errors-coordinator-acquire-timeout-cause
     */
    WEFT_COORDINATOR_ACQUIRE_TIMEOUT: {
      summary: 'A space’s tasks on other instances did not end within `acquireTimeoutMs`.',
      status: 503,
      raisedBy: 'the scheduler, for a task waiting for its space',
      raisers: ['coordinator-postgres/src/coordinator.ts#PostgresSpaceCoordinator.acquire'],
      cause:
        'this instance waited longer than `acquireTimeoutMs` (10 minutes by default) for the space’s tasks on other instances to end, or for PostgreSQL to answer its looks at the space, which it retries until then (the error’s `cause` is then the failure of the last look; a wait that ends while PostgreSQL answers has no `cause`, even when an earlier look failed). Each such wait is timed on its own, and only while none of the space’s tasks runs on this instance: a task queued behind its own instance’s tasks is not timed. The space’s tasks waiting on this instance fail, their records are removed, and HTTP triggers answer 503 with `Retry-After: 5`.',
      fix: 'look for a task that hangs in that space (its instance’s logs); raise `acquireTimeoutMs` if tasks legitimately take that long, and keep the runtime’s `options.coordinatorAcquireTimeoutMs` (15 minutes by default) above it: otherwise the runtime stops waiting first, and the tasks fail at its deadline with [WEFT_COORDINATOR_TIMEOUT](#weft_coordinator_timeout) instead.',
    },
    /** @claim errors-coordinator-connection-lost-retry */
    WEFT_COORDINATOR_CONNECTION_LOST: {
      summary: 'The connection holding this instance’s locks dropped.',
      status: 503,
      raisedBy:
        '`Runtime.accept`, `Runtime.dispatch`, the scheduler, for a task waiting for its space, and running tasks’ signals',
      raisers: ['coordinator-postgres/src/coordinator.ts#PostgresSpaceCoordinator.connectionLost'],
      cause:
        'the coordinator’s lock connection closed (the server restarted, a network failure, or an error recording a finished task), so PostgreSQL released this instance’s locks and whichever instance sweeps first takes its unfinished tasks over; its running tasks are aborted, its waiting ones fail with this code, and it accepts no new ones until it has reconnected, which it does by itself with a growing delay (`reconnectDelayMs`, `reconnectMaxDelayMs`). Tasks it had accepted still run, on another instance or on this one once it is back.',
      fix: 'retry the request shortly (an HTTP trigger that lets the error through answers 503 with `Retry-After: 5`); nothing needs restarting. A `dispatch` refused with this code may have been accepted before the connection dropped (it was waiting for its space), and then its task still runs: give tasks that must not run twice an id of the client’s, and skip one already done. A readiness probe on `checkHealth()` keeps requests away from the instance while it reconnects; see [When PostgreSQL restarts](../guides/scaling-out.md#when-postgresql-restarts).',
    },
  },
} as const satisfies ErrorRegistry<PostgresSpaceCoordinatorErrorCode>;

/**
 * The error `@weft/coordinator-postgres` throws on purpose: a {@link WeftError} with a
 * {@link PostgresSpaceCoordinatorErrorCode}. Recognise it with `WeftError.is(error, 'WEFT_COORDINATOR_…')`.
 */
export class PostgresSpaceCoordinatorError extends WeftError<PostgresSpaceCoordinatorErrorCode> {
  /**
   * @param code - What went wrong.
   * @param message - What went wrong and how to fix it, starting with PostgresSpaceCoordinator:.
   * @param options - The underlying error, and the HTTP status and exposure when it has them.
   */
  constructor(
    code: PostgresSpaceCoordinatorErrorCode,
    message: string,
    options: WeftErrorOptions = {},
  ) {
    super(code, message, options);
    this.name = 'PostgresSpaceCoordinatorError';
  }
}

/**
 * The former name of {@link PostgresSpaceCoordinatorErrorCode}.
 *
 * @deprecated Use {@link PostgresSpaceCoordinatorErrorCode}; this alias keeps working for at least one minor release after the first release that deprecates it, as the stability policy promises, and is removed in a later one.
 */
export type WeftCoordinatorErrorCode = PostgresSpaceCoordinatorErrorCode;
