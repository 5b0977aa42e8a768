/**
 * The built plugins page carries the catalogue for every package in its HTML: each card with its
 * facts, the filters with a choice for every package and every capability or service some package
 * provides or requires, and the generated stylesheet with a rule for every card. The filters are
 * CSS, so all of it must be in the HTML, before any script runs.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCatalogue, type CatalogueEntry } from '@weft-internal/docs-model/catalogue/catalogue';
import { cardFacts } from '@weft-internal/docs-model/catalogue/facts';
import { catalogueFilters } from '@weft-internal/docs-model/catalogue/filters';
import { assertBuildExists, attributeOf, findTags, readRouteHtml } from './support/build-output';

let html = '';
let entries: CatalogueEntry[] = [];

beforeAll(async () => {
  assertBuildExists();
  html = readRouteHtml('/plugins/');
  ({ entries } = await readCatalogue(path.resolve(__dirname, '../../packages')));
});

/** The text of one card (the page's HTML is minified: attributes lose their quotes). */
function cardText(directory: string): string {
  const start = html.search(new RegExp(`data-package="?${directory}[" >]`));
  expect(start, `card of ${directory}`).toBeGreaterThan(-1);
  return textOf(html.slice(start, html.indexOf('</article>', start)));
}

/** An HTML fragment's text, each element's on its own line. */
function textOf(fragment: string): string {
  return fragment
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, '\n')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('\n');
}

describe('the built plugins page', () => {
  it("links every card to its package's guide and to its README", () => {
    for (const entry of entries) {
      const start = html.search(new RegExp(`data-package="?${entry.directory}[" >]`));
      const card = html.slice(start, html.indexOf('</article>', start));
      const links = findTags(card, 'a');
      const hrefs = links.map((tag) => attributeOf(tag, 'href'));
      // Eleven cards with the same two links: each link's name says whose it is.
      expect(links.map((tag) => attributeOf(tag, 'aria-label'))).toEqual([
        `Guide to ${entry.displayName}`,
        `README and source of ${entry.name}`,
      ]);
      expect(hrefs, entry.name).toEqual(expect.arrayContaining([entry.guide, expect.stringContaining(`/packages/${entry.directory}`)]));
    }
  });

  it('has a card for every package, with what it provides and requires, core versions and runtimes [claim:plugins-every-package] [claim:plugins-card-facts]', () => {
    expect(entries.length).toBeGreaterThanOrEqual(10);
    const articles = findTags(html, 'article');
    expect(articles.map((tag) => attributeOf(tag, 'data-package'))).toEqual(
      entries.map((entry) => entry.directory),
    );
    for (const entry of entries) {
      const lines = cardText(entry.directory).split('\n');
      for (const fact of cardFacts(entry)) {
        // The term, then its items, each a line of its own.
        const at = lines.indexOf(fact.term);
        expect(at, `${entry.name}: ${fact.term}`).toBeGreaterThan(-1);
        expect(lines.slice(at + 1, at + 1 + fact.items.length)).toEqual(fact.items);
      }
    }
  });

  it('offers every package in "works with" and every feature in the capability filter', () => {
    const filters = catalogueFilters(entries);
    const options = findTags(html, 'option').map((tag) => attributeOf(tag, 'value'));
    for (const entry of entries) expect(options).toContain(entry.directory);
    for (const choice of [...filters.provides, ...filters.requires]) {
      expect(options).toContain(choice.value);
    }
    const kinds = findTags(html, 'input')
      .filter((tag) => tag.attributes.name === 'catalogue-kind')
      .map((tag) => attributeOf(tag, 'value'));
    expect(kinds).toEqual(['any', ...new Set(entries.map((entry) => entry.kind))]);
  });

  it("carries the filters' stylesheet, with a rule for each card and the empty message", () => {
    const style = /<style>([\s\S]*?)<\/style>/.exec(html.slice(html.indexOf('data-catalogue')))?.[1];
    expect(style).toBeDefined();
    for (const entry of entries) {
      expect(style).toMatch(new RegExp(`\\[data-package="?${entry.directory}"?\\]`));
    }
    expect(style).toContain('[data-catalogue-empty]{display:block}');
    // Selectors are written as they are: React would escape > or & in a text child.
    expect(style).not.toMatch(/&gt;|&amp;|&quot;/);
    expect(textOf(html)).toContain('No package matches these filters.');
  });
});
