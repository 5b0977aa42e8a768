/**
 * The MCP server: the tools and the page resources over one bundle. Transports are chosen by
 * the caller (`cli.ts`): stdio for an assistant that starts the server, HTTP as an option.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { logToStderr, type FailureLog } from './answers.js';
import type { DocsBundle } from './bundle.js';
import { registerPageResources } from './resources.js';
import { registerTools } from './tools.js';

/** The name the server gives in the MCP handshake (`serverInfo.name`). */
export const SERVER_NAME = 'weft-docs';

/**
 * Creates a server answering from `bundle`. Connect it to a transport with `server.connect`.
 *
 * @param bundle - The documentation, from {@link loadDocsBundle}.
 * @param log - Where unexpected failures are written, with their id; stderr by default.
 * @claim tsdoc-docs-server-log
 * @claim tsdoc-docs-server-connect
 */
export function createDocsServer(bundle: DocsBundle, log: FailureLog = logToStderr): McpServer {
  const server = new McpServer(
    { name: SERVER_NAME, title: 'Weft documentation', version: bundle.version },
    {
      instructions:
        `The Weft agent framework's documentation, version ${bundle.version}. Use search_docs to find pages, ` +
        'read_page to read one, get_api_symbol for an export of any first-party package, explain_error for a WEFT_ error code ' +
        'and list_plugins for the first-party packages.',
    },
  );
  registerTools(server, bundle, log);
  registerPageResources(server, bundle);
  return server;
}
