/**
 * `@weft/mcp-docs` as `npx -y @weft/mcp-docs` gets it: the packed tarball (its `prepack` builds
 * the docs bundle and `dist/`) installed in a project outside the repository with the packed
 * `@weft/core`, its `weft-docs-mcp` command started by the MCP SDK's client over stdio, and the
 * bundle it carries answering without the repository.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packWorkspacePackages } from '../../packages/create-weft/src/weft-packages';

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
    const packed = await packWorkspacePackages(root, ['@weft/core', '@weft/mcp-docs'], work);
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
});
