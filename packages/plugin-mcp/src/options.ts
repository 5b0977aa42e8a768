/**
 * The options of `McpPlugin.connect`, checked with zod so that a bad option fails at start with
 * a message that names it.
 */
import { MAX_TIMER_MS, TIMER_LIMIT_RULE } from '@weft/core/internal';
import { z } from 'zod';
import { McpPluginError } from './errors.js';

/** Letters, digits and dashes, starting with a letter: a server name becomes part of action names. */
const NAME_PATTERN = /^[a-z][a-z0-9-]*$/;

// The messages follow the option's path, which the error puts first.
const positiveInteger = () => z.number().int('must be a whole number').positive('must be positive');

/**
 * How much longer than the call's own deadline (`callTimeoutMs` or `connectTimeoutMs`, whichever
 * is longer) a streamable HTTP server's answer, body included, may take before it is cut.
 */
export const ANSWER_GRACE_MS = 5_000;

/**
 * A delay that becomes a timer, which Node.js runs after 1 ms when it is longer than
 * `MAX_TIMER_MS`; `grace` is what the plugin adds to it for a timer of its own.
 */
const timerMs = (grace = 0) =>
  positiveInteger().max(
    MAX_TIMER_MS - grace,
    grace === 0
      ? `must be ${TIMER_LIMIT_RULE}`
      : `must be at most ${MAX_TIMER_MS - grace} ms: an HTTP server's answer may take ${grace / 1000} s more, and ${MAX_TIMER_MS} ms is the longest delay a Node.js timer keeps`,
  );

const allowList = z
  .array(z.string().min(1, 'a tool name must not be empty'))
  .min(1, 'must name at least one tool: the allow-list picks the tools the model may use');

const serverName = z
  .string()
  .regex(NAME_PATTERN, 'must be lower-case letters, digits and dashes, starting with a letter');

const descriptions = z.record(z.string(), z.string().min(1)).optional();

/**
 * A string Node.js can hand to a process. Checked here because spawn's own error quotes the
 * string, and an environment variable often holds a secret the connect error would log.
 */
const NO_NUL = 'must not hold a NUL character, which a process cannot be given';
const spawnable = () => z.string().refine((text) => !text.includes('\0'), NO_NUL);

/**
 * The name of an environment variable: a process is given `name=value`, so a name holding `=`
 * would reach the server as a shorter name with the rest in its value, and an empty one as none.
 */
const envName = spawnable()
  .min(1, 'must not be empty, since a variable without a name cannot be given to a process')
  .refine(
    (name) => !name.includes('='),
    "must not hold '=', which ends a variable's name: the server would see the name cut there and the rest in its value",
  );

const StdioServerSchema = z.strictObject({
  name: serverName,
  command: spawnable().min(1, 'must not be empty'),
  args: z.array(spawnable()).optional(),
  env: z.record(envName, spawnable()).optional(),
  cwd: spawnable().min(1).optional(),
  tools: allowList,
  descriptions,
});

/**
 * Characters refused in a header value once `Headers` has taken it: control characters other
 * than a tab. fetch refuses to send the ASCII ones (an escape, a bell, DEL); it would send a C1
 * one (U+0080 to U+009F, such as U+0085, a next-line) as a raw byte, but no real header value
 * holds one, so it is refused too, as the message says of every control character. `Headers`
 * itself refuses a NUL, a line break inside the value and a character beyond Latin-1, and trims
 * the whitespace around the value, line breaks included.
 */
const UNSENDABLE_HEADER_CHARACTER = /[^\t\x20-\x7e\xa0-\xff]/;

/**
 * Header names Node.js's fetch refuses to send, whatever the value: it sets them itself, or
 * does not support them (`expect`). A `content-length` it does send, but one that differs from
 * the body's length (as the SDK's bodies do) leaves the request hanging. `connection` is refused
 * unless it is `close` or `keep-alive`.
 */
const FETCH_REFUSED_HEADERS = new Set([
  'content-length',
  'expect',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
]);

const HEADER_VALUE_RULE =
  'a value fetch can send: without a control character other than a tab (such as a NUL, a line break or an escape) or a character beyond Latin-1';

/**
 * What is wrong with a header fetch could not send, or `undefined` when it can. Checked here
 * because fetch's own error quotes the bad value, which is often a token (`authorization`), and
 * the connect error would carry it to the log; and because fetch refuses some characters, and
 * the headers it sets itself or does not support, only when it sends, so every call would fail (with `fetch
 * failed`, naming nothing). The message names the header, never its value.
 */
