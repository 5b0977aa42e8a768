/**
 * The set-ups of docs/guides/ai-assistants.md, as each client reads them: every config starts
 * the command a clone builds, `node /path/to/weft/packages/mcp-docs/dist/cli.js`, with its
 * arguments, and those arguments, given to the package's command, start a server the MCP SDK's
 * client can talk to. Here the command runs from its sources; tests/pack/
 * mcp-docs-clone-route.test.ts builds it and starts the built file. The entry for after publication
 * starts `npx -y @weft/mcp-docs`, whose only `bin` is the same command (npx itself is not run:
 * the package is not on the registry yet).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { beforeAll, describe, expect, it } from 'vitest';

const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.resolve(here, '../..');
const packageDir = path.join(root, 'packages/mcp-docs');
const cli = path.join(packageDir, 'src/cli.ts');
const nodeArgs = ['--conditions=weft-source', '--import', 'tsx', cli];

interface ServerEntry {
  type?: string;
  command?: string;
  args?: string[];
  url?: string;
}

async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(path.join(here, file), 'utf8')) as T;
}

/** The built command in a clone at /path/to/weft, as the set-ups name it. */
const BUILT_COMMAND = ['node', '/path/to/weft/packages/mcp-docs/dist/cli.js'];

/** The arguments after the built command, checking that the line starts with it. */
function packageArgs(
  command: string | undefined,
  args: readonly string[] = [],
): string[] {
  expect([command, ...args.slice(0, 1)]).toEqual(BUILT_COMMAND);
  // The package's `bin` is the file the set-ups start, under the path the build writes.
  expect(path.join(packageDir, 'dist/cli.js')).toBe(
    path.join(root, BUILT_COMMAND[1]!.replace('/path/to/weft/', '')),
  );
  return args.slice(1);
}

/** The words of a one-line shell sample. */
async function shellWords(file: string): Promise<string[]> {
  return (await readFile(path.join(here, file), 'utf8')).trim().split(/\s+/);
}

let bundleFile = '';

beforeAll(async () => {
  // A bundle of one page: these tests are about starting the server, not about its answers.
  bundleFile = path.join(
    await mkdtemp(path.join(tmpdir(), 'weft-mcp-config-')),
    'bundle.json',
  );
  await writeFile(
    bundleFile,
    JSON.stringify({
      format: 2,
      version: '0.0.0-test',
      siteUrl: 'https://weft-ai.github.io',
      pages: [
        {
          path: '/docs/',
          title: 'Weft documentation',
          description: 'The start page.',
          section: 'Docs',
          kind: 'guide',
          markdown: '# Weft documentation\n\nAgents from plugins.\n',
        },
      ],
      symbols: [],
      errors: [],
      packages: [],
    }),
  );
});

async function startsOverStdio(args: string[]): Promise<void> {
  const client = new Client({ name: 'config-check', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [...nodeArgs, ...args, '--data', bundleFile],
      cwd: root,
      stderr: 'pipe',
    }),
    { timeout: 30_000 },
  );
  try {
    expect(client.getServerVersion()?.name).toBe('weft-docs');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('search_docs');
  } finally {
    await client.close();
  }
}

describe('docs/guides/ai-assistants.md#set-it-up', () => {
  it('the package has one command, the built file the set-ups start [claim:mcp-docs-only-command] [claim:mcp-docs-clone-path]', async () => {
    const manifest = JSON.parse(
      await readFile(path.join(packageDir, 'package.json'), 'utf8'),
    ) as {
      name: string;
      bin: Record<string, string>;
    };
    expect(manifest.name).toBe('@weft/mcp-docs');
    expect(Object.keys(manifest.bin)).toEqual(['weft-docs-mcp']);
    expect(path.join(packageDir, manifest.bin['weft-docs-mcp']!)).toBe(
      path.join(root, BUILT_COMMAND[1]!.replace('/path/to/weft/', '')),
    );
  });

  it('once published: npx starts the package, whose only command is the server [claim:mcp-docs-once-published]', async () => {
    const config = await readJson<{
      mcpServers: Record<string, ServerEntry>;
    }>('once-published.mcp.json');
    const entry = config.mcpServers['weft-docs']!;
    expect([entry.command, ...(entry.args ?? [])]).toEqual([
      'npx',
      '-y',
      '@weft/mcp-docs',
    ]);
    await startsOverStdio([]);
  }, 60_000);

  it('Claude Code and Cursor: the mcpServers entry starts the server [claim:mcp-docs-clone-path]', async () => {
    for (const file of ['claude-code.mcp.json', 'cursor.mcp.json']) {
      const config = await readJson<{
        mcpServers: Record<string, ServerEntry>;
      }>(file);
      const entry = config.mcpServers['weft-docs']!;
      await startsOverStdio(packageArgs(entry.command, entry.args));
    }
  }, 90_000);

  it('VS Code: the stdio entry of servers starts the server', async () => {
    const config = await readJson<{ servers: Record<string, ServerEntry> }>(
      'vscode.mcp.json',
    );
    const entry = config.servers['weft-docs']!;
    expect(entry.type).toBe('stdio');
    await startsOverStdio(packageArgs(entry.command, entry.args));
  }, 60_000);

  it('HTTP: the command listens where the VS Code http entry points', async () => {
    const words = await shellWords('http-server.sh');
    const args = packageArgs(words[0], words.slice(1));
    const config = await readJson<{ servers: Record<string, ServerEntry> }>(
      'vscode-http.mcp.json',
    );
    const entry = config.servers['weft-docs']!;
    expect(entry.type).toBe('http');

    const child = spawn(
      process.execPath,
      [...nodeArgs, ...args, '--data', bundleFile],
      {
        cwd: root,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    try {
      const listening = await new Promise<string>((resolve, reject) => {
        let output = '';
        const deadline = setTimeout(
          () => reject(new Error(`not listening in 30 s: ${output}`)),
          30_000,
        );
        child.stderr.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /listening at (\S+)/.exec(output);
          if (match) {
            clearTimeout(deadline);
            resolve(match[1]!);
          }
        });
        child.once('exit', (code) =>
          reject(new Error(`exited with ${code}: ${output}`)),
        );
      });
      expect(listening).toBe(entry.url);
      const client = new Client({ name: 'config-check', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(entry.url!)),
      );
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('read_page');
      await client.close();
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);
});
