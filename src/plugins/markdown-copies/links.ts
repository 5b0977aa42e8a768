/**
 * With trailing-slash routes the converter points internal links at "/api/classes/Runtime/.md",
 * while the copy is served at "/api/classes/Runtime.md" (links in tables too, which it writes
 * as text, so this is done on the written files).
 */
export function withoutTrailingSlashBeforeMd(markdown: string): string {
  return markdown.replace(/\]\((\/[^)\s]*?)\/\.md(?=[)#?])/g, ']($1.md');
}
