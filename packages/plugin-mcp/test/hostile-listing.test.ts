/**
 * A hostile MCP server's tool listing, on a real streamable HTTP server built with the official
 * SDK: pages without end, pages of thousands of large tools, and waits that must keep their
 * deadlines while the agent's heap churns (garbage collections forced between pages).
 */
import { Server as LowLevelServer } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { WeftError } from '@weft/core';
import { afterEach, describe, expect, it } from 'vitest';
// Forcing collections between pages churns the agent's heap.
import { gc } from '@weft-internal/test-support/collection';
import { McpPlugin } from '../src/index.js';
import { MAX_TOOL_PAGES } from '../src/connection.js';
import { MAX_SCHEMA_PARTS } from '../src/input-schema.js';
import { formatZodSchema } from '@weft/core';
import { inputSchemaOf } from '../src/input-schema.js';
import {
  createListingServer,
  serveOverHttp,
  type FixtureHttpServer,
} from './fixtures/fixture-server.js';
import { startAgent, type TestAgent } from './fixtures/runtime.js';

let server: FixtureHttpServer | undefined;
let agent: TestAgent | undefined;
let collecting: NodeJS.Timeout | undefined;

afterEach(async () => {
  clearInterval(collecting);
  await agent?.runtime.stop();
  await server?.close();
  agent = undefined;
  server = undefined;
});

/** Collects garbage every 50 ms, as a busy agent's heap would, until the test ends. */
function churnTheHeap(): void {
  collecting = setInterval(gc, 50);
}

/**
 * Serves a server whose `tools/list` always names a next page. Each page holds `perPage` tools
 * with 200-character names and descriptions; `echo` is on the first page when `withEcho`.
 */
async function pagingServer(
  perPage: number,
  withEcho: boolean,
  delays: Readonly<Record<string, number>> = {},
): Promise<{ pages: () => number }> {
  let pages = 0;
  const create = () => {
    const mcp = new LowLevelServer(
      { name: 'endless-pages', version: '1.0.0' },
      { capabilities: { tools: {} } },
    );
    mcp.setRequestHandler(ListToolsRequestSchema, (request) => {
      pages += 1;
      const page = Number(request.params?.cursor ?? 0);
      const tools = Array.from({ length: perPage }, (_, index) => ({
        name: `t${page}-${index}-${'x'.repeat(200)}`,
        description: 'd'.repeat(200),
        inputSchema: { type: 'object' as const },
      }));
      if (withEcho && page === 0) {
        tools.push({ name: 'echo', description: 'Echoes.', inputSchema: { type: 'object' } });
      }
      return { tools, nextCursor: String(page + 1) };
    });
    mcp.setRequestHandler(CallToolRequestSchema, () => ({
      content: [{ type: 'text', text: 'still answering' }],
    }));
    return mcp;
  };
  server = await serveOverHttp(0, create, delays);
  return { pages: () => pages };
}

