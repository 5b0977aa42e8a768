import pg from 'pg';
import {
  postgresConnectionStringProblem,
  postgresServerAddress,
  postgresUrl,
  type PostgresServerAddress,
} from '@weft/core/internal';
import { PostgresMemoryProviderError } from './errors.js';

/** How the provider's connection pool connects, and how long each wait may last. */
export interface PostgresPoolOptions {
  /**
   * Most connections the pool opens at once.
   *
   * @default 10
   * @claim tsdoc-postgres-default-max
   */
  max?: number;
  /**
   * Milliseconds one attempt waits to connect and log in, or for a free connection when all
   * `max` are busy. A connection that fails is tried again until `reconnectTimeoutMs` has
   * passed; a wait while the provider's other calls hold every connection is not, since the
   * server answers: it fails with `WEFT_POSTGRES_UNAVAILABLE` saying the pool stayed busy.
   *
   * @default 5000
   * @claim tsdoc-postgres-default-connection-timeout-ms
   */
  connectionTimeoutMs?: number;
  /**
   * Milliseconds one statement may run, waits for locks included, before the server cancels it.
   * The client gives up a second later if the server does not answer at all, so the largest value
   * is 2,147,482,647, a second short of the largest timer.
   *
   * @default 10000
   * @claim tsdoc-postgres-default-statement-timeout-ms
   */
  statementTimeoutMs?: number;
  /**
   * Milliseconds an unused connection stays open.
   *
   * @default 30000
   * @claim tsdoc-postgres-default-idle-timeout-ms
   */
  idleTimeoutMs?: number;
  /**
   * Milliseconds an operation keeps retrying while the server cannot be reached (a restart, a
   * fail-over) before it fails with `WEFT_POSTGRES_UNAVAILABLE`. 0 retries nothing.
   *
   * @default 10000
   * @claim tsdoc-postgres-default-reconnect-timeout-ms
   */
  reconnectTimeoutMs?: number;
}

/** Options of {@link PostgresMemoryProvider}. */
export interface PostgresMemoryProviderOptions {
  /**
   * Where the server is and how to log in, as a `postgres://user:password@host:port/database`
   * URL. The password never appears in errors or logs.
   */
  connectionString: string;
  /**
   * The PostgreSQL schema that holds the provider's tables (`weft_memories` and
   * `weft_memory_migrations`); created when missing.
   *
   * @default 'public'
   * @claim tsdoc-postgres-default-schema
   */
  schema?: string;
  /** Connection pool size and timeouts. */
  pool?: PostgresPoolOptions;
  /**
   * Unique id of this provider instance, used in logs and errors.
   *
   * @default 'postgres'
   * @claim tsdoc-postgres-default-id
   */
  id?: string;
}

/** {@link PostgresMemoryProviderOptions} checked, with every default filled in. */
export interface ResolvedPostgresMemoryProviderOptions {
  readonly connectionString: string;
  readonly schema: string;
  readonly id: string;
  readonly pool: Required<PostgresPoolOptions>;
  /**
   * The password as written in the URL and decoded, or its `password` parameter, to scrub from
   * any message; empty when the URL has none (pg then sends `PGPASSWORD`, which `scrub` masks).
   */
  readonly secrets: readonly string[];
}

/** The defaults of {@link PostgresPoolOptions}. */
export const DEFAULT_POOL: Readonly<Required<PostgresPoolOptions>> = {
  max: 10,
  connectionTimeoutMs: 5000,
  statementTimeoutMs: 10_000,
  idleTimeoutMs: 30_000,
  reconnectTimeoutMs: 10_000,
};

/** The provider id used when the options give none. */
export const DEFAULT_ID = 'postgres';

/** The schema used when the options give none. */
export const DEFAULT_SCHEMA = 'public';

/**
 * Every top-level option the constructor knows, checked at compile time against
 * {@link PostgresMemoryProviderOptions}; any other name, most likely a misspelt one, is refused.
 */
const OPTION_NAMES = Object.keys({
  connectionString: true,
  schema: true,
  pool: true,
  id: true,
} satisfies Record<keyof PostgresMemoryProviderOptions, true>);

// Unquoted PostgreSQL identifiers: letters, digits and underscores, at most 63 bytes.
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

