/**
 * One MCP server's connection: opens it with a deadline, reconnects with backoff when it drops,
 * and turns every way a call can fail into an {@link McpPluginError} without the server's text.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResultSchema,
  ErrorCode,
  McpError,
  ToolSchema,
  type CallToolResult,
  type JSONRPCMessage,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { boundedFetch, type FetchBounds, type StreamCut } from './bounded-fetch.js';
import { McpPluginError } from './errors.js';
import { boundedOutputChecker } from './output-schema.js';
import { ProcessGroupTransport } from './process-transport.js';
import {
  ANSWER_GRACE_MS,
  isStdioServer,
  type McpLogger,
  type McpServerOptions,
  type ResolvedMcpOptions,
} from './options.js';

/** Room for the JSON-RPC envelope around a result of `maxResultBytes`. */
const ENVELOPE_BYTES = 64 * 1024;

/**
 * The background stream (GET) of a streamable HTTP server carries only its notifications, which
 * may be rare: it is cut after this long without a byte, and the SDK opens a new one.
 */
export const STREAM_IDLE_MS = 5 * 60_000;

/** The longest the background stream stays open before it is cut and opened again. */
export const STREAM_LIFETIME_MS = 30 * 60_000;

/** The first wait before opening the background stream again after a flood cut it. */
const STREAM_REOPEN_DELAY_MS = 1_000;

/**
 * How much later than the call's deadline the SDK's own request timer is set: the deadline ends
 * a call first, so a `RequestTimeout` error that reaches the plugin is the server's own answer.
 */
const SDK_TIMER_GRACE_MS = 1_000;

/** The longest piece of a server's own text written to the log. */
const LOGGED_TEXT_CHARS = 2000;

/**
 * The client name and version the plugin introduces itself with: the package's version, which
 * a test holds to package.json.
 * @claim tsdoc-mcp-connection-client-info
 */
export const CLIENT_INFO = { name: 'weft-plugin-mcp', version: '0.1.0' };

/** What the connection needs from the plugin besides its server's options. */
export interface ConnectionSettings {
  readonly options: ResolvedMcpOptions;
  /**
   * The current logger: the runtime's once the plugin has started.
   * @claim tsdoc-mcp-connection-settings-logger
   */
  readonly logger: () => McpLogger;
}

/**
 * Cuts a server's text for the log.
 * @claim tsdoc-mcp-connection-bounded
 */
export function bounded(text: string, limit = LOGGED_TEXT_CHARS): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${text.length} characters)`;
}

function messageOf(error: unknown): string {
  return bounded(error instanceof Error ? error.message : String(error));
}

/** Waits `ms`, or less if `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** Resolves with the promise's value, or rejects with the signal's reason when it aborts first. */
function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Most pages of a tool listing read at connect; a server still paging after them is cut off. */
export const MAX_TOOL_PAGES = 100;

/** How many names of tools outside the allow-list are kept, to say what a server has. */
const OTHER_NAMES_KEPT = 50;

/**
 * A page of the tool listing, checked only as far as the plugin reads it. The SDK's own schema
 * (`ListToolsResultSchema`) checks every tool of the page, so one tool outside the allow-list
 * that MCP's rules refuse (an input schema whose `type` is not `object`, a property given as
 * `true`) would fail the whole listing, and `connect` with it, though that tool is never offered.
 * The allowed tools are checked with the SDK's `ToolSchema` one by one.
 */
const ToolPageSchema = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

/** The name of a listed tool, when it has one. */
function nameOf(entry: unknown): string | undefined {
  const name = (entry as { name?: unknown } | null)?.name;
  return typeof entry === 'object' && typeof name === 'string' ? name : undefined;
}

/**
 * An allow-listed tool as the server listed it, checked against MCP's rules for a tool, with an
 * `outputSchema` that compiles, and callable the way the plugin calls: the SDK's client refuses a plain call of a tool that needs
 * task-based execution, so every step of it would fail.
 *
 * @throws Error naming the tool and what is wrong with it.
 */
