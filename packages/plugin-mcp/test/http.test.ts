/**
 * The plugin against the fixture tools served over MCP's streamable HTTP transport, on a real
 * loopback HTTP server, driven through real Weft tasks.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { fileURLToPath } from 'node:url';
import { Server as LowLevelServer } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { WeftError } from '@weft/core';
import { afterEach, describe, expect, it } from 'vitest';
import { McpConnection } from '../src/connection.js';
import { McpPlugin, UNTRUSTED_NOTICE } from '../src/index.js';
import { resolveOptions } from '../src/options.js';
import {
  createListingServer,
  createRefusingServer,
  REFUSAL_TEXT,
  serveOverHttp,
  type FixtureHttpServer,
} from './fixtures/fixture-server.js';
import { startAgent, type TestAgent } from './fixtures/runtime.js';

let agent: TestAgent | undefined;
let server: FixtureHttpServer | undefined;

afterEach(async () => {
  await agent?.runtime.stop();
  await server?.close();
  agent = undefined;
  server = undefined;
});

/** 300 bytes in base64 (400 characters), in lines of 76 characters with CRLF between them. */
const WRAPPED_BASE64 = Buffer.alloc(300, 7)
  .toString('base64')
  .replace(/.{76}(?=.)/g, '$&\r\n');
/** The same 300 bytes in base64, a space after every 4 characters. */
const SPACED_BASE64 = Buffer.alloc(300, 7)
  .toString('base64')
  .replace(/.{4}(?=.)/g, '$& ');

const plan = (...tools: string[]) => ({
  steps: tools.map((tool) => ({ pluginId: 'mcp', action: `web.${tool}` })),
});

async function connect(tools: string[], options: { callTimeoutMs?: number } = {}) {
  server ??= await serveOverHttp();
  return McpPlugin.connect({
    servers: [{ name: 'web', url: server.url, headers: { 'x-weft-test': '1' }, tools }],
    reconnectDelayMs: 50,
    ...options,
  });
}

/**
 * Starts an agent whose two tasks echo 'down' and then 'back', and closes the server under it.
 * `backOnPort` serves again on the same port and checks that the next echo gets through.
 */
async function agentWithServerDown(): Promise<{
  running: TestAgent;
  backOnPort: () => Promise<void>;
}> {
  const running = await startAgent(await connect(['echo'], { callTimeoutMs: 1500 }), [
    plan('echo'),
    { text: 'down' },
    plan('echo'),
    { text: 'back' },
  ]);
  agent = running;
  const port = Number(new URL(server?.url ?? '').port);
  await server?.close();
  return {
    running,
    backOnPort: async () => {
      server = await serveOverHttp(port);
      const back = await running.run('echo when back');
      expect(back.chain[1]).toMatchObject({
        type: 'result',
        data: { content: [{ text: 'back' }] },
      });
    },
  };
}

