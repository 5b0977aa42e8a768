/**
 * Claims the TSDoc comments of `@weft/mcp-docs` make (server, bundle, answers, resources, tools,
 * cli-options and the command), which no other test checked. A small hand-written bundle keeps
 * these fast: the server is driven by the MCP SDK's own client, in memory or, for the command,
 * over streamable HTTP to a real child process. Each describe names the symbol it guards.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { WeftError } from '@weft/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FailureLog } from '../src/answers.js';
import {
  BUNDLE_FORMAT,
  DEFAULT_BUNDLE_FILE,
  loadDocsBundle,
  type ApiMember,
  type DocsBundle,
} from '../src/bundle.js';
import { DEFAULT_HTTP_PORT, parseCliOptions, USAGE } from '../src/cli-options.js';
import { resourceUri } from '../src/resources.js';
import { createDocsServer } from '../src/server.js';
import { MAX_NAME_LENGTH } from '../src/tools.js';
import { CLI_ENTRY, NODE_SOURCE_ARGS, PACKAGE_DIR, ROOT_DIR } from './support.js';

const SITE = 'https://docs.example';

/** Two pages, two symbols (one damaged, so its tool fails unexpectedly), one code, one package. */
const bundle: DocsBundle = {
  format: BUNDLE_FORMAT,
  version: '9.9.9',
  siteUrl: SITE,
  pages: [
    {
      path: '/docs/guides/production/',
      title: 'Running in production',
      description: 'How to run an agent as a service.',
      section: 'Guides',
      kind: 'guide',
      markdown: '# Running in production\n\n## Limits\n\nA body over 1 MB is refused.\n',
    },
    {
      path: '/api/classes/Runtime/',
      title: 'Runtime',
      description: '',
      section: 'API reference: classes',
      kind: 'api',
      markdown: '# Class: Runtime\n\nThe agent.\n',
    },
  ],
  symbols: [
    {
      name: 'Runtime',
      kind: 'class',
      signature: 'class Runtime',
      doc: 'The agent.',
      members: [],
      packageName: '@weft/core',
      docsPath: '/api/classes/Runtime/',
    },
    {
      name: 'Damaged',
      kind: 'class',
      signature: 'class Damaged',
      doc: 'A record whose members are missing.',
      members: null as unknown as ApiMember[],
      packageName: '@weft/core',
      docsPath: '/api/classes/Damaged/',
    },
  ],
  errors: [
    {
      code: 'WEFT_QUEUE_FULL',
      packageName: '@weft/core',
      summary: 'The queue is full.',
      status: 503,
      raisedBy: '`Runtime.dispatch`',
      cause: 'too many tasks wait.',
      fix: 'raise `maxQueueSize`.',
      docsPath: '/docs/reference/errors/#weft_queue_full',
    },
  ],
  packages: [
    {
      name: '@weft/plugin-chat',
      displayName: 'Chat',
      kind: 'plugin',
      version: '9.9.9',
      description: 'A chat trigger.',
      keywords: ['chat'],
      provides: ['Trigger chat/message'],
      requires: ['Weft runtime'],
      worksWith: ['@weft/core 9.9.9'],
      runsOn: ['Node.js ^22.12.0'],
      install: 'npm install @weft/plugin-chat',
      onNpm: false,
      installationPath: '/docs/installation/',
      docsPath: '/docs/building-plugins/http-chat/',
    },
  ],
};

const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  vi.restoreAllMocks();
});

/** The server from createDocsServer, connected in memory to the SDK's client. */
async function connected(log?: FailureLog): Promise<Client> {
  const server = log === undefined ? createDocsServer(bundle) : createDocsServer(bundle, log);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'weft-docs-tsdoc-test', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  return { text, isError: result.isError === true };
}

const ERROR_ID = /error id ([0-9a-f-]{36})/;

