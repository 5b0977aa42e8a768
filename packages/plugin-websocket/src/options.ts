/** The options of `WebSocketPlugin`, their defaults, and the checks that name a bad one. */
import {
  ALLOWED_HOST_RULE,
  isAllowedHostEntry,
  MAX_TIMER_MS,
  normaliseOrigin,
  TIMER_LIMIT_RULE,
  type AllowedHosts,
} from '@weft/core/internal';
import { CHAT_ACCESS_DEFAULTS, type ChatAccessOptions } from '@weft/plugin-chat';
import { WebSocketPluginError } from './errors.js';

/**
 * Options of `WebSocketPlugin`. Every limit has a default; all times are milliseconds, and those
 * that become timers (all but `handshakeTimeoutMs`) at most 2147483647, the longest delay a
 * Node.js timer keeps. Who may
 * connect as whom, in which room, and how many messages one user may have waiting are the
 * options `@weft/plugin-chat`'s `ChatPlugin` takes too ({@link ChatAccessOptions}):
 * `authenticate` runs before the upgrade is accepted (and again every `reauthenticateMs` when
 * that is set), and a connection for which it names no user is refused (401) unless
 * `trustClientUser` is on.
 * @claim tsdoc-ws-options-defaults
 * @claim tsdoc-ws-options-timer-max
 * @claim tsdoc-ws-options-no-user
 */
export interface WebSocketPluginOptions extends ChatAccessOptions {
  /** TCP port of the plugin's listener; `0` picks a free one. Default 3001. */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`; use `0.0.0.0` to accept remote clients. */
  host?: string;
  /**
   * The path clients connect to, written as a URL writes it: starting with `/` but not `//`,
   * percent-encoded where a URL would encode (`%20` for a space, `%C3%A9` for `é`), and without
   * `?`, `#`, a backslash, or a `.` or `..` segment. The upgrade's path is read as a URL reads it,
   * so another path could never match. Default `/ws`.
   * @claim tsdoc-ws-options-path
   */
  path?: string;
  /**
   * Host names the upgrade's `Host` header may carry, as the runtime server's `allowedHosts`
   * (against DNS rebinding): loopback names, the bound host and IP addresses are always allowed.
   * An entry with a scheme, a port or a path (`'https://chat.example.com'`,
   * `'chat.example.com:3001'`), which no `Host` header can match since its port is left out of
   * the comparison, is refused. Default `[]`.
   * @claim tsdoc-ws-options-allowed-hosts-names-only
   */
  allowedHosts?: AllowedHosts;
  /**
   * Origins of the web pages allowed to connect, such as `https://chat.example.com`. A browser
   * always sends `Origin` on a websocket upgrade (`Sec-WebSocket-Origin` in the protocol's old
   * version 8), and lets any page open one, so an upgrade with either header naming an origin not
   * listed here is refused with 403. Clients that send neither header (native apps,
   * servers, terminal clients) are not browsers and are let through to `authenticate`.
   * A browser extension's or an app's origin (`chrome-extension://id`, `capacitor://localhost`)
   * is listed the same way. `true` allows every origin. Default `[]`: no web page may connect.
   * @claim tsdoc-ws-options-no-origin
   */
  allowedOrigins?: true | readonly string[];
  /**
   * Longest a client may take, from connecting, to send the upgrade request's headers. The plugin
   * checks once a second, so a slower client is cut, without an answer, up to 1 s after.
   * Default 10000; at most 9007199254740991.
   */
  handshakeTimeoutMs?: number;
  /**
   * Largest message accepted, in bytes, the frames of a fragmented message counted together; a
   * larger one closes the connection (1009). Default 65536; at most 2147483647.
   */
  maxPayloadBytes?: number;
  /**
   * Most open connections, counting upgrades whose checks (`authenticate`) are still running;
   * more are refused with 503. Default 1000.
   */
  maxConnections?: number;
  /**
   * Most open connections of one user `authenticate` named, so that one user cannot hold the
   * connections every other user needs; more are refused with 503. Default 16.
   */
  maxConnectionsPerUser?: number;
  /** Most messages of one connection waiting for replies at once. Default 4. */
  maxInFlight?: number;
  /**
   * Most frames one connection may send within any one second: a frame that comes less than a
   * second after the frame this many before it closes the connection with `FLOOD_CLOSE` (1008),
   * so that one client cannot make the server read and answer frames without end. Default 20.
   * @claim tsdoc-ws-max-frames-per-second
   */
  maxFramesPerSecond?: number;
  /**
   * Longest a message waits for its reply, counted from its `accepted` frame, before an error
   * frame frees its slot. Default 120000.
   */
  taskTimeoutMs?: number;
  /**
   * How often the server pings each client; a client that has not answered the previous ping
   * by the next one is dropped. Default 30000.
   */
  heartbeatIntervalMs?: number;
  /**
   * A connection that for this long neither sends a message nor has one waiting for its reply
   * is closed (1000): the time counts from its last frame or from the end of its last message,
   * whichever is later. Default 600000.
   */
  idleTimeoutMs?: number;
  /**
   * Most bytes left waiting for one client when the next frame is due. A client that stops
   * reading is dropped when a frame finds its backlog past this, so a slow reader cannot make the
   * server hold unbounded memory; a single reply may be larger and still reaches a client that
   * reads, but a frame due while more than this of it is still unsent drops the client all the
   * same, since the backlog cannot tell a slow link from a client that stopped. Default 1048576.
   */
  maxBufferedBytes?: number;
  /**
   * How long closing waits for clients to answer the close frame before it cuts their
   * connections. `runtime.stop()` gives its plugins and providers one grace of 2 s together to
   * shut down, so the default leaves the providers that stop after the plugin (the memory store)
   * the rest; past the grace the stop goes on without waiting for them. Default 1000.
   * @claim tsdoc-ws-close-timeout-grace
   */
  closeTimeoutMs?: number;
  /**
   * How often `authenticate` runs again for each open connection, with the upgrade request it
   * first saw, so that a revoked token ends the connections it opened. A connection whose check
   * now fails (the hook refuses, throws, or takes longer than `authTimeoutMs`) or names another
   * user is closed with `REVOKED_CLOSE` (4001). Needs `authenticate`. Default none: the check
   * runs once, when the connection opens; `closeConnectionsOf` ends a user's connections at once.
   * @claim tsdoc-ws-options-reauthenticate
   */
  reauthenticateMs?: number;
}