describe('McpPlugin over streamable HTTP', () => {
  it('sends the headers given with the url, such as a token, with every request [claim:mcpdoc-http]', async () => {
    server = await serveOverHttp(0, undefined, {}, { authorization: 'Bearer t0ken' });
    const url = server.url;
    const refused = await McpPlugin.connect({
      servers: [{ name: 'web', url, tools: ['echo'] }],
    }).catch((caught: unknown) => caught);
    expect(WeftError.is(refused, 'WEFT_MCP_CONNECT_FAILED')).toBe(true);
    agent = await startAgent(
      await McpPlugin.connect({
        servers: [
          { name: 'web', url, headers: { authorization: 'Bearer t0ken' }, tools: ['echo'] },
        ],
      }),
      [plan('echo'), { text: 'let in' }],
    );
    const task = await agent.run('echo with a token');
    expect(task.chain[1]).toMatchObject({
      type: 'result',
      data: { content: [{ text: 'let in' }] },
    });
  });

  it('calls a tool and records its structured result as data [claim:mcpdoc-http] [claim:mcpdoc-data] [claim:mcp-data]', async () => {
    agent = await startAgent(await connect(['add']), [plan('add'), { a: 1.5, b: 2 }]);
    const task = await agent.run('add 1.5 and 2');
    expect(task.chain[1]).toMatchObject({
      type: 'result',
      data: { notice: UNTRUSTED_NOTICE, structuredContent: { sum: 3.5 } },
    });
  });

  it("keeps text and a resource's text, describes images and audio by type and decoded size, and drops binary blobs [claim:mcp-readme-content-kinds]", async () => {
    server = await serveOverHttp(0, () =>
      createListingServer(
        'weft-content-kinds-fixture',
        [{ name: 'mixed', inputSchema: { type: 'object' } }],
        () => ({
          content: [
            { type: 'text', text: 'plain words' },
            // 'hello' in base64, with its padding: 5 bytes.
            { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
            { type: 'audio', data: 'aGVsbG8h', mimeType: 'audio/wav' },
            // 300 bytes in base64 wrapped in lines of 76 characters, as MIME writes it, and
            // spaced: the SDK takes both, and the whitespace decodes to nothing.
            { type: 'image', data: WRAPPED_BASE64, mimeType: 'image/png' },
            { type: 'audio', data: SPACED_BASE64, mimeType: 'audio/wav' },
            { type: 'resource', resource: { uri: 'file:///a.txt', text: 'resource words' } },
            { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'aGVsbG8=' } },
            { type: 'resource_link', uri: 'file:///c.txt', name: 'c' },
          ],
        }),
      ),
    );
    agent = await startAgent(
      await McpPlugin.connect({ servers: [{ name: 'web', url: server.url, tools: ['mixed'] }] }),
      [plan('mixed')],
    );
    const task = await agent.run('mixed content');
    expect((task.chain[1]?.data as { content: unknown }).content).toEqual([
      { type: 'text', text: 'plain words' },
      { type: 'image', mimeType: 'image/png', bytes: 5 },
      { type: 'audio', mimeType: 'audio/wav', bytes: 6 },
      { type: 'image', mimeType: 'image/png', bytes: 300 },
      { type: 'audio', mimeType: 'audio/wav', bytes: 300 },
      { type: 'resource', uri: 'file:///a.txt', text: 'resource words' },
      { type: 'resource', uri: 'file:///b.bin' },
      { type: 'resource_link', uri: 'file:///c.txt', name: 'c' },
    ]);
    expect(JSON.stringify(task.chain[1]?.data)).not.toContain('aGVsbG8');
  });

  it('keeps an image answer over maxResultBytes whose step data is small, and refuses one more than 64 KiB over, however small its step data [claim:mcpdoc-too-large-code] [claim:mcpdoc-too-large] [claim:mcp-too-large]', async () => {
    server = await serveOverHttp(0, () =>
      createListingServer(
        'weft-image-fixture',
        [
          { name: 'small-image', inputSchema: { type: 'object' } },
          { name: 'large-image', inputSchema: { type: 'object' } },
        ],
        (request) => {
          const kib = request.params.name === 'small-image' ? 30 : 100;
          const data = Buffer.alloc(kib * 1024, 1).toString('base64');
          return { content: [{ type: 'image', data, mimeType: 'image/png' }] };
        },
      ),
    );
    agent = await startAgent(
      await McpPlugin.connect({
        servers: [{ name: 'web', url: server.url, tools: ['small-image', 'large-image'] }],
        maxResultBytes: 1000,
        reconnectDelayMs: 50,
      }),
      [plan('small-image', 'large-image')],
    );
    const task = await agent.run('images');
    // 40 KiB of base64 came, over the limit, but the step keeps only the image's size.
    expect(task.chain[1]).toMatchObject({
      type: 'result',
      data: { content: [{ type: 'image', mimeType: 'image/png', bytes: 30 * 1024 }] },
    });
    // 133 KiB of base64 is more than 64 KiB over the limit: cut, whatever the step would keep.
    expect(task.chain[2]?.error).toMatch(
      /answered with more than 1000 bytes \(maxResultBytes\); the answer was dropped unread\. \[WEFT_MCP_RESULT_TOO_LARGE\]/,
    );
  });

  it('stops reading a 10 MiB answer at the limit, fails the step and opens a new session [claim:errors-mcp-too-large-connection] [claim:mcpdoc-too-large] [claim:mcpdoc-http-flood] [claim:prod-mcp-size-time] [claim:mcp-too-large] [claim:mcp-http-answer-bound] [claim:tsdoc-mcp-connection-call-throws] [claim:tsdoc-mcp-connection-broken-stream]', async () => {
    agent = await startAgent(await connect(['huge', 'echo']), [
      plan('huge', 'echo'),
      { text: 'still fine' },
    ]);
    const task = await agent.run('huge, then echo');
    expect(task.chain[1]?.error).toMatch(/more than 1048576 bytes \(maxResultBytes\)/);
    expect(task.chain[2]).toMatchObject({
      type: 'result',
      data: { content: [{ text: 'still fine' }] },
    });
    // The cut answer left the session unusable: the plugin closed it and connected again.
    expect(agent.logs.some((line) => line.msg === 'MCP server reconnected')).toBe(true);
  });

  it('fails only the call whose answer was too large with WEFT_MCP_RESULT_TOO_LARGE; another call waiting on the same connection fails with WEFT_MCP_UNAVAILABLE [claim:mcp-readme-too-large-concurrent] [claim:mcpdoc-too-large-concurrent]', async () => {
    server = await serveOverHttp();
    const options = resolveOptions({
      servers: [{ name: 'web', url: server.url, tools: ['huge', 'hang'] }],
      callTimeoutMs: 10_000,
      reconnectDelayMs: 50,
    });
    const connection = new McpConnection(options.servers[0]!, {
      options,
      logger: () => ({ debug() {}, info() {}, warn() {}, error() {} }),
    });
    await connection.open();
    try {
      const never = new AbortController().signal;
      const started = Date.now();
      const waiting = connection.callTool('hang', {}, never).catch((error: unknown) => error);
      // The hanging call's request goes out first, so it waits when the huge answer is cut.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const huge = await connection.callTool('huge', {}, never).catch((error: unknown) => error);
      expect(WeftError.is(huge, 'WEFT_MCP_RESULT_TOO_LARGE')).toBe(true);
      const other = await waiting;
      expect(WeftError.is(other, 'WEFT_MCP_UNAVAILABLE')).toBe(true);
      // It failed with the connection, not at its callTimeoutMs.
      expect(Date.now() - started).toBeLessThan(8_000);
    } finally {
      await connection.close();
    }
  });

  it('fails a hanging call after callTimeoutMs [claim:mcp-option-defaults] [claim:tsdoc-mcp-connection-call-throws]', async () => {
    agent = await startAgent(await connect(['hang'], { callTimeoutMs: 400 }), [plan('hang')]);
    const started = Date.now();
    const task = await agent.run('hang');
    expect(Date.now() - started).toBeLessThan(4000);
    expect(task.chain[1]?.error).toMatch(/did not answer within 400 ms/);
  });

  it('keeps the connection after a call that got no answer at all, which starts no reconnection [claim:mcpdoc-http-unanswered-kept]', async () => {
    agent = await startAgent(await connect(['hang', 'echo'], { callTimeoutMs: 400 }), [
      plan('hang'),
      plan('echo'),
      { text: 'same session' },
    ]);
    const hung = await agent.run('hang');
    expect(hung.chain[1]?.error).toContain('[WEFT_MCP_TIMEOUT]');
    const echoed = await agent.run('echo');
    expect(echoed.chain[1]).toMatchObject({
      type: 'result',
      data: { content: [{ text: 'same session' }] },
    });
    const messages = agent.logs.map((line) => line.msg);
    expect(messages).not.toContain('MCP server disconnected; reconnecting');
    expect(messages).not.toContain('MCP server reconnected');
  });

  it('fails calls while the server is down and works again when it is back on its port [claim:mcp-unavailable] [claim:mcp-reconnect] [claim:tsdoc-mcp-connection-call-throws]', async () => {
    const { running, backOnPort } = await agentWithServerDown();
    const down = await running.run('echo while down');
    expect(down.chain[1]?.type).toBe('error');
    expect(down.chain[1]?.error).toMatch(
      /server "web" (disconnected during the call|is disconnected)/,
    );
    await backOnPort();
  });

  it('fails a call the server answers with an HTTP error status as WEFT_MCP_UNAVAILABLE, and connects anew [claim:mcp-unavailable]', async () => {
    server = await serveOverHttp();
    const upstream = server.url;
    let refuseCalls = true;
    // In front of the fixture server: every request goes through, but a tools/call gets a 500.
    const front = createServer((request, response) => {
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        const body = Buffer.concat(chunks);
        if (refuseCalls && body.toString('utf8').includes('"tools/call"')) {
          response.writeHead(500, { 'content-type': 'text/plain' }).end('database on fire');
          return;
        }
        const headers = new Headers();
        for (const [name, value] of Object.entries(request.headers)) {
          if (typeof value === 'string' && name !== 'host' && name !== 'content-length')
            headers.set(name, value);
        }
        // The upstream request ends with this one (the background stream stays open otherwise).
        const done = new AbortController();
        response.on('close', () => done.abort());
        const answer = await fetch(upstream, {
          method: request.method ?? 'GET',
          headers,
          signal: done.signal,
          ...(request.method === 'POST' ? { body } : {}),
        });
        response.writeHead(answer.status, Object.fromEntries(answer.headers.entries()));
        if (answer.body === null) {
          response.end();
          return;
        }
        const relayed = Readable.fromWeb(answer.body as NodeReadableStream);
        relayed.on('error', () => response.destroy());
        relayed.pipe(response);
      })().catch(() => response.destroy());
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = front.address() as AddressInfo;
      agent = await startAgent(
        await McpPlugin.connect({
          servers: [{ name: 'web', url: `http://127.0.0.1:${port}/mcp`, tools: ['echo'] }],
          reconnectDelayMs: 50,
        }),
        [plan('echo'), { text: 'refused' }, plan('echo'), { text: 'let through' }],
      );
      const refused = await agent.run('echo, refused');
      expect(refused.chain[1]?.error).toMatch(
        /server "web" disconnected during the call of tool "echo"; the plugin is reconnecting\. \[WEFT_MCP_UNAVAILABLE\]/,
      );
      expect(refused.chain[1]?.error).not.toContain('on fire');
      refuseCalls = false;
      await expect
        .poll(() => agent?.logs.some((line) => line.msg === 'MCP server reconnected'), {
          timeout: 5_000,
        })
        .toBe(true);
      const through = await agent.run('echo, let through');
      expect(through.chain[1]).toMatchObject({
        type: 'result',
        data: { content: [{ text: 'let through' }] },
      });
    } finally {
      await agent?.runtime.stop();
      agent = undefined;
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
    }
  });

  it('fails a call at once when the server goes away in the middle of its answer, and reconnects [claim:mcpdoc-unavailable-at-once] [claim:errors-mcp-unavailable-during-call] [claim:mcp-unavailable] [claim:tsdoc-mcp-bounded-fetch-lost]', async () => {
    agent = await startAgent(await connect(['hang', 'echo'], { callTimeoutMs: 20_000 }), [
      plan('hang'),
      plan('echo'),
      { text: 'back' },
    ]);
    const port = Number(new URL(server?.url ?? '').port);
    const started = Date.now();
    const running = agent.run('hang');
    // The tool takes no arguments: its call starts, and the SDK's server streams its answer, as
    // soon as the plan is made.
    await expect
      .poll(() => agent?.logs.some((line) => line.msg === 'pipeline planned'), { timeout: 10_000 })
      .toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await server?.close();
    const down = await running;
    // At once, not after callTimeoutMs (20 s) with WEFT_MCP_TIMEOUT.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(down.chain[1]).toMatchObject({ type: 'error', action: 'web.hang' });
    expect(down.chain[1]?.error).toMatch(
      /server "web" disconnected during the call of tool "hang"; the plugin is reconnecting\. \[WEFT_MCP_UNAVAILABLE\]/,
    );
    expect(agent.logs.some((line) => line.msg === 'MCP server disconnected; reconnecting')).toBe(
      true,
    );
    server = await serveOverHttp(port);
    const back = await agent.run('echo when back');
    expect(back.chain[1]).toMatchObject({ type: 'result', data: { content: [{ text: 'back' }] } });
  }, 40_000);

  it('notices a server that went away only when a call fails to reach it, then reconnects [claim:mcp-readme-http-noticed-by-call] [claim:mcpdoc-http-noticed-by-call]', async () => {
    const { running, backOnPort } = await agentWithServerDown();
    const reconnecting = () =>
      running.logs.filter((line) => line.msg === 'MCP server disconnected; reconnecting');
    // Many reconnection delays pass, and nothing tells the plugin the server is gone.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(reconnecting()).toEqual([]);
    const down = await running.run('echo while down');
    expect(down.chain[1]?.error).toMatch(
      /server "web" disconnected during the call of tool "echo"; the plugin is reconnecting\.[^]*WEFT_MCP_UNAVAILABLE/,
    );
    expect(reconnecting()).toHaveLength(1);
    await backOnPort();
  });

  it("counts the wait for a reconnection in the call's callTimeoutMs [claim:mcpdoc-reconnect]", async () => {
    server = await serveOverHttp();
    const port = Number(new URL(server.url).port);
    agent = await startAgent(
      await McpPlugin.connect({
        servers: [{ name: 'web', url: server.url, tools: ['echo', 'hang'] }],
        callTimeoutMs: 3000,
        reconnectDelayMs: 50,
        maxReconnectDelayMs: 100,
      }),
      [plan('echo', 'hang'), { text: 'down' }],
    );
    await server.close();
    // The echo finds the server gone and starts the reconnection; the hang call waits for it.
    // The server is back 2 s into the hang call's 3 s, which leave it 1 s to be answered.
    const started = Date.now();
    const back = new Promise<void>((resolve) => {
      setTimeout(() => {
        void serveOverHttp(port).then((served) => {
          server = served;
          resolve();
        });
      }, 2000);
    });
    const task = await agent.run('echo while down, then hang');
    const elapsed = Date.now() - started;
    await back;
    expect(task.chain[1]?.error).toContain('[WEFT_MCP_UNAVAILABLE]');
    // The call went out once the server was back, and was not answered within what was left.
    expect(task.chain[2]?.error).toMatch(
      /tool "hang" on server "web" did not answer within 3000 ms \(callTimeoutMs\)\. \[WEFT_MCP_TIMEOUT\]/,
    );
    expect(agent.logs.some((line) => line.msg === 'MCP server reconnected')).toBe(true);
    // 3 s after the call began, not 3 s after the server came back (5 s).
    expect(elapsed).toBeGreaterThanOrEqual(2900);
    expect(elapsed).toBeLessThan(4500);
  }, 20_000);

  it("turns a JSON-RPC error into a step error with the code, logging the server's message under an id [claim:mcpdoc-call-failed] [claim:mcpdoc-call-failed-kept] [claim:mcpdoc-failures-no-server-text] [claim:mcp-no-arguments] [claim:mcpdoc-no-arguments] [claim:mcp-call-failed] [claim:mcp-readme-failures-server-words] [claim:tsdoc-mcp-connection-call-throws] [claim:tsdoc-mcp-connection-settings-logger]", async () => {
    server = await serveOverHttp(0, createRefusingServer);
    agent = await startAgent(
      await McpPlugin.connect({ servers: [{ name: 'web', url: server.url, tools: ['lookup'] }] }),
      [plan('lookup')],
    );
    const task = await agent.run('look it up');
    const failed = task.chain[1];
    expect(failed?.error).toMatch(
      /refused the call of tool "lookup" \(JSON-RPC error -32602\); its message is logged under error id [0-9a-f-]{36}/,
    );
    expect(failed?.error).not.toContain('hunter2');
    const errorId = /error id ([0-9a-f-]{36})/.exec(failed?.error ?? '')?.[1];
    expect(agent.logs.find((line) => line.errorId === errorId)?.serverMessage).toContain(
      REFUSAL_TEXT,
    );
  });

  it.each([
    ['-32000, the code the SDK gives a closed connection', -32000],
    ['-32001, the code the SDK gives its own request timeout', -32001],
  ])(
    'turns a JSON-RPC error %s into WEFT_MCP_CALL_FAILED, keeping the connection [claim:mcpdoc-call-failed] [claim:mcpdoc-call-failed-kept] [claim:mcp-call-failed]',
    async (_name, code) => {
      server = await serveOverHttp(0, () => createRefusingServer(code));
      agent = await startAgent(
        await McpPlugin.connect({ servers: [{ name: 'web', url: server.url, tools: ['lookup'] }] }),
        [plan('lookup'), plan('lookup')],
      );
      for (const message of ['look it up', 'and again']) {
        const task = await agent.run(message);
        expect(task.chain[1]?.error).toMatch(
          new RegExp(
            `refused the call of tool "lookup" \\(JSON-RPC error ${code}\\); its message is logged under error id [0-9a-f-]{36}\\. \\[WEFT_MCP_CALL_FAILED\\]`,
          ),
        );
      }
      // The server answered: the connection was never taken for lost, nor restarted.
      const lost = ['MCP call lost its connection', 'MCP server disconnected; reconnecting'];
      expect(agent.logs.filter((line) => lost.includes(line.msg as string))).toEqual([]);
    },
  );

  it("turns an answer that breaks the tool's own outputSchema into WEFT_MCP_CALL_FAILED, which the SDK's client refuses [claim:mcp-call-failed-output-schema] [claim:mcpdoc-call-failed-output-schema] [claim:obs-mcp-refused-output-schema] [claim:obs-mcp-logger]", async () => {
    // A server written without the SDK's McpServer, which would check its own answers first.
    server = await serveOverHttp(0, () =>
      createListingServer(
        'weft-wrong-output-fixture',
        [
          {
            name: 'count',
            description: 'Counts.',
            inputSchema: { type: 'object' },
            outputSchema: {
              type: 'object',
              properties: { n: { type: 'number' } },
              required: ['n'],
            },
          },
        ],
        () => ({
          content: [{ type: 'text', text: 'many' }],
          structuredContent: { n: 'many' },
        }),
      ),
    );
    agent = await startAgent(
      await McpPlugin.connect({ servers: [{ name: 'web', url: server.url, tools: ['count'] }] }),
      [plan('count')],
    );
    const task = await agent.run('count them');
    expect(task.chain[1]?.error).toMatch(
      /tool "count" \(JSON-RPC error -32602\); its message is logged under error id [0-9a-f-]{36}\. \[WEFT_MCP_CALL_FAILED\]/,
    );
    expect(JSON.stringify(task.chain[1]?.data ?? null)).not.toContain('many');
    // The SDK's own check, logged as the server's message; the connection is kept.
    expect(agent.logs.find((line) => line.msg === 'MCP server refused a tool call')).toMatchObject({
      code: -32602,
      serverMessage: expect.stringContaining("does not match the tool's output schema"),
      // Written by the step: the task's and the step's fields come with it.
      component: 'pipeline',
      taskId: task.id,
      action: 'web.count',
      stepIndex: 0,
    });
    expect(agent.logs.map((line) => line.msg)).not.toContain(
      'MCP server disconnected; reconnecting',
    );
  });

  it("takes an error result (isError) for WEFT_MCP_TOOL_ERROR, though its structuredContent breaks the tool's outputSchema [claim:mcpdoc-tool-error-code] [claim:mcp-tool-error] [claim:mcp-call-failed-output-schema]", async () => {
    server = await serveOverHttp(0, () =>
      createListingServer(
        'weft-error-with-structure-fixture',
        [
          {
            name: 'count',
            description: 'Counts.',
            inputSchema: { type: 'object' },
            outputSchema: {
              type: 'object',
              properties: { n: { type: 'number' } },
              required: ['n'],
            },
          },
        ],
        () => ({
          isError: true,
          content: [{ type: 'text', text: 'the counter is down' }],
          structuredContent: { reason: 'down' },
        }),
      ),
    );
    agent = await startAgent(
      await McpPlugin.connect({ servers: [{ name: 'web', url: server.url, tools: ['count'] }] }),
      [plan('count')],
    );
    const task = await agent.run('count them');
    expect(task.chain[1]?.error).toMatch(
      /tool "count" on server "web" reported an error; its text is logged under error id [0-9a-f-]{36}\. \[WEFT_MCP_TOOL_ERROR\]/,
    );
    expect(task.chain[1]?.data).toMatchObject({ excerpt: 'the counter is down' });
    expect(agent.logs.find((line) => line.msg === 'MCP tool reported an error')).toMatchObject({
      toolError: 'the counter is down',
    });
    expect(agent.logs.map((line) => line.msg)).not.toContain('MCP server refused a tool call');
  });

  it("keeps refusing an answer that breaks the tool's outputSchema when the tool was on an earlier page of the listing, and after a reconnection [claim:mcp-call-failed-output-schema]", async () => {
    // The SDK's client checks answers against the output schemas of the last tools/list page it
    // read, on the client that read it: the plugin hands it those of every allowed tool.
    const count = {
      name: 'count',
      description: 'Counts.',
      inputSchema: { type: 'object' as const },
      outputSchema: {
        type: 'object' as const,
        properties: { n: { type: 'number' } },
        required: ['n'],
      },
    };
    const other = {
      name: 'other',
      description: 'Other.',
      inputSchema: { type: 'object' as const },
    };
    const wrongOutput = () => {
      const mcp = new LowLevelServer(
        { name: 'weft-paged-output-fixture', version: '1.0.0' },
        { capabilities: { tools: {} } },
      );
      mcp.setRequestHandler(ListToolsRequestSchema, (request) =>
        request.params?.cursor === 'two'
          ? { tools: [other] }
          : { tools: [count], nextCursor: 'two' },
      );
      mcp.setRequestHandler(CallToolRequestSchema, () => ({
        content: [{ type: 'text', text: 'many' }],
        structuredContent: { n: 'many' },
      }));
      return mcp;
    };
    server = await serveOverHttp(0, wrongOutput);
    agent = await startAgent(
      await McpPlugin.connect({
        servers: [{ name: 'web', url: server.url, tools: ['count', 'other'] }],
        reconnectDelayMs: 50,
        callTimeoutMs: 1_500,
      }),
      [plan('count'), plan('count'), plan('count')],
    );
    const refused =
      /tool "count" \(JSON-RPC error -32602\); its message is logged under error id [0-9a-f-]{36}\. \[WEFT_MCP_CALL_FAILED\]/;
    expect((await agent.run('count them')).chain[1]?.error).toMatch(refused);
    // The server goes away: a call fails to reach it, and the plugin connects anew once it is back.
    const port = Number(new URL(server.url).port);
    await server.close();
    expect((await agent.run('count while down')).chain[1]?.error).toContain(
      '[WEFT_MCP_UNAVAILABLE]',
    );
    server = await serveOverHttp(port, wrongOutput);
    const again = await agent.run('count once back');
    expect(again.chain[1]?.error).toMatch(refused);
    expect(JSON.stringify(again.chain[1]?.data ?? null)).not.toContain('many');
    expect(agent.logs.some((line) => line.msg === 'MCP server reconnected')).toBe(true);
  });

  it("gives the check of an answer against the tool's outputSchema 500 ms, so its pattern cannot stall the agent [claim:mcp-readme-output-schema-bound] [claim:tsdoc-mcp-output-check-time] [claim:errors-mcp-call-failed-output-check]", async () => {
    server = await serveOverHttp(0, () =>
      createListingServer(
        'weft-backtracking-output-fixture',
        [
          {
            name: 'name',
            description: 'Names.',
            inputSchema: { type: 'object' },
            outputSchema: {
              type: 'object',
              properties: { name: { type: 'string', pattern: '^(a+)+$' } },
            },
          },
        ],
        // Unbounded, checking this against ^(a+)+$ backtracks for hours on the agent's thread.
        () => ({
          content: [{ type: 'text', text: 'named' }],
          structuredContent: { name: `${'a'.repeat(40)}!` },
        }),
      ),
    );
    agent = await startAgent(
      await McpPlugin.connect({ servers: [{ name: 'web', url: server.url, tools: ['name'] }] }),
      [plan('name')],
    );
    const started = Date.now();
    const task = await agent.run('name it');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(task.chain[1]?.error).toMatch(
      /tool "name" \(JSON-RPC error -32602\); its message is logged under error id [0-9a-f-]{36}\. \[WEFT_MCP_CALL_FAILED\]/,
    );
    const errorId = /error id ([0-9a-f-]{36})/.exec(task.chain[1]?.error ?? '')?.[1];
    expect(agent.logs.find((line) => line.errorId === errorId)?.serverMessage).toMatch(
      /could not be checked against the tool's outputSchema within 500 ms/,
    );
  });

  it('asks the model for the arguments of a tool whose parameters come from allOf, and checks them [claim:mcp-no-arguments]', async () => {
    const received: unknown[] = [];
    server = await serveOverHttp(0, () =>
      createListingServer(
        'weft-all-of-fixture',
        [
          {
            name: 'order',
            description: 'Orders an item.',
            inputSchema: {
              type: 'object',
              allOf: [
                { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] },
                { type: 'object', properties: { quantity: { type: 'integer', minimum: 1 } } },
              ],
            },
          },
        ],
        (request) => {
          received.push(request.params.arguments);
          return { content: [{ type: 'text', text: 'ordered' }] };
        },
      ),
    );
    agent = await startAgent(
      await McpPlugin.connect({ servers: [{ name: 'web', url: server.url, tools: ['order'] }] }),
      [plan('order'), { sku: 'A-1', quantity: 0 }, { sku: 'A-1', quantity: 2 }],
    );
    const task = await agent.run('order two of A-1');
    expect(task.chain[1]).toMatchObject({
      type: 'result',
      data: { content: [{ text: 'ordered' }] },
    });
    // The first answer broke the allOf part's minimum and was asked again; only the second went out.
    expect(received).toEqual([{ sku: 'A-1', quantity: 2 }]);
    expect(agent.model.remaining).toBe(0);
  });

  it('gives each reconnection attempt connectTimeoutMs, then tries again [claim:mcpdoc-reconnect-backoff] [claim:mcp-reconnect]', async () => {
    server = await serveOverHttp();
    // The first connection is opened under the same connectTimeoutMs, so it must be long enough
    // for a loaded machine to start the handshake and the listing of a real server.
    agent = await startAgent(
      await McpPlugin.connect({
        servers: [{ name: 'web', url: server.url, tools: ['echo'] }],
        reconnectDelayMs: 50,
        maxReconnectDelayMs: 50,
        connectTimeoutMs: 5_000,
        callTimeoutMs: 300,
      }),
      [plan('echo'), { text: 'nobody home' }],
    );
    const port = Number(new URL(server.url).port);
    await server.close();
    // The call finds no server, which starts the reconnection.
    await agent.run('echo while down');
    // Back on its port is a server that takes every request and never answers: only the
    // plugin's own deadline ends an attempt, however slow or fast the machine is.
    server = await serveNeverAnswering(port);
    const timedOut = () =>
      agent?.logs.filter(
        (line) =>
          line.msg === 'MCP server reconnection failed' &&
          /aborted due to timeout/.test(String(line.error)),
      ) ?? [];
    // Without a deadline of its own, no attempt would end with this error, however long the wait.
    await expect.poll(() => timedOut().length, { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  }, 90_000);

  it('waits twice as long after each failed reconnection, up to maxReconnectDelayMs [claim:mcpdoc-reconnect-backoff] [claim:mcpdoc-reconnect] [claim:mcp-reconnect-delay] [claim:mcp-reconnect] [claim:tsdoc-mcp-connection-backoff]', async () => {
    server = await serveOverHttp();
    agent = await startAgent(
      await McpPlugin.connect({
        servers: [{ name: 'web', url: server.url, tools: ['echo'] }],
        reconnectDelayMs: 50,
        maxReconnectDelayMs: 200,
        callTimeoutMs: 300,
      }),
      [plan('echo'), { text: 'nobody home' }],
    );
    await server.close();
    server = undefined;
    await agent.run('echo while down');
    await expect
      .poll(
        () => agent?.logs.filter((line) => line.msg === 'MCP server reconnection failed').length,
        {
          timeout: 5000,
        },
      )
      .toBeGreaterThanOrEqual(4);
    const waits = agent.logs
      .filter((line) => line.msg === 'MCP server reconnection failed')
      .map((line) => line.retryInMs);
    expect(waits.slice(0, 4)).toEqual([100, 200, 200, 200]);
  });
});

