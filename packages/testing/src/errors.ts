import { WeftError } from '@weft/core';
import type { ErrorRegistry } from '@weft/core/internal';

// <error-codes> generated from errorRegistry by: npm run generate:references
/**
 * The code of a {@link WeftError} raised by `@weft/testing`. The list is closed (a new
 * code is a change to the public API) and stable across versions, so callers branch on the code
 * rather than on messages. Each code has a section of the same name in the errors reference of
 * the documentation, with what raises it, its cause and its fix; the error’s `docsUrl` links it.
 *
 * - `WEFT_TESTING_SCRIPT_EXHAUSTED`: A `ScriptedModelProvider` was called with no response queued
 *   and no fallback.
 * - `WEFT_TESTING_CONTRACT_FAILED`: A provider broke a rule of the memory-provider contract, or
 *   threw where a case expects no error.
 */
export type WeftTestingErrorCode = 'WEFT_TESTING_SCRIPT_EXHAUSTED' | 'WEFT_TESTING_CONTRACT_FAILED';
// </error-codes>

/**
 * What the errors reference says about each code of `@weft/testing`; the code union above and
 * the page are generated from it.
 *
 * @internal
 */
export const errorRegistry = {
  packageName: '@weft/testing',
  codes: {
    WEFT_TESTING_SCRIPT_EXHAUSTED: {
      summary: 'A `ScriptedModelProvider` was called with no response queued and no fallback.',
      raisedBy: '`ScriptedModelProvider`',
      cause: 'a `ScriptedModelProvider` was called with no response queued and no fallback.',
      fix: 'see ["no scripted response left"](../guides/troubleshooting.md#no-scripted-response-left).',
    },
    WEFT_TESTING_CONTRACT_FAILED: {
      summary:
        'A provider broke a rule of the memory-provider contract, or threw where a case expects no error.',
      raisedBy: 'the memory-provider contract suite',
      cause:
        'a memory provider under test broke a rule of the memory-provider contract suite, or threw where a case expects no error (in its factory, `init`, a call or `shutdown`). The message names the case and the rule, or includes the provider’s own message; the provider’s error is the `cause`.',
      fix: 'change the provider until the suite passes; see [Testing a memory provider](../guides/testing.md#testing-a-memory-provider).',
    },
  },
} as const satisfies ErrorRegistry<WeftTestingErrorCode>;

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
