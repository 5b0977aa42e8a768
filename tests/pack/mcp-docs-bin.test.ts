/**
 * `@weft/mcp-docs` as `npx -y @weft/mcp-docs` gets it: the packed tarball (its `prepack` builds
 * the docs bundle and `dist/`) installed in a project outside the repository with the packed
 * `@weft/core`, its `weft-docs-mcp` command started by the MCP SDK's client over stdio, and the
 * bundle it carries answering without the repository; and over streamable HTTP, the server
 * scenarios of the MCP conformance suite (@modelcontextprotocol/conformance) that apply to it.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packedPackages } from '../../tooling/packed-packages';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');
// Packing builds @weft/core and this package (docs bundle, then tsup with declarations) first.
const TIMEOUT = 600_000;

describe('the packed @weft/mcp-docs tarball', () => {
  let work = '';
  let project = '';
  let files: string[] = [];

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'weft-pack-mcp-docs-'));
    project = path.join(work, 'project');
    const packed = await packedPackages(root, ['@weft/core', '@weft/mcp-docs'], work);
    files = packed.find((entry) => entry.name === '@weft/mcp-docs')!.files.map((file) => file.path);
    await mkdir(project);
    await writeFile(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'weft-mcp-docs-check', version: '1.0.0', private: true }),
    );
    // Everything the tarballs depend on is in the npm cache since the workspace install.
    await run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        ...packed.map((entry) => path.join(work, entry.filename)),
      ],
      { cwd: project },
    );
  }, TIMEOUT);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('carries its docs bundle and its command', () => {
    expect(files).toEqual(expect.arrayContaining(['data/docs-bundle.json', 'dist/cli.js']));
  });

  it(
    'starts from node_modules/.bin and answers from the bundle it carries',
    async () => {
      const client = new Client({ name: 'pack-check', version: '1.0.0' });
      await client.connect(
        new StdioClientTransport({
          command: path.join(project, 'node_modules/.bin/weft-docs-mcp'),
          cwd: project,
          stderr: 'pipe',
        }),
        { timeout: 30_000 },
      );
      try {
        const result = (await client.callTool({
          name: 'explain_error',
          arguments: { code: 'WEFT_INVALID_CONFIG' },
        })) as CallToolResult;
        expect(result.isError).not.toBe(true);
        expect((result.content[0] as { text: string }).text).toContain(
          '/docs/reference/errors/#weft_invalid_config',
        );
        const { resources } = await client.listResources();
        expect(resources.length).toBeGreaterThan(50);
      } finally {
        await client.close();
      }
    },
    TIMEOUT,
  );

  // The conformance suite's client crashes on Node.js 20 (its HTTP library needs a newer
  // runtime); npm test runs this file again on Node 22, 24 and 26 (EXTRA_TESTED_NODE_MAJORS).
  it.skipIf(Number(process.versions.node.split('.')[0]) < 22)(
    'passes the conformance suite’s server scenarios that apply to a docs server over HTTP',
    async () => {
      const port = await freePort();
      const server = spawn(
        path.join(project, 'node_modules/.bin/weft-docs-mcp'),
        ['--http', '--port', String(port)],
        { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      try {
        await listening(server, port);
        const results: Record<string, string> = {};
        for (const scenario of CONFORMANCE_SCENARIOS) {
          results[scenario] = await conformance(scenario, `http://127.0.0.1:${port}/mcp`);
        }
        // Each scenario's summary, e.g. "Passed: 2/2, 0 failed, 0 warnings".
        for (const scenario of CONFORMANCE_SCENARIOS) {
          expect(results[scenario], scenario).toMatch(/Passed: (\d+)\/\1, 0 failed/);
        }
      } finally {
        server.kill();
      }
    },
    TIMEOUT,
  );
});

/**
 * The suite's server scenarios that test what any server must do. The others call fixture
 * tools, prompts and resources of the suite's own example server (`test_simple_text`,
 * `test://static-text`) or capabilities this server does not offer (logging, completion,
 * subscriptions, sampling, elicitation).
 */
const CONFORMANCE_SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
  'dns-rebinding-protection',
] as const;

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, 'close');
  return port;
}

/** Resolves once the server says it listens; rejects when it exits or is silent for 30 s. */
function listening(server: ReturnType<typeof spawn>, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const deadline = setTimeout(
      () => reject(new Error(`weft-docs-mcp did not listen on ${port} within 30 s: ${output}`)),
      30_000,
    );
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`:${port}/mcp`)) {
        clearTimeout(deadline);
        resolve();
      }
    };
    server.stdout?.on('data', read);
    server.stderr?.on('data', read);
    server.once('exit', (code) => {
      clearTimeout(deadline);
      reject(new Error(`weft-docs-mcp exited with ${code}: ${output}`));
    });
  });
}

/** The suite's output for one scenario (it exits non-zero when a check fails). */
async function conformance(scenario: string, url: string): Promise<string> {
  const cli = path.join(root, 'node_modules/.bin/conformance');
  try {
    const { stdout, stderr } = await run(cli, ['server', '--url', url, '--scenario', scenario], {
      timeout: 120_000,
    });
    return `${stdout}${stderr}`;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    return `${failed.stdout ?? ''}${failed.stderr ?? ''}${failed.message}`;
  }
}
