/**
 * The ranking of `search_docs`, kept apart from the server so the site's search can share it.
 * Pages are indexed by section (a `##` heading and its text), so a result can name the part of a
 * page that matched; results are then folded to one per page.
 *
 * The rules, each for a reason a reader would notice:
 * - all words must match first; when no section has them all, any word will do, so one word
 *   outside the docs' wording does not empty the list;
 * - typos are forgiven in proportion to the word: one edit from 4 letters, two from 8;
 * - the last word matches as a prefix, since people search as they type;
 * - guides outrank generated API summaries for the same words (concept words name guides),
 *   but a query that is exactly an exported name puts that symbol's page first: as written
 *   (`Memory`, not `memory`), or in any case for a compound name (`memorymanager`).
 */
import MiniSearch, { type SearchResult } from 'minisearch';

/** What the search needs of a page. */
export interface SearchablePage {
  readonly path: string;
  readonly title: string;
  readonly description: string;
  readonly section: string;
  readonly kind: 'guide' | 'api';
  readonly markdown: string;
}

/** One ranked page. */
export interface SearchHit {
  readonly title: string;
  readonly path: string;
  /** The page's sidebar section. */
  readonly section: string;
  /** The heading of the part that matched best, if not the page's top. */
  readonly heading?: string;
  /** A line of text around the first matched word. */
  readonly snippet: string;
  readonly score: number;
}

interface SectionDocument {
  readonly id: number;
  readonly pagePath: string;
  readonly title: string;
  readonly heading: string;
  /** The heading's anchor on the page, if any. */
  readonly anchor: string;
  readonly text: string;
  readonly kind: 'guide' | 'api';
}

/** Generated API pages weigh this much against a guide with the same words. */
const API_PAGE_WEIGHT = 0.45;
/** The boost that puts a symbol's own page first when the query is its exact name. */
const EXACT_SYMBOL_BOOST = 1000;

/** Splits Markdown into its top and one part per `##` heading, code blocks kept as text. */
export function splitSections(markdown: string): { heading: string; text: string }[] {
  const sections: { heading: string; text: string }[] = [{ heading: '', text: '' }];
  let inCode = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inCode = !inCode;
    const heading = inCode ? null : /^##\s+(.+)$/.exec(line);
    if (heading) sections.push({ heading: plainText(heading[1]!), text: '' });
    else sections[sections.length - 1]!.text += `${line}\n`;
  }
  return sections.filter((section) => section.heading !== '' || section.text.trim() !== '');
}

/** Markdown reduced to words for snippets: links to their text, emphasis and escapes removed. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_]|\\(?=[^\s])/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s+/g, '-');
}

/** One edit for words of 4 to 7 letters, two from 8: "capabilites" still finds "capabilities". */
function typoAllowance(term: string): number {
  if (term.length >= 8) return 2;
  if (term.length >= 4) return 1;
  return 0;
}

/** The search over a fixed set of pages. */
export class DocsSearch {
  private readonly index: MiniSearch<SectionDocument>;
  private readonly documents: SectionDocument[] = [];
  private readonly pages = new Map<string, SearchablePage>();
  /** Exported names to the path of their page. */
  private readonly symbolPages = new Map<string, string>();
  /** Compound names (`MemoryManager`), lower-cased: typed in any case, they still mean the symbol. */
  private readonly compoundSymbolPages = new Map<string, string>();

  /**
   * @param pages - The pages to search.
   * @param symbols - Exported names and their page, so an exact name finds its page first.
   */
  constructor(
    pages: readonly SearchablePage[],
    symbols: readonly { name: string; docsPath: string }[] = [],
  ) {
    this.index = new MiniSearch<SectionDocument>({
      fields: ['title', 'heading', 'text'],
      storeFields: [],
    });
    for (const page of pages) {
      this.pages.set(page.path, page);
      for (const section of splitSections(page.markdown)) {
        this.documents.push({
          id: this.documents.length,
          pagePath: page.path,
          title: `${page.title} ${page.description}`,
          heading: section.heading,
          anchor: section.heading === '' ? '' : anchorOf(section.heading),
          text: section.text,
          kind: page.kind,
        });
      }
    }
    this.index.addAll(this.documents);
    for (const symbol of symbols) {
      this.symbolPages.set(symbol.name, symbol.docsPath);
      if (/[a-z][A-Z]|_/.test(symbol.name)) {
        this.compoundSymbolPages.set(symbol.name.toLowerCase(), symbol.docsPath);
      }
    }
  }

  /**
   * Ranks pages for a query.
   *
   * @param query - What the reader typed.
   * @param limit - How many pages at most.
   * @returns The pages, best first, each at most once.
   */
  search(query: string, limit = 8): SearchHit[] {
    // "Memory" is the interface, "memory" the concept a guide explains; "memorymanager" is
    // still the class, since no one means a compound name as a word.
    const trimmed = query.trim();
    const exactSymbolPage =
      this.symbolPages.get(trimmed) ?? this.compoundSymbolPages.get(trimmed.toLowerCase());
    const options = {
      boost: { title: 4, heading: 2, text: 1 },
      fuzzy: (term: string) => typoAllowance(term),
      prefix: (term: string, index: number, terms: string[]) =>
        index === terms.length - 1 && term.length >= 3,
      boostDocument: (id: unknown) => {
        const document = this.documents[id as number]!;
        if (exactSymbolPage !== undefined && document.pagePath === exactSymbolPage) {
          return EXACT_SYMBOL_BOOST;
        }
        return document.kind === 'api' ? API_PAGE_WEIGHT : 1;
      },
    };
    let results = this.index.search(query, { ...options, combineWith: 'AND' });
    if (results.length === 0) results = this.index.search(query, { ...options, combineWith: 'OR' });

    const hits: SearchHit[] = [];
    const seen = new Set<string>();
    for (const result of results) {
      const document = this.documents[result.id as number]!;
      if (seen.has(document.pagePath)) continue;
      seen.add(document.pagePath);
      const page = this.pages.get(document.pagePath)!;
      hits.push({
        title: page.title,
        path: document.anchor === '' ? page.path : `${page.path}#${document.anchor}`,
        section: page.section,
        ...(document.heading === '' ? {} : { heading: document.heading }),
        snippet: snippetOf(document.text || page.description, result),
        score: Math.round(result.score * 100) / 100,
      });
      if (hits.length === limit) break;
    }
    return hits;
  }
}

/** About 200 characters of plain text around the first word that matched. */
function snippetOf(markdown: string, result: SearchResult): string {
  const text = plainText(markdown);
  const lower = text.toLowerCase();
  const positions = result.terms
    .map((term) => lower.indexOf(term.toLowerCase()))
    .filter((position) => position >= 0);
  const first = positions.length === 0 ? 0 : Math.min(...positions);
  const start = Math.max(0, first - 60);
  const end = Math.min(text.length, start + 200);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}
