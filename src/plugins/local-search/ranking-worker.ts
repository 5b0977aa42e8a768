/**
 * The search worker, in place of the search plugin's own (src/plugins/local-search/index.ts
 * swaps the module): the same interface, reached through Comlink by the plugin's search box and
 * search page, but ranked by @weft/mcp-docs's DocsSearch, the ranking `search_docs` uses. The
 * plugin's lunr ranking missed multi-word tasks phrased in the reader's own words, forgave no
 * two-letter typo and let one page take several places (see docs/contributing-guide.md).
 */
import * as Comlink from 'comlink';
import { DocsSearch } from '@weft/mcp-docs/search';
import { searchIndexUrl } from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/proxiedGeneratedConstants';
import {
  DocumentType,
  positionsOf,
  sitePagesOf,
  toPluginResult,
  type IndexFileEntry,
  type PluginSearchResult,
  type SitePages,
} from './site-pages';

interface LoadedIndex {
  search: DocsSearch;
  site: SitePages;
}

/** How many closest titles a search that matched nothing offers instead of an empty list. */
const CLOSEST_PAGES = 3;

const loaded = new Map<string, Promise<LoadedIndex>>();

async function loadIndex(baseUrl: string, searchContext: string): Promise<LoadedIndex> {
  const url = `${baseUrl}${searchIndexUrl.replace(
    '{dir}',
    searchContext ? `-${searchContext.replace(/\//g, '-')}` : '',
  )}`;
  // Only this site's own index file.
  if (new URL(url, location.origin).origin !== location.origin) {
    throw new Error(`The search index must come from this site, not ${url}.`);
  }
  const response = await fetch(url);
  if (!response.ok) {
    throw new Error(`The search index ${url} could not be loaded: HTTP ${response.status}.`);
  }
  const entries = (await response.json()) as IndexFileEntry[];
  const site = sitePagesOf(entries, `${baseUrl}api/`);
  return { search: new DocsSearch(site.pages, site.symbols), site };
}

function indexFor(baseUrl: string, searchContext: string): Promise<LoadedIndex> {
  const key = `${baseUrl}${searchContext}`;
  let index = loaded.get(key);
  if (index === undefined) {
    index = loadIndex(baseUrl, searchContext);
    // A failed load (offline before the index was cached) is tried again next time.
    index.catch(() => loaded.delete(key));
    loaded.set(key, index);
  }
  return index;
}

export class SearchWorker {
  async fetchIndexes(baseUrl: string, searchContext: string): Promise<void> {
    await indexFor(baseUrl, searchContext);
  }

  async search(
    baseUrl: string,
    searchContext: string,
    input: string,
    limit: number,
  ): Promise<PluginSearchResult[]> {
    const tokens = input.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
    if (tokens.length === 0) return [];
    const { search, site } = await indexFor(baseUrl, searchContext);
    const results = search
      .rank(input, limit)
      .map((ranked) => toPluginResult(ranked, site.titles, tokens))
      .filter((result) => result !== undefined);
    if (results.length > 0) return results;
    // No word of the query is in the docs, even with typos forgiven: offer the pages whose
    // titles are nearest to it rather than nothing.
    return search.closestPages(input, CLOSEST_PAGES).map(({ path }) => ({
      document: site.titles.get(path)!,
      type: DocumentType.Title,
      page: undefined,
      metadata: positionsOf(path, []),
      tokens,
    }));
  }
}

Comlink.expose(SearchWorker);
