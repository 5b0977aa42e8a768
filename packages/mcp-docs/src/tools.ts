/**
 * The five tools, each a pure function of the bundle and the arguments, registered on an
 * `McpServer` with zod schemas the SDK checks before the handler runs.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { didYouMean, guarded, textAnswer, ToolInputError, type FailureLog } from './answers.js';
import type { ApiSymbol, CataloguePackage, DocsBundle, DocsPage, ErrorCodeDoc } from './bundle.js';
import { closestMatches } from './search.js';
import { DocsSearch } from './search.js';

/**
 * Longest query `search_docs` takes: a sentence or two; longer is a pasted file, not a query.
 * @claim tsdoc-mcp-max-query
 */
export const MAX_QUERY_LENGTH = 300;
/**
 * Longest path, name or code the lookups take.
 * @claim tsdoc-mcp-max-name
 */
export const MAX_NAME_LENGTH = 200;

const text = (max: number, what: string) =>
  z
    .string()
    .max(max, `${what} is longer than ${max} characters`)
    .refine((value) => value.trim() !== '', `${what} is empty`);

/**
 * The page for a path as readers write it: with or without the site, slashes or `.md`. An
 * anchor, a query and a trailing `/index` are dropped too.
 * @claim tsdoc-mcp-normalise-path
 * @claim tsdoc-mcp-normalise-path-anchor
 */