/** Listens on `port` and holds every request it gets without ever answering. */
async function serveNeverAnswering(port: number): Promise<FixtureHttpServer> {
  const http = createServer(() => undefined);
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/**
 * Serves, written by hand, a server that answers the handshake and the listing properly and
 * every `tools/call` as `answer` says.
 */
async function serveAnswering(
  answer: (id: unknown, response: ServerResponse) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const http = createServer((request, response) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      if (request.method !== 'POST') {
        response.writeHead(405).end();
        return;
      }
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        id?: unknown;
        method: string;
        params?: { protocolVersion?: string };
      };
      const json = (result: unknown) =>
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      if (message.id === undefined) response.writeHead(202).end();
      else if (message.method === 'initialize') {
        json({
          protocolVersion: message.params?.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name: 'by-hand', version: '1.0.0' },
        });
      } else if (message.method === 'tools/list') {
        json({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] });
      } else answer(message.id, response);
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

describe('McpPlugin against a streamable HTTP server whose answer to a call is not a JSON-RPC message', () => {
  const notJsonRpc = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result: 'text' });

  it.each([
    [
      'as an event of a stream: WEFT_MCP_TIMEOUT after callTimeoutMs',
      (id: unknown, response: ServerResponse) =>
        response
          .writeHead(200, { 'content-type': 'text/event-stream' })
          .end(`data: ${notJsonRpc(id)}\n\n`),
      /did not answer within 1000 ms \(callTimeoutMs\)\. \[WEFT_MCP_TIMEOUT\]/,
      { kept: true },
    ],
    [
      'as a JSON body: WEFT_MCP_CALL_FAILED',
      (id: unknown, response: ServerResponse) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(notJsonRpc(id)),
      /something other than an MCP tool result; .* \[WEFT_MCP_CALL_FAILED\]/,
      { kept: true },
    ],
    [
      'as a body that is not JSON: WEFT_MCP_UNAVAILABLE',
      (_id: unknown, response: ServerResponse) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end('not json'),
      /disconnected during the call of tool "echo"; the plugin is reconnecting\. \[WEFT_MCP_UNAVAILABLE\]/,
      { kept: false, logged: '"not json" is not valid JSON' },
    ],
    [
      'of another content type: WEFT_MCP_UNAVAILABLE',
      (_id: unknown, response: ServerResponse) =>
        response.writeHead(200, { 'content-type': 'text/html' }).end('<p>not MCP</p>'),
      /disconnected during the call of tool "echo"; the plugin is reconnecting\. \[WEFT_MCP_UNAVAILABLE\]/,
      // The SDK reads none of such a body: the log has only its content type.
      { kept: false, logged: 'Unexpected content type: text/html', notLogged: 'not MCP' },
    ],
  ])(
    'fails the call answered %s [claim:mcp-readme-http-not-json-rpc] [claim:mcpdoc-http-not-json-rpc] [claim:mcpdoc-http-error-status] [claim:errors-mcp-call-failed-output-check] [claim:errors-mcp-unavailable-during-call]',
    async (_, answer, error, expected: { kept: boolean; logged?: string; notLogged?: string }) => {
      const byHand = await serveAnswering(answer);
      try {
        agent = await startAgent(
          await McpPlugin.connect({
            servers: [{ name: 'web', url: byHand.url, tools: ['echo'] }],
            callTimeoutMs: 1_000,
          }),
          [plan('echo')],
        );
        const task = await agent.run('echo');
        expect(task.chain[1]?.error).toMatch(error);
        const messages = agent.logs.map((line) => line.msg);
        if (expected.kept) {
          expect(messages).not.toContain('MCP server disconnected; reconnecting');
        } else {
          const lost = agent.logs.find((line) => line.msg === 'MCP call lost its connection');
          expect(lost?.error).toContain(expected.logged);
          if (expected.notLogged) expect(lost?.error).not.toContain(expected.notLogged);
          expect(messages).toContain('MCP server disconnected; reconnecting');
        }
      } finally {
        await agent?.runtime.stop();
        agent = undefined;
        await byHand.close();
      }
    },
  );
});

