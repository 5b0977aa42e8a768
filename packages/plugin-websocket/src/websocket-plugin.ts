import { randomUUID } from 'node:crypto';
import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import {
  Plugin,
  WeftError,
  type Executor,
  type Runtime,
  type Trigger,
  type TriggerStart,
} from '@weft/core';
import {
  clientErrorRefusal,
  describeError,
  errorDocsUrl,
  weftRetryAfter,
} from '@weft/core/internal';
import {
  CHAT_REPLY_TEMPLATE,
  ChatAccess,
  chatReplyExecutor,
  chatReplyPluginIds,
} from '@weft/plugin-chat';
import { WebSocketServer, type WebSocket } from 'ws';
import { ChatConnection, REVOKED_CLOSE, type ConnectionHost } from './connection.js';
import {
  invalid,
  resolveOptions,
  type ResolvedOptions,
  type WebSocketPluginOptions,
} from './options.js';
import { upgradeGate, type Refusal } from './upgrade-gate.js';

/** The plugin's id: pipelines name its executor `websocket/reply`. */
export const WEBSOCKET_PLUGIN_ID = 'websocket';

/** The close code and reason every client receives when the plugin closes. */
export const SHUTDOWN_CLOSE = { code: 1001, reason: 'server shutting down' } as const;

/**
 * A Weft plugin for chat clients that keep a connection open: a web page, a mobile app, a
 * terminal. It listens for websocket upgrades on its own port and path (default
 * `ws://127.0.0.1:3001/ws`), checks the `Host` and `Origin` headers and runs your
 * `authenticate` hook before it accepts one, then reads JSON frames
 * `{ "type": "message", "id", "room", "user", "message" }`. Each message becomes a task in the
 * same space `@weft/plugin-chat` uses for that room and user, and the client receives an
 * `accepted` frame with the task id, then a `reply` frame, or an `error` frame with a code and
 * no internals (the cause is logged under the task or request id).
 *
 * The user of every message is the one `authenticate` named for the connection; a frame's own
 * `user` is believed only with `trustClientUser: true`, and without either the upgrade is
 * refused with 401. Planning sees the sender's own earlier messages in the room unless
 * `roomHistory` is `'shared'`, and `authorizeRoom`, when given, is asked for every frame.
 *
 * Every wait has a deadline and every buffer a cap: see {@link WebSocketPluginOptions}.
 *
 * @example
 * ```ts
 * import { Runtime, type MemoryProvider, type ModelProvider } from '@weft/core';
 * import { WebSocketPlugin } from '@weft/plugin-websocket';
 *
 * // Session tokens of your users, mapped to their user ids.
 * declare const sessions: ReadonlyMap<string, string>;
 *
 * async function serve(model: ModelProvider, memory: MemoryProvider) {
 *   const runtime = await Runtime.init({
 *     models: [model],
 *     memory,
 *     plugins: [
 *       new WebSocketPlugin({
 *         port: 3001,
 *         allowedOrigins: ['https://chat.example.com'],
 *         // Browsers cannot set headers on a websocket: the token comes in the URL.
 *         authenticate: (request) => {
 *           const url = new URL(request.url ?? '/', 'http://localhost');
 *           const user = sessions.get(url.searchParams.get('token') ?? '');
 *           return user === undefined ? false : { user };
 *         },
 *       }),
 *     ],
 *   });
 *   await runtime.start();
 * }
 * ```
 */
