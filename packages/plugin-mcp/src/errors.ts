import { WeftError, type WeftErrorOptions } from '@weft/core';
import type { ErrorRegistry } from '@weft/core/internal';

// <error-codes> generated from the registry by: npm run generate:references
/**
 * The code of an error raised by `@weft/plugin-mcp`. The list is closed (a new code is
 * a change to the public API) and stable across versions, so callers branch on the code rather
 * than on messages. Each code has a section of the same name in the errors reference of
 * the documentation, with what raises it, its cause and its fix; the error’s `docsUrl` links it.
 *
 * - `WEFT_MCP_INVALID_OPTIONS`: The `McpPlugin.connect` options are not valid.
 * - `WEFT_MCP_CONNECT_FAILED`: An MCP server could not be reached, or did not list its tools, in
 *   time at start.
 * - `WEFT_MCP_UNKNOWN_TOOL`: The allow-list names a tool the server does not have.
 * - `WEFT_MCP_UNSUPPORTED_SCHEMA`: An allowed tool’s input schema cannot be turned into a
 *   validator.
 * - `WEFT_MCP_UNAVAILABLE`: The connection dropped during the call, was not back in time for it, or
 *   was closed.
 * - `WEFT_MCP_TIMEOUT`: The tool did not answer within `callTimeoutMs`, or the task ended first.
 * - `WEFT_MCP_TOOL_ERROR`: The tool answered with an error result (`isError`).
 * - `WEFT_MCP_CALL_FAILED`: The server refused the call with a protocol error, or answered with
 *   something other than a tool result.
 * - `WEFT_MCP_RESULT_TOO_LARGE`: The tool’s result was larger than `maxResultBytes`.
 */
export type McpPluginErrorCode =
  | 'WEFT_MCP_INVALID_OPTIONS'
  | 'WEFT_MCP_CONNECT_FAILED'
  | 'WEFT_MCP_UNKNOWN_TOOL'
  | 'WEFT_MCP_UNSUPPORTED_SCHEMA'
  | 'WEFT_MCP_UNAVAILABLE'
  | 'WEFT_MCP_TIMEOUT'
  | 'WEFT_MCP_TOOL_ERROR'
  | 'WEFT_MCP_CALL_FAILED'
  | 'WEFT_MCP_RESULT_TOO_LARGE';
// </error-codes>

/**
 * What the errors reference says about each code of `@weft/plugin-mcp`; the code union above
 * and the page are generated from it.
 *
 * @internal
 */
