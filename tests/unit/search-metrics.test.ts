/** The ranking figures `npm run bench -- search` prints (tooling/search-eval/metrics.ts). */
import { describe, expect, it } from 'vitest';
import {
  outcomeOf,
  pageOf,
  parseQuerySet,
  score,
  scoreByKind,
} from '../../tooling/search-eval/metrics';
import { pathsOfAnswer } from '../../tooling/search-eval/mcp-engine';

const executors = {
  q: 'executor',
  kind: 'keyword',
  targets: ['/docs/building-plugins/executors/'],
};
const errors = { q: 'WEFT_TASK_TIMEOUT', kind: 'error', targets: ['/docs/reference/errors/'] };

describe('pageOf', () => {
  it('drops the query, the hash and adds the trailing slash', () => {
    expect(pageOf('/docs/x/?_highlight=a#part')).toBe('/docs/x/');
    expect(pageOf('/docs/x#part')).toBe('/docs/x/');
  });
});

describe('scores', () => {
  const first = outcomeOf(executors, ['/docs/building-plugins/executors/#the-executor-interface']);
  const third = outcomeOf(errors, [
    '/docs/a/',
    '/docs/b/',
    '/docs/reference/errors/#weft_task_timeout',
  ]);
  const missed = outcomeOf({ ...errors, q: 'other' }, []);

  it('ranks the first target among the results', () => {
    expect([first.rank, third.rank, missed.rank]).toEqual([1, 3, null]);
  });

  it('computes hit@1, hit@3, MRR and empty results', () => {
    const scores = score([first, third, missed]);
    expect(scores.hitAt1).toBeCloseTo(1 / 3);
    expect(scores.hitAt3).toBeCloseTo(2 / 3);
    expect(scores.mrr).toBeCloseTo((1 + 1 / 3 + 0) / 3);
    expect(scores.empty).toBe(1);
  });

  it('splits by kind, after the overall row', () => {
    const table = scoreByKind([first, third, missed]);
    expect([...table.keys()]).toEqual(['all', 'keyword', 'error']);
    expect(table.get('error')?.hitAt3).toBeCloseTo(1 / 2);
  });

  it('scores a batch of fresh queries on its own too, after the kinds', () => {
    const fresh = { ...missed, query: { ...missed.query, set: 'fresh-2026-11' } };
    const table = scoreByKind([first, third, fresh]);
    expect([...table.keys()]).toEqual(['all', 'keyword', 'error', 'set fresh-2026-11']);
    expect(table.get('set fresh-2026-11')).toMatchObject({ queries: 1, hitAt1: 0 });
  });
});

describe('parseQuerySet', () => {
  it('names the malformed entry', () => {
    expect(() =>
      parseQuerySet(
        { queries: [executors, { q: 'x', kind: 'task', targets: ['docs/'] }] },
        'q.json',
      ),
    ).toThrow(/q\.json: queries\[1\] needs/);
    expect(() => parseQuerySet([], 'q.json')).toThrow(/"queries" array/);
  });
});

describe("search_docs's answer", () => {
  it('gives its paths in ranked order', () => {
    const answer = [
      '1. Running in production › Graceful shutdown [guide]',
      '   path: /docs/guides/production/',
      '   Stop taking work, finish what runs…',
      '',
      '2. Runtime [class]',
      '   path: /api/classes/Runtime/',
      '   The runtime…',
    ].join('\n');
    expect(pathsOfAnswer(answer)).toEqual(['/docs/guides/production/', '/api/classes/Runtime/']);
  });
});
