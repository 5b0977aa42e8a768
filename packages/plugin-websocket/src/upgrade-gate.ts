/** The checks an upgrade request passes before a websocket is accepted: see {@link upgradeGate}. */
import type { IncomingMessage } from 'node:http';
import {
  ABSOLUTE_FORM_WITHOUT_HOST,
  absoluteFormAuthority,
  hostChecker,
  namesHostOnly,
  normaliseOrigin,
  protocolRefusal,
} from '@weft/core/internal';
import type { Runtime } from '@weft/core';
import type { ChatAccess } from '@weft/plugin-chat';
import type { WebSocketPluginErrorCode } from './errors.js';
import { requestPath, type ResolvedOptions } from './options.js';

/** Why an upgrade was refused: the HTTP answer. */
export interface Refusal {
  status: number;
  code: WebSocketPluginErrorCode | 'WEFT_HOST_NOT_ALLOWED' | 'WEFT_BAD_REQUEST';
  message: string;
}

/** A `Sec-WebSocket-Key` as `ws` accepts it: 16 bytes in base64. */
const HANDSHAKE_KEY = /^[+/0-9A-Za-z]{22}==$/;

/**
 * What makes an upgrade request something other than a websocket handshake that `ws` completes:
 * the method, the `Upgrade` header, the key or the version. `ws` would refuse such a request
 * itself, with a plain-text answer; the gate refuses it first, in JSON, like its other refusals.
 *
 * @param request - The upgrade request.
 * @returns What is wrong, for the answer's message, or `undefined` for a handshake.
 * @claim tsdoc-ws-handshake-problem
 */
export function handshakeProblem(request: IncomingMessage): string | undefined {
  if (request.method !== 'GET') {
    return `the method must be GET, not ${clip(request.method ?? '')}`;
  }
  if (request.headers.upgrade?.toLowerCase() !== 'websocket') {
    return 'the Upgrade header must be websocket';
  }
  const key = request.headers['sec-websocket-key'];
  if (key === undefined || !HANDSHAKE_KEY.test(key)) {
    return 'the Sec-WebSocket-Key header is missing or invalid';
  }
  const version = Number(request.headers['sec-websocket-version']);
  if (version !== 13 && version !== 8) return 'the Sec-WebSocket-Version header must be 13';
  return undefined;
}

/** What an accepted upgrade carries into its connection. */
export interface Admission {
  /**
   * The user `authenticate` named, whose id then replaces the frames' `user`.
   * @claim tsdoc-ws-gate-user
   */
  user?: string;
}

/**
 * Builds the gate for one plugin's options. An upgrade request passes its checks in order: the
 * path, the HTTP version (505 for a major version other than 1, such as `HTTP/2.0`, as the
 * runtime's server answers it; 400 for HTTP/1.0, since RFC 6455 asks for HTTP/1.1), the transfer
 * coding (501 for one other than `chunked`, as the runtime's server answers it), the handshake
 * itself ({@link handshakeProblem}), the `Host` header (exactly one, present, not empty, and an allowed
 * host, against DNS rebinding; the host a request line in absolute form names is judged in its
 * place, as RFC 9112 asks), the
 * `Origin` header (cross-site pages), the connection cap, and the user's `authenticate` hook
 * under a deadline, which must name a user unless `trustClientUser` is on. Refusals answer plain
 * HTTP, so a refused client never holds a websocket.
 *
 * @param options - The plugin's options.
 * @param access - The plugin's access rules, whose `authenticate` runs last.
 * @param logger - Where a failing or hung `authenticate` is logged.
 * @returns A function that admits or refuses one upgrade request.
 * @claim tsdoc-ws-gate-order
 */
