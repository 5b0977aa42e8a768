import type { CheckedMemoryQuery } from '@weft/core';

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

/**
 * Builds the SELECT for query options already checked by `checkMemoryQuery` from `@weft/core`.
 * Space filters (`space`, `spacePrefix`, `spacePatterns`) are OR-ed together; that group and
 * every other filter are AND-ed. An empty `spacePatterns` list contributes no alternative, so
 * when it is the only space filter nothing matches. Ties in creation time are broken by insertion
 * order (`seq`).
 *
 * @param table - The schema-qualified, quoted table name.
 * @param options - The checked filters, order and limit.
 * @returns The statement and its parameters.
 */
export function buildQuery(table: string, options: CheckedMemoryQuery): BuiltQuery {
  const { since, until, limit, order } = options;
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
  if (since !== undefined) where.push(`created_at >= ${bind(withinTimestampRange(since))}`);
  if (until !== undefined) where.push(`created_at < ${bind(withinTimestampRange(until))}`);

  const direction = order === 'asc' ? 'ASC' : 'DESC';
  const sql =
    `SELECT ${SELECT_COLUMNS} FROM ${table}` +
    (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
    ` ORDER BY created_at ${direction}, seq ${direction} LIMIT ${bind(limit)}`;
  return { sql, params };
}

/**
 * The earliest instant this module binds: 1 January 4713 BC, within `timestamptz`'s range, which
 * starts in late 4714 BC while a JavaScript `Date` reaches back to 271821 BC. Every memory was
 * stored after it, so a query bound moved forward to it matches the same memories.
 */
const EARLIEST_TIMESTAMP = new Date(Date.UTC(-4712, 0, 1));

/**
 * A query bound the server accepts with the same meaning. An earlier `since` matches every memory
 * and an earlier `until` none, as in the other stores, instead of failing with the server's
 * "timestamp out of range"; the latest `Date` is within the range already.
 *
 * @param date - A valid `Date` from the checked options.
 * @returns The date, or the earliest timestamp when the date is before it.
 */
function withinTimestampRange(date: Date): Date {
  return date < EARLIEST_TIMESTAMP ? EARLIEST_TIMESTAMP : date;
}

/**
 * The columns every read selects. JSON comes back as text and the time as epoch milliseconds, so
 * an application's own node-postgres type parsers (which are global) cannot change what a
 * memory looks like.
 */
export const SELECT_COLUMNS =
  'id::text AS id, space, kind, content::text AS content, task_id, metadata::text AS metadata, ' +
  '(extract(epoch FROM created_at) * 1000)::bigint AS created_ms';
