/**
 * The plugin: connects to the configured MCP servers, checks the allow-lists against the tools
 * they list, and offers each allowed tool as an executor.
 */
import { Plugin, type Executor, type Runtime } from '@weft/core';
import { MAX_TOOL_PAGES, McpConnection } from './connection.js';
import { McpPluginError } from './errors.js';
import {
  resolveOptions,
  type McpLogger,
  type McpPluginOptions,
  type ResolvedMcpOptions,
} from './options.js';
import { toolExecutor } from './tool-executor.js';

const SILENT: McpLogger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * The tools of one or more MCP servers as executors of a Weft plugin. Create it with
 * {@link McpPlugin.connect}, which connects to every server before the runtime is built, so the
 * runtime checks the executors like any other plugin's; the runtime's `stop()` closes it.
 *
 * @example
 * ```ts
 * import { McpPlugin } from '@weft/plugin-mcp';
 *
 * async function filesystemTools(root: string): Promise<McpPlugin> {
 *   return McpPlugin.connect({
 *     servers: [
 *       {
 *         name: 'files',
 *         command: 'npx',
 *         args: ['-y', '@modelcontextprotocol/server-filesystem', root],
 *         tools: ['read_text_file', 'list_directory'],
 *       },
 *     ],
 *     callTimeoutMs: 10_000,
 *   });
 * }
 * ```
 */
export class McpPlugin extends Plugin {
  readonly id: string;
  readonly description: string;
  override readonly executors: readonly Executor[];

  private constructor(
    options: ResolvedMcpOptions,
    private readonly connections: readonly McpConnection[],
    executors: readonly Executor[],
    /** Shared with the connections and executors, so that init can hand them the runtime's logger. */
    private readonly logs: { logger: McpLogger },
  ) {
    super();
    this.id = options.id;
    this.description =
      options.description ??
      `Tools of the MCP servers ${connections.map((connection) => `"${connection.server.name}"`).join(', ')}.`;
    this.executors = executors;
  }

  /**
   * Connects to every server, lists its tools and builds one executor per allowed tool, named
   * `<server>.<tool>`. Fails, closing whatever it opened, when any server cannot be reached in
   * `connectTimeoutMs` or an allow-list names a tool its server does not have.
   *
   * @param options - Servers, allow-lists, deadlines and limits.
   * @returns The plugin, to pass to `Runtime.init`.
   * @throws {@link McpPluginError} `WEFT_MCP_INVALID_OPTIONS`, `WEFT_MCP_CONNECT_FAILED`,
   * `WEFT_MCP_UNKNOWN_TOOL` or `WEFT_MCP_UNSUPPORTED_SCHEMA`.
   */
  static async connect(options: McpPluginOptions): Promise<McpPlugin> {
    const resolved = resolveOptions(options);
    const holder: { logger: McpLogger } = { logger: options.logger ?? SILENT };
    const settings = { options: resolved, logger: () => holder.logger };
    const connections = resolved.servers.map((server) => new McpConnection(server, settings));
    try {
      const listed = await Promise.all(connections.map((connection) => connection.open()));
      const executors = connections.flatMap((connection, index) => {
        const server = connection.server;
        const { tools = [], others = [], more = false } = listed[index] ?? {};
        return server.tools.map((name) => {
          const tool = tools.find((candidate) => candidate.name === name);
          if (!tool) {
            const names = [...tools.map((candidate) => candidate.name), ...others];
            throw new McpPluginError(
              'WEFT_MCP_UNKNOWN_TOOL',
              `McpPlugin: server "${server.name}" has no tool "${name}" (from its tools allow-list); it has ${names.map((known) => `"${known}"`).join(', ') || 'none'}${more ? ` and more (the listing is read up to ${MAX_TOOL_PAGES} pages, and names past ${names.length} are not kept)` : ''}.`,
            );
          }
          return toolExecutor(server.name, tool, {
            connection,
            maxResultBytes: resolved.maxResultBytes,
            description: server.descriptions?.[name],
            logger: () => holder.logger,
          });
        });
      });
      return new McpPlugin(resolved, connections, executors, holder);
    } catch (error) {
      await Promise.all(connections.map((connection) => connection.close()));
      throw error;
    }
  }

  /** Logs through the runtime's logger from now on. */
  override async init(runtime: Runtime): Promise<void> {
    this.logs.logger = runtime.logger.child({ plugin: this.id });
  }

  /** Closes every connection and ends the servers started over stdio. */
  override async shutdown(): Promise<void> {
    await this.close();
  }

  /** Closes every connection and ends the servers started over stdio; safe to call twice. */
  async close(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.close()));
  }
}
