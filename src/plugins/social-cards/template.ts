/**
 * The social card drawing: an SVG of the page title and its section in the site's colours,
 * turned into a PNG by sharp (librsvg), so no browser is needed at build time.
 */
import { SOCIAL_CARD_HEIGHT, SOCIAL_CARD_WIDTH } from './card-path';

export interface CardText {
  /** The page title, without the " | Weft" suffix. */
  title: string;
  /** The part of the site the page belongs to, e.g. "Documentation". */
  section: string;
  siteTitle: string;
  /** The site's address without the scheme, shown in the footer of the card. */
  siteHost: string;
}

/** Colours of src/css/custom.css. */
const colours = {
  background: '#111412',
  surface: '#181c19',
  border: '#2b322d',
  primary: '#3ddc84',
  heading: '#f4f7f5',
  muted: '#9aa59e',
} as const;

const TITLE_FONT_SIZE = 68;
/** Width the title may take: the card less its 80 px margins. */
const TITLE_MAX_WIDTH = 1040;
/** Mean advance of a bold sans-serif character, in ems, with a margin (measured on DejaVu Sans). */
const BOLD_CHAR_EM = 0.64;
/** Characters per title line at that size in a sans-serif face, with a margin. */
const TITLE_LINE_CHARS = 28;
const TITLE_MAX_LINES = 3;

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** Greedy word wrap; a last line that does not fit ends with an ellipsis. */
export function wrapTitle(title: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of title.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (candidate.length <= TITLE_LINE_CHARS || !line) {
      line = candidate;
    } else {
      lines.push(line);
      line = word;
    }
  }
  if (line) {
    lines.push(line);
  }
  if (lines.length <= TITLE_MAX_LINES) {
    return lines.map((text) => (text.length > TITLE_LINE_CHARS ? clip(text) : text));
  }
  const kept = lines.slice(0, TITLE_MAX_LINES);
  kept[TITLE_MAX_LINES - 1] = clip(`${kept[TITLE_MAX_LINES - 1]} …`);
  return kept;
}

function clip(text: string): string {
  return text.length > TITLE_LINE_CHARS ? `${text.slice(0, TITLE_LINE_CHARS - 1)}…` : text;
}

/** The woven mark of static/img/logo.svg, simplified to its strands. */
function logoMark(x: number, y: number, size: number): string {
  const unit = size / 512;
  const strand = (rx: number, ry: number, w: number, h: number, fill: string) =>
    `<rect x="${x + rx * unit}" y="${y + ry * unit}" width="${w * unit}" height="${h * unit}" rx="${24 * unit}" fill="${fill}"/>`;
  const vertical = [136, 232, 328].map((left) => strand(left, 76, 48, 360, '#8ee6b4'));
  const horizontal = [136, 232, 328].map((top) => strand(76, top, 360, 48, '#2fbf71'));
  return [
    `<rect x="${x}" y="${y}" width="${size}" height="${size}" rx="${112 * unit}" fill="${colours.surface}"/>`,
    ...horizontal,
    ...vertical,
  ].join('');
}

export function cardSvg({ title, section, siteTitle, siteHost }: CardText): string {
  const lines = wrapTitle(title);
  // One long identifier ("PipelineModificationContext") cannot wrap: shrink the title to fit.
  const longest = Math.max(...lines.map((line) => line.length));
  const fontSize = Math.min(
    TITLE_FONT_SIZE,
    Math.floor(TITLE_MAX_WIDTH / (longest * BOLD_CHAR_EM)),
  );
  const lineHeight = fontSize * 1.18;
  // Below the logo row: the section label, then up to three title lines above the rule at 520.
  const sectionBaseline = 225;
  const titleTop = sectionBaseline + 22 + fontSize;
  const font = `font-family="DejaVu Sans, Noto Sans, Liberation Sans, Arial, sans-serif"`;
  const titleLines = lines
    .map(
      (text, index) =>
        `<text x="80" y="${titleTop + index * lineHeight}" ${font} font-size="${fontSize}" font-weight="700" fill="${colours.heading}">${escapeXml(text)}</text>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SOCIAL_CARD_WIDTH}" height="${SOCIAL_CARD_HEIGHT}" viewBox="0 0 ${SOCIAL_CARD_WIDTH} ${SOCIAL_CARD_HEIGHT}">
<rect width="100%" height="100%" fill="${colours.background}"/>
<rect x="0" y="0" width="${SOCIAL_CARD_WIDTH}" height="10" fill="${colours.primary}"/>
${logoMark(80, 64, 72)}
<text x="172" y="113" ${font} font-size="40" font-weight="700" fill="${colours.heading}">${escapeXml(siteTitle)}</text>
<text x="80" y="${sectionBaseline}" ${font} font-size="30" font-weight="700" letter-spacing="2" fill="${colours.primary}">${escapeXml(section.toUpperCase())}</text>
${titleLines}
<rect x="80" y="520" width="${SOCIAL_CARD_WIDTH - 160}" height="2" fill="${colours.border}"/>
<text x="80" y="570" ${font} font-size="28" fill="${colours.muted}">${escapeXml(siteHost)}</text>
</svg>`;
}