function unsendableHeader(name: string, value: string): string | undefined {
  const headers = new Headers();
  try {
    headers.set(name, '');
  } catch {
    return `has a header name ${JSON.stringify(name)} that is not a valid HTTP header name`;
  }
  try {
    headers.set(name, value);
  } catch {
    return `has a value for ${JSON.stringify(name)} that is not ${HEADER_VALUE_RULE}`;
  }
  const sent = headers.get(name) ?? '';
  if (UNSENDABLE_HEADER_CHARACTER.test(sent)) {
    return `has a value for ${JSON.stringify(name)} that is not ${HEADER_VALUE_RULE}`;
  }
  const lower = name.toLowerCase();
  if (
    FETCH_REFUSED_HEADERS.has(lower) ||
    (lower === 'connection' && !['close', 'keep-alive'].includes(sent.toLowerCase()))
  ) {
    return `has a header ${JSON.stringify(name)} that fetch cannot send${lower === 'connection' ? ' with a value other than `close` or `keep-alive`' : ''}: fetch sets that header itself, or does not support it`;
  }
  return undefined;
}

/** A `url` given as a string or as a `URL` object: either way, only http and https. */
const HTTP_URL_RULE = 'must be an http or https URL';

const HttpServerSchema = z.strictObject({
  name: serverName,
  url: z
    .union([
      z.url({ protocol: /^https?$/, error: HTTP_URL_RULE }),
      z.instanceof(URL).refine((url) => /^https?:$/.test(url.protocol), HTTP_URL_RULE),
    ])
    .refine((url) => {
      const parsed = typeof url === 'string' ? new URL(url) : url;
      return parsed.username === '' && parsed.password === '';
    }, 'must not hold a user name or password, which fetch refuses to send (and its error would quote them); give them in `headers`, such as an `authorization` header'),
  headers: z
    .record(z.string(), z.string())
    .superRefine((headers, context) => {
      for (const [name, value] of Object.entries(headers)) {
        const problem = unsendableHeader(name, value);
        if (problem !== undefined) {
          context.addIssue({ code: 'custom', message: problem });
          return;
        }
      }
    })
    .optional(),
  tools: allowList,
  descriptions,
});

/** Picks the transport's schema by the key that tells them apart, so issues name the real field. */
function serverSchemaFor(server: unknown): z.ZodType {
  if (typeof server === 'object' && server !== null && 'command' in server && 'url' in server) {
    return z.never({
      error: 'has both a `command` (stdio) and a `url` (streamable HTTP); give one of them',
    });
  }
  if (typeof server === 'object' && server !== null && 'command' in server)
    return StdioServerSchema;
  if (typeof server === 'object' && server !== null && 'url' in server) return HttpServerSchema;
  // A misspelt `command` or `url` is the likely cause: name it.
  const known = new Set([
    ...Object.keys(StdioServerSchema.shape),
    ...Object.keys(HttpServerSchema.shape),
  ]);
  const unknown =
    typeof server === 'object' && server !== null
      ? Object.keys(server).filter((key) => !known.has(key))
      : [];
  const named =
    unknown.length > 0
      ? `; it has no option ${unknown.map((key) => JSON.stringify(key)).join(', ')}`
      : '';
  return z.never({
    error: `must have either a \`command\` (stdio) or a \`url\` (streamable HTTP)${named}`,
  });
}

/** Whether a value has the four methods of {@link McpLogger}. */
function isLogger(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    ['debug', 'info', 'warn', 'error'].every(
      (method) => typeof (value as Record<string, unknown>)[method] === 'function',
    )
  );
}

const OptionsSchema = z.strictObject({
  id: z
    .string()
    .regex(NAME_PATTERN, 'must be lower-case letters, digits and dashes, starting with a letter')
    .optional(),
  description: z.string().min(1).optional(),
  servers: z.array(z.unknown()).min(1, 'must list at least one server'),
  callTimeoutMs: timerMs(ANSWER_GRACE_MS).optional(),
  connectTimeoutMs: timerMs(ANSWER_GRACE_MS).optional(),
  maxResultBytes: positiveInteger().optional(),
  reconnectDelayMs: timerMs().optional(),
  maxReconnectDelayMs: timerMs().optional(),
  logger: z.custom<McpLogger>(isLogger, 'must have debug, info, warn and error methods').optional(),
});