function allowedTool(entry: unknown, name: string): Tool {
  const parsed = ToolSchema.safeParse(entry);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `the server listed its tool "${bounded(name, 100)}" in a form MCP does not allow (${issue?.path.join('.') || 'the tool'}: ${issue?.message ?? 'not valid'})`,
    );
  }
  if (parsed.data.outputSchema !== undefined) {
    // The SDK's client compiles it when handed the tool (rememberTools), and its error names no
    // tool: compile it here first, so the failure says which tool to leave out.
    try {
      boundedOutputChecker().getValidator(parsed.data.outputSchema);
    } catch (error) {
      throw new Error(
        `the server's tool "${bounded(name, 100)}" has an outputSchema that cannot be compiled (${bounded(error instanceof Error ? error.message : String(error), 200)}); leave it out of the allow-list`,
      );
    }
  }
  if (parsed.data.execution?.taskSupport === 'required') {
    throw new Error(
      `the server's tool "${bounded(name, 100)}" needs task-based execution (execution.taskSupport: 'required'), which the plugin does not support; leave it out of the allow-list`,
    );
  }
  return parsed.data;
}

/** What {@link McpConnection.open} found on the server. */
export interface ListedTools {
  /** The allow-listed tools the server has. */
  readonly tools: Tool[];
  /** Names of the server's other tools, at most 50, each cut to 100 characters. */
  readonly others: string[];
  /** Whether the server has tools beyond those (or was still paging after MAX_TOOL_PAGES). */
  readonly more: boolean;
}

/** A deadline: its signal aborts after a time, or as soon as one of its parents does. */
interface Deadline {
  readonly signal: AbortSignal;
  /** Stops the timer and lets go of the parents; call it once the wait it bounds is over. */
  clear(): void;
}

/**
 * Starts a {@link Deadline} of `ms` under `parents`. A timer and a controller rather than
 * `AbortSignal.timeout` inside `AbortSignal.any`: on Node 20 the combined signal holds its
 * timeout signal only weakly, so a garbage collection before the time is up (a server flooding
 * the tool listing causes many) loses the timeout, and the wait it bounds never ends.
 */
function startDeadline(ms: number, parents: readonly AbortSignal[]): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(
    () =>
      controller.abort(
        new DOMException('The operation was aborted due to timeout', 'TimeoutError'),
      ),
    ms,
  );
  const forward = (event: Event) => controller.abort((event.target as AbortSignal).reason);
  for (const parent of parents) {
    if (parent.aborted) controller.abort(parent.reason);
    else parent.addEventListener('abort', forward, { once: true });
  }
  return {
    signal: controller.signal,
    clear() {
      clearTimeout(timer);
      for (const parent of parents) parent.removeEventListener('abort', forward);
    },
  };
}

/**
 * Whether a call's error is the SDK's report that the connection closed under it. The SDK fails
 * pending calls with `ConnectionClosed` (-32000) once it has let the closed transport go; a
 * server may answer with that code too (the first of JSON-RPC's server-error range), and is then
 * refusing the call over a connection that still works.
 */
function closedUnder(live: Live, error: McpError): boolean {
  return error.code === ErrorCode.ConnectionClosed && live.client.transport === undefined;
}

/**
 * Whether a call's error is the SDK's refusal of an answer that is not a tool result (a JSON-RPC
 * result without a `content` list, say): its client checks the answer with zod and rejects with
 * zod's error (`$ZodError` from the SDK's own checks, `ZodError` from zod's classic API). Found by
 * name, as the SDK may use a copy of zod other than the plugin's.
 */
function isMalformedAnswer(error: unknown): boolean {
  return error instanceof Error && /^\$?ZodError$/.test(error.name);
}

