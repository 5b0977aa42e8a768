import type { CheckedMemoryQuery } from '@weft/core';

/** The escape character of every LIKE pattern this module builds. */
const LIKE_ESCAPE = '\\';

/**
 * The most bytes SQLite accepts in a LIKE or GLOB pattern (its default
 * `SQLITE_MAX_LIKE_PATTERN_LENGTH`); a longer one fails the whole statement with "LIKE or GLOB
 * pattern too complex". A pattern that long needs a space of thousands of characters, far over
 * the 500 the memory contract allows, so it is left out of the query: it matches nothing.
 */
export const MAX_PATTERN_BYTES = 50_000;

function fitsPatternLimit(pattern: string): boolean {
  return Buffer.byteLength(pattern, 'utf8') <= MAX_PATTERN_BYTES;
}

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

/**
 * Builds the SELECT for query options already checked by `checkMemoryQuery` from `@weft/core`.
 * Space filters (`space`, `spacePrefix`, `spacePatterns`) are OR-ed together; that group and
 * every other filter are AND-ed. An empty `spacePatterns` list contributes no alternative, so
 * when it is the only space filter nothing matches; nor does a prefix or pattern too long for
 * SQLite's pattern limit ({@link MAX_PATTERN_BYTES}), which no storable space could match. Ties in creation time are broken by insertion
 * order (`rowid`).
 *
 * @param options - The checked filters, order and limit.
 * @returns The statement and its parameters.
 */
export function buildQuery(options: CheckedMemoryQuery): BuiltQuery {
  const { since, until, limit, order } = options;
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
    const like = `${escapeLike(options.spacePrefix)}%`;
    if (fitsPatternLimit(like)) {
      // LIKE narrows the candidates; instr(...) = 1 makes the prefix test case-sensitive.
      spaceAlternatives.push(`(space LIKE ? ESCAPE '${LIKE_ESCAPE}' AND instr(space, ?) = 1)`);
      params.push(like, options.spacePrefix);
    }
  }
  if (options.spacePatterns !== undefined) {
    hasSpaceFilter = true;
    for (const given of options.spacePatterns) {
      // A run of stars matches what one star matches, in fewer pattern bytes.
      const pattern = given.replace(/\*+/g, '*');
      const like = spacePatternToLike(pattern);
      const glob = spacePatternToGlob(pattern);
      if (!fitsPatternLimit(like) || !fitsPatternLimit(glob)) continue;
      spaceAlternatives.push(`(space LIKE ? ESCAPE '${LIKE_ESCAPE}' AND space GLOB ?)`);
      params.push(like, glob);
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
    params.push(since.getTime());
  }
  if (until !== undefined) {
    where.push('created_at < ?');
    params.push(until.getTime());
  }

  const direction = order === 'asc' ? 'ASC' : 'DESC';
  const sql =
    'SELECT id, space, kind, content, task_id, metadata, created_at FROM memories' +
    (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
    ` ORDER BY created_at ${direction}, rowid ${direction} LIMIT ?`;
  params.push(limit);
  return { sql, params };
}
