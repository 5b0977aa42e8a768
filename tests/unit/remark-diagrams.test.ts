import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { printPalette } from '../../scripts/diagrams/palette';
import { svgDocument } from '../../scripts/diagrams/svg';
import remarkDiagrams, { isDiagramUrl, WIDE_DIAGRAM_PX } from '../../src/remark/diagrams';

interface Node {
  type: string;
  name?: string;
  alt?: string;
  url?: string;
  attributes?: { name: string; value: unknown }[];
  children?: Node[];
}

/** A page folder with one rendered diagram of the given width. */
function pageWith(width: number, description = "The task's path, in words.") {
  const dir = mkdtempSync(path.join(tmpdir(), 'remark-diagrams-'));
  mkdirSync(path.join(dir, 'diagrams'));
  writeFileSync(
    path.join(dir, 'diagrams', 'flow.svg'),
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
  return path.join(dir, 'page.md');
}

function run(pagePath: string, alt = ''): Node {
  const image: Node = { type: 'image', url: './diagrams/flow.svg', alt };
  const tree: Node = { type: 'root', children: [{ type: 'paragraph', children: [image] }] };
  remarkDiagrams()(tree as never, { path: pagePath });
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

  it('turns a narrow diagram into a captioned figure with the description as alt text', () => {
    const figure = run(pageWith(300));
    expect(figure).toMatchObject({ type: 'mdxJsxFlowElement', name: 'figure' });
    expect(attribute(figure, 'className')).toBe('weft-diagram');
    const [image, caption] = figure.children ?? [];
    expect(image).toMatchObject({ type: 'image', alt: 'The task\u2019s path, in words.' });
    expect(caption).toMatchObject({ name: 'figcaption', children: [{ value: 'The flow' }] });
  });

  it('keeps alt text written in the page', () => {
    const figure = run(pageWith(300), 'Written by the author');
    expect(figure.children?.[0]?.alt).toBe('Written by the author');
  });

  it('puts a wide diagram in a focusable, labelled region with a minimum width', () => {
    const figure = run(pageWith(WIDE_DIAGRAM_PX + 200));
    expect(attribute(figure, 'className')).toBe('weft-diagram weft-diagram--wide');
    const region = figure.children?.[0];
    expect(attribute(region, 'tabIndex')).toBe('0');
    expect(attribute(region, 'role')).toBe('region');
    expect(attribute(region, 'aria-label')).toMatch(/^The flow/);
    const canvas = region?.children?.[0];
    expect(attribute(canvas, 'style')).toMatchObject({ value: '{ minWidth: 476 }' });
  });

  it('names the page and the file when the diagram is missing', () => {
    expect(() => run('/nowhere/page.md')).toThrow(
      '/nowhere/page.md: diagram ./diagrams/flow.svg does not exist',
    );
  });

  it('refuses alt text that would be escaped twice', () => {
    expect(() => run(pageWith(300, 'A & B'))).toThrow('without &, < or >');
  });
});
