/**
 * The links beside "Copy page" that take a page to an AI assistant: a new ChatGPT or Claude
 * chat whose prompt points at the page's Markdown copy, and Cursor's install link for the docs
 * MCP server (`@weft/mcp-docs`). Plain links, built from strings: no script runs on click.
 */

/** The prompt a new chat opens with; the assistant fetches the page itself. */
export function assistantPrompt(markdownUrl: string): string {
  return `Read ${markdownUrl} (a page of the Weft documentation) so that you can answer my questions about it.`;
}

export function chatGptUrl(markdownUrl: string): string {
  return `https://chatgpt.com/?q=${encodeURIComponent(assistantPrompt(markdownUrl))}`;
}

export function claudeUrl(markdownUrl: string): string {
  return `https://claude.ai/new?q=${encodeURIComponent(assistantPrompt(markdownUrl))}`;
}

/**
 * Cursor's install link for the docs server. `config` is the base64 of the server entry of
 * examples/mcp-docs/cursor.mcp.json, `{"command":"npx","args":["-y","@weft/mcp-docs"]}`,
 * written out so the page carries no encoder; a unit test holds the two together.
 */
export const CURSOR_INSTALL_URL =
  'cursor://anysphere.cursor-deeplink/mcp/install?name=weft-docs&config=eyJjb21tYW5kIjoibnB4IiwiYXJncyI6WyIteSIsIkB3ZWZ0L21jcC1kb2NzIl19';
