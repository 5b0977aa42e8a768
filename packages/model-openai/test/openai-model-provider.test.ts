import { connect, type LookupFunction } from 'node:net';
import {
  ModelProvider,
  Runtime,
  TEXT_GENERATION_CAPABILITY,
  type ModelRequestConfig,
} from '@weft/core';
import { WeftError } from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  OpenAIModelProvider,
  OpenAIModelProviderError,
  type OpenAIModelProviderOptions,
} from '../src/index.js';
import { completion, hang, reply, type Handler } from './chat-server.js';
import { chatServerPerTest } from './support/chat-server-per-test.js';
import { failure } from './support/failure.js';

const MESSAGES = {
  messages: [
    { role: 'system' as const, content: 'Be brief.' },
    { role: 'user' as const, content: 'Say hi.' },
  ],
};

const server = chatServerPerTest();

function provider(options: Partial<OpenAIModelProviderOptions> = {}): OpenAIModelProvider {
  return new OpenAIModelProvider({
    baseUrl: server.baseUrl,
    model: 'test-model',
    retryBaseDelayMs: 1,
    ...options,
  });
}

async function generate(
  target: OpenAIModelProvider,
  request: ModelRequestConfig<{ temperature?: number; maxTokens?: number; json?: boolean }> = {},
  input: unknown = MESSAGES,
): Promise<unknown> {
  const capability = target.capabilities.find((c) => c.id === TEXT_GENERATION_CAPABILITY);
  if (capability === undefined) throw new Error('text-generation capability missing');
  return capability.run(input, request);
}

