/**
 * The search plugin's index documents (one file per search context, written by
 * @easyops-cn/docusaurus-search-local from the built HTML) turned into the pages the shared
 * ranking of @weft/mcp-docs searches, and its ranked sections turned back into the plugin's
 * result shape, which its search box and search page display. Browser-safe: the search worker
 * runs it.
 */
import type { PageSection, RankedSection, SearchablePage } from '@weft/mcp-docs/search';
import type { TableDefinition } from './table-definitions';

/** The plugin's document types, in the order its index file lists them. */
export const DocumentType = {
  Title: 0,
  Heading: 1,
  Description: 2,
  Keywords: 3,
  Content: 4,
} as const;
export type DocumentType = (typeof DocumentType)[keyof typeof DocumentType];

/** A page's title document: `i` its id, `u` its path, `b` its breadcrumb. */
export interface TitleDocument {
  i: number;
  t: string;
  u: string;
  b?: string[];
  /** Set on a result that opens a part of the page: the part's anchor (`#anchor`). */
  h?: string;
}

/** A heading, a description or a block of text: `p` is the id of its page's title document. */
export interface PartDocument {
  i: number;
  t: string;
  u: string;
  /** The heading's hash (`#anchor`), empty or absent for the page's top. */
  h?: string;
  /** The heading a block of text sits under, or the page title. */
  s?: string;
  p: number;
}

/**
 * One entry of an index file: the documents of one type (the plugin's lunr index is dropped), or,
 * at DEFINITIONS_ENTRY, the names the pages' tables define (../local-search/index.ts adds them).
 */
export interface IndexFileEntry {
  documents: (TitleDocument | PartDocument)[];
  definitions?: TableDefinition[];
}

/** Where an index file keeps its table definitions: after the plugin's five document types. */
export const DEFINITIONS_ENTRY = 5;

/** A result as the plugin's search box and search page display it. */
export interface PluginSearchResult {
  document: TitleDocument | PartDocument;
  type: DocumentType;
  page: TitleDocument | undefined;
  /** Where each matched term sits in `document.t`, as lunr reports matches. */
  metadata: Record<string, { t: { position: [number, number][] } }>;
  /** The reader's words, which the page a result opens highlights. */
  tokens: string[];
}

/** What the worker keeps of an index file: the pages to rank, and how to show a result. */
export interface SitePages {
  pages: SearchablePage[];
  /** Exported names and error codes with their page, so an exact name ranks its page first. */
  symbols: { name: string; docsPath: string }[];
  titles: Map<string, TitleDocument>;
}

/**
 * Generated API pages are titled by kind and name: "Class: Runtime"; a function's name has its
 * parentheses ("Function: spaceId()"), which a reader does not type.
 */
const API_TITLE =
  /^(?:Class|Interface|Function|Type Alias|Variable|Enumeration|Namespace): ([\w$]+)/;
const ERROR_CODE = /^WEFT_[A-Z0-9_]+$/;

/**
 * Turns the documents of an index file into searchable pages: a page's blocks of text are
 * joined per heading, so a section is what the ranking scores, and each keeps its real anchor.
 *
 * @param entries - The parsed index file.
 * @param apiPrefix - Where the API reference lives (`/api/`): its pages weigh less for words.
 */
