/**
 * The highlighted markup of the code blocks the browser has already shown, so a block that
 * mounts again (the first page, visited again after a client-side navigation) gets its markup
 * back instead of loading Prism to highlight the same code again. The markup comes from this
 * site's own server render.
 *
 * What is kept is each block's <code> element, which stays readable once React has taken it out
 * of the page; its HTML is read only when a block needs it. Reading it for every block as the
 * page hydrated cost 20 ms of main-thread time on Getting started (4,000 token elements, 4x CPU
 * slowdown), for markup that most visits never use.
 */
import type { CodeBlockMetadata } from '@docusaurus/theme-common/internal';

const codeByBlock = new Map<string, Element>();

/** Everything that shapes a block's markup: the code, its language and its line options. */
export function renderedBlockKey(metadata: CodeBlockMetadata): string {
  const { code, language, lineNumbersStart, lineClassNames } = metadata;
  return JSON.stringify([language, code, lineNumbersStart ?? null, lineClassNames]);
}

/** Keeps the <code> element the server rendered for this block. */
export function rememberRenderedCode(key: string, code: Element): void {
  codeByBlock.set(key, code);
}

export function rememberedMarkup(key: string): string | undefined {
  return codeByBlock.get(key)?.innerHTML;
}
