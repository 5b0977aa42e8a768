/**
 * The server as an assistant meets it: the real command started over stdio by the MCP SDK's own
 * client, every tool called with good input (the answers checked against the bundle's sources)
 * and with each kind of bad input, which must come back as tool errors while the server goes on.
 */
import { readFile } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { CORE_ERRORS } from '../../core/src/errors.js';
import { readCatalogue } from '@weft-internal/docs-model/catalogue/catalogue';
import { cardFacts } from '@weft-internal/docs-model/catalogue/facts';
import { PACKAGES_ON_NPM } from '@weft-internal/docs-model/catalogue/model';
import type { DocsBundle } from '../src/bundle.js';
import { MAX_QUERY_LENGTH } from '../src/tools.js';
import sidebars from '@weft-internal/docs-model/sidebar-order';
import { registryLinks } from '../scripts/site-pages.js';
import { CLI_ARGS, repositoryBundle, ROOT_DIR } from './support.js';

let bundle: DocsBundle;
let client: Client;
const stderr: string[] = [];

beforeAll(async () => {
  const bundleFile = await repositoryBundle();
  bundle = JSON.parse(await readFile(bundleFile, 'utf8')) as DocsBundle;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...CLI_ARGS, '--data', bundleFile],
    cwd: ROOT_DIR,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  client = new Client({ name: 'weft-docs-test', version: '1.0.0' });
  await client.connect(transport, { timeout: 30_000 });
}, 300_000);

afterAll(async () => {
  await client?.close();
});

async function call(
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  return { text, isError: result.isError === true };
}

