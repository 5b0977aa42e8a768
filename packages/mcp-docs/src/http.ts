/**
 * The server over streamable HTTP, for clients that connect to a URL rather than start a
 * process. Stateless: each POST gets its own server and transport, so nothing is kept between
 * requests. Bound to 127.0.0.1 by default, and every request's `Host` (and `Origin`, when a
 * browser sends one) must pass the same check as the Weft runtime's HTTP server, so a web page
 * whose name was rebound to 127.0.0.1 cannot reach it. Each client address has a rate and a
 * number of connections it may not pass, and a request has a deadline to arrive.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { isIP, type AddressInfo, type Socket } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  ABSOLUTE_FORM_WITHOUT_HOST,
  absoluteFormAuthority,
  namesHostOnly,
  ALLOWED_HOST_RULE,
  hostChecker,
  hostnameOf,
  isAllowedHostEntry,
  type AllowedHosts,
} from '@weft/core/internal';
import { logToStderr, type FailureLog } from './answers.js';
import type { DocsBundle } from './bundle.js';
import { DocsServerError } from './errors.js';
import { createDocsServer } from './server.js';
import { MAX_MESSAGE_BYTES } from './stdio.js';

/**
 * The path of the MCP endpoint; every other path is answered 404.
 * @claim tsdoc-docs-http-path
 */
export const MCP_HTTP_PATH = '/mcp';
/**
 * A JSON-RPC request for a docs tool is small; a larger body is refused before it is parsed.
 * @claim tsdoc-docs-http-max-body
 */
export const MAX_BODY_BYTES = MAX_MESSAGE_BYTES;
/** The longest a client may take to send a request, by default; a stalled one is cut off. */
export const REQUEST_DEADLINE_MS = 30_000;
/** The requests one client address may make per second, by default. */
export const REQUESTS_PER_SECOND = 20;
/** The connections one client address may hold open at once, by default. */
export const CONNECTIONS_PER_CLIENT = 16;
/**
 * How long a connection refused `503` stays open once the answer is written, for the client to
 * read it; it is then closed, whether or not the client closed its side.
 */
const REFUSED_LINGER_MS = 1_000;
/** The longest timer node keeps (2^31-1 ms); a socket asked for a longer one gets this one. */
const LONGEST_TIMER_MS = 2_147_483_647;

/** Where {@link startHttpServer} listens and what it accepts. */
export interface HttpOptions {
  /**
   * The interface to listen on; 127.0.0.1 unless the machine's users should reach it.
   * @claim tsdoc-docs-http-host
   */
  readonly host?: string;
  /**
   * The port; `0`, the default here, picks a free one (read it from the returned `url`). The
   * `weft-docs-mcp` command defaults to 3920 instead.
   * @claim tsdoc-docs-http-port
   */
  readonly port?: number;
  /**
   * Host names accepted besides the loopback names and `host`, as in the runtime's server:
   * `true` or `'all'` for any, or a list of names. A name with a scheme, a port or a path
   * (`'https://docs.example.com'`, `'docs.example.com:3920'`), which no `Host` header can
   * match since its port is left out of the comparison, is refused.
   * @claim tsdoc-docs-http-allowed-hosts-names-only
   */
  readonly allowedHosts?: AllowedHosts;
  /**
   * Where failures are written, with the id the client is given; standard error by default.
   * @claim tsdoc-docs-http-log
   */
  readonly log?: FailureLog;
  /**
   * How long a client has to send a whole request, headers and body, and the longest a
   * connection may stay silent (idle after an answer, it is closed at this deadline or at
   * Node.js's keep-alive timeout of 5 s, whichever comes first, with up to a second that Node.js
   * adds); the connection is then cut, after a `408` answer when a request was still arriving,
   * slowly, at the deadline. {@link REQUEST_DEADLINE_MS} (30000) by default; an integer of at
   * least 1.
   * @claim tsdoc-docs-http-request-deadline
   */
  readonly requestTimeoutMs?: number;
  /**
   * The requests one client address may make per second, in bursts of up to as many; one over
   * it is answered `429` with `Retry-After`. {@link REQUESTS_PER_SECOND} (20) by default; an
   * integer of at least 1.
   * @claim tsdoc-docs-http-rate
   */
  readonly requestsPerSecond?: number;
  /**
   * The connections one client address may hold open at once; one more is answered `503` and
   * closed. {@link CONNECTIONS_PER_CLIENT} (16) by default; an integer of at least 1.
   * @claim tsdoc-docs-http-connections
   */
  readonly connectionsPerClient?: number;
}

