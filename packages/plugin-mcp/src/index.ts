/**
 * `@weft/plugin-mcp`: the tools of MCP servers as executors of a Weft agent.
 *
 * @packageDocumentation
 */
export { McpPlugin } from './mcp-plugin.js';
export type {
  McpHttpServerOptions,
  McpLogger,
  McpPluginOptions,
  McpServerOptions,
  McpStdioServerOptions,
} from './options.js';
export { UNTRUSTED_NOTICE, type McpContentItem, type McpToolOutput } from './tool-executor.js';
export { McpPluginError, type McpPluginErrorCode } from './errors.js';
