/**
 * Diagrams in the built docs: each is an image file of the build with a text alternative,
 * and each wide one sits in a scrolling region that the keyboard can reach.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { assert, beforeAll, describe, expect, it } from 'vitest';
import { readDiagram } from '@weft-internal/diagrams/svg';
import { assertBuildExists, buildDir, buildPath, findTags } from './support/build-output';

beforeAll(assertBuildExists);

/** Each figure of the built docs: the page, its img tag and the scroll region around it, if any. */
function builtFigures(): { page: string; figure: string }[] {
  const docs = path.join(buildDir, 'docs');
  return readdirSync(docs, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('index.html'))
    .flatMap((file) => {
      const html = readFileSync(path.join(docs, file), 'utf8');
      return [...html.matchAll(/<figure class="?weft-diagram[\s\S]*?<\/figure>/g)].map(
        ([figure]) => ({ page: `/docs/${path.dirname(file)}/`, figure }),
      );
    });
}

describe('built diagrams', () => {
  const figures = builtFigures();

  it('are on the pages', () => {
    expect(figures.length).toBeGreaterThanOrEqual(6);
  });

  it('are SVG files of the build with alt text and a caption', () => {
    for (const { page, figure } of figures) {
      const [image] = findTags(figure, 'img');
      assert.isDefined(image, `${page}: a diagram figure without an img`);
      expect(image.attributes.alt?.split(/\s+/).length ?? 0, page).toBeGreaterThanOrEqual(20);
      const { src } = image.attributes;
      assert.isDefined(src, `${page}: a diagram img without a src`);
      const file = buildPath(src);
      expect(existsSync(file), `${page}: ${src}`).toBe(true);
      const svg = readFileSync(file, 'utf8');
      expect(readDiagram(svg).title, file).not.toBe('');
      expect(figure, page).toMatch(/<figcaption>[^<]+<\/figcaption>/);
    }
  });

  it('put wide drawings in a labelled region the keyboard can scroll', () => {
    const wide = figures.filter(({ figure }) => figure.includes('weft-diagram--wide'));
    expect(wide.length).toBeGreaterThanOrEqual(1);
    for (const { page, figure } of wide) {
      const [region] = findTags(figure, 'div').filter((tag) =>
        tag.attributes.class?.includes('weft-diagram__scroll'),
      );
      expect(region?.attributes.tabindex, page).toBe('0');
      expect(region?.attributes.role, page).toBe('region');
      expect(region?.attributes['aria-label'], page).toMatch(/\S/);
    }
  });
});
