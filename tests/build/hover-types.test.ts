/**
 * Hover types in the built docs (src/remark/type-hovers): a sample's block holds, in its HTML,
 * one focusable span per identifier, described by the type TypeScript reports (read here from
 * TypeScript, not copied in) and carrying it for the popup, with no popup element in the page;
 * the types stay out of the page's Markdown copy and the search index, which are the page's text,
 * not its code's types.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sampleHoverTypes } from '../support/sample-hover-types';
import {
  assertBuildExists,
  buildDir,
  decodeEntities,
  findTags,
  readRouteHtml,
} from './support/build-output';

beforeAll(assertBuildExists);

const SAMPLE = 'examples/getting-started/scripted-model.ts';
const ROUTE = '/docs/getting-started/';

/** Every span with no element inside (its text is the identifier) and its attributes. */
const LEAF_SPAN = /<span\b(?:[^>"']|"[^"]*"|'[^']*')*>[^<]*<\/span>/g;

/** The typed identifiers as built: each name, whether it takes focus, its description and type. */
function typedIdentifiers(html: string) {
  return [...html.matchAll(LEAF_SPAN)].flatMap(([span]) => {
    const { attributes } = findTags(span!, 'span')[0]!;
    if (!(attributes.class ?? '').split(/\s+/).includes('weft-type-hover')) return [];
    return [
      {
        name: decodeEntities(span!.slice(span!.lastIndexOf('>', span!.length - 8) + 1, -7)),
        tabIndex: attributes.tabindex,
        description: attributes['aria-description'],
        type: attributes['data-type'],
      },
    ];
  });
}

/** The HTML of the block titled with the sample's path, up to the end of its <pre>. */
function sampleBlockHtml(html: string): string {
  const start = html.indexOf(`>${SAMPLE}</div>`);
  expect(start).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('</pre>', start));
}

describe('hover types in the built docs', () => {
  const html = readRouteHtml(ROUTE);

  it("a sample's identifiers carry the types TypeScript reports, in order [claim:contributing-hover-types-shown]", () => {
    const built = typedIdentifiers(sampleBlockHtml(html));
    const { code, hovers } = sampleHoverTypes(SAMPLE);
    expect(built.map(({ name, type }) => ({ name, text: type }))).toEqual(
      hovers.map(({ start, length, text }) => ({ name: code.slice(start, start + length), text })),
    );
    expect(built.find(({ name }) => name === 'createScriptedModel')?.type).toBe(
      hovers.find(({ start, length }) => code.slice(start, start + length) === 'createScriptedModel')
        ?.text,
    );
  });

  it('each identifier takes focus and is described by its type, with no popup element [claim:contributing-hover-types-accessible]', () => {
    const all = typedIdentifiers(html);
    expect(all.length).toBeGreaterThan(100);
    for (const identifier of all) {
      expect(identifier.tabIndex).toBe('0');
      expect(identifier.type).toMatch(/\S/);
      expect(identifier.description).toBe(identifier.type);
    }
    // Every typed identifier of the page is one such span: none holds a popup or other element.
    expect(html.match(/\bweft-type-hover\b/g)).toHaveLength(all.length);
    expect(html).not.toMatch(/role="?tooltip/);
  });

  it("the page's Markdown copy and the search index leave the popups out [claim:contributing-hover-types-copies]", () => {
    // The import's description, "(alias) class ScriptedModelProvider", is in no page's text.
    const { hovers } = sampleHoverTypes(SAMPLE);
    const type = hovers[0]!.text.split('\n')[0]!;
    expect(type).toBe('(alias) class ScriptedModelProvider');
    expect(html).toContain(type);
    const markdown = readFileSync(path.join(buildDir, 'docs/getting-started.md'), 'utf8');
    expect(markdown).toContain('export function createScriptedModel(): ScriptedModelProvider');
    expect(markdown).not.toContain(type);
    const index = readFileSync(path.join(buildDir, 'search-index-docs.json'), 'utf8');
    expect(index).toContain('createScriptedModel');
    expect(index).not.toContain(type);
  });
});
