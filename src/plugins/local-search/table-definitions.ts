/**
 * The names a built page's tables define (an option such as `maxSteps`, written as the first
 * cell of a row), with the section each sits in. The search plugin's index keeps only a
 * section's text, in which a table row is words among words, so the build reads them from the
 * HTML and adds them to the index file; the shared ranking then puts a section that defines a
 * name first when a reader searches for exactly that name (tableDefinitions in @weft/mcp-docs's
 * search does the same from Markdown).
 */
/** One defined name: `n` the name, `u` the page's path, `h` its section's hash (`#anchor`). */
export interface TableDefinition {
  n: string;
  u: string;
  h: string;
}

/** A section heading as the index splits pages (h2, h3), with its id quoted or not. */
const HEADING = /<h[23]\b[^>]*?\bid=(?:"([^"]*)"|([^\s>]+))/g;
/**
 * A table row whose first cell is one code span. The build's HTML leaves out the closing tags
 * it may (`</td>`, `</tr>`), so the cell ends at whichever comes next.
 */
const DEFINING_ROW =
  /<tr\b[^>]*>\s*<td\b[^>]*>\s*<code\b[^>]*>([^<]+)<\/code>(?=\s*(?:<\/td>|<td\b|<\/tr>|<tr\b|<\/tbody>|<\/table>))/g;

/**
 * The names a built page's article defines in its tables, each with the hash of the section it
 * is in (empty before the first heading).
 *
 * @param html - The page's HTML as the build wrote it.
 */
export function tableDefinitionsOfHtml(html: string): { name: string; hash: string }[] {
  const start = html.indexOf('<article');
  const article = start < 0 ? '' : html.slice(start, html.indexOf('</article>', start));
  const marks = [
    ...[...article.matchAll(HEADING)].map((match) => ({
      at: match.index,
      hash: `#${match[1] ?? match[2] ?? ''}`,
    })),
    ...[...article.matchAll(DEFINING_ROW)].map((match) => ({
      at: match.index,
      name: match[1]!.trim().split('.').pop()!,
    })),
  ].sort((a, b) => a.at - b.at);
  const found: { name: string; hash: string }[] = [];
  let hash = '';
  for (const mark of marks) {
    if ('hash' in mark) {
      hash = mark.hash;
    } else {
      found.push({ name: mark.name, hash });
    }
  }
  return found;
}
