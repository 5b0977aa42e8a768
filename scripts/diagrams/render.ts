/** One entry point for every kind of diagram source, used by the site and the whitepaper. */
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
 * The SVG file a source renders to: the same folder and name, with `.svg`.
 *
 * @param source - A diagram source path.
 * @returns The output path.
 */
export function diagramOutputPath(source: string): string {
  const kind = KINDS.find((candidate) => source.endsWith(candidate.suffix));
  if (!kind) throw new Error(`${source}: not a diagram source (.dot or .sequence.json)`);
  return `${source.slice(0, -kind.suffix.length)}.svg`;
}

/**
 * The sources an SVG file may be rendered from, in the order they are looked for.
 *
 * @param svg - The path of a diagram's SVG file.
 * @returns Candidate source paths.
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