// setTimeout's largest delay (longer ones fire at once), and PostgreSQL's largest timeout.
const MAX_TIMER_MS = 0x7fffffff;

/**
 * How long the client waits past the statement timeout for a server that does not answer; the
 * pool's read deadline and `idle_in_transaction_session_timeout` are the statement timeout plus
 * this, so the statement timeout stops this much short of {@link MAX_TIMER_MS}.
 */
export const CLIENT_GRACE_MS = 1000;

/** Throws `WEFT_POSTGRES_INVALID_OPTIONS` with a message that starts with the provider's name. */
type Invalid = (message: string) => never;

/**
 * How an options error names the provider: by its id when the options give a valid one, as every
 * later error does, so the message tells which of several providers is misconfigured.
 */
function invalidFor(options: unknown): Invalid {
  const given: unknown =
    options !== null && typeof options === 'object' && !Array.isArray(options)
      ? (options as { id?: unknown }).id
      : undefined;
  const prefix =
    typeof given === 'string' && given.trim() !== ''
      ? `PostgresMemoryProvider "${given}":`
      : 'PostgresMemoryProvider:';
  return (message: string): never => {
    throw new PostgresMemoryProviderError('WEFT_POSTGRES_INVALID_OPTIONS', `${prefix} ${message}`);
  };
}

function milliseconds(
  invalid: Invalid,
  name: string,
  value: unknown,
  minimum: number,
  maximum = MAX_TIMER_MS,
): number {
  if (
    typeof value !== 'number' ||
    !Number.isSafeInteger(value) ||
    value < minimum ||
    value > maximum
  ) {
    invalid(
      `option "pool.${name}" must be an integer of milliseconds from ${minimum} to ${maximum}, ` +
        `got ${String(value)}`,
    );
  }
  return value;
}

function resolvePool(invalid: Invalid, pool: unknown): Required<PostgresPoolOptions> {
  if (pool === undefined) return { ...DEFAULT_POOL };
  if (pool === null || typeof pool !== 'object' || Array.isArray(pool)) {
    invalid('option "pool" must be an object such as { max: 10, statementTimeoutMs: 10000 }');
  }
  const known = new Set(Object.keys(DEFAULT_POOL));
  const unknown = Object.keys(pool).filter((key) => !known.has(key));
  if (unknown.length > 0) {
    invalid(
      `option "pool" has unknown keys ${unknown.join(', ')}; known: ${[...known].join(', ')}`,
    );
  }
  // A key written but left undefined takes its default, as the top-level options do.
  const given: Record<string, unknown> = { ...DEFAULT_POOL };
  for (const [key, value] of Object.entries(pool)) if (value !== undefined) given[key] = value;
  const { max } = given;
  if (typeof max !== 'number' || !Number.isSafeInteger(max) || max < 1) {
    invalid(`option "pool.max" must be a positive integer, got ${String(max)}`);
  }
  return {
    max,
    connectionTimeoutMs: milliseconds(invalid, 'connectionTimeoutMs', given.connectionTimeoutMs, 1),
    statementTimeoutMs: milliseconds(
      invalid,
      'statementTimeoutMs',
      given.statementTimeoutMs,
      1,
      MAX_TIMER_MS - CLIENT_GRACE_MS,
    ),
    idleTimeoutMs: milliseconds(invalid, 'idleTimeoutMs', given.idleTimeoutMs, 1),
    reconnectTimeoutMs: milliseconds(invalid, 'reconnectTimeoutMs', given.reconnectTimeoutMs, 0),
  };
}

/**
 * Checks that the connection string is a URL this provider reads, and returns the password in
 * every form a message may quote it, to scrub. Only URLs are accepted, so there is one syntax to
 * check.
 */
