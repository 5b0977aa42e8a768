import type { QueryMemoryOptions } from '@weft/core';
import { sqliteError } from './errors.js';

/** How many memories a query returns when it gives no `limit`. */
export const DEFAULT_QUERY_LIMIT = 100;

/** The escape character of every LIKE pattern this module builds. */
const LIKE_ESCAPE = '\\';

/** A SELECT statement with its positional parameters, ready for `prepare(sql).all(...params)`. */
export interface BuiltQuery {
  /** SQL text; every value in it is a `?` placeholder. */
  readonly sql: string;
  /** The values bound to the placeholders, in order. */
  readonly params: readonly (string | number)[];
}

/**
 * Escapes the LIKE wildcards `%` and `_` and the escape character itself, so the text matches
 * only itself.
 *
 * @param text - Literal text.
 * @returns The text for use in a LIKE pattern with `ESCAPE '\'`.
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => LIKE_ESCAPE + char);
}

/**
 * Converts a space pattern (`*` matches any run of characters, everything else is literal) to a
 * LIKE pattern for use with `ESCAPE '\'`.
 *
 * @param pattern - The space pattern, such as `chat-room-42*`.
 * @returns The LIKE pattern, such as `chat-room-42%`.
 */
export function spacePatternToLike(pattern: string): string {
  return pattern.split('*').map(escapeLike).join('%');
}

/**
 * Converts a space pattern to a GLOB pattern. LIKE ignores ASCII case, so every LIKE test is
 * paired with this case-sensitive GLOB test; GLOB's own specials `?` and `[` are bracketed so
 * they match only themselves.
 *
 * @param pattern - The space pattern.
 * @returns The equivalent case-sensitive GLOB pattern.
 */
export function spacePatternToGlob(pattern: string): string {
  return pattern.replace(/[?[]/g, (char) => `[${char}]`);
}

function fail(label: string, option: string, expected: string, value: unknown): never {
  let shown: string;
  try {
    shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
  } catch {
    shown = typeof value;
  }
  throw sqliteError(
    'WEFT_SQLITE_INVALID_QUERY',
    `${label}: query option "${option}" must be ${expected}, got ${shown}`,
  );
}

function optionalString(
  label: string,
  options: QueryMemoryOptions,
  option: keyof QueryMemoryOptions,
): void {
  const value = options[option];
  if (value !== undefined && typeof value !== 'string') fail(label, option, 'a string', value);
}

function optionalDate(label: string, value: unknown, option: string): number | undefined {
  if (value === undefined) return undefined;
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    fail(label, option, 'a valid Date', value);
  }
  return value.getTime();
}

/**
 * Builds the SELECT for {@link QueryMemoryOptions}. Space filters (`space`, `spacePrefix`,
 * `spacePatterns`) are OR-ed together; that group and every other filter are AND-ed. An empty
 * `spacePatterns` list contributes no alternative, so when it is the only space filter nothing
 * matches. Ties in creation time are broken by insertion order (`rowid`).
 *
 * @param options - The caller's filters, order and limit.
 * @param label - Prefix of error messages, naming the provider.
 * @returns The statement and its parameters.
 * @throws `WEFT_SQLITE_INVALID_QUERY` naming the option when one has the wrong type, when
 * `limit` is not a positive integer, or when `order` is neither `asc` nor `desc`.
 */
export function buildQuery(
  options: QueryMemoryOptions,
  label = 'SqliteMemoryProvider',
): BuiltQuery {
  if (options === null || typeof options !== 'object') fail(label, 'options', 'an object', options);
  optionalString(label, options, 'space');
  optionalString(label, options, 'spacePrefix');
  optionalString(label, options, 'kind');
  optionalString(label, options, 'taskId');
  if (
    options.spacePatterns !== undefined &&
    (!Array.isArray(options.spacePatterns) ||
      !options.spacePatterns.every((pattern) => typeof pattern === 'string'))
  ) {
    fail(label, 'spacePatterns', 'an array of strings', options.spacePatterns);
  }
  const since = optionalDate(label, options.since, 'since');
  const until = optionalDate(label, options.until, 'until');
  const limit = options.limit ?? DEFAULT_QUERY_LIMIT;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1) {
    fail(label, 'limit', 'a positive integer', limit);
  }
  const order = options.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc') fail(label, 'order', '"asc" or "desc"', order);

  const where: string[] = [];
  const params: (string | number)[] = [];

  const spaceAlternatives: string[] = [];
  let hasSpaceFilter = false;
  if (options.space !== undefined) {
    hasSpaceFilter = true;
    spaceAlternatives.push('space = ?');
    params.push(options.space);
  }
  if (options.spacePrefix !== undefined) {
    hasSpaceFilter = true;
    // LIKE narrows the candidates; instr(...) = 1 makes the prefix test case-sensitive.
    spaceAlternatives.push(`(space LIKE ? ESCAPE '${LIKE_ESCAPE}' AND instr(space, ?) = 1)`);
    params.push(`${escapeLike(options.spacePrefix)}%`, options.spacePrefix);
  }
  if (options.spacePatterns !== undefined) {
    hasSpaceFilter = true;
    for (const pattern of options.spacePatterns) {
      spaceAlternatives.push(`(space LIKE ? ESCAPE '${LIKE_ESCAPE}' AND space GLOB ?)`);
      params.push(spacePatternToLike(pattern), spacePatternToGlob(pattern));
    }
  }
  if (hasSpaceFilter) {
    where.push(spaceAlternatives.length > 0 ? `(${spaceAlternatives.join(' OR ')})` : '0');
  }

  if (options.kind !== undefined) {
    where.push('kind = ?');
    params.push(options.kind);
  }
  if (options.taskId !== undefined) {
    where.push('task_id = ?');
    params.push(options.taskId);
  }
  if (since !== undefined) {
    where.push('created_at >= ?');
    params.push(since);
  }
  if (until !== undefined) {
    where.push('created_at < ?');
    params.push(until);
  }

  const direction = order === 'asc' ? 'ASC' : 'DESC';
  const sql =
    'SELECT id, space, kind, content, task_id, metadata, created_at FROM memories' +
    (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
    ` ORDER BY created_at ${direction}, rowid ${direction} LIMIT ?`;
  params.push(limit);
  return { sql, params };
}
