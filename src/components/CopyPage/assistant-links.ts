/**
 * The links beside "Copy page" that take a page to an AI assistant: a new ChatGPT or Claude
 * chat whose prompt points at the page's Markdown copy, and Cursor's set-up of the docs
 * MCP server (`@weft/mcp-docs`). Plain links built from short strings: they ride in every docs
 * page's first-load script (tests/build/javascript-budget.test.ts), and no script runs on click.
 */

/** The prompt a new chat opens with; the assistant fetches the page itself. */
export function assistantPrompt(markdownUrl: string): string {
  return `Read ${markdownUrl} and answer my questions about Weft from it.`;
}

/** Each chat's label and the start of its link, which takes the prompt as `q`. */
export const CHAT_LINKS = [
  ['Open in ChatGPT', 'https://chatgpt.com/?q='],
  ['Open in Claude', 'https://claude.ai/new?q='],
] as const;

/** A new chat at `start` (from {@link CHAT_LINKS}) about the page at `markdownUrl`. */
export function chatUrl(start: string, markdownUrl: string): string {
  return start + encodeURIComponent(assistantPrompt(markdownUrl));
}

/**
 * Cursor's install link for the docs server. `config` is the base64 of the server entry of
 * examples/mcp-docs/once-published.mcp.json, `{"command":"npx","args":["-y","@weft/mcp-docs"]}`,
 * written out so the page carries no encoder; a unit test holds the two together.
 */
export const CURSOR_INSTALL_URL =
  'cursor://anysphere.cursor-deeplink/mcp/install?name=weft-docs&config=eyJjb21tYW5kIjoibnB4IiwiYXJncyI6WyIteSIsIkB3ZWZ0L21jcC1kb2NzIl19';

/**
 * Whether `@weft/mcp-docs` is on the npm registry (released with the other packages). Until it
 * is, the install link's `npx` command answers E404, and a one-click install of a server that
 * cannot start helps no one: the bar links to the Cursor set-up from a clone instead. The
 * catalogue's PACKAGES_ON_NPM says it for every package; it is written out here so the page's
 * script carries none of the catalogue's code, and a unit test holds the two equal.
 */
export const MCP_DOCS_ON_NPM = false;

/** The Cursor set-up of the AI-assistants guide, which starts the server from a clone. */
export const CURSOR_SETUP_PATH = '/docs/guides/ai-assistants/#cursor';

/** The bar's Cursor link: the one-click install once the package is published, the set-up until then. */
export const CURSOR_LINK = MCP_DOCS_ON_NPM
  ? { label: 'Add docs to Cursor', href: CURSOR_INSTALL_URL, internal: false }
  : { label: 'Set up docs in Cursor', href: CURSOR_SETUP_PATH, internal: true };
