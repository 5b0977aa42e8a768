/**
 * The TSDoc of http.ts (hover text for the provider's code), checked with an injected `fetch`:
 * claims the end-to-end tests against the chat server cannot reach, such as a `fetch` that
 * ignores its signal.
 */
import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  attemptRequest,
  isRetryableStatus,
  sendWithRetry,
  type HttpRequest,
  type RetryConfig,
} from '../src/http.js';
import { failure } from './support/failure.js';

const request: HttpRequest = {
  method: 'POST',
  url: 'http://model.test/v1/chat/completions',
  headers: new Headers(),
};

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

/** A real HTTP server on a free port, closed when the test ends. */
async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
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
  it('fails at once with WEFT_OPENAI_HTTP_STATUS on a 3xx answer, which is never followed [claim:tsdoc-openai-3xx] [claim:errors-openai-http-status-3xx]', async () => {
    let calls = 0;
    const redirecting = (() => {
      calls += 1;
      return Promise.resolve(new Response(null, { status: 302, headers: { location: '/x' } }));
    }) as typeof fetch;
    const error = await failure(sendWithRetry(request, config(redirecting, { maxRetries: 3 })));
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
    const error = await failure(
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
    // The second attempt has what the first left of the 1.5 s: about half a second, less than
    // timeoutMs, so the deadline ends it; a loaded machine's timers may fire that much late.
    const error = await failure(
      sendWithRetry(
        request,
        config(hanging, { timeoutMs: 1_000, totalTimeoutMs: 1_500, maxRetries: 1 }),
      ),
    );
    expect(error).toMatchObject({ code: 'WEFT_OPENAI_TIMEOUT', attempts: 2 });
    expect(error.message).toBe(
      'test: gave up after 2 attempts: option "totalTimeoutMs" (1500 ms) leaves no time for another; last attempt timed out [WEFT_OPENAI_TIMEOUT]',
    );
  });

  it('names how the last attempt ended when no retries are left [claim:tsdoc-openai-last-attempt]', async () => {
    const failing = (() => Promise.resolve(new Response('busy', { status: 503 }))) as typeof fetch;
    const hanging = (() => new Promise<Response>(() => undefined)) as typeof fetch;
    const refusing = (() => Promise.reject(new TypeError('fetch failed'))) as typeof fetch;
    const codes = [];
    for (const fetch of [failing, hanging, refusing]) {
      const error = await failure(sendWithRetry(request, config(fetch, { maxRetries: 1 })));
      codes.push([error.code, error.attempts]);
    }
    expect(codes).toEqual([
      ['WEFT_OPENAI_HTTP_STATUS', 2],
      ['WEFT_OPENAI_TIMEOUT', 2],
      ['WEFT_OPENAI_NETWORK', 2],
    ]);
  });
  it('takes the code from the last attempt when attempts ended differently [claim:oai-readme-retried-status-row] [claim:oai-network] [claim:oai-timeout-row]', async () => {
    const busy = () => Promise.resolve(new Response('busy', { status: 503 }));
    const hang = () => new Promise<Response>(() => undefined);
    const refuse = () => Promise.reject(new TypeError('fetch failed'));
    const endings = [
      [refuse, busy],
      [busy, refuse],
      [busy, hang],
    ];
    const codes = [];
    for (const answers of endings) {
      const queue = [...answers];
      const fetch = (() => (queue.shift() ?? hang)()) as typeof globalThis.fetch;
      const error = await failure(sendWithRetry(request, config(fetch, { maxRetries: 1 })));
      codes.push([error.code, error.attempts, error.httpStatus]);
    }
    expect(codes).toEqual([
      ['WEFT_OPENAI_HTTP_STATUS', 2, 503],
      ['WEFT_OPENAI_NETWORK', 2, undefined],
      ['WEFT_OPENAI_TIMEOUT', 2, undefined],
    ]);
  });

  it('ends a refused connection as WEFT_OPENAI_TIMEOUT, not WEFT_OPENAI_NETWORK, when the wait before a retry would pass totalTimeoutMs [claim:errors-openai-timeout-last-status] [claim:errors-openai-network-no-time] [claim:tsdoc-openai-not-http]', async () => {
    // A port that was just free: nothing listens there, so the connection is refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const refused = { ...request, url: `http://127.0.0.1:${port}/v1/chat/completions` };
    const error = await failure(
      sendWithRetry(
        refused,
        config(globalThis.fetch, {
          timeoutMs: 5_000,
          maxRetries: 2,
          retryBaseDelayMs: 5_000,
          totalTimeoutMs: 1_000,
        }),
      ),
    );
    expect(error).toMatchObject({ code: 'WEFT_OPENAI_TIMEOUT', attempts: 1 });
    expect(error.httpStatus).toBeUndefined();
    expect(error.message).toContain('leaves no time for another; last attempt could not connect');
    expect(error.message).toContain('ECONNREFUSED');
    // With time for its retries, the same failure is WEFT_OPENAI_NETWORK.
    const network = await failure(
      sendWithRetry(refused, config(globalThis.fetch, { timeoutMs: 5_000, maxRetries: 1 })),
    );
    expect(network).toMatchObject({ code: 'WEFT_OPENAI_NETWORK', attempts: 2 });
    expect(network.message).toContain(`could not reach POST ${refused.url}`);
  });

  it('leaves httpStatus unset when a 429 was retried and the deadline cut that retry short [claim:errors-openai-timeout-last-status] [claim:oai-errors]', async () => {
    let calls = 0;
    const url = await listening(
      createServer((_request, response) => {
        calls += 1;
        if (calls === 1) response.writeHead(429, { 'content-type': 'application/json' }).end('{}');
        // The retry is never answered.
      }),
    );
    const error = await failure(
      sendWithRetry(
        { ...request, url },
        config(globalThis.fetch, { timeoutMs: 5_000, maxRetries: 1, totalTimeoutMs: 600 }),
      ),
    );
    expect(calls).toBe(2);
    expect(error).toMatchObject({ code: 'WEFT_OPENAI_TIMEOUT', attempts: 2 });
    expect(error.httpStatus).toBeUndefined();
    expect(error.message).toContain('leaves no time for another; last attempt timed out');
  });
});