/** A started HTTP transport. */
export interface RunningHttpServer {
  /** The MCP endpoint, such as `http://127.0.0.1:3920/mcp`. */
  readonly url: string;
  /**
   * Closes every connection, open requests included, and stops listening.
   * @claim tsdoc-docs-http-close
   */
  close(): Promise<void>;
}

function errorBody(message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

function sendJsonError(
  response: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(errorBody(message));
}

/**
 * Each client address's allowance, refilled at `perSecond` up to `perSecond` requests: a token
 * bucket. Addresses whose bucket is full again are forgotten when there are many.
 */
class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly perSecond: number) {}

  /**
   * Takes `count` requests (one, or each message of a JSON-RPC batch) from the address's
   * allowance; takes nothing and returns the seconds to wait when it holds fewer.
   */
  take(address: string, count = 1): number | undefined {
    const now = performance.now();
    const bucket = this.buckets.get(address) ?? { tokens: this.perSecond, at: now };
    bucket.tokens = Math.min(
      this.perSecond,
      bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond,
    );
    bucket.at = now;
    this.buckets.set(address, bucket);
    if (this.buckets.size > 10_000) this.forgetIdle(now);
    if (bucket.tokens >= count) {
      bucket.tokens -= count;
      return undefined;
    }
    return Math.ceil((count - bucket.tokens) / this.perSecond);
  }

  private forgetIdle(now: number): void {
    for (const [address, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond >= this.perSecond) {
        this.buckets.delete(address);
      }
    }
  }
}

/**
 * Reads the request's JSON body. Past {@link MAX_BODY_BYTES} it keeps nothing more and rejects
 * with a `RangeError` at once, so the 413 goes out while the client still sends, but it goes on
 * reading the rest to drop it: a body nobody reads holds its connection (and any request the
 * client sends next on it) until the deadline, and the connection counts against the client's
 * share. Leaving a `for await` over the request would do just that: node's iterator destroys the
 * request and detaches it from its socket.
 */
function readJsonBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      chunks = [];
      reject(error);
    };
    request.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        fail(new RangeError(`the body is larger than ${MAX_BODY_BYTES} bytes`));
      } else chunks.push(chunk);
    });
    request.on('end', () => {
      if (settled) return;
      settled = true;
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (error) {
        reject(error as Error);
      }
    });
    request.on('error', fail);
    request.on('close', () => fail(new Error('the connection closed before the body ended')));
  });
}

/**
 * One of the limits, checked. A value below 1 (or `NaN`) lifts no limit: it refuses every client,
 * `0` requests per second as much as `0` connections, so it is an error, as is a fraction or
 * `null`.
 */
function limitOption(options: HttpOptions, name: LimitOption, fallback: number): number {
  // Only a limit left out takes the default: `null` from a JavaScript caller is refused as well.
  const value: unknown = options[name] === undefined ? fallback : options[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new DocsServerError(
      'WEFT_DOCS_INVALID_OPTIONS',
      `weft-docs-mcp: startHttpServer's ${name} must be an integer of at least 1, got ${String(value)}.`,
    );
  }
  return value;
}

type LimitOption = 'requestTimeoutMs' | 'requestsPerSecond' | 'connectionsPerClient';

/**
 * `allowedHosts`, checked. The host check compares each name with the name of the `Host` header
 * (or of the `Origin`), its port left out, so a name with a scheme, a port or a path would match
 * nothing, and a string rather than a list would be read letter by letter.
 */
function allowedHostsOption(options: HttpOptions): AllowedHosts {
  const value: unknown = options.allowedHosts ?? [];
  if (value === true || value === 'all') return value;
  if (Array.isArray(value) && value.every((name) => typeof name === 'string')) {
    const unmatchable = value.find((name: string) => !isAllowedHostEntry(name));
    if (unmatchable === undefined) return value as readonly string[];
    throw new DocsServerError(
      'WEFT_DOCS_INVALID_OPTIONS',
      `weft-docs-mcp: each of startHttpServer's allowedHosts must be ${ALLOWED_HOST_RULE}, got ${JSON.stringify(unmatchable)}.`,
    );
  }
  throw new DocsServerError(
    'WEFT_DOCS_INVALID_OPTIONS',
    `weft-docs-mcp: startHttpServer's allowedHosts must be true, 'all' or a list of host names such as ['docs.example.com'], got ${JSON.stringify(value)}.`,
  );
}

