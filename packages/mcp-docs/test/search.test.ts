/**
 * The ranking of `search_docs` (src/search.ts) on pages written for each rule, so a rule that
 * breaks names itself here rather than as a moved result on the real docs.
 */
import { describe, expect, it } from 'vitest';
import { DocsSearch, splitSections, type SearchablePage } from '../src/search.js';

const page = (
  path: string,
  title: string,
  markdown: string,
  kind: 'guide' | 'api' = 'guide',
): SearchablePage => ({
  path,
  title,
  description: '',
  section: kind === 'api' ? 'API' : 'Guides',
  kind,
  markdown,
});

const pages = [
  page(
    '/docs/memory/',
    'Memory providers',
    '# Memory providers\n\nHow agents remember conversations.\n\n## Storing memories\n\nA memory provider stores memories.\n\n## Querying memories\n\nRelated memories are queried by similarity.',
  ),
  page(
    '/api/interfaces/Memory/',
    'Interface: Memory',
    '# Interface: Memory\n\nOne stored memory of an agent.',
    'api',
  ),
  page(
    '/api/classes/MemoryManager/',
    'Class: MemoryManager',
    '# Class: MemoryManager\n\nMemory access for plugins.',
    'api',
  ),
  page(
    '/docs/production/',
    'Running in production',
    '# Running in production\n\n## Graceful shutdown\n\nThe runtime drains its queue before it stops.\n\n## Reverse proxy\n\nPut nginx in front of the server.',
  ),
  page(
    '/docs/capabilities/',
    'Capabilities',
    '# Capabilities\n\nA capability is what a model provider can do, such as text generation.',
  ),
];
const search = new DocsSearch(pages, [
  { name: 'Memory', docsPath: '/api/interfaces/Memory/' },
  { name: 'MemoryManager', docsPath: '/api/classes/MemoryManager/' },
]);
const paths = (query: string): string[] =>
  search.search(query).map((hit) => hit.path.replace(/#.*$/, ''));

describe('the search_docs ranking', () => {
  it('splits a page into its top and one section per ## heading, ignoring ## inside code', () => {
    const sections = splitSections(
      '# T\n\nintro\n\n## One\n\na\n\n```md\n## not a heading\n```\n\n## Two\n\nb',
    );
    expect(sections.map((section) => section.heading)).toEqual(['', 'One', 'Two']);
  });

  it('puts a guide above API summaries for a concept word', () => {
    expect(paths('memory')[0]).toBe('/docs/memory/');
  });

  it('puts the API page first for an exact name, and for a compound name in any case', () => {
    expect(paths('Memory')[0]).toBe('/api/interfaces/Memory/');
    expect(paths('memorymanager')[0]).toBe('/api/classes/MemoryManager/');
  });

  it('lists a page once, pointing at its best section', () => {
    const hits = search.search('memories');
    expect(hits.filter((hit) => hit.path.startsWith('/docs/memory/'))).toHaveLength(1);
    expect(hits[0]!.heading).toMatch(/memories/i);
    expect(hits[0]!.path).toMatch(/^\/docs\/memory\/#(storing|querying)-memories$/);
  });

  it('forgives one typo from four letters and two from eight', () => {
    expect(paths('nginz')[0]).toBe('/docs/production/');
    expect(paths('capabiltes')[0]).toBe('/docs/capabilities/');
  });

  it('does not stretch a short word: three letters must be exact', () => {
    expect(paths('ngi')).toEqual(paths('ngi').filter((path) => path === '/docs/production/'));
    expect(search.search('qux')).toEqual([]);
  });

  it('falls back to any word when no section has them all', () => {
    expect(paths('deploy behind nginx')[0]).toBe('/docs/production/');
  });

  it('matches the last word as a prefix, as people type', () => {
    expect(paths('graceful shut')[0]).toBe('/docs/production/');
  });

  it('gives a snippet around the first matched word', () => {
    const [hit] = search.search('drains');
    expect(hit!.snippet).toContain('drains its queue');
    expect(hit!.heading).toBe('Graceful shutdown');
  });
});