describe('OpenAIModelProvider', () => {
  it('is a ModelProvider offering text-generation [claim:oai-offers-retries]', () => {
    const target = provider();
    expect(target).toBeInstanceOf(ModelProvider);
    expect(target.id).toBe('openai');
    expect(target.capabilities.map((c) => c.id)).toEqual([TEXT_GENERATION_CAPABILITY]);
    expect(provider({ id: 'ollama' }).id).toBe('ollama');
  });

  describe('text-generation', () => {
    it('posts a chat completion and maps the answer and usage [claim:mpo-chat-completions] [claim:oai-mapping] [claim:oai-per-call]', async () => {
      server.enqueue(completion('Hi!', { prompt_tokens: 21, completion_tokens: 2 }));
      const target = provider({
        apiKey: 'sk-test',
        baseUrl: `${server.baseUrl}/`,
        headers: { 'X-Team': 'weft' },
      });

      const output = await generate(target, { options: { temperature: 0.2, maxTokens: 50 } });

      expect(output).toEqual({ text: 'Hi!', usage: { inputTokens: 21, outputTokens: 2 } });
      expect(server.requests).toHaveLength(1);
      const [request] = server.requests;
      expect(request?.method).toBe('POST');
      expect(request?.url).toBe('/v1/chat/completions');
      expect(request?.headers.authorization).toBe('Bearer sk-test');
      expect(request?.headers['content-type']).toBe('application/json');
      expect(request?.headers['x-team']).toBe('weft');
      expect(request?.json).toEqual({
        model: 'test-model',
        messages: MESSAGES.messages,
        temperature: 0.2,
        max_tokens: 50,
      });
    });

    it('asks for the whole answer at once, never a stream, and returns its whole text [claim:trouble-client-waits-task]', async () => {
      server.enqueue(completion('The whole reply, in one piece.', null));
      const output = await generate(provider());
      expect(output).toEqual({ text: 'The whole reply, in one piece.' });
      const [request] = server.requests;
      // `stream: true` would make the server send the reply in parts, as server-sent events.
      expect((request?.json as { stream?: unknown }).stream ?? false).toBe(false);
    });

    it('sends no Authorization header without a key, and omits unset fields [claim:mpo-default-temperature] [claim:mpo-apikey-function] [claim:oai-apikey] [claim:oai-empty-key]', async () => {
      server.enqueue(completion('ok', null));
      const output = await generate(provider());
      expect(output).toEqual({ text: 'ok' });
      const [request] = server.requests;
      expect(request?.headers.authorization).toBeUndefined();
      expect(request?.json).toEqual({ model: 'test-model', messages: MESSAGES.messages });
    });

    it('resolves a function apiKey again for each call and applies defaultTemperature [claim:mpo-default-temperature] [claim:mpo-apikey-function] [claim:mpo-resolve] [claim:oai-apikey] [claim:oai-per-call] [claim:wp-key-function]', async () => {
      server.enqueue(completion('one'), completion('two'));
      let calls = 0;
      const target = provider({
        apiKey: async () => `sk-${++calls}`,
        defaultTemperature: 0.7,
      });
      await generate(target);
      await generate(target, { options: { temperature: 0 } });
      expect(server.requests.map((r) => r.headers.authorization)).toEqual([
        'Bearer sk-1',
        'Bearer sk-2',
      ]);
      expect(server.requests.map((r) => (r.json as { temperature: number }).temperature)).toEqual([
        0.7, 0,
      ]);
    });

    it('reads a function apiKey once per call: its retries reuse the key [claim:mpo-apikey-function] [claim:oai-apikey] [claim:wp-key-function] [claim:tsdoc-openai-api-key]', async () => {
      server.enqueue(reply(503, 'upstream busy'), completion('fine'));
      let calls = 0;
      const target = provider({ apiKey: () => `sk-${++calls}` });
      expect(await generate(target)).toMatchObject({ text: 'fine' });
      expect(calls).toBe(1);
      expect(server.requests.map((r) => r.headers.authorization)).toEqual([
        'Bearer sk-1',
        'Bearer sk-1',
      ]);
    });

    it('reports an apiKey function that throws, with no attempts or status [claim:mpo-error-fields] [claim:oai-apikey-throws] [claim:tsdoc-openai-api-key] [claim:oai-errors]', async () => {
      const target = provider({
        apiKey: () => {
          throw new Error('vault sealed');
        },
      });
      const error = await failure(generate(target));
      expect(error.code).toBe('WEFT_OPENAI_API_KEY');
      expect(error.message).toBe(
        'OpenAIModelProvider "openai": could not read option "apiKey": vault sealed [WEFT_OPENAI_API_KEY]',
      );
      expect(error.attempts).toBeUndefined();
      expect(error.httpStatus).toBeUndefined();
      expect(server.requests).toHaveLength(0);
    });

    it('shortens a long reason phrase and API message to one line of 200 characters each [claim:oai-messages]', async () => {
      server.enqueue((_request, response) => {
        response.writeHead(401, 'Unauthorized'.padEnd(10_000, '!'), {
          'Content-Type': 'application/json',
        });
        response.end(JSON.stringify({ error: { message: `Bad\n${'key '.repeat(1_000)}` } }));
      });
      const error = await failure(generate(provider()));
      const reason = `Unauthorized${'!'.repeat(188)}…`;
      const apiMessage = `Bad ${'key '.repeat(49)}…`;
      expect(error.message).toBe(
        `OpenAIModelProvider "openai": request failed with 401 ${reason}: ${apiMessage} [WEFT_OPENAI_HTTP_STATUS]`,
      );
    });

    it('quotes error.message, else an error, message or detail string, else the body [claim:oai-messages]', async () => {
      const bodies = [
        { error: { message: 'from error.message' }, detail: 'not this' },
        { error: 'from error' },
        { message: 'from message' },
        { detail: 'from detail' },
        '<html>\n<body>Bad   gateway</body>\n</html>',
      ];
      const messages = [];
      for (const body of bodies) {
        server.enqueue(reply(400, body));
        messages.push((await failure(generate(provider()))).message);
      }
      expect(messages).toEqual(
        [
          'from error.message',
          'from error',
          'from message',
          'from detail',
          '<html> <body>Bad gateway</body> </html>',
        ].map(
          (quoted) =>
            `OpenAIModelProvider "openai": request failed with 400 Bad Request: ${quoted} [WEFT_OPENAI_HTTP_STATUS]`,
        ),
      );
    });

    it("ends the first line with the code when the apiKey function's error runs onto a second line [claim:oai-messages]", async () => {
      const target = provider({
        apiKey: () => {
          throw new Error('vault sealed\nretry after unsealing');
        },
      });
      const error = await failure(generate(target));
      expect(error.message).toBe(
        'OpenAIModelProvider "openai": could not read option "apiKey": vault sealed [WEFT_OPENAI_API_KEY]\nretry after unsealing',
      );
    });

    it('sends no Authorization header when the apiKey function resolves to an empty string, and refuses a non-string (TSDoc of apiKey) [claim:tsdoc-openai-api-key] [claim:oai-empty-key] [claim:mpo-apikey-function] [claim:oai-apikey-throws] [claim:oai-errors]', async () => {
      server.enqueue(completion('ok'));
      await generate(provider({ apiKey: () => '' }));
      expect(server.requests[0]?.headers.authorization).toBeUndefined();
      // White space alone (a blank variable, an empty key file read with its line break) is no
      // key either: no header, rather than "Bearer" with nothing after it.
      for (const blank of ['  ', '\n', ' \t\r\n']) {
        server.enqueue(completion('ok'));
        await generate(provider({ apiKey: async () => blank }));
      }
      expect(server.requests.map((request) => request.headers.authorization)).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
      const error = await failure(
        generate(provider({ apiKey: async () => 42 as unknown as string })),
      );
      expect(error.code).toBe('WEFT_OPENAI_API_KEY');
      expect(error.message).toBe(
        'OpenAIModelProvider "openai": option "apiKey" must resolve to a string, got number [WEFT_OPENAI_API_KEY]',
      );
      expect(error.attempts).toBeUndefined();
      expect(server.requests).toHaveLength(4);
    });

    it('refuses a key no header can carry with its own error, never quoting the key [claim:mpo-no-secret-echo] [claim:mpo-error-fields] [claim:tsdoc-openai-api-key] [claim:errors-openai-api-key-unsendable] [claim:oai-apikey-throws] [claim:oai-errors]', async () => {
      // fetch's own error for such a header quotes it whole, key included; an escape or another
      // control character passes Headers but makes fetch fail as a network error on every retry.
      for (const key of [
        'sk-secret-2\nX',
        'sk-secret-2\u0000',
        'sk-secret-2\u20ac',
        'sk-secret-2\u001bX',
        'sk-secret-2\u007fX',
        // A C1 control character, such as a next-line, would be sent as a raw byte: refused too.
        'sk-secret-2\u0085X',
      ]) {
        const error = await failure(generate(provider({ apiKey: async () => key })));
        expect(error.code).toBe('WEFT_OPENAI_API_KEY');
        expect(error.message).toBe(
          'OpenAIModelProvider "openai": option "apiKey" gave a key that no HTTP header can carry (it holds a control character other than a tab, such as a line break or a NUL, or a character beyond Latin-1 such as €); the key is not shown [WEFT_OPENAI_API_KEY]',
        );
        expect(error.attempts).toBeUndefined();
      }
      expect(server.requests).toHaveLength(0);
      // Given directly, the constructor refuses it, without quoting it either.
      const create = () => provider({ apiKey: 'sk-secret-2\nX' });
      expect(create).toThrow(
        /option "apiKey" must be a non-empty string \(not white space alone\) or a function returning one, without a control character other than a tab \(such as a line break or a NUL\) or a character beyond Latin-1, got a string \[WEFT_OPENAI_INVALID_OPTIONS\]$/,
      );
      for (const key of ['sk-secret-2\u0001X', 'sk-secret-2\u009bX']) {
        expect(() => provider({ apiKey: key })).toThrow(
          /option "apiKey" .*got a string \[WEFT_OPENAI_INVALID_OPTIONS\]$/,
        );
      }
      // White space around the key (a line break at the end of a key file, a space before it) is
      // trimmed, so the header holds one space after "Bearer", as a server comparing it whole
      // expects. A tab inside is a character a header may carry, and so is a Latin-1 letter.
      server.enqueue(completion('ok'), completion('ok'), completion('ok'), completion('ok'));
      server.enqueue(completion('ok'), completion('ok'));
      await generate(provider({ apiKey: () => 'sk-padded\n' }));
      await generate(provider({ apiKey: () => '\nsk-padded' }));
      await generate(provider({ apiKey: async () => ' sk-padded \r\n' }));
      await generate(provider({ apiKey: ' sk-padded\n' }));
      await generate(provider({ apiKey: () => 'sk-a\tb' }));
      await generate(provider({ apiKey: () => 'sk-\u00e9' }));
      expect(server.requests.map((request) => request.headers.authorization)).toEqual([
        'Bearer sk-padded',
        'Bearer sk-padded',
        'Bearer sk-padded',
        'Bearer sk-padded',
        'Bearer sk-a\tb',
        'Bearer sk-\u00e9',
      ]);
    });

    it('asks for a JSON object when options.json is set [claim:go-json-mode] [claim:mpo-json-mode] [claim:oai-json]', async () => {
      server.enqueue(completion('{"a":1}'));
      const output = await generate(provider(), { options: { json: true } });
      expect(output).toMatchObject({ text: '{"a":1}' });
      expect(server.requests[0]?.json).toMatchObject({
        response_format: { type: 'json_object' },
      });
    });

    it('retries after a 429, honouring Retry-After: 0 [claim:mpo-retries] [claim:oai-retries] [claim:oai-retry-after] [claim:wp-openai-retries]', async () => {
      server.enqueue(
        reply(429, { error: { message: 'Rate limit reached' } }, { 'Retry-After': '0' }),
        completion('after the wait'),
      );
      // With a 10 s base delay the test would time out unless Retry-After is honoured.
      const target = provider({ retryBaseDelayMs: 10_000 });
      const started = Date.now();
      const output = await generate(target);
      expect(output).toMatchObject({ text: 'after the wait' });
      expect(server.requests).toHaveLength(2);
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it('retries 5xx answers and names the attempts when they run out [claim:oai-readme-retried-status-row] [claim:oai-messages] [claim:mpo-retries] [claim:oai-retries] [claim:oai-errors] [claim:oai-offers-retries] [claim:wp-openai-retries]', async () => {
      server.enqueue(
        ...Array.from({ length: 3 }, () =>
          reply(500, { error: { message: 'The server had an error' } }),
        ),
      );
      const error = await failure(generate(provider({ maxRetries: 2 })));
      expect(server.requests).toHaveLength(3);
      expect(error.code).toBe('WEFT_OPENAI_HTTP_STATUS');
      expect(error.httpStatus).toBe(500);
      expect(error.attempts).toBe(3);
      expect(error.message).toBe(
        'OpenAIModelProvider "openai": request failed after 3 attempts; last status 500 Internal Server Error: The server had an error [WEFT_OPENAI_HTTP_STATUS]',
      );
    });

    it('makes one attempt when maxRetries is 0 [claim:oai-retries]', async () => {
      server.enqueue(reply(503, { error: { message: 'overloaded' } }), completion('never asked'));
      const error = await failure(generate(provider({ maxRetries: 0 })));
      expect(server.requests).toHaveLength(1);
      expect(error).toMatchObject({
        code: 'WEFT_OPENAI_HTTP_STATUS',
        httpStatus: 503,
        attempts: 1,
      });
      expect(error.message).toContain('request failed after 1 attempt; last status 503');
    });

    it('recovers when a 5xx is followed by a success', async () => {
      server.enqueue(reply(503, 'upstream busy'), completion('fine'));
      await expect(generate(provider())).resolves.toMatchObject({ text: 'fine' });
      expect(server.requests).toHaveLength(2);
    });

    it('fails at once on a 400, with the API error message [claim:mpo-4xx-no-retry] [claim:oai-error-table]', async () => {
      server.enqueue(
        reply(400, {
          error: {
            message: "Invalid value for 'temperature'",
            type: 'invalid_request_error',
          },
        }),
      );
      const error = await failure(generate(provider({ id: 'main', maxRetries: 3 })));
      expect(server.requests).toHaveLength(1);
      expect(error.code).toBe('WEFT_OPENAI_HTTP_STATUS');
      expect(error.httpStatus).toBe(400);
      expect(error.message).toBe(
        `OpenAIModelProvider "main": request failed with 400 Bad Request: Invalid value for 'temperature' [WEFT_OPENAI_HTTP_STATUS]`,
      );
    });

    it('fails at once on a 401, naming the status [claim:mpo-error-message-example] [claim:trouble-401-no-retry] [claim:mpo-4xx-no-retry] [claim:mpo-error-fields] [claim:oai-error-table]', async () => {
      server.enqueue(reply(401, { error: { message: 'Incorrect API key provided' } }));
      const error = await failure(generate(provider({ apiKey: 'bad' })));
      expect(server.requests).toHaveLength(1);
      expect(error.message).toBe(
        'OpenAIModelProvider "openai": request failed with 401 Unauthorized: Incorrect API key provided [WEFT_OPENAI_HTTP_STATUS]',
      );
    });

    it("quotes the API's own error message as it is, even when the server echoes the key [claim:mpo-api-message-quoted]", async () => {
      server.enqueue(reply(401, { error: { message: 'Unknown key sk-echoed-3' } }));
      const error = await failure(generate(provider({ apiKey: 'sk-echoed-3' })));
      expect(error.message).toBe(
        'OpenAIModelProvider "openai": request failed with 401 Unauthorized: Unknown key sk-echoed-3 [WEFT_OPENAI_HTTP_STATUS]',
      );
    });

    it('leaves out a usage that is not a whole number of tokens up to MAX_SAFE_INTEGER, so the runtime accepts the text [claim:oai-mapping]', async () => {
      const counts = [1e300, 2 ** 53, 1.5, -1, '7'];
      for (const count of counts) {
        server.enqueue(
          reply(200, {
            choices: [{ message: { content: 'Hi!' } }],
            usage: { prompt_tokens: count, completion_tokens: 2 },
          }),
        );
      }
      const runtime = await Runtime.init({
        models: [provider()],
        memory: new InMemoryMemoryProvider(),
        plugins: [],
      });
      for (const count of counts) {
        const output = await runtime.models.call('text-generation', MESSAGES);
        expect({ count, output }).toEqual({ count, output: { text: 'Hi!' } });
      }
    });

    it("lets the runtime's own checks fail a call before the provider sends anything [claim:oai-runtime-own-errors]", async () => {
      const runtime = await Runtime.init({
        models: [provider()],
        memory: new InMemoryMemoryProvider(),
        plugins: [],
      });
      const invalid: unknown = await runtime.models
        .call('text-generation', MESSAGES, { options: { temperature: 5 } })
        .catch((error: unknown) => error);
      expect(WeftError.is(invalid, 'WEFT_VALIDATION_FAILED')).toBe(true);
      const reason = new Error('the user left');
      const aborted: unknown = await runtime.models
        .call('text-generation', MESSAGES, { signal: AbortSignal.abort(reason) })
        .catch((error: unknown) => error);
      expect(aborted).toBe(reason);
      expect(OpenAIModelProviderError.is(aborted)).toBe(false);
      expect(server.requests).toHaveLength(0);
    });

    it('rejects a body that is not JSON [claim:oai-invalid-response]', async () => {
      server.enqueue(reply(200, '<html>gateway</html>'));
      const error = await failure(generate(provider()));
      expect(error.code).toBe('WEFT_OPENAI_INVALID_RESPONSE');
      expect(error.message).toBe(
        'OpenAIModelProvider "openai": invalid chat completion response: the body is not JSON: <html>gateway</html> [WEFT_OPENAI_INVALID_RESPONSE]',
      );
      expect(server.requests).toHaveLength(1);
    });

    it('gives an answer that is not a completion the status of that answer and the attempts it took [claim:mpo-error-fields] [claim:oai-invalid-response]', async () => {
      server.enqueue(reply(503, 'busy'), reply(200, '<html>gateway</html>'));
      const error = await failure(generate(provider({ retryBaseDelayMs: 1 })));
      expect(error.code).toBe('WEFT_OPENAI_INVALID_RESPONSE');
      expect(error).toMatchObject({ httpStatus: 200, attempts: 2 });
      expect(server.requests).toHaveLength(2);
    });

    it('rejects JSON without choices, and choices without a content string [claim:oai-invalid-response]', async () => {
      server.enqueue(
        reply(200, { id: 'x', object: 'chat.completion' }),
        reply(200, { choices: [{ message: { role: 'assistant', content: null } }] }),
        reply(200, { choices: [{ index: 0 }] }),
      );
      const target = provider();
      expect((await failure(generate(target))).message).toContain('"choices" is missing or empty');
      expect((await failure(generate(target))).message).toContain(
        '"choices[0].message.content" is not a string (got null)',
      );
      expect((await failure(generate(target))).message).toContain(
        '"choices[0].message" is missing',
      );
    });

    it('reports content nested too deep to write back as an invalid response, not a RangeError [claim:oai-errors] [claim:oai-invalid-response]', async () => {
      // JSON.parse reads this, but JSON.stringify of the content overflows the stack.
      const depth = 1_000_000;
      const content = `${'['.repeat(depth)}${']'.repeat(depth)}`;
      server.enqueue(reply(200, `{"choices":[{"message":{"content":${content}}}]}`));
      const error = await failure(generate(provider()));
      expect(error.code).toBe('WEFT_OPENAI_INVALID_RESPONSE');
      expect(error).toMatchObject({ httpStatus: 200, attempts: 1 });
      expect(error.message).toBe(
        'OpenAIModelProvider "openai": invalid chat completion response: "choices[0].message.content" is not a string (got an array nested too deep to show) [WEFT_OPENAI_INVALID_RESPONSE]',
      );
    });

    it('times out, retries, and says after how long [claim:mpo-retries] [claim:mpo-error-message-example] [claim:oai-retries] [claim:oai-timeout-row] [claim:wp-openai-retries]', async () => {
      server.enqueue(hang(), hang());
      const error = await failure(generate(provider({ timeoutMs: 100, maxRetries: 1 })));
      expect(server.requests).toHaveLength(2);
      expect(error.code).toBe('WEFT_OPENAI_TIMEOUT');
      expect(error.message).toBe(
        'OpenAIModelProvider "openai": request timed out after 100 ms (2 attempts) [WEFT_OPENAI_TIMEOUT]',
      );
    });

    it('reports a network failure with the URL [claim:oai-network]', async () => {
      const unreachable = server.baseUrl;
      await server.close();
      const error = await failure(
        generate(provider({ baseUrl: unreachable, maxRetries: 1, timeoutMs: 2_000 })),
      );
      expect(error.code).toBe('WEFT_OPENAI_NETWORK');
      expect(error.message).toContain(
        `could not reach POST ${unreachable}/chat/completions (2 attempts)`,
      );
      // The system's reason, as the README's example shows it.
      const { port } = new URL(unreachable);
      expect(error.message).toMatch(
        new RegExp(
          `: fetch failed \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\) \\[WEFT_OPENAI_NETWORK\\]$`,
        ),
      );
    });

    it('reports an answer cut off half-way as broken off, with its status, not as a server it could not reach [claim:oai-network] [claim:mpo-error-fields] [claim:errors-openai-network-no-time]', async () => {
      // The server sends a 200 and part of its body, then closes the connection.
      const cut = (status = 200): Handler => {
        return (_request, response) => {
          response.writeHead(status, {
            'Content-Type': 'application/json',
            'Content-Length': '200',
          });
          response.write('{"choices":[');
          setTimeout(() => response.socket?.destroy(), 10);
        };
      };
      // A 503 that breaks off is retried like a 200 that does; the last one gives the status.
      server.enqueue(cut(503), cut());
      const error = await failure(generate(provider({ maxRetries: 1, timeoutMs: 2_000 })));
      expect(server.requests).toHaveLength(2);
      expect(error.code).toBe('WEFT_OPENAI_NETWORK');
      expect(error.httpStatus).toBe(200);
      expect(error.attempts).toBe(2);
      expect(error.message).toMatch(
        new RegExp(
          `^OpenAIModelProvider "openai": the answer to POST ${server.baseUrl.replace(/\./g, '\\.')}/chat/completions \\(status 200\\) broke off before its end \\(2 attempts\\): terminated`,
        ),
      );
      expect(error.message).not.toContain('could not reach');

      server.enqueue(cut(429), cut(503));
      const retried = await failure(generate(provider({ maxRetries: 1, timeoutMs: 2_000 })));
      expect(server.requests).toHaveLength(4);
      expect(retried).toMatchObject({ code: 'WEFT_OPENAI_NETWORK', httpStatus: 503, attempts: 2 });
      expect(retried.message).toContain('(status 503) broke off before its end (2 attempts)');
    });

    it('fails at once on a 3xx, which is never followed [claim:oai-error-table]', async () => {
      // A redirect without a Location header is handed back by fetch as it is.
      server.enqueue(reply(302, ''));
      const error = await failure(generate(provider({ maxRetries: 2 })));
      expect(server.requests).toHaveLength(1);
      expect(error).toMatchObject({
        code: 'WEFT_OPENAI_HTTP_STATUS',
        httpStatus: 302,
        attempts: 1,
      });
      expect(error.message).toBe(
        'OpenAIModelProvider "openai": request failed with 302 Found [WEFT_OPENAI_HTTP_STATUS]',
      );
    });

    it.each([600, 999])(
      'fails at once on a %i, a status HTTP gives no meaning [claim:oai-error-table]',
      async (status) => {
        server.enqueue(reply(status, { error: { message: 'odd' } }));
        const error = await failure(generate(provider({ maxRetries: 2 })));
        expect(server.requests).toHaveLength(1);
        expect(error).toMatchObject({
          code: 'WEFT_OPENAI_HTTP_STATUS',
          httpStatus: status,
          attempts: 1,
        });
      },
    );

    it('fails a 401 at once even when its body breaks off or stalls [claim:mpo-4xx-no-retry] [claim:oai-error-table] [claim:errors-openai-http-status-3xx] [claim:errors-openai-network-no-time] [claim:errors-openai-timeout-last-status]', async () => {
      const cut: Handler = (_request, response) => {
        response.writeHead(401, { 'Content-Type': 'application/json', 'Content-Length': '200' });
        response.write('{"error":');
        setTimeout(() => response.socket?.destroy(), 10);
      };
      server.enqueue(cut);
      const broken = await failure(generate(provider({ maxRetries: 2, timeoutMs: 2_000 })));
      expect(server.requests).toHaveLength(1);
      expect(broken.code).toBe('WEFT_OPENAI_HTTP_STATUS');
      expect(broken.httpStatus).toBe(401);
      expect(broken.attempts).toBe(1);
      expect(broken.message).toMatch(
        /^OpenAIModelProvider "openai": request failed with 401 Unauthorized \(its answer broke off before its end: terminated/,
      );

      const stall: Handler = (_request, response) => {
        response.writeHead(404, { 'Content-Type': 'application/json' });
        response.write('{"error":');
      };
      server.enqueue(stall);
      const stalled = await failure(generate(provider({ maxRetries: 2, timeoutMs: 200 })));
      expect(server.requests).toHaveLength(2);
      expect(stalled.code).toBe('WEFT_OPENAI_HTTP_STATUS');
      expect(stalled.httpStatus).toBe(404);
      expect(stalled.message).toBe(
        'OpenAIModelProvider "openai": request failed with 404 Not Found (its answer was still arriving after 200 ms) [WEFT_OPENAI_HTTP_STATUS]',
      );
    });

    it('fails a 401 or a 3xx whose body is over maxResponseBytes with its status, and a 503 as too large [claim:oai-error-table] [claim:oai-total-error-status] [claim:oai-too-large-row] [claim:mpo-max-response]', async () => {
      const big = `{"error":{"message":"bad key"}}${' '.repeat(100)}`;
      // Declared by Content-Length, and streamed without one.
      const streamed =
        (status: number): Handler =>
        (_request, response) => {
          response.writeHead(status, { 'Content-Type': 'application/json' });
          response.write(big.slice(0, 20));
          response.end(big.slice(20));
        };
      server.enqueue(reply(401, big), streamed(401), streamed(307));
      for (const status of [401, 401, 307]) {
        const error = await failure(generate(provider({ maxRetries: 2, maxResponseBytes: 50 })));
        expect(error).toMatchObject({
          code: 'WEFT_OPENAI_HTTP_STATUS',
          httpStatus: status,
          attempts: 1,
        });
        expect(error.message).toMatch(
          new RegExp(
            `^OpenAIModelProvider "openai": request failed with ${status} [A-Za-z ]+ \\(its answer was larger than option "maxResponseBytes" \\(50 bytes\\)\\) \\[WEFT_OPENAI_HTTP_STATUS\\]$`,
          ),
        );
      }
      expect(server.requests).toHaveLength(3);

      // A status worth asking again about is not retried either, and is reported as too large.
      server.enqueue(streamed(503));
      const error = await failure(generate(provider({ maxRetries: 2, maxResponseBytes: 50 })));
      expect(error).toMatchObject({
        code: 'WEFT_OPENAI_RESPONSE_TOO_LARGE',
        httpStatus: 503,
        attempts: 1,
      });
      expect(server.requests).toHaveLength(4);
    });

    it('refuses an answer whose Content-Length is over maxResponseBytes at once, without waiting for its body [claim:oai-max-bytes]', async () => {
      // The server declares a body one byte over the limit and then sends none of it.
      server.enqueue((_request, response) => {
        response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '51' });
        response.flushHeaders();
      });
      const started = performance.now();
      const error = await failure(
        generate(provider({ maxRetries: 2, maxResponseBytes: 50, timeoutMs: 5_000 })),
      );
      expect(error).toMatchObject({
        code: 'WEFT_OPENAI_RESPONSE_TOO_LARGE',
        httpStatus: 200,
        attempts: 1,
      });
      expect(performance.now() - started).toBeLessThan(4_000);
      expect(server.requests).toHaveLength(1);
    });

    it('fails a 404 still arriving when totalTimeoutMs cuts its attempt short with its status, not a timeout [claim:oai-total-error-status]', async () => {
      const stall: Handler = (_request, response) => {
        response.writeHead(404, { 'Content-Type': 'application/json' });
        response.write('{"error":');
      };
      server.enqueue(stall);
      const error = await failure(
        generate(provider({ maxRetries: 2, timeoutMs: 5_000, totalTimeoutMs: 1_000 })),
      );
      expect(server.requests).toHaveLength(1);
      expect(error.code).toBe('WEFT_OPENAI_HTTP_STATUS');
      expect(error.httpStatus).toBe(404);
      expect(error.attempts).toBe(1);
      expect(error.message).toMatch(
        /^OpenAIModelProvider "openai": request failed with 404 Not Found \(its answer was still arriving after \d+ ms\) \[WEFT_OPENAI_HTTP_STATUS\]$/,
      );
    });

    it('fails a status from 600 to 999 with its status, not a timeout or too large, when totalTimeoutMs cuts it short or it is over maxResponseBytes [claim:oai-total-error-status] [claim:oai-max-bytes] [claim:tsdoc-openai-default-total-timeout-ms] [claim:tsdoc-openai-default-max-response-bytes] [claim:errors-openai-http-status-3xx]', async () => {
      server.enqueue((_request, response) => {
        response.writeHead(600, { 'Content-Type': 'application/json' });
        response.write('{"error":');
      });
      const cut = await failure(
        generate(provider({ maxRetries: 2, timeoutMs: 5_000, totalTimeoutMs: 1_000 })),
      );
      expect(cut).toMatchObject({ code: 'WEFT_OPENAI_HTTP_STATUS', httpStatus: 600, attempts: 1 });
      expect(cut.message).toMatch(/^[^\n]* \(its answer was still arriving after \d+ ms\) \[/);

      server.enqueue(reply(999, 'x'.repeat(100)));
      const large = await failure(generate(provider({ maxRetries: 2, maxResponseBytes: 50 })));
      expect(large).toMatchObject({
        code: 'WEFT_OPENAI_HTTP_STATUS',
        httpStatus: 999,
        attempts: 1,
      });
      expect(large.message).toContain(
        '(its answer was larger than option "maxResponseBytes" (50 bytes))',
      );
      expect(server.requests).toHaveLength(2);
    });

    it('gives the status of an answer still arriving when the attempt times out [claim:oai-timeout-row] [claim:mpo-error-fields] [claim:errors-openai-timeout-last-status]', async () => {
      // The server sends a 200 and the start of its body, then nothing more.
      const stall: Handler = (_request, response) => {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.write('{"choices":[');
      };
      server.enqueue(stall);
      const error = await failure(generate(provider({ maxRetries: 0, timeoutMs: 200 })));
      expect(error.code).toBe('WEFT_OPENAI_TIMEOUT');
      expect(error.httpStatus).toBe(200);
      expect(error.message).toBe(
        'OpenAIModelProvider "openai": request timed out after 200 ms (1 attempt); the answer (status 200) was still arriving [WEFT_OPENAI_TIMEOUT]',
      );
    });

    it('gives the status of an answer still arriving when the signal fires [claim:mpo-error-fields] [claim:oai-errors]', async () => {
      const stall: Handler = (_request, response) => {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.write('{"choices":[');
      };
      server.enqueue(stall);
      const controller = new AbortController();
      const pending = failure(
        generate(provider({ timeoutMs: 5_000 }), { signal: controller.signal }),
      );
      await vi.waitFor(() => expect(server.requests).toHaveLength(1));
      await new Promise((resolve) => setTimeout(resolve, 50));
      controller.abort();
      const error = await pending;
      expect(error.code).toBe('WEFT_OPENAI_ABORTED');
      expect(error.httpStatus).toBe(200);
      expect(error.attempts).toBe(1);
    });

    it("gives the system's reason when localhost, both ::1 and 127.0.0.1, refuses [claim:oai-network] [claim:oai-offers-retries]", async () => {
      const { port } = new URL(server.baseUrl);
      await server.close();
      // Node.js refuses a name with two addresses with an AggregateError that has no message of
      // its own, one reason per address; fetch wraps it as the cause of "fetch failed".
      const lookup: LookupFunction = (_hostname, _options, callback) => {
        (callback as (error: null, addresses: { address: string; family: number }[]) => void)(
          null,
          [
            { address: '::1', family: 6 },
            { address: '127.0.0.1', family: 4 },
          ],
        );
      };
      const dualStackFetch = (() =>
        new Promise<Response>((_resolve, reject) => {
          const socket = connect({ host: 'localhost', port: Number(port), lookup });
          socket.on('error', (cause) => reject(new TypeError('fetch failed', { cause })));
        })) as typeof fetch;
      const error = await failure(
        generate(
          provider({
            baseUrl: `http://localhost:${port}/v1`,
            fetch: dualStackFetch,
            maxRetries: 0,
          }),
        ),
      );
      expect(error.code).toBe('WEFT_OPENAI_NETWORK');
      expect(error.message).toMatch(
        new RegExp(
          `: fetch failed \\(.*connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\) \\[WEFT_OPENAI_NETWORK\\]$`,
        ),
      );
    });

    it('stops at once, without retrying, when the signal aborts a request [claim:mpo-abort] [claim:oai-signal] [claim:oai-aborted-row] [claim:wp-openai-retries]', async () => {
      server.enqueue(hang(), completion('too late'));
      const controller = new AbortController();
      const target = provider({ timeoutMs: 10_000, maxRetries: 3 });
      const pending = generate(target, { signal: controller.signal });
      // Abort once the request is on the server, not before it was sent.
      await vi.waitFor(() => expect(server.requests).toHaveLength(1));
      controller.abort();
      const started = Date.now();
      const error = await failure(pending);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(error.code).toBe('WEFT_OPENAI_ABORTED');
      expect(error.message).toBe(
        'OpenAIModelProvider "openai": request was aborted: This operation was aborted [WEFT_OPENAI_ABORTED]',
      );
      expect(server.requests).toHaveLength(1);
    });

    it('stops while waiting between attempts when the signal aborts [claim:mpo-abort] [claim:oai-signal] [claim:mpo-error-fields]', async () => {
      server.enqueue(reply(503, 'busy', { 'Retry-After': '20' }), completion('too late'));
      const controller = new AbortController();
      const pending = generate(provider(), { signal: controller.signal });
      // Abort once the first attempt was answered, while the provider waits to retry.
      await vi.waitFor(() => expect(server.requests).toHaveLength(1));
      controller.abort(new Error('user went away'));
      const aborted = Date.now();
      const error = await failure(pending);
      // At once, not when the 10 s wait (Retry-After 20, capped) would have ended.
      expect(Date.now() - aborted).toBeLessThan(5_000);
      expect(error.code).toBe('WEFT_OPENAI_ABORTED');
      expect(error.message).toBe(
        'OpenAIModelProvider "openai": request was aborted: user went away [WEFT_OPENAI_ABORTED]',
      );
      // The last attempt was answered: the error keeps that answer's status.
      expect(error).toMatchObject({ httpStatus: 503, attempts: 1 });
      expect(server.requests).toHaveLength(1);
    });

    it('sends nothing when the signal has already fired, and counts 0 attempts [claim:oai-signal] [claim:oai-errors]', async () => {
      const error = await failure(generate(provider(), { signal: AbortSignal.abort() }));
      expect(error.code).toBe('WEFT_OPENAI_ABORTED');
      expect(error.attempts).toBe(0);
      expect(server.requests).toHaveLength(0);
    });

    it('counts 0 attempts when the signal fires after the call began but before its request [claim:oai-errors]', async () => {
      for (const apiKey of [undefined, 'sk-test', () => 'sk-test']) {
        const controller = new AbortController();
        const pending = generate(provider(apiKey === undefined ? {} : { apiKey }), {
          signal: controller.signal,
        });
        // Aborted in the same tick as the call: the key is read, but no request goes out.
        controller.abort();
        const error = await failure(pending);
        expect(error.code).toBe('WEFT_OPENAI_ABORTED');
        expect(error.attempts).toBe(0);
        expect(error.httpStatus).toBeUndefined();
      }
      expect(server.requests).toHaveLength(0);
    });
  });

  describe('called directly, without the runtime', () => {
    it('checks neither the input nor the options against the capability schemas [claim:oai-direct-unchecked] [claim:oai-direct-sent-fields] [claim:mpo-error-fields] [claim:oai-errors]', async () => {
      const error: unknown = await generate(provider(), {}, { prompt: 'Say hi.' }).catch(
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(TypeError);
      expect(OpenAIModelProviderError.is(error)).toBe(false);
      // An option JSON cannot hold fails the same way, while the request body is written.
      const unwritable: unknown = await generate(provider(), {
        options: { maxTokens: 50n as unknown as number },
      }).catch((reason: unknown) => reason);
      expect(unwritable).toBeInstanceOf(TypeError);
      expect(OpenAIModelProviderError.is(unwritable)).toBe(false);
      // And so does an object that contains itself.
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      const looped: unknown = await generate(
        provider(),
        {},
        { messages: [{ role: 'user', content: circular as unknown as string }] },
      ).catch((reason: unknown) => reason);
      expect(looped).toBeInstanceOf(TypeError);
      // Whatever the key function would do: the body is written before the key is read, so a key
      // function that throws (or never answers) is not called for a request that cannot be sent.
      let keyReads = 0;
      const readKey = (): string => {
        keyReads += 1;
        throw new Error('vault sealed');
      };
      const unwritableWithKey: unknown = await generate(provider({ apiKey: readKey }), {
        options: { maxTokens: 50n as unknown as number },
      }).catch((reason: unknown) => reason);
      expect(unwritableWithKey).toBeInstanceOf(TypeError);
      expect(keyReads).toBe(0);
      // So does a message that is null or undefined, in an array that is otherwise fine.
      for (const message of [null, undefined]) {
        const missing: unknown = await generate(
          provider(),
          {},
          { messages: [{ role: 'user', content: 'hi' }, message] },
        ).catch((reason: unknown) => reason);
        expect(missing).toBeInstanceOf(TypeError);
        expect(OpenAIModelProviderError.is(missing)).toBe(false);
      }
      expect(server.requests).toHaveLength(0);
      server.enqueue(completion('ok'));
      await generate(provider(), { options: { temperature: 5 } });
      expect(server.requests[0]?.json).toMatchObject({ temperature: 5 });
      // A number JSON has no form for goes as null, and an option it does not know is left out.
      server.enqueue(completion('ok'));
      await generate(provider(), {
        options: { temperature: Number.NaN, maxTokens: Infinity, seed: 1n } as never,
      });
      const body = server.requests[1]?.json as Record<string, unknown>;
      expect(body).toMatchObject({ temperature: null, max_tokens: null });
      expect(Object.keys(body).sort()).toEqual(['max_tokens', 'messages', 'model', 'temperature']);
      // Only a message's role and content are sent; a json other than true asks for nothing, and
      // a null temperature counts as none, so defaultTemperature applies.
      server.enqueue(completion('ok'));
      await generate(
        provider({ defaultTemperature: 0.3 }),
        { options: { json: 1, temperature: null } as never },
        { messages: [{ role: 'user', content: 'hi', name: 'ann' }] } as never,
      );
      expect(server.requests[2]?.json).toEqual({
        model: 'test-model',
        messages: [{ role: 'user', content: 'hi' }],
        temperature: 0.3,
      });
      // A function or a symbol is sent not at all: JSON leaves it out rather than throwing.
      server.enqueue(completion('ok'));
      await generate(provider(), { options: { temperature: () => 1 } as never }, {
        messages: [{ role: 'user', content: Symbol('hi') }],
      } as never);
      expect(server.requests[3]?.json).toEqual({
        model: 'test-model',
        messages: [{ role: 'user' }],
      });
    });
  });

  describe('checkHealth', () => {
    it('is true when GET /models answers 2xx, sending the key [claim:prod-health-models-route] [claim:oai-health]', async () => {
      server.enqueue(reply(200, { object: 'list', data: [{ id: 'test-model' }] }));
      await expect(provider({ apiKey: 'sk-health' }).checkHealth()).resolves.toBe(true);
      expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/v1/models' });
      expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-health');
    });

    it('reads a function apiKey again at each checkHealth(), so a rotated key is used [claim:oai-apikey]', async () => {
      server.enqueue(
        reply(200, { object: 'list', data: [] }),
        reply(200, { object: 'list', data: [] }),
      );
      let calls = 0;
      const target = provider({ apiKey: () => `sk-${++calls}` });
      await expect(target.checkHealth()).resolves.toBe(true);
      await expect(target.checkHealth()).resolves.toBe(true);
      expect(server.requests.map((r) => r.headers.authorization)).toEqual([
        'Bearer sk-1',
        'Bearer sk-2',
      ]);
    });

    it('is false on an error status, without retrying [claim:mpo-health-no-throw] [claim:oai-health] [claim:wp-health-on-start]', async () => {
      server.enqueue(reply(401, { error: { message: 'Incorrect API key' } }));
      await expect(provider({ apiKey: 'bad' }).checkHealth()).resolves.toBe(false);
      expect(server.requests).toHaveLength(1);
    });

    it('is false on any answer but a 2xx: a 3xx, a 404, a 503, each asked once [claim:oai-health]', async () => {
      const list = { object: 'list', data: [{ id: 'test-model' }] };
      // A 300 without a Location header is handed back by fetch as it is, body and all.
      server.enqueue(reply(300, list), reply(404, list), reply(503, list));
      for (let check = 0; check < 3; check++) {
        await expect(provider().checkHealth()).resolves.toBe(false);
      }
      expect(server.requests.map((request) => request.method)).toEqual(['GET', 'GET', 'GET']);
    });

    it('is false on a 2xx model list larger than maxResponseBytes [claim:oai-health]', async () => {
      const list = { object: 'list', data: [{ id: 'test-model' }] };
      server.enqueue(reply(200, list), reply(200, list));
      const size = JSON.stringify(list).length;
      await expect(provider({ maxResponseBytes: size }).checkHealth()).resolves.toBe(true);
      await expect(provider({ maxResponseBytes: size - 1 }).checkHealth()).resolves.toBe(false);
      expect(server.requests).toHaveLength(2);
    });

    it('is false when the server is unreachable or hangs, and never throws [claim:mpo-health-no-throw] [claim:oai-health]', async () => {
      server.enqueue(hang());
      await expect(provider({ timeoutMs: 100 }).checkHealth()).resolves.toBe(false);
      await expect(provider({ baseUrl: 'http://127.0.0.1:1/v1' }).checkHealth()).resolves.toBe(
        false,
      );
      const throwingKey = provider({
        apiKey: () => {
          throw new Error('no key');
        },
      });
      await expect(throwingKey.checkHealth()).resolves.toBe(false);
    });

    it('is abandoned by shutdown(), so a start that gave up on a hung server does not hold the process for timeoutMs [claim:tsdoc-openai-shutdown-abandons-health] [claim:oai-shutdown-health]', async () => {
      // The runtime gives up after healthCheckTimeoutMs and shuts the provider down; the
      // request must end then, not when the provider's own 30 s timeoutMs runs out.
      let ended!: () => void;
      const requestEnded = new Promise<void>((resolve) => (ended = resolve));
      server.enqueue((_request, response) => {
        response.on('close', () => ended());
      });
      const model = provider({ timeoutMs: 30_000 });
      const runtime = await Runtime.init({
        models: [model],
        memory: new InMemoryMemoryProvider(),
        plugins: [],
        options: { checkHealthOnStart: true, healthCheckTimeoutMs: 100 },
      });
      await expect(runtime.start()).rejects.toThrow(
        /model provider "openai" is not healthy: checkHealth\(\) did not answer within 100 ms/,
      );
      await requestEnded;

      // Called directly, a check in flight answers false at once.
      server.enqueue(hang());
      const check = model.checkHealth();
      await vi.waitFor(() => expect(server.requests).toHaveLength(2));
      await model.shutdown();
      await expect(check).resolves.toBe(false);
    });
  });

  describe('options', () => {
    const valid: OpenAIModelProviderOptions = {
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-4o-mini',
    };

    it.each([
      [
        { baseUrl: 'foo' },
        'OpenAIModelProvider: option "baseUrl" must be an absolute http(s) URL, got "foo"',
      ],
      [{ baseUrl: 'ftp://example.com' }, 'option "baseUrl" must be an absolute http(s) URL'],
      [{ model: '' }, 'option "model" must be a non-empty string'],
      [{ model: undefined }, 'option "model" must be a non-empty string'],
      [{ id: ' ' }, 'option "id" must be a non-empty string'],
      [
        { timeoutMs: 0 },
        'option "timeoutMs" must be a positive integer number of milliseconds, at most 2147483647 ms (about 24.8 days), the longest delay a Node.js timer keeps, got 0',
      ],
      // Node.js runs a longer timer after 1 ms: every attempt would time out at once.
      [
        { timeoutMs: 2_147_483_648 },
        'option "timeoutMs" must be a positive integer number of milliseconds, at most 2147483647 ms (about 24.8 days), the longest delay a Node.js timer keeps, got 2147483648',
      ],
      [
        { totalTimeoutMs: 2_147_483_648 },
        'option "totalTimeoutMs" must be a positive integer number of milliseconds, at most 2147483647 ms (about 24.8 days), the longest delay a Node.js timer keeps, got 2147483648',
      ],
      [{ maxRetries: -1 }, 'option "maxRetries" must be a non-negative integer, got -1'],
      [{ maxRetries: 1.5 }, 'option "maxRetries" must be a non-negative integer, got 1.5'],
      [{ retryBaseDelayMs: -5 }, 'option "retryBaseDelayMs" must be a non-negative number'],
      [
        { defaultTemperature: 3 },
        'option "defaultTemperature" must be a number from 0 to 2, got 3',
      ],
      [
        { apiKey: 42 },
        'option "apiKey" must be a non-empty string (not white space alone) or a function returning one, without a control character other than a tab (such as a line break or a NUL) or a character beyond Latin-1, got a number',
      ],
      [
        { headers: { 'Bad Header': 'x' } },
        'option "headers" must be an object mapping valid header names',
      ],
      [{ fetch: 'nope' }, 'option "fetch" must be a fetch function, got "nope"'],
      [{ apikey: 'sk' }, 'unknown option "apikey"'],
    ])(
      'rejects %o with WEFT_OPENAI_INVALID_OPTIONS [claim:mpo-options-validated] [claim:oai-readme-invalid-options-row] [claim:oai-timer-max]',
      (override, message) => {
        const create = () =>
          new OpenAIModelProvider({ ...valid, ...override } as OpenAIModelProviderOptions);
        expect(create).toThrow(message);
        expect(create).toThrow(/\[WEFT_OPENAI_INVALID_OPTIONS\]$/);
      },
    );

    it('never echoes a secret apiKey or header value in the error, and refuses an empty string given directly [claim:mpo-no-secret-echo] [claim:oai-no-echo] [claim:wp-secrets] [claim:tsdoc-openai-api-key]', () => {
      expect(
        () =>
          new OpenAIModelProvider({
            ...valid,
            apiKey: '' as string,
          }),
      ).toThrow(/option "apiKey" .*got a string \[WEFT_OPENAI_INVALID_OPTIONS\]$/);
      // A header whose value is refused is not quoted either: it may hold a key.
      let refused: unknown;
      try {
        new OpenAIModelProvider({ ...valid, headers: { 'X-Api-Key': 'sk-secret-1\nX' } });
      } catch (error) {
        refused = error;
      }
      expect((refused as Error).message).toMatch(/option "headers" .*got an object/);
      expect((refused as Error).message).not.toContain('sk-secret-1');
      // So is one holding a control character that fetch, not Headers, refuses.
      for (const value of ['sk-secret-1\u001bX', 'sk-secret-1\u0085X']) {
        expect(
          () => new OpenAIModelProvider({ ...valid, headers: { 'X-Api-Key': value } }),
        ).toThrow(/option "headers" .*got an object \[WEFT_OPENAI_INVALID_OPTIONS\]$/);
      }
    });

    it('rejects options that are not an object [claim:mpo-options-validated] [claim:oai-invalid-options]', () => {
      expect(
        () => new OpenAIModelProvider(undefined as unknown as OpenAIModelProviderOptions),
      ).toThrow('OpenAIModelProvider: options must be an object');
    });

    it('applies defaults and strips trailing slashes [claim:mpo-defaults] [claim:oai-baseurl] [claim:oai-defaults-table]', () => {
      const target = new OpenAIModelProvider({ ...valid, baseUrl: 'http://localhost:11434/v1//' });
      expect(target.id).toBe('openai');
      expect(target.baseUrl).toBe('http://localhost:11434/v1');
      expect(target.model).toBe('gpt-4o-mini');
    });

    it('uses an injected fetch', async () => {
      const seen: string[] = [];
      const fakeFetch: typeof fetch = async (input) => {
        seen.push(String(input));
        return new Response(JSON.stringify({ choices: [{ message: { content: 'faked' } }] }), {
          status: 200,
        });
      };
      const target = new OpenAIModelProvider({ ...valid, fetch: fakeFetch });
      await expect(generate(target)).resolves.toEqual({ text: 'faked' });
      expect(seen).toEqual(['https://api.openai.com/v1/chat/completions']);
    });
  });
});

describe('OpenAIModelProvider limits', () => {
  const MIB = 1024 * 1024;

  it.each([
    ['with Content-Length', true],
    ['streamed without Content-Length', false],
  ])(
    'abandons a 20 MiB answer %s once past the limit, without retrying [claim:mpo-max-response] [claim:oai-too-large-row] [claim:oai-max-bytes]',
    async (_label, declared) => {
      let written = 0;
      server.enqueue((_request, response) => {
        response.writeHead(200, {
          'Content-Type': 'application/json',
          ...(declared ? { 'Content-Length': String(20 * MIB) } : {}),
        });
        const chunk = Buffer.alloc(MIB, 0x20);
        const writeMore = (): void => {
          while (written < 20 * MIB && !response.destroyed) {
            written += chunk.length;
            if (!response.write(chunk)) {
              response.once('drain', writeMore);
              return;
            }
          }
          response.end();
        };
        response.on('error', () => undefined);
        writeMore();
      });
      const target = provider({ maxResponseBytes: 2 * MIB, maxRetries: 3 });
      const error = await failure(generate(target));
      expect(error.code).toBe('WEFT_OPENAI_RESPONSE_TOO_LARGE');
      expect(error.message).toMatch(
        /^OpenAIModelProvider "openai": the answer \(status 200\) is larger than option "maxResponseBytes" \(2097152 bytes\)/,
      );
      expect(error.httpStatus).toBe(200);
      expect(server.requests).toHaveLength(1);
      // Abandoned once past the limit, not read to the end first: the server writes only as the
      // client reads (backpressure), so it cannot have got far beyond the 2 MiB.
      expect(written).toBeLessThan(10 * MIB);
    },
  );

  it('reads an answer of exactly maxResponseBytes, and refuses one byte more, declared or streamed [claim:oai-max-bytes]', async () => {
    const body = JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'ok' } }] });
    const size = Buffer.byteLength(body);
    // With a Content-Length, which the limit is checked against before the body is read (reply()
    // would send the body chunked, without one).
    const declared: Handler = (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': size });
      response.end(body);
    };
    // Without a Content-Length, in two chunks: the limit is counted as the body arrives.
    const streamed: Handler = (_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write(body.slice(0, 10));
      response.end(body.slice(10));
    };
    server.enqueue(declared, streamed, declared, streamed);
    for (let call = 0; call < 2; call++) {
      await expect(generate(provider({ maxResponseBytes: size }))).resolves.toMatchObject({
        text: 'ok',
      });
    }
    for (let call = 0; call < 2; call++) {
      const error = await failure(generate(provider({ maxResponseBytes: size - 1 })));
      expect(error.code).toBe('WEFT_OPENAI_RESPONSE_TOO_LARGE');
    }
    expect(server.requests).toHaveLength(4);
  });

  it('keeps to totalTimeoutMs when the wall clock is set back during the call [claim:oai-total] [claim:oai-worst-case]', async () => {
    // The second request sets the wall clock back an hour, as a time sync may: the deadline is
    // kept on a clock that never steps, so the call still gives up when totalTimeoutMs has passed
    // rather than making its third attempt.
    const realNow = Date.now.bind(Date);
    const stepBack: Handler = () => {
      vi.spyOn(Date, 'now').mockImplementation(() => realNow() - 3_600_000);
    };
    onTestFinished(() => {
      vi.restoreAllMocks();
    });
    server.enqueue(hang(), stepBack, hang());
    const error = await failure(
      generate(provider({ timeoutMs: 1_500, totalTimeoutMs: 2_500, maxRetries: 2 })),
    );
    expect(error.code).toBe('WEFT_OPENAI_TIMEOUT');
    expect(error.message).toContain(
      'gave up after 2 attempts: option "totalTimeoutMs" (2500 ms) leaves no time for another',
    );
    expect(server.requests).toHaveLength(2);
  });

  it('reads an answer within maxResponseBytes whole, multi-byte characters included [claim:mpo-max-response] [claim:oai-max-bytes]', async () => {
    server.enqueue(completion('é'.repeat(5_000)));
    const output = (await generate(provider({ maxResponseBytes: 64 * 1024 }))) as { text: string };
    expect(output.text).toBe('é'.repeat(5_000));
  });

  it('gives up when totalTimeoutMs passes, however many retries are left [claim:prod-openai-defaults] [claim:mpo-defaults] [claim:mpo-bounded] [claim:oai-total] [claim:oai-worst-case] [claim:oai-ollama-timeouts] [claim:oai-total-timeout-row] [claim:wp-openai-retries]', async () => {
    server.enqueue(hang(), hang(), hang(), hang(), hang(), hang());
    const target = provider({ timeoutMs: 200, maxRetries: 5, totalTimeoutMs: 500 });
    const started = Date.now();
    const error = await failure(generate(target));
    const elapsed = Date.now() - started;
    expect(error.code).toBe('WEFT_OPENAI_TIMEOUT');
    expect(elapsed).toBeLessThan(1_500);
    expect(server.requests.length).toBeLessThanOrEqual(3);
    expect(error.message).toMatch(/totalTimeoutMs|timed out/);
  });

  it('has defaults a person waiting would accept [claim:prod-openai-defaults] [claim:mpo-defaults] [claim:mpo-bounded] [claim:oai-total] [claim:oai-worst-case] [claim:oai-ollama-timeouts]', async () => {
    const { DEFAULTS } = await import('../src/options.js');
    expect(DEFAULTS).toMatchObject({
      timeoutMs: 30_000,
      maxRetries: 2,
      retryBaseDelayMs: 500,
      totalTimeoutMs: 60_000,
      maxResponseBytes: 10 * MIB,
    });
  });

  it('prints no MaxListenersExceededWarning for 50 concurrent calls on one signal', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on('warning', onWarning);
    try {
      // Every call first gets a 503, so it also waits between attempts on the shared signal.
      for (let index = 0; index < 50; index += 1) server.enqueue(reply(503, 'busy'));
      for (let index = 0; index < 50; index += 1) server.enqueue(completion('ok'));
      const controller = new AbortController();
      const target = provider({ retryBaseDelayMs: 50, maxRetries: 10 });
      const outputs = await Promise.all(
        Array.from({ length: 50 }, () => generate(target, { signal: controller.signal })),
      );
      expect(outputs).toHaveLength(50);
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual(
      [],
    );
  });

  it.each([
    ['totalTimeoutMs', 0],
    ['maxResponseBytes', 1.5],
  ])('rejects option %s = %s, naming it', (name, value) => {
    expect(() => provider({ [name]: value })).toThrow(
      `option "${name}" must be a positive integer`,
    );
  });
});