export function normalisePath(input: string, siteUrl: string): string {
  let path = input.trim();
  if (path.startsWith(siteUrl)) path = path.slice(siteUrl.length);
  path = path
    .replace(/[?#].*$/, '')
    .replace(/\.md$/, '')
    .replace(/\/index$/, '');
  if (!path.startsWith('/')) path = `/${path}`;
  if (!path.endsWith('/')) path = `${path}/`;
  return path;
}

/** The package whose exports have pages of their own in the site's API reference. */
const CORE_PACKAGE = '@weft/core';

/**
 * `get_api_symbol`'s answer: the package, signature, TSDoc, members, example, and where the site
 * documents it: its API page for an export of `@weft/core`, else the package's guide and README.
 */
export function formatSymbol(symbol: ApiSymbol, siteUrl: string): string {
  const parts = [
    `# ${symbol.name} (${symbol.kind}, ${symbol.packageName})`,
    '```ts\n' + symbol.signature + '\n```',
    symbol.doc,
  ];
  if (symbol.members.length > 0) {
    parts.push(
      '## Members\n\n' +
        symbol.members
          .map(
            (member) => `- \`${member.signature}\`${member.summary ? `: ${member.summary}` : ''}`,
          )
          .join('\n'),
    );
  }
  if (symbol.example !== undefined) parts.push('## Example\n\n```ts\n' + symbol.example + '\n```');
  const page = `${siteUrl}${symbol.docsPath} (read_page path \`${symbol.docsPath}\`)`;
  parts.push(
    symbol.packageName === CORE_PACKAGE
      ? `Docs: ${page}`
      : `Import it from ${symbol.packageName}. Guide: ${page}` +
          (symbol.readme === undefined ? '' : `\nREADME: ${symbol.readme}`),
  );
  return parts.filter((part) => part.trim() !== '').join('\n\n');
}

/**
 * `explain_error`'s answer: summary, HTTP status (when the code has one), raiser, cause, fix
 * and the docs link.
 */
export function formatError(entry: ErrorCodeDoc, siteUrl: string): string {
  const status =
    entry.status === undefined
      ? ''
      : `\nHTTP status: ${Array.isArray(entry.status) ? entry.status.join(', ') : entry.status}`;
  return [
    `# ${entry.code} (${entry.packageName})`,
    `${entry.summary}${status}`,
    `Raised by: ${entry.raisedBy}`,
    `Cause: ${entry.cause}`,
    `Fix: ${entry.fix}`,
    `Docs: ${siteUrl}${entry.docsPath}`,
  ].join('\n\n');
}

/**
 * One package in `list_plugins`' answer: kind, description, what it provides and requires and
 * where it runs (the plugins page's card), how to install it, and its docs page. An install
 * command that cannot work yet (the packages are not on npm) says so and where to go instead.
 * @claim tsdoc-format-package-not-on-npm
 */
export function formatPackage(entry: CataloguePackage, siteUrl: string): string {
  const install = entry.onNpm
    ? `Install: \`${entry.install}\``
    : `Install: \`${entry.install}\` once the packages are on the npm registry; until then it answers E404, ` +
      `and ${siteUrl}${entry.installationPath} (read_page path \`${entry.installationPath}\`) gives the route from a clone.`;
  return [
    `## ${entry.name} (${entry.displayName}, ${entry.kind}, ${entry.version})`,
    entry.description,
    `Provides: ${entry.provides.join(', ')}`,
    `Requires: ${entry.requires.join(', ')}`,
    ...(entry.worksWith.length > 0 ? [`Works with: ${entry.worksWith.join(', ')}`] : []),
    `Runs on: ${entry.runsOn.join(', ')}`,
    install,
    `Keywords: ${entry.keywords.join(', ')}`,
    `Docs: ${siteUrl}${entry.docsPath} (read_page path \`${entry.docsPath}\`)`,
  ].join('\n');
}

/** What the tools look things up in, built from a bundle. */
interface Lookups {
  readonly search: DocsSearch;
  readonly pagesByPath: ReadonlyMap<string, DocsPage>;
  /** Lower-cased names to the exports of that name, the core's first. */
  readonly symbolsByName: ReadonlyMap<string, readonly ApiSymbol[]>;
  readonly errorsByCode: ReadonlyMap<string, ErrorCodeDoc>;
}

/**
 * Lookups by bundle. Building the search index takes a good part of a second of CPU, and the
 * HTTP transport creates a server for every request: each bundle's is built once, on first use.
 */
const lookupsByBundle = new WeakMap<DocsBundle, Lookups>();

function lookupsOf(bundle: DocsBundle): Lookups {
  let lookups = lookupsByBundle.get(bundle);
  if (lookups === undefined) {
    lookups = {
      // Only the core's exports have pages of their own for an exact name to put first.
      search: new DocsSearch(bundle.pages, [
        ...bundle.symbols.filter((symbol) => symbol.packageName === CORE_PACKAGE),
        ...bundle.errors.map((entry) => ({ name: entry.code, docsPath: entry.docsPath })),
      ]),
      pagesByPath: new Map(bundle.pages.map((page) => [page.path, page])),
      symbolsByName: groupByName(bundle.symbols),
      errorsByCode: new Map(bundle.errors.map((entry) => [entry.code, entry])),
    };
    lookupsByBundle.set(bundle, lookups);
  }
  return lookups;
}

function groupByName(symbols: readonly ApiSymbol[]): Map<string, ApiSymbol[]> {
  const byName = new Map<string, ApiSymbol[]>();
  for (const symbol of symbols) {
    const key = symbol.name.toLowerCase();
    const list = byName.get(key) ?? [];
    if (symbol.packageName === CORE_PACKAGE) list.unshift(symbol);
    else list.push(symbol);
    byName.set(key, list);
  }
  return byName;
}

/**
 * Registers the tools on `server`; the bundle's lookups are built on the first call only.
 * @claim tsdoc-mcp-register-tools
 */
export function registerTools(server: McpServer, bundle: DocsBundle, log: FailureLog): void {
  const { search, pagesByPath, symbolsByName, errorsByCode } = lookupsOf(bundle);

  server.registerTool(
    'search_docs',
    {
      title: 'Search the Weft docs',
      description:
        'Searches the Weft documentation (guides and API reference) of this version. Returns ranked pages with title, path, section and a snippet; read one with read_page.',
      inputSchema: {
        query: text(MAX_QUERY_LENGTH, 'query').describe(
          'Words to look for, such as "graceful shutdown" or "Runtime.init".',
        ),
        limit: z.number().int().min(1).max(20).optional().describe('How many pages, 1 to 20 (8).'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(
      'search_docs',
      log,
      ({ query, limit }: { query: string; limit?: number | undefined }) => {
        const hits = search.search(query, limit ?? 8);
        if (hits.length === 0) {
          const closest = search.closestPages(query, 3).map((page) => page.title);
          throw new ToolInputError(
            `No page matches "${query.trim()}".${didYouMean(closest)} ` +
              'Try fewer or other words, or read the index with read_page path "/docs/".',
          );
        }
        return textAnswer(
          hits
            .map(
              (hit, index) =>
                `${index + 1}. ${hit.title}${hit.heading ? ` › ${hit.heading}` : ''} [${hit.section}]\n` +
                `   path: ${hit.path}\n   ${hit.snippet}`,
            )
            .join('\n\n'),
        );
      },
    ),
  );

  server.registerTool(
    'read_page',
    {
      title: 'Read a Weft docs page',
      description:
        'Returns one page of the Weft documentation as Markdown, samples included. Takes a path such as "/docs/guides/production/" or "/api/classes/Runtime/" (a full URL works too).',
      inputSchema: { path: text(MAX_NAME_LENGTH, 'path').describe('The page path or URL.') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded('read_page', log, ({ path }: { path: string }) => {
      const wanted = normalisePath(path, bundle.siteUrl);
      const page = pagesByPath.get(wanted);
      if (page === undefined) {
        throw new ToolInputError(
          `No page has the path "${wanted}".${didYouMean(closestMatches(wanted, [...pagesByPath.keys()]))}`,
        );
      }
      return textAnswer(`${page.markdown}\n\n---\nSource: ${bundle.siteUrl}${page.path}`);
    }),
  );

  server.registerTool(
    'get_api_symbol',
    {
      title: 'Look up an export of a Weft package',
      description:
        'Returns the package, signature, TSDoc, members, example and docs path of an export of any first-party Weft package, such as "Runtime" or "defineCapability" (@weft/core) or "ScriptedModelProvider" (@weft/testing).',
      inputSchema: { name: text(MAX_NAME_LENGTH, 'name').describe('The exported name.') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded('get_api_symbol', log, ({ name }: { name: string }) => {
      // "Runtime.init" asks for the class; its member list has init.
      const wanted = name.trim().split('.')[0]!.replace(/\(\)$/, '');
      const symbols = symbolsByName.get(wanted.toLowerCase());
      if (symbols === undefined) {
        const names = [...new Set(bundle.symbols.map((entry) => entry.name))];
        throw new ToolInputError(
          `No first-party Weft package exports a symbol named "${wanted}".${didYouMean(closestMatches(wanted, names))} ` +
            'list_plugins lists the packages; search_docs finds a name the guides use.',
        );
      }
      return textAnswer(
        symbols.map((symbol) => formatSymbol(symbol, bundle.siteUrl)).join('\n\n---\n\n'),
      );
    }),
  );

  server.registerTool(
    'explain_error',
    {
      title: 'Explain a Weft error code',
      description:
        'Explains a WEFT_ error code (from WeftError.code or an error answer): what raises it, its cause, its fix and its section of the errors reference.',
      inputSchema: {
        code: text(MAX_NAME_LENGTH, 'code').describe('Such as "WEFT_INVALID_CONFIG".'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded('explain_error', log, ({ code }: { code: string }) => {
      const wanted = code.trim().toUpperCase();
      const entry = errorsByCode.get(wanted);
      if (entry === undefined) {
        throw new ToolInputError(
          `No Weft package raises the error code "${wanted}".${didYouMean(closestMatches(wanted, [...errorsByCode.keys()]))}`,
        );
      }
      return textAnswer(formatError(entry, bundle.siteUrl));
    }),
  );

  server.registerTool(
    'list_plugins',
    {
      title: 'List the Weft packages',
      description:
        'Lists the first-party Weft packages (the plugins page): package, kind, what it provides and requires, the install command and its docs page. Optionally filtered by kind.',
      inputSchema: {
        kind: z
          .string()
          .max(MAX_NAME_LENGTH)
          .optional()
          .describe('Only this kind, such as "plugin", "model-provider" or "memory-provider".'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded('list_plugins', log, ({ kind }: { kind?: string | undefined }) => {
      const kinds = [...new Set(bundle.packages.map((entry) => entry.kind))];
      const wanted = kind?.trim().toLowerCase();
      if (wanted !== undefined && wanted !== '' && !kinds.includes(wanted)) {
        throw new ToolInputError(
          `No package has the kind "${wanted}". The kinds are: ${kinds.join(', ')}.`,
        );
      }
      const entries = bundle.packages.filter(
        (entry) => wanted === undefined || wanted === '' || entry.kind === wanted,
      );
      return textAnswer(entries.map((entry) => formatPackage(entry, bundle.siteUrl)).join('\n\n'));
    }),
  );
}
