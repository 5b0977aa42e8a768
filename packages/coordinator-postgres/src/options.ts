import pg from 'pg';
import {
  MAX_TIMER_MS,
  postgresConnectionStringProblem,
  postgresServerAddress,
  postgresUrl,
  TIMER_LIMIT_RULE,
  type PostgresServerAddress,
} from '@weft/core/internal';
import { PostgresSpaceCoordinatorError } from './errors.js';

/** Where the coordinator writes what goes wrong; a pino logger fits. */
export interface CoordinatorLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** Options of {@link PostgresSpaceCoordinator}. */
export interface PostgresSpaceCoordinatorOptions {
  /** `postgres://user:password@host:port/database`; every instance of a group uses the same. */
  connectionString: string;
  /**
   * The schema holding the coordinator's tables; groups of runtimes that must not wait for each
   * other use different schemas. A lower-case identifier of up to 54 characters, not starting
   * with `pg_` (PostgreSQL's prefix for its system schemas): the channel its instances notify
   * each other on is the schema's name and `_released`, which PostgreSQL holds to 63.
   * Default `weft_coordinator`.
   * @claim tsdoc-coordinator-default-schema
   */
  schema?: string;
  /**
   * Connections for recording and reading tasks, besides the one that holds locks. Default 8.
   * @claim tsdoc-coordinator-default-pool-size
   */
  poolSize?: number;
  /**
   * Longest wait for a new connection, in milliseconds. At start, also the time the start's own
   * statements (the tables, the instance lock) have together, once its connections are open.
   * Default 5000.
   * @claim tsdoc-coordinator-default-connect-timeout-ms
   * @claim tsdoc-coordinator-connect-timeout-start
   */
  connectTimeoutMs?: number;
  /**
   * Longest one statement of the tasks may run, in milliseconds (PostgreSQL's
   * `statement_timeout`); the start's statements have `connectTimeoutMs` instead. Default 5000.
   * @claim tsdoc-coordinator-default-statement-timeout-ms
   * @claim tsdoc-coordinator-statement-timeout-tasks
   */
  statementTimeoutMs?: number;
  /**
   * Longest this instance waits for a space (for the space's tasks on other instances to end, or
   * for PostgreSQL to answer its looks at the space), in milliseconds; past it the space's tasks waiting here fail with
   * `WEFT_COORDINATOR_ACQUIRE_TIMEOUT`. The wait starts anew each time one of the space's tasks
   * ends here, so tasks queued behind this instance's own are not timed. Default 600000.
   * @claim tsdoc-coordinator-default-acquire-timeout-ms
   */
  acquireTimeoutMs?: number;
  /**
   * How often a waiting space is looked at again when no notification came, in milliseconds.
   * Instances notify each other when they let a space go, so this is a safety net. Default 1000.
   * @claim tsdoc-coordinator-default-poll-interval-ms
   */
  pollIntervalMs?: number;
  /**
   * How often the coordinator looks for tasks of instances that died, in milliseconds; it takes
   * them over within about this time of PostgreSQL ending the dead instance's session. Default 1000.
   * @claim tsdoc-coordinator-default-sweep-interval-ms
   */
  sweepIntervalMs?: number;
  /**
   * First wait before reconnecting after the lock connection was lost, in milliseconds. Each
   * failed attempt doubles it, up to `reconnectMaxDelayMs`, and every wait is drawn between half
   * and all of its value, so instances that lost the server together do not return at once.
   * Default 500.
   * @claim tsdoc-coordinator-default-reconnect-delay-ms
   */
  reconnectDelayMs?: number;
  /**
   * Longest wait between two reconnection attempts, in milliseconds. Default 30000.
   * @claim tsdoc-coordinator-default-reconnect-max-delay-ms
   */
  reconnectMaxDelayMs?: number;
  /** Where problems are logged. Default: warnings and errors as JSON lines on stderr. */
  logger?: CoordinatorLogger;
}

/** The options with every default applied. */
export type ResolvedCoordinatorOptions = Required<
  Omit<PostgresSpaceCoordinatorOptions, 'logger'>
> & {
  logger: CoordinatorLogger;
};

/**
 * A lower-case identifier of up to 54 characters: the release channel, `<schema>_released`, must
 * fit PostgreSQL's 63-byte names, or every release's notification fails and drops the session.
 */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,53}$/;

