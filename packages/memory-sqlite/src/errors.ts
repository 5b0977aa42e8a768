import { WeftError } from '@weft/core';

/**
 * The code of a {@link WeftError} thrown by `@weft/memory-sqlite`.
 *
 * - `WEFT_SQLITE_INVALID_OPTIONS`: the constructor's options are missing or invalid.
 * - `WEFT_SQLITE_OPEN_FAILED`: the database file could not be opened.
 * - `WEFT_SQLITE_SCHEMA_TOO_NEW`: the file was written by a newer version of the package.
 * - `WEFT_SQLITE_MIGRATION_FAILED`: a schema migration failed; the file was left unchanged.
 * - `WEFT_SQLITE_NOT_OPEN`: a method was called before `init()` or after `shutdown()`.
 * - `WEFT_SQLITE_INVALID_ARGUMENT`: `update`, `remove` or `clear` was given an id that is not a string.
 * - `WEFT_SQLITE_INVALID_MEMORY`: a memory or patch cannot be stored: an empty `space` or `kind`,
 *   a `taskId` that is not a string, or content or metadata with no JSON form.
 * - `WEFT_SQLITE_INVALID_QUERY`: a query option has the wrong type or value.
 * - `WEFT_SQLITE_MEMORY_NOT_FOUND`: `update()` was given an id no memory has.
 */
export type WeftSqliteErrorCode =
  | 'WEFT_SQLITE_INVALID_OPTIONS'
  | 'WEFT_SQLITE_OPEN_FAILED'
  | 'WEFT_SQLITE_SCHEMA_TOO_NEW'
  | 'WEFT_SQLITE_MIGRATION_FAILED'
  | 'WEFT_SQLITE_NOT_OPEN'
  | 'WEFT_SQLITE_INVALID_ARGUMENT'
  | 'WEFT_SQLITE_INVALID_MEMORY'
  | 'WEFT_SQLITE_INVALID_QUERY'
  | 'WEFT_SQLITE_MEMORY_NOT_FOUND';

/**
 * Every code of {@link WeftSqliteErrorCode}, for the test that checks the errors reference.
 *
 * @internal
 */
export const WEFT_SQLITE_ERROR_CODES = Object.keys({
  WEFT_SQLITE_INVALID_OPTIONS: true,
  WEFT_SQLITE_OPEN_FAILED: true,
  WEFT_SQLITE_SCHEMA_TOO_NEW: true,
  WEFT_SQLITE_MIGRATION_FAILED: true,
  WEFT_SQLITE_NOT_OPEN: true,
  WEFT_SQLITE_INVALID_ARGUMENT: true,
  WEFT_SQLITE_INVALID_MEMORY: true,
  WEFT_SQLITE_INVALID_QUERY: true,
  WEFT_SQLITE_MEMORY_NOT_FOUND: true,
} satisfies Record<WeftSqliteErrorCode, true>) as readonly WeftSqliteErrorCode[];

/**
 * Creates an error of `@weft/memory-sqlite`.
 *
 * @param code - What went wrong.
 * @param message - "owner: problem; fix".
 * @param cause - The underlying error, when there is one.
 * @returns The error, to throw.
 */
export function sqliteError(
  code: WeftSqliteErrorCode,
  message: string,
  cause?: unknown,
): WeftError<WeftSqliteErrorCode> {
  return new WeftError(code, message, cause === undefined ? {} : { cause });
}
