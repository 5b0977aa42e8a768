import { WeftError, type WeftErrorOptions } from '@weft/core';
import type { ErrorRegistry } from '@weft/core/internal';

// <error-codes> generated from the registry by: npm run generate:references
/**
 * The code of an error raised by `@weft/testing`. The list is closed (a new code is
 * a change to the public API) and stable across versions, so callers branch on the code rather
 * than on messages. Each code has a section of the same name in the errors reference of
 * the documentation, with what raises it, its cause and its fix; the error’s `docsUrl` links it.
 *
 * - `WEFT_TESTING_SCRIPT_EXHAUSTED`: A `ScriptedModelProvider` was called with no response queued
 *   and no fallback.
 * - `WEFT_TESTING_INVALID_OPTIONS`: The options of a `ScriptedModelProvider` or an
 *   `InMemoryMemoryProvider`, or a response given to `ScriptedModelProvider.enqueue`, are invalid.
 * - `WEFT_TESTING_CONTRACT_FAILED`: A provider broke a rule of the memory-provider contract, or
 *   threw where a case expects no error.
 */
export type WeftTestingErrorCode =
  'WEFT_TESTING_SCRIPT_EXHAUSTED' | 'WEFT_TESTING_INVALID_OPTIONS' | 'WEFT_TESTING_CONTRACT_FAILED';
// </error-codes>

/**
 * What the errors reference says about each code of `@weft/testing`; the code union above and
 * the page are generated from it.
 *
 * @internal
 */
export const TESTING_ERRORS = {
  packageName: '@weft/testing',
  codes: {
    WEFT_TESTING_SCRIPT_EXHAUSTED: {
      summary: 'A `ScriptedModelProvider` was called with no response queued and no fallback.',
      raisedBy: '`ScriptedModelProvider`',
      raisers: ['testing/src/scripted-model-provider.ts#ScriptedModelProvider.answer'],
      cause: 'a `ScriptedModelProvider` was called with no response queued and no fallback.',
      fix: 'see ["no scripted response left"](../guides/troubleshooting.md#no-scripted-response-left).',
    },
    WEFT_TESTING_INVALID_OPTIONS: {
      summary:
        'The options of a `ScriptedModelProvider` or an `InMemoryMemoryProvider`, or a response given to `ScriptedModelProvider.enqueue`, are invalid.',
      raisedBy:
        '`new ScriptedModelProvider`, `ScriptedModelProvider.enqueue`, `new InMemoryMemoryProvider`',
      raisers: [
        'testing/src/scripted-model-provider.ts#refuse',
        'testing/src/in-memory-memory-provider.ts#refuse',
      ],
      cause:
        'the `ScriptedModelProvider` constructor’s options are not an object, name an option it does not have (it has `id`, `responses` and `fallback`), or `id` is not a non-empty string or is white space alone, `responses` is not a list of responses, or `fallback` or one of the responses is not text, an object, a list or a function; or a response given to `enqueue` is not one of those (none of that call’s responses is queued then); or the `InMemoryMemoryProvider` constructor’s options are not an object, name an option other than `id`, or `id` is not a non-empty string or is white space alone.',
      fix: 'the message names the option, or the position of the response given to `enqueue`.',
    },
    WEFT_TESTING_CONTRACT_FAILED: {
      summary:
        'A provider broke a rule of the memory-provider contract, or threw where a case expects no error.',
      raisedBy: 'the memory-provider contract suite',
      raisers: ['testing/src/contract-runner.ts#contractFailure'],
      cause:
        'a memory provider under test broke a rule of the memory-provider contract suite, threw where a case expects no error (in its factory, `init`, a call or `shutdown`), or returned from a call something the case cannot read (a `store()` that resolves with nothing, say). The message names the case and the rule, includes the provider’s own message, or names the method whose result could not be read; the failed assertion, the provider’s error, or the error met reading the result is the `cause`.',
      fix: 'change the provider until the suite passes; see [Testing a memory provider](../guides/testing.md#testing-a-memory-provider).',
    },
  },
} as const satisfies ErrorRegistry<WeftTestingErrorCode>;

/**
 * The error `@weft/testing` throws on purpose: a {@link WeftError} with a
 * {@link WeftTestingErrorCode}. Recognise it with `WeftError.is(error, 'WEFT_TESTING_…')`.
 */
export class WeftTestingError extends WeftError<WeftTestingErrorCode> {
  /**
   * @param code - What went wrong.
   * @param message - What went wrong and how to fix it, starting with its owner (`ScriptedModelProvider:`).
   * @param options - The underlying error, and the HTTP status and exposure when it has them.
   */
  constructor(code: WeftTestingErrorCode, message: string, options: WeftErrorOptions = {}) {
    super(code, message, options);
    this.name = 'WeftTestingError';
  }
}