/**
 * The schema the client reads a tool's answer with: the SDK's, except that an error result
 * (`isError`) loses its `structuredContent`. The SDK's client checks any `structuredContent`
 * against the tool's `outputSchema`, an error report's too, and would refuse a tool's report of
 * its own failure as a protocol error (`WEFT_MCP_CALL_FAILED`); the plugin keeps no structured
 * content of an error, so the report fails the step as what it is, `WEFT_MCP_TOOL_ERROR`.
 * Cast to the SDK's type, which `callTool` asks for: it parses with whatever schema it is given.
 */
const ToolAnswerSchema = CallToolResultSchema.transform((result) => {
  if (result.isError !== true || result.structuredContent === undefined) return result;
  const { structuredContent: _dropped, ...rest } = result;
  return rest;
}) as unknown as typeof CallToolResultSchema;

/**
 * Hands a client the allow-listed tools as if it had listed them itself. The SDK's client checks
 * a tool's answers against its `outputSchema` only for the tools of the last `tools/list` page it
 * read: the listing may end on another page, and a reconnected client lists nothing. Reaches into
 * the client (`cacheToolMetadata`, private in its types): the package's test of output schemas
 * over several pages and a reconnection fails if it moves.
 */
function rememberTools(client: Client, tools: readonly Tool[]): void {
  const cache = (client as unknown as { cacheToolMetadata?: (tools: Tool[]) => void })
    .cacheToolMetadata;
  cache?.call(client, [...tools]);
}

/**
 * Most answers to a server's own requests (its pings, or requests the client refuses) that are
 * sent at once; the others wait their turn, in order.
 * @claim tsdoc-mcp-pending-answers
 */
export const MAX_PENDING_ANSWERS = 16;

/**
 * Most bytes of answers to a server's own requests that may wait to be sent. A server may send
 * requests without end and never take the answers (not read its stdin, hold the POSTs open): past
 * this, answers are dropped, so the agent does not hold one for each request. A server that takes
 * its answers never meets it: the answers to one read of its output are far smaller.
 * @claim tsdoc-mcp-waiting-answers
 */
export const MAX_WAITING_ANSWER_BYTES = 1024 * 1024;

/** An answer waiting for its turn in {@link boundAnswers}. */
interface WaitingAnswer {
  readonly message: JSONRPCMessage;
  readonly options: TransportSendOptions | undefined;
  readonly bytes: number;
  readonly done: { resolve: () => void; reject: (error: unknown) => void };
}

/**
 * Has `transport` send the answers to the server (JSON-RPC results and errors)
 * {@link MAX_PENDING_ANSWERS} at a time, in order, the others waiting; an answer that would find
 * {@link MAX_WAITING_ANSWER_BYTES} or more waiting is dropped, and the first drop calls
 * `onDrop`; closing the transport lets the waiting answers go. The client's own requests and
 * notifications go through untouched.
 */
function boundAnswers(transport: Transport, onDrop: () => void): Transport {
  const send = transport.send.bind(transport);
  const waiting: WaitingAnswer[] = [];
  let waitingBytes = 0;
  let pending = 0;
  let dropped = false;
  const next = (): void => {
    while (pending < MAX_PENDING_ANSWERS && waiting.length > 0) {
      const answer = waiting.shift() as WaitingAnswer;
      waitingBytes -= answer.bytes;
      pending += 1;
      send(answer.message, answer.options)
        .then(answer.done.resolve, answer.done.reject)
        .finally(() => {
          pending -= 1;
          next();
        });
    }
  };
  transport.send = (message, options) => {
    if ('method' in message) return send(message, options);
    if (waitingBytes >= MAX_WAITING_ANSWER_BYTES) {
      if (!dropped) onDrop();
      dropped = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const bytes = JSON.stringify(message).length;
      waiting.push({ message, options, bytes, done: { resolve, reject } });
      waitingBytes += bytes;
      next();
    });
  };
  // Closed: the answers still waiting will never be sent, and are let go at once.
  const close = transport.close.bind(transport);
  transport.close = () => {
    for (const answer of waiting.splice(0)) answer.done.resolve();
    waitingBytes = 0;
    return close();
  };
  return transport;
}

