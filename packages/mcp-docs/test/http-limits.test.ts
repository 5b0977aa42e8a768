/**
 * The HTTP transport with many clients and hostile ones, in this process with a small bundle:
 * the search index built once, not per request; a client's rate and its connections limited,
 * with a clear 429 and 503; a stalled request cut at its deadline (short here, 30 s by default);
 * and a browser's `Origin: null` refused.
 */
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import type { DocsBundle } from '../src/bundle.js';
import { startHttpServer, type HttpOptions, type RunningHttpServer } from '../src/http.js';
import { createDocsServer } from '../src/server.js';
import { rawPost, SMALL_BUNDLE } from './support.js';

const started: RunningHttpServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(started.splice(0).map((server) => server.close()));
});

async function start(options: HttpOptions = {}, bundle: DocsBundle = SMALL_BUNDLE): Promise<URL> {
  const server = await startHttpServer(bundle, { log: () => undefined, ...options });
  started.push(server);
  return new URL(server.url);
}

function post(url: URL, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
const search = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'search_docs', arguments: { query: 'graceful shutdown' } },
});

/** A raw connection to the server; resolves with what it received once the server closed it. */
function rawConnection(
  url: URL,
  send?: string,
): { socket: Socket; closed: Promise<{ text: string; ms: number }> } {
  const opened = Date.now();
  const socket = connect(Number(url.port), url.hostname);
  sockets.push(socket);
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
  socket.on('error', () => undefined);
  if (send !== undefined) socket.write(send);
  const closed = new Promise<{ text: string; ms: number }>((resolve, reject) => {
    const late = setTimeout(() => reject(new Error(`still open after 10 s: ${text}`)), 10_000);
    socket.on('close', () => {
      clearTimeout(late);
      resolve({ text, ms: Date.now() - opened });
    });
  });
  return { socket, closed };
}

/** The small bundle, counting the reads of its error codes, which only building the index makes. */
function countingBundle(): { bundle: DocsBundle; reads: () => number } {
  let reads = 0;
  const bundle = { ...SMALL_BUNDLE };
  Object.defineProperty(bundle, 'errors', {
    get: () => {
      reads += 1;
      return [];
    },
  });
  return { bundle, reads: () => reads };
}

