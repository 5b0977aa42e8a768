/**
 * Renders Graphviz DOT sources to themed, accessible SVG with Graphviz compiled to
 * WebAssembly: no browser, no native binary. A source states its text alternative in leading
 * comments (`// title: ...`, `// description: ...`) and may name palette colours as `@accent`,
 * `@muted` and so on; the renderer adds the theme's defaults for graphs, nodes and edges.
 */
import type { Graphviz } from '@hpcc-js/wasm-graphviz';
import type { Palette } from './palette';
import { svgDocument } from './svg';

const FONT_NAME = 'Helvetica';
// Graphviz measures labels with Helvetica's metrics; these fonts share them closely.
const FONT_FAMILY = "Helvetica, Arial, 'Liberation Sans', sans-serif";

export interface DotSource {
  title: string;
  description: string;
  dot: string;
}

/**
 * Reads the text alternative from a DOT source's leading `//` comments. A `description:` may
 * continue on the comment lines that follow it.
 *
 * @param text - The DOT file's text.
 * @param source - The file name, for error messages.
 * @returns The title, description and the DOT text itself.
 * @throws Error naming the file when the title or description is missing.
 */
export function parseDotSource(text: string, source: string): DotSource {
  // Each field's lines: the one that names it, then the comment lines that continue it.
  const fields: Partial<Record<'title' | 'description', string[]>> = {};
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    const comment = /^\s*\/\/\s?(.*)$/.exec(line)?.[1];
    if (comment === undefined) break;
    const [, key, value] = /^(title|description):\s*(.*)$/.exec(comment) ?? [];
    if ((key === 'title' || key === 'description') && value !== undefined) {
      current = [value.trim()];
      fields[key] = current;
    } else if (current && comment.trim() !== '') {
      current.push(comment.trim());
    }
  }
  const read = (key: keyof typeof fields): string => {
    const value = fields[key]?.join(' ');
    if (!value) {
      throw new Error(
        `${source}: start the file with a "// ${key}: ..." comment; it is the diagram's text alternative.`,
      );
    }
    return value;
  };
  return { title: read('title'), description: read('description'), dot: text };
}

/** The DOT with the theme's defaults inserted after the graph's opening brace. */
function themed(dot: string, palette: Palette): string {
  const colours = dot.replace(
    /@(surfaceRaised|surface|border|text|muted|accent|background)\b/g,
    (_, key) =>
      key === 'background' && palette.background === 'none'
        ? 'transparent'
        : palette[key as keyof Palette],
  );
  const defaults = [
    `bgcolor="transparent" fontname="${FONT_NAME}" fontcolor="${palette.text}" fontsize=13 color="${palette.border}" pad=0.15 nodesep=0.3 ranksep=0.35`,
    `node [shape=box style="rounded,filled" fillcolor="${palette.surface}" color="${palette.accent}" fontcolor="${palette.text}" fontname="${FONT_NAME}" fontsize=13 penwidth=1.4 margin="0.14,0.07"]`,
    `edge [color="${palette.accent}" fontcolor="${palette.muted}" fontname="${FONT_NAME}" fontsize=12 penwidth=1.3 arrowsize=0.75]`,
  ].join(';\n');
  const brace = colours.indexOf('{');
  if (brace < 0) throw new Error('diagram source has no graph body ("{")');
  return `${colours.slice(0, brace + 1)}\n${defaults};\n${colours.slice(brace + 1)}`;
}

let graphviz: Promise<Graphviz> | undefined;

/**
 * Renders a DOT source.
 *
 * @param source - The parsed source.
 * @param palette - The colours to draw in.
 * @returns A standalone SVG document sized in pixels, with `<title>`, `<desc>` and `role="img"`.
 */
export async function renderDot(source: DotSource, palette: Palette): Promise<string> {
  // Loaded with the first diagram drawn: the package is 0.8 MB of JavaScript, and the site config
  // reaches this module (src/remark/diagrams.ts) at every `npm start` without drawing anything.
  graphviz ??= import('@hpcc-js/wasm-graphviz').then(({ Graphviz: graphvizModule }) =>
    graphvizModule.load(),
  );
  const raw = (await graphviz).dot(themed(source.dot, palette), 'svg');
  const viewBox = /viewBox="([\d.\s-]+)"/.exec(raw)?.[1]?.trim().split(/\s+/).map(Number);
  const [, , width, height] = viewBox?.length === 4 ? viewBox : [];
  if (width === undefined || height === undefined)
    throw new Error('Graphviz produced an SVG without a viewBox');
  // Keep only the drawing: Graphviz's own <title>s name nodes by id and would be read aloud.
  const inner = raw
    .replace(/^[\s\S]*?<svg\b[^>]*>/, '')
    .replace(/<\/svg>\s*$/, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<title>[^<]*<\/title>/g, '')
    .replace(/font-family="[^"]*"/g, '')
    // The graph's white backdrop polygon; the page (or the palette's background) shows instead.
    .replace(/<polygon fill="(white|transparent)" stroke="none"[^>]*\/>/, '')
    .trim();
  return svgDocument({
    width: Math.ceil(width),
    height: Math.ceil(height),
    title: source.title,
    description: source.description,
    background: palette.background,
    fontFamily: FONT_FAMILY,
    fontSize: 13,
    content: inner,
  });
}
