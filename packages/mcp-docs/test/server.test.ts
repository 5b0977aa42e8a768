/**
 * The docs server's answers, driven in memory by the MCP SDK's own client over a small
 * hand-written bundle: an unexpected failure answered without its details and logged under an
 * id, the length bound on names, the page paths it understands, and one resource per page.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FailureLog } from '../src/answers.js';
import type { DocsBundle } from '../src/bundle.js';
import { resourceUri } from '../src/resources.js';
import { createDocsServer } from '../src/server.js';
import { MAX_NAME_LENGTH } from '../src/tools.js';
import { call, DAMAGED_SYMBOL, TOOLS_BUNDLE as bundle, TOOLS_SITE as SITE } from './support.js';

/** The tools' bundle with a symbol whose members are missing, to make a tool fail. */
const damaged: DocsBundle = { ...bundle, symbols: [...bundle.symbols, DAMAGED_SYMBOL] };

const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  vi.restoreAllMocks();
});

/** The server from createDocsServer, connected in memory to the SDK's client. */
async function connected(log?: FailureLog, docs: DocsBundle = bundle): Promise<Client> {
  const server = log === undefined ? createDocsServer(docs) : createDocsServer(docs, log);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'weft-docs-test', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

const ERROR_ID = /error id ([0-9a-f-]{36})/;

describe('unexpected failures and input errors', () => {
  it('answers an unexpected failure without its details, and writes them to log under the id it gives [claim:tsdoc-docs-guarded] [claim:tsdoc-docs-server-log]', async () => {
    const lines: string[] = [];
    const client = await connected((line) => lines.push(line), damaged);
    const { text, isError } = await call(client, 'get_api_symbol', { name: 'Damaged' });
    expect(isError).toBe(true);
    expect(text).toMatch(
      /^get_api_symbol failed on the server; the server's log has the details under id [0-9a-f-]{36}\.$/,
    );
    expect(text).not.toContain('TypeError');
    const id = /under id ([0-9a-f-]{36})/.exec(text)?.[1];
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(ERROR_ID);
    expect(ERROR_ID.exec(lines[0] ?? '')?.[1]).toBe(id);
    expect(lines[0]).toContain('TypeError');
    // The server goes on answering.
    expect((await call(client, 'get_api_symbol', { name: 'Runtime' })).isError).toBe(false);
  });

  it('writes unexpected failures to stderr when no log is given [claim:tsdoc-docs-failure-log] [claim:tsdoc-docs-server-log]', async () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const client = await connected(undefined, damaged);
    const { text } = await call(client, 'get_api_symbol', { name: 'Damaged' });
    const id = /under id ([0-9a-f-]{36})/.exec(text)?.[1];
    expect(id).toBeDefined();
    expect(written.join('')).toContain(`get_api_symbol failed (error id ${id})`);
  });

  it('answers input the docs cannot answer with its own message, and logs nothing [claim:tsdoc-docs-guarded] [claim:tsdoc-docs-tool-input-error] [claim:tsdoc-docs-did-you-mean] [claim:tsdoc-docs-server-connect]', async () => {
    const lines: string[] = [];
    const client = await connected((line) => lines.push(line));
    const { text, isError } = await call(client, 'explain_error', { code: 'WEFT_QUEUE_FUL' });
    expect(isError).toBe(true);
    expect(text).toBe(
      'No Weft package raises the error code "WEFT_QUEUE_FUL". Did you mean: WEFT_QUEUE_FULL?',
    );
    expect(lines).toEqual([]);
  });
});