/** The options with their defaults filled in. */
export type ResolvedOptions = Required<
  Omit<WebSocketPluginOptions, 'authenticate' | 'authorizeRoom' | 'reauthenticateMs'>
> &
  Pick<WebSocketPluginOptions, 'authenticate' | 'authorizeRoom' | 'reauthenticateMs'>;

const DEFAULTS = {
  port: 3001,
  host: '127.0.0.1',
  path: '/ws',
  allowedHosts: [] as readonly string[],
  allowedOrigins: [] as readonly string[],
  authTimeoutMs: CHAT_ACCESS_DEFAULTS.authTimeoutMs,
  trustClientUser: CHAT_ACCESS_DEFAULTS.trustClientUser,
  roomHistory: CHAT_ACCESS_DEFAULTS.roomHistory,
  maxInFlightPerUser: CHAT_ACCESS_DEFAULTS.maxInFlightPerUser,
  handshakeTimeoutMs: 10_000,
  maxPayloadBytes: 65_536,
  maxConnections: 1_000,
  maxConnectionsPerUser: 16,
  maxInFlight: 4,
  maxFramesPerSecond: 20,
  taskTimeoutMs: 120_000,
  heartbeatIntervalMs: 30_000,
  idleTimeoutMs: 600_000,
  maxBufferedBytes: 1_048_576,
  closeTimeoutMs: 1_000,
} as const;

/**
 * Every option the constructor knows, its own and `ChatAccessOptions`, checked at compile time
 * against {@link WebSocketPluginOptions}; any other name, most likely a misspelt one, is refused.
 */
