/**
 * The filters' data, made at build time: which packages work with which, the choices of the
 * capability filter, each card's facts, and the stylesheet's rules. The browser tests
 * (tests/e2e/plugins-catalogue.spec.ts) check that the stylesheet does what these rules say.
 */
import { describe, expect, it } from 'vitest';
import type { CatalogueEntry } from '@weft-internal/docs-model/catalogue/catalogue';
import { cardFacts } from '@weft-internal/docs-model/catalogue/facts';
import {
  catalogueFilters,
  featureValues,
  meetsEitherWay,
  worksWith,
} from '@weft-internal/docs-model/catalogue/filters';

function entry(
  directory: string,
  kind: CatalogueEntry['kind'],
  provides: Partial<CatalogueEntry['provides']> = {},
  requires: Partial<CatalogueEntry['requires']> = {},
): CatalogueEntry {
  return {
    name: `@weft/${directory}`,
    version: '1.0.0',
    description: directory,
    keywords: ['weft'],
    kind,
    displayName: directory,
    directory,
    guide: '/docs/getting-started/',
    provides: { capabilities: [], services: [], executors: [], triggers: [], ...provides },
    requires: { capabilities: [], services: [], ...requires },
    runtimes: ['node'],
    coreVersions: '^1.0.0',
    nodeVersions: '>=20',
  };
}

const core = entry(
  'core',
  'core',
  { services: ['runtime', 'http-server'] },
  { capabilities: ['text-generation'], services: ['memory'] },
);
const model = entry(
  'model',
  'model-provider',
  { capabilities: ['text-generation'] },
  { services: ['runtime', 'openai-compatible-api'] },
);
const memory = entry(
  'memory',
  'memory-provider',
  { services: ['memory'] },
  { services: ['runtime'] },
);
const chat = entry(
  'chat',
  'plugin',
  { executors: ['chat/reply'], triggers: ['chat/message'] },
  { capabilities: ['text-generation'], services: ['runtime', 'http-server'] },
);
const creator = { ...entry('creator', 'tooling'), coreVersions: undefined };
const all = [core, model, memory, chat, creator];

describe('works with', () => {
  it('relates two packages when one provides what the other requires, either way [claim:plugins-filters]', () => {
    expect(meetsEitherWay(model, chat)).toBe(true); // chat needs text generation
    expect(meetsEitherWay(chat, model)).toBe(true);
    expect(meetsEitherWay(memory, chat)).toBe(false); // nothing either needs of the other
    expect(meetsEitherWay(creator, core)).toBe(false);
  });

  it('lists each package first, then those it works with', () => {
    const relations = worksWith(all);
    expect(relations['@weft/core']).toEqual(['core', 'model', 'memory', 'chat']);
    expect(relations['@weft/model']).toEqual(['model', 'core', 'chat']);
    expect(relations['@weft/memory']).toEqual(['memory', 'core']);
    expect(relations['@weft/creator']).toEqual(['creator']);
  });
});

describe('the capability filter', () => {
  it('offers what some package provides, then what some package requires', () => {
    const { provides, requires } = catalogueFilters(all);
    expect(provides.map((choice) => choice.value)).toEqual([
      'provides:capability:text-generation',
      'provides:service:runtime',
      'provides:service:memory',
      'provides:service:http-server',
      'provides:executors',
      'provides:triggers',
    ]);
    expect(requires.map((choice) => choice.label)).toEqual([
      'Capability text-generation',
      'Weft runtime',
      'Memory provider (spaces)',
      'HTTP server for plugin routes',
      'OpenAI-compatible HTTP API',
    ]);
  });

  it('selects a package by what it provides and what it requires', () => {
    expect(featureValues(chat)).toEqual([
      'provides:executors',
      'provides:triggers',
      'requires:capability:text-generation',
      'requires:service:runtime',
      'requires:service:http-server',
    ]);
  });
});

describe('the stylesheet', () => {
  const { css } = catalogueFilters(all);

  it('hides each card the checked filters do not match', () => {
    const rule = css
      .split('\n')
      .find((line) => line.endsWith('[data-package="memory"]{display:none}'));
    expect(rule).toBeDefined();
    expect(rule).toContain(
      '[name="catalogue-kind"]:is([value="any"],[value="memory-provider"]):checked',
    );
    expect(rule).toContain(
      'option:is([value="any"],[value="provides:service:memory"],[value="requires:service:runtime"]):checked',
    );
    expect(rule).toContain(
      '[name="catalogue-works-with"] option:is([value="any"],[value="memory"],[value="core"]):checked',
    );
  });

  it('hides a kind with no matching card, and shows the empty message when no card matches', () => {
    const lines = css.split('\n');
    for (const kind of ['core', 'model-provider', 'memory-provider', 'plugin', 'tooling']) {
      expect(
        lines.some((line) => line.endsWith(`[data-kind-section="${kind}"]{display:none}`)),
      ).toBe(true);
    }
    expect(lines.at(-1)).toMatch(/\[data-catalogue-empty\]\{display:block\}$/);
  });
});

describe('card facts', () => {
  it('say what a package provides and requires, its core versions and where it runs', () => {
    expect(cardFacts(chat)).toEqual([
      { term: 'Provides', items: ['Executor chat/reply', 'Trigger chat/message'] },
      {
        term: 'Requires',
        items: ['Capability text-generation', 'Weft runtime', 'HTTP server for plugin routes'],
      },
      { term: 'Works with', items: ['@weft/core 1'] },
      { term: 'Runs on', items: ['Node.js 20 and later'] },
    ]);
  });

  it('put version ranges in words, and leave the core versions off the core’s own card [claim:contributing-catalogue-core-card]', () => {
    const node = '^20.19.0 || ^22.12.0 || ^24.0.0 || ^26.0.0';
    expect(cardFacts({ ...chat, coreVersions: '0.1.0', nodeVersions: node }).slice(2)).toEqual([
      { term: 'Works with', items: ['@weft/core 0.1.0'] },
      { term: 'Runs on', items: ['Node.js 20.19+, 22.12+, 24, 26'] },
    ]);
    const core = { ...chat, name: '@weft/core', coreVersions: '0.1.0', nodeVersions: node };
    expect(cardFacts(core).map((fact) => fact.term)).toEqual(['Provides', 'Requires', 'Runs on']);
  });

  it('say so when a package provides or requires nothing, or does not load core', () => {
    expect(cardFacts({ ...creator, runtimes: ['node', 'browser'] })).toEqual([
      { term: 'Provides', items: ['No capability or service'] },
      { term: 'Requires', items: ['Nothing'] },
      { term: 'Works with', items: ['Any @weft/core: does not load it'] },
      { term: 'Runs on', items: ['Node.js 20 and later', 'Browser'] },
    ]);
  });
});
