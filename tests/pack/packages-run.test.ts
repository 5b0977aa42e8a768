/**
 * The packed packages that pack.test.ts, the mcp-docs tests and a generated project do not run:
 * `@weft/memory-sqlite` (a native addon, built on install for the running Node.js, or on the
 * repository's own Node.js unpacked from the binary `npm ci` built: see sqlite-prebuild.ts),
 * `@weft/memory-postgres` and `@weft/coordinator-postgres` (against a real PostgreSQL server),
 * `@weft/plugin-mcp` (with a stdio server written on the official MCP SDK) and
 * `@weft/plugin-websocket` (with a websocket client). Each is installed from its tarball into one
 * fresh project, as a user installs it, and does its job once in a runtime there. This file is
 * one of `test:packages`, so `npm run test:node-versions` runs it again on every extra Node.js
 * major.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { usePostgresPerFile } from '@weft-internal/test-support/postgres-per-file';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packedPackages } from '../../tooling/packed-packages';
import { localSqlitePrebuild } from '../support/sqlite-prebuild';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');
/** Installing builds better-sqlite3 from source where no prebuilt binary can be fetched. */
const INSTALL_TIMEOUT_MS = 600_000;
const RUN_TIMEOUT_MS = 120_000;

const PACKAGES = [
  '@weft/core',
  '@weft/testing',
  '@weft/memory-sqlite',
  '@weft/memory-postgres',
  '@weft/coordinator-postgres',
  '@weft/plugin-mcp',
  '@weft/plugin-chat',
  '@weft/plugin-websocket',
] as const;

/** A stdio MCP server with one tool, on the SDK the plugin depends on. */
const MCP_SERVER = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'packed-check', version: '1.0.0' });
server.registerTool(
  'echo',
  { description: 'Repeats the text it is given.', inputSchema: { text: z.string() } },
  ({ text }) => ({ content: [{ type: 'text', text: 'echo: ' + text }] }),
);
await server.connect(new StdioServerTransport());
`;

/**
 * One runtime on SQLite memory with the MCP plugin, which calls the server's tool; then one on
 * PostgreSQL memory and the PostgreSQL coordinator with the websocket plugin, which answers a
 * client. Prints what each did, as JSON, on its last line.
 */
const CHECK = `import { Runtime } from '@weft/core';
import { ScriptedModelProvider } from '@weft/testing';
import { SqliteMemoryProvider } from '@weft/memory-sqlite';
import { PostgresMemoryProvider } from '@weft/memory-postgres';
import { PostgresSpaceCoordinator } from '@weft/coordinator-postgres';
import { McpPlugin } from '@weft/plugin-mcp';
import { WebSocketPlugin } from '@weft/plugin-websocket';
import { WebSocket } from 'ws';

const [databaseUrl, sqlitePath] = process.argv.slice(2);

const mcp = await McpPlugin.connect({
  servers: [{ name: 'tools', command: process.execPath, args: ['mcp-server.mjs'], tools: ['echo'] }],
});
const sqlite = new SqliteMemoryProvider({ path: sqlitePath });
const first = await Runtime.init({
  models: [
    new ScriptedModelProvider({
      responses: [{ steps: [{ pluginId: 'mcp', action: 'tools.echo' }] }, { text: 'hello' }],
    }),
  ],
  memory: sqlite,
  plugins: [mcp],
});
await first.start();
const tool = await first.dispatch({ pluginId: 'mcp', triggerId: 'manual', space: 'tools' });
const stored = await sqlite.query({ space: 'tools' });
await first.stop();
await mcp.close();