function parseConnectionString(invalid: Invalid, connectionString: string): { secrets: string[] } {
  let url: URL;
  try {
    ({ url } = postgresUrl(connectionString));
  } catch {
    // The string itself is not repeated: it may hold a password.
    invalid(
      'option "connectionString" is not a URL; write it as ' +
        'postgres://user:password@host:5432/database',
    );
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    invalid(
      `option "connectionString" must start with postgres:// or postgresql://, got ${url.protocol}//`,
    );
  }
  // A string pg reads otherwise than the URL parser ("postgres:weft", white space around it)
  // would connect elsewhere than messages say.
  const problem = postgresConnectionStringProblem(connectionString);
  if (problem !== undefined) invalid(`option "connectionString" ${problem}`);
  const secrets = new Set<string>();
  if (url.password !== '') {
    secrets.add(url.password);
    const decoded = percentDecoded(url.password);
    if (decoded !== undefined) secrets.add(decoded);
  }
  const password = url.searchParams.get('password');
  if (password) secrets.add(password);
  return { secrets: [...secrets] };
}

/** `text` percent-decoded, or `undefined` when it is not valid percent-encoding. */
function percentDecoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * Where node-postgres connects, for messages: from the connection string, libpq's variables and
 * pg's defaults, read as pg reads them when it opens a connection. Never the password.
 *
 * @param connectionString - A connection string that {@link resolveOptions} accepted.
 * @param env - The environment pg reads.
 * @returns The address.
 */
export function serverAddress(
  connectionString: string,
  env: NodeJS.ProcessEnv = process.env,
): PostgresServerAddress {
  return postgresServerAddress(connectionString, pg.defaults, env);
}

/**
 * Where node-postgres connects, as messages name it: `host:port (database "name")`.
 *
 * @param connectionString - A connection string that {@link resolveOptions} accepted.
 * @returns The description, read from the environment as pg reads it at each connection.
 */
export function describeServer(connectionString: string): string {
  const { host, port, database } = serverAddress(connectionString);
  return `${host}:${port} (database "${database}")`;
}

/**
 * Checks the constructor options and fills in defaults.
 *
 * @param options - The caller's options.
 * @returns The resolved options.
 * @throws `WEFT_POSTGRES_INVALID_OPTIONS` naming the first bad or unknown option.
 */
export function resolveOptions(
  options: PostgresMemoryProviderOptions,
): ResolvedPostgresMemoryProviderOptions {
  const invalid: Invalid = invalidFor(options);
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    invalid(
      'options must be an object such as ' +
        "{ connectionString: 'postgres://weft:secret@localhost:5432/weft' }",
    );
  }
  const unknown = Object.keys(options).find((name) => !OPTION_NAMES.includes(name));
  if (unknown !== undefined) {
    invalid(
      `unknown option ${JSON.stringify(unknown)}; the options are ${OPTION_NAMES.join(', ')}`,
    );
  }
  const { connectionString, schema = DEFAULT_SCHEMA, id = DEFAULT_ID, pool } = options;
  if (typeof connectionString !== 'string' || connectionString.trim() === '') {
    invalid(
      'option "connectionString" must be a non-empty string such as ' +
        'postgres://user:password@host:5432/database',
    );
  }
  // PostgreSQL refuses to create a schema whose name starts with pg_ (case-sensitively).
  if (typeof schema !== 'string' || !SCHEMA_NAME.test(schema) || schema.startsWith('pg_')) {
    invalid(
      `option "schema" must be 1 to 63 letters, digits or underscores, not starting with a ` +
        `digit or with pg_ (which PostgreSQL keeps for system schemas), ` +
        `got ${JSON.stringify(schema) ?? String(schema)}`,
    );
  }
  if (typeof id !== 'string' || id.trim() === '') {
    invalid('option "id" must be a non-empty string');
  }
  const { secrets } = parseConnectionString(invalid, connectionString);
  return { connectionString, schema, id, pool: resolvePool(invalid, pool), secrets };
}

/**
 * Replaces every occurrence of the connection's password in a message by `***`. A connection
 * string without a password (no `secrets`) leaves pg to send `PGPASSWORD`, which is masked
 * then, as the environment holds it at the time of the message: PostgreSQL names the user in a
 * refused login, which quotes a password equal to the user name.
 *
 * @param text - A message that may quote the connection string or a driver error.
 * @param secrets - The password in every form the connection string gives it.
 * @param env - The environment pg reads.
 * @returns The message without them.
 */
export function scrub(
  text: string,
  secrets: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): string {
  const masked = secrets.length > 0 ? secrets : env.PGPASSWORD ? [env.PGPASSWORD] : [];
  let clean = text;
  for (const secret of masked) clean = clean.split(secret).join('***');
  return clean;
}
