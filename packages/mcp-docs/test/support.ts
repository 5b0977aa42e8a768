/**
 * Test support: the docs bundle generated once per test file, and the real `weft-docs-mcp`
 * command (its TypeScript entry, compiled for plain `node`) started as an MCP client would start it.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { compiledScript } from '@weft-internal/test-support/compiled-script';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BUNDLE_FORMAT, type ApiMember, type ApiSymbol, type DocsBundle } from '../src/bundle.js';

export const PACKAGE_DIR = resolve(__dirname, '..');
export const ROOT_DIR = resolve(PACKAGE_DIR, '..', '..');
export const CLI_ENTRY = join(PACKAGE_DIR, 'src', 'cli.ts');
/**
 * Node's arguments that run the command from its sources: the entry compiled once for plain
 * `node`, which starts without tsx's half second of processor time (see compiledScript).
 */
export const CLI_ARGS = [await compiledScript(CLI_ENTRY)];

const run = promisify(execFile);

/**
 * Generates a bundle into a temporary folder, as the package's build does: its pages from the
 * site build in `<repository>/build` (or `siteBuild`, or the folder `env` names), and returns its
 * path (`out` when given). Without a site build it rejects with the generator's own message, which says to run
 * `npm run build` at the root.
 */
export async function generateBundle(
  siteBuild?: string,
  env: NodeJS.ProcessEnv = process.env,
  out?: string,
): Promise<string> {
  out ??= join(await mkdtemp(join(tmpdir(), 'weft-mcp-docs-test-')), 'docs-bundle.json');
  try {
    await run(
      process.execPath,
      [
        // Through tsx: the generator imports the packages' error registries from their sources
        // at run time, which a compiled module cannot load.
        '--conditions=weft-source',
        '--import',
        'tsx',
        join(PACKAGE_DIR, 'scripts', 'generate-data.ts'),
        '--out',
        out,
        ...(siteBuild === undefined ? [] : ['--site-build', siteBuild]),
      ],
      { cwd: PACKAGE_DIR, env, timeout: 240_000 },
    );
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(stderr || (error as Error).message, { cause: error });
  }
  return out;
}

let generatedOnce: Promise<string> | undefined;

/**
 * The bundle of the repository's own site build, generated once per test worker, which runs
 * several test files with the same modules: the files that only read it share one generation
 * (several seconds of processor time each) instead of making their own.
 */
export function repositoryBundle(): Promise<string> {
  generatedOnce ??= generateBundle();
  return generatedOnce;
}

/** A bundle of one page and nothing else: enough for tests of the transports. */
export const SMALL_BUNDLE: DocsBundle = {
  format: BUNDLE_FORMAT,
  version: '9.9.9',
  siteUrl: 'https://docs.example',
  pages: [
    {
      path: '/docs/guides/production/',
      title: 'Running in production',
      description: 'How to run an agent as a service.',
      section: 'Guides',
      kind: 'guide',
      markdown: '# Running in production\n\n## Shutdown\n\nA graceful shutdown drains the queue.\n',
    },
  ],
  symbols: [],
  errors: [],
  packages: [],
};

/** Writes {@link SMALL_BUNDLE} to a temporary file for `--data`, and returns its path. */
export async function writeSmallBundle(): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'weft-mcp-docs-small-')), 'docs-bundle.json');
  await writeFile(file, JSON.stringify(SMALL_BUNDLE));
  return file;
}

/** The site of {@link TOOLS_BUNDLE}. */
/**
 * A symbol whose members are missing: no file loadDocsBundle accepts holds it, so only a bundle
 * handed to createDocsServer in memory can, to make a tool fail unexpectedly.
 */
export const DAMAGED_SYMBOL: ApiSymbol = {
  name: 'Damaged',
  kind: 'class',
  signature: 'class Damaged',
  doc: 'A record whose members are missing.',
  members: null as unknown as ApiMember[],
  packageName: '@weft/core',
  docsPath: '/api/classes/Damaged/',
};

export const TOOLS_SITE = 'https://docs.example';

/**
 * A hand-written bundle for tests of the server's answers: two pages, two symbols (one damaged,
 * so its tool fails unexpectedly), one code, one package.
 */
export const TOOLS_BUNDLE: DocsBundle = {
  format: BUNDLE_FORMAT,
  version: '9.9.9',
  siteUrl: TOOLS_SITE,
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

/** Calls a tool; resolves with the text of its answer and whether it is an error. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  return { text, isError: result.isError === true };
}

/** What {@link rawPost} sends besides its body. */
export interface RawPostOptions {
  /** Headers over the JSON content type (and, with `mcp`, the MCP client's `accept`). */
  readonly headers?: Record<string, string>;
  /** Sent with the `accept` header of an MCP client: JSON or an event stream. */
  readonly mcp?: boolean;
  /** The local address to connect from, on its own connection. */
  readonly localAddress?: string;
}

/**
 * A POST of `body` made with Node's own client, so that any `Host` or `Origin` can be sent as a
 * browser on another name would, read whole; it fails after 10 s without an answer.
 */
export function rawPost(
  url: URL,
  body: string,
  { headers = {}, mcp = false, localAddress }: RawPostOptions = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        ...(localAddress === undefined ? {} : { localAddress, agent: false }),
        headers: {
          'content-type': 'application/json',
          ...(mcp ? { accept: 'application/json, text/event-stream' } : {}),
          ...headers,
        },
        timeout: 10_000,
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error('no answer in 10 s')));
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** A JSON-RPC ping, as a client sends it to check the server answers. */
export const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
