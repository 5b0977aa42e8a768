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
  check: (provider: P, closed: () => void, calls: ProviderCalls) => Promise<void>,
): Promise<void> {
  let provider: P | undefined;
  let open = false;
  let failure: { error: unknown } | undefined;
  const calls = new ProviderCalls();
  try {
    const created = await calls.own(() => factory.create());
    provider = created;
    await calls.own(() => created.init());
    open = true;
    await check(
      calls.watch(created),
      () => {
        open = false;
      },
      calls,
    );
  } catch (error) {
    failure = { error };
  }
  if (open && provider) {
    const opened = provider;
    try {
      await calls.own(() => opened.shutdown());
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw contractFailure(provider, name, failure.error, calls);
}

/**
 * What the providers under test threw, and which of their methods was called last, so that a
 * failure tells an error a provider threw from one the contract's own code hit while reading a
 * value the provider returned (a `store()` that resolved with nothing, say).
 */
export class ProviderCalls {
  private readonly thrown = new WeakSet<object>();
  private readonly originals = new WeakMap<object, object>();
  /** The method of a watched provider called last, such as `store`. */
  lastCall: string | undefined;

  /**
   * A view of `provider` whose methods record their name when called and remember what they
   * throw. Methods run on the provider itself, so its private fields work as usual.
   */
  watch<P extends MemoryProvider>(provider: P): P {
    const view = new Proxy(provider, {
      get: (target, key) => {
        const value: unknown = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]): unknown => {
          this.lastCall = String(key);
          try {
            const result: unknown = Reflect.apply(value, target, args);
            // Any thenable, a promise of another realm's too: the contract awaits every call.
            // What it resolves with is checked here, so a result the case cannot read is laid
            // at this call's door, not at a later call's made before the case reads it.
            return isThenable(result)
              ? Promise.resolve(result).then(
                  (resolved) => checkResult(String(key), resolved),
                  (error: unknown) => this.rethrow(error),
                )
              : result;
          } catch (error) {
            return this.rethrow(error);
          }
        };
      },
    });
    this.originals.set(view, provider);
    return view;
  }

  /** The provider a view was made from, for the factory's `reopen`. */
  original<P extends MemoryProvider>(view: P): P {
    return (this.originals.get(view) as P | undefined) ?? view;
  }

  /** Runs `action`, a call of the factory or the provider, and remembers what it throws. */
  async own<T>(action: () => T | Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      return this.rethrow(error);
    }
  }

  /** Whether a watched provider threw `error`; a thrown value that is not an object counts too. */
  threw(error: unknown): boolean {
    return typeof error !== 'object' || error === null || this.thrown.has(error);
  }

  private rethrow(error: unknown): never {
    if (typeof error === 'object' && error !== null) this.thrown.add(error);
    throw error;
  }
}

/**
 * The error a failed case throws. A broken assertion shows the values compared; an error the
 * provider threw where the case expected none is reported with its message, as the cause; any
 * other error was hit reading what the provider's last call returned, which is named.
 */
function contractFailure(
  provider: MemoryProvider | undefined,
  name: string,
  error: unknown,
  calls: ProviderCalls,
): WeftTestingError {
  const who = `memoryProviderContract: provider "${provider?.id ?? '(not created)'}" failed "${name}"`;
  if (error instanceof assert.AssertionError && !calls.threw(error)) {
    // A custom assertion message replaces node's diff, so the values are shown here instead;
    // `assert.fail` and `assert.ok` compared nothing the provider gave (their values are
    // `undefined` and `false`), so showing them would only mislead.
    const values =
      error.generatedMessage || error.operator === 'fail' || error.operator === '=='
        ? ''
        : `\n  actual: ${inspect(error.actual, { depth: 6 })}\n  expected: ${inspect(error.expected, { depth: 6 })}`;
    return new WeftTestingError(
      'WEFT_TESTING_CONTRACT_FAILED',
      `${who}: ${error.message}${values}`,
      { cause: error },
    );
  }
  if (calls.threw(error) || calls.lastCall === undefined) {
    return new WeftTestingError(
      'WEFT_TESTING_CONTRACT_FAILED',
      `${who}: it threw where the contract expects no error: ${describeError(error)}`,
      { cause: error },
    );
  }
  if (error instanceof UnreadableResult) {
    return new WeftTestingError('WEFT_TESTING_CONTRACT_FAILED', `${who}: ${error.message}`, {
      cause: error,
    });
  }
  return new WeftTestingError(
    'WEFT_TESTING_CONTRACT_FAILED',
    `${who}: what ${calls.lastCall}() returned is not what MemoryProvider promises (a memory, ` +
      `a list of memories, a boolean or a count): reading it failed with ${describeError(error)}`,
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

/** What each method of {@link MemoryProvider} promises to resolve with, as a check and a name. */
const RESULTS: Record<string, [(value: unknown) => boolean, string]> = {
  store: [
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    'a memory',
  ],
  update: [
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    'a memory',
  ],
  query: [Array.isArray, 'a list of memories'],
  remove: [(value) => typeof value === 'boolean', 'a boolean'],
  clear: [(value) => typeof value === 'number', 'a count'],
};

/** A call resolved with something its method does not promise; `method` names the call. */
class UnreadableResult extends Error {
  constructor(
    readonly method: string,
    message: string,
  ) {
    super(message);
  }
}

/** Returns `value` when it is what `method` promises; throws {@link UnreadableResult} otherwise. */
function checkResult(method: string, value: unknown): unknown {
  const expected = RESULTS[method];
  if (!expected || expected[0](value)) return value;
  throw new UnreadableResult(
    method,
    `what ${method}() returned is not what MemoryProvider promises (${expected[1]}): it resolved with ${inspect(value, { depth: 1 })}`,
  );
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
