/**
 * The site's search worker (src/plugins/local-search/ranking-worker.ts) reads the search
 * plugin's index documents into pages for the shared ranking and gives ranked sections back in
 * the shape the plugin's box and search page display: src/plugins/local-search/site-pages.ts.
 */
import { describe, expect, it } from 'vitest';
import { DocsSearch } from '@weft/mcp-docs/search';
import {
  DEFINITIONS_ENTRY,
  DocumentType,
  positionsOf,
  sitePagesOf,
  toPluginResult,
  type IndexFileEntry,
} from '../../src/plugins/local-search/site-pages';

/** An index file as the plugin writes it: titles, headings, descriptions, keywords, text. */
const entries: IndexFileEntry[] = [
  {
    documents: [
      { i: 1, t: 'Running in production', u: '/docs/guides/production/', b: ['Guides'] },
      { i: 10, t: 'Class: Runtime', u: '/api/classes/Runtime/', b: ['API', 'Classes'] },
      { i: 20, t: 'Errors', u: '/docs/reference/errors/', b: ['Reference'] },
      { i: 30, t: 'Function: spaceId()', u: '/api/functions/spaceId/', b: ['API', 'Functions'] },
    ],
  },
  {
    documents: [
      {
        i: 2,
        t: 'Behind a reverse proxy',
        u: '/docs/guides/production/',
        h: '#behind-a-proxy',
        p: 1,
      },
      {
        i: 3,
        t: 'Graceful shutdown',
        u: '/docs/guides/production/',
        h: '#graceful-shutdown',
        p: 1,
      },
      {
        i: 21,
        t: 'WEFT_TASK_TIMEOUT',
        u: '/docs/reference/errors/',
        h: '#weft_task_timeout',
        p: 20,
      },
    ],
  },
  {
    documents: [
      {
        i: 4,
        t: 'Run an agent as a service.',
        s: 'Running in production',
        u: '/docs/guides/production/',
        p: 1,
      },
    ],
  },
  { documents: [] },
  {
    documents: [
      {
        i: 5,
        t: 'This guide runs an agent for real users.',
        s: 'Running in production',
        u: '/docs/guides/production/',
        h: '',
        p: 1,
      },
      {
        i: 6,
        t: 'Put nginx in front of the server.',
        s: 'Behind a reverse proxy',
        u: '/docs/guides/production/',
        h: '#behind-a-proxy',
        p: 1,
      },
      {
        i: 7,
        t: 'Forward the Host header too.',
        s: 'Behind a reverse proxy',
        u: '/docs/guides/production/',
        h: '#behind-a-proxy',
        p: 1,
      },
      {
        i: 11,
        t: 'The agent: plugins, models and memory.',
        s: 'Class: Runtime',
        u: '/api/classes/Runtime/',
        h: '',
        p: 10,
      },
      {
        i: 22,
        t: 'A task ran past its deadline.',
        s: 'WEFT_TASK_TIMEOUT',
        u: '/docs/reference/errors/',
        h: '#weft_task_timeout',
        p: 20,
      },
    ],
  },
];

const site = sitePagesOf(entries, '/api/');

describe('the search index documents as pages', () => {
  it('joins a page’s text per heading, keeping each heading’s real anchor', () => {
    const production = site.pages.find((page) => page.path === '/docs/guides/production/')!;
    expect(production).toMatchObject({
      title: 'Running in production',
      description: 'Run an agent as a service.',
      section: 'Guides',
      kind: 'guide',
    });
    expect(production.sections).toEqual([
      {
        heading: '',
        anchor: '',
        text: 'This guide runs an agent for real users.',
        definitions: [],
      },
      {
        heading: 'Behind a reverse proxy',
        anchor: 'behind-a-proxy',
        text: 'Put nginx in front of the server.\nForward the Host header too.',
        definitions: [],
      },
      // A heading with no text of its own is still a part the ranking can find by its words.
      { heading: 'Graceful shutdown', anchor: 'graceful-shutdown', text: '', definitions: [] },
    ]);
  });

  it('marks the API reference’s pages and names their symbols and the error codes', () => {
    expect(site.pages.find((page) => page.path === '/api/classes/Runtime/')!.kind).toBe('api');
    expect(site.symbols).toEqual([
      { name: 'Runtime', docsPath: '/api/classes/Runtime/' },
      { name: 'WEFT_TASK_TIMEOUT', docsPath: '/docs/reference/errors/#weft_task_timeout' },
      // As a reader types it, without the title's parentheses.
      { name: 'spaceId', docsPath: '/api/functions/spaceId/' },
    ]);
  });
});