const OPTION_NAMES = Object.keys({
  port: true,
  host: true,
  path: true,
  allowedHosts: true,
  allowedOrigins: true,
  authenticate: true,
  trustClientUser: true,
  roomHistory: true,
  authorizeRoom: true,
  authTimeoutMs: true,
  maxInFlightPerUser: true,
  handshakeTimeoutMs: true,
  maxPayloadBytes: true,
  maxConnections: true,
  maxConnectionsPerUser: true,
  maxInFlight: true,
  maxFramesPerSecond: true,
  taskTimeoutMs: true,
  heartbeatIntervalMs: true,
  idleTimeoutMs: true,
  maxBufferedBytes: true,
  closeTimeoutMs: true,
  reauthenticateMs: true,
} satisfies Record<keyof WebSocketPluginOptions, true>);

const POSITIVE_OPTIONS = [
  'authTimeoutMs',
  'handshakeTimeoutMs',
  'maxPayloadBytes',
  'maxConnections',
  'maxConnectionsPerUser',
  'maxInFlight',
  'maxInFlightPerUser',
  'maxFramesPerSecond',
  'taskTimeoutMs',
  'heartbeatIntervalMs',
  'idleTimeoutMs',
  'maxBufferedBytes',
  'closeTimeoutMs',
] as const;

/**
 * The largest `maxPayloadBytes`: `ws` keeps its cap as a 32-bit integer, and a larger value wraps
 * around, to zero or below, which it reads as no cap at all, or to a far smaller cap.
 */
const MAX_PAYLOAD_BYTES = 2_147_483_647;

/**
 * The options that become `setTimeout` or `setInterval` delays, which Node.js runs after 1 ms
 * when they are longer than it keeps. `handshakeTimeoutMs` is not one: the plugin and the HTTP
 * server compare it with the time a connection has taken.
 */
const TIMER_OPTIONS = [
  'authTimeoutMs',
  'taskTimeoutMs',
  'heartbeatIntervalMs',
  'idleTimeoutMs',
  'closeTimeoutMs',
] as const;

/**
 * Fills in the defaults and checks every option.
 *
 * @param options - What the user passed.
 * @returns The complete options.
 * @throws WebSocketPluginError `WEFT_WS_INVALID_OPTIONS` naming the first bad or unknown option.
 */
