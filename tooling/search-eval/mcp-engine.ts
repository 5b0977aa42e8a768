/**
 * `search_docs` of `@weft/mcp-docs`, asked as an assistant asks it: the server started from its
 * sources over stdio and called through the MCP SDK's client. Reads the package's generated docs
 * bundle (packages/mcp-docs/data/, written by `npm run build -w @weft/mcp-docs` after the site's
 * `npm run build`).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SearchEngine } from './site-engine';

const siteDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const CLI_ENTRY = path.join(siteDir, 'packages', 'mcp-docs', 'src', 'cli.ts');
const CALL_DEADLINE_MS = 30_000;
/** As many pages as the tool gives; hit@3 and MRR look at the first few. */
const LIMIT = 20;

/** The `path:` lines of the tool's ranked answer, in order. */
export function pathsOfAnswer(text: string): string[] {
  return [...text.matchAll(/^\s*path: (\S+)$/gm)].map((match) => match[1] ?? '');
}

export async function openMcpSearch(): Promise<SearchEngine> {
  const client = new Client({ name: 'weft-eval-search', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=weft-source', '--import', 'tsx', CLI_ENTRY],
      cwd: siteDir,
      stderr: 'inherit',
    }),
    { timeout: CALL_DEADLINE_MS },
  );
  return {
    async search(query) {
      const result = (await client.callTool(
        { name: 'search_docs', arguments: { query, limit: LIMIT } },
        undefined,
        { timeout: CALL_DEADLINE_MS },
      )) as CallToolResult;
      // "No page matches" is an error result: an empty ranking, not a failure of the run.
      if (result.isError) {
        return [];
      }
      const text = result.content.map((item) => (item.type === 'text' ? item.text : '')).join('\n');
      return pathsOfAnswer(text);
    },
    close: () => client.close(),
  };
}
