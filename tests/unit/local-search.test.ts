/**
 * The search theme with its index cached (src/plugins/local-search): the wrapped plugin
 * keeps every hook of the search plugin, builds its index on a first build, and a build whose
 * pages and options are unchanged gets the same index files back without indexing again.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** Stands for the lunr index the real plugin writes beside the documents. */
const LUNR_INDEX = { invertedIndex: [['weave', { _index: 1 }]], version: '2.3.9' };

/** What the stand-in search plugin did, per test. */
const indexed: { pages: string[] }[] = [];

vi.mock('@easyops-cn/docusaurus-search-local', () => ({
  validateOptions: ({ options }: { options: unknown }) => options,
  default: (_context: LoadContext, options: { language: string[] }): Plugin<unknown> => ({
    name: '@easyops-cn/docusaurus-search-local',
    getThemePath: () => '/search/theme',
    // Like the real plugin: one index for the whole site and one per search context.
    async postBuild({ outDir }) {
      const page = readFileSync(path.join(outDir, 'docs', 'index.html'), 'utf8');
      indexed.push({ pages: [page] });
      const text = /<main>(.*)<\/main>/.exec(page)?.[1] ?? '';
      if (text === 'not an index') {
        writeFileSync(path.join(outDir, 'search-index.json'), JSON.stringify({ text }));
        return;
      }
      // The plugin's format: per document type, the documents and their lunr index.
      const index = JSON.stringify([
        { documents: [{ i: 1, t: text, u: '/docs/', b: options.language }], index: LUNR_INDEX },
      ]);
      writeFileSync(path.join(outDir, 'search-index.json'), index);
      writeFileSync(path.join(outDir, 'search-index-docs.json'), index);
    },
  }),
}));

const {
  default: cachedSearchIndex,
  validateOptions,
  SEARCH_WORKER_MODULE,
  EMPTY_TEMPLATE_MODULE,
  INDEX_SOURCES,
  searchIndexCacheSettings,
} = await import('../../src/plugins/local-search');
const { sourcesHash } = await import('../../src/plugins/shared/output-cache');
const { DEFINITIONS_ENTRY } = await import('../../src/plugins/local-search/site-pages');

let siteDir: string;
let outDir: string;

function context(): LoadContext {
  return {
    siteDir,
    siteConfig: { url: 'https://weft.dev', baseUrl: '/', trailingSlash: undefined },
  } as unknown as LoadContext;
}

/** A fresh build folder with one page, as Docusaurus leaves it before postBuild. */
function build(scriptHash: string, text: string): void {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(path.join(outDir, 'docs'), { recursive: true });
  writeFileSync(
    path.join(outDir, 'docs', 'index.html'),
    `<html><script src=/assets/js/main.${scriptHash}.js></script><main>${text}</main></html>`,
  );
}

async function postBuild(options: { language: string[] }): Promise<void> {
  const plugin = cachedSearchIndex(context(), options as never);
  await plugin.postBuild?.({ outDir } as never);
}

beforeEach(() => {
  indexed.length = 0;
  siteDir = mkdtempSync(path.join(tmpdir(), 'weft-search-cache-'));
  outDir = path.join(siteDir, 'build');
});

afterEach(() => {
  rmSync(siteDir, { recursive: true, force: true });
});

