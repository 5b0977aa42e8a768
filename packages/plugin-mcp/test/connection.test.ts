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
import { boundedFetch, OVERSIZED_MESSAGE } from '../src/bounded-fetch.js';
import { bounded, CLIENT_INFO } from '../src/connection.js';
import { McpPlugin } from '../src/index.js';
import { serveOverHttp, type FixtureHttpServer } from './fixtures/fixture-server.js';

const UNLISTING = fileURLToPath(new URL('./fixtures/unlisting-server.mjs', import.meta.url));

let fixture: FixtureHttpServer | undefined;
let plain: Server | undefined;

afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
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
  it('gives the handshake and the tool listing one connectTimeoutMs between them', async () => {
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

  it('ends a stdio server it started when the tool listing does not come in time', async () => {
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
  it("gives the transport's reason in the message, with the server's name", async () => {
    const error = await McpPlugin.connect({
      servers: [{ name: 'missing', command: 'weft-no-such-command', tools: ['x'] }],
    }).catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_MCP_CONNECT_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(/server "missing" could not be started.*ENOENT/);
  });
});

describe('TSDoc of CLIENT_INFO', () => {
  it("introduces the plugin with the package's own version", async () => {
    const manifest = JSON.parse(
      await readFile(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8'),
    ) as { version: string };
    expect(CLIENT_INFO).toEqual({ name: 'weft-plugin-mcp', version: manifest.version });
  });
});

describe('TSDoc of bounded', () => {
  it("keeps a server's text up to 2000 characters, and says how long a longer one was", () => {
    expect(bounded('x'.repeat(2_000))).toBe('x'.repeat(2_000));
    expect(bounded('x'.repeat(2_001))).toBe(`${'x'.repeat(2_000)}… (2001 characters)`);
    expect(bounded('abcdef', 3)).toBe('abc… (6 characters)');
  });
});

describe('TSDoc of boundedFetch', () => {
  /** A loopback server answering every request with `size` bytes. */
  async function answering(size: number): Promise<string> {
    plain = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(Buffer.alloc(size, 'x'));
    });
    await new Promise<void>((resolve) => plain?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(plain.address() as AddressInfo).port}/`;
  }

  it('fails the body of a POST answer past limitBytes, calling onOversized first', async () => {
    const url = await answering(1_001);
    const events: string[] = [];
    const response = await boundedFetch(1_000, () => events.push('oversized'))(url, {
      method: 'POST',
    });
    const read = response.arrayBuffer().catch((error: unknown) => {
      events.push('read failed');
      throw error;
    });
    await expect(read).rejects.toThrow(OVERSIZED_MESSAGE);
    expect(events).toEqual(['oversized', 'read failed']);
  });

  it('passes a POST answer of exactly limitBytes, and leaves GET streams alone', async () => {
    const url = await answering(1_000);
    const onOversized = vi.fn();
    const post = await boundedFetch(1_000, onOversized)(url, { method: 'POST' });
    expect((await post.arrayBuffer()).byteLength).toBe(1_000);
    const get = await boundedFetch(10, onOversized)(url, { method: 'GET' });
    expect((await get.arrayBuffer()).byteLength).toBe(1_000);
    expect(onOversized).not.toHaveBeenCalled();
  });
});