/**
 * Starts the HTTP transport.
 *
 * @param bundle - The documentation to serve.
 * @param options - Where to listen and which host names to accept.
 * @returns The server's URL (its MCP endpoint) and a way to stop it.
 * @throws {@link DocsServerError} `WEFT_DOCS_INVALID_OPTIONS` when `requestTimeoutMs`,
 * `requestsPerSecond` or `connectionsPerClient` is not an integer of at least 1, or
 * `allowedHosts` is not `true`, `'all'` or a list of host names (one with a scheme, a port or a
 * path is refused).
 * @throws The listening error itself, such as `EADDRINUSE` when the port is taken.
 * @claim tsdoc-docs-http-listen
 * @claim tsdoc-docs-http-limit-values
 */
export async function startHttpServer(
  bundle: DocsBundle,
  options: HttpOptions = {},
): Promise<RunningHttpServer> {
  const deadlineMs = limitOption(options, 'requestTimeoutMs', REQUEST_DEADLINE_MS);
  const perSecond = limitOption(options, 'requestsPerSecond', REQUESTS_PER_SECOND);
  const connectionsPerClient = limitOption(options, 'connectionsPerClient', CONNECTIONS_PER_CLIENT);
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? logToStderr;
  const allowedHosts = allowedHostsOption(options);
  const isAllowed = hostChecker(allowedHosts, host);
  const isAllowedOrigin = originChecker(allowedHosts, host, isAllowed);
  const rate = new RateLimiter(perSecond);
  const open = new Map<string, number>();
  /** Connections answered 503 on arrival: a request read on one afterwards is not served. */
  const refused = new WeakSet<Socket>();

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const wait = rate.take(request.socket.remoteAddress ?? '');
    if (wait !== undefined) {
      sendJsonError(
        response,
        429,
        `Too many requests: this server answers ${perSecond} requests per second from one client; retry in ${wait} s`,
        { 'retry-after': String(wait) },
      );
      return;
    }
    // A target in absolute form (`POST http://docs.example/mcp`) names the host itself, and RFC
    // 9112 has the server ignore Host then, as the runtime's server does: that host is judged.
    const authority = absoluteFormAuthority(request.url);
    if (authority !== undefined && !namesHostOnly(authority)) {
      sendJsonError(response, 400, ABSOLUTE_FORM_WITHOUT_HOST);
      return;
    }
    const named = authority ?? request.headers.host;
    if (!isAllowed(named)) {
      sendJsonError(
        response,
        403,
        `Host ${JSON.stringify(hostnameOf(named ?? '').slice(0, 100))} is not allowed by this server`,
      );
      return;
    }
    const origin = request.headers.origin;
    // `null` is the Origin of sandboxed frames and local files: a page, but not one of ours.
    if (origin !== undefined && !isAllowedOrigin(origin)) {
      sendJsonError(
        response,
        403,
        `Origin ${JSON.stringify(origin.slice(0, 100))} is not allowed by this server`,
      );
      return;
    }
    const target = request.url ?? '/';
    const path = (
      authority === undefined ? target : target.replace(/^[^:]+:\/\/[^/?#]*/, '') || '/'
    ).split('?')[0];
    if (path !== MCP_HTTP_PATH) {
      sendJsonError(response, 404, `Not found: the MCP endpoint is ${MCP_HTTP_PATH}`);
      return;
    }
    if (request.method !== 'POST') {
      // Stateless: no stream to resume (GET) and no session to end (DELETE).
      response.setHeader('allow', 'POST');
      sendJsonError(response, 405, 'Method not allowed: this server answers POST only');
      return;
    }
    let body: unknown;
    try {
      body = await readJsonBody(request);
    } catch (error) {
      sendJsonError(
        response,
        error instanceof RangeError ? 413 : 400,
        `Bad request: ${(error as Error).message}`,
      );
      return;
    }
    // Each message of a batch is a request of its own to answer (a search costs milliseconds):
    // the batch pays for all of them, so batching cannot multiply a client's allowance.
    if (Array.isArray(body) && body.length > 1) {
      if (body.length > perSecond) {
        sendJsonError(
          response,
          400,
          `Invalid request: a batch may hold at most ${perSecond} messages, as many as this server answers per second from one client; send ${body.length} in smaller batches`,
        );
        return;
      }
      const batchWait = rate.take(request.socket.remoteAddress ?? '', body.length - 1);
      if (batchWait !== undefined) {
        sendJsonError(
          response,
          429,
          `Too many requests: a batch counts each of its ${body.length} messages against the ${perSecond} requests per second this server answers from one client; retry in ${batchWait} s`,
          { 'retry-after': String(batchWait) },
        );
        return;
      }
    }
    const server = createDocsServer(bundle, log);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  };

  // The server's own checks for headersTimeout and requestTimeout run every
  // connectionsCheckingInterval (30 s unless set), so a stalled request would live up to twice
  // its deadline: checking four times per deadline (at most every second) keeps it close.
  const httpServer: Server = createServer(
    {
      requestTimeout: deadlineMs,
      headersTimeout: deadlineMs,
      connectionsCheckingInterval: Math.max(25, Math.min(1_000, Math.floor(deadlineMs / 4))),
    },
    (request, response) => {
      if (refused.has(request.socket)) return;
      handle(request, response).catch((error: unknown) => {
        const id = randomUUID();
        log(
          `weft-docs-mcp: an HTTP request failed (error id ${id}): ${(error as Error).stack ?? error}`,
        );
        if (!response.headersSent)
          sendJsonError(response, 500, `Internal error; the server's log has id ${id}`);
        else response.end();
      });
    },
  );
  // A connection silent for as long, in whatever state (a client that stops reading an answer,
  // an idle one), is cut as well. Node keeps a timer of at most 2^31-1 ms (about 24.8 days) and
  // warns on stderr, for every connection, when asked for a longer one. Between requests, node's
  // own keep-alive timer (5 s) replaces that one: it must not outlast a shorter deadline.
  httpServer.timeout = Math.min(deadlineMs, LONGEST_TIMER_MS);
  httpServer.keepAliveTimeout = Math.min(httpServer.keepAliveTimeout, deadlineMs);
  httpServer.on('timeout', (socket: Socket) => socket.destroy());
  httpServer.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    if (count > connectionsPerClient) {
      const body = errorBody(
        `Service unavailable: this server takes ${connectionsPerClient} connections at once from one client; close one and retry`,
      );
      // The server keeps its side of a socket open until the client closes its own (node's HTTP
      // server allows half-open sockets): a client that never does would hold each refused
      // connection until the idle deadline, and could hold any number of them. So a refused
      // socket is closed a moment after its answer is written, whatever the client does.
      socket.end(
        `HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nretry-after: 1\r\nconnection: close\r\n\r\n${body}`,
        () => {
          const linger = setTimeout(() => socket.destroy(), REFUSED_LINGER_MS);
          linger.unref();
          socket.once('close', () => clearTimeout(linger));
        },
      );
      socket.on('error', () => undefined);
      refused.add(socket);
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? 0, host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const address = httpServer.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}${MCP_HTTP_PATH}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        httpServer.closeAllConnections();
        httpServer.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * Builds the check of a browser's `Origin`. A name passes as a `Host` does. An IP address does
 * not pass merely for being one, as it does in `Host` (where only this machine's addresses reach
 * the server): a page served from any address of the internet has that address as its origin,
 * so only the loopback addresses, the address listened on and the listed ones pass.
 */
function originChecker(
  allowedHosts: AllowedHosts,
  boundHost: string,
  isAllowedHost: (host: string | undefined) => boolean,
): (origin: string) => boolean {
  const listed =
    allowedHosts === true || allowedHosts === 'all'
      ? true
      : new Set([...allowedHosts, boundHost].map(bareAddress));
  return (origin) => {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    const address = bareAddress(url.hostname);
    if (isIP(address) === 0) return isAllowedHost(url.host);
    return listed === true || isLoopback(address) || listed.has(address);
  };
}

/** An address or name without IPv6 brackets, lower-cased. */
function bareAddress(text: string): string {
  const lower = text.trim().toLowerCase();
  return lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
}

function isLoopback(address: string): boolean {
  // URL writes an IPv4-mapped address in hex: ::ffff:127.0.0.1 is ::ffff:7f00:1.
  return address === '::1' || /^(127\.|::ffff:7f[0-9a-f]{2}:)/.test(address);
}