describe('McpPlugin against a server whose tool listing never ends, and its deadlines', () => {
  it('stops listing once every allow-listed tool is found, keeping only those [claim:mcp-tool-listing-bound] [claim:mcp-readme-listing-pages]', async () => {
    const { pages } = await pagingServer(2_000, true);
    const plugin = await McpPlugin.connect({
      servers: [{ name: 'pages', url: server?.url ?? '', tools: ['echo'] }],
      connectTimeoutMs: 5_000,
    });
    try {
      // Read to its end, the listing grew the agent by some 30 MB a second until the deadline.
      expect(pages()).toBe(1);
      expect(plugin.executors.map((executor) => executor.action)).toEqual(['pages.echo']);
    } finally {
      await plugin.close();
    }
  });

  it('gives up after 100 pages without the allow-listed tool, naming a bounded list of the others [claim:mcp-allow-list] [claim:mcp-tool-listing-bound] [claim:mcp-readme-listing-pages] [claim:errors-mcp-unknown-tool-list]', async () => {
    const { pages } = await pagingServer(1, false);
    const error = await McpPlugin.connect({
      servers: [{ name: 'pages', url: server?.url ?? '', tools: ['echo'] }],
      connectTimeoutMs: 60_000,
    }).catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_MCP_UNKNOWN_TOOL')).toBe(true);
    expect(pages()).toBe(MAX_TOOL_PAGES);
    expect(MAX_TOOL_PAGES).toBe(100);
    const message = (error as Error).message;
    expect(message).toMatch(/has no tool "echo".*"t0-0-x+.*and more \(the listing is read up to/);
    // 50 names of at most 100 characters and the sentence around them.
    expect(message.length).toBeLessThan(50 * 140 + 500);
  }, 30_000);

  it('names the allowed tools it found and at most 50 others when one allowed tool is missing [claim:mcp-allow-list] [claim:errors-mcp-unknown-tool-list]', async () => {
    await pagingServer(1, true);
    const error = await McpPlugin.connect({
      servers: [{ name: 'pages', url: server?.url ?? '', tools: ['echo', 'missing'] }],
      connectTimeoutMs: 60_000,
    }).catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_MCP_UNKNOWN_TOOL')).toBe(true);
    const listed = (error as Error).message.split('; it has ')[1] ?? '';
    expect(listed.startsWith('"echo", ')).toBe(true);
    expect(listed.match(/"t\d+-\d+-x+… \(\d+ characters\)"/g)).toHaveLength(50);
    expect(listed).toContain(' and more (the listing is read up to');
  }, 30_000);

  it('keeps connectTimeoutMs while garbage is collected during the listing [claim:mcp-tool-listing-bound]', async () => {
    // 100 pages of 150 ms each outlast the deadline; only the deadline can end the wait in time.
    await pagingServer(200, false, { 'tools/list': 150 });
    churnTheHeap();
    const started = Date.now();
    const error = await McpPlugin.connect({
      servers: [{ name: 'pages', url: server?.url ?? '', tools: ['echo'] }],
      connectTimeoutMs: 1_000,
    }).catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_MCP_CONNECT_FAILED')).toBe(true);
    // A lost deadline reads all 100 pages, which takes at least 15 s: the bound sits short of
    // that, with 12 s for a loaded machine to start the server and end the connection.
    expect(Date.now() - started).toBeLessThan(1_000 + 12_000);
  }, 30_000);

  it('keeps callTimeoutMs while garbage is collected and the server stays away', async () => {
    server = await serveOverHttp();
    agent = await startAgent(
      await McpPlugin.connect({
        servers: [{ name: 'pages', url: server?.url ?? '', tools: ['echo'] }],
        callTimeoutMs: 1_000,
        reconnectDelayMs: 60_000,
      }),
      [
        { steps: [{ pluginId: 'mcp', action: 'pages.echo' }] },
        { text: 'first' },
        { steps: [{ pluginId: 'mcp', action: 'pages.echo' }] },
        { text: 'second' },
      ],
    );
    await server?.close();
    server = undefined;
    // The first call finds the server gone; the second waits for a reconnection that is a
    // minute away, and only its deadline can end that wait.
    const lost = await agent.run('echo while the server is gone');
    expect(lost.chain[1]?.error).toMatch(/disconnected during the call/);
    churnTheHeap();
    const started = Date.now();
    const waited = await agent.run('echo again');
    expect(waited.chain[1]?.error).toMatch(/is disconnected and was not back within 1000 ms/);
    // A lost deadline would wait for the reconnection a minute away: the bound sits far short of
    // that, and leaves a loaded machine 19 s to run the task around the call.
    expect(Date.now() - started).toBeLessThan(1_000 + 19_000);
  }, 60_000);
});

/** A schema of `levels` definitions, each referring twice to the next: 2^levels parts written out. */
function schemaBomb(levels: number): Record<string, unknown> {
  const defs: Record<string, unknown> = { [`a${levels}`]: { type: 'string' } };
  for (let level = 0; level < levels; level += 1) {
    const next = { $ref: `#/$defs/a${level + 1}` };
    defs[`a${level}`] = { type: 'object', properties: { left: next, right: next } };
  }
  return { type: 'object', properties: { x: { $ref: '#/$defs/a0' } }, $defs: defs };
}

/** Serves `createListingServer(name, tools)`, whose every tool call answers "still answering". */
async function serveTools(name: string, tools: readonly unknown[]): Promise<void> {
  server = await serveOverHttp(0, () =>
    createListingServer(name, tools, () => ({
      content: [{ type: 'text', text: 'still answering' }],
    })),
  );
}

/** A well-formed tool, the one the tests below allow beside tools that are not. */
const ECHO_TOOL = { name: 'echo', description: 'Echoes.', inputSchema: { type: 'object' } };

/** Serves one tool, `tree`, whose input schema is `inputSchema`. */
async function oneToolServer(inputSchema: Record<string, unknown>): Promise<void> {
  await serveTools('one-tool', [{ name: 'tree', description: 'Takes a tree.', inputSchema }]);
}

/** Connects to the served server as `web` allowing only `echo`, and checks a call of it answers. */
async function expectEchoAnswers(): Promise<void> {
  agent = await startAgent(
    await McpPlugin.connect({
      servers: [{ name: 'web', url: server?.url ?? '', tools: ['echo'] }],
    }),
    [{ steps: [{ pluginId: 'mcp', action: 'web.echo' }] }],
  );
  const task = await agent.run('echo');
  expect(task.chain[1]?.error).toBeUndefined();
  expect(JSON.stringify(task.chain[1]?.data)).toContain('still answering');
}

/** What connecting to the served server as `web`, allowing `echo` and `tool`, fails with. */
async function connectErrorAllowing(tool: string): Promise<Error> {
  const error = await McpPlugin.connect({
    servers: [{ name: 'web', url: server?.url ?? '', tools: ['echo', tool] }],
  }).catch((caught: unknown) => caught);
  expect(WeftError.is(error, 'WEFT_MCP_CONNECT_FAILED')).toBe(true);
  return error as Error;
}

describe('McpPlugin against an allowed tool whose input schema zod cannot convert', () => {
  it.each([
    ['an if/then', { if: { required: ['a'] }, then: { required: ['b'] } }],
    ['a not', { not: { required: ['a'] } }],
    ['a $ref to nowhere', { properties: { a: { $ref: '#/$defs/missing' } } }],
  ])(
    'stops connect on %s with WEFT_MCP_UNSUPPORTED_SCHEMA, naming the tool [claim:mcpdoc-unsupported-schema] [claim:mcp-readme-unsupported-schema] [claim:mcp-readme-failures-step-errors]',
    async (_what, schema) => {
      await oneToolServer({ type: 'object', properties: { a: { type: 'string' } }, ...schema });
      const error = await McpPlugin.connect({
        servers: [{ name: 'odd', url: server?.url ?? '', tools: ['tree'] }],
      }).catch((caught: unknown) => caught);
      expect(WeftError.is(error, 'WEFT_MCP_UNSUPPORTED_SCHEMA')).toBe(true);
      expect((error as Error).message).toContain(
        'the input schema of tool "tree" on server "odd" cannot be checked',
      );
    },
  );
});

describe('McpPlugin against a tool whose input schema is a $ref bomb', () => {
  it('refuses at connect a schema that would grow past MAX_SCHEMA_PARTS once its $refs are written out [claim:mcp-schema-parts-bound]', async () => {
    // 40 levels: a 2 KB schema the model would be shown as 2^40 parts on the first call.
    await oneToolServer(schemaBomb(40));
    const started = Date.now();
    const error = await McpPlugin.connect({
      servers: [{ name: 'bomb', url: server?.url ?? '', tools: ['tree'] }],
    }).catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_MCP_UNSUPPORTED_SCHEMA')).toBe(true);
    expect((error as Error).message).toContain(
      `has more than ${MAX_SCHEMA_PARTS} parts once its $refs are followed`,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('takes an input schema of 5000 parts and refuses one of 5001 [claim:mcp-schema-parts-bound]', () => {
    /** An object of `count` string properties: itself, its properties map and one part each. */
    const flat = (count: number) => ({
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: count }, (_, index) => [`p${index}`, { type: 'string' }]),
      ),
    });
    expect(() =>
      inputSchemaOf('s', { name: 'wide', inputSchema: flat(4998) } as never),
    ).not.toThrow();
    let refusal: unknown;
    try {
      inputSchemaOf('s', { name: 'wide', inputSchema: flat(4999) } as never);
    } catch (error) {
      refusal = error;
    }
    expect(WeftError.is(refusal, 'WEFT_MCP_UNSUPPORTED_SCHEMA')).toBe(true);
    expect((refusal as Error).message).toContain('has more than 5000 parts');
  });

  it('takes a schema that refers to itself, and one whose written-out form stays small [claim:mcp-schema-parts-bound]', async () => {
    const recursive = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/node' } },
      $defs: {
        node: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
        },
      },
    };
    await oneToolServer(recursive);
    const plugin = await McpPlugin.connect({
      servers: [{ name: 'trees', url: server?.url ?? '', tools: ['tree'] }],
    });
    await plugin.close();
    expect(plugin.executors.map((executor) => executor.action)).toEqual(['trees.tree']);
    // Eight levels write out to some 500 parts: shown to the model whole, in well under a second.
    const small = inputSchemaOf('s', { name: 'tree', inputSchema: schemaBomb(8) } as never);
    expect(formatZodSchema(small).length).toBeLessThan(200_000);
  });
});

