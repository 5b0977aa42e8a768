/**
 * A rehype plugin run on each built page before it becomes Markdown: it undoes what the theme
 * adds for the browser, so the Markdown reads like the source.
 *
 * - Heading anchors ("#" links) are dropped; each would become a link to "#id" titled "Direct link…".
 * - Highlighted code blocks are rebuilt as <pre><code class="language-…"> holding the plain code.
 *   The theme writes one element per line, each ending in <br>, which the converter would turn
 *   into a blank line after every line; here the lines are joined with newlines instead, so a
 *   sample embedded from examples/ reads exactly as its file. The types of a sample's
 *   identifiers (src/remark/type-hovers) are attributes of their spans, which are not kept.
 * - Run panels (`data-run-panel`, src/components/RunPanel/) are dropped: a button and an empty
 *   live region mean nothing in Markdown, and the page's prose already says what the panel does.
 * - Line-break opportunities (`<wbr>`, src/config/rehype-heading-breaks.ts) are dropped: the
 *   converter writes each as a zero-width space, which would hide inside a copied error code.
 */
import type { Element, ElementContent, Root, RootContent } from 'hast';

function classNames(node: Element): string[] {
  const value: unknown = node.properties?.className;
  if (Array.isArray(value)) {
    return value.map(String);
  }
  return typeof value === 'string' ? value.split(' ') : [];
}

function textOf(node: RootContent | ElementContent): string {
  if (node.type === 'text') {
    return node.value;
  }
  if (node.type === 'element') {
    if (node.tagName === 'br') {
      return '';
    }
    return node.children.map(textOf).join('');
  }
  return '';
}

/** The code of a <pre>: one line per "token-line" element when highlighted, else its text. */
function codeOf(pre: Element): string {
  const lines: string[] = [];
  const collect = (node: ElementContent) => {
    if (node.type !== 'element') {
      return;
    }
    if (classNames(node).includes('token-line')) {
      lines.push(textOf(node));
      return;
    }
    node.children.forEach(collect);
  };
  pre.children.forEach(collect);
  const code = lines.length > 0 ? lines.join('\n') : pre.children.map(textOf).join('');
  return code.replace(/\n+$/, '');
}

function languageOf(nodes: Element[]): string | undefined {
  for (const node of nodes) {
    const language = classNames(node).find((name) => name.startsWith('language-'));
    if (language) {
      return language;
    }
  }
  return undefined;
}

function clean(node: Root | Element, ancestors: Element[]): void {
  node.children = node.children.filter(
    (child) =>
      !(
        child.type === 'element' &&
        (child.tagName === 'wbr' ||
          classNames(child).includes('hash-link') ||
          child.properties?.dataRunPanel !== undefined)
      ),
  ) as typeof node.children;
  for (const [index, child] of node.children.entries()) {
    if (child.type !== 'element') {
      continue;
    }
    if (child.tagName === 'pre') {
      const language = languageOf([child, ...ancestors.slice().reverse()]);
      const rebuilt: Element = {
        type: 'element',
        tagName: 'pre',
        properties: {},
        children: [
          {
            type: 'element',
            tagName: 'code',
            properties: language ? { className: [language] } : {},
            children: [{ type: 'text', value: codeOf(child) }],
          },
        ],
      };
      node.children[index] = rebuilt;
      continue;
    }
    clean(child, [...ancestors, child]);
  }
}

export default function cleanDocusaurusHtml() {
  return (tree: Root) => clean(tree, []);
}
