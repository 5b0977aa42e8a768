/**
 * A function `apiKey` is read inside the call's limits: its deadline (`totalTimeoutMs`, or
 * `timeoutMs` for `checkHealth()`) and its signal. A key store that never answers must not hold
 * a call, or a health check, for ever.
 */
import { getEventListeners } from 'node:events';
import { TEXT_GENERATION_CAPABILITY } from '@weft/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  OpenAIModelProvider,
  type OpenAIModelProviderError,
  type OpenAIModelProviderOptions,
} from '../src/index.js';
import { chatServerPerTest } from './support/chat-server-per-test.js';
import { failure } from './support/failure.js';

const server = chatServerPerTest();

/** A key function that never answers, and how often it was called. */
function silentKey(): { apiKey: () => Promise<string>; calls: () => number } {
  let calls = 0;
  return {
    apiKey: () => {
      calls += 1;
      return new Promise<string>(() => undefined);
    },
    calls: () => calls,
  };
}

function provider(options: Partial<OpenAIModelProviderOptions>): OpenAIModelProvider {
  return new OpenAIModelProvider({ baseUrl: server.baseUrl, model: 'm', ...options });
}

/** Sends one chat request; resolves with the error it fails with, or fails the test if it succeeds. */
function failureOf(
  target: OpenAIModelProvider,
  signal?: AbortSignal,
): Promise<OpenAIModelProviderError> {
  const capability = target.capabilities.find((c) => c.id === TEXT_GENERATION_CAPABILITY)!;
  return failure(
    capability.run(
      { messages: [{ role: 'user', content: 'hi' }] },
      signal === undefined ? {} : { signal },
    ),
  );
}

describe('a function apiKey within the limits of its call', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fails the call with WEFT_OPENAI_TIMEOUT at totalTimeoutMs when the key never comes, sending nothing [claim:oai-total] [claim:oai-key-timeout-row] [claim:oai-errors] [claim:tsdoc-openai-api-key] [claim:tsdoc-openai-default-total-timeout-ms] [claim:errors-openai-timeout-last-status] [claim:mpo-error-fields]', async () => {
    const key = silentKey();
    const started = Date.now();
    const error = await failureOf(provider({ apiKey: key.apiKey, totalTimeoutMs: 300 }));
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(error.code).toBe('WEFT_OPENAI_TIMEOUT');
    expect(error.message).toBe(
      'OpenAIModelProvider "openai": option "apiKey" gave no key within option "totalTimeoutMs" (300 ms); no request was sent [WEFT_OPENAI_TIMEOUT]',
    );
    expect(error.attempts).toBe(0);
    expect(key.calls()).toBe(1);
    expect(server.requests).toHaveLength(0);
  });

  it('with the defaults, waits 60 s for the key, then fails as the README shows [claim:oai-key-timeout-row]', async () => {
    vi.useFakeTimers();
    const key = silentKey();
    let settled: unknown;
    void failureOf(provider({ apiKey: key.apiKey })).then((error) => (settled = error));
    await vi.advanceTimersByTimeAsync(59_999);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect((settled as Error | undefined)?.message).toBe(
      'OpenAIModelProvider "openai": option "apiKey" gave no key within option "totalTimeoutMs" (60000 ms); no request was sent [WEFT_OPENAI_TIMEOUT]',
    );
  });

  it('counts the time the key took against totalTimeoutMs [claim:oai-total] [claim:tsdoc-openai-default-total-timeout-ms] [claim:mpo-wait-cap]', async () => {
    vi.useFakeTimers();
    // The key takes 200 ms; the server then never answers, whatever the request's signal says.
    const model = new OpenAIModelProvider({
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'm',
      apiKey: () => new Promise<string>((resolve) => setTimeout(() => resolve('sk-slow'), 200)),
      timeoutMs: 10_000,
      totalTimeoutMs: 500,
      maxRetries: 0,
      fetch: () => new Promise<Response>(() => undefined),
    });
    let settled: unknown;
    void failureOf(model).then((error) => (settled = error));
    await vi.advanceTimersByTimeAsync(499);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toMatchObject({ code: 'WEFT_OPENAI_TIMEOUT', attempts: 1 });
    expect((settled as Error).message).toContain('option "totalTimeoutMs" (500 ms)');
  });

  it("stops reading the key at once when the call's signal fires, and listens on it through a signal of its own [claim:oai-signal] [claim:tsdoc-openai-api-key] [claim:oai-errors] [claim:mpo-error-fields]", async () => {
    const key = silentKey();
    const controller = new AbortController();
    const failing = failureOf(provider({ apiKey: key.apiKey }), controller.signal);
    await vi.waitFor(() => expect(key.calls()).toBe(1));
    // The key is being read: a call adds no listener to a signal many calls may share.
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    const aborted = Date.now();
    controller.abort(new Error('user went away'));
    const error = await failing;
    expect(Date.now() - aborted).toBeLessThan(1_000);
    expect(error.code).toBe('WEFT_OPENAI_ABORTED');
    expect(error.message).toBe(
      'OpenAIModelProvider "openai": request was aborted: user went away [WEFT_OPENAI_ABORTED]',
    );
    expect(error.attempts).toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it('calls no key function when the signal has already fired [claim:oai-signal] [claim:tsdoc-openai-api-key]', async () => {
    const key = silentKey();
    const error = await failureOf(provider({ apiKey: key.apiKey }), AbortSignal.abort());
    expect(error.code).toBe('WEFT_OPENAI_ABORTED');
    expect(key.calls()).toBe(0);
    expect(server.requests).toHaveLength(0);
  });
});

describe('checkHealth() with a function apiKey', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves false within timeoutMs when the key never comes [claim:oai-health] [claim:tsdoc-openai-api-key]', async () => {
    const key = silentKey();
    const started = Date.now();
    await expect(provider({ apiKey: key.apiKey, timeoutMs: 200 }).checkHealth()).resolves.toBe(
      false,
    );
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(key.calls()).toBe(1);
    expect(server.requests).toHaveLength(0);
  });

  it('counts the time the key took against timeoutMs [claim:oai-health]', async () => {
    vi.useFakeTimers();
    const model = new OpenAIModelProvider({
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'm',
      apiKey: () => new Promise<string>((resolve) => setTimeout(() => resolve('sk-slow'), 150)),
      timeoutMs: 200,
      fetch: () => new Promise<Response>(() => undefined),
    });
    let healthy: boolean | undefined;
    void model.checkHealth().then((value) => (healthy = value));
    await vi.advanceTimersByTimeAsync(199);
    expect(healthy).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(healthy).toBe(false);
  });
});