const chat = new WebSocketPlugin({ port: 0, trustClientUser: true });
const postgresMemory = new PostgresMemoryProvider({ connectionString: databaseUrl });
const second = await Runtime.init({
  models: [
    new ScriptedModelProvider({
      responses: [{ steps: [{ pluginId: 'websocket', action: 'reply' }] }, 'Hello from the tarballs'],
    }),
  ],
  memory: postgresMemory,
  coordinator: new PostgresSpaceCoordinator({ connectionString: databaseUrl }),
  plugins: [chat],
});
await second.start();
const reply = await new Promise((resolve, reject) => {
  const socket = new WebSocket(chat.url);
  const deadline = setTimeout(() => reject(new Error('no reply within 30 s')), 30_000);
  socket.on('error', reject);
  socket.on('open', () =>
    socket.send(JSON.stringify({ type: 'message', id: 'm1', room: 'lobby', user: 'ada', message: 'Hi' })),
  );
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data));
    if (frame.type !== 'reply' && frame.type !== 'error') return;
    clearTimeout(deadline);
    socket.close();
    resolve(frame);
  });
});
// The reply can leave before the chain is stored: wait for it, a few seconds at most. A store
// that fails does not fail the task, so only a query shows the memories are there.
let postgresKinds = [];
for (let attempt = 0; attempt < 50 && postgresKinds.length < 2; attempt += 1) {
  if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100));
  postgresKinds = (await postgresMemory.query({ spacePrefix: 'chat-room-lobby' }))
    .map((memory) => memory.kind)
    .sort();
}
await second.stop();

console.log(
  JSON.stringify({
    node: process.versions.node,
    tool: { status: tool.status, content: tool.chain[1]?.data?.content, recorded: tool.recorded },
    stored: stored.length,
    postgresKinds,
    reply: { type: reply.type, status: reply.status, reply: reply.reply },
  }),
);
`;

interface CheckResult {
  node: string;
  tool: { status: string; content: unknown; recorded: { trigger: boolean; chain: boolean } };
  stored: number;
  postgresKinds: string[];
  reply: { type: string; status: string; reply: string };
}

describe('the packed memory, coordinator and plugin packages, installed in a fresh project', () => {
  const postgres = usePostgresPerFile('packed_', { beforeAll, afterAll });
  let work = '';
  let project = '';

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'weft-packages-run-'));
    project = path.join(work, 'project');
    await mkdir(project);
    const tarballs = await packedPackages(root, PACKAGES, work);
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({
        name: 'weft-packages-run',
        version: '1.0.0',
        private: true,
        type: 'module',
        // As the installation page tells a project with @weft/memory-sqlite: npm 12 runs
        // better-sqlite3's install script, which provides its native module, only when allowed.
        allowScripts: { 'better-sqlite3': true },
      }),
    );
    const zodRange = (
      JSON.parse(await readFile(path.join(root, 'packages/core/package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      }
    ).dependencies.zod;
    await run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        ...tarballs.map((tarball) => path.join(work, tarball.filename)),
        // The MCP server of this check declares its tool's input with zod, as the SDK asks.
        `zod@${zodRange}`,
      ],
      {
        cwd: project,
        timeout: INSTALL_TIMEOUT_MS,
        env: { ...process.env, ...(await localSqlitePrebuild(root, path.join(work, 'prebuilds'))) },
      },
    );
    await writeFile(path.join(project, 'mcp-server.mjs'), MCP_SERVER);
    await writeFile(path.join(project, 'check.mjs'), CHECK);
  }, INSTALL_TIMEOUT_MS);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it(
    'store memories in SQLite and PostgreSQL, coordinate through PostgreSQL, call an MCP tool and answer a websocket client [claim:install-node-tested-packages]',
    async () => {
      const { stdout } = await run(
        process.execPath,
        ['check.mjs', postgres.url(), path.join(work, 'memory.db')],
        {
          cwd: project,
          timeout: RUN_TIMEOUT_MS,
          env: { ...process.env, WEFT_LOG_LEVEL: 'silent' },
        },
      );
      const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as CheckResult;
      expect(result.node).toBe(process.versions.node);
      expect(result.tool).toEqual({
        status: 'completed',
        content: [{ type: 'text', text: 'echo: hello' }],
        recorded: { trigger: true, chain: true },
      });
      // The task's two memories: what triggered it and its chain.
      expect(result.stored).toBe(2);
      expect(result.reply).toEqual({
        type: 'reply',
        status: 'completed',
        reply: 'Hello from the tarballs',
      });
      // The websocket task's two memories, in PostgreSQL: a failed store would not fail the task.
      expect(result.postgresKinds).toEqual(['chain', 'trigger']);
    },
    RUN_TIMEOUT_MS,
  );
});