describe('McpPlugin against a streamable HTTP server whose refusals are long', () => {
  it("logs a JSON-RPC error's message, cut with its prefix to 2000 characters, under the error id, and keeps the connection [claim:mcpdoc-call-failed-kept]", async () => {
    const message = `${'refused because '.repeat(10)}${'q'.repeat(5_000)}`;
    const byHand = await serveAnswering((id, response) =>
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32602, message } })),
    );
    try {
      agent = await startAgent(
        await McpPlugin.connect({
          servers: [{ name: 'web', url: byHand.url, tools: ['echo'] }],
        }),
        [plan('echo')],
      );
      const task = await agent.run('echo');
      const error = task.chain[1]?.error ?? '';
      expect(error).toContain('(JSON-RPC error -32602)');
      expect(error).not.toContain('refused because');
      const errorId = /error id ([0-9a-f-]{36})/.exec(error)?.[1];
      const logged = String(agent.logs.find((line) => line.errorId === errorId)?.serverMessage);
      expect(logged).toContain(`MCP error -32602: ${message.slice(0, 1_000)}`);
      expect(logged).toMatch(/q… \(\d+ characters\)$/);
      expect(logged.length).toBeLessThan(2_100);
      expect(agent.logs.map((line) => line.msg)).not.toContain(
        'MCP server disconnected; reconnecting',
      );
    } finally {
      await agent?.runtime.stop();
      agent = undefined;
      await byHand.close();
    }
  });

  it('logs what the server sent with the error status, in a message cut to 2000 characters, and reconnects [claim:mcpdoc-http-error-status]', async () => {
    const body = `${'upstream said: '.repeat(10)}${'z'.repeat(5_000)}`;
    const byHand = await serveAnswering((_id, response) =>
      response.writeHead(500, { 'content-type': 'text/plain' }).end(body),
    );
    try {
      agent = await startAgent(
        await McpPlugin.connect({
          servers: [{ name: 'web', url: byHand.url, tools: ['echo'] }],
          reconnectDelayMs: 50,
        }),
        [plan('echo')],
      );
      const task = await agent.run('echo');
      expect(task.chain[1]?.error).toContain('[WEFT_MCP_UNAVAILABLE]');
      expect(task.chain[1]?.error).not.toContain('upstream said');
      const lost = agent.logs.find((line) => line.msg === 'MCP call lost its connection');
      const logged = String(lost?.error);
      expect(logged).toContain(`Error POSTing to endpoint: ${body.slice(0, 1_000)}`);
      expect(logged).toMatch(/z… \(\d+ characters\)$/);
      expect(logged.length).toBeLessThan(2_100);
      expect(agent.logs.map((line) => line.msg)).toContain('MCP server disconnected; reconnecting');
    } finally {
      await agent?.runtime.stop();
      agent = undefined;
      await byHand.close();
    }
  });
});

