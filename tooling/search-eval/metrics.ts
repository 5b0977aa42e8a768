/**
 * Ranking quality of a search engine over a query set: hit@1, hit@3 and mean reciprocal rank,
 * overall and per kind of query. A result counts as a hit when its page (pathname, without
 * query or hash) is one of the query's target pages.
 */

export interface SearchQuery {
  q: string;
  kind: string;
  /** Pathnames of the pages that answer the query; any one is a hit. */
  targets: string[];
  /**
   * A batch written at once by someone who had not tuned the ranking, named for when (for
   * example "fresh-2026-11"): scored on its own as well, since the rest of the set is what the
   * ranking was tuned on.
   */
  set?: string;
}

export interface QueryOutcome {
  query: SearchQuery;
  /** Result pathnames in ranked order, as the engine returned them. */
  results: string[];
  /** 1-based rank of the first target among the results; null when none is there. */
  rank: number | null;
}

export interface Scores {
  queries: number;
  hitAt1: number;
  hitAt3: number;
  mrr: number;
  /** Queries that returned no result at all. */
  empty: number;
}

/** The page a result link points at: its pathname with a trailing slash, no query or hash. */
export function pageOf(href: string): string {
  const pathname = new URL(href, 'http://site.invalid').pathname;
  return pathname.endsWith('/') ? pathname : `${pathname}/`;
}

export function outcomeOf(query: SearchQuery, hrefs: string[]): QueryOutcome {
  const results = hrefs.map(pageOf);
  const index = results.findIndex((page) => query.targets.includes(page));
  return { query, results, rank: index === -1 ? null : index + 1 };
}

export function score(outcomes: QueryOutcome[]): Scores {
  const count = outcomes.length;
  const share = (predicate: (outcome: QueryOutcome) => boolean): number =>
    count === 0 ? 0 : outcomes.filter(predicate).length / count;
  return {
    queries: count,
    hitAt1: share((outcome) => outcome.rank === 1),
    hitAt3: share((outcome) => outcome.rank !== null && outcome.rank <= 3),
    mrr:
      count === 0
        ? 0
        : outcomes.reduce((sum, outcome) => sum + (outcome.rank ? 1 / outcome.rank : 0), 0) / count,
    empty: outcomes.filter((outcome) => outcome.results.length === 0).length,
  };
}

/** Scores overall and for each kind, in the order kinds first appear. */
export function scoreByKind(outcomes: QueryOutcome[]): Map<string, Scores> {
  const kinds = new Map<string, QueryOutcome[]>();
  for (const outcome of outcomes) {
    const list = kinds.get(outcome.query.kind) ?? [];
    list.push(outcome);
    kinds.set(outcome.query.kind, list);
  }
  const table = new Map<string, Scores>([['all', score(outcomes)]]);
  for (const [kind, list] of kinds) {
    table.set(kind, score(list));
  }
  const sets = new Set(outcomes.flatMap(({ query }) => (query.set ? [query.set] : [])));
  for (const set of sets) {
    table.set(`set ${set}`, score(outcomes.filter(({ query }) => query.set === set)));
  }
  return table;
}

/** Reads and checks a query set; a malformed entry is named, not skipped. */
export function parseQuerySet(json: unknown, source: string): SearchQuery[] {
  const queries = (json as { queries?: unknown } | null)?.queries;
  if (!Array.isArray(queries)) {
    throw new Error(`${source}: expected an object with a "queries" array`);
  }
  return queries.map((entry: unknown, index) => {
    const candidate = entry as Partial<SearchQuery> | null;
    const valid =
      typeof candidate?.q === 'string' &&
      candidate.q.trim() !== '' &&
      typeof candidate.kind === 'string' &&
      Array.isArray(candidate.targets) &&
      candidate.targets.length > 0 &&
      candidate.targets.every((target) => typeof target === 'string' && target.startsWith('/'));
    if (!valid) {
      throw new Error(
        `${source}: queries[${index}] needs a non-empty "q", a "kind" and "targets" (pathnames starting with /), got ${JSON.stringify(entry)}`,
      );
    }
    return candidate as SearchQuery;
  });
}
