/** One entry point for every kind of diagram source, used by the site and the whitepaper. */
import path from 'node:path';
import { parseDotSource, renderDot } from './graphviz';
import type { Palette } from './palette';
import { parseSequenceSpec, renderSequence } from './sequence';

const KINDS = [
  {
    suffix: '.dot',
    render: (name: string, text: string, palette: Palette) =>
      renderDot(parseDotSource(text, name), palette),
  },
  {
    suffix: '.sequence.json',
    render: async (name: string, text: string, palette: Palette) =>
      renderSequence(parseSequenceSpec(parseJson(text, name), name), palette),
  },
] as const;

function parseJson(text: string, name: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${name}: not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * Tells whether a file is a diagram source this renderer understands.
 *
 * @param file - A file path.
 * @returns `true` for `.dot` and `.sequence.json` files.
 */
export function isDiagramSource(file: string): boolean {
  return KINDS.some((kind) => file.endsWith(kind.suffix));
}

/**
 * Where a diagram is published, relative to static/ and to the site's base URL:
 * `docs/<folder>/diagrams/<name>.<kind>` (or the `./diagrams/<name>.svg` a page of that folder
 * shows) becomes `diagrams/<folder>/<name>.svg`. Publishing under static/ keeps the drawing a
 * file of its own: webpack would inline a small SVG imported by a page into its JavaScript.
 *
 * @param docsDir - The docs folder.
 * @param file - A diagram source, or the path a page gives for its SVG, both absolute.
 * @returns The published path, such as `diagrams/concepts/task-sequence.svg`.
 */
export function diagramPublicPath(docsDir: string, file: string): string {
  const relative = path.relative(docsDir, file).split(path.sep).join('/');
  const kind = KINDS.find((candidate) => relative.endsWith(candidate.suffix));
  const stem = kind ? relative.slice(0, -kind.suffix.length) : relative.replace(/\.svg$/, '');
  if (relative.startsWith('..') || !/(^|\/)diagrams\/[^/]+$/.test(stem)) {
    throw new Error(`${file}: a diagram must be in a diagrams/ folder under ${docsDir}`);
  }
  return `diagrams/${stem.replace(/(^|\/)diagrams\//, '$1')}.svg`;
}

/**
 * The sources an SVG a page shows may be rendered from, in the order they are looked for.
 *
 * @param svg - The absolute path a page gives for a diagram (`.../diagrams/<name>.svg`).
 * @returns Candidate source paths beside it.
 */
export function diagramSourceCandidates(svg: string): string[] {
  const stem = svg.replace(/\.svg$/, '');
  return KINDS.map((kind) => `${stem}${kind.suffix}`);
}

/**
 * Renders one diagram source.
 *
 * @param name - The source's path, for error messages and to choose the renderer.
 * @param text - The source's text.
 * @param palette - The colours to draw in.
 * @returns The SVG document.
 */
export function renderDiagramSource(name: string, text: string, palette: Palette): Promise<string> {
  const kind = KINDS.find((candidate) => name.endsWith(candidate.suffix));
  if (!kind) throw new Error(`${name}: not a diagram source (.dot or .sequence.json)`);
  return kind.render(name, text, palette);
}
