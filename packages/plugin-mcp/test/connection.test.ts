/**
 * Claims the TSDoc comments of the connection and the bounded fetch make, which no other test
 * checked: one deadline for the handshake and the tool listing, a started server ended when the
 * plugin gives up, what the log keeps of a server's text, and where the HTTP byte limit applies.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WeftError } from '@weft/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  boundedFetch,
  OVERSIZED_MESSAGE,
  type FetchBounds,
  type StreamCut,
} from '../src/bounded-fetch.js';
import { bounded, CLIENT_INFO, STREAM_IDLE_MS, STREAM_LIFETIME_MS } from '../src/connection.js';
import { McpPlugin } from '../src/index.js';
import { ProcessGroupTransport } from '../src/process-transport.js';
import { serveOverHttp, type FixtureHttpServer } from './fixtures/fixture-server.js';

const UNLISTING = fileURLToPath(new URL('./fixtures/unlisting-server.mjs', import.meta.url));

let fixture: FixtureHttpServer | undefined;
let plain: Server | undefined;

afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
  plain?.closeAllConnections();
  await new Promise<void>((resolve) => (plain ? plain.close(() => resolve()) : resolve()));
  plain = undefined;
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('TSDoc of McpConnection.open and McpPluginOptions.connectTimeoutMs', () => {
  it('gives the handshake and the tool listing one connectTimeoutMs between them [claim:errors-mcp-connect-failed-reason] [claim:tsdoc-mcp-connection-one-deadline] [claim:tsdoc-mcp-connect-timeout-covers-listing]', async () => {
    // Each is answered well within the deadline alone, but not both together.
    fixture = await serveOverHttp(0, undefined, { initialize: 2_000, 'tools/list': 2_000 });
    const started = Date.now();
    const error = await McpPlugin.connect({
      servers: [{ name: 'slow', url: fixture.url, tools: ['echo'] }],
      connectTimeoutMs: 3_000,
    }).catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_MCP_CONNECT_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(
      /server "slow" could not be started .* within 3000 ms/,
    );
    expect(Date.now() - started).toBeLessThan(3_000 + 1_500);
  });

  it('ends a stdio server it started when the tool listing does not come in time [claim:errors-mcp-connect-failed-reason] [claim:tsdoc-mcp-connection-open-throws]', async () => {
    const pidFile = path.join(await mkdtemp(path.join(tmpdir(), 'weft-mcp-pid-')), 'pid');
    const error = await McpPlugin.connect({
      servers: [
        {
          name: 'unlisting',
          command: process.execPath,
          args: [UNLISTING],
          env: { WEFT_FIXTURE_PID_FILE: pidFile },
          tools: ['x'],
        },
      ],
      // Time for Node to start on a loaded machine; the listing never comes anyway.
      connectTimeoutMs: 8_000,
    }).catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_MCP_CONNECT_FAILED')).toBe(true);
    const pid = Number(await readFile(pidFile, 'utf8'));
    expect(pid).toBeGreaterThan(0);
    await vi.waitFor(() => expect(isRunning(pid)).toBe(false), { timeout: 5_000 });
  }, 40_000);
});

describe('TSDoc of WEFT_MCP_CONNECT_FAILED (errors reference)', () => {
  it("gives the transport's reason in the message, with the server's name [claim:errors-mcp-connect-failed-reason]", async () => {
    const error = await McpPlugin.connect({
      servers: [{ name: 'missing', command: 'weft-no-such-command', tools: ['x'] }],
    }).catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_MCP_CONNECT_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(/server "missing" could not be started.*ENOENT/);
  });
});

describe('TSDoc of CLIENT_INFO', () => {
  it("introduces the plugin with the package's own version [claim:tsdoc-mcp-connection-client-info]", async () => {
    const manifest = JSON.parse(
      await readFile(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8'),
    ) as { version: string };
    expect(CLIENT_INFO).toEqual({ name: 'weft-plugin-mcp', version: manifest.version });
  });
});

describe('TSDoc of bounded', () => {
  it("keeps a server's text up to 2000 characters, and says how long a longer one was [claim:tsdoc-mcp-connection-bounded]", () => {
    expect(bounded('x'.repeat(2_000))).toBe('x'.repeat(2_000));
    expect(bounded('x'.repeat(2_001))).toBe(`${'x'.repeat(2_000)}… (2001 characters)`);
    expect(bounded('abcdef', 3)).toBe('abc… (6 characters)');
  });
});

describe('TSDoc of boundedFetch', () => {
  const bounds = (overrides: Partial<FetchBounds> = {}): FetchBounds => ({
    maxBytes: 1_000,
    maxEventBytes: 100_000,
    answerDeadlineMs: 5_000,
    streamIdleMs: 5_000,
    streamLifetimeMs: 10_000,
    reopenDelayMs: 100,
    ...overrides,
  });

  /** A loopback server answering every request with `size` bytes. */
  async function answering(size: number): Promise<string> {
    return serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(Buffer.alloc(size, 'x'));
    });
  }

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    plain = createServer(handler);
    await new Promise<void>((resolve) => plain?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(plain.address() as AddressInfo).port}/`;
  }

  /** Reads a body to its end or its error, within 5 s. */
  async function outcome(response: Response): Promise<string> {
    const read = response.text().then(
      (text) => `read ${text.length}`,
      (error: unknown) => `failed: ${(error as Error).message}`,
    );
    const late = new Promise<string>((resolve) => setTimeout(() => resolve('still open'), 5_000));
    return Promise.race([read, late]);
  }

  it('fails the body of a POST answer past maxBytes, calling onCut first [claim:tsdoc-mcp-bounded-fetch-post] [claim:tsdoc-mcp-bounded-fetch-callback] [claim:tsdoc-mcp-oversized-message]', async () => {
    const url = await answering(1_001);
    const events: string[] = [];
    const response = await boundedFetch(bounds(), (cut) => events.push(cut.reason))(url, {
      method: 'POST',
    });
    const read = response.arrayBuffer().catch((error: unknown) => {
      events.push('read failed');
      throw error;
    });
    await expect(read).rejects.toThrow(OVERSIZED_MESSAGE);
    expect(events).toEqual(['size', 'read failed']);
  });

  it('passes a POST answer of exactly maxBytes [claim:tsdoc-mcp-bounded-fetch-post]', async () => {
    const url = await answering(1_000);
    const onCut = vi.fn();
    const post = await boundedFetch(bounds(), onCut)(url, { method: 'POST' });
    expect((await post.arrayBuffer()).byteLength).toBe(1_000);
    expect(onCut).not.toHaveBeenCalled();
  });

  it('cuts one endless server-sent event at maxEventBytes, on the background stream (GET) [claim:prod-mcp-size-time] [claim:mcp-http-stream-bound] [claim:tsdoc-mcp-bounded-fetch-get]', async () => {
    const url = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: {"jsonrpc":"2.0","method":"ping"}\n\n');
      const timer = setInterval(() => response.write('x'.repeat(10_000)), 5);
      response.write('data: ');
      response.on('close', () => clearInterval(timer));
    });
    const cuts: StreamCut[] = [];
    const get = await boundedFetch(bounds({ maxEventBytes: 50_000 }), (cut) => cuts.push(cut))(url);
    expect(await outcome(get)).toBe('failed: MCP event exceeded 50000 bytes');
    expect(cuts).toEqual([{ method: 'GET', reason: 'event-size', limit: 50_000 }]);
  });

  it('lets many small events through a stream, whatever their total [claim:tsdoc-mcp-bounded-fetch-get]', async () => {
    const url = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let index = 0; index < 200; index += 1)
        response.write(`data: ${'y'.repeat(900)}\r\n\r\n`);
      response.end();
    });
    const onCut = vi.fn();
    const get = await boundedFetch(bounds({ maxEventBytes: 1_000 }), onCut)(url);
    expect(await outcome(get)).toBe(`read ${200 * 910}`);
    expect(onCut).not.toHaveBeenCalled();
  });

  it('cuts a silent background stream after streamIdleMs, and an old one after streamLifetimeMs [claim:mcpdoc-http-flood] [claim:prod-mcp-size-time] [claim:mcp-http-stream-bound] [claim:tsdoc-mcp-bounded-fetch-get] [claim:obs-mcp-stream-cut]', async () => {
    let writes: NodeJS.Timeout | undefined;
    const url = await serve((request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(': open\n\n');
      // The second request is sent a comment every 50 ms: never idle, but it grows old. The idle
      // limit is twenty of those gaps, so a loaded machine's pause does not pass for silence.
      if (request.headers['x-chatty'] === '1') {
        writes = setInterval(() => response.write(': still here\n\n'), 50);
        response.on('close', () => clearInterval(writes));
      }
    });
    const cuts: StreamCut[] = [];
    const fetchBounded = boundedFetch(
      bounds({ streamIdleMs: 1_000, streamLifetimeMs: 2_500 }),
      (cut) => cuts.push(cut),
    );
    let started = Date.now();
    expect(await outcome(await fetchBounded(url))).toBe('failed: MCP stream silent for 1000 ms');
    expect(Date.now() - started).toBeLessThan(2_500);
    started = Date.now();
    const chatty = await fetchBounded(url, { headers: { 'x-chatty': '1' } });
    expect(await outcome(chatty)).toBe('failed: MCP stream open for 2500 ms');
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_400);
    expect(cuts.map((cut) => cut.reason)).toEqual(['idle', 'lifetime']);
  });

  it('cuts a POST answer that is not complete within answerDeadlineMs, headers or body [claim:mcpdoc-http-flood] [claim:prod-mcp-size-time] [claim:mcp-http-answer-bound] [claim:tsdoc-mcp-bounded-fetch-post]', async () => {
    const url = await serve((request, response) => {
      if (request.headers['x-stall'] === 'body') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"jsonrpc":');
      }
      // Otherwise: no headers at all.
    });
    const cuts: StreamCut[] = [];
    const fetchBounded = boundedFetch(bounds({ answerDeadlineMs: 300 }), (cut) => cuts.push(cut));
    const started = Date.now();
    await expect(fetchBounded(url, { method: 'POST' })).rejects.toThrow();
    const stalled = await fetchBounded(url, { method: 'POST', headers: { 'x-stall': 'body' } });
    expect(await outcome(stalled)).toMatch(/^failed: /);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(cuts.map((cut) => cut.reason)).toEqual(['deadline', 'deadline']);
  });

  it('calls onLost when a POST answer breaks off, and not for its own cuts, a GET stream or a caller abort [claim:tsdoc-mcp-bounded-fetch-lost]', async () => {
    const url = await serve((request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(': open\n\n');
      // The server goes away in the middle of its answer.
      if (request.headers['x-drop'] === '1') setTimeout(() => response.socket?.destroy(), 50);
    });
    const lost: string[] = [];
    // The answers that must arrive (the dropped ones' first bytes) get 1.5 s: with 300 ms, a
    // loaded machine's first connection alone outlasted the deadline. The stalled POST pays it.
    const fetchBounded = boundedFetch(
      bounds({ answerDeadlineMs: 1_500, streamIdleMs: 1_500 }),
      () => undefined,
      () => lost.push('lost'),
    );
    const dropped = await fetchBounded(url, { method: 'POST', headers: { 'x-drop': '1' } });
    expect(await outcome(dropped)).toMatch(/^failed: /);
    expect(lost).toEqual(['lost']);
    // A broken background stream is the SDK's to reopen; this fetch's own cuts, and an abort
    // its caller asked for, are not the server going away.
    const stream = await fetchBounded(url, { headers: { 'x-drop': '1' } });
    expect(await outcome(stream)).toMatch(/^failed: /);
    const stalled = await fetchBounded(url, { method: 'POST' });
    expect(await outcome(stalled)).toMatch(/^failed: /);
    const closing = new AbortController();
    const aborted = await fetchBounded(url, { method: 'POST', signal: closing.signal });
    closing.abort();
    expect(await outcome(aborted)).toMatch(/^failed: /);
    expect(lost).toEqual(['lost']);
  });

  it('waits reopenDelayMs before opening the background stream again after a flood, doubling [claim:prod-mcp-size-time] [claim:mcp-http-flood] [claim:tsdoc-mcp-bounded-fetch-reopen]', async () => {
    const opened: number[] = [];
    const url = await serve((_request, response) => {
      opened.push(Date.now());
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${'z'.repeat(2_000)}`);
    });
    const fetchBounded = boundedFetch(
      bounds({ maxEventBytes: 1_000, reopenDelayMs: 200 }),
      () => undefined,
    );
    for (let index = 0; index < 3; index += 1) await outcome(await fetchBounded(url));
    const gaps = [opened[1]! - opened[0]!, opened[2]! - opened[1]!];
    expect(gaps[0]).toBeGreaterThanOrEqual(190);
    expect(gaps[1]).toBeGreaterThanOrEqual(390);
  });

  it('stops doubling the wait after floods at 64 times reopenDelayMs [claim:mcp-http-flood] [claim:tsdoc-mcp-bounded-fetch-reopen]', async () => {
    const opened: number[] = [];
    const url = await serve((_request, response) => {
      opened.push(Date.now());
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${'z'.repeat(2_000)}`);
    });
    const fetchBounded = boundedFetch(
      bounds({ maxEventBytes: 1_000, reopenDelayMs: 20 }),
      () => undefined,
    );
    // Nine floods in a row: the waits before streams 2 to 9 are 20, 40, ... 1280, then 1280 again.
    for (let index = 0; index < 9; index += 1) await outcome(await fetchBounded(url));
    const gaps = opened.slice(1).map((at, index) => at - (opened[index] as number));
    // Timers are never early, so the lower bounds hold on any machine (10 ms for clock rounding).
    expect(gaps[6]).toBeGreaterThanOrEqual(1_270);
    expect(gaps[7]).toBeGreaterThanOrEqual(1_270);
    // Doubled once more, the last wait would be 2560 ms: the bound leaves a late timer 1120 ms.
    expect(gaps[7]).toBeLessThan(2_400);
  });

  it('cuts the background stream of a real connection after 5 minutes without a byte and 30 minutes in all [claim:mcp-http-stream-bound]', () => {
    // connection.ts hands these to boundedFetch for every streamable HTTP server; the tests above
    // run boundedFetch with short bounds of their own, so the figures are held here.
    expect(STREAM_IDLE_MS).toBe(5 * 60 * 1000);
    expect(STREAM_LIFETIME_MS).toBe(30 * 60 * 1000);
  });
});

describe('ProcessGroupTransport', () => {
  /** Starts `node -e script` through the transport, collecting what it reads. */
  async function transportFor(script: string, maxBufferSize: number) {
    const transport = new ProcessGroupTransport({
      command: process.execPath,
      args: ['-e', script],
      maxBufferSize,
    });
    const messages: unknown[] = [];
    const errors: string[] = [];
    let closed = false;
    transport.onmessage = (message) => messages.push(message);
    transport.onerror = (error) => errors.push(error.message);
    transport.onclose = () => {
      closed = true;
    };
    await transport.start();
    return { transport, messages, errors, closed: () => closed };
  }

  it('holds its byte limit to each message, not to a message and the next one read with it [claim:mcp-stdio-message-bound]', async () => {
    const note = (text: string) =>
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { text } });
    const near = note('n'.repeat(900));
    const next = note('next');
    // One write: both lines reach the client in one chunk, 900-odd bytes and then some.
    const { transport, messages, errors, closed } = await transportFor(
      `process.stdout.write(${JSON.stringify(`${near}\n${next}\n`)}); setInterval(() => {}, 1000);`,
      near.length + 10,
    );
    try {
      await expect.poll(() => messages.length, { timeout: 5_000 }).toBe(2);
      expect(errors).toEqual([]);
      expect(closed()).toBe(false);
    } finally {
      await transport.close();
    }
  });

  it.each([
    ['passes', 'one byte less than the limit', -1, false],
    ['closes on', 'as long as the limit', 0, true],
  ])(
    '%s a message %s, its line break counted on top [claim:mcp-stdio-message-bound] [claim:mcpdoc-too-large]',
    async (_verb, _size, offset, closes) => {
      const limit = 1_000;
      const head = '{"jsonrpc":"2.0","method":"x","params":{"t":"';
      const tail = '"}}';
      const line = `${head}${'l'.repeat(limit + offset - head.length - tail.length)}${tail}`;
      expect(line.length).toBe(limit + offset);
      const { transport, messages, closed } = await transportFor(
        `process.stdout.write(${JSON.stringify(`${line}\n`)}); setInterval(() => {}, 1000);`,
        limit,
      );
      try {
        if (closes) await expect.poll(() => closed(), { timeout: 5_000 }).toBe(true);
        else await expect.poll(() => messages.length, { timeout: 5_000 }).toBe(1);
        expect(closed()).toBe(closes);
      } finally {
        await transport.close();
      }
    },
  );

  it('closes on a message longer than its byte limit [claim:mcp-stdio-message-bound]', async () => {
    const long = JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { t: 'l'.repeat(2_000) } });
    const { transport, errors, closed } = await transportFor(
      `process.stdout.write(${JSON.stringify(`${long}\n`)}); setInterval(() => {}, 1000);`,
      1_000,
    );
    try {
      await expect.poll(() => closed(), { timeout: 5_000 }).toBe(true);
      expect(errors.some((error) => /exceeded maximum size/.test(error))).toBe(true);
    } finally {
      await transport.close();
    }
  });

  it('reports the connection closed as soon as a server closes its stdout, before a server that ignores SIGTERM is ended [claim:mcpdoc-unavailable-at-once]', async () => {
    const transport = new ProcessGroupTransport({
      command: process.execPath,
      args: [
        '-e',
        `process.on('SIGTERM', () => {});
         setTimeout(() => { process.stdout.destroy(); require('node:fs').closeSync(1); }, 100);
         setInterval(() => {}, 1000);`,
      ],
      maxBufferSize: 1_000,
    });
    let serverRanAtClose: boolean | undefined;
    await transport.start();
    // Read now: the transport forgets the process once it has closed.
    const pid = transport.pid ?? 0;
    transport.onclose = () => {
      serverRanAtClose = isRunning(pid);
    };
    try {
      await expect.poll(() => serverRanAtClose, { timeout: 5_000 }).toBeDefined();
      // The connection was over before the SIGKILL that ends this server a second later.
      expect(serverRanAtClose).toBe(true);
    } finally {
      await transport.close();
    }
  });

  it('stops reading at the limit: what a server ignoring SIGTERM writes after it is neither read nor delivered [claim:mcpdoc-too-large] [claim:mcp-too-large]', async () => {
    const long = JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { t: 'l'.repeat(2_000) } });
    const note = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: {} });
    // Past its oversized line the server floods, then writes valid messages, for as long as it
    // lives: closing gives it a second of SIGTERM grace before the SIGKILL.
    const { transport, messages, errors, closed } = await transportFor(
      `process.on('SIGTERM', () => {});
       process.stdout.on('error', () => {});
       process.stdout.write(${JSON.stringify(`${long}\n`)});
       process.stdout.write('x'.repeat(50_000));
       process.stdout.write('\\n');
       setInterval(() => process.stdout.write(${JSON.stringify(`${note}\n`)}), 5);`,
      1_000,
    );
    try {
      await expect.poll(() => closed(), { timeout: 5_000 }).toBe(true);
      // One cut; the flood after it was not read into the buffer, so it did not overflow again.
      expect(errors.filter((error) => /exceeded maximum size/.test(error))).toHaveLength(1);
      expect(messages).toEqual([]);
    } finally {
      await transport.close();
    }
  });
});
