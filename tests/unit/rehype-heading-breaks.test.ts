/**
 * The heading-breaks step (src/config/rehype-heading-breaks.ts): where a heading may wrap inside a
 * long constant name, and that it adds no text.
 */
import type { Element, ElementContent, Root } from 'hast';
import { describe, expect, it } from 'vitest';
import rehypeHeadingBreaks from '../../src/config/rehype-heading-breaks';

const text = (value: string): ElementContent => ({ type: 'text', value });
const element = (tagName: string, children: ElementContent[]): Element => ({
  type: 'element',
  tagName,
  properties: {},
  children,
});

/** The tree as markup, for the node kinds these pages hold. */
const markup = (node: Root | ElementContent): string => {
  if (node.type === 'text') return node.value;
  if (node.type === 'element' && node.tagName === 'wbr') return '<wbr>';
  if (node.type === 'element') {
    return `<${node.tagName}>${node.children.map(markup).join('')}</${node.tagName}>`;
  }
  if (node.type === 'root') return node.children.map((child) => markup(child as Element)).join('');
  throw new Error(`no markup for a ${node.type} node`);
};

function render(...children: Element[]): string {
  const tree: Root = { type: 'root', children };
  rehypeHeadingBreaks()(tree);
  return markup(tree);
}

describe('rehype heading breaks', () => {
  it('lets a heading wrap after each underscore inside a name', () => {
    expect(render(element('h3', [text('WEFT_TOO_MANY_CONNECTIONS')]))).toBe(
      '<h3>WEFT_<wbr>TOO_<wbr>MANY_<wbr>CONNECTIONS</h3>',
    );
  });

  it('reaches names inside code spans and links, and leaves underscores at the edge of a name', () => {
    expect(
      render(element('h2', [element('code', [text('_private and DEFAULT_PORT_')]), text(' x_1')])),
    ).toBe('<h2><code>_private and DEFAULT_<wbr>PORT_</code> x_<wbr>1</h2>');
  });

  it('leaves paragraphs and headings without a name as they are', () => {
    expect(render(element('p', [text('WEFT_NOT_FOUND')]), element('h2', [text('Run it')]))).toBe(
      '<p>WEFT_NOT_FOUND</p><h2>Run it</h2>',
    );
  });
});