/** A server started as a child process and spoken to over its stdin and stdout. */
export interface McpStdioServerOptions {
  /**
   * The server's name: lower-case letters, digits and dashes, starting with a letter, unique
   * among the servers. Actions are `<name>.<tool>`.
   * @claim tsdoc-mcp-server-name
   */
  readonly name: string;
  /** The program to run, such as `node` or `npx`. */
  readonly command: string;
  /** Its arguments. */
  readonly args?: readonly string[];
  /**
   * Environment variables for the server, added to the SDK's short list of safe inherited ones
   * (`PATH`, `HOME`, ...); the rest of this process's environment is not passed on.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** The server's working directory; this process's by default. */
  readonly cwd?: string;
  /**
   * The allow-list: the names of the tools the model may use, at least one. Every one must
   * exist on the server, or `connect` fails with `WEFT_MCP_UNKNOWN_TOOL`.
   * @claim tsdoc-mcp-unknown-tool
   */
  readonly tools: readonly string[];
  /**
   * Descriptions to show the model instead of the server's own, by tool name, each a tool of
   * `tools`. The server's descriptions are shown otherwise, cut to 1000 characters.
   */
  readonly descriptions?: Readonly<Record<string, string>>;
}

/** A server reached over MCP's streamable HTTP transport. */
export interface McpHttpServerOptions {
  /**
   * The server's name: lower-case letters, digits and dashes, starting with a letter, unique
   * among the servers. Actions are `<name>.<tool>`.
   */
  readonly name: string;
  /**
   * The server's MCP endpoint, such as `https://tools.example.com/mcp`: http or https, without a
   * user name or password (send those in `headers`).
   */
  readonly url: string | URL;
  /**
   * Headers sent with every request, such as `Authorization`. A header fetch could not send (a
   * name that is no HTTP header name, a value with a control character other than a tab or a
   * character beyond Latin-1, or a header fetch sets itself or does not support: `connection`
   * other than `close` or `keep-alive`, `content-length`, `expect`, `keep-alive`,
   * `transfer-encoding`, `upgrade`) is refused, named, with `WEFT_MCP_INVALID_OPTIONS`; its value
   * is not quoted.
   * @claim tsdoc-mcp-headers-sendable
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The allow-list: the names of the tools the model may use, at least one. Every one must
   * exist on the server, or `connect` fails with `WEFT_MCP_UNKNOWN_TOOL`.
   */
  readonly tools: readonly string[];
  /**
   * Descriptions to show the model instead of the server's own, by tool name, each a tool of
   * `tools`. The server's descriptions are shown otherwise, cut to 1000 characters.
   */
  readonly descriptions?: Readonly<Record<string, string>>;
}

/** One MCP server: stdio when it has a `command`, streamable HTTP when it has a `url`. */
export type McpServerOptions = McpStdioServerOptions | McpHttpServerOptions;

