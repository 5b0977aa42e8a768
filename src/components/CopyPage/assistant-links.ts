/**
 * The links beside "Copy page" that take a page to an AI assistant: a new ChatGPT or Claude
 * chat whose prompt points at the page's Markdown copy, and Cursor's install link for the docs
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
 * examples/mcp-docs/cursor.mcp.json, `{"command":"npx","args":["-y","@weft/mcp-docs"]}`,
 * written out so the page carries no encoder; a unit test holds the two together.
 */
export const CURSOR_INSTALL_URL =
  'cursor://anysphere.cursor-deeplink/mcp/install?name=weft-docs&config=eyJjb21tYW5kIjoibnB4IiwiYXJncyI6WyIteSIsIkB3ZWZ0L21jcC1kb2NzIl19';