describe('the names the pages’ tables define', () => {
  const page = (i: number, title: string, u: string, text: string) => [
    { i, t: title, u },
    { i: i + 1, t: text, s: title, u, h: '#options', p: i },
  ];
  const [reference, referenceText] = page(
    1,
    'Configuration',
    '/docs/configuration/',
    'options.shutdownTimeoutMs integer 30000 How long a stop waits.',
  );
  const [guide, guideText] = page(
    10,
    'Production',
    '/docs/production/',
    'Set shutdownTimeoutMs above your longest task: shutdownTimeoutMs bounds the drain, and shutdownTimeoutMs is in milliseconds.',
  );
  const withDefinitions: IndexFileEntry[] = [
    { documents: [reference!, guide!] },
    { documents: [] },
    { documents: [] },
    { documents: [] },
    { documents: [referenceText!, guideText!] },
    {
      documents: [],
      definitions: [{ n: 'shutdownTimeoutMs', u: '/docs/configuration/', h: '#options' }],
    },
  ];

  it('gives each section the names its tables define, and the ranking puts it first [claim:mcp-docs-table-definitions]', () => {
    const pages = sitePagesOf(withDefinitions, '/api/');
    expect(pages.pages[0]!.sections![1]!.definitions).toEqual(['shutdownTimeoutMs']);
    expect(pages.pages[1]!.sections![1]!.definitions).toEqual([]);
    const rank = (entries: IndexFileEntry[]) =>
      new DocsSearch(sitePagesOf(entries, '/api/').pages).rank('shutdownTimeoutMs')[0]?.pagePath;
    expect(rank(withDefinitions)).toBe('/docs/configuration/');
    // Without the definitions, the guide that says the name three times wins.
    expect(rank(withDefinitions.slice(0, DEFINITIONS_ENTRY))).toBe('/docs/production/');
  });
});

describe('ranked sections as the plugin’s results', () => {
  const search = new DocsSearch(site.pages, site.symbols);
  const results = (query: string) =>
    search.rank(query).map((ranked) => toPluginResult(ranked, site.titles, [query])!);

  it('shows one row per page, titled by the page, opening the part that matched', () => {
    const rows = results('nginx');
    expect(rows).toHaveLength(1);
    const [first] = rows;
    expect(first!.type).toBe(DocumentType.Title);
    expect(first!.document).toEqual({
      i: 1,
      t: 'Running in production',
      u: '/docs/guides/production/',
      // The path under the title ends with the part's heading.
      b: ['Guides', 'Behind a reverse proxy'],
      h: '#behind-a-proxy',
    });
    // The index's own title document is left as it was.
    expect(site.titles.get('/docs/guides/production/')).not.toHaveProperty('h');
  });

  it('shows a page whose top matched best as its title', () => {
    const [first] = results('Runtime');
    expect(first!.document).toBe(site.titles.get('/api/classes/Runtime/'));
    // Terms are indexed as stems ("runtim"); the mark covers what the title has of it.
    const [start, length] = Object.values(first!.metadata)[0]!.t.position[0]!;
    expect(first!.document.t.slice(start, start + length)).toMatch(/^Runtim/);
  });

  it('puts an error code’s section first, found as itself', () => {
    expect(results('WEFT_TASK_TIMEOUT')[0]!.document).toMatchObject({
      u: '/docs/reference/errors/',
      h: '#weft_task_timeout',
    });
  });
});

describe('highlight positions', () => {
  it('finds a term in another form of the word', () => {
    expect(positionsOf('Two capabilities', ['capability'])).toEqual({
      capability: { t: { position: [[4, 9]] } },
    });
  });

  it('gives an empty mark at the start when the text has none of the terms', () => {
    // The plugin's display needs one position to start its excerpt from.
    expect(positionsOf('Graceful shutdown', ['nginx'])).toEqual({
      '': { t: { position: [[0, 0]] } },
    });
  });
});
