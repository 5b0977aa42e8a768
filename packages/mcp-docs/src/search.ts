/**
 * The ranking of `search_docs`, kept apart from the server so the site's search can share it.
 * Pages are indexed by section (a `##` heading and its text), so a result can name the part of a
 * page that matched; results are then folded to one per page.
 *
 * The rules, each for a reason a reader would notice:
 * - all words must match first; when no section has them all, any word will do, so one word
 *   outside the docs' wording does not empty the list;
 * - typos are forgiven in proportion to the word: one edit from 4 letters, two from 8;
 * - a plural finds its singular and the other way round;
 * - the last word matches as a prefix, since people search as they type;
 * - little words ("the", "to", "my") are not required: "deploy to production" means the
 *   production guide, whether or not it says "to";
 * - an identifier is a word and its parts: `SqliteMemoryProvider` is found by "sqlite", and
 *   `WEFT_TASK_TIMEOUT` by itself, not by "task" and "timeout" scattered over the docs;
 * - a page that answers in several sections outranks one that mentions the words once;
 * - guides outrank generated API summaries for the same words (concept words name guides),
 *   but a query that is exactly an exported name puts that symbol's page first: as written
 *   (`Memory`, not `memory`), or in any case for a compound name (`memorymanager`); an error
 *   code puts its section of the errors reference first.
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

/** A page's other matching sections add this share of their scores to its best one. */
const OTHER_SECTIONS_SHARE = 0.25;

/**
 * Words too common to require. Kept short: a word a reader might mean (such as "not", "all",
 * "no") stays searchable.
 */
const STOP_WORDS = new Set(
  (
    'a an and are as at be by can do does for from how i in into is it its me my of on or so ' +
    'that the their then there these this to too use using via was we what when where which ' +
    'who why will with you your'
  ).split(' '),
);

/** Words and identifiers: letters, digits and underscores, with dots and hyphens inside. */
const WORD = /[\p{L}\p{N}_]+(?:[.-][\p{L}\p{N}_]+)*/gu;

/**
 * The terms of a text: each word, and for an identifier its parts too (`MemoryManager` gives
 * memorymanager, memory and manager; `WEFT_TASK_TIMEOUT` gives itself, weft, task and timeout;
 * `server.allowedHosts` gives itself, server, allowedhosts, allowed and hosts), lower-cased. In queries only the whole word
 * is kept, so an error code or a symbol is looked for as itself.
 */
export function tokenize(text: string, forQuery = false): string[] {
  const terms: string[] = [];
  for (const [word] of text.matchAll(WORD)) {
    terms.push(word);
    if (forQuery) continue;
    // `server.allowedHosts` is found by "allowedHosts", "server", "allowed" and "hosts".
    const segments = word.split(/[._-]+/).filter((segment) => segment !== '');
    if (segments.length > 1) terms.push(...segments);
    for (const segment of segments) {
      const parts = segment
        .replace(/([a-z\d])([A-Z])/g, '$1 $2')
        .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
        .split(' ');
      if (parts.length > 1) terms.push(...parts);
    }
  }
  return terms;
}

/**
 * A plural and its singular are one term ("executors" finds "executor"). Only plain words: an
 * identifier such as `WEFT_ANSWERS` or `options.ts` is kept as written.
 */
function singular(word: string): string {
  if (word.length < 5 || !/^[a-z]+$/.test(word) || /(ss|us|is)$/.test(word)) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(sses|shes|ches|xes)$/.test(word)) return word.slice(0, -2);
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return STOP_WORDS.has(lower) ? null : singular(lower);
}

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
   * @param symbols - Exported names (and error codes) with their page, so an exact name finds
   *   its page first.
   */
  constructor(
    pages: readonly SearchablePage[],
    symbols: readonly { name: string; docsPath: string }[] = [],
  ) {
    this.index = new MiniSearch<SectionDocument>({
      fields: ['title', 'heading', 'text'],
      storeFields: [],
      tokenize: (text) => tokenize(text),
      processTerm,
      searchOptions: { tokenize: (text) => tokenize(text, true), processTerm },
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
      // An error code's page is a section of the errors reference: rank by the page.
      const pagePath = symbol.docsPath.replace(/#.*$/, '');
      this.symbolPages.set(symbol.name, pagePath);
      if (/[a-z][A-Z]|_/.test(symbol.name)) {
        this.compoundSymbolPages.set(symbol.name.toLowerCase(), pagePath);
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

    // The best section stands for its page; the page's other matching sections add a share.
    const pagesInOrder: { best: SearchResult; score: number }[] = [];
    const byPage = new Map<string, { best: SearchResult; score: number }>();
    for (const result of results) {
      const pagePath = this.documents[result.id as number]!.pagePath;
      const entry = byPage.get(pagePath);
      if (entry === undefined) {
        const created = { best: result, score: result.score };
        byPage.set(pagePath, created);
        pagesInOrder.push(created);
      } else {
        entry.score += result.score * OTHER_SECTIONS_SHARE;
      }
    }
    pagesInOrder.sort((a, b) => b.score - a.score);

    const hits: SearchHit[] = [];
    for (const { best, score } of pagesInOrder.slice(0, limit)) {
      const document = this.documents[best.id as number]!;
      const page = this.pages.get(document.pagePath)!;
      hits.push({
        title: page.title,
        path: document.anchor === '' ? page.path : `${page.path}#${document.anchor}`,
        section: page.section,
        ...(document.heading === '' ? {} : { heading: document.heading }),
        snippet: snippetOf(document.text || page.description, best),
        score: Math.round(score * 100) / 100,
      });
    }
    return hits;
  }
}

/** About 200 characters of plain text around the first word that matched. */
function snippetOf(markdown: string, result: SearchResult): string {
  // The page's own heading line says nothing the hit's title does not.
  const text = plainText(markdown.replace(/^#{1,6}\s.*$/gm, ''));
  const lower = text.toLowerCase();
  const positions = result.terms
    .map((term) => lower.indexOf(term.toLowerCase()))
    .filter((position) => position >= 0);
  const first = positions.length === 0 ? 0 : Math.min(...positions);
  const start = Math.max(0, first - 60);
  const end = Math.min(text.length, start + 200);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}
