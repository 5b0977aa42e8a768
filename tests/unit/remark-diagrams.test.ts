import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { printPalette } from '@weft-internal/diagrams/palette';
import { svgDocument } from '@weft-internal/diagrams/svg';
import remarkDiagrams, { isDiagramUrl, WIDE_DIAGRAM_PX } from '../../src/remark/diagrams';

interface Node {
  type: string;
  name?: string;
  alt?: string;
  url?: string;
  attributes?: { name: string; value: unknown }[];
  children?: Node[];
}

/** A site with one docs page and its rendered diagram, of the given width. */
function pageWith(width: number, description = "The task's path, in words.") {
  const siteDir = mkdtempSync(path.join(tmpdir(), 'remark-diagrams-'));
  mkdirSync(path.join(siteDir, 'static', 'diagrams', 'guide'), { recursive: true });
  writeFileSync(
    path.join(siteDir, 'static', 'diagrams', 'guide', 'flow.svg'),
    svgDocument({
      width,
      height: 100,
      title: 'The flow',
      description,
      background: printPalette.background,
      fontFamily: 'sans-serif',
      fontSize: 13,
      content: '',
    }),
  );
  return siteDir;
}

function run(siteDir: string, alt = ''): Node {
  const image: Node = { type: 'image', url: './diagrams/flow.svg', alt };
  const tree: Node = { type: 'root', children: [{ type: 'paragraph', children: [image] }] };
  const pagePath = path.join(siteDir, 'docs', 'guide', 'page.md');
  remarkDiagrams({ siteDir, baseUrl: '/base/' })(tree as never, { path: pagePath });
  return tree.children?.[0] as Node;
}

const attribute = (node: Node | undefined, name: string) =>
  node?.attributes?.find((candidate) => candidate.name === name)?.value;

describe('remarkDiagrams', () => {
  it('recognises diagram images only', () => {
    expect(isDiagramUrl('./diagrams/flow.svg')).toBe(true);
    expect(isDiagramUrl('../concepts/diagrams/flow.svg')).toBe(true);
    expect(isDiagramUrl('./img/flow.svg')).toBe(false);
    expect(isDiagramUrl('https://example.com/diagrams/flow.svg')).toBe(false);
  });

  it('turns a narrow diagram into a captioned figure with the description as alt text [claim:cg-diagram-figure]', () => {
    const figure = run(pageWith(300));
    expect(figure).toMatchObject({ type: 'mdxJsxFlowElement', name: 'figure' });
    expect(attribute(figure, 'className')).toBe('weft-diagram');
    const [image, caption] = figure.children ?? [];
    expect(image).toMatchObject({ type: 'mdxJsxFlowElement', name: 'img' });
    expect(attribute(image, 'src')).toBe('/base/diagrams/guide/flow.svg');
    expect(attribute(image, 'alt')).toBe("The task's path, in words.");
    expect(attribute(image, 'width')).toBe('300');
    expect(caption).toMatchObject({ name: 'figcaption', children: [{ value: 'The flow' }] });
  });

  it('keeps alt text written in the page [claim:cg-diagram-figure]', () => {
    const figure = run(pageWith(300), 'Written by the author');
    expect(attribute(figure.children?.[0], 'alt')).toBe('Written by the author');
  });

  it('scrolls a diagram sideways from 481 px wide, and leaves one of 480 px as it is [claim:cg-diagram-figure]', () => {
    expect(attribute(run(pageWith(480)), 'className')).toBe('weft-diagram');
    expect(attribute(run(pageWith(481)), 'className')).toBe('weft-diagram weft-diagram--wide');
  });

  it('puts a wide diagram in a focusable, labelled region with a minimum width [claim:cg-diagram-figure]', () => {
    const figure = run(pageWith(WIDE_DIAGRAM_PX + 200));
    expect(attribute(figure, 'className')).toBe('weft-diagram weft-diagram--wide');
    const region = figure.children?.[0];
    expect(attribute(region, 'tabIndex')).toBe('0');
    expect(attribute(region, 'role')).toBe('region');
    expect(attribute(region, 'aria-label')).toMatch(/^The flow/);
    const canvas = region?.children?.[0];
    expect(attribute(canvas, 'style')).toMatchObject({ value: '{ minWidth: 476 }' });
  });

  it('names the page and the sources to add when the diagram was not rendered', () => {
    const siteDir = mkdtempSync(path.join(tmpdir(), 'remark-diagrams-'));
    expect(() => run(siteDir)).toThrow(
      /page\.md: diagram \.\/diagrams\/flow\.svg has not been rendered; add its source \(flow\.dot or flow\.sequence\.json\)/,
    );
  });
});
