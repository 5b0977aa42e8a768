/**
 * A rehype plugin for the docs and the API reference: a heading may wrap after each underscore of
 * a long constant name, such as an error code (`WEFT_TOO_MANY_CONNECTIONS`). Such a name has no
 * space, so on a phone the theme's `overflow-wrap: anywhere` broke it inside a word
 * (`WEFT_TOO_MANY_CONNECTIO` / `NS`). A `<wbr>` after each underscore gives the browser a place
 * that reads well. It adds no text: the heading's id, its text, the table of contents and the
 * search index stay as they were (ids and the table of contents are made before rehype runs).
 */
import type { Element, ElementContent, Root, RootContent, Text } from 'hast';

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** An underscore with a letter or digit on each side: a place inside a name, not at its edge. */
const BREAK_AFTER = /(?<=[A-Za-z0-9]_)(?=[A-Za-z0-9])/;

function withBreaks(text: Text): ElementContent[] {
  const parts = text.value.split(BREAK_AFTER);
  if (parts.length === 1) return [text];
  return parts.flatMap((value, index): ElementContent[] => [
    ...(index === 0
      ? []
      : [{ type: 'element', tagName: 'wbr', properties: {}, children: [] } satisfies Element]),
    { type: 'text', value },
  ]);
}

/** Gives every text inside `node`, at any depth (a heading's code span too), its breaks. */
function breakTexts(node: Element): void {
  node.children = node.children.flatMap((child) => {
    if (child.type === 'text') return withBreaks(child);
    if (child.type === 'element') breakTexts(child);
    return [child];
  });
}

function visit(node: Root | RootContent): void {
  if (node.type === 'element' && HEADINGS.has(node.tagName)) {
    breakTexts(node);
    return;
  }
  if (node.type === 'root' || node.type === 'element') node.children.forEach(visit);
}

export default function rehypeHeadingBreaks() {
  return (tree: Root) => visit(tree);
}