/** The paths `search_docs` answered, in order, without their anchors. */
function pagePaths(text: string): string[] {
  return [...text.matchAll(/^ {3}path: (\S+)$/gm)].map((match) => match[1]!.replace(/#.*$/, ''));
}

describe('weft-docs-mcp over stdio', () => {
  it('completes the handshake, naming itself and the version of its docs [claim:mcp-docs-offline-version] [claim:mcp-docs-only-command] [claim:tsdoc-docs-bundle-version]', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'weft-docs', version: bundle.version });
    expect(client.getServerCapabilities()).toHaveProperty('tools');
    expect(client.getServerCapabilities()).toHaveProperty('resources');
    expect(client.getInstructions()).toContain('search_docs');
  });

  it('lists the five tools, each with an input schema [claim:mcp-docs-five-tools] [claim:tsdoc-mcp-register-tools]', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'explain_error',
      'get_api_symbol',
      'list_plugins',
      'read_page',
      'search_docs',
    ]);
    for (const tool of tools) expect(tool.inputSchema.type).toBe('object');
  });

  it('carries every guide, every API page and every error code of the sources [claim:mcp-docs-offline-version] [claim:tsdoc-docs-bundle-section]', () => {
    expect(bundle.pages.some((page) => page.path === '/docs/guides/production/')).toBe(true);
    expect(bundle.pages.find((page) => page.path === '/api/classes/Runtime/')?.section).toBe(
      'API reference: classes',
    );
    for (const code of Object.keys(CORE_ERRORS.codes)) {
      expect(bundle.errors.map((entry) => entry.code)).toContain(code);
    }
  });

  it('carries each page as the site build\'s Markdown copy, which a reader\'s "Copy page" gives, claim ids left out [claim:tsdoc-docs-bundle-markdown] [claim:contrib-claim-ids-hidden] [claim:mcp-docs-clone-build-output]', async () => {
    expect(bundle.pages.filter((page) => page.kind === 'guide').length).toBeGreaterThan(30);
    for (const page of bundle.pages) {
      // `/docs/guides/production/` is build/docs/guides/production.md.
      const copy = join(ROOT_DIR, 'build', `${page.path.slice(1, -1)}.md`);
      expect(page.markdown, page.path).toBe(`${(await readFile(copy, 'utf8')).trim()}\n`);
      // The contributing guide shows the syntax in code, which stays as written.
      const prose = page.markdown.replace(/^(\s*)(```+|~~~+)[^\n]*\n[\s\S]*?^\1\2\s*$/gm, '');
      expect(prose, page.path).not.toMatch(/<!--\s*claim:/);
    }
  });

  it('states its package version, shared by every package, and kinds ApiSymbol.kind lists (TSDoc of DocsBundle) [claim:tsdoc-docs-bundle-version] [claim:tsdoc-docs-bundle-kinds]', async () => {
    const manifest = JSON.parse(
      await readFile(`${ROOT_DIR}/packages/mcp-docs/package.json`, 'utf8'),
    );
    expect(bundle.version).toBe((manifest as { version: string }).version);
    for (const entry of bundle.packages) expect(entry.version, entry.name).toBe(bundle.version);
    const kinds = ['class', 'interface', 'function', 'type alias', 'variable'];
    for (const symbol of bundle.symbols) expect(kinds, symbol.name).toContain(symbol.kind);
  });
});

describe('search_docs', () => {
  it('ranks the production guide first for "graceful shutdown", with its section and a snippet [claim:mcp-docs-search-row] [claim:mcp-docs-readme-search-row] [claim:tsdoc-docs-bundle-section]', async () => {
    const { text, isError } = await call('search_docs', { query: 'graceful shutdown' });
    expect(isError).toBe(false);
    expect(pagePaths(text)[0]).toBe('/docs/guides/production/');
    expect(text).toMatch(/^1\. Running in production › .+\[Guides\]$/m);
    expect(text.toLowerCase()).toContain('shutdown');
  });

  it('forgives two typos in a long word: "capabilites" finds the capabilities page', async () => {
    const { text } = await call('search_docs', { query: 'capabilites' });
    expect(pagePaths(text).slice(0, 3)).toContain('/docs/capabilities/capabilities/');
  });

  it('puts the API page first for an exact symbol name [claim:mcp-docs-symbol-vs-concept]', async () => {
    const { text } = await call('search_docs', { query: 'Runtime' });
    expect(pagePaths(text)[0]).toBe('/api/classes/Runtime/');
  });

  it("puts no API page first for the exact name of another package's export, which has none [claim:mcp-docs-symbol-vs-concept]", async () => {
    const others = bundle.symbols.filter((symbol) => symbol.packageName !== '@weft/core');
    expect(others.map((symbol) => symbol.name)).toContain('ScriptedModelProvider');
    for (const symbol of others) expect(symbol.docsPath, symbol.name).not.toMatch(/^\/api\//);
    const { text } = await call('search_docs', { query: 'ScriptedModelProvider' });
    expect(pagePaths(text)[0]).toMatch(/^\/docs\//);
  });

  it('puts the configuration reference first for a compound option name, not for a one-word one [claim:mcp-docs-table-definitions]', async () => {
    for (const query of ['maxSteps', 'WEFT_LOG_LEVEL']) {
      expect(pagePaths((await call('search_docs', { query })).text)[0], query).toBe(
        '/docs/reference/configuration/',
      );
    }
    // The reference's tables list `options.server.port`, but "port" is searched for as a word.
    const reference = await call('read_page', { path: '/docs/reference/configuration/' });
    expect(reference.text).toContain('| `options.server.port`');
    expect(pagePaths((await call('search_docs', { query: 'port' })).text)[0]).not.toBe(
      '/docs/reference/configuration/',
    );
  });

  it('puts a guide above generated API summaries for a concept word [claim:mcp-docs-symbol-vs-concept]', async () => {
    const { text } = await call('search_docs', { query: 'memory' });
    expect(pagePaths(text)[0]).toMatch(/^\/docs\//);
  });

  it('reads a name as written as the symbol, and a compound name in any case', async () => {
    expect(pagePaths((await call('search_docs', { query: 'Memory' })).text)[0]).toBe(
      '/api/interfaces/Memory/',
    );
    expect(pagePaths((await call('search_docs', { query: 'memorymanager' })).text)[0]).toBe(
      '/api/classes/MemoryManager/',
    );
  });

  it('falls back to any word when no page has them all [claim:mcp-docs-fallback-tiers]', async () => {
    const { text, isError } = await call('search_docs', { query: 'deploy production zzqx' });
    expect(isError).toBe(false);
    expect(pagePaths(text)).toContain('/docs/guides/production/');
  });

  it("takes every error code to its own section of the real errors page, that section's text as snippet [claim:mcp-docs-error-code-first] [claim:tsdoc-heading-section]", async () => {
    expect(bundle.errors.length).toBeGreaterThan(50);
    for (const entry of bundle.errors) {
      const { text } = await call('search_docs', { query: entry.code, limit: 1 });
      const [first] = [...text.matchAll(/^1\. .+ › (\S+) \[.+\]\n {3}path: (\S+)\n {3}(.*)$/gm)];
      expect(first?.[2], `${entry.code}:\n${text}`).toBe(entry.docsPath);
      expect(first?.[1], entry.code).toBe(entry.code);
      // The snippet is the code's own section: its "Raised by" line, not the page's intro.
      expect(first?.[3], entry.code).toMatch(/^(…)?Raised by: /);
    }
  }, 60_000);

  it('shows the passage that matched with code as written: underscores, <…> and no fence info [claim:mcp-docs-search-row] [claim:tsdoc-snippet-code-as-written]', async () => {
    const level = await call('search_docs', { query: 'WEFT_LOG_LEVEL' });
    const levelSnippets = [...level.text.matchAll(/^ {3}(?!path: )(.*)$/gm)].map((m) => m[1]!);
    expect(levelSnippets.length).toBeGreaterThan(0);
    for (const snippet of levelSnippets) expect(snippet).toContain('WEFT_LOG_LEVEL');

    // The run command's line of the getting-started page, which a snippet once showed as
    // "set WEFTLOGLEVEL=warn".
    const fewer = await call('search_docs', { query: 'fewer logs', limit: 1 });
    expect(fewer.text).toContain('(set WEFT_LOG_LEVEL=warn for fewer)');

    // The installation page's tabs block is a ```bash npm2yarn fence: its code, not its info.
    const tabs = await call('search_docs', { query: 'another package manager tab', limit: 1 });
    expect(tabs.text).toContain('pick its tab:');
    expect(tabs.text).toContain('npm install zod@^4.1 pino@^9.7');
    expect(tabs.text).not.toContain('npm2yarn');

    const promise = await call('search_docs', { query: 'Promise void', limit: 3 });
    const promiseSnippets = [...promise.text.matchAll(/^ {3}(?!path: )(.*)$/gm)].map((m) => m[1]!);
    expect(promiseSnippets).toHaveLength(3);
    for (const snippet of promiseSnippets) expect(snippet).toContain('Promise<void>');
  });

  it('names each page at most once and honours the limit [claim:mcp-docs-search-row]', async () => {
    const { text } = await call('search_docs', { query: 'plugin trigger route', limit: 5 });
    const paths = pagePaths(text);
    expect(paths).toHaveLength(5);
    expect(new Set(paths).size).toBe(paths.length);
  });
});

describe('read_page', () => {
  it('returns a guide as Markdown with its samples filled in from examples/ [claim:mcp-docs-read-row] [claim:mcp-docs-readme-read-row] [claim:tsdoc-docs-bundle-markdown]', async () => {
    const { text, isError } = await call('read_page', { path: '/docs/guides/production/' });
    expect(isError).toBe(false);
    expect(text).toMatch(/^# Running in production/);
    expect(text).toContain('## Run it as a service');
    const sample = await readFile(`${ROOT_DIR}/examples/production/service.ts`, 'utf8');
    expect(text).toContain(sample.trim());
    // A sample in a list item, indented as the item is, which read_page once returned empty.
    const guarded = await readFile(`${ROOT_DIR}/examples/production/guarded-plugin.ts`, 'utf8');
    const indented = guarded
      .trimEnd()
      .split('\n')
      .map((line) => (line === '' ? '' : `   ${line}`))
      .join('\n');
    expect(text).toContain(`   \`\`\`ts\n${indented}\n   \`\`\``);
  });

  it('accepts a path as readers write it: a full URL, no trailing slash, a .md file [claim:tsdoc-mcp-normalise-path]', async () => {
    for (const path of [
      'https://weft-ai.github.io/docs/guides/production/',
      'docs/guides/production',
      '/docs/guides/production.md',
    ]) {
      const { text, isError } = await call('read_page', { path });
      expect(isError, path).toBe(false);
      expect(text, path).toMatch(/^# Running in production/);
    }
  });

  it("returns an API page with the site copy's links, each a path read_page takes [claim:mcp-docs-readme-read-row]", async () => {
    const { text } = await call('read_page', { path: '/api/classes/Runtime/' });
    expect(text).toMatch(/^# Class: Runtime/);
    expect(text).toContain('](/api/classes/Scheduler.md)');
    const linked = await call('read_page', { path: '/api/classes/Scheduler.md' });
    expect(linked.isError).toBe(false);
    expect(linked.text).toMatch(/^# Class: Scheduler/);
  });
});

describe('get_api_symbol', () => {
  it('returns the signature, TSDoc, members, example and docs path of a class [claim:mcp-docs-symbol-row] [claim:mcp-docs-readme-symbol-row]', async () => {
    const { text, isError } = await call('get_api_symbol', { name: 'Runtime' });
    expect(isError).toBe(false);
    expect(text).toContain('class Runtime');
    expect(text).toContain('The agent: it owns the plugins');
    expect(text).toMatch(/^- `static init\(config: .+\): Promise<Runtime>`/m);
    expect(text).toContain('## Example');
    expect(text).toContain('/api/classes/Runtime/');
  });

  it('writes a parameter that has a default value as optional, as callers may leave it out [claim:mcp-docs-readme-symbol-row]', async () => {
    const loader = await call('get_api_symbol', { name: 'loadDocsBundle' });
    expect(loader.text).toContain('function loadDocsBundle(file?: string): Promise<DocsBundle>');
    const transport = await call('get_api_symbol', { name: 'BoundedStdioTransport' });
    expect(transport.text).toContain('`constructor(options?: BoundedStdioOptions)');
  });

  it('answers "Runtime.init" with the class that has it', async () => {
    const { text } = await call('get_api_symbol', { name: 'Runtime.init' });
    expect(text).toContain('class Runtime');
  });

  it('returns a function with its signature and example [claim:tsdoc-docs-bundle-example]', async () => {
    const { text } = await call('get_api_symbol', { name: 'defineCapability' });
    expect(text).toContain('function defineCapability<');
    expect(text).toContain("import { defineCapability } from '@weft/core';");
  });

  it.each([
    ['ScriptedModelProvider', '@weft/testing', 'class'],
    ['InMemoryMemoryProvider', '@weft/testing', 'class'],
    ['OpenAIModelProvider', '@weft/model-openai', 'class'],
    ['PostgresMemoryProvider', '@weft/memory-postgres', 'class'],
  ])(
    'answers %s, an export of %s, naming its package, guide and README [claim:mcp-docs-symbol-row] [claim:mcp-docs-readme-symbol-row]',
    async (name, pkg, kind) => {
      const { text, isError } = await call('get_api_symbol', { name });
      expect(isError, text).toBe(false);
      expect(text).toContain(`# ${name} (${kind}, ${pkg})`);
      expect(text).toContain(`class ${name} extends`);
      const entry = bundle.packages.find((candidate) => candidate.name === pkg)!;
      expect(text).toContain(
        `Import it from ${pkg}. Guide: https://weft-ai.github.io${entry.docsPath}`,
      );
      expect(text).toContain(
        `README: https://github.com/weft-ai/weft/tree/main/packages/${pkg.replace('@weft/', '')}#readme`,
      );
    },
  );

  it('knows every export of every first-party package [claim:mcp-docs-symbol-row] [claim:mcp-docs-readme-symbol-row]', async () => {
    const { entries } = await readCatalogue(join(ROOT_DIR, 'packages'));
    for (const entry of entries) {
      const module = (await import(
        join(ROOT_DIR, 'packages', entry.directory, 'src', 'index.ts')
      )) as Record<string, unknown>;
      const runtimeNames = Object.keys(module).filter((name) => name !== 'default');
      expect(runtimeNames.length, entry.name).toBeGreaterThan(0);
      const known = new Set(
        bundle.symbols
          .filter((symbol) => symbol.packageName === entry.name)
          .map((symbol) => symbol.name),
      );
      // Re-exports of another package's names are that package's; the rest are the package's own.
      for (const name of runtimeNames) {
        const owner = bundle.symbols.find((symbol) => symbol.name === name);
        expect(owner, `${entry.name} exports ${name}`).toBeDefined();
        if (owner!.packageName === entry.name) expect(known.has(name)).toBe(true);
      }
    }
  }, 60_000);
});

describe('explain_error', () => {
  it('explains WEFT_INVALID_CONFIG with the registry’s cause and fix and its docs section [claim:mcp-docs-error-row] [claim:mcp-docs-readme-error-row] [claim:tsdoc-docs-bundle-error-path]', async () => {
    const { text, isError } = await call('explain_error', { code: 'WEFT_INVALID_CONFIG' });
    expect(isError).toBe(false);
    const entry = CORE_ERRORS.codes.WEFT_INVALID_CONFIG;
    expect(text).toContain('Raised by: ');
    // The registry's links, relative to the errors page, are site paths in the bundle.
    const sidebarModule = sidebars as typeof sidebars & { default?: typeof sidebars };
    const sidebar = (sidebarModule.default ?? sidebarModule).docs;
    expect(text).toContain(`Cause: ${registryLinks(entry.cause, sidebar)}`);
    expect(text).toContain('Fix: correct each listed problem');
    expect(text).toContain('https://weft-ai.github.io/docs/reference/errors/#weft_invalid_config');
  });

  it('explains a code of another package, case aside', async () => {
    const { text } = await call('explain_error', { code: 'weft_chat_no_reply' });
    expect(text).toContain('# WEFT_CHAT_NO_REPLY (@weft/plugin-chat)');
    expect(text).toContain('HTTP status: 502');
  });
});

describe('list_plugins', () => {
  it('lists every first-party package with kind, what it requires, its install command and its docs page [claim:mcp-docs-plugins-row] [claim:mcp-docs-readme-plugins-row]', async () => {
    const { text } = await call('list_plugins', {});
    for (const entry of bundle.packages) expect(text).toContain(`## ${entry.name} (`);
    expect(text).toMatch(
      /## @weft\/plugin-chat[^#]*Docs: \S+\/docs\/building-plugins\/http-chat\/ \(read_page path `\/docs\/building-plugins\/http-chat\/`\)/,
    );
    expect(text).toContain('Install: `npm install @weft/plugin-chat`');
    expect(text).toContain('Install: `npm create weft@latest my-agent`');
    expect(text).toMatch(/## @weft\/plugin-chat[^#]*Requires: [^\n]*Weft runtime/);
  });

  it("says what each package provides and requires in the plugins page's words [claim:mcp-docs-plugins-row]", async () => {
    const { text } = await call('list_plugins', {});
    const { entries } = await readCatalogue(join(ROOT_DIR, 'packages'));
    expect(entries.length).toBe(bundle.packages.length);
    for (const entry of entries) {
      const card = new Map(cardFacts(entry).map((fact) => [fact.term, fact.items.join(', ')]));
      const block = text.slice(text.indexOf(`## ${entry.name} (`)).split('\n## ')[0]!;
      expect(block).toContain(`\nProvides: ${card.get('Provides')}\n`);
      expect(block).toContain(`\nRequires: ${card.get('Requires')}\n`);
      if (card.has('Works with')) {
        expect(block).toContain(`\nWorks with: ${card.get('Works with')}\n`);
      } else {
        expect(block).not.toContain('\nWorks with:');
      }
      expect(block).toContain(`\nRuns on: ${card.get('Runs on')}\n`);
    }
    // What the issue found: the server's needs, not its package dependencies.
    expect(text).toMatch(
      /## @weft\/memory-postgres [^#]*\nRequires: Weft runtime, PostgreSQL server\n/,
    );
    // The docs server loads @weft/core but runs without a runtime (weft.standalone).
    expect(text).toMatch(/## @weft\/mcp-docs [^#]*\nRequires: Nothing\n/);
  });

  it('says that an install command answers E404 until the packages are on npm, and where to go [claim:mcp-docs-plugins-row] [claim:mcp-docs-readme-plugins-row] [claim:mcp-docs-clone-not-on-npm] [claim:tsdoc-format-package-not-on-npm] [claim:cg-first-release-flags]', async () => {
    expect(PACKAGES_ON_NPM).toBe(false);
    const { text } = await call('list_plugins', {});
    const installs = [...text.matchAll(/^Install: .*$/gm)].map((match) => match[0]);
    expect(installs).toHaveLength(bundle.packages.length);
    for (const line of installs) {
      expect(line).toContain(
        'once the packages are on the npm registry; until then it answers E404',
      );
      expect(line).toContain(
        '(read_page path `/docs/installation/`) gives the route from a clone.',
      );
    }
    // The page it names exists and has that route.
    const page = await call('read_page', { path: '/docs/installation/' });
    expect(page.text).toContain('## Today: from a clone');
  });

  it('filters by kind [claim:mcp-docs-plugins-row]', async () => {
    const { text } = await call('list_plugins', { kind: 'memory-provider' });
    expect(text).toContain('@weft/memory-sqlite');
    expect(text).not.toContain('@weft/plugin-chat');
  });
});

describe('bad input comes back as a tool error naming what was wrong', () => {
  it('an empty query [claim:mcp-docs-bad-input] [claim:mcp-docs-readme-bad-input]', async () => {
    const { text, isError } = await call('search_docs', { query: '   ' });
    expect(isError).toBe(true);
    expect(text).toContain('query is empty');
  });

  it('a huge query [claim:mcp-docs-bad-input] [claim:mcp-docs-readme-bad-input] [claim:tsdoc-mcp-max-query]', async () => {
    const { text, isError } = await call('search_docs', { query: 'runtime '.repeat(20_000) });
    expect(isError).toBe(true);
    expect(text).toContain(`query is longer than ${MAX_QUERY_LENGTH} characters`);
  });

  it('a query no page matches, with the closest titles [claim:tsdoc-docs-did-you-mean]', async () => {
    const { text, isError } = await call('search_docs', { query: 'qqqqzzzzxxxx' });
    expect(isError).toBe(true);
    expect(text).toContain('No page matches "qqqqzzzzxxxx"');
  });

  it('an unknown path, with the closest paths [claim:mcp-docs-bad-input] [claim:mcp-docs-readme-bad-input]', async () => {
    const { text, isError } = await call('read_page', { path: '/docs/guides/prodution/' });
    expect(isError).toBe(true);
    expect(text).toContain('No page has the path "/docs/guides/prodution/"');
    expect(text).toContain('Did you mean: /docs/guides/production/');
  });

  it('an unknown symbol, with "did you mean" [claim:mcp-docs-bad-input] [claim:mcp-docs-readme-bad-input]', async () => {
    const { text, isError } = await call('get_api_symbol', { name: 'Runtme' });
    expect(isError).toBe(true);
    expect(text).toContain('No first-party Weft package exports a symbol named "Runtme"');
    expect(text).toMatch(/Did you mean: Runtime\b/);
  });

  it('an unknown name with none near, without "did you mean" [claim:mcp-docs-bad-input] [claim:mcp-docs-readme-bad-input]', async () => {
    for (const [tool, args] of [
      ['get_api_symbol', { name: 'qqqqzzzzxxxx' }],
      ['explain_error', { code: 'qqqqzzzzxxxx' }],
      ['read_page', { path: '/qqqqzzzzxxxx/' }],
    ] as const) {
      const { text, isError } = await call(tool, args);
      expect(isError, tool).toBe(true);
      expect(text, tool).toMatch(/QQQQZZZZXXXX|qqqqzzzzxxxx/);
      expect(text, tool).not.toContain('Did you mean');
    }
  });

  it('an unknown error code, with the closest codes [claim:mcp-docs-bad-input] [claim:mcp-docs-readme-bad-input]', async () => {
    const { text, isError } = await call('explain_error', { code: 'WEFT_INVALID_CONFG' });
    expect(isError).toBe(true);
    expect(text).toMatch(/Did you mean: WEFT_INVALID_CONFIG\b/);
  });

  it('an unknown package kind, with the kinds there are', async () => {
    const { text, isError } = await call('list_plugins', { kind: 'widgets' });
    expect(isError).toBe(true);
    expect(text).toContain('No package has the kind "widgets". The kinds are: core,');
  });

  it('a missing argument and a wrong type', async () => {
    const missing = await call('read_page', {});
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('path');
    const wrongType = await call('search_docs', { query: 42 });
    expect(wrongType.isError).toBe(true);
    expect(wrongType.text).toContain('query');
  });

  it('an unknown tool', async () => {
    const { text, isError } = await call('delete_docs', {});
    expect(isError).toBe(true);
    expect(text).toContain('delete_docs');
  });

  it('leaves the server answering afterwards, with nothing logged as a failure [claim:mcp-docs-keeps-answering]', async () => {
    await expect(client.ping()).resolves.toBeDefined();
    const { isError } = await call('explain_error', { code: 'WEFT_QUEUE_FULL' });
    expect(isError).toBe(false);
    expect(stderr.join('')).not.toContain('failed');
  });
});

describe('page resources', () => {
  it('lists every page as a Markdown resource [claim:mcp-docs-resources] [claim:mcp-docs-readme-resources] [claim:tsdoc-docs-resource-uri]', async () => {
    const { resources } = await client.listResources();
    expect(resources).toHaveLength(bundle.pages.length);
    expect(resources).toContainEqual(
      expect.objectContaining({
        uri: 'weft-docs://pages/docs/guides/production/',
        title: 'Running in production',
        mimeType: 'text/markdown',
      }),
    );
  });

  it('reads a page [claim:mcp-docs-resources]', async () => {
    const { contents } = await client.readResource({
      uri: 'weft-docs://pages/api/classes/Runtime/',
    });
    expect(contents[0]).toMatchObject({ mimeType: 'text/markdown' });
    expect((contents[0] as { text: string }).text).toMatch(/^# Class: Runtime/);
  });

  it('refuses an unknown resource with an error naming it', async () => {
    await expect(client.readResource({ uri: 'weft-docs://pages/docs/nope/' })).rejects.toThrow(
      /weft-docs:\/\/pages\/docs\/nope\//,
    );
  });
});