describe('McpPlugin against a streamable HTTP server answering with an event stream sized to the byte', () => {
  it("counts the stream's framing in the answer bound: a message that, framed, is maxResultBytes + 64 KiB is read whole, one a byte longer is cut [claim:mcpdoc-too-large]", async () => {
    const maxResultBytes = 4_000;
    const limit = maxResultBytes + 64 * 1024;
    // The image keeps the step data small (it is kept as its size), so only the cut can fail it.
    const image = Buffer.alloc(50 * 1024, 1).toString('base64');
    /** The answer to call `id`, `bytes` long once framed as one event: `data: <message>\n\n`. */
    const framed = (id: unknown, bytes: number) => {
      const message = (padding: number) =>
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          result: {
            content: [
              { type: 'image', mimeType: 'image/png', data: image },
              { type: 'text', text: 'x'.repeat(padding) },
            ],
          },
        });
      const event = (padding: number) => `data: ${message(padding)}\n\n`;
      const text = event(bytes - event(0).length);
      expect(Buffer.byteLength(text)).toBe(bytes);
      return text;
    };
    const sizes = [limit, limit + 1];
    const byHand = await serveAnswering((id, response) =>
      response
        .writeHead(200, { 'content-type': 'text/event-stream' })
        .end(framed(id, sizes.shift() ?? 0)),
    );
    try {
      agent = await startAgent(
        await McpPlugin.connect({
          servers: [{ name: 'web', url: byHand.url, tools: ['echo'] }],
          maxResultBytes,
          reconnectDelayMs: 50,
        }),
        [plan('echo'), plan('echo')],
      );
      const whole = await agent.run('framed at the limit');
      expect(whole.chain[1]).toMatchObject({ type: 'result', action: 'web.echo' });
      const cut = await agent.run('framed a byte past it');
      expect(cut.chain[1]?.error).toMatch(
        /answered with more than 4000 bytes \(maxResultBytes\); the answer was dropped unread\. \[WEFT_MCP_RESULT_TOO_LARGE\]/,
      );
    } finally {
      await agent?.runtime.stop();
      agent = undefined;
      await byHand.close();
    }
  });
});

