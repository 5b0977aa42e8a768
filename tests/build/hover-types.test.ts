/**
 * Hover types in the built docs (src/remark/type-hovers): a sample's block holds, in its HTML,
 * a focusable span per identifier described by a popup with the type TypeScript reports (read
 * here from TypeScript, not copied in), and the popups stay out of the page's Markdown copy and
 * the search index, which are the page's text, not its code's types.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sampleHoverTypes } from '../support/sample-hover-types';
import { assertBuildExists, buildDir, decodeEntities, readRouteHtml } from './support/build-output';

beforeAll(assertBuildExists);

const SAMPLE = 'examples/getting-started/scripted-model.ts';
const ROUTE = '/docs/getting-started/';

/**
 * One identifier as built: the span's description id, the identifier (in its token's span, or
 * bare when it is plain text), the popup's id and text.
 */
const TYPED_IDENTIFIER =
  /<span class="?weft-type-hover"? tabindex="?0"? aria-describedby="?([^\s">]+)"?>(?:<span[^>]*>([^<]*)<\/span>|([^<]+))<span role="?tooltip"? id="?([^\s">]+)"? class="?weft-type-popup"?>([^<]*)<\/span><\/span>/g;

function typedIdentifiers(html: string) {
  return [...html.matchAll(TYPED_IDENTIFIER)].map(([, describedBy, inToken, bare, id, text]) => ({
    describedBy: describedBy!,
    name: decodeEntities((inToken ?? bare)!),
    id: id!,
    text: decodeEntities(text!),
  }));
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
    expect(built.map(({ name, text }) => ({ name, text }))).toEqual(
      hovers.map(({ start, length, text }) => ({ name: code.slice(start, start + length), text })),
    );
    expect(built.find(({ name }) => name === 'createScriptedModel')?.text).toBe(
      hovers.find(({ start, length }) => code.slice(start, start + length) === 'createScriptedModel')
        ?.text,
    );
  });

  it('each popup describes its identifier, with an id unique on the page [claim:contributing-hover-types-accessible]', () => {
    const all = typedIdentifiers(html);
    expect(all.length).toBeGreaterThan(100);
    for (const identifier of all) {
      expect(identifier.describedBy).toBe(identifier.id);
    }
    expect(new Set(all.map(({ id }) => id)).size).toBe(all.length);
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
