/**
 * Renders whitepaper/whitepaper.md to static/whitepaper.pdf with pdfkit.
 *
 * It understands the small subset of markdown the whitepaper uses: `#` and `##`
 * headings, paragraphs, `-` bullet lists, **bold** runs, `code` runs (set in Courier), and
 * figures written as
 * `![Figure n. Caption](../docs/<section>/diagrams/<name>.dot)` on a line of their own,
 * which point at a diagram source of the docs and are drawn as vector graphics in the
 * print palette. `{{site}}` stands for the site's address. Anything else is an error, so the
 * source cannot drift into syntax the PDF would print literally.
 *
 * Run: npm run generate:assets -- whitepaper (also run by `npm start` and `npm run build`). Skipped when its sources
 * are unchanged since the last run (libs/generated-assets/stamp.ts).
 */
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { links, site } from '@weft-internal/docs-model/site';
import { filesUnder, generateIfChanged } from '@weft-internal/generated-assets/stamp';
import { printPalette } from '@weft-internal/diagrams/palette';
import { renderDiagramSource } from '@weft-internal/diagrams/render';
import { runWhenMain } from '../run-when-main';
import { readDiagram } from '@weft-internal/diagrams/svg';

const siteDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE = path.join(siteDir, 'whitepaper', 'whitepaper.md');
const TARGET = path.join(siteDir, 'static', site.whitepaperPath.replace(/^\//, ''));

export type Block =
  | { kind: 'title'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'figure'; caption: string; source: string };

/**
 * Claim ids (`<!-- claim: id -->`, see tests/claims/claims.ts) link sentences to their tests;
 * they are for contributors and never reach the PDF.
 */
export function withoutClaimIds(markdown: string): string {
  return markdown.replace(/[ \t]*<!--\s*claim:[\s\S]*?-->/g, '');
}

export function parseWhitepaper(markdown: string): Block[] {
  const blocks: Block[] = [];
  const chunks = withoutClaimIds(markdown)
    .replace(/\r\n/g, '\n')
    .replaceAll('{{site}}', `${site.url}${site.baseUrl.replace(/\/$/, '')}`)
    .split(/\n\s*\n/);
  for (const chunk of chunks) {
    const lines = chunk.split('\n').filter((line) => line.trim() !== '');
    const first = lines[0];
    if (first === undefined) {
      continue;
    }
    const [, caption, source] = /^!\[([^\]]+)\]\(([^)\s]+)\)$/.exec(first) ?? [];
    if (caption !== undefined && source !== undefined && lines.length === 1) {
      blocks.push({ kind: 'figure', caption, source });
    } else if (first.startsWith('# ')) {
      blocks.push({ kind: 'title', text: first.slice(2).trim() });
      if (lines.length > 1) {
        blocks.push({ kind: 'paragraph', text: lines.slice(1).join(' ') });
      }
    } else if (first.startsWith('## ')) {
      blocks.push({ kind: 'heading', text: first.slice(3).trim() });
    } else if (first.startsWith('- ')) {
      const items: string[] = [];
      for (const line of lines) {
        if (line.startsWith('- ')) {
          items.push(line.slice(2).trim());
        } else {
          items[items.length - 1] += ` ${line.trim()}`;
        }
      }
      blocks.push({ kind: 'list', items });
    } else if (/^(#{3,}|\d+\.|\* |> |```|\|)/.test(first)) {
      throw new Error(
        `whitepaper.md uses markdown the PDF renderer does not support: "${first}". ` +
          'Use #/## headings, paragraphs and "- " bullet lists, or extend tooling/assets/generate-whitepaper.ts.',
      );
    } else {
      blocks.push({ kind: 'paragraph', text: lines.join(' ') });
    }
  }
  // An unpaired ** or ` fails here, before any page is drawn.
  for (const block of blocks) {
    if (block.kind === 'paragraph') inlineRuns(block.text);
    if (block.kind === 'list') block.items.forEach((item) => inlineRuns(item));
  }
  return blocks;
}

const COLORS = { text: '#1b1f1c', heading: '#0f3d24', muted: '#56605a' };
const FONTS = { regular: 'Helvetica', bold: 'Helvetica-Bold', code: 'Courier' };

/** A run of text in one font: plain, **bold** or `code`. */
export interface InlineRun {
  text: string;
  font: keyof typeof FONTS;
}

/**
 * Splits a paragraph's text into its plain, **bold** and `code` runs, without the markers. A
 * marker left unpaired, a Markdown link or an HTML comment other than a claim id would print
 * literally, so each is an error.
 */
export function inlineRuns(text: string): InlineRun[] {
  const runs = text
    .split(/(\*\*[^*]+\*\*|`[^`]+`)/)
    .filter((part) => part !== '')
    .map((part): InlineRun => {
      if (part.length > 4 && part.startsWith('**') && part.endsWith('**')) {
        return { text: part.slice(2, -2), font: 'bold' };
      }
      if (part.length > 2 && part.startsWith('`') && part.endsWith('`')) {
        return { text: part.slice(1, -1), font: 'code' };
      }
      return { text: part, font: 'regular' };
    });
  const unpaired = runs.find((run) => run.font === 'regular' && /\*\*|`/.test(run.text));
  if (unpaired) {
    throw new Error(
      `whitepaper.md has a ** or \` the PDF renderer cannot pair, in "${unpaired.text.trim().slice(0, 80)}". ` +
        'Close each **bold** and `code` run on the same line.',
    );
  }
  const unsupported = runs.find(
    (run) => run.font === 'regular' && /\[[^\]]*\]\([^)]*\)|<!--/.test(run.text),
  );
  if (unsupported) {
    throw new Error(
      `whitepaper.md has a link or an HTML comment the PDF would print literally, in "${unsupported.text.trim().slice(0, 80)}". ` +
        'Write the address out ({{site}}/docs/...); only claim comments are dropped.',
    );
  }
  return runs;
}

