/**
 * A rehype plugin for the docs: every table can take keyboard focus. The theme lets a table wider
 * than the page scroll sideways (display: block; overflow: auto), and a reader without a mouse
 * can only scroll a region that takes focus (axe: scrollable-region-focusable).
 */
import type { Element, Root, RootContent } from 'hast';

function visit(node: Root | RootContent): void {
  if (node.type !== 'root' && node.type !== 'element') {
    return;
  }
  if (node.type === 'element' && node.tagName === 'table') {
    (node as Element).properties = { ...node.properties, tabIndex: 0 };
  }
  node.children.forEach(visit);
}

export default function rehypeFocusableTables() {
  return (tree: Root) => visit(tree);
}
