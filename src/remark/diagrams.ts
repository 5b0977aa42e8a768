/**
 * Turns a diagram image in a docs page, `![](./diagrams/<name>.svg)` alone in its paragraph,
 * into a captioned figure. The SVG was rendered at build time from its source beside the page
 * into static/diagrams/ (tooling/assets/render-diagrams.ts), and the figure shows that file with a
 * plain `img`, so it costs the page no JavaScript. The plugin:
 *
 * - fills an empty alt text with the diagram's own description, so the text alternative lives
 *   in one place, the source;
 * - captions the figure with the diagram's title;
 * - lets a diagram too wide to read when shrunk to a phone's width keep a readable size
 *   inside a horizontally scrolling region that the keyboard can reach.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { diagramPublicPath, diagramSourceCandidates } from '@weft-internal/diagrams/render';
import { readDiagram } from '@weft-internal/diagrams/svg';

export interface RemarkDiagramsOptions {
  /** The site's root folder, holding docs/ and static/. */
  siteDir: string;
  /** The site's base URL, such as `/`. */
  baseUrl: string;
}

/** Drawings wider than this would shrink below a legible text size on a 375 px screen. */
export const WIDE_DIAGRAM_PX = 480;
/** The narrowest a wide diagram may be drawn: 70 % of its size keeps 13 px labels at 9 px. */
const WIDE_MIN_SCALE = 0.7;

const DIAGRAM_URL = /(^|\/)diagrams\/[\w.-]+\.svg$/;

interface Node {
  type: string;
  children?: Node[];
  [key: string]: unknown;
}

interface ImageNode extends Node {
  type: 'image';
  url: string;
  alt?: string | null;
}

/**
 * Tells whether an image URL points at a rendered diagram.
 *
 * @param url - The image's URL as written in the page.
 * @returns `true` for `diagrams/<name>.svg` paths.
 */
export function isDiagramUrl(url: string): boolean {
  return !/^[a-z]+:/i.test(url) && DIAGRAM_URL.test(url);
}

const attribute = (name: string, value: string): Node => ({ type: 'mdxJsxAttribute', name, value });

/** `style={{ minWidth: <px> }}`, spelt out as the estree MDX compiles attribute expressions from. */
function minWidthStyle(px: number): Node {
  const object = {
    type: 'ObjectExpression',
    properties: [
      {
        type: 'Property',
        key: { type: 'Identifier', name: 'minWidth' },
        value: { type: 'Literal', value: px, raw: String(px) },
        kind: 'init',
        method: false,
        shorthand: false,
        computed: false,
      },
    ],
  };
  return {
    type: 'mdxJsxAttribute',
    name: 'style',
    value: {
      type: 'mdxJsxAttributeValueExpression',
      value: `{ minWidth: ${px} }`,
      data: {
        estree: {
          type: 'Program',
          sourceType: 'module',
          comments: [],
          body: [{ type: 'ExpressionStatement', expression: object }],
        },
      },
    },
  };
}

const element = (name: string, attributes: Node[], children: Node[]): Node => ({
  type: 'mdxJsxFlowElement',
  name,
  attributes,
  children,
});

function figureFor(image: ImageNode, pagePath: string, options: RemarkDiagramsOptions): Node {
  const shown = path.resolve(path.dirname(pagePath), image.url);
  const published = diagramPublicPath(path.join(options.siteDir, 'docs'), shown);
  let svg: string;
  try {
    svg = readFileSync(path.join(options.siteDir, 'static', published), 'utf8');
  } catch {
    const sources = diagramSourceCandidates(image.url).map((source) => path.basename(source));
    throw new Error(
      `${pagePath}: diagram ${image.url} has not been rendered; add its source (${sources.join(' or ')}) in the page's diagrams/ folder and run npm run generate:assets -- diagrams.`,
    );
  }
  const diagram = readDiagram(svg);
  if (!diagram.title || !diagram.description) {
    throw new Error(`${pagePath}: diagram ${image.url} has no <title> or <desc>; re-render it.`);
  }
  const alt = image.alt?.trim() ? image.alt : diagram.description;
  const img = element(
    'img',
    [
      attribute('src', `${options.baseUrl}${published}`),
      attribute('alt', alt),
      attribute('width', String(diagram.width)),
      attribute('height', String(diagram.height)),
      attribute('loading', 'lazy'),
      attribute('decoding', 'async'),
    ],
    [],
  );
  const caption = element('figcaption', [], [{ type: 'text', value: diagram.title }]);
  if (diagram.width <= WIDE_DIAGRAM_PX) {
    return element('figure', [attribute('className', 'weft-diagram')], [img, caption]);
  }
  const canvas = element(
    'div',
    [
      attribute('className', 'weft-diagram__canvas'),
      minWidthStyle(Math.round(diagram.width * WIDE_MIN_SCALE)),
    ],
    [img],
  );
  const scroller = element(
    'div',
    [
      attribute('className', 'weft-diagram__scroll'),
      attribute('tabIndex', '0'),
      attribute('role', 'region'),
      attribute('aria-label', `${diagram.title} (scrolls sideways on narrow screens)`),
    ],
    [canvas],
  );
  return element(
    'figure',
    [attribute('className', 'weft-diagram weft-diagram--wide')],
    [scroller, caption],
  );
}

function transform(node: Node, pagePath: string, options: RemarkDiagramsOptions): void {
  if (!node.children) return;
  node.children = node.children.map((child) => {
    const only =
      child.type === 'paragraph' && child.children?.length === 1 ? child.children[0] : undefined;
    if (only?.type === 'image' && isDiagramUrl((only as ImageNode).url)) {
      return figureFor(only as ImageNode, pagePath, options);
    }
    transform(child, pagePath, options);
    return child;
  });
}

/**
 * The remark plugin.
 *
 * @param options - Where the site is, and its base URL.
 * @returns A transformer that rewrites every diagram paragraph of a page into a figure.
 */
export default function remarkDiagrams(
  options: RemarkDiagramsOptions,
): (tree: Node, file: { path: string }) => void {
  return (tree, file) => transform(tree, file.path, options);
}
