/**
 * Calling a capability: a provider's error wrapped or passed through, and the codes of a call
 * no provider can answer or whose value is invalid.
 */
import { WeftError } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { sentimentCapability, startedRuntime } from './fixtures.js';

describe('capability call errors', () => {
  it("wraps a provider's plain error with its cause, and passes a provider's WeftError through [claim:cap-provider-throws] [claim:mpo-run-throws] [claim:mpo-weft-unwrapped] [claim:oai-unwrapped] [claim:wp-provider-errors-unwrapped]", async () => {
    const plain = new Error('socket hang up');
    const coded = new WeftError('WEFT_PROVIDER_FAILED', 'MyProvider: quota exhausted');
    let next: Error = plain;
    const { runtime } = await startedRuntime({
      responses: {
        fallback: () => {
          throw next;
        },
      },
    });
    const wrapped = await runtime.models.generateText('hi').catch((error: unknown) => error);
    expect(wrapped).toBeInstanceOf(WeftError);
    expect((wrapped as WeftError).code).toBe('WEFT_PROVIDER_FAILED');
    expect((wrapped as Error).message).toContain(
      'ModelManager: provider "scripted" failed on capability "text-generation": socket hang up',
    );
    expect((wrapped as Error).cause).toBe(plain);

    // An error with a cause of its own: the cause's message follows in parentheses.
    next = new Error('request failed', { cause: new Error('connect ECONNREFUSED') });
    expect(await runtime.models.generateText('hi').catch((error: unknown) => error)).toMatchObject({
      message:
        'ModelManager: provider "scripted" failed on capability "text-generation": request failed (connect ECONNREFUSED) [WEFT_PROVIDER_FAILED]',
      cause: next,
    });

    // A cause whose message the error's own already holds is not repeated; one that is not an
    // Error is left out of the message, and stays reachable through the wrapped error's cause.
    const prefix = 'ModelManager: provider "scripted" failed on capability "text-generation": ';
    next = new Error('request failed: connect ECONNREFUSED', {
      cause: new Error('connect ECONNREFUSED'),
    });
    expect(await runtime.models.generateText('hi').catch((error: unknown) => error)).toMatchObject({
      message: `${prefix}request failed: connect ECONNREFUSED [WEFT_PROVIDER_FAILED]`,
    });
    next = new Error('request failed', { cause: 'connect ECONNREFUSED' });
    expect(await runtime.models.generateText('hi').catch((error: unknown) => error)).toMatchObject({
      message: `${prefix}request failed [WEFT_PROVIDER_FAILED]`,
      cause: next,
    });

    next = coded;
    expect(await runtime.models.generateText('hi').catch((error: unknown) => error)).toBe(coded);
  });

  it('gives WEFT_CAPABILITY_UNAVAILABLE without a provider and WEFT_VALIDATION_FAILED for a bad value [claim:tr-codes]', async () => {
    const { runtime } = await startedRuntime({ responses: { fallback: 'text' } });
    runtime.capabilities.register(sentimentCapability);
    const unavailable = await runtime.models
      .call('sentiment', { text: 'fine' })
      .catch((error: unknown) => error);
    expect((unavailable as WeftError).code).toBe('WEFT_CAPABILITY_UNAVAILABLE');
    const invalid = await runtime.models
      .callDynamic('text-generation', { messages: [] })
      .catch((error: unknown) => error);
    expect((invalid as WeftError).code).toBe('WEFT_VALIDATION_FAILED');
    expect((invalid as Error).message).toContain('input for capability "text-generation"');
  });

  it('gives WEFT_CAPABILITY_UNKNOWN, before looking for a provider, to an id no registered descriptor defines [claim:cap-unknown-id] [claim:tr-unknown-id]', async () => {
    // `sentiment` is declared in ICapabilities, but no provider in `models` lists its descriptor.
    const { runtime } = await startedRuntime({ responses: { fallback: 'text' } });
    const unregistered = await runtime.models
      .call('sentiment', { text: 'fine' })
      .catch((error: unknown) => error);
    expect((unregistered as WeftError).code).toBe('WEFT_CAPABILITY_UNKNOWN');
    expect((unregistered as Error).message).toMatch(
      /^ModelManager: capability "sentiment" is not registered/,
    );
    // A misspelt id given to callDynamic, even naming a provider that exists.
    const misspelt = await runtime.models
      .callDynamic('text-generaton', { messages: [] }, { provider: 'scripted' })
      .catch((error: unknown) => error);
    expect((misspelt as WeftError).code).toBe('WEFT_CAPABILITY_UNKNOWN');
    expect((misspelt as Error).message).toMatch(
      /^ModelManager: capability "text-generaton" is not registered/,
    );
  });

  it('finds a provider before it checks the input: an invalid input nobody can serve is unavailable [claim:tr-find-before-validate]', async () => {
    const { runtime } = await startedRuntime({ responses: { fallback: 'text' } });
    runtime.capabilities.register(sentimentCapability);
    const failure = await runtime.models
      .callDynamic('sentiment', { text: 42 })
      .catch((error: unknown) => error);
    expect((failure as WeftError).code).toBe('WEFT_CAPABILITY_UNAVAILABLE');
    expect((failure as Error).message).toContain('cannot call capability "sentiment"');
  });
});
