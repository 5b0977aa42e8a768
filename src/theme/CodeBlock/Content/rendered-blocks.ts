/**
 * The highlighted markup of the code blocks the browser has already shown, so a block that
 * mounts again (Docusaurus's Tabs remount once after hydration; a page visited before) gets
 * its markup back instead of loading Prism to highlight the same code again. The markup comes
 * from this site's own server render, captured from the page after hydration.
 */
import type { CodeBlockMetadata } from '@docusaurus/theme-common/internal';

const markupByBlock = new Map<string, string>();

/** Everything that shapes a block's markup: the code, its language and its line options. */
export function renderedBlockKey(metadata: CodeBlockMetadata): string {
  const { code, language, lineNumbersStart, lineClassNames } = metadata;
  return JSON.stringify([language, code, lineNumbersStart ?? null, lineClassNames]);
}

export function rememberMarkup(key: string, markup: string): void {
  markupByBlock.set(key, markup);
}

export function rememberedMarkup(key: string): string | undefined {
  return markupByBlock.get(key);
}