/**
 * A TCP server on a free port that answers each connection by `answer`, closed when the test
 * ends; its URL as an API's chat completions.
 */
async function speakingTcp(answer: (socket: Socket) => void): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    answer(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
}

describe('TSDoc of notHttp', () => {
  const cases: [string, (socket: Socket) => void][] = [
    ['an SSH greeting, then the socket closed', (socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n')],
    [
      'random bytes, the socket kept open',
      (socket) => socket.write(Buffer.from([0x16, 0x03, 0x01, 0xde, 0xad, 0xbe, 0xef, 0x00])),
    ],
  ];
  for (const [what, answer] of cases) {
    it(`reports a server that answers ${what} as answering, but not with HTTP, under WEFT_OPENAI_NETWORK [claim:tsdoc-openai-not-http] [claim:errors-openai-not-http] [claim:oai-network]`, async () => {
      const url = await speakingTcp(answer);
      const error = await failure(
        sendWithRetry({ ...request, url }, config(globalThis.fetch, { timeoutMs: 5_000 })),
      );
      expect(error).toMatchObject({ code: 'WEFT_OPENAI_NETWORK', attempts: 1 });
      expect(error.message).toContain(`the server at POST ${url} answered, but not with HTTP`);
      expect(error.message).not.toContain('could not reach');
    });
  }

  it('reports a server whose answer has headers over 16 KiB as answering with headers larger than fetch reads, not as unreachable [claim:oai-network] [claim:errors-openai-not-http]', async () => {
    const url = await listening(
      createServer((_request, response) => {
        response.writeHead(200, { 'x-large': 'a'.repeat(20 * 1024) }).end('{}');
      }),
    );
    const error = await failure(
      sendWithRetry({ ...request, url }, config(globalThis.fetch, { timeoutMs: 5_000 })),
    );
    expect(error).toMatchObject({ code: 'WEFT_OPENAI_NETWORK', attempts: 1 });
    expect(error.httpStatus).toBeUndefined();
    expect(error.message).toContain(
      `the server at POST ${url} answered with headers larger than fetch reads (1 attempt)`,
    );
    expect(error.message).not.toContain('could not reach');
    // Named the same way when totalTimeoutMs leaves no time for another attempt.
    const overall = await failure(
      sendWithRetry(
        { ...request, url },
        config(globalThis.fetch, {
          timeoutMs: 5_000,
          maxRetries: 1,
          retryBaseDelayMs: 5_000,
          totalTimeoutMs: 2_000,
        }),
      ),
    );
    expect(overall.message).toContain(
      'last attempt was answered with headers larger than fetch reads',
    );
  });

  it('reports plain HTTP sent to a TLS server of Node.js as could not reach, other side closed: it sends no byte [claim:errors-openai-not-http]', async () => {
    const server = createTlsServer({}, () => undefined);
    server.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
    const error = await failure(
      sendWithRetry({ ...request, url }, config(globalThis.fetch, { timeoutMs: 5_000 })),
    );
    expect(error).toMatchObject({ code: 'WEFT_OPENAI_NETWORK', attempts: 1 });
    expect(error.message).toContain(`could not reach POST ${url}`);
    expect(error.message).toContain('other side closed');
    expect(error.message).not.toContain('not with HTTP');
  });

  it('names the answer that was not HTTP when totalTimeoutMs leaves no time for another attempt [claim:tsdoc-openai-not-http]', async () => {
    const url = await speakingTcp((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
    const error = await failure(
      sendWithRetry(
        { ...request, url },
        config(globalThis.fetch, {
          timeoutMs: 5_000,
          maxRetries: 2,
          retryBaseDelayMs: 5_000,
          totalTimeoutMs: 2_000,
        }),
      ),
    );
    expect(error).toMatchObject({ code: 'WEFT_OPENAI_TIMEOUT', attempts: 1 });
    expect(error.message).toContain('last attempt was answered, but not with HTTP');
  });
});