describe('TSDoc of createDocsServer and guarded', () => {
  it('answers an unexpected failure without its details, and writes them to log under the id it gives [claim:tsdoc-docs-guarded] [claim:tsdoc-docs-server-log]', async () => {
    const lines: string[] = [];
    const client = await connected((line) => lines.push(line));
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
    const client = await connected();
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

describe('TSDoc of MAX_NAME_LENGTH', () => {
  it('refuses a path, name, code or kind longer than it, and takes one of exactly that length [claim:tsdoc-mcp-max-name]', async () => {
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
});

describe('TSDoc of normalisePath', () => {
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

describe('TSDoc of resourceUri', () => {
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

describe('TSDoc of loadDocsBundle and DEFAULT_BUNDLE_FILE', () => {
  it('reads the bundle from data/ in the package, beside dist/, by default [claim:tsdoc-docs-bundle-default-file]', () => {
    expect(dirname(DEFAULT_BUNDLE_FILE)).toBe(join(PACKAGE_DIR, 'data'));
  });

  it('refuses a file of the right format that lacks a list [claim:tsdoc-docs-bundle-load-throws]', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weft-mcp-bundle-'));
    const file = join(dir, 'partial.json');
    await writeFile(file, JSON.stringify({ ...bundle, errors: undefined }));
    const error = await loadDocsBundle(file).catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_DOCS_NO_DATA')).toBe(true);
    expect((error as Error).message).toContain(`${file} is not a documentation bundle`);
  });
});

describe('TSDoc of parseCliOptions (cli-options.ts)', () => {
  it('defaults to stdio, and to 127.0.0.1 and DEFAULT_HTTP_PORT with --http', () => {
    expect(parseCliOptions([])).toEqual({
      transport: 'stdio',
      host: '127.0.0.1',
      port: DEFAULT_HTTP_PORT,
      allowedHosts: [],
      help: false,
    });
    expect(parseCliOptions(['--http'])).toMatchObject({ transport: 'http', port: 3920 });
    expect(USAGE).toContain(`the HTTP port (${DEFAULT_HTTP_PORT}; 0 picks a free one)`);
    expect(
      parseCliOptions(['--http', '--allowed-host', 'a.test', '--allowed-host', 'b.test']),
    ).toMatchObject({ allowedHosts: ['a.test', 'b.test'] });
  });

  it.each([
    [['--port', '80'], '--port and --host apply to --http only'],
    [['--host', '0.0.0.0'], '--port and --host apply to --http only'],
    [['--http', '--port', '65536'], '--port must be a number from 0 to 65535, got "65536"'],
    [['--http', '--port', '-1'], "Option '--port' argument is ambiguous"],
    [['docs'], "Unexpected argument 'docs'"],
  ])('names what is wrong in %j', (argv, message) => {
    let caught: unknown;
    try {
      parseCliOptions(argv);
    } catch (error) {
      caught = error;
    }
    expect(WeftError.is(caught, 'WEFT_DOCS_INVALID_OPTIONS')).toBe(true);
    expect((caught as Error).message).toContain(message);
    expect((caught as Error).message).toContain('Run weft-docs-mcp --help for the options.');
  });
});

describe('the weft-docs-mcp command (cli.ts): stdout belongs to the protocol', () => {
  /** Runs the command from its sources; resolves with its exit code and both streams. */
  function start(args: string[]) {
    const child = spawn(process.execPath, [...NODE_SOURCE_ARGS, CLI_ENTRY, ...args], {
      cwd: ROOT_DIR,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`no exit in 60 s: ${stderr}`)), 60_000);
        child.once('exit', (code) => {
          clearTimeout(deadline);
          resolve({ code, stdout, stderr });
        });
      },
    );
    return { child, exited, stderr: () => stderr };
  }

  it('writes --help to stderr, nothing to stdout', async () => {
    const { code, stdout, stderr } = await start(['--help']).exited;
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toBe(USAGE);
  });

  it('over --http, says where it listens on stderr, answers the SDK client and exits 0 on SIGTERM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weft-mcp-cli-'));
    const data = join(dir, 'bundle.json');
    await writeFile(data, JSON.stringify(bundle));
    const running = start(['--http', '--port', '0', '--data', data]);
    try {
      await vi.waitFor(() => expect(running.stderr()).toMatch(/listening at \S+/), {
        timeout: 60_000,
        interval: 100,
      });
      const url = /listening at (\S+)/.exec(running.stderr())?.[1] ?? '';
      expect(running.stderr()).toBe(`weft-docs-mcp 9.9.9: listening at ${url}\n`);
      const client = new Client({ name: 'weft-docs-tsdoc-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      clients.push(client);
      expect((await call(client, 'get_api_symbol', { name: 'Runtime' })).text).toContain(
        '# Runtime (class, @weft/core)',
      );
      running.child.kill('SIGTERM');
      const { code, stdout } = await running.exited;
      expect(code).toBe(0);
      expect(stdout).toBe('');
    } finally {
      running.child.kill('SIGKILL');
    }
  }, 90_000);
});
