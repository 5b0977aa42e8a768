/**
 * Redirects: the provider follows none, so the headers a user configured (keys among them) and
 * the prompt never reach an origin other than the one `baseUrl` names. Two real servers on two
 * ports of 127.0.0.1 stand for two origins: `server` is the API's, `elsewhere` the one a
 * redirect points to, which records what it receives and must receive nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIModelProvider, type OpenAIModelProviderOptions } from '../src/index.js';
import {
  completion,
  reply,
  startChatServer,
  type ChatServer,
  type Handler,
} from './chat-server.js';
import { chatServerPerTest, send } from './support/chat-server-per-test.js';
import { failure } from './support/failure.js';

const server = chatServerPerTest();
let elsewhere: ChatServer;

beforeEach(async () => {
  elsewhere = await startChatServer();
});
afterEach(async () => {
  await elsewhere.close();
});

/** A provider whose configured headers hold keys, as Azure's and gateways' do. */
function provider(options: Partial<OpenAIModelProviderOptions> = {}): OpenAIModelProvider {
  return new OpenAIModelProvider({
    baseUrl: server.baseUrl,
    model: 'test-model',
    apiKey: 'sk-bearer-key',
    headers: { 'api-key': 'azure-secret', 'x-api-key': 'gateway-secret' },
    maxRetries: 2,
    retryBaseDelayMs: 1,
    ...options,
  });
}