describe('McpPlugin over a network that drops packets without refusing them', () => {
  it.each([
    {
      what: 'under callTimeoutMs 15 s: UNAVAILABLE',
      callTimeoutMs: 15_000,
      error:
        /disconnected during the call of tool "echo"; the plugin is reconnecting\. \[WEFT_MCP_UNAVAILABLE\]/,
      // The fetch of Node.js (undici) gives up connecting after 10 s, well before callTimeoutMs.
      within: [9_000, 14_000],
      reconnects: true,
    },
    {
      what: 'under callTimeoutMs 2 s: TIMEOUT, kept',
      callTimeoutMs: 2_000,
      error: /did not answer within 2000 ms \(callTimeoutMs\)\. \[WEFT_MCP_TIMEOUT\]/,
      within: [1_800, 5_000],
      reconnects: false,
    },
  ])(
    'fails a call that needs a new connection, which fetch gives up after 10 s, $what (WEFT_MCP_UNAVAILABLE and a reconnection past 10 s, WEFT_MCP_TIMEOUT and none before) [claim:mcpdoc-http-connect-dropped] [claim:mcp-readme-http-connect-dropped]',
    async ({ callTimeoutMs, error, within, reconnects }) => {
      server = await serveOverHttp();
      const relay = spawn(
        process.execPath,
        [
          fileURLToPath(new URL('./fixtures/silent-relay.mjs', import.meta.url)),
          new URL(server.url).port,
        ],
        { stdio: ['pipe', 'pipe', 'inherit'] },
      );
      const lines = createInterface({ input: relay.stdout });
      const nextLine = () => once(lines, 'line').then(([line]) => String(line));
      const filling: Socket[] = [];
      try {
        const port = Number(await nextLine());
        const url = new URL(server.url);
        url.port = String(port);
        agent = await startAgent(
          await McpPlugin.connect({
            servers: [{ name: 'web', url: url.href, tools: ['echo'] }],
            callTimeoutMs,
            reconnectDelayMs: 50,
          }),
          [plan('echo'), { text: 'before' }, plan('echo'), { text: 'during' }],
        );
        expect((await agent.run('echo before')).chain[1]).toMatchObject({ type: 'result' });
        // Every open connection closes; then the relay stops and its accept queue fills, so the
        // kernel drops the next connection's SYN without an answer, as a dropping firewall does.
        relay.stdin.write('cut\n');
        expect(await nextLine()).toBe('cut');
        relay.kill('SIGSTOP');
        for (let index = 0; index < 3; index += 1) {
          const socket = netConnect(port, '127.0.0.1');
          socket.on('error', () => undefined);
          filling.push(socket);
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
        const started = Date.now();
        const task = await agent.run('echo while packets are dropped');
        const elapsed = Date.now() - started;
        expect(task.chain[1]?.error).toMatch(error);
        expect(elapsed).toBeGreaterThanOrEqual(within[0] ?? 0);
        expect(elapsed).toBeLessThan(within[1] ?? 0);
        const messages = agent.logs.map((line) => line.msg);
        if (reconnects) {
          expect(messages).toContain('MCP call lost its connection');
          expect(messages).toContain('MCP server disconnected; reconnecting');
        } else {
          expect(messages).not.toContain('MCP call lost its connection');
          expect(messages).not.toContain('MCP server disconnected; reconnecting');
        }
      } finally {
        for (const socket of filling) socket.destroy();
        relay.kill('SIGKILL');
        relay.kill('SIGCONT');
        lines.close();
      }
    },
    30_000,
  );
});
