import { McpPlugin } from '@weft/plugin-mcp';

/**
 * Starts the shop's MCP server as a child process and offers two of its tools to the model:
 * `shop.place-order` and `shop.add`. Whatever else the server has stays out of reach.
 */
export function connectShop(
  command: string,
  args: string[],
): Promise<McpPlugin> {
  return McpPlugin.connect({
    servers: [{ name: 'shop', command, args, tools: ['place-order', 'add'] }],
    callTimeoutMs: 10_000, // a call that takes longer fails the step
    maxResultBytes: 256 * 1024, // a larger answer fails the step; reading stops 64 KiB past it
  });
}
