/**
 * Replaces the generated part of a hand-written page: everything from one heading up to (not
 * including) another, so the prose around it stays the author's and the rest is the code's.
 */

/**
 * @param page - The page's Markdown.
 * @param startHeading - The first line of the generated part, such as `## Core codes`.
 * @param endHeading - The heading that follows the generated part.
 * @param generated - The new generated part, starting with `startHeading`.
 * @returns The page with the part replaced.
 */
export function replaceBetweenHeadings(
  page: string,
  startHeading: string,
  endHeading: string,
  generated: string,
): string {
  const start = lineIndex(page, startHeading);
  const end = lineIndex(page, endHeading);
  if (end < start) throw new Error(`"${endHeading}" comes before "${startHeading}"`);
  return `${page.slice(0, start)}${generated.trimEnd()}\n\n${page.slice(end)}`;
}

function lineIndex(page: string, line: string): number {
  const index = page.startsWith(`${line}\n`) ? 0 : page.indexOf(`\n${line}\n`) + 1;
  if (index <= 0 && !page.startsWith(`${line}\n`)) {
    throw new Error(`the page has no line "${line}"; the generated part is bounded by it`);
  }
  return index;
}

/** Replaces the lines between two marker lines of a source file, keeping the markers. */
export function replaceBetweenMarkers(
  text: string,
  startMarker: string,
  endMarker: string,
  generated: string,
  file: string,
): string {
  const start = text.indexOf(startMarker);
  const end = text.indexOf(endMarker);
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`${file} needs the lines "${startMarker}" and "${endMarker}" around its codes`);
  }
  const afterStart = text.indexOf('\n', start) + 1;
  return `${text.slice(0, afterStart)}${generated.trimEnd()}\n${text.slice(end)}`;
}