/** Writes text with **bold** and `code` runs, continuing on the current line. */
function writeRich(
  doc: PDFKit.PDFDocument,
  text: string,
  options: PDFKit.Mixins.TextOptions,
): void {
  const runs = inlineRuns(text);
  runs.forEach((run, index) => {
    doc.font(FONTS[run.font]).text(run.text, { ...options, continued: index < runs.length - 1 });
  });
}

/** The tallest a figure may be, as a share of the page's text area, so text keeps flowing. */
const FIGURE_MAX_HEIGHT_SHARE = 0.62;

/**
 * Draws a docs diagram, rendered from its source in the print palette, scaled to the text
 * width (never enlarged) and captioned; it starts a new page when it does not fit.
 */
async function drawFigure(
  doc: PDFKit.PDFDocument,
  figure: { caption: string; source: string },
): Promise<void> {
  const { default: SVGtoPDF } = await import('svg-to-pdfkit');
  const sourcePath = path.resolve(path.dirname(SOURCE), figure.source);
  const text = await readFile(sourcePath, 'utf8').catch(() => {
    throw new Error(`whitepaper.md: figure source ${figure.source} does not exist.`);
  });
  const svg = await renderDiagramSource(path.relative(siteDir, sourcePath), text, printPalette);
  const { width, height } = readDiagram(svg);
  const { margins } = doc.page;
  const textWidth = doc.page.width - margins.left - margins.right;
  const textHeight = doc.page.height - margins.top - margins.bottom;
  // At most 3/4 of a point per SVG pixel, the CSS ratio, so 13 px labels print at ~10 pt.
  const scale = Math.min(0.75, textWidth / width, (textHeight * FIGURE_MAX_HEIGHT_SHARE) / height);
  const drawnWidth = width * scale;
  const drawnHeight = height * scale;
  const captionHeight = 28;
  if (doc.y + drawnHeight + captionHeight > doc.page.height - margins.bottom) doc.addPage();
  const top = doc.y + 4;
  // Drawn at its own size, one SVG pixel to one point, inside a scaled coordinate system.
  doc.save();
  doc.translate(margins.left + (textWidth - drawnWidth) / 2, top).scale(scale);
  SVGtoPDF(doc, svg, 0, 0, {
    width,
    height,
    assumePt: true,
    fontCallback: (_family: string, bold: boolean) => (bold ? FONTS.bold : FONTS.regular),
  });
  doc.restore();
  doc.x = margins.left;
  doc.y = top + drawnHeight + 6;
  doc
    .font(FONTS.regular)
    .fontSize(9)
    .fillColor(COLORS.muted)
    .text(figure.caption, { align: 'center', width: textWidth });
  doc.moveDown(0.8);
}