describe('McpPlugin against tools outside the allow-list whose schemas cannot be compiled', () => {
  it('connects and calls the allowed tool when another tool of the listing has an outputSchema that cannot be compiled [claim:mcp-readme-unlisted-schemas]', async () => {
    await serveTools('broken-neighbour', [
      ECHO_TOOL,
      {
        name: 'other',
        description: 'Not allowed.',
        inputSchema: { type: 'object' },
        // A reference to nowhere: compiling this schema throws.
        outputSchema: { type: 'object', properties: { a: { $ref: '#/nowhere' } } },
      },
    ]);
    await expectEchoAnswers();
  });
});

describe('McpPlugin against an allowed tool whose outputSchema cannot be compiled', () => {
  it('stops connect naming the tool [claim:mcp-readme-unlisted-schemas] [claim:errors-mcp-connect-failed-reason]', async () => {
    await serveTools('broken-allowed', [
      ECHO_TOOL,
      {
        name: 'report',
        description: 'Allowed, with a reference to nowhere in its outputSchema.',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', properties: { a: { $ref: '#/nowhere' } } },
      },
    ]);
    const error = await connectErrorAllowing('report');
    expect(error.message).toContain(
      'the server\'s tool "report" has an outputSchema that cannot be compiled (',
    );
  });
});