export class WebSocketPlugin extends Plugin {
  readonly id = WEBSOCKET_PLUGIN_ID;
  readonly description =
    'Receives chat messages over websocket connections and answers them with a reply written by the text model.';
  override readonly templates: Readonly<Record<string, string>> = { reply: CHAT_REPLY_TEMPLATE };
  override readonly executors: readonly Executor[] = [chatReplyExecutor(() => this.replySteps)];
  override readonly triggers: readonly Trigger[];
  /** The options, defaults filled in. */
  readonly options: ResolvedOptions;
  /** Who may chat as whom, in which room, and how much at once: the rules `ChatPlugin` applies. */
  readonly access: ChatAccess;
  private server: Server | undefined;
  private readonly sockets: WebSocketServer;
  private readonly connections = new Map<WebSocket, ChatConnection>();
  /**
   * The upgrades whose checks are running, each with the users `closeConnectionsOf` revoked
   * meanwhile: a hook that read a session before it was revoked must not open a connection
   * after the revocation. Each set lives only as long as its upgrade's checks (`authTimeoutMs`
   * at most, and there are at most `maxConnections` of them).
   */
  private readonly upgradesBeingChecked = new Set<Set<string>>();
  /** Open connections of each user `authenticate` named. */
  private readonly connectionsByUser = new Map<string, number>();
  private heartbeat: NodeJS.Timeout | undefined;
  /**
   * The TCP connections that have not sent an upgrade yet, each with when it connected: cut once
   * `handshakeTimeoutMs` has passed since then (see `cutSlowHandshakes`).
   */
  private readonly awaitingUpgrade = new Map<Socket, number>();
  /**
   * The upgrades whose checks are running, each with its request id: the close answers them at
   * once rather than wait for an `authenticate` that may take `authTimeoutMs`.
   */
  private readonly pendingUpgrades = new Map<Duplex, string>();
  /** Every TCP connection of the listener, cut when the close has waited `closeTimeoutMs`. */
  private readonly tcpConnections = new Set<Socket>();
  private handshakeCheck: NodeJS.Timeout | undefined;
  private runtime: Runtime | undefined;
  private stopping = false;
  private closing: Promise<void> | undefined;
  private listeningPort: number | undefined;
  private readonly checkUpgrade: ReturnType<typeof upgradeGate>;
  /** The reply steps of the runtime's chat plugins, this one's first, set by `init`. */
  private replySteps: readonly string[] = [];

  /**
   * @param options - Where to listen, who may connect, and the limits.
   * @throws WebSocketPluginError `WEFT_WS_INVALID_OPTIONS` naming a bad option.
   */
  constructor(options: WebSocketPluginOptions = {}) {
    super();
    this.options = resolveOptions(options);
    this.access = new ChatAccess(this.options, invalid);
    this.checkUpgrade = upgradeGate(this.options, this.access, () => this.runtime?.logger);
    this.sockets = new WebSocketServer({
      noServer: true,
      // A larger frame closes the connection with 1009 before it is buffered whole.
      maxPayload: this.options.maxPayloadBytes,
      // Compression would let a small frame inflate past the cap's intent and costs memory per
      // connection; chat frames are small.
      perMessageDeflate: false,
      clientTracking: false,
    });
    // The gate refuses what is not a handshake; what `ws` still refuses after it (a malformed
    // Sec-WebSocket-Protocol header) is answered as the gate would, in JSON, not in ws's text.
    this.sockets.on('wsClientError', (error, socket) => {
      const requestId = randomUUID();
      this.runtime?.logger.info(
        { requestId, code: 'WEFT_WS_UPGRADE_REQUIRED', reason: error.message },
        'websocket: upgrade refused',
      );
      refuse(socket, requestId, {
        status: 426,
        code: 'WEFT_WS_UPGRADE_REQUIRED',
        message: `Not a websocket handshake: ${error.message}; connect with a websocket client to ${this.options.path}`,
      });
    });
    this.triggers = [this.listener()];
  }

  /** The address clients connect to once the runtime started, such as `ws://127.0.0.1:3001/ws`. */
  get url(): string | undefined {
    if (this.listeningPort === undefined) return undefined;
    const host = this.options.host;
    const shown =
      host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
    return `ws://${shown}:${this.listeningPort}${this.options.path}`;
  }

  /** How many websocket connections are open. */
  get connectionCount(): number {
    return this.connections.size;
  }