describe('OpenAIModelProviderError', () => {
  it('is a WeftError with a WEFT_OPENAI_ code, recognised by is() across copies [claim:mpo-unwrapped] [claim:mpo-error-fields] [claim:oai-errors] [claim:oai-is-across-copies]', async () => {
    server.enqueue(reply(401, { error: { message: 'Incorrect API key provided' } }));
    const error = await failure(generate(provider()));
    expect(WeftError.is(error, 'WEFT_OPENAI_HTTP_STATUS')).toBe(true);
    expect(OpenAIModelProviderError.is(error)).toBe(true);
    expect(OpenAIModelProviderError.is(error, 'WEFT_OPENAI_HTTP_STATUS')).toBe(true);
    expect(OpenAIModelProviderError.is(error, 'WEFT_OPENAI_TIMEOUT')).toBe(false);
    expect(OpenAIModelProviderError.is(new WeftError('WEFT_INTERNAL', 'core'))).toBe(false);
    expect(OpenAIModelProviderError.is(new Error('plain'))).toBe(false);
    // What another installed copy of the package would throw: same registered symbols, other class.
    const foreign = Object.assign(new Error('copy'), { code: 'WEFT_OPENAI_NETWORK' });
    Object.defineProperty(foreign, Symbol.for('weft.error'), { value: true });
    Object.defineProperty(foreign, Symbol.for('weft.openai.error'), { value: true });
    expect(foreign instanceof OpenAIModelProviderError).toBe(false);
    expect(OpenAIModelProviderError.is(foreign, 'WEFT_OPENAI_NETWORK')).toBe(true);
  });
});

