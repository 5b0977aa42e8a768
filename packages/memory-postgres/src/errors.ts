import { WeftError } from '@weft/core';

/**
 * The code of a {@link WeftError} thrown by `@weft/memory-postgres`.
 *
 * - `WEFT_POSTGRES_INVALID_OPTIONS`: the constructor's options are missing or invalid.
 * - `WEFT_POSTGRES_CONNECT_FAILED`: `init()` could not connect to the server or log in.
 * - `WEFT_POSTGRES_SCHEMA_TOO_NEW`: the tables were created by a newer version of the package.
 * - `WEFT_POSTGRES_MIGRATION_FAILED`: a schema migration failed; the database was left unchanged.
 * - `WEFT_POSTGRES_NOT_OPEN`: a method was called before `init()` or after `shutdown()`.
 * - `WEFT_POSTGRES_INVALID_ARGUMENT`: `update`, `remove` or `clear` was given an id that is not a
 *   string.
 * - `WEFT_POSTGRES_INVALID_MEMORY`: a memory or patch cannot be stored: an empty `space` or
 *   `kind`, a `taskId` that is not a string, text PostgreSQL cannot hold (a NUL character or a
 *   lone UTF-16 surrogate), or content or metadata with no JSON form.
 * - `WEFT_POSTGRES_INVALID_QUERY`: a query option has the wrong type or value.
 * - `WEFT_POSTGRES_MEMORY_NOT_FOUND`: `update()` was given an id no memory has.
 * - `WEFT_POSTGRES_STATEMENT_TIMEOUT`: a statement ran past the statement timeout.
 * - `WEFT_POSTGRES_UNAVAILABLE`: the server could not be reached for longer than the reconnect
 *   window, or the connection broke while a `remove` or `clear` was in flight.
 */
export type WeftPostgresErrorCode =
  | 'WEFT_POSTGRES_INVALID_OPTIONS'
  | 'WEFT_POSTGRES_CONNECT_FAILED'
  | 'WEFT_POSTGRES_SCHEMA_TOO_NEW'
  | 'WEFT_POSTGRES_MIGRATION_FAILED'
  | 'WEFT_POSTGRES_NOT_OPEN'
  | 'WEFT_POSTGRES_INVALID_ARGUMENT'
  | 'WEFT_POSTGRES_INVALID_MEMORY'
  | 'WEFT_POSTGRES_INVALID_QUERY'
  | 'WEFT_POSTGRES_MEMORY_NOT_FOUND'
  | 'WEFT_POSTGRES_STATEMENT_TIMEOUT'
  | 'WEFT_POSTGRES_UNAVAILABLE';

/**
 * Every code of {@link WeftPostgresErrorCode}, for the test that checks the errors reference.
 *
 * @internal
 */
export const WEFT_POSTGRES_ERROR_CODES = Object.keys({
  WEFT_POSTGRES_INVALID_OPTIONS: true,
  WEFT_POSTGRES_CONNECT_FAILED: true,
  WEFT_POSTGRES_SCHEMA_TOO_NEW: true,
  WEFT_POSTGRES_MIGRATION_FAILED: true,
  WEFT_POSTGRES_NOT_OPEN: true,
  WEFT_POSTGRES_INVALID_ARGUMENT: true,
  WEFT_POSTGRES_INVALID_MEMORY: true,
  WEFT_POSTGRES_INVALID_QUERY: true,
  WEFT_POSTGRES_MEMORY_NOT_FOUND: true,
  WEFT_POSTGRES_STATEMENT_TIMEOUT: true,
  WEFT_POSTGRES_UNAVAILABLE: true,
} satisfies Record<WeftPostgresErrorCode, true>) as readonly WeftPostgresErrorCode[];

/**
 * Creates an error of `@weft/memory-postgres`.
 *
 * @param code - What went wrong.
 * @param message - "owner: problem; fix".
 * @param cause - The underlying error, when there is one.
 * @returns The error, to throw.
 */
export function postgresError(
  code: WeftPostgresErrorCode,
  message: string,
  cause?: unknown,
): WeftError<WeftPostgresErrorCode> {
  return new WeftError(code, message, cause === undefined ? {} : { cause });
}
