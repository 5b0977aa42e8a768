/**
 * The HTTP transport's request deadline when the embedding program sets none: 30 s, as the
 * README's option table and the AI-assistants guide say. Waiting 30 s for a cut would slow the
 * suite, so this reads the deadlines the transport gives node's HTTP server; http-limits.test.ts
 * shows, with a short deadline, that the server cuts a request at the deadline it was given.
 */
import type * as Http from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DocsServerError } from '../src/errors.js';
import { startHttpServer, type RunningHttpServer } from '../src/http.js';
import { SMALL_BUNDLE } from './support.js';

const made = vi.hoisted(() => ({ servers: [] as { options: unknown; server: Http.Server }[] }));

vi.mock('node:http', async (importOriginal) => {
  const http = await importOriginal<typeof Http>();
  const createServer = (options: Http.ServerOptions, listener: Http.RequestListener) => {
    const server = http.createServer(options, listener);
    made.servers.push({ options, server });
    return server;
  };
  return { ...http, createServer, default: { ...http, createServer } };
});

const started: RunningHttpServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
  made.servers.length = 0;
});

describe('startHttpServer without requestTimeoutMs', () => {
  it('gives a request 30 s to arrive and cuts a connection silent for as long [claim:mcp-docs-http-limits] [claim:mcp-docs-readme-timeout-row]', async () => {
    started.push(await startHttpServer(SMALL_BUNDLE, { log: () => undefined }));
    expect(made.servers).toHaveLength(1);
    const [{ options, server }] = made.servers as [(typeof made.servers)[number]];
    expect(options).toMatchObject({ requestTimeout: 30_000, headersTimeout: 30_000 });
    expect(server.timeout).toBe(30_000);
  });

  it('takes a deadline longer than node keeps a timer, without a TimeoutOverflowWarning for each connection', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(`${warning.name}: ${warning.message}`);
    };
    process.on('warning', onWarning);
    try {
      const running = await startHttpServer(SMALL_BUNDLE, {
        log: () => undefined,
        requestTimeoutMs: 3_000_000_000,
      });
      started.push(running);
      const [{ options, server }] = made.servers as [(typeof made.servers)[number]];
      expect(options).toMatchObject({ requestTimeout: 3_000_000_000 });
      // Node's longest timer, about 24.8 days: a longer one would be cut to it, with a warning.
      expect(server.timeout).toBe(2_147_483_647);
      const response = await fetch(running.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      expect(response.status).toBe(200);
      await response.text();
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((line) => line.startsWith('TimeoutOverflowWarning'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('takes another deadline from requestTimeoutMs', async () => {
    started.push(
      await startHttpServer(SMALL_BUNDLE, { log: () => undefined, requestTimeoutMs: 1_234 }),
    );
    const [{ options, server }] = made.servers as [(typeof made.servers)[number]];
    expect(options).toMatchObject({ requestTimeout: 1_234, headersTimeout: 1_234 });
    expect(server.timeout).toBe(1_234);
  });
});

describe('startHttpServer with a limit that is no whole number from 1 up', () => {
  it.each([
    ['requestsPerSecond', 0],
    ['requestsPerSecond', 2.5],
    ['connectionsPerClient', 0],
    ['connectionsPerClient', -1],
    ['requestTimeoutMs', 0],
    ['requestTimeoutMs', Number.NaN],
    // From JavaScript: null is a value too, not a limit left out, so it gets no default.
    ['requestTimeoutMs', null],
    ['requestsPerSecond', null],
  ] as const)(
    'refuses %s: %s with WEFT_DOCS_INVALID_OPTIONS naming it, and listens nowhere [claim:tsdoc-docs-http-limit-values] [claim:mcp-docs-readme-limit-values] [claim:errors-docs-invalid-options]',
    async (name, value) => {
      const failure = await startHttpServer(SMALL_BUNDLE, {
        log: () => undefined,
        [name]: value as number,
      }).then(
        (server) => {
          started.push(server);
          return undefined;
        },
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(DocsServerError);
      expect((failure as DocsServerError).code).toBe('WEFT_DOCS_INVALID_OPTIONS');
      expect((failure as DocsServerError).message).toContain(
        `weft-docs-mcp: startHttpServer's ${name} must be an integer of at least 1, got ${String(value)}.`,
      );
      expect(made.servers).toEqual([]);
    },
  );

  it('takes 1 for each', async () => {
    started.push(
      await startHttpServer(SMALL_BUNDLE, {
        log: () => undefined,
        requestsPerSecond: 1,
        connectionsPerClient: 1,
        requestTimeoutMs: 1,
      }),
    );
    expect(made.servers).toHaveLength(1);
  });
});

describe('startHttpServer with allowedHosts no Host header can match', () => {
  it.each([
    [
      ['https://docs.example.com'],
      "each of startHttpServer's allowedHosts must be a host name such as",
      '"https://docs.example.com"',
    ],
    [
      ['docs.example.com', 'docs.example.com:3920'],
      "each of startHttpServer's allowedHosts must be a host name such as",
      '"docs.example.com:3920"',
    ],
    [['docs.example.com/mcp'], 'without a scheme, port or path', '"docs.example.com/mcp"'],
    [[''], 'without a scheme, port or path', '""'],
    [['*.example.com'], "without a '*', which is no wildcard here", '"*.example.com"'],
    // A string rather than a list would be read letter by letter.
    [
      'docs.example.com',
      "startHttpServer's allowedHosts must be true, 'all' or a list of host names",
      '"docs.example.com"',
    ],
    [[42], "startHttpServer's allowedHosts must be true, 'all' or a list of host names", '[42]'],
  ] as const)(
    'refuses %j with WEFT_DOCS_INVALID_OPTIONS saying what it must be, and listens nowhere [claim:tsdoc-docs-http-allowed-hosts-names-only] [claim:mcp-docs-readme-allowed-host-names-only] [claim:errors-docs-invalid-options]',
    async (allowedHosts, expected, shown) => {
      const failure = await startHttpServer(SMALL_BUNDLE, {
        log: () => undefined,
        allowedHosts: allowedHosts as never,
      }).then(
        (server) => {
          started.push(server);
          return undefined;
        },
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(DocsServerError);
      expect((failure as DocsServerError).code).toBe('WEFT_DOCS_INVALID_OPTIONS');
      expect((failure as DocsServerError).message).toContain(expected);
      expect((failure as DocsServerError).message).toContain(`got ${shown}.`);
      expect(made.servers).toEqual([]);
    },
  );

  it('takes true, all, names, dotted names and IP addresses [claim:tsdoc-docs-http-allowed-hosts-names-only]', async () => {
    for (const allowedHosts of [
      true,
      'all',
      ['docs.example.com', '.example.com', '192.0.2.1', '::1', '[2001:db8::1]'],
    ] as const) {
      started.push(await startHttpServer(SMALL_BUNDLE, { log: () => undefined, allowedHosts }));
    }
    expect(made.servers).toHaveLength(3);
  });
});
