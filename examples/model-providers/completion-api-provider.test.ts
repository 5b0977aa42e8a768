import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Runtime } from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CompletionApiProvider } from './completion-api-provider.js';

let server: Server;
let baseUrl: string;
const seen: { authorization?: string; body: Record<string, unknown> }[] = [];
/** Resolves when the connection of a request the stand-in never answers is closed by the caller. */
let hungRequestClosed: Promise<void> = Promise.resolve();

beforeAll(async () => {
  // A stand-in for the completion service.
  server = createServer((request, response) => {
    if (request.url === '/health') return void response.end('ok');
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      seen.push({
        authorization: request.headers.authorization,
        body: JSON.parse(raw),
      });
      // Never answers: only the caller's signal ends such a request.
      if (raw.includes('hang')) {
        hungRequestClosed = new Promise((closed) =>
          response.on('close', () => closed()),
        );
        return;
      }
      const status = raw.includes('fail') ? 500 : 200;
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(
        status === 200
          ? JSON.stringify({ output: 'Hello!', usage: { input: 7, output: 2 } })
          : '{"error":"boom"}',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function start(token: string) {
  const provider = new CompletionApiProvider({
    baseUrl,
    token: async () => token,
  });
  const runtime = await Runtime.init({
    models: [provider],
    memory: new InMemoryMemoryProvider(),
    plugins: [],
    options: { logger: pino({ level: 'silent' }), analytics: true },
  });
  return { runtime, provider };
}

describe('CompletionApiProvider', () => {
  it('serves text-generation and reports token usage [claim:mpo-example-provider] [claim:mpo-example-usage]', async () => {
    const { runtime, provider } = await start('s3cret');
    await runtime.start();
    try {
      expect(await provider.checkHealth()).toBe(true);
      const text = await runtime.models.generateText('Say hello', {
        options: { maxTokens: 5 },
      });
      expect(text).toBe('Hello!');
      expect(seen.at(-1)).toEqual({
        authorization: 'Bearer s3cret',
        body: {
          messages: [{ role: 'user', content: 'Say hello' }],
          max_tokens: 5,
        },
      });
      expect(runtime.analytics.snapshot().tokens).toEqual({
        input: 7,
        output: 2,
      });
    } finally {
      await runtime.stop();
    }
  });

  it('wraps a failed request in an error naming the provider [claim:mpo-run-throws] [claim:mpo-example-usage]', async () => {
    const { runtime } = await start('s3cret');
    await runtime.start();
    try {
      const failure = runtime.models.generateText('please fail', {
        options: {},
      });
      await expect(failure).rejects.toThrow(
        'ModelManager: provider "completion-api" failed on capability "text-generation": POST /v1/complete answered 500: {"error":"boom"} [WEFT_PROVIDER_FAILED]',
      );
      // The provider's own error is kept as the cause.
      await expect(failure).rejects.toMatchObject({
        code: 'WEFT_PROVIDER_FAILED',
        cause: expect.objectContaining({
          message: 'POST /v1/complete answered 500: {"error":"boom"}',
        }),
      });
    } finally {
      await runtime.stop();
    }
  });

  it("passes the caller's abort signal on to fetch [claim:mpo-example-provider]", async () => {
    const { runtime } = await start('s3cret');
    await runtime.start();
    try {
      const controller = new AbortController();
      const asked = seen.length;
      const pending = runtime.models
        .generateText('please hang', { signal: controller.signal })
        .catch((error: unknown) => error);
      await vi.waitFor(() => expect(seen.length).toBe(asked + 1));
      const abortedAt = Date.now();
      controller.abort();
      // The call ends with the signal's reason, and fetch closes the request: well before the
      // provider's own 30 s timeout.
      expect(await pending).toBe(controller.signal.reason);
      await hungRequestClosed;
      expect(Date.now() - abortedAt).toBeLessThan(2_000);
    } finally {
      await runtime.stop();
    }
  });

  it('ends a request the service never answers after its own timeoutMs, without a signal from the caller [claim:mpo-example-provider]', async () => {
    const provider = new CompletionApiProvider({
      baseUrl,
      token: 's3cret',
      timeoutMs: 200,
    });
    const runtime = await Runtime.init({
      models: [provider],
      memory: new InMemoryMemoryProvider(),
      plugins: [],
      options: { logger: pino({ level: 'silent' }) },
    });
    await runtime.start();
    try {
      const asked = seen.length;
      const startedAt = Date.now();
      const error = await runtime.models
        .generateText('please hang')
        .catch((caught: unknown) => caught);
      expect(seen.length).toBe(asked + 1);
      // The provider's own timeout fired: fetch rejected with a TimeoutError, which the runtime
      // wrapped, and the request was closed.
      expect(error).toMatchObject({
        code: 'WEFT_PROVIDER_FAILED',
        cause: expect.objectContaining({ name: 'TimeoutError' }),
      });
      await hungRequestClosed;
      expect(Date.now() - startedAt).toBeLessThan(2_000);
    } finally {
      await runtime.stop();
    }
  });

  it('answers false from checkHealth when the service hangs, after timeoutMs', async () => {
    // A service that accepts the connection and never answers.
    const hung = createServer(() => undefined);
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    try {
      const provider = new CompletionApiProvider({
        baseUrl: `http://127.0.0.1:${(hung.address() as AddressInfo).port}`,
        token: 's3cret',
        timeoutMs: 200,
      });
      const started = Date.now();
      expect(await provider.checkHealth()).toBe(false);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      hung.closeAllConnections();
      await new Promise<void>((resolve) => hung.close(() => resolve()));
    }
  });

  it('stops the runtime from starting without a token [claim:mpo-init-fails] [claim:mpo-example-provider]', async () => {
    // An empty secret, and an unset one (process.env.TOKEN when TOKEN is not set).
    for (const token of ['', undefined as unknown as string]) {
      const { runtime } = await start(token);
      await expect(runtime.start()).rejects.toThrow(
        'Runtime.start: model provider "completion-api" failed to initialise: the token is empty',
      );
    }
  });
});