/** Every option the constructor knows; any other key is most likely a misspelt one. */
const OPTION_NAMES: ReadonlySet<string> = new Set<keyof PostgresSpaceCoordinatorOptions>([
  'connectionString',
  'schema',
  'poolSize',
  'connectTimeoutMs',
  'statementTimeoutMs',
  'acquireTimeoutMs',
  'pollIntervalMs',
  'sweepIntervalMs',
  'reconnectDelayMs',
  'reconnectMaxDelayMs',
  'logger',
]);

/**
 * One line as pino writes it (its level numbers: 40 warn, 50 error, and `time` in milliseconds),
 * so a log pipeline that filters the runtime's lines by level also catches the coordinator's.
 */
function writeStderrLine(level: 40 | 50, details: object, message: string): void {
  process.stderr.write(
    `${JSON.stringify({ level, time: Date.now(), ...details, msg: message })}\n`,
  );
}

const stderrLogger: CoordinatorLogger = {
  info: () => undefined,
  warn: (details, message) => writeStderrLine(40, details, message),
  error: (details, message) => writeStderrLine(50, details, message),
};

/**
 * Checks the options and applies defaults; one error lists every problem.
 *
 * @throws `WEFT_COORDINATOR_INVALID_OPTIONS` naming each bad option.
 */
export function resolveOptions(
  options: PostgresSpaceCoordinatorOptions,
): ResolvedCoordinatorOptions {
  const problems: string[] = [];
  if (typeof options !== 'object' || options === null) {
    throw new PostgresSpaceCoordinatorError(
      'WEFT_COORDINATOR_INVALID_OPTIONS',
      'PostgresSpaceCoordinator: options must be an object with a connectionString.',
    );
  }
  // A string pg reads otherwise than the URL parser ("postgres:weft", white space around it)
  // would make messages name a server or database pg never tried.
  const connectionProblem =
    typeof options.connectionString === 'string'
      ? postgresConnectionStringProblem(options.connectionString)
      : 'must be a postgres:// URL';
  if (connectionProblem !== undefined) {
    problems.push(`connectionString ${connectionProblem}`);
  } else if (!parses(options.connectionString)) {
    // Not quoted: the string may hold a password.
    problems.push(
      'connectionString must be a postgres:// URL, and this one cannot be read as a URL (a bracket, a port over 65535 or a character a URL may not hold?)',
    );
  }
  for (const name of Object.keys(options)) {
    if (!OPTION_NAMES.has(name)) {
      problems.push(`${JSON.stringify(name)} is not an option (a misspelt one?)`);
    }
  }
  const logger: unknown = options.logger;
  if (
    logger !== undefined &&
    (typeof logger !== 'object' ||
      logger === null ||
      (['info', 'warn', 'error'] as const).some(
        (level) => typeof (logger as Record<string, unknown>)[level] !== 'function',
      ))
  ) {
    problems.push(
      'logger must be an object with info, warn and error functions, such as a pino logger',
    );
  }
  const schema = options.schema ?? 'weft_coordinator';
  if (typeof schema !== 'string' || !SCHEMA_NAME.test(schema)) {
    problems.push(
      `schema must be a lower-case identifier of up to 54 letters, digits or '_' (its release channel, the name and '_released', must fit PostgreSQL's 63 characters), got ${JSON.stringify(schema)}`,
    );
  } else if (schema.startsWith('pg_')) {
    problems.push(
      `schema must not start with 'pg_', which PostgreSQL keeps for its system schemas, got ${JSON.stringify(schema)}`,
    );
  }
  const positive = (name: keyof PostgresSpaceCoordinatorOptions, fallback: number): number => {
    const value = options[name] ?? fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
      problems.push(`${name} must be a positive integer, got ${JSON.stringify(value)}`);
    }
    return value as number;
  };
  // A timer's delay: Node.js runs a longer one after 1 ms. `acquireTimeoutMs` is not one (it is
  // a deadline, waited for in `pollIntervalMs` steps).
  const timer = (
    name: keyof PostgresSpaceCoordinatorOptions,
    fallback: number,
    limit = MAX_TIMER_MS,
    rule = TIMER_LIMIT_RULE,
  ): number => {
    const value = positive(name, fallback);
    if (value > limit) problems.push(`${name} must be ${rule}, got ${value}`);
    return value;
  };
  const resolved = {
    connectionString: options.connectionString,
    schema,
    poolSize: positive('poolSize', 8),
    connectTimeoutMs: timer('connectTimeoutMs', 5_000),
    // The client's own deadline for a statement is a second longer, and a timer too.
    statementTimeoutMs: timer(
      'statementTimeoutMs',
      5_000,
      MAX_TIMER_MS - 1_000,
      `at most ${MAX_TIMER_MS - 1_000} ms: the client's own deadline, a second longer, is a timer, and ${MAX_TIMER_MS} ms is the longest delay a Node.js timer keeps`,
    ),
    acquireTimeoutMs: positive('acquireTimeoutMs', 600_000),
    pollIntervalMs: timer('pollIntervalMs', 1_000),
    sweepIntervalMs: timer('sweepIntervalMs', 1_000),
    reconnectDelayMs: timer('reconnectDelayMs', 500),
    reconnectMaxDelayMs: timer('reconnectMaxDelayMs', 30_000),
    logger: options.logger ?? stderrLogger,
  };
  if (resolved.reconnectMaxDelayMs < resolved.reconnectDelayMs) {
    problems.push(
      `reconnectMaxDelayMs (${resolved.reconnectMaxDelayMs}) must not be below reconnectDelayMs (${resolved.reconnectDelayMs})`,
    );
  }
  if (problems.length > 0) {
    throw new PostgresSpaceCoordinatorError(
      'WEFT_COORDINATOR_INVALID_OPTIONS',
      `PostgresSpaceCoordinator: invalid options: ${problems.join('; ')}.`,
    );
  }
  return resolved;
}