export const MCP_ERRORS = {
  packageName: '@weft/plugin-mcp',
  /** @claim errors-mcp-step-codes-after-task-end */
  intro:
    'Codes raised at start (`McpPlugin.connect`) stop the agent before it serves anything. Codes raised while a step runs are recorded as the step’s error: the review and the log see them, and the server’s own text is never part of the message. A call cut short because its task was cancelled or passed its deadline ends after the task did, so its `WEFT_MCP_TIMEOUT` is only in the log.',
  codes: {
    /** @claim errors-mcp-server-name */
    WEFT_MCP_INVALID_OPTIONS: {
      summary: 'The `McpPlugin.connect` options are not valid.',
      raisedBy: '`McpPlugin.connect`',
      raisers: [
        'plugin-mcp/src/options.ts#check',
        'plugin-mcp/src/options.ts#checkToolNames',
        'plugin-mcp/src/options.ts#resolveOptions',
      ],
      cause:
        'an option is missing, unknown (a misspelt name is refused rather than ignored) or has the wrong type or range, such as a server without a `command` or `url` or with both, a `url` that is not http or https or that holds a user name or password (fetch refuses it, and its error would quote them), `headers` fetch cannot send (such as a value with a control character other than a tab, which fetch would refuse on every call) or a NUL in a stdio server’s `command`, `args`, `env` or `cwd` (refused without quoting the value), an `env` key that is empty or holds `=` (the server would read a key `A=B` with the value `v` as a variable `A` holding `B=v`), a `name` that is not lower-case letters, digits and dashes starting with a letter, two servers with the same name, a tool named twice in an allow-list, a description for a tool outside it, a `callTimeoutMs` that is not a positive integer, or a time that becomes a timer past the longest delay a Node.js timer keeps (2147483647 ms; 5 s less for `callTimeoutMs` and `connectTimeoutMs`).',
      fix: 'the message names the option (`servers[0].tools`, `callTimeoutMs`) and what it must be.',
    },
    /** @claim errors-mcp-connect-failed-reason */
    WEFT_MCP_CONNECT_FAILED: {
      summary: 'An MCP server could not be reached, or did not list its tools, in time at start.',
      raisedBy: '`McpPlugin.connect`',
      raisers: ['plugin-mcp/src/connection.ts#McpConnection.openOnce'],
      cause:
        "the server’s command could not be started, exited, or did not answer the handshake and the tool listing within `connectTimeoutMs` (one deadline for both); or the URL refused the connection; or the listing gave an allowed tool in a form MCP does not allow, or with an `outputSchema` that cannot be compiled, or one that needs task-based execution (`execution.taskSupport: 'required'`), which the plugin cannot call. The message names the server and gives the reason the transport reported, cut to 2000 characters; a command the plugin started is ended.",
      fix: 'run the command (or open the URL) by hand and check that it speaks MCP; raise `connectTimeoutMs` for a slow server.',
    },
    /** @claim errors-mcp-unknown-tool-list */
    WEFT_MCP_UNKNOWN_TOOL: {
      summary: 'The allow-list names a tool the server does not have.',
      raisedBy: '`McpPlugin.connect`',
      raisers: ['plugin-mcp/src/mcp-plugin.ts#McpPlugin.connect'],
      cause:
        'a name in a server’s `tools` allow-list is not among the tools the server listed, usually a typo or a tool the server’s version dropped; the plugin reads at most 100 pages of a paged listing, so a tool listed past them counts as missing too.',
      fix: 'the message lists the server’s tools (the allowed ones it has and at most 50 others, with `and more` when it has more); correct the name or remove it.',
    },
    WEFT_MCP_UNSUPPORTED_SCHEMA: {
      summary: 'An allowed tool’s input schema cannot be turned into a validator.',
      raisedBy: '`McpPlugin.connect`',
      raisers: ['plugin-mcp/src/input-schema.ts#toolInput'],
      cause:
        'the JSON Schema a server gave for an allowed tool uses a construct zod’s `z.fromJSONSchema` does not support, so the plugin cannot check the model’s arguments; or it has more than 5000 parts once its `$ref`s are written out, as the model is shown it (a few definitions that each refer twice to the next grow exponentially).',
      fix: 'leave the tool out of the allow-list, or ask its authors for a plainer schema.',
    },
    /** @claim errors-mcp-unavailable-during-call */
    WEFT_MCP_UNAVAILABLE: {
      summary:
        'The connection dropped during the call, was not back in time for it, or was closed.',
      raisedBy: 'an MCP executor',
      raisers: ['plugin-mcp/src/connection.ts#McpConnection.callWithin'],
      cause:
        'the server crashed or the connection dropped while the tool ran, which fails the call at once, or the server was already disconnected and the plugin had not reconnected within the call’s deadline; or, over streamable HTTP, the server answered the call with an HTTP error status (a JSON-RPC error in the body of a `400` included), a JSON body that does not parse, or a body of a type other than JSON or an event stream, which are taken for a failed connection: the plugin reconnects. The plugin keeps reconnecting, with backoff, until it is closed; a call made after `close()` (or the runtime’s stop, which closes it) fails at once, saying so.',
      fix: 'the step fails and later calls work again once the server is back; the log has each reconnection attempt.',
    },
    /** @claim errors-mcp-timeout-cancels */
    WEFT_MCP_TIMEOUT: {
      summary: 'The tool did not answer within `callTimeoutMs`, or the task ended first.',
      raisedBy: 'an MCP executor',
      raisers: ['plugin-mcp/src/connection.ts#McpConnection.timedOut'],
      cause:
        'the tool did not answer within `callTimeoutMs`, or the task was cancelled or ran past `taskTimeoutMs`. The call is cancelled on the server (`notifications/cancelled`).',
      fix: 'raise `callTimeoutMs` (and the runtime’s `taskTimeoutMs`) for slow tools, or fix the tool that hangs.',
    },
    /** @claim errors-mcp-tool-error-log */
    WEFT_MCP_TOOL_ERROR: {
      summary: 'The tool answered with an error result (`isError`).',
      raisedBy: 'an MCP executor',
      raisers: ['plugin-mcp/src/tool-executor.ts#toPluginResult'],
      cause:
        'the tool ran and reported failure. Its text is not put into the step’s error, which the model reads as part of the plan; its first 500 characters are in the step’s data, marked as untrusted, and its first 2000 in the log under the error id (`toolError` of the `MCP tool reported an error` line).',
      fix: 'search the log for the error id to read what the tool said.',
    },
    /** @claim errors-mcp-call-failed-output-check */
    WEFT_MCP_CALL_FAILED: {
      summary:
        'The server refused the call with a protocol error, or answered with something other than a tool result.',
      raisedBy: 'an MCP executor',
      raisers: ['plugin-mcp/src/connection.ts#McpConnection.callWithin'],
      cause:
        'the server answered the `tools/call` request with a JSON-RPC error, such as invalid parameters or an unknown tool (over streamable HTTP, one sent with a success status: with an error status it is [WEFT_MCP_UNAVAILABLE](#weft_mcp_unavailable)); or its answer broke the tool’s own `outputSchema`, which the SDK’s client refuses with `-32602` (`-32600` when `structuredContent` is missing), as the plugin has it refuse an answer it cannot check against that schema within 500 ms. The step’s error has the JSON-RPC code, and the message is in the log under the error id. An answer that is not a tool result at all (its `content` not a list, say), which the SDK’s client refuses before the plugin sees it, fails the same way, without a code: the log has what is wrong with it; over streamable HTTP, only when it comes as a JSON body, since one whose `result` is not an object, sent as an event of a stream, is not taken for the call’s answer, and the call ends with [WEFT_MCP_TIMEOUT](#weft_mcp_timeout). Either way the connection is kept.',
      fix: 'search the log for the error id; an unknown tool usually means the server changed since the plugin connected.',
    },
    /** @claim errors-mcp-too-large-connection */
    WEFT_MCP_RESULT_TOO_LARGE: {
      summary: 'The tool’s result was larger than `maxResultBytes`.',
      raisedBy: 'an MCP executor',
      raisers: [
        'plugin-mcp/src/connection.ts#McpConnection.callWithin',
        'plugin-mcp/src/tool-executor.ts#toPluginResult',
      ],
      cause:
        'the step’s data, the tool’s answer as recorded with the call’s arguments, measured as JSON, was larger than `maxResultBytes` (1 MiB unless set). An answer more than 64 KiB over the limit (the room left for the message around the result) is cut off rather than held in memory, so the connection is closed and opened again (a new process over stdio, a new session over HTTP); a smaller excess is read whole and refused on the same connection.',
      fix: 'ask the tool for less (a page, a range), or raise `maxResultBytes` if the agent really needs results that large.',
    },
  },
} as const satisfies ErrorRegistry<McpPluginErrorCode>;

/**
 * The error `@weft/plugin-mcp` throws on purpose: a {@link WeftError} with a
 * {@link McpPluginErrorCode}. Recognise it with `WeftError.is(error, 'WEFT_MCP_…')`.
 */
export class McpPluginError extends WeftError<McpPluginErrorCode> {
  /**
   * @param code - What went wrong.
   * @param message - What went wrong and how to fix it, starting with `McpPlugin:`.
   * @param options - The underlying error, and the HTTP status and exposure when it has them.
   */
  constructor(code: McpPluginErrorCode, message: string, options: WeftErrorOptions = {}) {
    super(code, message, options);
    this.name = 'McpPluginError';
  }
}