describe('McpPlugin against tools outside the allow-list that break MCP rules for a tool', () => {
  /** Serves `neighbours`, then `echo`, in one listing page. */
  async function serveWith(neighbours: readonly unknown[]): Promise<void> {
    await serveTools('bad-neighbours', [...neighbours, ECHO_TOOL]);
  }

  it('connects and calls the allowed tool when others of the listing have an input schema the SDK refuses, or no name [claim:mcp-readme-unlisted-schemas]', async () => {
    await serveWith([
      { name: 'typed', inputSchema: { type: 'string' } },
      { name: 'boolean-property', inputSchema: { type: 'object', properties: { a: true } } },
      { inputSchema: { type: 'object' } },
    ]);
    await expectEchoAnswers();
  });

  it('stops connect naming an allowed tool that breaks those rules [claim:mcp-readme-unlisted-schemas] [claim:errors-mcp-connect-failed-reason]', async () => {
    await serveWith([{ name: 'typed', inputSchema: { type: 'string' } }]);
    const error = await connectErrorAllowing('typed');
    expect(error.message).toContain(
      'the server listed its tool "typed" in a form MCP does not allow (inputSchema.type:',
    );
  });
});

describe('McpPlugin against an allowed tool that needs task-based execution', () => {
  it("stops connect naming the tool, which the SDK's client would refuse to call [claim:mcp-readme-task-required] [claim:errors-mcp-connect-failed-reason]", async () => {
    await serveTools('tasks-only', [
      ECHO_TOOL,
      {
        name: 'report',
        description: 'Runs as a task only.',
        inputSchema: { type: 'object' },
        execution: { taskSupport: 'required' },
      },
    ]);
    const error = await connectErrorAllowing('report');
    expect(error.message).toContain(
      "the server's tool \"report\" needs task-based execution (execution.taskSupport: 'required'), which the plugin does not support",
    );
    // Outside the allow-list, such a tool is no obstacle.
    const plugin = await McpPlugin.connect({
      servers: [{ name: 'web', url: server?.url ?? '', tools: ['echo'] }],
    });
    await plugin.close();
  });
});
