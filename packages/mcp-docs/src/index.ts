/**
 * `@weft/mcp-docs`: an MCP server answering from the Weft documentation of its own version.
 * Most people run the `weft-docs-mcp` command; these exports let a program embed the server.
 *
 * @packageDocumentation
 */
export { createDocsServer, SERVER_NAME } from './server.js';
export { BoundedStdioTransport, MAX_MESSAGE_BYTES, type BoundedStdioOptions } from './stdio.js';
export {
  startHttpServer,
  MCP_HTTP_PATH,
  REQUEST_DEADLINE_MS,
  REQUESTS_PER_SECOND,
  CONNECTIONS_PER_CLIENT,
  type HttpOptions,
  type RunningHttpServer,
} from './http.js';
export {
  loadDocsBundle,
  DEFAULT_BUNDLE_FILE,
  BUNDLE_FORMAT,
  type DocsBundle,
  type DocsPage,
  type ApiSymbol,
  type ApiMember,
  type ErrorCodeDoc,
  type CataloguePackage,
} from './bundle.js';
export {
  DocsSearch,
  type PageSection,
  type RankedSection,
  type SearchablePage,
  type SearchHit,
} from './search.js';
export { resourceUri, RESOURCE_PREFIX } from './resources.js';
export { DocsServerError, type DocsServerErrorCode } from './errors.js';
