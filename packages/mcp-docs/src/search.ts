/**
 * The ranking of `search_docs`, kept apart from the server so the site's search can share it.
 * Pages are indexed by section (a `##` heading and its text), so a result can name the part of a
 * page that matched; results are then folded to one per page.
 *
 * The rules, each for a reason a reader would notice:
 * - sections with all the words come first; when fewer than a page of results have them all,
 *   sections with all but one join them at half their score (so one of these leads only when it
 *   matches more than twice as closely), and when none has all but one, any word will do, so
 *   one word outside the docs' wording does not empty the list;
 * - a section with several of the query's words in a row, as written ("at least once"), ranks
 *   above one where the same words are scattered;
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
 *   code puts its section of the errors reference first;
 * - a query that is exactly a compound name a table defines (an option such as `maxSteps`, the
 *   first cell of a row) puts the section with that row first, in whatever words it says it;
 *   when several pages' tables define it, the page that defines the most names (a reference) is
 *   its home.
 */
import MiniSearch, { type Query, type SearchResult } from 'minisearch';

/** What the search needs of a page. */
export interface SearchablePage {
  readonly path: string;
  readonly title: string;
  readonly description: string;
  readonly section: string;
  readonly kind: 'guide' | 'api';
  readonly markdown: string;
  /**
   * The page's parts, when the caller has them already (the site's index lists each heading
   * with its real anchor); otherwise the Markdown is split at its `##` headings.
   */
  readonly sections?: readonly PageSection[];
}

/** A part of a page: its heading (empty for the page's top), the heading's anchor and text. */
export interface PageSection {
  readonly heading: string;
  readonly anchor: string;
  readonly text: string;
  /**
   * The names the part's tables define (see {@link tableDefinitions}), when the caller has them
   * already; otherwise they are read from `text` as Markdown. Only compound names count: a
   * plain word (`host`, `true`) searched for means the word.
   */
  readonly definitions?: readonly string[];
}

