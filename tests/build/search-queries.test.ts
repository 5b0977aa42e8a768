/**
 * The search query set (tests/search/queries.json, read by `npm run bench -- search`) stays usable:
 * enough queries of every kind, and every target is a page the build has, so a renamed page
 * fails here instead of silently counting as a miss.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { parseQuerySet } from '../../tooling/search-eval/metrics';
import { assertBuildExists, routeHtmlFile } from './support/build-output';

const source = path.join(__dirname, '..', 'search', 'queries.json');
const queries = parseQuerySet(JSON.parse(readFileSync(source, 'utf8')), source);

beforeAll(assertBuildExists);

it('has at least 60 queries, of every kind new users type', () => {
  expect(queries.length).toBeGreaterThanOrEqual(60);
  const kinds = new Set(queries.map((query) => query.kind));
  expect([...kinds].sort()).toEqual(
    ['api', 'concept', 'error', 'keyword', 'option', 'task', 'typo'].sort(),
  );
  expect(new Set(queries.map((query) => query.q.toLowerCase())).size).toBe(queries.length);
});

it.each(queries.flatMap((query) => query.targets.map((target) => [query.q, target])))(
  '"%s" targets %s, a page of the build',
  (_query, target) => {
    expect(existsSync(routeHtmlFile(target)), routeHtmlFile(target)).toBe(true);
  },
);