export function resolveOptions(options: WebSocketPluginOptions): ResolvedOptions {
  const unknown = Object.keys(options ?? {}).find((name) => !OPTION_NAMES.includes(name));
  if (unknown !== undefined) {
    throw new WebSocketPluginError(
      'WEFT_WS_INVALID_OPTIONS',
      `WebSocketPlugin: unknown option ${JSON.stringify(unknown)}; the options are ${OPTION_NAMES.join(', ')}.`,
    );
  }
  const resolved: ResolvedOptions = { ...DEFAULTS, ...withoutUndefined(options) };
  const port = resolved.port;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw invalid('port', 'an integer from 0 to 65535', port);
  }
  if (typeof resolved.path !== 'string' || !resolved.path.startsWith('/')) {
    throw invalid('path', 'a string starting with "/"', resolved.path);
  }
  // The gate compares the path of each upgrade, as a URL reads it, with this one: a path a URL
  // writes otherwise would answer every upgrade 404, even one to the plugin's own `url`.
  if (requestPath(resolved.path) !== resolved.path) {
    throw invalid(
      'path',
      'a path a URL keeps as it is (percent-encoded where a URL would encode, such as %20 for a space, and with no "?", "#", backslash, leading "//", or "." or ".." segment)',
      resolved.path,
    );
  }
  if (typeof resolved.host !== 'string' || resolved.host === '') {
    throw invalid('host', 'a host name or address', resolved.host);
  }
  for (const name of POSITIVE_OPTIONS) {
    const value = resolved[name];
    if (!Number.isInteger(value) || value <= 0) throw invalid(name, 'a positive integer', value);
  }
  // The HTTP server takes its request timeouts up to the largest safe integer, and throws past it
  // only when the plugin starts.
  if (resolved.handshakeTimeoutMs > Number.MAX_SAFE_INTEGER) {
    throw invalid(
      'handshakeTimeoutMs',
      `at most ${Number.MAX_SAFE_INTEGER} ms, the longest the HTTP server takes`,
      resolved.handshakeTimeoutMs,
    );
  }
  // ws reads its maxPayload as a 32-bit integer: a larger cap wraps to none, or to a tiny one.
  if (resolved.maxPayloadBytes > MAX_PAYLOAD_BYTES) {
    throw invalid(
      'maxPayloadBytes',
      `a positive integer of at most ${MAX_PAYLOAD_BYTES}`,
      resolved.maxPayloadBytes,
    );
  }
  for (const name of TIMER_OPTIONS) {
    if (resolved[name] > MAX_TIMER_MS) throw invalid(name, TIMER_LIMIT_RULE, resolved[name]);
  }
  const recheck = resolved.reauthenticateMs;
  if (recheck !== undefined) {
    if (!Number.isInteger(recheck) || recheck <= 0) {
      throw invalid('reauthenticateMs', 'a positive integer', recheck);
    }
    if (recheck > MAX_TIMER_MS) throw invalid('reauthenticateMs', TIMER_LIMIT_RULE, recheck);
    if (resolved.authenticate === undefined) {
      throw invalid(
        'reauthenticateMs',
        'left out when there is no authenticate hook (there is nothing to run again); add authenticate or remove reauthenticateMs',
        recheck,
      );
    }
  }
  const origins = resolved.allowedOrigins;
  if (origins !== true) {
    if (!Array.isArray(origins)) {
      throw invalid(
        'allowedOrigins',
        "true or a list of origins such as ['https://chat.example.com']",
        origins,
      );
    }
    for (const origin of origins) {
      if (typeof origin !== 'string' || normaliseOrigin(origin) === undefined) {
        throw invalid(
          'allowedOrigins',
          'origins of the form scheme://host[:port], without a path',
          origin,
        );
      }
    }
  }
  const hosts = resolved.allowedHosts;
  if (hosts !== true && hosts !== 'all') {
    if (
      !Array.isArray(hosts) ||
      !hosts.every((name) => typeof name === 'string' && name.trim() !== '')
    ) {
      throw invalid('allowedHosts', "true, 'all' or a list of host names", hosts);
    }
    // The gate compares each entry with the name of the Host header, its port left out: an
    // entry with a scheme, a port or a path would match nothing and refuse every upgrade meant.
    const unmatchable = hosts.find((name) => !isAllowedHostEntry(name));
    if (unmatchable !== undefined) {
      throw invalid('allowedHosts', `a list of host names, each ${ALLOWED_HOST_RULE}`, unmatchable);
    }
  }
  return resolved;
}

/**
 * The path of a request's URL (its request target) as the upgrade gate compares it with the
 * `path` option: percent-encoded where a URL encodes, dot segments resolved, without the query.
 *
 * @param url - The request target, such as `/ws?token=1`.
 * @returns The path, such as `/ws`, or `undefined` when the target is no URL at all (such as
 *   `//[x`, which a URL reads as a host that cannot be): no path can match it.
 */
export function requestPath(url: string): string | undefined {
  try {
    return new URL(url, 'http://localhost').pathname;
  } catch {
    return undefined;
  }
}

function withoutUndefined(options: WebSocketPluginOptions): WebSocketPluginOptions {
  return Object.fromEntries(
    Object.entries(options ?? {}).filter(([, value]) => value !== undefined),
  ) as WebSocketPluginOptions;
}

/**
 * The error of a bad option, naming it, what it must be and the value given.
 *
 * @param name - The option.
 * @param what - What it must be.
 * @param value - What was given.
 * @returns The `WEFT_WS_INVALID_OPTIONS` error.
 */
export function invalid(name: string, what: string, value: unknown): WebSocketPluginError {
  let shown: string;
  try {
    shown = typeof value === 'function' ? 'a function' : (JSON.stringify(value) ?? String(value));
  } catch {
    shown = String(value);
  }
  return new WebSocketPluginError(
    'WEFT_WS_INVALID_OPTIONS',
    `WebSocketPlugin: option "${name}" must be ${what}, got ${shown}.`,
  );
}
