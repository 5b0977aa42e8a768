import type { QueryMemoryOptions } from '@weft/core';
import { postgresError } from './errors.js';
import { unstorableText } from './text.js';

/** How many memories a query returns when it gives no `limit`. */
export const DEFAULT_QUERY_LIMIT = 100;

/** A SELECT statement with its numbered parameters, ready for `client.query(sql, params)`. */
export interface BuiltQuery {
  /** SQL text; every value in it is a `$n` placeholder. */
  readonly sql: string;
  /** The values bound to the placeholders, in order. */
  readonly params: readonly (string | number | Date)[];
}

/**
 * Escapes LIKE's wildcards `%` and `_` and its escape character `\` (PostgreSQL's default), so
 * the text matches only itself.
 *
 * @param text - Literal text.
 * @returns The text for use in a LIKE pattern.
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * Converts a space pattern (`*` matches any run of characters, everything else is literal) to a
 * LIKE pattern. The `space` column uses the "C" collation, so LIKE is case-sensitive and a pattern
 * with a literal start is answered from the space index.
 *
 * @param pattern - The space pattern, such as `chat-room-42*`.
 * @returns The LIKE pattern, such as `chat-room-42%`.
 */
export function spacePatternToLike(pattern: string): string {
  return pattern.split('*').map(escapeLike).join('%');
}

function fail(label: string, option: string, expected: string, value: unknown): never {
  let shown: string;
  try {
    shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
  } catch {
    shown = typeof value;
  }
  throw postgresError(
    'WEFT_POSTGRES_INVALID_QUERY',
    `${label}: query option "${option}" must be ${expected}, got ${shown}`,
  );
}

function checkText(label: string, option: string, value: string): void {
  const problem = unstorableText(value);
  if (problem) {
    throw postgresError(
      'WEFT_POSTGRES_INVALID_QUERY',
      `${label}: query option "${option}" ${problem}`,
    );
  }
}

function optionalString(
  label: string,
  options: QueryMemoryOptions,
  option: keyof QueryMemoryOptions,
): void {
  const value = options[option];
  if (value === undefined) return;
  if (typeof value !== 'string') fail(label, option, 'a string', value);
  checkText(label, option, value);
}

function optionalDate(label: string, value: unknown, option: string): Date | undefined {
  if (value === undefined) return undefined;
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    fail(label, option, 'a valid Date', value);
  }
  return new Date(value.getTime());
}

/**
 * Builds the SELECT for {@link QueryMemoryOptions}. Space filters (`space`, `spacePrefix`,
 * `spacePatterns`) are OR-ed together; that group and every other filter are AND-ed. An empty
 * `spacePatterns` list contributes no alternative, so when it is the only space filter nothing
 * matches. Ties in creation time are broken by insertion order (`seq`).
 *
 * @param table - The schema-qualified, quoted table name.
 * @param options - The caller's filters, order and limit.
 * @param label - Prefix of error messages, naming the provider.
 * @returns The statement and its parameters.
 * @throws `WEFT_POSTGRES_INVALID_QUERY` naming the option when one has the wrong type or holds
 * text PostgreSQL cannot store, when `limit` is not a positive integer, or when `order` is
 * neither `asc` nor `desc`.
 */
export function buildQuery(
  table: string,
  options: QueryMemoryOptions,
  label = 'PostgresMemoryProvider',
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
  for (const pattern of options.spacePatterns ?? []) checkText(label, 'spacePatterns', pattern);
  const since = optionalDate(label, options.since, 'since');
  const until = optionalDate(label, options.until, 'until');
  const limit = options.limit ?? DEFAULT_QUERY_LIMIT;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1) {
    fail(label, 'limit', 'a positive integer', limit);
  }
  const order = options.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc') fail(label, 'order', '"asc" or "desc"', order);

  const where: string[] = [];
  const params: (string | number | Date)[] = [];
  const bind = (value: string | number | Date): string => {
    params.push(value);
    return `$${params.length}`;
  };

  const spaceAlternatives: string[] = [];
  let hasSpaceFilter = false;
  if (options.space !== undefined) {
    hasSpaceFilter = true;
    spaceAlternatives.push(`space = ${bind(options.space)}`);
  }
  if (options.spacePrefix !== undefined) {
    hasSpaceFilter = true;
    spaceAlternatives.push(`space LIKE ${bind(`${escapeLike(options.spacePrefix)}%`)}`);
  }
  if (options.spacePatterns !== undefined) hasSpaceFilter = true;
  for (const pattern of options.spacePatterns ?? []) {
    spaceAlternatives.push(`space LIKE ${bind(spacePatternToLike(pattern))}`);
  }
  if (hasSpaceFilter) {
    where.push(spaceAlternatives.length > 0 ? `(${spaceAlternatives.join(' OR ')})` : 'false');
  }
  if (options.kind !== undefined) where.push(`kind = ${bind(options.kind)}`);
  if (options.taskId !== undefined) where.push(`task_id = ${bind(options.taskId)}`);
  if (since !== undefined) where.push(`created_at >= ${bind(since)}`);
  if (until !== undefined) where.push(`created_at < ${bind(until)}`);

  const direction = order === 'asc' ? 'ASC' : 'DESC';
  const sql =
    `SELECT ${SELECT_COLUMNS} FROM ${table}` +
    (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
    ` ORDER BY created_at ${direction}, seq ${direction} LIMIT ${bind(limit)}`;
  return { sql, params };
}

/**
 * The columns every read selects. JSON comes back as text and the time as epoch milliseconds, so
 * an application's own node-postgres type parsers (which are global) cannot change what a
 * memory looks like.
 */
export const SELECT_COLUMNS =
  'id::text AS id, space, kind, content::text AS content, task_id, metadata::text AS metadata, ' +
  '(extract(epoch FROM created_at) * 1000)::bigint AS created_ms';
