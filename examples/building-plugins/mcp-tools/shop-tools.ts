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
    // Step data (the answer with its arguments, as JSON) past this fails the step;
    // reading an answer stops 64 KiB past it.
    maxResultBytes: 256 * 1024,
  });
}