describe('startHttpServer with many clients', () => {
  it('builds the search index once for the bundle, not for each request [claim:mcp-docs-http-index-once] [claim:mcp-docs-readme-index-once] [claim:tsdoc-mcp-register-tools]', async () => {
    // The bundle's error codes are read only to build the index: count the reads.
    const { bundle, reads } = countingBundle();
    const url = await start({ requestsPerSecond: 1_000 }, bundle);
    // Nothing is built before a request comes.
    expect(reads()).toBe(0);
    for (let id = 0; id < 5; id += 1) {
      const response = await post(url, search(id));
      expect(await response.text()).toContain('Running in production');
    }
    const afterFive = reads();
    expect(afterFive).toBeGreaterThan(0);
    for (let id = 5; id < 10; id += 1) await (await post(url, ping(id))).text();
    expect(reads()).toBe(afterFive);
  });

  it('builds it as the server is made, before any message: the command over stdio makes it at start [claim:mcp-docs-readme-index-once] [claim:mcp-docs-http-index-once]', () => {
    const { bundle, reads } = countingBundle();
    createDocsServer(bundle);
    const built = reads();
    expect(built).toBeGreaterThan(0);
    createDocsServer(bundle);
    expect(reads()).toBe(built);
  });

  it('keeps each client address to its own allowance [claim:mcp-docs-readme-limit-options]', async () => {
    const url = await start({ requestsPerSecond: 3 });
    /** The status of a POST to another path (404 once counted) from `localAddress`. */
    const from = async (localAddress: string, id: number): Promise<number> =>
      (await rawPost(new URL('/other', url), JSON.stringify(ping(id)), { localAddress })).status;
    const first: number[] = [];
    for (let id = 0; id < 10 && !first.includes(429); id += 1)
      first.push(await from('127.0.0.1', id));
    expect(first).toContain(429);
    // Another address of this machine is another client, with its whole allowance.
    const other: number[] = [];
    for (let id = 0; id < 3; id += 1) other.push(await from('127.0.0.2', id));
    expect(other).toEqual([404, 404, 404]);
  });

  it('answers 429 with Retry-After once a client passes requestsPerSecond, and serves it again later [claim:mcp-docs-http-limits] [claim:mcp-docs-http-limit-options] [claim:mcp-docs-readme-rate-row] [claim:mcp-docs-readme-limit-options] [claim:tsdoc-docs-http-rate]', async () => {
    const url = await start({ requestsPerSecond: 5 });
    for (let id = 0; id < 5; id += 1) {
      const response = await post(url, ping(id));
      expect(response.status).toBe(200);
      await response.text();
    }
    // Then cheap requests (another path: 404 once counted), quicker than the refill even on a
    // loaded machine, until one is refused.
    let refusal: Response | undefined;
    for (let id = 5; id < 40 && refusal === undefined; id += 1) {
      const response = await post(new URL('/other', url), ping(id));
      if (response.status === 429) refusal = response;
      else expect(response.status).toBe(404);
      if (refusal === undefined) await response.text();
    }
    expect(refusal?.headers.get('retry-after')).toBe('1');
    expect(await refusal?.text()).toContain(
      'Too many requests: this server answers 5 requests per second from one client',
    );
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await post(url, ping(99))).status).toBe(200);
  });

  it('counts each message of a batch against requestsPerSecond, answering 429 with Retry-After past it [claim:mcp-docs-http-batch-limits] [claim:mcp-docs-readme-batch]', async () => {
    const url = await start({ requestsPerSecond: 10 });
    const batch = (from: number, count: number) =>
      Array.from({ length: count }, (_, index) => search(from + index));
    const first = await post(url, batch(0, 8));
    expect(first.status).toBe(200);
    await first.text();
    // Counted as one request, this batch would pass: 2 of the 10 are left, with some refill.
    const second = await post(url, batch(8, 8));
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(await second.text()).toContain('a batch counts each of its 8 messages');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const later = await post(url, batch(16, 8));
    expect(later.status).toBe(200);
    await later.text();
  });

  it('refuses a batch of more messages than requestsPerSecond with 400, whatever the allowance [claim:mcp-docs-http-batch-limits] [claim:mcp-docs-readme-batch]', async () => {
    const url = await start({ requestsPerSecond: 10 });
    const response = await post(
      url,
      Array.from({ length: 11 }, (_, id) => search(id)),
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('a batch may hold at most 10 messages');
    // Nothing of the allowance was spent on it but the request itself.
    const single = await post(url, ping(99));
    expect(single.status).toBe(200);
    await single.text();
  });

  it('answers 503 to a connection past connectionsPerClient, and serves it once one closes [claim:mcp-docs-http-limit-options] [claim:mcp-docs-readme-connections-row] [claim:mcp-docs-readme-limit-options] [claim:tsdoc-docs-http-connections]', async () => {
    const url = await start({ connectionsPerClient: 2 });
    const first = rawConnection(url);
    rawConnection(url);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const third = await rawConnection(url).closed;
    expect(third.text).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(third.text).toContain('takes 2 connections at once from one client');
    first.socket.destroy();
    await first.closed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const response = await post(url, ping(1), { connection: 'close' });
    expect(response.status).toBe(200);
  });

  it('closes a refused connection a moment after its 503, though the client keeps its side open [claim:mcp-docs-http-limits] [claim:mcp-docs-readme-connections-row] [claim:tsdoc-docs-http-connections]', async () => {
    // The deadline is long, so only the close of the refused connection can end it in time.
    const url = await start({ connectionsPerClient: 1, requestTimeoutMs: 30_000 });
    rawConnection(url);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // A client that never closes its side, and so never ends the server's on its own.
    const hostile = connect({ port: Number(url.port), host: url.hostname, allowHalfOpen: true });
    sockets.push(hostile);
    hostile.on('error', () => undefined);
    let text = '';
    hostile.on('data', (chunk: Buffer) => (text += chunk.toString()));
    await new Promise((resolve) => hostile.once('end', resolve));
    expect(text).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    const closed = new Promise<boolean>((resolve) => {
      hostile.once('close', () => resolve(true));
      setTimeout(() => resolve(false), 6_000);
    });
    // Past the linger, the server's end is gone: bytes sent to it are answered with a reset.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    hostile.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    hostile.write('Content-Length: 100\r\n\r\n{');
    expect(await closed).toBe(true);
  }, 15_000);
});

