import { SqliteMemoryProviderError } from './errors.js';

/** Options of {@link SqliteMemoryProvider}. */
export interface SqliteMemoryProviderOptions {
  /**
   * The database file, created (with its schema) when missing; its directory must exist. Pass
   * `':memory:'` for a private in-memory database that disappears at shutdown.
   */
  path: string;
  /**
   * Unique id of this provider instance, used in logs and errors. Defaults to `'sqlite'`.
   * @claim tsdoc-sqlite-default-id
   */
  id?: string;
  /**
   * How long, in milliseconds, a statement waits for another connection's write lock before it
   * fails with `SQLITE_BUSY`. Defaults to 5000.
   * @claim tsdoc-sqlite-default-busy-timeout-ms
   */
  busyTimeoutMs?: number;
}

/** {@link SqliteMemoryProviderOptions} with every default filled in. */
export interface ResolvedSqliteMemoryProviderOptions {
  /** See {@link SqliteMemoryProviderOptions.path}. */
  readonly path: string;
  /** See {@link SqliteMemoryProviderOptions.id}. */
  readonly id: string;
  /** See {@link SqliteMemoryProviderOptions.busyTimeoutMs}. */
  readonly busyTimeoutMs: number;
}

/** The provider id used when the options give none. */
export const DEFAULT_ID = 'sqlite';

/** The busy timeout used when the options give none. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** The longest busy timeout: SQLite's and better-sqlite3's limit, the largest 32-bit integer. */
const MAX_BUSY_TIMEOUT_MS = 0x7fffffff;

/**
 * Every option the constructor knows, checked at compile time against
 * {@link SqliteMemoryProviderOptions}; any other name, most likely a misspelt one, is refused.
 */
const OPTION_NAMES = Object.keys({
  path: true,
  id: true,
  busyTimeoutMs: true,
} satisfies Record<keyof SqliteMemoryProviderOptions, true>);

/** The special path of SQLite's in-memory databases. */
export const IN_MEMORY_PATH = ':memory:';

/**
 * Checks the constructor options and fills in defaults.
 *
 * @param options - The caller's options.
 * @returns The resolved options.
 * @throws `WEFT_SQLITE_INVALID_OPTIONS` naming the first bad or unknown option.
 */
export function resolveOptions(
  options: SqliteMemoryProviderOptions,
): ResolvedSqliteMemoryProviderOptions {
  // A list is no options object: its indexes would be read as option names.
  const isObject = options !== null && typeof options === 'object' && !Array.isArray(options);
  // A valid id names the provider whose options are wrong, as it names it in every later error.
  const given: unknown = isObject ? (options as { id?: unknown }).id : undefined;
  const prefix =
    typeof given === 'string' && given.trim() !== ''
      ? `SqliteMemoryProvider "${given}":`
      : 'SqliteMemoryProvider:';
  if (!isObject) {
    throw new SqliteMemoryProviderError(
      'WEFT_SQLITE_INVALID_OPTIONS',
      `${prefix} options must be an object such as { path: './weft.db' }`,
    );
  }
  const unknown = Object.keys(options).find((name) => !OPTION_NAMES.includes(name));
  if (unknown !== undefined) {
    throw new SqliteMemoryProviderError(
      'WEFT_SQLITE_INVALID_OPTIONS',
      `${prefix} unknown option ${JSON.stringify(unknown)}; the options are ${OPTION_NAMES.join(', ')}`,
    );
  }
  const { path, id = DEFAULT_ID, busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS } = options;
  if (typeof path !== 'string' || path.trim() === '') {
    throw new SqliteMemoryProviderError(
      'WEFT_SQLITE_INVALID_OPTIONS',
      `${prefix} option "path" must be a non-empty string (a file path or ':memory:')`,
    );
  }
  if (path.includes('\0')) {
    throw new SqliteMemoryProviderError(
      'WEFT_SQLITE_INVALID_OPTIONS',
      `${prefix} option "path" must not contain NUL characters`,
    );
  }
  if (typeof id !== 'string' || id.trim() === '') {
    throw new SqliteMemoryProviderError(
      'WEFT_SQLITE_INVALID_OPTIONS',
      `${prefix} option "id" must be a non-empty string`,
    );
  }
  if (
    typeof busyTimeoutMs !== 'number' ||
    !Number.isSafeInteger(busyTimeoutMs) ||
    busyTimeoutMs < 0 ||
    busyTimeoutMs > MAX_BUSY_TIMEOUT_MS
  ) {
    throw new SqliteMemoryProviderError(
      'WEFT_SQLITE_INVALID_OPTIONS',
      `${prefix} option "busyTimeoutMs" must be an integer of milliseconds from 0 to ` +
        `${MAX_BUSY_TIMEOUT_MS}, got ${String(busyTimeoutMs)}`,
    );
  }
  // -0 is a whole number from 0 up, but not the 32-bit integer better-sqlite3 takes: as it is,
  // init() would fail on it. Adding 0 turns it into 0 and leaves every other number as it is.
  return { path, id, busyTimeoutMs: busyTimeoutMs + 0 };
}
