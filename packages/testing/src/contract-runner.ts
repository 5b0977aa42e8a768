import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { WeftError, type MemoryProvider } from '@weft/core';
import { describeError } from '@weft/core/internal';
import { WeftTestingError } from './errors.js';
import type { MemoryContractCode } from './memory-contract-inputs.js';

/**
 * How the memory-provider contract runs one case and judges what went wrong: every failure of a
 * case, a broken assertion or an error the provider threw, becomes one coded error naming it.
 */

/**
 * Runs one case against a new provider from the factory, and shuts the provider down afterwards
 * unless the case did. Whatever fails, the factory, `init`, the check or `shutdown`, the case
 * rejects with `WEFT_TESTING_CONTRACT_FAILED` naming it; the first failure wins.
 */
export async function runCase<P extends MemoryProvider>(
  factory: { create(): P | Promise<P> },
  name: string,
  check: (provider: P, closed: () => void) => Promise<void>,
): Promise<void> {
  let provider: P | undefined;
  let open = false;
  let failure: { error: unknown } | undefined;
  try {
    provider = await factory.create();
    await provider.init();
    open = true;
    await check(provider, () => {
      open = false;
    });
  } catch (error) {
    failure = { error };
  }
  if (open && provider) {
    try {
      await provider.shutdown();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw contractFailure(provider, name, failure.error);
}

/**
 * The error a failed case throws. A broken assertion shows the values compared; any other error
 * (the provider threw where the case expected none) is reported with its message, as the cause.
 */
function contractFailure(
  provider: MemoryProvider | undefined,
  name: string,
  error: unknown,
): WeftTestingError {
  const who = `memoryProviderContract: provider "${provider?.id ?? '(not created)'}" failed "${name}"`;
  if (error instanceof assert.AssertionError) {
    // A custom assertion message replaces node's diff, so the values are shown here instead.
    const values = error.generatedMessage
      ? ''
      : `\n  actual: ${inspect(error.actual, { depth: 6 })}\n  expected: ${inspect(error.expected, { depth: 6 })}`;
    return new WeftTestingError(
      'WEFT_TESTING_CONTRACT_FAILED',
      `${who}: ${error.message}${values}`,
      { cause: error },
    );
  }
  return new WeftTestingError(
    'WEFT_TESTING_CONTRACT_FAILED',
    `${who}: it threw where the contract expects no error: ${describeError(error)}`,
    { cause: error },
  );
}

/**
 * Asserts that `action` rejects with a {@link WeftError} of `code`, and returns the message for
 * further checks.
 */
export async function rejection(
  action: () => Promise<unknown>,
  what: string,
  code: MemoryContractCode,
): Promise<string> {
  try {
    await action();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    assert.ok(
      WeftError.is(error, code),
      `${what} must be rejected with a WeftError of code ${code}, got: ${message}` +
        (WeftError.is(error) ? ` (code ${error.code})` : ''),
    );
    return message;
  }
  assert.fail(`${what} was accepted; it must be rejected with a WeftError of code ${code}`);
}
