/** The pieces every rendered diagram shares: escaping, and the accessible SVG wrapper. */

/**
 * Escapes text for use in SVG content or attribute values.
 *
 * @param text - Raw text.
 * @returns The text with `&`, `<`, `>` and `"` escaped.
 */
export function escapeXml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/**
 * Wraps drawn content in a standalone SVG document that carries its own text alternative
 * (`role="img"`, `<title>`, `<desc>`), so it stays accessible however a page includes it.
 *
 * @param drawing - Size, text alternative, background, font and the drawn elements.
 * @returns The SVG document.
 */
export function svgDocument(drawing: {
  width: number;
  height: number;
  title: string;
  description: string;
  background: string;
  fontFamily: string;
  fontSize: number;
  content: string;
}): string {
  const { width, height, title, description, background } = drawing;
  const backdrop =
    background === 'none' ? '' : `<rect width="100%" height="100%" fill="${background}"/>\n`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="diagram-title diagram-desc" font-family="${escapeXml(drawing.fontFamily)}" font-size="${drawing.fontSize}">`,
    `<title id="diagram-title">${escapeXml(title)}</title>`,
    `<desc id="diagram-desc">${escapeXml(description)}</desc>`,
    `${backdrop}${drawing.content}`,
    '</svg>',
    '',
  ].join('\n');
}

/**
 * Reads the size and text alternative of a rendered diagram.
 *
 * @param svg - An SVG document made by {@link svgDocument} or the Graphviz renderer.
 * @returns Width and height in pixels, title and description (empty strings when absent).
 */
export function readDiagram(svg: string): {
  width: number;
  height: number;
  title: string;
  description: string;
} {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
  const number = (name: string): number =>
    Number(new RegExp(`\\b${name}="([\\d.]+)`).exec(root)?.[1] ?? 0);
  const element = (name: string): string => {
    const match = new RegExp(`<${name}\\b[^>]*>([^<]*)</${name}>`).exec(svg);
    return unescapeXml(match?.[1] ?? '').trim();
  };
  return {
    width: number('width'),
    height: number('height'),
    title: element('title'),
    description: element('desc'),
  };
}

function unescapeXml(text: string): string {
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#45;', '-')
    .replaceAll('&amp;', '&');
}