export function upgradeGate(
  options: ResolvedOptions,
  access: ChatAccess,
  logger: () => Runtime['logger'] | undefined,
): (
  request: IncomingMessage,
  requestId: string,
  openConnections: number,
) => Promise<{ admitted: Admission } | { refused: Refusal }> {
  const isAllowedHost = hostChecker(options.allowedHosts, options.host);
  const origins =
    options.allowedOrigins === true
      ? true
      : new Set(options.allowedOrigins.map((origin) => normaliseOrigin(origin) as string));
  return async (request, requestId, openConnections) => {
    // A target that is no URL (`//[x`) has no path, and is refused as any other path is.
    const path = targetPath(request.url ?? '/');
    if (path !== options.path) {
      return refuse(
        404,
        'WEFT_WS_UPGRADE_REQUIRED',
        `No websocket at ${clip(path ?? request.url ?? '')}`,
      );
    }
    // What the runtime's server refuses as it reads a request, the same way: another major HTTP
    // version (505), which Node.js parses as HTTP/1.1, or a transfer coding it does not decode (501).
    // The version is judged whole before the transfer coding: an HTTP/1.0 upgrade gets its 400
    // whatever its Transfer-Encoding, and the 505 names the version an upgrade needs, not the
    // HTTP/1.0 the runtime's server also takes.
    const unread = protocolRefusal(request);
    if (unread?.status === 505) {
      return refuse(
        505,
        'WEFT_BAD_REQUEST',
        `HTTP/${request.httpVersionMajor}.${request.httpVersionMinor} is not supported: a websocket upgrade needs HTTP/1.1`,
      );
    }
    // RFC 6455 asks for HTTP/1.1: an HTTP/1.0 upgrade is malformed, and a 426 would invite the
    // client to upgrade in a version that cannot.
    if (!isHttp11(request)) {
      return refuse(
        400,
        'WEFT_BAD_REQUEST',
        `A websocket upgrade must use HTTP/1.1 or later, not HTTP/${request.httpVersionMajor}.${request.httpVersionMinor}`,
      );
    }
    if (unread !== undefined) return refuse(unread.status, 'WEFT_BAD_REQUEST', unread.message);
    const problem = handshakeProblem(request);
    if (problem !== undefined) {
      return refuse(
        426,
        'WEFT_WS_UPGRADE_REQUIRED',
        `Not a websocket handshake: ${problem}; connect with a websocket client to ${options.path}`,
      );
    }
    // Node keeps the first of several Host headers, which a proxy in front may not: such a
    // request, which HTTP/1.1 forbids, is refused as the runtime's server refuses it.
    const hosts = hostHeaderCount(request);
    if (hosts > 1) {
      return refuse(400, 'WEFT_BAD_REQUEST', `A request must carry one Host header, not ${hosts}`);
    }
    // As on the runtime's server: HTTP/1.1 makes Host mandatory, and an empty one names no host;
    // either is malformed whatever the allowed hosts. (HTTP/1.0, which may leave it out, was
    // refused above.)
    const host = request.headers.host;
    if (host === undefined) {
      return refuse(400, 'WEFT_BAD_REQUEST', 'An HTTP/1.1 request must carry a Host header');
    }
    if (host !== undefined && host.trim() === '') {
      return refuse(400, 'WEFT_BAD_REQUEST', 'The Host header must name a host; it is empty');
    }
    // A target in absolute form (`GET http://chat.example/ws`) names the host itself, and RFC 9112
    // has the server ignore Host then: as on the runtime's server, that host is the one judged.
    const authority = absoluteFormAuthority(request.url);
    if (authority !== undefined && !namesHostOnly(authority)) {
      return refuse(400, 'WEFT_BAD_REQUEST', ABSOLUTE_FORM_WITHOUT_HOST);
    }
    const named = authority ?? host;
    if (!isAllowedHost(named)) {
      return refuse(
        403,
        'WEFT_HOST_NOT_ALLOWED',
        `Host ${clip(named)} is not allowed by this server`,
      );
    }
    // A browser speaking version 8 of the protocol, which `ws` still completes, names its page in
    // Sec-WebSocket-Origin rather than Origin: whichever the upgrade carries must be allowed.
    const legacyOrigin = request.headers['sec-websocket-origin'];
    for (const origin of [request.headers.origin, legacyOrigin]) {
      if (typeof origin !== 'string' || origins === true) continue;
      if (!origins.has(normaliseOrigin(origin) ?? '')) {
        return refuse(
          403,
          'WEFT_WS_ORIGIN_NOT_ALLOWED',
          `Origin ${clip(origin)} is not allowed to connect`,
        );
      }
    }
    if (openConnections >= options.maxConnections) {
      return refuse(503, 'WEFT_WS_TOO_MANY_CONNECTIONS', 'Too many connections; try again later');
    }
    const log = logger();
    const verdict = await access.authenticate(request, requestId, log);
    if (verdict === false) return refuse(401, 'WEFT_WS_UNAUTHORIZED', 'Not authorised to connect');
    if (verdict.user === undefined && !access.trustClientUser) {
      log?.warn(
        { requestId, authenticates: access.authenticates },
        'websocket: no user for the connection: authenticate named none and trustClientUser is off; upgrade refused',
      );
      return refuse(
        401,
        'WEFT_WS_UNAUTHORIZED',
        'Not authorised to connect: this server does not take the user a frame names',
      );
    }
    return { admitted: verdict.user === undefined ? {} : { user: verdict.user } };
  };
}

/**
 * The path a request target names. A target in absolute form is read as RFC 9112 reads it, the
 * path being what follows the authority: a URL parser would take the first segment of
 * `http:///ws` for its host and find the path `/`, so that a target naming no host would be
 * refused as a wrong path (404) rather than as malformed (400).
 */
function targetPath(target: string): string | undefined {
  const authority = absoluteFormAuthority(target);
  if (authority === undefined) return requestPath(target);
  const rest = target.slice(target.indexOf('//') + 2 + authority.length);
  return requestPath(`http://localhost${rest.startsWith('/') ? '' : '/'}${rest}`);
}

/** Whether the request speaks HTTP/1.1 or later, which a websocket upgrade needs. */
function isHttp11(request: IncomingMessage): boolean {
  return (
    request.httpVersionMajor > 1 ||
    (request.httpVersionMajor === 1 && request.httpVersionMinor >= 1)
  );
}

/** How many `Host` headers the request carried, duplicates included. */
function hostHeaderCount(request: IncomingMessage): number {
  return request.rawHeaders.filter(
    (value, index) => index % 2 === 0 && value.toLowerCase() === 'host',
  ).length;
}

function refuse(status: number, code: Refusal['code'], message: string): { refused: Refusal } {
  return { refused: { status, code, message } };
}

/** A header quoted back to the client, cut short so an answer stays small. */
function clip(text: string): string {
  return JSON.stringify(text.slice(0, 100));
}
