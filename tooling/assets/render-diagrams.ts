/**
 * Renders every diagram source under docs/ to an SVG file under static/diagrams/:
 * `docs/<section>/diagrams/<name>.dot` (Graphviz) and `<name>.sequence.json` (sequence
 * diagrams) become `static/diagrams/<section>/<name>.svg`, which pages show by writing
 * `![](./diagrams/<name>.svg)` (src/remark/diagrams.ts maps the path).
 *
 * Each SVG starts with a comment holding the hash of its source, the palette and the renderer
 * code; a diagram whose hash has not changed is not rendered again, unless FORCE_GENERATE=true,
 * which redraws every diagram as it regenerates every other asset (libs/generated-assets/stamp.ts).
 *
 * Run: npm run generate:assets -- diagrams (also run by `npm start` and `npm run build`).
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  diagramPublicPath,
  isDiagramSource,
  renderDiagramSource,
} from '@weft-internal/diagrams/render';
import { sitePalette } from '@weft-internal/diagrams/palette';
import { runWhenMain } from '../run-when-main';

const siteDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const HASH_COMMENT = /^<!-- source-hash: ([0-9a-f]+) -->\n/;

async function findSources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && path.basename(entry.parentPath) === 'diagrams')
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter(isDiagramSource)
    .sort();
}

/** Hash of the renderer's own code, so a change to how diagrams are drawn redraws them all. */
async function rendererHash(): Promise<string> {
  const dir = path.join(siteDir, 'libs', 'diagrams');
  const files = (await readdir(dir)).filter((name) => name.endsWith('.ts')).sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(await readFile(path.join(dir, file)));
  return hash.digest('hex');
}

/** Where the diagram sources are read and the SVG files written; the site's own by default. */
export interface DiagramFolders {
  /** The folder whose `diagrams/` folders hold the sources (the site's docs/). */
  docsDir: string;
  /** The folder the SVG files go under, in `diagrams/` (the site's static/). */
  staticDir: string;
}

async function main(
  folders: DiagramFolders = {
    docsDir: path.join(siteDir, 'docs'),
    staticDir: path.join(siteDir, 'static'),
  },
): Promise<void> {
  const palette = sitePalette(siteDir);
  const renderer = await rendererHash();
  const { docsDir, staticDir } = folders;
  const sources = await findSources(docsDir);
  const force = process.env.FORCE_GENERATE === 'true';
  let rendered = 0;
  for (const source of sources) {
    const text = await readFile(source, 'utf8');
    const hash = createHash('sha256')
      .update(renderer)
      .update(JSON.stringify(palette))
      .update(text)
      .digest('hex')
      .slice(0, 32);
    const target = path.join(staticDir, diagramPublicPath(docsDir, source));
    const existing = await readFile(target, 'utf8').catch(() => '');
    if (!force && HASH_COMMENT.exec(existing)?.[1] === hash) continue;
    const svg = await renderDiagramSource(path.relative(siteDir, source), text, palette);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, `<!-- source-hash: ${hash} -->\n${svg}`);
    rendered += 1;
  }
  console.log(`diagrams: ${rendered} rendered, ${sources.length - rendered} unchanged`);
}

export const renderDiagrams = (folders?: DiagramFolders): Promise<void> => main(folders);

runWhenMain(import.meta.url, 'render the diagrams', () => renderDiagrams());