describe('startHttpServer and a body over the limit', () => {
  /** A ping whose JSON is exactly `bytes` long (ASCII). */
  const paddedPing = (id: number, bytes: number): string => {
    const bare = JSON.stringify({ ...ping(id), params: { pad: '' } });
    const body = bare.replace('"pad":""', `"pad":"${'x'.repeat(bytes - bare.length)}"`);
    expect(body.length).toBe(bytes);
    return body;
  };

  /**
   * POSTs `body` through `agent`; the status, and whether the request reused a connection.
   * Settles once the answer has ended and the whole body is written: an answer may come before,
   * and the agent hands the connection to the next request only then.
   */
  function postWith(
    agent: Agent,
    url: URL,
    body: string,
  ): Promise<{ status: number; text: string; reused: boolean }> {
    return new Promise((resolve, reject) => {
      let answer: { status: number; text: string; reused: boolean } | undefined;
      let written = false;
      const settle = (): void => {
        if (answer !== undefined && written) resolve(answer);
      };
      const outgoing = request(
        url,
        {
          agent,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'content-length': String(Buffer.byteLength(body)),
          },
          timeout: 10_000,
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => {
            answer = { status: response.statusCode ?? 0, text, reused: outgoing.reusedSocket };
            settle();
          });
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error('no answer in 10 s')));
      outgoing.on('error', reject);
      outgoing.end(body, () => {
        written = true;
        settle();
      });
    });
  }

  it('answers a body of 1,000,000 bytes and refuses one of 1,000,001 with 413, the figure the README gives [claim:mcp-docs-readme-body-bound]', async () => {
    const url = await start();
    const agent = new Agent({ keepAlive: false });
    const fits = await postWith(agent, url, paddedPing(1, 1_000_000));
    expect(fits.status).toBe(200);
    expect(fits.text).toContain('"id":1');
    const over = await postWith(agent, url, paddedPing(2, 1_000_001));
    expect(over.status).toBe(413);
    expect(over.text).toContain('the body is larger than 1000000 bytes');
  });

  it('reads and drops the rest of a larger body, so the connection serves the next request [claim:mcp-docs-readme-body-bound] [claim:tsdoc-docs-http-max-body]', async () => {
    const url = await start({ requestsPerSecond: 1_000 });
    // One connection, kept alive: each request after the first goes over the same one.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (const [id, bytes] of [
        [1, 1_200_000],
        [3, 5_000_000],
      ] as const) {
        const over = await postWith(agent, url, paddedPing(id, bytes));
        expect(over.status).toBe(413);
        const next = await postWith(agent, url, JSON.stringify(ping(id + 1)));
        expect([next.status, next.reused]).toEqual([200, true]);
      }
    } finally {
      agent.destroy();
    }
  });

  it('leaves no connection held by a refused body, so a client sending many is not refused 503 [claim:mcp-docs-readme-body-bound]', async () => {
    const url = await start({ requestsPerSecond: 1_000, connectionsPerClient: 2 });
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    try {
      const statuses = await Promise.all(
        Array.from({ length: 6 }, (_, id) => postWith(agent, url, paddedPing(id, 1_200_000))),
      );
      expect(statuses.map(({ status }) => status)).toEqual([413, 413, 413, 413, 413, 413]);
      expect((await postWith(agent, url, JSON.stringify(ping(9)))).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

describe('startHttpServer with its default limits', () => {
  it('takes 20 requests per second and 16 connections from one client, refusing the next [claim:mcp-docs-http-limits] [claim:prod-mcp-docs-limits] [claim:mcp-docs-readme-rate-row] [claim:mcp-docs-readme-connections-row]', async () => {
    const url = await start();
    // Requests for another path are refused with 404 after the rate is counted, and cost next
    // to nothing: they arrive faster than 20 a second even on a loaded machine.
    const statuses: number[] = [];
    let refusal = '';
    const started = performance.now();
    for (let id = 0; id < 60; id += 1) {
      const response = await post(new URL('/other', url), ping(id));
      statuses.push(response.status);
      const text = await response.text();
      if (response.status === 429) refusal ||= text;
    }
    const seconds = (performance.now() - started) / 1000;
    const counted = statuses.filter((status) => status !== 429).length;
    expect(statuses.slice(0, 20).every((status) => status === 404)).toBe(true);
    // The allowance refills at 20 a second while the requests are made.
    expect(counted).toBeLessThanOrEqual(20 + Math.ceil(seconds * 20) + 1);
    expect(refusal).toContain('this server answers 20 requests per second from one client');
    for (let index = 0; index < 16; index += 1) rawConnection(url);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = await rawConnection(url).closed;
    expect(refused.text).toMatch(/^HTTP\/1\.1 503 /);
    expect(refused.text).toContain('takes 16 connections at once from one client');
  });
});

describe('startHttpServer with stalled clients (requestTimeoutMs)', () => {
  it.each([
    ['sends nothing', undefined],
    ['stops in the middle of its headers', 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n'],
    [
      'stops in the middle of its body',
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":',
    ],
  ])(
    'cuts a connection that %s at the deadline [claim:mcp-docs-http-limits] [claim:prod-mcp-docs-limits] [claim:mcp-docs-readme-timeout-row] [claim:tsdoc-docs-http-request-deadline]',
    async (_what, send) => {
      const url = await start({ requestTimeoutMs: 500 });
      const { closed } = rawConnection(url, send);
      const { ms, text } = await closed;
      expect(ms).toBeGreaterThanOrEqual(450);
      expect(ms).toBeLessThan(3_000);
      if (send !== undefined) expect(text).toMatch(/^HTTP\/1\.1 408 |^$/);
    },
  );
});

describe('startHttpServer with a client idle after its answer', () => {
  it('closes the kept-alive connection at a deadline shorter than node’s keep-alive timeout of 5 s, give or take the second node adds [claim:tsdoc-docs-http-request-deadline]', async () => {
    const url = await start({ requestTimeoutMs: 500 });
    const body = JSON.stringify(ping(1));
    const { closed } = rawConnection(
      url,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    const { ms, text } = await closed;
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    // Node's own keep-alive timeout would hold it 5 s, and 6 s with the second it adds.
    expect(ms).toBeGreaterThanOrEqual(450);
    expect(ms).toBeLessThan(3_000);
  });
});

describe('startHttpServer with a client that drips its request', () => {
  it('cuts it at the deadline with 408, though it is never silent for long [claim:mcp-docs-http-limit-options] [claim:mcp-docs-readme-timeout-row] [claim:mcp-docs-readme-limit-options] [claim:tsdoc-docs-http-request-deadline]', async () => {
    const url = await start({ requestTimeoutMs: 500 });
    const { socket, closed } = rawConnection(url, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const drip = setInterval(() => socket.write('X-Drip: 1\r\n'), 100);
    try {
      const { ms, text } = await closed;
      expect(ms).toBeGreaterThanOrEqual(450);
      expect(ms).toBeLessThan(3_000);
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(drip);
    }
  });
});

describe("startHttpServer and a browser's Origin", () => {
  it('refuses Origin: null (a sandboxed frame or a local file) with 403 [claim:mcp-docs-http-origin-null] [claim:prod-mcp-docs-limits] [claim:mcp-docs-readme-origin-null]', async () => {
    const url = await start();
    const response = await post(url, ping(1), { origin: 'null' });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('Origin \\"null\\" is not allowed');
  });

  it('takes the Origin of localhost and refuses that of a name under it, such as app.localhost [claim:prod-mcp-docs-limits]', async () => {
    const url = await start();
    const local = await post(url, ping(1), { origin: 'http://localhost:5173' });
    expect(local.status).toBe(200);
    await local.text();
    const under = await post(url, ping(2), { origin: 'http://app.localhost:5173' });
    expect(under.status).toBe(403);
    expect(await under.text()).toContain('Origin \\"http://app.localhost:5173\\" is not allowed');
  });

  it('refuses the Origin of a page served from an internet address; takes loopback addresses', async () => {
    const url = await start();
    for (const origin of ['http://203.0.113.5', 'http://[2001:db8::1]:8080', 'http://0xcb007105']) {
      const response = await post(url, ping(1), { origin });
      expect(response.status, origin).toBe(403);
      expect(await response.text()).toContain('is not allowed');
    }
    for (const origin of [
      'http://127.0.0.1:5173',
      'http://[::1]:5173',
      'http://[::ffff:127.0.0.1]',
    ]) {
      const response = await post(url, ping(2), { origin });
      expect(response.status, origin).toBe(200);
      await response.text();
    }
  });

  it('takes the Origin of the address it listens on, and still refuses another address [claim:mcp-docs-http-host-check] [claim:mcp-docs-readme-http]', async () => {
    // An address of this machine off the loopback, as a page the server itself serves there has
    // it for origin; the wildcard address on a machine that has none.
    const address =
      Object.values(networkInterfaces())
        .flat()
        .find((entry) => entry?.family === 'IPv4' && !entry.internal)?.address ?? '0.0.0.0';
    const url = await start({ host: address });
    const own = await post(url, ping(1), { origin: `http://${address}:${url.port}` });
    expect(own.status).toBe(200);
    await own.text();
    const other = await post(url, ping(2), { origin: 'http://203.0.113.5' });
    expect(other.status).toBe(403);
    await other.text();
  });
});