/** One ranked page as the best of its parts: what a caller with its own display needs. */
export interface RankedSection {
  readonly pagePath: string;
  /** The matched part's heading, empty for the page's top. */
  readonly heading: string;
  /** The heading's anchor on the page, empty for the page's top. */
  readonly anchor: string;
  /** The matched part's text (Markdown or plain text, as given). */
  readonly text: string;
  /** The indexed terms that matched, lower-cased, for highlighting. */
  readonly terms: readonly string[];
  readonly score: number;
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

/**
 * A section whose table defines the name a query is exactly: first, unless the name is also an
 * exported symbol, whose page comes first (EXACT_SYMBOL_BOOST).
 */
const DEFINITION_BOOST = 100;

/** Generated API pages weigh this much against a guide with the same words. */
const API_PAGE_WEIGHT = 0.45;
/** The boost that puts a symbol's own page first when the query is its exact name. */
const EXACT_SYMBOL_BOOST = 1000;

/** Up to this many words, a query that no part matches in full is tried without each word. */
const MOST_WORDS_LIMIT = 6;

/** A page's other matching sections add this share of their scores to its best one. */
const OTHER_SECTIONS_SHARE = 0.25;

/**
 * A part that lacks one of the query's words scores this share: it ranks after the parts that
 * have them all unless it answers much more closely.
 */
const NEAR_MATCH_SHARE = 0.5;

/**
 * A part that has several of the query's words in a row, as the reader wrote them ("at least
 * once"), answers it more closely than one with the same words scattered: its score grows by
 * this share for each word of its longest such run after the first.
 */
const PHRASE_BONUS = 0.5;

/** The query's words as written, lower-cased, little words kept: a phrase needs them. */
function phraseWords(query: string): string[] {
  return query.toLowerCase().match(WORD) ?? [];
}

/** A text as {@link phraseBonus} looks for runs in: its words, lower-cased, one space apart. */
function phraseText(text: string): string {
  return ` ${(text.toLowerCase().match(WORD) ?? []).join(' ')} `;
}

/**
 * 1, or more when `haystack` (see {@link phraseText}) has two or more of `words` in a row, one of them more than a little
 * word (see {@link PHRASE_BONUS}).
 */
function phraseBonus(words: readonly string[], haystack: string): number {
  if (words.length < 2) return 1;
  for (let length = words.length; length >= 2; length -= 1) {
    for (let start = 0; start + length <= words.length; start += 1) {
      const run = words.slice(start, start + length);
      if (run.every((word) => STOP_WORDS.has(word))) continue;
      if (haystack.includes(` ${run.join(' ')} `)) return 1 + PHRASE_BONUS * (length - 1);
    }
  }
  return 1;
}

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

/**
 * A word's forms are one term: "logging", "logged" and "logs" all find "log", "ordering" finds
 * "order", "created" finds "create". A light, English-only stemmer: the same rules run on the
 * docs and on the query, so a stem only has to be consistent, not a real word.
 */
function stem(word: string): string {
  const base = singular(word);
  if (!/^[a-z]+$/.test(base)) return base;
  let root = base;
  const suffix = /(ing|ed)$/.exec(root);
  if (suffix && root.length - suffix[1]!.length >= 4) {
    root = root.slice(0, -suffix[1]!.length);
    // "logging" → "logg" → "log"; "running" → "run".
    if (/([b-df-hj-np-tv-z])\1$/.test(root) && !/(ll|ss|ff|zz)$/.test(root)) {
      root = root.slice(0, -1);
    }
  }
  // "create" and "creat(ed)", "cache" and "cach(ing)".
  return root.length >= 5 && root.endsWith('e') ? root.slice(0, -1) : root;
}

function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  return STOP_WORDS.has(lower) ? null : stem(lower);
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

/**
 * The part of `markdown` under the heading (`##` to `######`) whose anchor is `anchor`, down to
 * the next heading of the same level or above; undefined when no heading has that anchor.
 * @claim tsdoc-heading-section
 */
export function headingSection(markdown: string, anchor: string): PageSection | undefined {
  let inCode = false;
  let found: { level: number; heading: string; lines: string[] } | undefined;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inCode = !inCode;
    const heading = inCode ? null : /^(#{2,6})\s+(.+)$/.exec(line);
    if (found !== undefined) {
      if (heading && heading[1]!.length <= found.level) break;
      found.lines.push(line);
    } else if (heading && anchorOf(plainText(heading[2]!)) === anchor) {
      found = { level: heading[1]!.length, heading: plainText(heading[2]!), lines: [] };
    }
  }
  return found && { heading: found.heading, anchor, text: `${found.lines.join('\n').trim()}\n` };
}

/** A name made of words, as code writes it (`maxSteps`, `WEFT_LOG_LEVEL`), not a plain word. */
export function isCompoundName(name: string): boolean {
  return /^[A-Za-z_$][\w$]*$/.test(name) && /[a-z][A-Z]|_/.test(name);
}

/**
 * The names a Markdown text's tables define: a row whose first cell is one code span
 * (`| \`options.maxSteps\` | integer | …`) defines its last dotted part, `maxSteps`.
 */
export function tableDefinitions(markdown: string): string[] {
  const names = new Set<string>();
  for (const match of markdown.matchAll(/^\|\s*`([^`|]+)`\s*\|/gm)) {
    names.add(match[1]!.trim().split('.').pop()!);
  }
  return [...names];
}

/**
 * Markdown reduced to its text on one line: links to their text, emphasis, escapes and tags
 * removed, code spans as written.
 */
export function plainText(markdown: string): string {
  return proseAndCode(markdown.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1'))
    .replace(/\s+/g, ' ')
    .trim();
}

/** A code span: the backticks go, what is between them stays as written. */
const CODE_SPAN = /(`+)([\s\S]*?[^`])\1(?!`)/g;

/**
 * Prose with its Markdown removed (emphasis, escapes, HTML and JSX tags), code spans as written:
 * `WEFT_LOG_LEVEL` keeps its underscores and `Promise<void>` its type argument.
 */
function proseAndCode(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(CODE_SPAN)) {
    out += proseOnly(text.slice(last, match.index)) + match[2]!.trim();
    last = match.index + match[0].length;
  }
  return out + proseOnly(text.slice(last));
}

function proseOnly(text: string): string {
  return (
    text
      // A tag starts with a letter or a slash: "a < b" and "<=" are not tags.
      .replace(/<\/?[A-Za-z][^<>]*>/g, ' ')
      .replace(/\*{1,3}(?=\S)([\s\S]*?\S)\*{1,3}/g, '$1')
      // Underscores mark emphasis only at word edges; `snake_case` in prose stays as written.
      // (No lookbehind: the site's search worker runs this in browsers without it.)
      .replace(/(^|[^\p{L}\p{N}_])_{1,3}(?=\S)([\s\S]*?\S)_{1,3}(?![\p{L}\p{N}_])/gu, '$1$2')
      .replace(/\\([\\`*_{}[\]()#+\-.!<>|~])/g, '$1')
  );
}

/** A heading's id as the site makes it: lower case, punctuation but `_` and `-` dropped. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s+/g, '-');
}

/**
 * One edit for words of 4 to 7 letters, two from 8: "capabilites" still finds "capabilities".
 * The letters are counted as the reader typed the word, before {@link processTerm} takes its
 * ending off: "databsae" has eight, though its term, "databsa", has seven. A term shorter than
 * four letters must still be exact, whatever the word: one edit would take "setting" (`set`) to
 * every page that says "get".
 * @claim tsdoc-edit-tolerance
 */
function typoAllowance(term: string, typedLength: number): number {
  if (term.length < 4) return 0;
  if (typedLength >= 8) return 2;
  if (typedLength >= 4) return 1;
  return 0;
}

/**
 * The query's words that count, once per term: each term as {@link processTerm} makes it, with
 * the longest word the reader typed for it (whose length sets its {@link typoAllowance}).
 */
function queryWords(query: string): { word: string; term: string }[] {
  const byTerm = new Map<string, string>();
  for (const word of tokenize(query, true)) {
    const term = processTerm(word);
    if (term === null) continue;
    const known = byTerm.get(term);
    if (known === undefined || word.length > known.length) byTerm.set(term, word);
  }
  return [...byTerm].map(([term, word]) => ({ word, term }));
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
  /** Guide titles, lower-cased: a query that is a guide's title ("getObject") means that guide. */
  private readonly titlePages = new Map<string, string>();
  /** Compound names a table defines, lower-cased, to the ids of the sections with that row. */
  private readonly definitions = new Map<string, Set<number>>();
  /** Names whose path has an anchor (an error code's section), to that anchor. */
  private readonly symbolAnchors = new Map<string, string>();
  /** The same for compound names, lower-cased, as {@link DocsSearch.compoundSymbolPages}. */
  private readonly compoundSymbolAnchors = new Map<string, string>();
  /** The parts of pages that names' anchors point at, found on first use. */
  private readonly anchoredSections = new Map<string, PageSection | null>();
  /**
   * Plain words of the pages that are indexed as a shorter root ("logging" as "log"), to that
   * root: a last word typed past the root ("loggi") starts the word but not its term.
   */
  private readonly rootsOfWords = new Map<string, string>();

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
      processTerm: (word) => {
        const term = processTerm(word);
        const lower = word.toLowerCase();
        if (term !== null && term.length < lower.length && /^[a-z]+$/.test(lower)) {
          this.rootsOfWords.set(lower, term);
        }
        return term;
      },
      searchOptions: { tokenize: (text) => tokenize(text, true), processTerm },
    });
    for (const page of pages) {
      this.pages.set(page.path, page);
      if (page.kind === 'guide' && !this.titlePages.has(page.title.toLowerCase())) {
        this.titlePages.set(page.title.toLowerCase(), page.path);
      }
      const sections: readonly PageSection[] =
        page.sections ??
        splitSections(page.markdown).map((section) => ({
          ...section,
          anchor: section.heading === '' ? '' : anchorOf(section.heading),
        }));
      for (const section of sections) {
        const id = this.documents.length;
        const defined = section.definitions ?? tableDefinitions(section.text);
        for (const name of defined.filter(isCompoundName)) {
          const key = name.toLowerCase();
          this.definitions.set(key, (this.definitions.get(key) ?? new Set()).add(id));
        }
        this.documents.push({
          id,
          pagePath: page.path,
          title: `${page.title} ${page.description}`,
          heading: section.heading,
          anchor: section.anchor,
          text: section.text,
          kind: page.kind,
        });
      }
    }
    this.index.addAll(this.documents);
    this.keepDefinitionHomes();
    for (const symbol of symbols) {
      // An error code's page is a section of the errors reference: rank by the page.
      const [pagePath = '', anchor] = symbol.docsPath.split('#');
      this.symbolPages.set(symbol.name, pagePath);
      const anchored = anchor !== undefined && anchor !== '';
      if (anchored) this.symbolAnchors.set(symbol.name, anchor);
      if (isCompoundName(symbol.name)) {
        this.compoundSymbolPages.set(symbol.name.toLowerCase(), pagePath);
        if (anchored) this.compoundSymbolAnchors.set(symbol.name.toLowerCase(), anchor);
      }
    }
  }

  /**
   * Leaves each defined name to the sections of one page: of the pages whose tables define it,
   * the one that defines the most names.
   */
  private keepDefinitionHomes(): void {
    const namesByPage = new Map<string, number>();
    for (const ids of this.definitions.values()) {
      for (const page of new Set([...ids].map((id) => this.documents[id]!.pagePath))) {
        namesByPage.set(page, (namesByPage.get(page) ?? 0) + 1);
      }
    }
    for (const [name, ids] of this.definitions) {
      const pageOf = (id: number) => this.documents[id]!.pagePath;
      const most = Math.max(...[...ids].map((id) => namesByPage.get(pageOf(id))!));
      this.definitions.set(
        name,
        new Set([...ids].filter((id) => namesByPage.get(pageOf(id)) === most)),
      );
    }
  }

  /** Each part's {@link phraseText}, made on its first use. */
  private readonly phraseTexts = new Map<number, string>();

  private phraseTextOf(id: number): string {
    let text = this.phraseTexts.get(id);
    if (text === undefined) {
      text = phraseText(this.documents[id]!.text);
      this.phraseTexts.set(id, text);
    }
    return text;
  }

  /**
   * The roots of the indexed words that `word` starts, where the root is shorter than `word`
   * and not already found by `term` as a prefix.
   */
  private rootsStartedBy(word: string, term: string): string[] {
    if (this.wordsWithRoots === undefined) {
      this.wordsWithRoots = [...this.rootsOfWords.keys()].sort();
    }
    const sorted = this.wordsWithRoots;
    // The first word not before `word`; the words it starts follow it.
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (sorted[middle]! < word) low = middle + 1;
      else high = middle;
    }
    const roots = new Set<string>();
    for (let at = low; at < sorted.length && sorted[at]!.startsWith(word); at += 1) {
      const root = this.rootsOfWords.get(sorted[at]!)!;
      if (!root.startsWith(term)) roots.add(root);
    }
    return [...roots];
  }

  /** The keys of {@link DocsSearch.rootsOfWords}, sorted, made on first use. */
  private wordsWithRoots: string[] | undefined;

  /** How many pages the results name. */
  private pageCount(results: readonly SearchResult[]): number {
    return new Set(results.map((result) => this.documents[result.id as number]!.pagePath)).size;
  }

  /**
   * Ranks pages for a query.
   *
   * @param query - What the reader typed.
   * @param limit - How many pages at most.
   * @returns The pages, best first, each at most once.
   * @claim tsdoc-search-once
   */
  search(query: string, limit = 8): SearchHit[] {
    return this.rank(query, limit).map((ranked) => {
      const page = this.pages.get(ranked.pagePath)!;
      return {
        title: page.title,
        path: ranked.anchor === '' ? page.path : `${page.path}#${ranked.anchor}`,
        section: page.section,
        ...(ranked.heading === '' ? {} : { heading: ranked.heading }),
        snippet: snippetOf(ranked.text || page.description, ranked.terms),
        score: Math.round(ranked.score * 100) / 100,
      };
    });
  }

  /**
   * The pages whose titles are nearest to a query, for when {@link DocsSearch.search} found
   * nothing: "did you mean" rather than an empty list.
   *
   * @param query - What the reader typed.
   * @param limit - How many pages at most.
   */
  closestPages(query: string, limit = 3): { title: string; path: string }[] {
    const byTitle = new Map<string, string>();
    for (const page of this.pages.values()) {
      if (!byTitle.has(page.title)) byTitle.set(page.title, page.path);
    }
    return closestMatches(query, [...byTitle.keys()], limit).map((title) => ({
      title,
      path: byTitle.get(title)!,
    }));
  }

  /**
   * The part of a page an anchor points at: one of its indexed sections when the page was given
   * with every heading's part (the site's index), else the Markdown under the heading of any
   * level with that anchor, down to the next heading of the same level or above (an error
   * code's `###` under the errors page's `## Core codes`).
   */
  private anchoredSection(pagePath: string, anchor: string): PageSection | undefined {
    const key = `${pagePath}#${anchor}`;
    if (!this.anchoredSections.has(key)) {
      const indexed = this.documents.find(
        (document) => document.pagePath === pagePath && document.anchor === anchor,
      );
      this.anchoredSections.set(
        key,
        indexed ?? headingSection(this.pages.get(pagePath)?.markdown ?? '', anchor) ?? null,
      );
    }
    return this.anchoredSections.get(key) ?? undefined;
  }

  /**
   * Ranks pages for a query, each as its best matching part: the ranking behind
   * {@link DocsSearch.search}, for callers that display results their own way (the site's
   * search box).
   *
   * @param query - What the reader typed.
   * @param limit - How many pages at most.
   * @returns The pages, best first, each at most once.
   */
  rank(query: string, limit = 8): RankedSection[] {
    // "Memory" is the interface, "memory" the concept a guide explains; "memorymanager" is
    // still the class, since no one means a compound name as a word.
    const trimmed = query.trim();
    // An error code typed in lower case still means its section, as it means its page.
    const exactAnchor =
      this.symbolAnchors.get(trimmed) ?? this.compoundSymbolAnchors.get(trimmed.toLowerCase());
    const exactSymbolPage =
      this.symbolPages.get(trimmed) ??
      this.compoundSymbolPages.get(trimmed.toLowerCase()) ??
      this.titlePages.get(trimmed.toLowerCase());
    // An exported name (or a guide's title) means its page before any table row.
    const definingSections =
      exactSymbolPage === undefined ? this.definitions.get(trimmed.toLowerCase()) : undefined;
    const words = queryWords(query);
    const typedLengths = new Map(words.map(({ word, term }) => [term, word.length]));
    // The query's last word, as a term: the one a reader may still be typing. The tier without
    // one word searches each word as a query of its own, so a word's place there says nothing.
    const terms = tokenize(query, true)
      .map(processTerm)
      .filter((term): term is string => term !== null);
    const lastTerm = terms[terms.length - 1];
    // The words of the pages the last word starts but whose roots it runs past ("loggi" of
    // "logging", whose term is "log"): a prefix of the term finds none of them, so their roots
    // are looked for as well, as the last word's alternatives.
    const typed = tokenize(query, true).filter((word) => processTerm(word) !== null);
    const lastWord = typed[typed.length - 1]?.toLowerCase();
    const roots =
      lastTerm === undefined || lastWord === undefined || lastTerm.length < 3
        ? []
        : this.rootsStartedBy(lastWord, lastTerm);
    /** A word of the query as MiniSearch takes it: the last one with its roots, if any. */
    const wordQuery = ({ word, term }: { word: string; term: string }): Query =>
      term !== lastTerm || roots.length === 0
        ? word
        : {
            combineWith: 'OR',
            queries: [
              word,
              // Roots as they are indexed: no ending to take off, no typo, no prefix.
              {
                combineWith: 'OR',
                queries: roots,
                processTerm: (root: string) => root,
                fuzzy: false,
                prefix: false,
              },
            ],
          };
    const wholeQuery = (combineWith: 'AND' | 'OR'): Query =>
      roots.length === 0 ? query : { combineWith, queries: words.map(wordQuery) };
    const options = {
      boost: { title: 4, heading: 2, text: 1 },
      fuzzy: (term: string) => typoAllowance(term, typedLengths.get(term) ?? term.length),
      prefix: (term: string) => term === lastTerm && term.length >= 3,
      boostDocument: (id: unknown) => {
        const document = this.documents[id as number]!;
        if (exactSymbolPage !== undefined && document.pagePath === exactSymbolPage) {
          return EXACT_SYMBOL_BOOST;
        }
        const weight = document.kind === 'api' ? API_PAGE_WEIGHT : 1;
        return definingSections?.has(id as number) === true ? weight * DEFINITION_BOOST : weight;
      },
    };
    const fullMatches = this.index.search(wholeQuery('AND'), { ...options, combineWith: 'AND' });
    let results = fullMatches;
    // Too few parts have every word: then the parts with all words but one (a word outside the
    // docs' wording, as "behind" in "deploy behind nginx"), after those that have them all.
    if (
      this.pageCount(fullMatches) < limit &&
      words.length >= 3 &&
      words.length <= MOST_WORDS_LIMIT
    ) {
      const seen = new Set(fullMatches.map((result) => result.id));
      const nearMatches = this.index
        .search(
          {
            combineWith: 'OR',
            // The words as typed: the search makes each one's term, as it does for the query.
            // Given the terms, it would take an ending off twice ("respons" to "respon").
            queries: words.map((_, left) => ({
              combineWith: 'AND',
              queries: words.filter((__, index) => index !== left).map(wordQuery),
            })),
          },
          options,
        )
        .filter((result) => !seen.has(result.id))
        .map((result) => ({ ...result, score: result.score * NEAR_MATCH_SHARE }));
      results = [...fullMatches, ...nearMatches];
    }
    if (results.length === 0) {
      results = this.index.search(wholeQuery('OR'), { ...options, combineWith: 'OR' });
    }
    const phrase = phraseWords(query);
    // Sorted again once the phrase bonus is in: it, and the halved scores of the parts with all
    // words but one after the full matches, change the order, and the first part of a page met
    // below must be its best.
    results = results
      .map((result) => ({
        ...result,
        score: result.score * phraseBonus(phrase, this.phraseTextOf(result.id as number)),
      }))
      .sort((a, b) => b.score - a.score);

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

    // A name with an anchor (an error code) means its own part of its page, whichever part of
    // that page scored best.
    const named =
      exactAnchor === undefined || exactSymbolPage === undefined
        ? undefined
        : this.anchoredSection(exactSymbolPage, exactAnchor);
    return pagesInOrder.slice(0, limit).map(({ best, score }) => {
      const document = this.documents[best.id as number]!;
      const part = named !== undefined && document.pagePath === exactSymbolPage ? named : document;
      return {
        pagePath: document.pagePath,
        heading: part.heading,
        anchor: part.anchor,
        text: part.text,
        terms: best.terms,
        score,
      };
    });
  }
}

/** How long a snippet is, and how much of it comes before the first matched word. */
const SNIPPET_LENGTH = 200;
const SNIPPET_LEAD = 60;

/**
 * A section's text as a snippet shows it, on one line: prose as {@link plainText} makes it, and
 * code blocks as written without their fences (whose info string, such as `bash npm2yarn`, is
 * the site's, not the reader's). The page's own heading lines are left out: the hit names them.
 * @claim tsdoc-snippet-code-as-written
 */
export function snippetText(markdown: string): string {
  const parts: string[] = [];
  let inCode = false;
  let prose: string[] = [];
  const flush = () => {
    if (prose.length > 0) parts.push(plainText(prose.join('\n')));
    prose = [];
  };
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      flush();
      inCode = !inCode;
    } else if (inCode) parts.push(line.trim());
    else if (/^#{1,6}\s/.test(line) || /^\s*\|?(\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$/.test(line)) {
      // A heading or a table's rule line says nothing a snippet needs.
      flush();
    } else prose.push(line);
  }
  flush();
  return parts
    .filter((part) => part !== '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Where each term starts a word of `lower` (a lower-cased text). */
function termPositions(lower: string, terms: readonly string[]): { term: string; at: number }[] {
  const found: { term: string; at: number }[] = [];
  for (const term of new Set(terms.map((entry) => entry.toLowerCase()))) {
    if (term === '') continue;
    for (let at = lower.indexOf(term); at >= 0; at = lower.indexOf(term, at + 1)) {
      if (at === 0 || !/[\p{L}\p{N}_]/u.test(lower[at - 1]!)) found.push({ term, at });
    }
  }
  return found.sort((a, b) => a.at - b.at);
}

/**
 * About 200 characters of the section around the passage that matched: the window holding the
 * most of the matched words, the earliest of equals, with code as written.
 * @claim tsdoc-snippet-window
 */
export function snippetOf(markdown: string, terms: readonly string[]): string {
  const text = snippetText(markdown);
  const positions = termPositions(text.toLowerCase(), terms);
  let first = 0;
  let most = 0;
  for (const { at } of positions) {
    const start = Math.max(0, at - SNIPPET_LEAD);
    const inside = new Set(
      positions
        .filter((entry) => entry.at >= start && entry.at < start + SNIPPET_LENGTH)
        .map((entry) => entry.term),
    ).size;
    if (inside > most) {
      most = inside;
      first = at;
    }
  }
  const start = Math.max(0, first - SNIPPET_LEAD);
  const end = Math.min(text.length, start + SNIPPET_LENGTH);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

// "Did you mean": the known names nearest to what was asked, so an empty search or a tool
// error can offer them. Kept in this module so that it imports nothing but MiniSearch: the
// site's search worker compiles it from source.

/** The number of single-character edits between two strings (Levenshtein). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The candidates nearest to `wanted`, ignoring case: those containing it first, then the others
 * by edit distance, keeping only those at most half their own length away (two edits for any
 * name). A blank `wanted` gives the first candidates.
 *
 * @param wanted - What was asked for.
 * @param candidates - The names that exist.
 * @param limit - How many to return at most.
 * @returns Up to `limit` candidates, nearest first.
 * @claim tsdoc-closest-order
 * @claim tsdoc-closest-cutoff
 * @claim tsdoc-closest-blank
 */
export function closestMatches(wanted: string, candidates: readonly string[], limit = 5): string[] {
  const target = wanted.trim().toLowerCase();
  if (target === '') return candidates.slice(0, limit);
  return candidates
    .map((candidate) => {
      const lower = candidate.toLowerCase();
      const contains = lower.includes(target);
      const distance = editDistance(target, lower);
      return { candidate, rank: contains ? -1 : distance, distance, length: lower.length };
    })
    .filter(({ rank, distance, length }) => rank < 0 || distance <= Math.max(2, length / 2))
    .sort((a, b) => a.rank - b.rank || a.distance - b.distance)
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}