/** A live client and what is known about its transport. */
interface Live {
  readonly client: Client;
  /**
   * Set when the transport dropped an answer over the size limit that it cannot tie to a request:
   * a stdio server's line, which is not read. Every call waiting on the connection then fails
   * with `WEFT_MCP_RESULT_TOO_LARGE`.
   */
  oversized: boolean;
  /**
   * The JSON-RPC ids of the calls whose answers were dropped for being over the size limit: an
   * HTTP answer is tied to its request, so the other calls waiting on the connection fail as a
   * lost connection does, not as too large.
   */
  readonly oversizedCalls: Set<string | number>;
  /**
   * Aborted when an answer is dropped for its size: the SDK does not fail the pending call when
   * an HTTP answer's stream breaks, so the call listens for this as well as for its deadline.
   * @claim tsdoc-mcp-connection-broken-stream
   */
  readonly broken: AbortController;
}

/** The call a request is sent for: the transport notes its JSON-RPC id here. */
interface CallMark {
  id?: string | number;
}

/**
 * Carries each call's {@link CallMark} from `callTool` to the transport's `send`, through the
 * SDK's client, which does not say what id it gave a request.
 */
const currentCall = new AsyncLocalStorage<CallMark>();

/** Has `transport` note the id of each `tools/call` request on the call's {@link CallMark}. */
function markCallIds(transport: Transport): Transport {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const call = currentCall.getStore();
    if (call !== undefined && 'method' in message && message.method === 'tools/call') {
      if ('id' in message) call.id = message.id;
    }
    return send(message, options);
  };
  return transport;
}

/**
 * One server's connection, reconnected until {@link McpConnection.close}.
 * @claim tsdoc-mcp-connection-reconnected
 */
export class McpConnection {
  private live: Live | undefined;
  /** The allow-listed tools as the server listed them at open, given to every new client. */
  private tools: readonly Tool[] = [];
  /** Settles when a reconnection succeeds; replaced at each outage. */
  private reconnecting: Promise<Live> | undefined;
  /** The first connection while {@link McpConnection.open} makes it. */
  private opening: Promise<ListedTools> | undefined;
  private readonly closing = new AbortController();
  /** When the current connection opened, and the wait before it (0 for the first one). */
  private opened = { at: 0, afterWaitMs: 0 };

  constructor(
    readonly server: McpServerOptions,
    private readonly settings: ConnectionSettings,
  ) {}

  /**
   * Connects and lists the server's tools, both within one `connectTimeoutMs`.
   *
   * @returns The allow-listed tools the server has, and some names of its others.
   * @throws {@link McpPluginError} `WEFT_MCP_CONNECT_FAILED` when it cannot; a stdio server it
   * started is ended first.
   * @claim tsdoc-mcp-connection-one-deadline
   * @claim tsdoc-mcp-connection-open-throws
   */
  open(): Promise<ListedTools> {
    this.opening = this.openOnce();
    return this.opening;
  }

  private async openOnce(): Promise<ListedTools> {
    // One deadline for the handshake and every page of the listing, as the option promises.
    const deadline = this.connectDeadline();
    let opened: Live | undefined;
    try {
      opened = await this.connect(deadline.signal);
      const tools = await raceSignal(
        this.listTools(opened.client, deadline.signal),
        deadline.signal,
      );
      // Closed meanwhile: close() did not see this connection, so it is ended below.
      if (this.closing.signal.aborted) throw new Error('the connection was closed');
      this.tools = tools.tools;
      rememberTools(opened.client, this.tools);
      this.live = opened;
      this.opened = { at: Date.now(), afterWaitMs: 0 };
      return tools;
    } catch (error) {
      // Not yet this.live, so close() would not reach it: close it here, ending its process.
      if (opened !== undefined) {
        opened.client.onclose = undefined;
        await opened.client.close().catch(() => undefined);
      }
      // No reconnection after a failed start. Not close(), which waits for this very open.
      this.closing.abort();
      throw new McpPluginError(
        'WEFT_MCP_CONNECT_FAILED',
        `McpPlugin: server "${this.server.name}" could not be started and asked for its tools within ${this.settings.options.connectTimeoutMs} ms: ${messageOf(error)}`,
      );
    } finally {
      deadline.clear();
    }
  }

