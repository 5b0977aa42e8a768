import { Runtime } from '@weft/core';
import {
  OpenAIModelProvider,
  OpenAIModelProviderError,
} from '@weft/model-openai';
import { InMemoryMemoryProvider } from '@weft/testing';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lmStudio, ollama, openai, vllm } from './openai-providers.js';

describe('OpenAIModelProvider configurations', () => {
  it('builds one provider per server, each with its own id (no request is sent) [claim:mpo-one-instance]', async () => {
    const providers = [openai(), ollama(), vllm(), lmStudio()];
    expect(providers.map((p) => [p.id, p.baseUrl])).toEqual([
      ['openai', 'https://api.openai.com/v1'],
      ['ollama', 'http://localhost:11434/v1'],
      ['vllm', 'http://localhost:8000/v1'],
      ['lm-studio', 'http://localhost:1234/v1'],
    ]);
    const runtime = await Runtime.init({
      models: providers,
      memory: new InMemoryMemoryProvider(),
      plugins: [],
      options: {
        logger: pino({ level: 'silent' }),
        defaultProviders: { 'text-generation': 'ollama' },
      },
    });
    expect(runtime.models.canProvide('text-generation')).toBe(true);
  });

  it('retries a 503 with backoff and succeeds', async () => {
    const statuses = [503, 503, 200];
    const model = new OpenAIModelProvider({
      baseUrl: 'https://llm.example.com/v1',
      model: 'test-model',
      maxRetries: 3,
      retryBaseDelayMs: 1,
      // A stand-in for the network: two overloaded answers, then a completion.
      fetch: async () => {
        const status = statuses.shift()!;
        const body =
          status === 200
            ? { choices: [{ message: { content: 'Hi!' } }] }
            : { error: { message: 'overloaded' } };
        return new Response(JSON.stringify(body), { status });
      },
    });
    const runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [],
      options: { logger: pino({ level: 'silent' }) },
    });
    expect(
      await runtime.models.generateText('Hello', {
        options: { temperature: 0 },
      }),
    ).toBe('Hi!');
    expect(statuses).toEqual([]);
  });

  it('fails at once on a 401, naming the provider and the API message [claim:trouble-401-no-retry] [claim:trouble-500-no-details] [claim:mpo-error-fields]', async () => {
    const model = new OpenAIModelProvider({
      baseUrl: 'https://llm.example.com/v1',
      model: 'test-model',
      fetch: async () =>
        new Response('{"error":{"message":"Incorrect API key provided"}}', {
          status: 401,
        }),
    });
    const [generate] = model.capabilities;
    const failure = generate!.run(
      { messages: [{ role: 'user', content: 'Hi' }] },
      {},
    );
    await expect(failure).rejects.toBeInstanceOf(OpenAIModelProviderError);
    await expect(failure).rejects.toMatchObject({
      code: 'WEFT_OPENAI_HTTP_STATUS',
      httpStatus: 401,
      attempts: 1,
    });
    // A Response built here has no reason phrase, so none follows the status.
    await expect(failure).rejects.toThrow(
      'OpenAIModelProvider "openai": request failed with 401: Incorrect API key provided [WEFT_OPENAI_HTTP_STATUS]',
    );
  });

  it('rejects a bad option when constructed [claim:mpo-options-validated] [claim:oai-baseurl]', () => {
    expect(
      () =>
        new OpenAIModelProvider({
          baseUrl: 'localhost:11434',
          model: 'llama3.1:8b',
        }),
    ).toThrow(
      'OpenAIModelProvider: option "baseUrl" must be an absolute http(s) URL, got "localhost:11434"',
    );
  });

  describe('a slow local model', () => {
    afterEach(() => {
      vi.useRealTimers();
      vi.unstubAllGlobals();
    });

    /** A server whose answer takes 90 s, on fake timers; the request's signal cancels it. */
    function answerAfter90Seconds(): void {
      vi.useFakeTimers();
      vi.stubGlobal('fetch', (_url: string, init: RequestInit) => {
        return new Promise<Response>((resolve, reject) => {
          const timer = setTimeout(() => {
            const body = { choices: [{ message: { content: 'Loaded.' } }] };
            resolve(new Response(JSON.stringify(body)));
          }, 90_000);
          init.signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(init.signal?.reason);
          });
        });
      });
    }

    async function ask(model: OpenAIModelProvider): Promise<unknown> {
      const runtime = await Runtime.init({
        models: [model],
        memory: new InMemoryMemoryProvider(),
        plugins: [],
        options: { logger: pino({ level: 'silent' }) },
      });
      const answer = runtime.models
        .generateText('Hello')
        .catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(120_000);
      return answer;
    }

    it('gets its answer with both timeouts raised, as ollama() does [claim:mpo-ollama-deadline]', async () => {
      answerAfter90Seconds();
      expect(await ask(ollama())).toBe('Loaded.');
    });

    it('still gives up after 60 s with timeoutMs raised alone [claim:mpo-ollama-deadline] [claim:oai-ollama-timeouts]', async () => {
      answerAfter90Seconds();
      const model = new OpenAIModelProvider({
        id: 'ollama',
        baseUrl: 'http://localhost:11434/v1',
        model: 'llama3.1:8b',
        timeoutMs: 180_000,
      });
      const error = await ask(model);
      expect(OpenAIModelProviderError.is(error, 'WEFT_OPENAI_TIMEOUT')).toBe(
        true,
      );
    });
  });
});
