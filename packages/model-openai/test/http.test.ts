/**
 * The TSDoc of http.ts (hover text for the provider's code), checked with an injected `fetch`:
 * claims the end-to-end tests against the chat server cannot reach, such as a `fetch` that
 * ignores its signal or an answer fetch did not follow.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  attemptRequest,
  isRetryableStatus,
  sendWithRetry,
  type HttpRequest,
  type RetryConfig,
} from '../src/http.js';

const request: HttpRequest = {
  method: 'POST',
  url: 'http://model.test/v1/chat/completions',
  headers: new Headers(),
};

/** The error sendWithRetry rejects with; it must reject. */
async function failureOf(
  sending: Promise<unknown>,
): Promise<{ code?: string; message: string; httpStatus?: number; attempts?: number }> {
  try {
    await sending;
  } catch (error) {
    return error as { code?: string; message: string; httpStatus?: number; attempts?: number };
  }
  throw new Error('expected sendWithRetry to reject');
}

function config(fetch: typeof globalThis.fetch, overrides: Partial<RetryConfig> = {}): RetryConfig {
  return {
    fetch,
    timeoutMs: 100,
    maxResponseBytes: 1024,
    maxRetries: 0,
    retryBaseDelayMs: 10,
    totalTimeoutMs: 1_000,
    label: 'test',
    random: () => 0.5,
    ...overrides,
  };
}

describe('TSDoc of attemptRequest', () => {
  it('ends as a timeout when fetch ignores its signal and never settles, and never throws [claim:tsdoc-openai-attempt-ignoring-fetch]', async () => {
    const ignoring = (() => new Promise<Response>(() => undefined)) as typeof fetch;
    const started = Date.now();
    expect(await attemptRequest(request, config(ignoring))).toEqual({ kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1_000);
    const throwing = (() => Promise.reject(new Error('socket hang up'))) as typeof fetch;
    expect(await attemptRequest(request, config(throwing))).toMatchObject({ kind: 'network' });
  });

  it("adds no listener to the caller's signal [claim:tsdoc-openai-attempt-no-listener]", async () => {
    const caller = new AbortController();
    let seen: AbortSignal | undefined | null;
    const fetching = ((_url: string, init: RequestInit) => {
      seen = init.signal;
      return Promise.resolve(new Response('{}'));
    }) as typeof fetch;
    await attemptRequest(request, { ...config(fetching), signal: caller.signal });
    expect(seen).toBeInstanceOf(AbortSignal);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });
});

describe('TSDoc of isRetryableStatus', () => {
  it('is true for 429 and 5xx only [claim:tsdoc-openai-retryable]', () => {
    expect([429, 500, 503, 599].map(isRetryableStatus)).toEqual([true, true, true, true]);
    expect([200, 304, 400, 404, 600].map(isRetryableStatus)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('TSDoc of sendWithRetry', () => {
  it('fails at once with WEFT_OPENAI_HTTP_STATUS on a 3xx answer fetch did not follow [claim:tsdoc-openai-3xx] [claim:errors-openai-http-status-3xx]', async () => {
    let calls = 0;
    const redirecting = (() => {
      calls += 1;
      return Promise.resolve(new Response(null, { status: 302, headers: { location: '/x' } }));
    }) as typeof fetch;
    const error = await failureOf(sendWithRetry(request, config(redirecting, { maxRetries: 3 })));
    expect(error).toMatchObject({ code: 'WEFT_OPENAI_HTTP_STATUS', httpStatus: 302 });
    expect(calls).toBe(1);
  });

  it('starts no retry whose wait would end past totalTimeoutMs: WEFT_OPENAI_TIMEOUT with the last status [claim:errors-openai-timeout-last-status] [claim:tsdoc-openai-total-deadline]', async () => {
    let calls = 0;
    const failing = (() => {
      calls += 1;
      return Promise.resolve(new Response('busy', { status: 503 }));
    }) as typeof fetch;
    const started = Date.now();
    const error = await failureOf(
      sendWithRetry(
        request,
        config(failing, { maxRetries: 5, retryBaseDelayMs: 5_000, totalTimeoutMs: 1_000 }),
      ),
    );
    expect(error).toMatchObject({ code: 'WEFT_OPENAI_TIMEOUT', httpStatus: 503 });
    expect(error.message).toContain('leaves no time for another');
    expect(calls).toBe(1);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('names totalTimeoutMs, not timeoutMs, when the deadline cut the last attempt short [claim:oai-total-timeout-row] [claim:tsdoc-openai-total-deadline]', async () => {
    const hanging = (() => new Promise<Response>(() => undefined)) as typeof fetch;
    const error = await failureOf(
      sendWithRetry(
        request,
        config(hanging, { timeoutMs: 300, totalTimeoutMs: 450, maxRetries: 1 }),
      ),
    );
    expect(error).toMatchObject({ code: 'WEFT_OPENAI_TIMEOUT', attempts: 2 });
    expect(error.message).toBe(
      'test: gave up after 2 attempts: option "totalTimeoutMs" (450 ms) leaves no time for another; last attempt timed out [WEFT_OPENAI_TIMEOUT]',
    );
  });

  it('names how the last attempt ended when no retries are left [claim:tsdoc-openai-last-attempt]', async () => {
    const failing = (() => Promise.resolve(new Response('busy', { status: 503 }))) as typeof fetch;
    const hanging = (() => new Promise<Response>(() => undefined)) as typeof fetch;
    const refusing = (() => Promise.reject(new TypeError('fetch failed'))) as typeof fetch;
    const codes = [];
    for (const fetch of [failing, hanging, refusing]) {
      const error = await failureOf(sendWithRetry(request, config(fetch, { maxRetries: 1 })));
      codes.push([error.code, error.attempts]);
    }
    expect(codes).toEqual([
      ['WEFT_OPENAI_HTTP_STATUS', 2],
      ['WEFT_OPENAI_TIMEOUT', 2],
      ['WEFT_OPENAI_NETWORK', 2],
    ]);
  });
});