/** Where `McpPlugin` writes what it does; a pino logger fits. */
export interface McpLogger {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** The options of {@link McpPlugin.connect}. */
export interface McpPluginOptions {
  /**
   * The plugin's id in plans (`{ pluginId, action }`); `mcp` by default.
   * @claim tsdoc-mcp-default-id
   */
  readonly id?: string;
  /** What the plugin offers, for the model; a sentence naming the servers by default. */
  readonly description?: string;
  /** The servers whose tools become executors. */
  readonly servers: readonly McpServerOptions[];
  /**
   * How long one tool call may take, in milliseconds; 30000 by default.
   * @claim tsdoc-mcp-default-call-timeout-ms
   */
  readonly callTimeoutMs?: number;
  /**
   * How long connecting to a server and listing its tools may take; 10000 by default.
   * @claim tsdoc-mcp-default-connect-timeout-ms
   * @claim tsdoc-mcp-connect-timeout-covers-listing
   */
  readonly connectTimeoutMs?: number;
  /**
   * The largest tool result kept, in bytes of JSON; 1048576 (1 MiB) by default.
   * @claim tsdoc-mcp-default-max-result-bytes
   */
  readonly maxResultBytes?: number;
  /**
   * The first wait before reconnecting to a server that went away; 250 by default.
   * @claim tsdoc-mcp-default-reconnect-delay-ms
   */
  readonly reconnectDelayMs?: number;
  /**
   * The longest wait between reconnection attempts (the wait doubles each time); 10000 by default.
   * @claim tsdoc-mcp-default-max-reconnect-delay-ms
   */
  readonly maxReconnectDelayMs?: number;
  /**
   * Where to log until the runtime starts the plugin; then the runtime's logger is used. Nothing
   * is logged before start by default.
   */
  readonly logger?: McpLogger;
}

/** The options with their defaults filled in. */
export interface ResolvedMcpOptions {
  readonly id: string;
  readonly description: string | undefined;
  readonly servers: readonly McpServerOptions[];
  readonly callTimeoutMs: number;
  readonly connectTimeoutMs: number;
  readonly maxResultBytes: number;
  readonly reconnectDelayMs: number;
  readonly maxReconnectDelayMs: number;
}

/**
 * Checks the options and fills in the defaults.
 *
 * @throws {@link McpPluginError} `WEFT_MCP_INVALID_OPTIONS` naming the first bad option.
 */
export function resolveOptions(options: McpPluginOptions): ResolvedMcpOptions {
  check(OptionsSchema, options, []);
  for (const [index, server] of options.servers.entries()) {
    check(serverSchemaFor(server), server, ['servers', index]);
  }
  const names = new Set<string>();
  for (const [index, server] of options.servers.entries()) {
    if (names.has(server.name)) {
      throw new McpPluginError(
        'WEFT_MCP_INVALID_OPTIONS',
        `McpPlugin: servers[${index}].name "${server.name}" is used by another server; names must be unique.`,
      );
    }
    names.add(server.name);
    checkToolNames(server, index);
  }
  const reconnectDelayMs = options.reconnectDelayMs ?? 250;
  return {
    id: options.id ?? 'mcp',
    description: options.description,
    servers: options.servers,
    callTimeoutMs: options.callTimeoutMs ?? 30_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    maxResultBytes: options.maxResultBytes ?? 1_048_576,
    reconnectDelayMs,
    maxReconnectDelayMs: Math.max(options.maxReconnectDelayMs ?? 10_000, reconnectDelayMs),
  };
}

/**
 * A tool named twice would make two executors of one action, which the runtime refuses; a
 * description for a tool outside the allow-list (a typo, most often) would leave the server's
 * own description in its place without a word.
 */
function checkToolNames(server: McpServerOptions, index: number): void {
  const tools = new Set<string>();
  for (const tool of server.tools) {
    if (tools.has(tool)) {
      throw new McpPluginError(
        'WEFT_MCP_INVALID_OPTIONS',
        `McpPlugin: servers[${index}].tools names "${tool}" twice; each tool is named once.`,
      );
    }
    tools.add(tool);
  }
  for (const tool of Object.keys(server.descriptions ?? {})) {
    if (!tools.has(tool)) {
      throw new McpPluginError(
        'WEFT_MCP_INVALID_OPTIONS',
        `McpPlugin: servers[${index}].descriptions has a description for "${tool}", which is not in servers[${index}].tools; describe only allowed tools.`,
      );
    }
  }
}

function check(schema: z.ZodType, value: unknown, prefix: readonly PropertyKey[]): void {
  const parsed = schema.safeParse(value);
  if (parsed.success) return;
  // An unknown name first: a misspelt required option (`servrs`, `comand`) would otherwise be
  // reported as missing, without the name that was given.
  const issue =
    parsed.error.issues.find(
      (found) => found.code === 'unrecognized_keys' && found.path.length === 0,
    ) ?? parsed.error.issues[0];
  const path = [...prefix, ...(issue?.path ?? [])];
  if (issue?.code === 'invalid_key') {
    // A record's bad key: zod's own message says only "Invalid key in record", and the path ends
    // with the key as it is, a NUL or a line break included. Name the key escaped, and the rule.
    const key = path.pop();
    throw new McpPluginError(
      'WEFT_MCP_INVALID_OPTIONS',
      `McpPlugin: the key ${JSON.stringify(String(key))} of ${formatPath(path)} ` +
        `${issue.issues[0]?.message ?? 'is not valid'}.`,
    );
  }
  // A misspelt option would otherwise be dropped without a word, and its default used.
  const message =
    issue?.code === 'unrecognized_keys'
      ? `has no option ${issue.keys.map((key) => `"${key}"`).join(', ')}; the options are ${knownKeys(schema)}`
      : (issue?.message ?? 'is not valid');
  throw new McpPluginError(
    'WEFT_MCP_INVALID_OPTIONS',
    `McpPlugin: ${path.length > 0 ? formatPath(path) : 'options'} ${message}.`,
  );
}

function knownKeys(schema: z.ZodType): string {
  const shape = schema instanceof z.ZodObject ? Object.keys(schema.shape as object) : [];
  return shape.map((key) => `\`${key}\``).join(', ');
}

function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) =>
      typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`,
    )
    .join('');
}

/** Whether a server is reached over stdio. */
export function isStdioServer(server: McpServerOptions): server is McpStdioServerOptions {
  return 'command' in server;
}