describe('OpenAIModelProvider timeouts with the default options', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * The message a call fails with under the defaults (30 s per attempt, 60 s in all, 2 retries),
   * on a clock the test moves: `answers` are the first attempts' answers, and every later attempt
   * hangs, ignoring its signal.
   */
  async function messageWithDefaults(answers: number[]): Promise<string> {
    vi.useFakeTimers();
    const fetch = (() => {
      const status = answers.shift();
      return status === undefined
        ? new Promise<Response>(() => undefined)
        : Promise.resolve(new Response('{"error":{"message":"overloaded"}}', { status }));
    }) as typeof globalThis.fetch;
    const model = new OpenAIModelProvider({
      id: 'ollama',
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'llama3.1:8b',
      fetch,
    });
    const [generate] = model.capabilities;
    const failure = generate!.run(MESSAGES, {}).then(
      () => 'resolved',
      (error: unknown) => (error as Error).message,
    );
    await vi.advanceTimersByTimeAsync(61_000);
    return failure;
  }

  it('gives up after 2 attempts when every attempt hangs: totalTimeoutMs holds [claim:oai-total-timeout-row] [claim:oai-gave-up-message] [claim:oai-worst-case]', async () => {
    expect(await messageWithDefaults([])).toBe(
      'OpenAIModelProvider "ollama": gave up after 2 attempts: option "totalTimeoutMs" (60000 ms) leaves no time for another; last attempt timed out [WEFT_OPENAI_TIMEOUT]',
    );
  });

  it('says the request timed out after 30000 ms (3 attempts) when only the last attempt hangs [claim:oai-timeout-row] [claim:oai-timeout-messages]', async () => {
    expect(await messageWithDefaults([503, 503])).toBe(
      'OpenAIModelProvider "ollama": request timed out after 30000 ms (3 attempts) [WEFT_OPENAI_TIMEOUT]',
    );
  });
});