export function sitePagesOf(entries: readonly IndexFileEntry[], apiPrefix: string): SitePages {
  const titles = new Map<number, TitleDocument>();
  for (const document of entries[DocumentType.Title]?.documents ?? []) {
    titles.set(document.i, document as TitleDocument);
  }
  const descriptions = new Map<number, string>();
  for (const document of entries[DocumentType.Description]?.documents ?? []) {
    descriptions.set((document as PartDocument).p, document.t);
  }
  // Sections in the order the page has them: headings first seen as headings or as text.
  const sections = new Map<number, Map<string, { heading: string; text: string[] }>>();
  const sectionOf = (page: number, hash: string, heading: string) => {
    let pageSections = sections.get(page);
    if (pageSections === undefined) {
      pageSections = new Map([['', { heading: '', text: [] }]]);
      sections.set(page, pageSections);
    }
    let section = pageSections.get(hash);
    if (section === undefined) {
      section = { heading, text: [] };
      pageSections.set(hash, section);
    }
    return section;
  };
  for (const document of entries[DocumentType.Heading]?.documents ?? []) {
    const part = document as PartDocument;
    sectionOf(part.p, part.h ?? '', part.t);
  }
  for (const document of entries[DocumentType.Content]?.documents ?? []) {
    const part = document as PartDocument;
    const hash = part.h ?? '';
    sectionOf(part.p, hash, hash === '' ? '' : (part.s ?? '')).text.push(part.t);
  }

  // `${path}${hash}` to the names that section's tables define.
  const definitions = new Map<string, string[]>();
  for (const { n, u, h } of entries[DEFINITIONS_ENTRY]?.definitions ?? []) {
    definitions.set(`${u}${h}`, [...(definitions.get(`${u}${h}`) ?? []), n]);
  }

  const pages: SearchablePage[] = [];
  const symbols: SitePages['symbols'] = [];
  const titlesByPath = new Map<string, TitleDocument>();
  for (const [id, title] of titles) {
    const kind = title.u.startsWith(apiPrefix) ? 'api' : 'guide';
    const pageSections: PageSection[] = [...(sections.get(id)?.entries() ?? [])].map(
      ([hash, section]) => ({
        heading: section.heading,
        anchor: hash.replace(/^#/, ''),
        text: section.text.join('\n'),
        definitions: definitions.get(`${title.u}${hash}`) ?? [],
      }),
    );
    pages.push({
      path: title.u,
      title: title.t,
      description: descriptions.get(id) ?? '',
      section: title.b?.[0] ?? '',
      kind,
      markdown: '',
      sections: pageSections,
    });
    titlesByPath.set(title.u, title);
    const symbol = kind === 'api' ? API_TITLE.exec(title.t)?.[1] : undefined;
    if (symbol !== undefined) symbols.push({ name: symbol, docsPath: title.u });
    for (const section of pageSections) {
      if (ERROR_CODE.test(section.heading)) {
        symbols.push({ name: section.heading, docsPath: `${title.u}#${section.anchor}` });
      }
    }
  }
  return { pages, symbols, titles: titlesByPath };
}

/**
 * Where each term occurs in a text, ignoring case: the shape the plugin highlights from. A term
 * is indexed in its singular ("capability"), so a word that differs in its last letter
 * ("capabilities") is found by the rest. The plugin's display needs one position at least: a
 * text that matched only through its heading or title gets an empty mark at its start.
 */
export function positionsOf(
  text: string,
  terms: readonly string[],
): PluginSearchResult['metadata'] {
  const lower = text.toLowerCase();
  const metadata: PluginSearchResult['metadata'] = {};
  for (const term of terms) {
    const stem = lower.includes(term) || term.length < 5 ? term : term.slice(0, -1);
    const position: [number, number][] = [];
    for (let at = lower.indexOf(stem); at >= 0; at = lower.indexOf(stem, at + stem.length)) {
      position.push([at, stem.length]);
    }
    if (position.length > 0) metadata[term] = { t: { position } };
  }
  if (Object.keys(metadata).length === 0) metadata[''] = { t: { position: [[0, 0]] } };
  return metadata;
}

/**
 * A ranked page as the plugin displays it: one row per page, titled by the page (so a reader
 * sees which page answers), its path ending with the heading of the part that matched best, and
 * linking to that part's anchor.
 */
export function toPluginResult(
  ranked: RankedSection,
  titles: ReadonlyMap<string, TitleDocument>,
  tokens: string[],
): PluginSearchResult | undefined {
  const title = titles.get(ranked.pagePath);
  if (title === undefined) return undefined;
  const document: TitleDocument =
    ranked.anchor === ''
      ? title
      : { ...title, h: `#${ranked.anchor}`, b: [...(title.b ?? []), ranked.heading] };
  return {
    document,
    type: DocumentType.Title,
    page: undefined,
    metadata: positionsOf(title.t, ranked.terms),
    tokens,
  };
}