  /**
   * Ends every open connection of one user, for when the application revokes their access
   * (logout, ban, password change): `authenticate` runs only when a connection opens, so without
   * this a connected client would go on speaking for the user. Each connection receives the
   * close code {@link REVOKED_CLOSE} (4001) with `reason`; frames that arrive after the call
   * become no tasks, and a task already running may finish but its reply is not sent. A client
   * that does not answer the close frame is cut off after `closeTimeoutMs`. Only connections
   * whose user `authenticate` named are matched: with `trustClientUser` and no user from
   * `authenticate`, a connection belongs to no one user. An upgrade whose `authenticate` is still
   * running at the call, and then names the user, is refused with 401 `WEFT_WS_UNAUTHORIZED`, so
   * no connection of theirs opens after the call.
   *
   * @param user - The user id `authenticate` returned for the connections.
   * @param reason - The close reason the clients receive, cut to the 123 bytes websocket
   *   allows. Default `'access revoked'`.
   * @returns How many open connections it closed (connections it closed before, connections
   *   already closing, which keep the close code they were sent, and refused upgrades are not
   *   counted).
   * @claim tsdoc-ws-close-connections-of
   */
  closeConnectionsOf(user: string, reason: string = REVOKED_CLOSE.reason): number {
    for (const revokedMeanwhile of this.upgradesBeingChecked) revokedMeanwhile.add(user);
    let closed = 0;
    for (const connection of this.connections.values()) {
      if (connection.user === user && connection.revoke(reason)) closed += 1;
    }
    if (closed > 0) {
      this.runtime?.logger.info({ user, connections: closed }, 'websocket: access revoked');
    }
    return closed;
  }

  /**
   * Closes the plugin: stops accepting connections, answers the upgrades whose checks
   * (`authenticate`) still run with 503 at once, sends every client a close frame (1001,
   * "server shutting down"), waits up to `closeTimeoutMs` for them to answer, then cuts the
   * connections left, refused upgrades whose clients have not read the answer included. Idempotent. The runtime calls it when it stops, after the last task, so
   * the replies of tasks that were running still reach their clients.
   *
   * @returns When the listener and every connection are closed.
   * @claim tsdoc-ws-close
   */
  close(): Promise<void> {
    this.closing ??= this.closeOnce();
    return this.closing;
  }

  /**
   * Finds the other chat plugins of the runtime (such as `ChatPlugin`), whose reply steps the
   * reply prompt's history lists beside this one's.
   *
   * @throws WebSocketPluginError `WEFT_WS_INVALID_OPTIONS` naming `roomHistory` when another chat
   *   plugin of the runtime has another `roomHistory`: they write into the same spaces, so a room
   *   private on one and shared on the other would show one plugin's messages to the users of the
   *   other. `Runtime.start` reports it as `WEFT_START_FAILED`.
   */
  override async init(runtime: Runtime): Promise<void> {
    const chatPlugins = chatReplyPluginIds(runtime.plugins, this.id);
    this.replySteps = chatPlugins.map((id) => `${id}/reply`);
    // The chat plugins of one runtime write into the same spaces: a room private on one and
    // shared on the other would show the first one's messages to every user of the other.
    for (const id of chatPlugins.slice(1)) {
      const other = (runtime.plugins.get(id) as { access?: { roomHistory?: unknown } } | undefined)
        ?.access?.roomHistory;
      if (typeof other === 'string' && other !== this.access.roomHistory) {
        throw invalid(
          'roomHistory',
          `'${other}', as the chat plugin "${id}" of this runtime has it, since both write into the same spaces (give the two plugins the same roomHistory)`,
          this.access.roomHistory,
        );
      }
    }
  }

  override async shutdown(): Promise<void> {
    await this.close();
  }

  private listener(): TriggerStart {
    return {
      type: 'start',
      id: 'message',
      start: async (runtime, signal) => {
        this.runtime = runtime;
        // When the runtime starts stopping, new messages are refused while running tasks
        // finish; the sockets close in shutdown(), once those replies are sent.
        signal.addEventListener('abort', () => {
          this.stopping = true;
        });
        await this.listen();
      },
    };
  }

