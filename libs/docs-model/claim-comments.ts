/**
 * Claim ids in the docs' Markdown: `<!-- claim: id -->` or `<!-- claim: id untested: reason -->`
 * right after the sentence they mark ("Every claim has a test" in the contributing guide).
 * tests/claims/ reads them to tie each sentence to the test that checks it; the site drops them
 * before it compiles a page (docusaurus.config.ts), since no reader sees them.
 */

/** A claim id's comment: the id is group 1, an `untested:` reason group 2. */
export const MARKDOWN_CLAIM = /<!--\s*claim:\s*(\S+?)(?:\s+untested:\s*([\s\S]*?))?\s*-->/g;

/**
 * The text of a Markdown page with what is not prose blanked out (front matter, fenced code,
 * inline code spans), same length and same lines, so an id shown as an example in code is not
 * read as a claim and offsets still point into the original.
 */
export function proseOnly(markdown: string, keepInlineCode = false): string {
  const blank = (text: string) => text.replace(/[^\n]/g, ' ');
  let out = markdown.replace(/^---\n[\s\S]*?\n---\n/, blank);
  const lines = out.split('\n');
  let fence: string | undefined;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const mark = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (fence !== undefined) {
      if (mark !== undefined && mark.startsWith(fence)) fence = undefined;
      lines[index] = blank(line);
    } else if (mark !== undefined) {
      fence = mark;
      lines[index] = blank(line);
    }
  }
  out = lines.join('\n');
  if (keepInlineCode) return out;
  return out.replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, blank);
}

/**
 * The page without its claim ids' comments; an id shown in code stays, as the page shows it.
 * Everything else, the spaces around a comment included, is left as it was, so the compiled
 * page is the one the Markdown parser makes when it drops the comments itself, without the
 * parser reading them: they are about a seventh of the docs' text.
 */
export function withoutClaimComments(markdown: string): string {
  if (!markdown.includes('claim:')) return markdown;
  let out = '';
  let last = 0;
  for (const match of proseOnly(markdown).matchAll(MARKDOWN_CLAIM)) {
    out += markdown.slice(last, match.index);
    last = match.index + match[0].length;
  }
  return out + markdown.slice(last);
}

/** The claim ids at the end of a test's title, `[claim:id]`, each with the space before it. */
const TITLE_CLAIM_TAGS = /(?:[ \t]+\[claim:[^\]\s]*\])+/g;

/**
 * A sample's code as a page shows it: without the claim ids its tests' titles carry, which are
 * for tests/claims/, not for readers who copy the test. The file keeps them, so the claims
 * checker still finds each id's test, and the code shown differs from the file that runs only
 * in those titles.
 */
export function withoutTitleClaimTags(code: string): string {
  if (!code.includes('[claim:')) return code;
  return code.replace(TITLE_CLAIM_TAGS, '');
}