/** Whether node-postgres can read the connection string, as `postgresUrl` does. */
function parses(connectionString: string): boolean {
  try {
    postgresUrl(connectionString);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where node-postgres connects, from the connection string, libpq's variables and pg's defaults.
 *
 * @param connectionString - The `connectionString` option.
 * @param env - The environment pg reads.
 * @returns The address; throws when the string is no URL at all.
 */
export function serverAddress(
  connectionString: string,
  env: NodeJS.ProcessEnv = process.env,
): PostgresServerAddress {
  return postgresServerAddress(connectionString, pg.defaults, env);
}

/**
 * Where the coordinator connects, for messages: `host:port/database` as node-postgres finds
 * them (see {@link serverAddress}), read at the time of the message. Never the password.
 */
export function describeTarget(connectionString: string): string {
  let address: PostgresServerAddress;
  try {
    address = serverAddress(connectionString);
  } catch {
    return '(unparsable connection string)';
  }
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  return `${host}:${address.port}/${address.database || '(default database)'}`;
}

/**
 * The password node-postgres sends, in every form a driver's message may quote it: the one the
 * connection string holds (as written and percent-decoded) or its `password` parameter, else
 * `PGPASSWORD`, read at the time of the message. PostgreSQL names the user in a refused login
 * (`password authentication failed for user "..."`), which quotes a password equal to the user
 * name.
 *
 * @param connectionString - The `connectionString` option.
 * @param env - The environment pg reads.
 * @returns The forms to mask; none when there is no password.
 */
export function passwordForms(
  connectionString: string,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  let url: URL;
  try {
    ({ url } = postgresUrl(connectionString));
  } catch {
    return [];
  }
  const forms = new Set<string>();
  if (url.password !== '') {
    forms.add(url.password);
    try {
      forms.add(decodeURIComponent(url.password));
    } catch {
      // Not valid percent-encoding: pg sends it as written, which is already in the set.
    }
  }
  const parameter = url.searchParams.get('password');
  if (parameter) forms.add(parameter);
  if (forms.size === 0 && env.PGPASSWORD) forms.add(env.PGPASSWORD);
  forms.delete('');
  return [...forms];
}

/**
 * A driver's message as the coordinator's errors and log lines quote it: with the password,
 * in every form of {@link passwordForms}, replaced by `***`.
 *
 * @param error - What the driver threw.
 * @param connectionString - The `connectionString` option.
 * @returns The message, never holding the password.
 */
export function maskedMessage(error: unknown, connectionString: string): string {
  let text = error instanceof Error ? error.message : String(error);
  for (const form of passwordForms(connectionString)) text = text.split(form).join('***');
  return text;
}

/**
 * The driver's error as the `cause` of a coordinator's error: itself, unless its message quotes
 * the password; then a copy with the password masked, keeping PostgreSQL's SQLSTATE `code`.
 *
 * @param error - What the driver threw.
 * @param connectionString - The `connectionString` option.
 * @returns An error that does not hold the password in its message.
 */
export function maskedCause(error: unknown, connectionString: string): unknown {
  if (!(error instanceof Error)) return error;
  const message = maskedMessage(error, connectionString);
  if (message === error.message) return error;
  const copy = new Error(message);
  const { code } = error as { code?: unknown };
  if (typeof code === 'string') Object.assign(copy, { code });
  return copy;
}
