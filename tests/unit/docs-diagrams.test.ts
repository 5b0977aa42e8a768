/**
 * Every diagram a docs page (or the whitepaper) shows has a source beside it that renders,
 * and every rendered diagram carries a text alternative.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sitePalette } from '@weft-internal/diagrams/palette';
import {
  diagramPublicPath,
  diagramSourceCandidates,
  isDiagramSource,
  renderDiagramSource,
} from '@weft-internal/diagrams/render';
import { readDiagram } from '@weft-internal/diagrams/svg';
import { isDiagramUrl } from '../../src/remark/diagrams';

const siteDir = path.resolve(__dirname, '../..');
const docsDir = path.join(siteDir, 'docs');
const palette = sitePalette(siteDir);

const pages = readdirSync(docsDir, { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.mdx?$/.test(file))
  .map((file) => path.join(docsDir, file));

/** `[page, url, alt]` for every image in the docs that points at a diagram. */
const references = pages.flatMap((page) =>
  // Examples inside fenced code are not images.
  [
    ...readFileSync(page, 'utf8')
      .replace(/^(```+|~~~+)[\s\S]*?^\1\s*$/gm, '')
      .matchAll(/!\[([^\]]*)\]\(([^)\s]+)\)/g),
  ].flatMap(([, alt, url]) =>
    alt !== undefined && url !== undefined && isDiagramUrl(url)
      ? [[path.relative(siteDir, page), url, alt] as const]
      : [],
  ),
);

/** Every diagram source under docs/. */
const sources = readdirSync(docsDir, { recursive: true, encoding: 'utf8' })
  .map((file) => path.join(docsDir, file))
  .filter((file) => path.basename(path.dirname(file)) === 'diagrams' && isDiagramSource(file));

/** Figures of the whitepaper point at diagram sources directly. */
const whitepaperFigures = [
  ...readFileSync(path.join(siteDir, 'whitepaper', 'whitepaper.md'), 'utf8').matchAll(
    /^!\[[^\]]+\]\(([^)\s]+)\)$/gm,
  ),
].flatMap(([, source]) =>
  source === undefined ? [] : [path.resolve(siteDir, 'whitepaper', source)],
);

describe('docs diagrams', () => {
  it('pages show diagrams', () => {
    expect(references.length).toBeGreaterThanOrEqual(6);
  });

  it.each(references)(
    '%s: %s has a source that renders with a text alternative',
    async (page, url) => {
      const svgPath = path.resolve(siteDir, path.dirname(page), url);
      const source = diagramSourceCandidates(svgPath).find((candidate) => existsSync(candidate));
      expect(
        source,
        `${page} shows ${url}, but no .dot or .sequence.json source is beside it`,
      ).toBeDefined();
      const svg = await renderDiagramSource(
        path.relative(siteDir, source as string),
        readFileSync(source as string, 'utf8'),
        palette,
      );
      expect(svg).toContain('role="img"');
      const { title, description, width, height } = readDiagram(svg);
      expect(title.length).toBeGreaterThan(5);
      // The description is the image's alt text: a sentence or more, not a label.
      expect(description.split(/\s+/).length).toBeGreaterThanOrEqual(20);
      expect(width).toBeGreaterThan(0);
      expect(height).toBeGreaterThan(0);
    },
  );

  it.each(sources.map((source) => [path.relative(siteDir, source)]))(
    '%s is shown by a page or the whitepaper',
    (source) => {
      const published = diagramPublicPath(docsDir, path.resolve(siteDir, source));
      const shown =
        references.some(
          ([page, url]) =>
            diagramPublicPath(docsDir, path.resolve(siteDir, path.dirname(page), url)) ===
            published,
        ) || whitepaperFigures.includes(path.resolve(siteDir, source));
      expect(shown, `${source} is rendered but no page shows it`).toBe(true);
    },
  );

  it('whitepaper figures point at existing diagram sources', () => {
    expect(whitepaperFigures.length).toBeGreaterThanOrEqual(2);
    for (const figure of whitepaperFigures) {
      expect(isDiagramSource(figure), figure).toBe(true);
      expect(existsSync(figure), figure).toBe(true);
    }
  });
});