async function main(): Promise<void> {
  // Loaded only when the whitepaper is stale: `npm start` runs this script first every time.
  const { default: PDFDocument } = await import('pdfkit');
  const blocks = parseWhitepaper(await readFile(SOURCE, 'utf8'));
  const title = blocks.find((block) => block.kind === 'title');

  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 64, bottom: 64, left: 72, right: 72 },
    info: {
      Title: title?.kind === 'title' ? title.text : site.title,
      Author: site.copyright,
      Subject: site.tagline,
    },
  });
  const done = new Promise<void>((resolve, reject) => {
    const stream = createWriteStream(TARGET);
    stream.on('finish', resolve);
    stream.on('error', reject);
    doc.pipe(stream);
  });

  for (const block of blocks) {
    switch (block.kind) {
      case 'title':
        doc.font(FONTS.bold).fontSize(22).fillColor(COLORS.heading).text(block.text);
        doc.moveDown(0.3);
        doc.fontSize(10).fillColor(COLORS.muted);
        break;
      case 'heading':
        doc.moveDown(0.6);
        doc.font(FONTS.bold).fontSize(14).fillColor(COLORS.heading).text(block.text);
        doc.moveDown(0.3);
        break;
      case 'paragraph':
        doc.fontSize(10.5).fillColor(COLORS.text);
        writeRich(doc, block.text, { align: 'justify', lineGap: 2 });
        doc.moveDown(0.6);
        break;
      case 'list':
        doc.fontSize(10.5).fillColor(COLORS.text);
        for (const item of block.items) {
          // Keep a bullet with its text: start a page when not even one line fits.
          if (doc.y + doc.currentLineHeight(true) * 2 > doc.page.height - doc.page.margins.bottom) {
            doc.addPage();
          }
          const y = doc.y;
          doc.font(FONTS.regular).text('•', doc.page.margins.left + 6, y, { lineBreak: false });
          doc.x = doc.page.margins.left + 20;
          doc.y = y;
          writeRich(doc, item, {
            width: doc.page.width - doc.page.margins.left - doc.page.margins.right - 20,
            lineGap: 2,
          });
          doc.x = doc.page.margins.left;
          doc.moveDown(0.3);
        }
        doc.moveDown(0.3);
        break;
      case 'figure':
        await drawFigure(doc, block);
        break;
    }
  }

  doc.moveDown(1);
  doc
    .font(FONTS.regular)
    .fontSize(9)
    .fillColor(COLORS.muted)
    .text(`${site.copyright}. Source: ${links.repository}`, { align: 'left' });

  doc.end();
  await done;
  console.log(
    `Whitepaper: ${path.relative(siteDir, TARGET)} written from whitepaper/whitepaper.md.`,
  );
}

export const whitepaper = {
  name: 'whitepaper',
  // The figures are drawn from the docs' diagram sources, so they are sources of the PDF too.
  sources: [
    'whitepaper/whitepaper.md',
    'tooling/assets/generate-whitepaper.ts',
    'libs/docs-model/site.ts',
    ...filesUnder('libs/diagrams'),
    ...filesUnder('docs').filter((file) => file.includes(`${path.sep}diagrams${path.sep}`)),
  ],
  packages: ['pdfkit'],
  outputs: [path.relative(siteDir, TARGET)],
};

export const generateWhitepaper = (): Promise<void> => generateIfChanged(whitepaper, main);

runWhenMain(import.meta.url, 'generate the whitepaper', generateWhitepaper);
