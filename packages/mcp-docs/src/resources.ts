/**
 * Every page as an MCP resource, so a client can list the docs and attach a page without a
 * tool call. The URI is the page's path under a scheme of our own (`weft-docs://pages/…`).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { DocsBundle } from './bundle.js';

/** What every page resource's URI starts with; the page's path follows. */
export const RESOURCE_PREFIX = 'weft-docs://pages';

/**
 * The resource URI of a page path: `/docs/guides/production/` → `weft-docs://pages/docs/guides/production/`.
 * @claim tsdoc-docs-resource-uri
 */
export function resourceUri(pagePath: string): string {
  return `${RESOURCE_PREFIX}${pagePath}`;
}

/** Registers every page of `bundle` on `server` as a Markdown resource at {@link resourceUri}. */
export function registerPageResources(server: McpServer, bundle: DocsBundle): void {
  for (const page of bundle.pages) {
    const uri = resourceUri(page.path);
    server.registerResource(
      page.path,
      uri,
      {
        title: page.title,
        description: page.description || `${page.section}: ${page.title}`,
        mimeType: 'text/markdown',
      },
      () => ({ contents: [{ uri, mimeType: 'text/markdown', text: page.markdown }] }),
    );
  }
}
