/** How the provider's tests take the error a call must fail with. */
import { expect } from 'vitest';
import { OpenAIModelProviderError } from '../../src/index.js';

/**
 * Resolves with the error the promise rejects with, which must be the provider's own error;
 * fails the test if the promise resolves or rejects with anything else.
 */
export async function failure(promise: Promise<unknown>): Promise<OpenAIModelProviderError> {
  const reason = await promise.then(
    () => new Error('expected the call to fail'),
    (error: unknown) => error,
  );
  expect(reason).toBeInstanceOf(OpenAIModelProviderError);
  return reason as OpenAIModelProviderError;
}