  private async listen(): Promise<void> {
    const { options } = this;
    const server = createServer(
      {
        headersTimeout: options.handshakeTimeoutMs,
        requestTimeout: options.handshakeTimeoutMs,
        // Node checks the two timeouts above only this often (30 s by default).
        connectionsCheckingInterval: Math.min(1_000, options.handshakeTimeoutMs),
        // Node would answer a plain HTTP/1.1 request without Host with an empty 400 of its own;
        // every plain request gets the listener's 426 instead (an upgrade's Host is checked).
        requireHostHeader: false,
      },
      (request, response) => this.answerPlainRequest(request, response),
    );
    // Node would answer an Expect other than 100-continue with an empty 417 of its own.
    server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) =>
      this.answerPlainRequest(request, response),
    );
    // Node counts its headersTimeout from connecting only until the request's first byte, and
    // from that byte again: a client that sends one byte just before the deadline would get as
    // long again. The plugin holds every connection to the deadline from connecting.
    server.on('connection', (socket: Socket) => {
      this.awaitingUpgrade.set(socket, performance.now());
      this.tcpConnections.add(socket);
      socket.once('close', () => {
        this.awaitingUpgrade.delete(socket);
        this.tcpConnections.delete(socket);
      });
    });
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      this.awaitingUpgrade.delete(socket as Socket);
      this.upgrade(request, socket, head).catch((error: unknown) => {
        // Nothing of a failed upgrade may reach the client or take the process down.
        this.runtime?.logger.error({ error: describeError(error) }, 'websocket: upgrade failed');
        socket.destroy();
      });
    });
    // Bytes Node.js cannot parse as HTTP (an unknown method, a malformed header) are answered as
    // the runtime's server answers them, in JSON with a request id; a late or reset connection is
    // cut without a word, as the handshake deadline cuts it.
    server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
      if (!(error.code ?? '').startsWith('HPE_') || !socket.writable) {
        socket.destroy();
        return;
      }
      refuse(socket, randomUUID(), { ...clientErrorRefusal(error.code), code: 'WEFT_BAD_REQUEST' });
    });
    server.listen(options.port, options.host);
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', (error) =>
        reject(
          new WeftError(
            'WEFT_LISTEN_FAILED',
            `WebSocketPlugin: cannot listen on ${options.host}:${options.port}: ${describeError(error)}`,
            { cause: error },
          ),
        ),
      );
    });
    this.server = server;
    this.listeningPort = (server.address() as AddressInfo).port;
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatIntervalMs);
    this.heartbeat.unref();
    // As often as Node checks its own timeouts, and compared with elapsed time as it does, so a
    // handshakeTimeoutMs longer than a timer keeps works the same.
    this.handshakeCheck = setInterval(
      () => this.cutSlowHandshakes(),
      Math.min(1_000, options.handshakeTimeoutMs),
    );
    this.handshakeCheck.unref();
    this.runtime?.logger.info({ url: this.url }, 'websocket: listening');
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    // A client that resets the socket mid-handshake must not crash the process.
    socket.on('error', () => socket.destroy());
    const requestId = randomUUID();
    if (this.stopping || this.closing) {
      refuse(socket, requestId, stoppingRefusal());
      return;
    }
    // Upgrades still being checked count against the cap, so a burst cannot overshoot it.
    const open = this.connections.size + this.upgradesBeingChecked.size;
    const revokedMeanwhile = new Set<string>();
    this.upgradesBeingChecked.add(revokedMeanwhile);
    this.pendingUpgrades.set(socket, requestId);
    let verdict: Awaited<ReturnType<typeof this.checkUpgrade>>;
    let answeredByClose: boolean;
    try {
      verdict = await this.checkUpgrade(request, requestId, open);
    } finally {
      this.upgradesBeingChecked.delete(revokedMeanwhile);
      answeredByClose = !this.pendingUpgrades.delete(socket);
    }
    // The plugin's close refused it (503) while its checks ran.
    if (answeredByClose) return;
    if ('refused' in verdict) {
      // A version 8 handshake names its page in Sec-WebSocket-Origin instead of Origin.
      const origin = request.headers.origin ?? request.headers['sec-websocket-origin'];
      this.runtime?.logger.info(
        {
          requestId,
          code: verdict.refused.code,
          origin,
          host: request.headers.host,
        },
        'websocket: upgrade refused',
      );
      refuse(socket, requestId, verdict.refused);
      return;
    }
    if (socket.destroyed) return;
    // The checks wait on the application's hook, during which the runtime may begin to stop: an
    // upgrade must not open a websocket that the drain then holds open.
    if (this.stopping || this.closing) {
      refuse(socket, requestId, stoppingRefusal());
      return;
    }
    const { user } = verdict.admitted;
    if (user !== undefined && revokedMeanwhile.has(user)) {
      this.runtime?.logger.info(
        { requestId, user },
        "websocket: upgrade refused: the user's access was revoked while authenticate ran",
      );
      refuse(socket, requestId, {
        status: 401,
        code: 'WEFT_WS_UNAUTHORIZED',
        message: 'Not authorised to connect: access was revoked; sign in again',
      });
      return;
    }
    if (user !== undefined && !this.takeUserConnection(user, socket)) {
      this.runtime?.logger.info(
        { requestId, user, limit: this.options.maxConnectionsPerUser },
        'websocket: upgrade refused: the user holds maxConnectionsPerUser connections',
      );
      refuse(socket, requestId, {
        status: 503,
        code: 'WEFT_WS_TOO_MANY_CONNECTIONS',
        message: `Too many connections of this user (at most ${this.options.maxConnectionsPerUser}); close one and try again`,
      });
      return;
    }
    this.sockets.handleUpgrade(request, socket, head, (webSocket) => {
      const connection = new ChatConnection(
        webSocket,
        this.connectionHost,
        verdict.admitted,
        request,
      );
      this.connections.set(webSocket, connection);
      webSocket.on('close', () => this.connections.delete(webSocket));
      webSocket.on('error', (error) => {
        this.runtime?.logger.warn(
          { connectionId: connection.id, error: describeError(error) },
          'websocket: connection error',
        );
      });
    });
  }

  /**
   * Counts a connection against its user's `maxConnectionsPerUser` until its socket closes.
   *
   * @returns `false`, counting nothing, when the user holds as many already.
   */
  private takeUserConnection(user: string, socket: Duplex): boolean {
    const held = this.connectionsByUser.get(user) ?? 0;
    if (held >= this.options.maxConnectionsPerUser) return false;
    this.connectionsByUser.set(user, held + 1);
    socket.once('close', () => {
      const left = (this.connectionsByUser.get(user) ?? 1) - 1;
      if (left <= 0) this.connectionsByUser.delete(user);
      else this.connectionsByUser.set(user, left);
    });
    return true;
  }

  private get connectionHost(): ConnectionHost {
    return {
      pluginId: this.id,
      options: this.options,
      access: this.access,
      runtime: this.runtime as Runtime,
      accepting: () => !this.stopping && this.closing === undefined,
    };
  }

  /**
   * Pings every client; one that did not answer the previous ping (a pong echoing its data) is
   * gone and is dropped.
   */
  private beat(): void {
    for (const [webSocket, connection] of this.connections) {
      if (!connection.alive) {
        this.runtime?.logger.info(
          { connectionId: connection.id },
          'websocket: no pong; connection dropped',
        );
        webSocket.terminate();
        continue;
      }
      connection.ping();
    }
  }

  /**
   * Cuts, without an answer, every connection that has not sent its upgrade request within
   * `handshakeTimeoutMs` of connecting. A connection that sent plain HTTP requests instead (each
   * answered 426) is cut the same way.
   */
  private cutSlowHandshakes(): void {
    const deadline = performance.now() - this.options.handshakeTimeoutMs;
    for (const [socket, connectedAt] of this.awaitingUpgrade) {
      if (connectedAt <= deadline) {
        this.awaitingUpgrade.delete(socket);
        socket.destroy();
      }
    }
  }

  private answerPlainRequest(request: IncomingMessage, response: ServerResponse): void {
    const requestId = randomUUID();
    response.writeHead(426, {
      'content-type': 'application/json; charset=utf-8',
      upgrade: 'websocket',
      'x-request-id': requestId,
    });
    response.end(
      JSON.stringify({
        error: {
          status: 426,
          code: 'WEFT_WS_UPGRADE_REQUIRED',
          message: `Connect with a websocket client to ${this.options.path}`,
          docsUrl: errorDocsUrl('WEFT_WS_UPGRADE_REQUIRED'),
          requestId,
        },
      }),
    );
    request.resume();
  }

  private async closeOnce(): Promise<void> {
    this.stopping = true;
    clearInterval(this.heartbeat);
    clearInterval(this.handshakeCheck);
    const deadline = performance.now() + this.options.closeTimeoutMs;
    const server = this.server;
    const serverClosed = server
      ? new Promise<void>((resolve) => server.close(() => resolve()))
      : Promise.resolve();
    server?.closeIdleConnections();
    // An upgrade whose authenticate still runs would hold the listener open for up to
    // authTimeoutMs, past the runtime's shutdown grace: it is answered now, as the stop would.
    for (const [socket, requestId] of this.pendingUpgrades) {
      this.runtime?.logger.info(
        { requestId, code: 'WEFT_WS_TOO_MANY_CONNECTIONS' },
        'websocket: upgrade refused: the plugin closed while its checks ran',
      );
      refuse(socket, requestId, stoppingRefusal());
    }
    this.pendingUpgrades.clear();
    const open = [...this.connections.keys()];
    const allClosed = Promise.all(
      open.map(
        (webSocket) => new Promise<void>((resolve) => webSocket.once('close', () => resolve())),
      ),
    );
    for (const webSocket of open) webSocket.close(SHUTDOWN_CLOSE.code, SHUTDOWN_CLOSE.reason);
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([
      allClosed.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), this.options.closeTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (late) {
      this.runtime?.logger.warn(
        { connections: this.connections.size, timeoutMs: this.options.closeTimeoutMs },
        'websocket: clients did not answer the close frame in time; connections cut',
      );
      for (const webSocket of this.connections.keys()) webSocket.terminate();
      // A terminated socket emits close at once, so this wait is short.
      await allClosed;
    }
    server?.closeAllConnections();
    // What is left are refused upgrades whose clients have not read the answer yet: they get
    // what remains of closeTimeoutMs, then are cut.
    let cutTimer: NodeJS.Timeout | undefined;
    await Promise.race([
      serverClosed,
      new Promise<void>((resolve) => {
        cutTimer = setTimeout(resolve, Math.max(0, deadline - performance.now()));
      }),
    ]);
    clearTimeout(cutTimer);
    for (const socket of this.tcpConnections) socket.destroy();
    await serverClosed;
    this.sockets.close();
    this.listeningPort = undefined;
    this.runtime?.logger.info('websocket: closed');
  }
}

