/**
 * Prints how well the docs' two searches find what new users type: the site's search in Chromium
 * and `search_docs` of the MCP docs server. For each: hit@1, hit@3 and MRR over the query set in
 * tests/search/queries.json, overall and per kind of query, then every query whose target is not
 * first, with what came first instead.
 *
 *   npm run build && npm run bench -- search            # serves build/ on a free port
 *   SEARCH_EVAL_URL=http://127.0.0.1:4173 npm run bench -- search   # a site already served
 *   SEARCH_EVAL_ENGINES=mcp npm run bench -- search     # one engine: site or mcp
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { serve, siteDir, stop } from './support/sites';
import { openMcpSearch } from '../tooling/search-eval/mcp-engine';
import {
  outcomeOf,
  parseQuerySet,
  scoreByKind,
  type QueryOutcome,
  type SearchQuery,
} from '../tooling/search-eval/metrics';
import { openSiteSearch, type SearchEngine } from '../tooling/search-eval/site-engine';

const SCRIPT = 'eval-search';
const QUERY_SET = path.join(siteDir, 'tests', 'search', 'queries.json');
// Not 4190: fetch and browsers refuse that port (ManageSieve is on the Fetch standard's bad-port list).
const PORT = 4194;
const ENGINES = ['site', 'mcp'] as const;
type EngineName = (typeof ENGINES)[number];

const percent = (share: number): string => `${(share * 100).toFixed(1)}%`;

function chosenEngines(): EngineName[] {
  const raw = process.env.SEARCH_EVAL_ENGINES;
  if (raw === undefined || raw.trim() === '') {
    return [...ENGINES];
  }
  const names = raw.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!(ENGINES as readonly string[]).includes(name)) {
      throw new Error(
        `${SCRIPT}: SEARCH_EVAL_ENGINES names "${name}"; expected ${ENGINES.join(' or ')}`,
      );
    }
  }
  return names as EngineName[];
}

async function ask(engine: SearchEngine, queries: SearchQuery[]): Promise<QueryOutcome[]> {
  const outcomes: QueryOutcome[] = [];
  try {
    for (const query of queries) {
      outcomes.push(outcomeOf(query, await engine.search(query.q)));
    }
  } finally {
    await engine.close();
  }
  return outcomes;
}

async function siteOutcomes(queries: SearchQuery[]): Promise<[string, QueryOutcome[]]> {
  const given = process.env.SEARCH_EVAL_URL;
  const server = given ? undefined : await serve(SCRIPT, siteDir, PORT);
  const origin = given ?? `http://127.0.0.1:${PORT}`;
  try {
    return [`Site search (${origin}/search/)`, await ask(await openSiteSearch(origin), queries)];
  } finally {
    if (server) {
      stop(server);
    }
  }
}

function report(title: string, outcomes: QueryOutcome[]): void {
  console.log(`\n${title}, ${outcomes.length} queries from ${QUERY_SET}\n`);
  console.log('kind                queries  hit@1   hit@3   MRR    empty');
  for (const [kind, scores] of scoreByKind(outcomes)) {
    console.log(
      `${kind.padEnd(19)} ${String(scores.queries).padStart(7)}  ${percent(scores.hitAt1).padStart(6)}  ${percent(scores.hitAt3).padStart(6)}  ${scores.mrr.toFixed(3)}  ${String(scores.empty).padStart(5)}`,
    );
  }
  const misses = outcomes.filter((outcome) => outcome.rank !== 1);
  if (misses.length > 0) {
    console.log('\nNot first:');
    for (const { query, results, rank } of misses) {
      const first = results.slice(0, 3).join(' ') || '(no results)';
      console.log(`  "${query.q}" → target at ${rank ?? 'none'}; top: ${first}`);
    }
  }
}

async function main(): Promise<void> {
  const queries = parseQuerySet(JSON.parse(readFileSync(QUERY_SET, 'utf8')), QUERY_SET);
  for (const engine of chosenEngines()) {
    if (engine === 'site') {
      report(...(await siteOutcomes(queries)));
    } else {
      report('search_docs of @weft/mcp-docs (stdio)', await ask(await openMcpSearch(), queries));
    }
  }
}

main().catch((error: unknown) => {
  // Errors from this script and from serve() already name the script.
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
