import { WeftError } from '@weft/core';

/**
 * The code of a {@link WeftError} thrown by `@weft/coordinator-postgres`.
 *
 * - `WEFT_COORDINATOR_INVALID_OPTIONS`: the constructor's options are missing or invalid.
 * - `WEFT_COORDINATOR_CONNECT_FAILED`: `init` could not connect to PostgreSQL or prepare its
 *   schema; the message names the host and port, never the password.
 * - `WEFT_COORDINATOR_SCHEMA_TOO_NEW`: the schema was made by a newer version of the package.
 * - `WEFT_COORDINATOR_NOT_STARTED`: a method was called before `init()` or after `shutdown()`.
 * - `WEFT_COORDINATOR_INVALID_ARRIVAL`: a task's event cannot be recorded: its data or metadata
 *   has no JSON form.
 * - `WEFT_COORDINATOR_ADMIT_FAILED`: PostgreSQL did not record a task's arrival in time.
 * - `WEFT_COORDINATOR_ACQUIRE_TIMEOUT`: a space's earlier tasks did not end within
 *   `acquireTimeoutMs`.
 * - `WEFT_COORDINATOR_CONNECTION_LOST`: the connection that holds this instance's locks
 *   dropped, so other instances may have taken its spaces over.
 */
export type WeftCoordinatorErrorCode =
  | 'WEFT_COORDINATOR_INVALID_OPTIONS'
  | 'WEFT_COORDINATOR_CONNECT_FAILED'
  | 'WEFT_COORDINATOR_SCHEMA_TOO_NEW'
  | 'WEFT_COORDINATOR_NOT_STARTED'
  | 'WEFT_COORDINATOR_INVALID_ARRIVAL'
  | 'WEFT_COORDINATOR_ADMIT_FAILED'
  | 'WEFT_COORDINATOR_ACQUIRE_TIMEOUT'
  | 'WEFT_COORDINATOR_CONNECTION_LOST';

/**
 * Every code of {@link WeftCoordinatorErrorCode}, for the test that checks the errors reference.
 *
 * @internal
 */
export const WEFT_COORDINATOR_ERROR_CODES = Object.keys({
  WEFT_COORDINATOR_INVALID_OPTIONS: true,
  WEFT_COORDINATOR_CONNECT_FAILED: true,
  WEFT_COORDINATOR_SCHEMA_TOO_NEW: true,
  WEFT_COORDINATOR_NOT_STARTED: true,
  WEFT_COORDINATOR_INVALID_ARRIVAL: true,
  WEFT_COORDINATOR_ADMIT_FAILED: true,
  WEFT_COORDINATOR_ACQUIRE_TIMEOUT: true,
  WEFT_COORDINATOR_CONNECTION_LOST: true,
} satisfies Record<WeftCoordinatorErrorCode, true>) as readonly WeftCoordinatorErrorCode[];

/**
 * Creates an error of `@weft/coordinator-postgres`.
 *
 * @param code - What went wrong.
 * @param message - "owner: problem; fix".
 * @param options - The HTTP status a trigger answers with, whether the message may be shown to
 * a client, and the underlying error.
 * @returns The error, to throw.
 */
export function coordinatorError(
  code: WeftCoordinatorErrorCode,
  message: string,
  options: { status?: number; expose?: boolean; cause?: unknown } = {},
): WeftError<WeftCoordinatorErrorCode> {
  return new WeftError(code, message, options);
}
