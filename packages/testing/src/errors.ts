import { WeftError } from '@weft/core';

/**
 * The code of a {@link WeftError} thrown by `@weft/testing`.
 *
 * - `WEFT_TESTING_SCRIPT_EXHAUSTED`: a `ScriptedModelProvider` was called with no response queued
 *   and no fallback.
 * - `WEFT_TESTING_INVALID_MEMORY`: `InMemoryMemoryProvider` was given a memory or patch it cannot
 *   store: an empty `space` or `kind`, or content that has no JSON form.
 * - `WEFT_TESTING_INVALID_QUERY`: `InMemoryMemoryProvider.query` was given an invalid option.
 * - `WEFT_TESTING_MEMORY_NOT_FOUND`: `InMemoryMemoryProvider.update` was given an unknown id.
 * - `WEFT_TESTING_CONTRACT_FAILED`: a provider broke a rule of the memory-provider contract.
 */
export type WeftTestingErrorCode =
  | 'WEFT_TESTING_SCRIPT_EXHAUSTED'
  | 'WEFT_TESTING_INVALID_MEMORY'
  | 'WEFT_TESTING_INVALID_QUERY'
  | 'WEFT_TESTING_MEMORY_NOT_FOUND'
  | 'WEFT_TESTING_CONTRACT_FAILED';

/**
 * Every code of {@link WeftTestingErrorCode}, for the test that checks the errors reference.
 *
 * @internal
 */
export const WEFT_TESTING_ERROR_CODES = Object.keys({
  WEFT_TESTING_SCRIPT_EXHAUSTED: true,
  WEFT_TESTING_INVALID_MEMORY: true,
  WEFT_TESTING_INVALID_QUERY: true,
  WEFT_TESTING_MEMORY_NOT_FOUND: true,
  WEFT_TESTING_CONTRACT_FAILED: true,
} satisfies Record<WeftTestingErrorCode, true>) as readonly WeftTestingErrorCode[];

/**
 * Creates an error of `@weft/testing`.
 *
 * @param code - What went wrong.
 * @param message - "owner: problem; fix".
 * @param cause - The underlying error, when there is one.
 * @returns The error, to throw.
 */
export function testingError(
  code: WeftTestingErrorCode,
  message: string,
  cause?: unknown,
): WeftError<WeftTestingErrorCode> {
  return new WeftError(code, message, cause === undefined ? {} : { cause });
}