describe('unknown names', () => {
  it('names an unknown path, adding no "Did you mean" when no page is near [claim:mcp-docs-readme-bad-input]', async () => {
    const client = await connected();
    const { text, isError } = await call(client, 'read_page', { path: '/zzzz/qqqq/' });
    expect(isError).toBe(true);
    expect(text).toBe('No page has the path "/zzzz/qqqq/".');
  });

  it('answers a read of a resource that is no page with a JSON-RPC error naming its URI [claim:mcp-docs-readme-unknown-resource]', async () => {
    const client = await connected();
    const uri = 'weft-docs://pages/docs/nope/';
    const failure = await client.readResource({ uri }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(McpError);
    expect((failure as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((failure as McpError).message).toContain(uri);
  });
});

describe('the length bound on names', () => {
  it('refuses a path, name, code or kind longer than MAX_NAME_LENGTH, and takes one of exactly that length [claim:tsdoc-mcp-max-name] [claim:mcp-docs-bad-input]', async () => {
    const client = await connected();
    const long = 'a'.repeat(MAX_NAME_LENGTH + 1);
    for (const [tool, argument] of [
      ['read_page', 'path'],
      ['get_api_symbol', 'name'],
      ['explain_error', 'code'],
    ] as const) {
      const { text, isError } = await call(client, tool, { [argument]: long });
      expect(isError, tool).toBe(true);
      expect(text, tool).toContain(`${argument} is longer than ${MAX_NAME_LENGTH} characters`);
      const fits = await call(client, tool, { [argument]: 'a'.repeat(MAX_NAME_LENGTH) });
      expect(fits.text, tool).not.toContain('is longer than');
    }
    const kind = await call(client, 'list_plugins', { kind: long });
    expect(kind.isError).toBe(true);
    expect(kind.text).toContain('kind');
    expect(kind.text).not.toContain('No package has the kind');
  });

  it('takes a query of 300 characters and a name of 200, the figures the guide gives, and refuses one more [claim:mcp-docs-bad-input]', async () => {
    const client = await connected();
    const query = await call(client, 'search_docs', { query: 'a'.repeat(301) });
    expect(query.isError).toBe(true);
    expect(query.text).toContain('query is longer than 300 characters');
    expect((await call(client, 'search_docs', { query: 'a'.repeat(300) })).text).not.toContain(
      'is longer than',
    );
    const path = await call(client, 'read_page', { path: 'a'.repeat(201) });
    expect(path.isError).toBe(true);
    expect(path.text).toContain('path is longer than 200 characters');
    expect((await call(client, 'read_page', { path: 'a'.repeat(200) })).text).not.toContain(
      'is longer than',
    );
  });
});

describe("search_docs's limit", () => {
  it('answers 8 pages unless asked, up to 20, and refuses more [claim:mcp-docs-search-limit] [claim:mcp-docs-bad-input]', async () => {
    // Thirty pages that all match the query.
    const pages = Array.from({ length: 30 }, (_, index) => ({
      path: `/docs/loom-${index}/`,
      title: `Loom ${index}`,
      description: '',
      section: 'Guides',
      kind: 'guide' as const,
      markdown: `# Loom ${index}\n\nA loom weaves cloth.\n`,
    }));
    const client = await connected(undefined, { ...bundle, pages });
    const count = async (args: Record<string, unknown>): Promise<number> =>
      (await call(client, 'search_docs', args)).text.match(/^ {3}path: /gm)?.length ?? 0;
    expect(await count({ query: 'loom' })).toBe(8);
    expect(await count({ query: 'loom', limit: 20 })).toBe(20);
    expect(await count({ query: 'loom', limit: 1 })).toBe(1);
    for (const limit of [0, 21]) {
      const refused = await call(client, 'search_docs', { query: 'loom', limit });
      expect(refused.isError, String(limit)).toBe(true);
      expect(refused.text).toContain('limit');
    }
  });
});

describe('page paths', () => {
  it('finds the page with or without the site, slashes, `.md`, `/index`, an anchor or a query [claim:tsdoc-mcp-normalise-path-anchor]', async () => {
    const client = await connected();
    for (const path of [
      `${SITE}/docs/guides/production/`,
      'docs/guides/production',
      '/docs/guides/production.md',
      '/docs/guides/production/index.md',
      '/docs/guides/production/#limits',
      `${SITE}/docs/guides/production?from=search`,
    ]) {
      const { text, isError } = await call(client, 'read_page', { path });
      expect(isError, path).toBe(false);
      expect(text, path).toMatch(/^# Running in production/);
    }
  });
});

describe('page resources', () => {
  it('puts the page path under weft-docs://pages, one resource per page [claim:tsdoc-docs-resource-uri]', async () => {
    expect(resourceUri('/docs/guides/production/')).toBe(
      'weft-docs://pages/docs/guides/production/',
    );
    const client = await connected();
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(
      bundle.pages.map((page) => resourceUri(page.path)),
    );
  });
});

describe('explain_error', () => {
  it('gives the summary, the HTTP status, what raises it, cause, fix and the address of its section of the errors reference [claim:mcp-docs-readme-error-row]', async () => {
    const client = await connected();
    const { text, isError } = await call(client, 'explain_error', { code: 'weft_queue_full' });
    expect(isError).toBe(false);
    expect(text.split('\n\n')).toEqual([
      '# WEFT_QUEUE_FULL (@weft/core)',
      'The queue is full.\nHTTP status: 503',
      'Raised by: `Runtime.dispatch`',
      'Cause: too many tasks wait.',
      'Fix: raise `maxQueueSize`.',
      `Docs: ${SITE}/docs/reference/errors/#weft_queue_full`,
    ]);
  });
});

describe('answers that match nothing', () => {
  it('answers a query no page matches, and a kind no package has, with a tool error [claim:mcp-docs-readme-no-match] [claim:mcp-docs-bad-input]', async () => {
    const client = await connected();
    const search = await call(client, 'search_docs', { query: 'qqqqzzzzxxxx' });
    expect(search.isError).toBe(true);
    expect(search.text).toContain('No page matches "qqqqzzzzxxxx".');
    expect(search.text).not.toContain('Did you mean');
    const near = await call(client, 'search_docs', { query: 'Rntme' });
    expect(near.isError).toBe(true);
    expect(near.text).toContain('No page matches "Rntme". Did you mean: Runtime?');
    const kind = await call(client, 'list_plugins', { kind: 'widgets' });
    expect(kind.isError).toBe(true);
    expect(kind.text).toBe('No package has the kind "widgets". The kinds are: plugin.');
  });
});
