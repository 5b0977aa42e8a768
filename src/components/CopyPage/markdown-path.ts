/**
 * Where the Markdown copy of a page is served (written at build time by
 * @signalwire/docusaurus-plugin-llms-txt, see src/plugins/markdown-copies): the route without
 * its trailing slash, plus ".md". "/docs/getting-started/" → "/docs/getting-started.md".
 */
export function markdownCopyPath(pathname: string): string {
  const route = pathname.replace(/\/+$/, '');
  return route ? `${route}.md` : '/index.md';
}