  /**
   * Calls a tool within `callTimeoutMs`, or less when `signal` aborts first.
   *
   * @param logger - Where the lines about this call's failure go: the step's `context.logger`,
   *   so they carry its task's and step's fields; the plugin's logger when not given.
   * @throws {@link McpPluginError} `WEFT_MCP_TIMEOUT`, `WEFT_MCP_UNAVAILABLE`,
   * `WEFT_MCP_CALL_FAILED` or `WEFT_MCP_RESULT_TOO_LARGE`.
   * @claim tsdoc-mcp-connection-call-deadline
   * @claim tsdoc-mcp-connection-call-throws
   */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    logger: McpLogger = this.settings.logger(),
  ): Promise<CallToolResult> {
    const within = startDeadline(this.settings.options.callTimeoutMs, [signal]);
    try {
      return await this.callWithin(tool, args, signal, within.signal, logger);
    } finally {
      within.clear();
    }
  }

  private async callWithin(
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    deadline: AbortSignal,
    logger: McpLogger,
  ): Promise<CallToolResult> {
    const { callTimeoutMs } = this.settings.options;
    const what = `tool "${tool}" on server "${this.server.name}"`;
    const timedOut = () =>
      signal.aborted
        ? new McpPluginError('WEFT_MCP_TIMEOUT', `McpPlugin: ${what} was cancelled with the task.`)
        : new McpPluginError(
            'WEFT_MCP_TIMEOUT',
            `McpPlugin: ${what} did not answer within ${callTimeoutMs} ms (callTimeoutMs).`,
          );
    let live: Live;
    try {
      live = this.live ?? (await raceSignal(this.waitForReconnection(), deadline));
    } catch {
      if (signal.aborted) throw timedOut();
      // After close() no reconnection is tried, so there is nothing to wait for.
      if (this.closing.signal.aborted) {
        throw new McpPluginError(
          'WEFT_MCP_UNAVAILABLE',
          `McpPlugin: server "${this.server.name}" was closed (close() or the runtime's stop) and is not reconnected; start a new plugin to call it again.`,
        );
      }
      throw new McpPluginError(
        'WEFT_MCP_UNAVAILABLE',
        `McpPlugin: server "${this.server.name}" is disconnected and was not back within ${callTimeoutMs} ms; the plugin keeps reconnecting.`,
      );
    }
    const call: CallMark = {};
    try {
      const result = await currentCall.run(call, () =>
        live.client.callTool({ name: tool, arguments: args }, ToolAnswerSchema, {
          signal: AbortSignal.any([deadline, live.broken.signal]),
          timeout: callTimeoutMs + SDK_TIMER_GRACE_MS,
        }),
      );
      return result as CallToolResult;
    } catch (error) {
      // Its own answer was too large; another call's, over HTTP, only took the connection down.
      if (live.oversized || (call.id !== undefined && live.oversizedCalls.has(call.id))) {
        await this.restart(live);
        throw new McpPluginError(
          'WEFT_MCP_RESULT_TOO_LARGE',
          `McpPlugin: ${what} answered with more than ${this.settings.options.maxResultBytes} bytes (maxResultBytes); the answer was dropped unread.`,
        );
      }
      if (deadline.aborted) throw timedOut();
      if (isMalformedAnswer(error)) {
        // The server answered, over a connection that still works, but not with a tool result.
        const errorId = randomUUID();
        logger.warn(
          { errorId, server: this.server.name, tool, problem: messageOf(error) },
          'MCP server answered a tool call with something other than a tool result',
        );
        throw new McpPluginError(
          'WEFT_MCP_CALL_FAILED',
          `McpPlugin: server "${this.server.name}" answered the call of tool "${tool}" with something other than an MCP tool result; what is wrong with it is logged under error id ${errorId}.`,
        );
      }
      // Another call's answer was dropped for its size: the SDK fails this one as a timeout,
      // but it was the connection, restarted below, that failed it.
      if (error instanceof McpError && !closedUnder(live, error) && !live.broken.signal.aborted) {
        const errorId = randomUUID();
        logger.warn(
          {
            errorId,
            server: this.server.name,
            tool,
            code: error.code,
            serverMessage: messageOf(error),
          },
          'MCP server refused a tool call',
        );
        throw new McpPluginError(
          'WEFT_MCP_CALL_FAILED',
          `McpPlugin: server "${this.server.name}" refused the call of tool "${tool}" (JSON-RPC error ${error.code}); its message is logged under error id ${errorId}.`,
        );
      }
      logger.warn(
        { server: this.server.name, tool, error: messageOf(error) },
        'MCP call lost its connection',
      );
      // Over HTTP nothing closes the client when the server goes away (or restarts and forgets
      // the session), so a lost call is what tells the connection to start over.
      await this.restart(live);
      throw new McpPluginError(
        'WEFT_MCP_UNAVAILABLE',
        `McpPlugin: server "${this.server.name}" disconnected during the call of tool "${tool}"; the plugin is reconnecting.`,
      );
    }
  }

  /** Closes a connection that is still current and starts reconnecting. */
  private async restart(live: Live): Promise<void> {
    if (this.live !== live) return;
    live.client.onclose = undefined;
    await live.client.close().catch(() => undefined);
    this.dropped(live);
  }

  /**
   * Stops reconnecting and closes the connection (ending a stdio server's process).
   * @claim tsdoc-mcp-connection-close
   */
  async close(): Promise<void> {
    this.closing.abort();
    const live = this.live;
    this.live = undefined;
    // A connection still being made when the closing came ends its server itself, once its
    // deadline (which the closing aborts) has stopped it: wait for that too, so that no server
    // process outlives close().
    await Promise.all([
      live?.client.close().catch(() => undefined),
      this.opening?.catch(() => undefined),
      this.reconnecting?.catch(() => undefined),
    ]);
  }

  private waitForReconnection(): Promise<Live> {
    this.reconnecting ??= this.reconnect();
    return this.reconnecting;
  }

  /**
   * Tries again and again, waiting longer each time, until connected or closed.
   * @claim tsdoc-mcp-connection-backoff
   */
  private async reconnect(): Promise<Live> {
    const { maxReconnectDelayMs } = this.settings.options;
    let delay = this.firstWaitMs();
    for (let attempt = 1; ; attempt += 1) {
      await sleep(delay, this.closing.signal);
      if (this.closing.signal.aborted) throw new Error('closed');
      try {
        const deadline = this.connectDeadline();
        const live = await this.connect(deadline.signal).finally(() => deadline.clear());
        if (this.closing.signal.aborted) {
          // Closed between the handshake and now: close() did not see this connection.
          live.client.onclose = undefined;
          await live.client.close().catch(() => undefined);
          throw new Error('closed');
        }
        this.live = live;
        this.opened = { at: Date.now(), afterWaitMs: delay };
        this.reconnecting = undefined;
        this.settings
          .logger()
          .info({ server: this.server.name, attempt }, 'MCP server reconnected');
        return live;
      } catch (error) {
        if (this.closing.signal.aborted) throw new Error('closed');
        // The wait is worked out once, so that the log line gives the wait that follows.
        delay = Math.min(delay * 2, maxReconnectDelayMs);
        this.settings
          .logger()
          .warn(
            { server: this.server.name, attempt, retryInMs: delay, error: messageOf(error) },
            'MCP server reconnection failed',
          );
      }
    }
  }

  /**
   * The wait before the first reconnection attempt: `reconnectDelayMs`, or twice the wait before
   * the connection that just dropped when it dropped before staying up for `maxReconnectDelayMs`.
   * A server that crashes right after each handshake is then started again at growing intervals,
   * as one that cannot be reached is, not every `reconnectDelayMs`.
   * @claim tsdoc-mcp-connection-unstable-backoff
   */
  private firstWaitMs(): number {
    const { reconnectDelayMs, maxReconnectDelayMs } = this.settings.options;
    const stayedUpMs = Date.now() - this.opened.at;
    if (stayedUpMs >= maxReconnectDelayMs) return reconnectDelayMs;
    return Math.min(Math.max(this.opened.afterWaitMs * 2, reconnectDelayMs), maxReconnectDelayMs);
  }

  /** Aborts after `connectTimeoutMs`, or when the connection is closed. */
  private connectDeadline(): Deadline {
    return startDeadline(this.settings.options.connectTimeoutMs, [this.closing.signal]);
  }

  /** Opens a client over a new transport, before `deadline` aborts. */
  private async connect(deadline: AbortSignal): Promise<Live> {
    const client = new Client(CLIENT_INFO, {
      capabilities: {},
      jsonSchemaValidator: boundedOutputChecker(),
    });
    const live: Live = {
      client,
      oversized: false,
      oversizedCalls: new Set(),
      broken: new AbortController(),
    };
    const markOversized = (requestIds: readonly (string | number)[] = []) => {
      if (requestIds.length === 0) live.oversized = true;
      for (const id of requestIds) live.oversizedCalls.add(id);
      live.broken.abort();
      // Connect anew now, not at the next call: an answer can run past the limit after its call
      // has its result (notifications that follow it), and `broken` would fail the next call.
      void this.restart(live);
    };
    // An HTTP answer's stream broke: the server went away mid-answer. The SDK leaves the call
    // waiting; closing the client fails it at once (as a stdio server's exit does) and reconnects.
    const markLost = () => {
      this.settings
        .logger()
        .warn({ server: this.server.name }, 'MCP server answer broke off; reconnecting');
      void this.restart(live);
    };
    const transport = boundAnswers(markCallIds(this.transport(markOversized, markLost)), () =>
      this.settings.logger().warn(
        {
          server: this.server.name,
          pending: MAX_PENDING_ANSWERS,
          waitingBytes: MAX_WAITING_ANSWER_BYTES,
        },
        'MCP server sends requests faster than it takes the answers; answers dropped',
      ),
    );
    client.onerror = (error) => {
      // The SDK's stdio transport reports an over-long message this way, then closes.
      if (/exceeded maximum size/.test(error.message)) markOversized();
      this.settings
        .logger()
        .debug({ server: this.server.name, error: messageOf(error) }, 'MCP transport error');
    };
    client.onclose = () => this.dropped(live);
    try {
      await raceSignal(client.connect(transport, { signal: deadline }), deadline);
      rememberTools(client, this.tools);
    } catch (error) {
      client.onclose = undefined;
      await client.close().catch(() => undefined);
      throw error;
    }
    return live;
  }

  /** The connection dropped: forget it and start reconnecting, unless closing. */
  private dropped(live: Live): void {
    if (this.live !== live) return;
    this.live = undefined;
    if (this.closing.signal.aborted) return;
    this.settings
      .logger()
      .warn(
        { server: this.server.name, retryInMs: this.firstWaitMs() },
        'MCP server disconnected; reconnecting',
      );
    this.waitForReconnection().catch(() => undefined);
  }

  /**
   * Lists the server's tools page by page until every allow-listed one is found, the server has
   * no more pages, or {@link MAX_TOOL_PAGES} were read: a server may page on without end, and
   * only the allow-listed tools are kept, so its listing cannot fill the agent's memory.
   */
  private async listTools(client: Client, deadline: AbortSignal): Promise<ListedTools> {
    const wanted = new Set(this.server.tools);
    const tools: Tool[] = [];
    const others: string[] = [];
    let more = false;
    let cursor: string | undefined;
    for (let pages = 0; tools.length < wanted.size; pages += 1) {
      if (pages === MAX_TOOL_PAGES) {
        more = true;
        break;
      }
      // A plain request, not the client's listTools: that one checks every tool of the page and
      // compiles its outputSchema, so a tool outside the allow-list that breaks MCP's rules, or
      // whose schema cannot be compiled (a `$ref` to nowhere), would fail the connection, and a
      // long page would cost time besides. The allowed tools are checked one by one, and their
      // schemas handed to the client once found (rememberTools).
      const page = await client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        ToolPageSchema,
        { signal: deadline, timeout: this.settings.options.connectTimeoutMs },
      );
      for (const entry of page.tools) {
        const name = nameOf(entry);
        if (name === undefined) continue;
        if (wanted.has(name) && !tools.some((kept) => kept.name === name)) {
          tools.push(allowedTool(entry, name));
        } else if (others.length < OTHER_NAMES_KEPT) {
          others.push(bounded(name, 100));
        } else {
          more = true;
        }
      }
      cursor = page.nextCursor;
      if (cursor === undefined) break;
    }
    return { tools, others, more };
  }

  private transport(
    onOversized: (requestIds?: readonly (string | number)[]) => void,
    onLost: () => void,
  ): Transport {
    const limit = this.settings.options.maxResultBytes + ENVELOPE_BYTES;
    const server = this.server;
    if (isStdioServer(server)) {
      const spawnOptions = {
        command: server.command,
        args: [...(server.args ?? [])],
        ...(server.env ? { env: { ...server.env } } : {}),
        ...(server.cwd ? { cwd: server.cwd } : {}),
        maxBufferSize: limit,
      };
      // Windows has no process groups, and its commands (npx.cmd) need the SDK's launcher.
      const transport =
        process.platform === 'win32'
          ? new StdioClientTransport({ ...spawnOptions, stderr: 'pipe' })
          : new ProcessGroupTransport(spawnOptions);
      // The server's stderr goes to the log as it arrives, each chunk cut to LOGGED_TEXT_CHARS,
      // and is never shown to the model.
      transport.stderr?.on('data', (chunk: Buffer) => {
        this.settings
          .logger()
          .debug(
            { server: server.name, stderr: bounded(chunk.toString('utf8')) },
            'MCP server stderr',
          );
      });
      return transport;
    }
    const { callTimeoutMs, connectTimeoutMs } = this.settings.options;
    const bounds: FetchBounds = {
      maxBytes: limit,
      maxEventBytes: limit,
      answerDeadlineMs: Math.max(callTimeoutMs, connectTimeoutMs) + ANSWER_GRACE_MS,
      streamIdleMs: STREAM_IDLE_MS,
      streamLifetimeMs: STREAM_LIFETIME_MS,
      reopenDelayMs: STREAM_REOPEN_DELAY_MS,
    };
    return new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { ...server.headers } },
      fetch: boundedFetch(bounds, (cut) => this.cut(cut, onOversized), onLost),
    });
  }

  /** Logs an answer the bounded fetch cut; a call's answer that was too large fails the call. */
  private cut(
    cut: StreamCut,
    onOversized: (requestIds?: readonly (string | number)[]) => void,
  ): void {
    const routine = cut.reason === 'idle' || cut.reason === 'lifetime';
    const fields = { server: this.server.name, ...cut };
    if (routine) {
      this.settings.logger().debug(fields, 'MCP server stream cut; the SDK opens a new one');
      return;
    }
    this.settings.logger().warn(fields, 'MCP server answer cut');
    if (cut.method === 'POST' && (cut.reason === 'size' || cut.reason === 'event-size')) {
      onOversized(cut.requestIds);
    }
  }
}
