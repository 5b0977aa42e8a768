/**
 * The links llms.txt adds after its index of pages. Assistants read llms.txt to learn how to read
 * the docs, and an assistant may run the command it names: until the packages are on the npm
 * registry, `npx -y @weft/mcp-docs` answers E404, so the link names the route from a clone.
 */
import { PACKAGES_ON_NPM } from '@weft-internal/docs-model/catalogue/model';

/** An entry of llms.txt's optional links, as @signalwire/docusaurus-plugin-llms-txt takes it. */
export interface LlmsTxtLink {
  title: string;
  url: string;
  description: string;
}

const TOOLS = 'search_docs, read_page, get_api_symbol, explain_error and list_plugins';

/**
 * The link to the docs MCP server's guide, saying how to start the server today.
 * @param onNpm - Whether the packages are on the npm registry; {@link PACKAGES_ON_NPM} by default.
 */
export function mcpDocsLink(onNpm: boolean = PACKAGES_ON_NPM): LlmsTxtLink {
  return {
    title: 'Weft docs MCP server (@weft/mcp-docs)',
    url: '/docs/guides/ai-assistants.md',
    description: onNpm
      ? `run \`npx -y @weft/mcp-docs\` to give an AI assistant these docs of your version over MCP, offline: ${TOOLS}.`
      : `build it in a clone of the repository, as the guide shows, to give an AI assistant these docs over MCP, offline: ${TOOLS}. It is not on the npm registry yet: \`npx -y @weft/mcp-docs\` answers E404.`,
  };
}