describe('OpenAIModelProvider and redirects', () => {
  it.each([307, 308, 302, 301])(
    'does not follow a %i to another origin: that server gets neither the keys nor the prompt, and the call fails at once naming where it pointed [claim:oai-no-redirect] [claim:mpo-no-redirect] [claim:oai-error-table] [claim:tsdoc-openai-no-redirect] [claim:errors-openai-http-status-redirect]',
    async (status) => {
      const target = `${elsewhere.baseUrl}/chat/completions`;
      server.enqueue(reply(status, 'Moved', { Location: target }));
      elsewhere.enqueue(completion('stolen'), completion('stolen'), completion('stolen'));

      const error = await failure(send(provider()));

      expect(elsewhere.requests).toEqual([]);
      // The API's own server did get the request, headers and body, once: it is not retried.
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]?.headers['api-key']).toBe('azure-secret');
      expect(server.requests[0]?.json).toMatchObject({ model: 'test-model' });
      expect(error).toMatchObject({
        code: 'WEFT_OPENAI_HTTP_STATUS',
        httpStatus: status,
        attempts: 1,
      });
      expect(error.message).toMatch(
        new RegExp(
          `^OpenAIModelProvider "openai": request failed with ${status} [A-Za-z ]+ pointing to ${target.replace(/[.]/g, '\\.')}; the provider does not follow redirects, so nothing was sent there: set option "baseUrl" to the API's address there if it has moved \\[WEFT_OPENAI_HTTP_STATUS\\]$`,
        ),
      );
    },
  );

  it('does not follow a redirect within the same origin either, and resolves a relative Location in the message [claim:oai-no-redirect]', async () => {
    server.enqueue(reply(307, '', { Location: '/v2/chat/completions' }), completion('followed'));
    const error = await failure(send(provider({ maxRetries: 0 })));
    expect(server.requests.map((request) => request.url)).toEqual(['/v1/chat/completions']);
    expect(error).toMatchObject({ code: 'WEFT_OPENAI_HTTP_STATUS', httpStatus: 307 });
    const origin = new URL(server.baseUrl).origin;
    expect(error.message).toContain(
      `307 Temporary Redirect pointing to ${origin}/v2/chat/completions;`,
    );
  });

  it('quotes a Location without its user name, password, query and fragment, saying what it left out [claim:oai-redirect-address-shown]', async () => {
    const target = new URL('/chat/completions', elsewhere.baseUrl);
    const withSecrets = `${target.protocol}//someone:s3cret-pw@${target.host}${target.pathname}?sig=t0ken-123#part`;
    server.enqueue(reply(307, '', { Location: withSecrets }));
    const error = await failure(send(provider({ maxRetries: 0 })));
    expect(elsewhere.requests).toEqual([]);
    expect(error.message).toContain(
      `pointing to ${target.href} (its user name and password, query and fragment not shown); the provider does not follow redirects`,
    );
    expect(error.message).not.toMatch(/someone|s3cret-pw|t0ken-123|part/);

    server.enqueue(reply(308, '', { Location: '/v2/chat/completions?key=abc' }));
    const relative = await failure(send(provider({ maxRetries: 0 })));
    expect(relative.message).toContain(
      `pointing to ${new URL(server.baseUrl).origin}/v2/chat/completions (its query not shown);`,
    );
    expect(relative.message).not.toContain('key=abc');
  });

  it('names the Location of a redirect whose body is larger than maxResponseBytes [claim:oai-no-redirect]', async () => {
    const target = `${elsewhere.baseUrl}/chat/completions`;
    server.enqueue(reply(307, 'x'.repeat(500), { Location: target }));
    const error = await failure(send(provider({ maxResponseBytes: 100 })));
    expect(elsewhere.requests).toEqual([]);
    expect(error).toMatchObject({ code: 'WEFT_OPENAI_HTTP_STATUS', httpStatus: 307, attempts: 1 });
    expect(error.message).toContain(
      `307 Temporary Redirect pointing to ${target}; the provider does not follow redirects`,
    );
    expect(error.message).toContain(
      '(its answer was larger than option "maxResponseBytes" (100 bytes))',
    );
  });

  it('fails a 3xx at once whose body breaks off, stalls past timeoutMs or is cut short by totalTimeoutMs, naming its Location [claim:oai-no-redirect] [claim:oai-error-table] [claim:oai-total-error-status]', async () => {
    const target = `${elsewhere.baseUrl}/chat/completions`;
    const breaksOff: Handler = (_request, response) => {
      response.writeHead(307, { Location: target, 'Content-Length': '200' });
      response.write('Moved');
      setTimeout(() => response.socket?.destroy(), 10);
    };
    const stalls: Handler = (_request, response) => {
      response.writeHead(308, { Location: target });
      response.write('Moved');
    };
    server.enqueue(breaksOff, stalls, stalls);
    elsewhere.enqueue(completion('stolen'), completion('stolen'), completion('stolen'));
    const cases = [
      { options: { timeoutMs: 5_000 }, status: 307, how: 'its answer broke off before its end: ' },
      {
        options: { timeoutMs: 1_000 },
        status: 308,
        how: 'its answer was still arriving after 1000 ms',
      },
      // The call's deadline, not the attempt's, cuts this one short.
      {
        options: { timeoutMs: 5_000, totalTimeoutMs: 1_000 },
        status: 308,
        how: 'its answer was still arriving after ',
      },
    ];
    for (const [index, { options, status, how }] of cases.entries()) {
      const error = await failure(send(provider(options)));
      expect(error).toMatchObject({
        code: 'WEFT_OPENAI_HTTP_STATUS',
        httpStatus: status,
        attempts: 1,
      });
      expect(error.message).toContain(
        `request failed with ${status} ${status === 307 ? 'Temporary' : 'Permanent'} Redirect pointing to ${target}; the provider does not follow redirects, so nothing was sent there: set option "baseUrl" to the API's address there if it has moved (${how}`,
      );
      // Not retried: one request per call.
      expect(server.requests).toHaveLength(index + 1);
    }
    expect(elsewhere.requests).toEqual([]);
  });

  it.each([307, 302])(
    'checkHealth does not follow a %i to another origin: that server gets nothing, and the check is false [claim:oai-no-redirect] [claim:tsdoc-openai-no-redirect]',
    async (status) => {
      const list = { object: 'list', data: [{ id: 'test-model' }] };
      server.enqueue(reply(status, 'Moved', { Location: `${elsewhere.baseUrl}/models` }));
      elsewhere.enqueue(reply(200, list), reply(200, list));
      await expect(provider().checkHealth()).resolves.toBe(false);
      expect(elsewhere.requests).toEqual([]);
      expect(server.requests.map((request) => request.method)).toEqual(['GET']);
    },
  );

  it('quotes where a following fetch ended up without its query [claim:oai-redirect-address-shown]', async () => {
    const target = `${elsewhere.baseUrl}/chat/completions`;
    server.enqueue(reply(307, '', { Location: `${target}?sig=t0ken-123` }));
    elsewhere.enqueue(completion('from elsewhere'));
    const following: typeof fetch = (input, init) =>
      globalThis.fetch(input, { ...init, redirect: 'follow' });
    const error = await failure(send(provider({ fetch: following })));
    expect(error.message).toContain(
      `option "fetch" followed a redirect to ${target} (its query not shown), although`,
    );
    expect(error.message).not.toContain('t0ken-123');
  });

  it('fails a call whose own fetch follows a redirect although asked not to, without using its answer [claim:oai-fetch-redirect] [claim:errors-openai-http-status-redirect]', async () => {
    const target = `${elsewhere.baseUrl}/chat/completions`;
    server.enqueue(reply(307, '', { Location: target }));
    elsewhere.enqueue(completion('from elsewhere'));
    const asked: unknown[] = [];
    const following: typeof fetch = (input, init) => {
      asked.push(init?.redirect);
      return globalThis.fetch(input, { ...init, redirect: 'follow' });
    };

    const error = await failure(send(provider({ fetch: following })));

    expect(asked).toEqual(['manual']);
    // That fetch did carry the request there: the provider cannot stop what it does itself.
    expect(elsewhere.requests).toHaveLength(1);
    expect(error).toMatchObject({ code: 'WEFT_OPENAI_HTTP_STATUS', httpStatus: 200, attempts: 1 });
    expect(error.message).toBe(
      `OpenAIModelProvider "openai": option "fetch" followed a redirect to ${target}, although the provider asks it not to (redirect: 'manual'); the provider does not follow redirects, so its answer (status 200) is not used: make that fetch honour the \`redirect\` option, and set option "baseUrl" to the API's address there if it has moved [WEFT_OPENAI_HTTP_STATUS]`,
    );

    // A health check through that fetch reaches the other server too, and is false.
    const list = { object: 'list', data: [{ id: 'test-model' }] };
    server.enqueue(reply(307, '', { Location: `${elsewhere.baseUrl}/models` }));
    elsewhere.enqueue(reply(200, list));
    await expect(provider({ fetch: following }).checkHealth()).resolves.toBe(false);
    expect(elsewhere.requests.map((request) => request.url)).toEqual([
      '/v1/chat/completions',
      '/v1/models',
    ]);
  });

  it('fails a call whose own fetch follows a redirect to where nothing answers, or round a loop, as a network failure, retried [claim:oai-fetch-redirect-failed] [claim:tsdoc-openai-fetch-follow-failed]', async () => {
    const following: typeof fetch = (input, init) =>
      globalThis.fetch(input, { ...init, redirect: 'follow' });
    const gone = await startChatServer();
    await gone.close();
    const loop = reply(307, '', { Location: '/v1/chat/completions' });
    // Three attempts to a server whose redirect leads nowhere, then three round a loop, each
    // of which fetch follows until it gives up: more handlers than it will ever ask for.
    server.enqueue(
      ...Array.from({ length: 3 }, () =>
        reply(307, '', { Location: `${gone.baseUrl}/chat/completions` }),
      ),
    );
    const refused = await failure(send(provider({ fetch: following })));
    expect(server.requests).toHaveLength(3);
    server.enqueue(...Array.from({ length: 200 }, () => loop));
    const looped = await failure(send(provider({ fetch: following })));
    // Each attempt followed the loop more than once before fetch gave up.
    expect(server.requests.length).toBeGreaterThan(3 + 3 * 2);
    for (const error of [refused, looped]) {
      expect(error).toMatchObject({ code: 'WEFT_OPENAI_NETWORK', attempts: 3 });
      expect(error.httpStatus).toBeUndefined();
      expect(error.message).toContain(
        `could not reach POST ${server.baseUrl}/chat/completions (3 attempts)`,
      );
    }
  });
});