/**
 * The answer to an upgrade that the runtime's stop, or the plugin's close, found under way; one
 * that comes after the close finds the port closed.
 */
function stoppingRefusal(): Refusal {
  return {
    status: 503,
    code: 'WEFT_WS_TOO_MANY_CONNECTIONS',
    message: 'The server is stopping; try again later',
  };
}

/** Answers a refused upgrade with a JSON error over plain HTTP, then ends the socket. */
function refuse(socket: Duplex, requestId: string, refusal: Refusal): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({
    error: {
      status: refusal.status,
      code: refusal.code,
      message: refusal.message,
      docsUrl: errorDocsUrl(refusal.code),
      requestId,
    },
  });
  // A 426 names the protocol to upgrade to, and the websocket version this server speaks.
  const upgradeTo =
    refusal.status === 426 ? 'Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n' : '';
  // A 503 (too many connections, or stopping) asks for the wait the runtime's server asks for.
  const retryAfter = weftRetryAfter(refusal.status);
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}\r\n` +
      'Connection: close\r\n' +
      upgradeTo +
      (retryAfter === undefined ? '' : `Retry-After: ${retryAfter}\r\n`) +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n\r\n` +
      body,
  );
  // A client that never reads the answer must not hold the socket open.
  setTimeout(() => socket.destroy(), 1_000).unref();
}
