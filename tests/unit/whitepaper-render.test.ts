/**
 * The whitepaper's PDF is drawn from its Markdown by tooling/assets/generate-whitepaper.ts, which
 * reads a small subset of Markdown. These tests check that what the paper writes in that subset
 * reaches the PDF as text in the right font, not as the Markdown's own markers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { site } from '@weft-internal/docs-model/site';
import { API_ROUTE_BASE_PATH } from '@weft-internal/docs-model/typedoc';
import { inlineRuns, parseWhitepaper } from '../../tooling/assets/generate-whitepaper';

const root = path.join(__dirname, '../..');
const whitepaper = readFileSync(path.join(root, 'whitepaper/whitepaper.md'), 'utf8');

/**
 * The path each docs page is served at under /docs, as Docusaurus routes it: its `slug` when it
 * has an absolute one, else its file path without the extension, an `index` or a last segment
 * named like its folder.
 */
function docsRoutes(): Set<string> {
  const routes = new Set<string>();
  for (const file of readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })) {
    if (!/\.mdx?$/.test(file)) continue;
    const text = readFileSync(path.join(root, 'docs', file), 'utf8');
    const slug = /^---\n[\s\S]*?^slug: (\/\S*)$[\s\S]*?^---$/m.exec(text)?.[1];
    const parts = file.replace(/\.mdx?$/, '').split(path.sep);
    const last = parts.at(-1);
    if (last === 'index' || (parts.length > 1 && last === parts.at(-2))) parts.pop();
    routes.add(`/docs${(slug ?? `/${parts.join('/')}`).replace(/\/$/, '')}/`);
  }
  return routes;
}

describe('the whitepaper renderer', () => {
  it('sets **bold** and `code` runs in their fonts, without their markers', () => {
    expect(inlineRuns('**Limits.** See `@weft/coordinator-postgres` for more.')).toEqual([
      { text: 'Limits.', font: 'bold' },
      { text: ' See ', font: 'regular' },
      { text: '@weft/coordinator-postgres', font: 'code' },
      { text: ' for more.', font: 'regular' },
    ]);
  });

  it('refuses a marker it cannot pair, which the PDF would print literally', () => {
    expect(() => parseWhitepaper('# Title\n\nAn `open run.\n')).toThrow(/cannot pair/);
    expect(() => parseWhitepaper('# Title\n\n- An **open run.\n')).toThrow(/cannot pair/);
    expect(() => parseWhitepaper('# Title\n\nSee [the guide](../docs/x.md).\n')).toThrow(
      /print literally/,
    );
    expect(() => parseWhitepaper('# Title\n\nText. <!-- a note -->\n')).toThrow(/print literally/);
  });

  it('leaves no Markdown marker in the text of the paper it draws', () => {
    const texts = parseWhitepaper(whitepaper).flatMap((block) =>
      block.kind === 'paragraph' ? [block.text] : block.kind === 'list' ? block.items : [],
    );
    const drawn = texts.flatMap((text) => inlineRuns(text).map((run) => run.text));
    expect(drawn.filter((text) => /\*\*|`/.test(text))).toEqual([]);
    // The paper names a package in code, so the check above has a code run to look at.
    expect(texts.flatMap((text) => inlineRuns(text)).some((run) => run.font === 'code')).toBe(true);
  });

  it('links only to pages the site serves', () => {
    const base = `${site.url}${site.baseUrl.replace(/\/$/, '')}`;
    const text = parseWhitepaper(whitepaper)
      .flatMap((block) =>
        block.kind === 'list' ? block.items : 'text' in block ? [block.text] : [],
      )
      .join('\n');
    const links = [...text.matchAll(/https?:\/\/[^\s,;)]+/g)].map(([link]) => link);
    // The further reading lists several pages; an empty scan would prove nothing.
    expect(links.length).toBeGreaterThanOrEqual(5);
    const routes = docsRoutes();
    const missing = links.filter((link) => {
      if (!link.startsWith(base)) return true;
      const route = link.slice(base.length);
      return route !== `/${API_ROUTE_BASE_PATH}/` && !routes.has(route);
    });
    expect(missing).toEqual([]);
  });
});