describe('the search index cache', () => {
  it('keeps the search plugin’s name, hooks and option validation', () => {
    const plugin = cachedSearchIndex(context(), { language: ['en'] } as never);
    expect(plugin.name).toBe('@easyops-cn/docusaurus-search-local');
    expect(plugin.getThemePath?.()).toBe('/search/theme');
    const options = { language: ['en'] };
    expect(validateOptions({ options, validate: () => options } as never)).toBe(options);
  });

  it('indexes on the first build and restores the same files when the pages are unchanged', async () => {
    build('aaaa1111', 'Weave an agent');
    await postBuild({ language: ['en'] });
    const first = readFileSync(path.join(outDir, 'search-index.json'), 'utf8');
    // A component change renames the entry script in every page; the text is the same.
    build('bbbb2222', 'Weave an agent');
    await postBuild({ language: ['en'] });
    expect(indexed).toHaveLength(1);
    expect(readFileSync(path.join(outDir, 'search-index.json'), 'utf8')).toBe(first);
    expect(readFileSync(path.join(outDir, 'search-index-docs.json'), 'utf8')).toBe(first);
  });

  it('indexes again when a page’s text changes', async () => {
    build('aaaa1111', 'Weave an agent');
    await postBuild({ language: ['en'] });
    build('aaaa1111', 'Weave an agent from plugins');
    await postBuild({ language: ['en'] });
    expect(indexed).toHaveLength(2);
    expect(readFileSync(path.join(outDir, 'search-index.json'), 'utf8')).toContain('from plugins');
  });

  it("indexes again when the site's own code that shapes the index changes: every module of the plugin its entry imports is in the key [claim:cg-output-cache-key]", () => {
    const folder = path.resolve(__dirname, '../../src/plugins/local-search');
    const entry = path.join(folder, 'index.ts');
    const imported = [...readFileSync(entry, 'utf8').matchAll(/from '\.\/([\w-]+)'/g)].map(
      ([, name]) => path.join(folder, `${name}.ts`),
    );
    expect(imported.length).toBeGreaterThan(0);
    expect([...INDEX_SOURCES].sort()).toEqual([entry, ...imported].sort());
  });

  it("keys the index on the versions of the search plugin, lunr and the HTML parser, the options and the site's code that shapes it [claim:cg-output-cache-key]", () => {
    const options = { language: ['en'] };
    const settings = searchIndexCacheSettings(context(), options as never);
    expect(Object.keys(settings.versions).sort()).toEqual(
      ['@easyops-cn/docusaurus-search-local', 'cheerio', 'lunr', 'lunr-languages'].sort(),
    );
    for (const version of Object.values(settings.versions)) expect(version).toMatch(/^\d+\.\d+/);
    expect(settings.options).toEqual(options);
    expect(settings.code).toBe(sourcesHash(INDEX_SOURCES));
  });

  it('indexes again when the search options change', async () => {
    build('aaaa1111', 'Weave an agent');
    await postBuild({ language: ['en'] });
    build('aaaa1111', 'Weave an agent');
    await postBuild({ language: ['en', 'de'] });
    expect(indexed).toHaveLength(2);
    expect(readFileSync(path.join(outDir, 'search-index.json'), 'utf8')).toContain('"de"');
  });

  it('keeps the documents and drops the lunr index, which the ranking worker does not read', async () => {
    build('aaaa1111', 'Weave an agent');
    await postBuild({ language: ['en'] });
    const written: unknown = JSON.parse(
      readFileSync(path.join(outDir, 'search-index.json'), 'utf8'),
    );
    expect(written).toEqual([
      { documents: [{ i: 1, t: 'Weave an agent', u: '/docs/', b: ['en'] }] },
      { documents: [] },
      { documents: [] },
      { documents: [] },
      { documents: [] },
      // The page has no table.
      { documents: [], definitions: [] },
    ]);
  });

  it('adds the names each page’s tables define, with their sections, read from the built HTML [claim:mcp-docs-table-definitions]', async () => {
    // As the build writes a table: closing tags left out, ids unquoted.
    build(
      'aaaa1111',
      '<article><h1>Options</h1><table><tr><td><code>runtime</code><td>top' +
        '<h2 class="anchor" id=options>Options</h2><p>Some <code>notAName</code> in prose.' +
        '<table><thead><tr><th>Option<th>Default<tbody><tr><td><code>options.maxSteps</code><td><code>10</code>' +
        '<tr><td><code>a</code> or <code>b</code><td>x<tr><td>plain<td><code>alsoNot</code></table>' +
        '<h3 id="server">Server</h3><table><tr><td><code>server.allowedHosts</code></td><td>[]</td></tr></table></article>',
    );
    await postBuild({ language: ['en'] });
    const written = JSON.parse(readFileSync(path.join(outDir, 'search-index.json'), 'utf8')) as {
      definitions?: unknown;
    }[];
    expect(written[DEFINITIONS_ENTRY]!.definitions).toEqual([
      { n: 'runtime', u: '/docs/', h: '' },
      { n: 'maxSteps', u: '/docs/', h: '#options' },
      { n: 'allowedHosts', u: '/docs/', h: '#server' },
    ]);
  });

  it('fails the build, naming the file, when the plugin writes another index format [claim:cg-internals-tests-name-them]', async () => {
    build('aaaa1111', 'not an index');
    await expect(postBuild({ language: ['en'] })).rejects.toThrow(
      /search-index\.json is not a list of \{ documents, index \} entries/,
    );
  });

  it('replaces the plugin’s search worker module, matched where the plugin ships it [claim:cg-internals-tests-name-them]', () => {
    // require.resolve throws, naming the path, when the plugin moves its worker.
    const workerPath =
      require.resolve('@easyops-cn/docusaurus-search-local/dist/client/client/theme/worker.js');
    expect(
      SEARCH_WORKER_MODULE.test(workerPath),
      `SEARCH_WORKER_MODULE does not match ${workerPath}`,
    ).toBe(true);
  });

  it('replaces the search box’s empty template, matched where the plugin ships it', () => {
    const templatePath =
      require.resolve('@easyops-cn/docusaurus-search-local/dist/client/client/theme/SearchBar/EmptyTemplate.js');
    expect(EMPTY_TEMPLATE_MODULE.test(templatePath)).toBe(true);
  });
});
