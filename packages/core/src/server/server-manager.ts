import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import cors from 'cors';
import express, {
  type ErrorRequestHandler,
  type Express,
  type RequestHandler,
  type Response,
} from 'express';
import type { Logger } from 'pino';
import { errorDocsUrl } from '../errors/error-registry.js';
import { describeError, WeftError } from '../errors/weft-error.js';
import { errorLogFields, stackLogField } from '../util/logger.js';
import { ALLOWED_HOST_RULE, isAllowedHostEntry } from './allowed-host-entry.js';
import { hostChecker, hostnameOf, type AllowedHosts } from './allowed-hosts.js';
import {
  ABSOLUTE_FORM_WITHOUT_HOST,
  absoluteFormAuthority,
  namesHostOnly,
} from './request-target.js';
import {
  normaliseOrigin,
  ORIGIN_HOOK_TIMEOUT_MS,
  originChecker,
  corsWithStatelessPatterns,
  originHookWithDeadline,
  type AllowedOrigins,
} from './allowed-origins.js';
import { guardBodyLimit } from './body-limit-guard.js';
import { answerClientErrors } from './client-errors.js';
import { holdArrivingRequests } from './keep-alive.js';
import { protocolRefusal } from './protocol-refusal.js';
import { limitConnections, type RefusedConnection } from './connection-limits.js';
import { routeRequestOf, routeResponseOf } from './route-adapter.js';
import { bodyRefusedAs } from './route-body.js';
import {
  errorAnswer,
  hidesClientErrorMessage,
  retryAfterOf,
  type ErrorAnswer,
} from './error-answer.js';
import { nestsDeeperThan, valueNestsDeeperThan } from './json-depth.js';
import type { HttpServer, MountedRoute } from './route.js';
import type { ServerManagerConfig } from './server-config.js';
import { ONE_SHOT } from '../util/one-shot-parse.js';
import { MAX_TIMER_MS, TIMER_LIMIT_RULE } from '../util/timer-limit.js';
import {
  byteSizeOf,
  corsOptionsSchema,
  HOST_SPACES_RULE,
  KEEP_ALIVE_LIMIT_RULE,
  MAX_KEEP_ALIVE_TIMEOUT_MS,
  SERVER_DEFAULTS,
  serverCrossFieldProblems,
} from './server-options.js';

export type { CorsOptions, ServerManagerConfig } from './server-config.js';

/** The response header that carries each request's correlation id. */
const REQUEST_ID_HEADER = 'X-Request-Id';

/** How often, at most, refused connections are logged. */
const REFUSED_LOG_INTERVAL_MS = 10_000;
/** How often a stopping server closes the connections whose requests have been answered. */
const IDLE_SWEEP_MS = 50;

/**
 * The HTTP server that plugins' {@link TriggerRoute}s are mounted on, built on express. Import it
 * from `@weft/core/node`; `Runtime.init` loads it by itself when some plugin has a route trigger.
 *
 * Every answer carries `X-Content-Type-Options: nosniff` and an `X-Request-Id` header with a
 * fresh id per request; route handlers read the same id as `request.requestId` (middleware of
 * your own on {@link ServerManager.app} as `response.locals.requestId`), to log it or to put it
 * in their own answers. Requests whose `Host` header (or the host a request line in absolute
 * form names) is not an allowed host
 * (see {@link ServerManagerConfig.allowedHosts}) are refused with 403 first (an empty `Host`,
 * like a missing one over HTTP/1.1 or more than one, with 400 `WEFT_BAD_REQUEST`), then requests from
 * web pages of other origins (see {@link ServerManagerConfig.allowedOrigins}). Middleware added
 * to {@link ServerManager.app} before `start` runs next; then each trigger route parses its
 * JSON body, up to `bodyLimit` bytes and `maxJsonDepth` levels of nesting.
 *
 * Errors are answered as JSON `{ "error": { "status", "message", "code", "docsUrl",
 * "requestId" } }` (`docsUrl` links the code's section of the errors reference, or the
 * `docsUrl` a WeftError was made with; it is left out for a code that is not Weft's, such as a
 * route's own `invalidBodyCode`, when nothing else says where it is explained):
 * 400 `WEFT_BAD_REQUEST` for malformed or too deeply nested JSON, 413 `WEFT_BAD_REQUEST` for a
 * body over the limit, 415 `WEFT_BAD_REQUEST` for a charset or `Content-Encoding` the parser
 * cannot decode, 501 `WEFT_BAD_REQUEST` for a transfer coding other than `chunked`, 505
 * `WEFT_BAD_REQUEST` for an HTTP version other than 1.x, 403 `WEFT_HOST_NOT_ALLOWED`, 403 `WEFT_ORIGIN_NOT_ALLOWED`, 404
 * `WEFT_NOT_FOUND` for an unknown path,
 * and the error's own `status` (and `code`) when it has one. Following the http-errors
 * convention, the message is the error's own only below 500; a 5xx answers the status's reason
 * phrase (`WEFT_INTERNAL` for a plain 500) and the full error, its message cut to 2,000
 * characters, is logged with the request id.
 * The one exception is a full queue or a runtime shutting down (503 `WEFT_QUEUE_FULL`,
 * `WEFT_SHUTTING_DOWN`), whose messages the core writes from constants and tell a client to
 * try again later. Every `503` or `429` answer to a WeftError, a plugin's or a coordinator's
 * included, carries `Retry-After: 5`. The runtime only starts the server when some plugin has a
 * route.
 *
 * @example
 * ```ts
 * import { ServerManager } from '@weft/core/node';
 *
 * const server = new ServerManager({ port: 0, allowedHosts: ['agent.example.com'] });
 * await server.start();
 * console.log(`listening on ${server.url}`);
 * await server.stop();
 * ```
 */
export class ServerManager implements HttpServer {
  /**
   * The express application, for middleware of your own, such as authentication. Add it before
   * `start`: it then runs before every trigger route, and before the route's JSON body is read,
   * so a middleware that refuses a request (401) does so without reading a body of any size.
   * A route you add to `app` yourself gets no body parser; put {@link ServerManager.jsonBody}
   * in front of its handler.
   */
  readonly app: Express;
  /**
   * The JSON body parser every trigger route runs first, with the `bodyLimit` and
   * `maxJsonDepth` limits: 413 for a body over the limit, 400 for malformed or too deeply
   * nested JSON, 415 for a charset or `Content-Encoding` it cannot decode, each with
   * `WEFT_BAD_REQUEST`. Trigger routes use it already; add it to routes of your own on
   * {@link ServerManager.app} that read a JSON body.
   */
  readonly jsonBody: RequestHandler;
  /** The body parser itself, whose refusals {@link ServerManager.jsonBody} gives Weft codes. */
  private readonly parseJson: RequestHandler;
  private readonly config: Required<
    Omit<ServerManagerConfig, 'cors' | 'maxConnectionsPerClient'>
  > & {
    cors: ServerManagerConfig['cors'];
    maxConnectionsPerClient: number | undefined;
  };
  private readonly logger: Logger | undefined;
  private readonly mounted = new Set<string>();
  private server: Server | undefined;
  /**
   * Set once `start()` has run: the 404 and error handlers are then in place, so a route mounted
   * later, even after `stop()`, could never be reached.
   */
  private startCalled = false;
  private listeningPort: number | undefined;
  private isRefused: (socket: Socket) => boolean = () => false;
  private refusedSinceLog = 0;
  private refusedLoggedAt = Number.NEGATIVE_INFINITY;

  /**
   * Creates the server and its express application; it listens only once started.
   *
   * @param config - Port, host, allowed hosts, CORS, body limits and timeouts.
   * @param logger - Where request failures are logged.
   * @throws {@link WeftError} `WEFT_INVALID_ARGUMENT` naming the option when `port` is not an
   * integer from 0 to 65535, `host` is not a non-empty string or has spaces around it, a timeout, `stopGraceMs`, `maxJsonDepth` or a connection cap is
   * not a positive integer, `stopGraceMs` is over 2147483647 or `keepAliveTimeout` over 2147482647, `allowedHosts` is not `true`, `'all'` or a list of names (one with a scheme, port or path, which no `Host` header can match, or with a `*`, which is no wildcard here, is refused), `allowedOrigins` is not
   * `true` or a list of origins, `bodyLimit` is neither a positive integer nor a size such as
   * `'100kb'`, `cors` is an object with a key or value the cors middleware does not take, or
   * `requestTimeout` is below `headersTimeout`.
   * @claim tsdoc-server-constructor
   */
  constructor(config: ServerManagerConfig = {}, logger?: Logger) {
    const port = config.port ?? SERVER_DEFAULTS.port;
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new WeftError(
        'WEFT_INVALID_ARGUMENT',
        `ServerManager: option "port" must be an integer from 0 to 65535, got ${String(config.port)}.`,
      );
    }
    const host: unknown = config.host ?? SERVER_DEFAULTS.host;
    // Node would take an empty host for every interface, the opposite of the loopback default.
    if (typeof host !== 'string' || host === '') {
      throw new WeftError(
        'WEFT_INVALID_ARGUMENT',
        `ServerManager: option "host" must be a non-empty string, such as '127.0.0.1' or '0.0.0.0', got ${JSON.stringify(host)}.`,
      );
    }
    if (host.trim() !== host) {
      throw new WeftError(
        'WEFT_INVALID_ARGUMENT',
        `ServerManager: option "host" ${HOST_SPACES_RULE}, got ${JSON.stringify(host)}.`,
      );
    }
    this.config = {
      port,
      host,
      allowedHosts: checkAllowedHosts(config.allowedHosts ?? SERVER_DEFAULTS.allowedHosts),
      allowedOrigins: checkAllowedOrigins(config.allowedOrigins ?? SERVER_DEFAULTS.allowedOrigins),
      bodyLimit: checkBodyLimit(config.bodyLimit ?? SERVER_DEFAULTS.bodyLimit),
      cors: originHookWithDeadline(
        corsWithStatelessPatterns(checkCors(config.cors)),
        ORIGIN_HOOK_TIMEOUT_MS,
        (origin) => {
          logger?.warn(
            { origin, timeoutMs: ORIGIN_HOOK_TIMEOUT_MS },
            'the cors origin function did not answer in time; the origin is refused',
          );
        },
      ),
      maxJsonDepth: positive('maxJsonDepth', config.maxJsonDepth),
      headersTimeout: positive('headersTimeout', config.headersTimeout),
      requestTimeout: positive('requestTimeout', config.requestTimeout),
      keepAliveTimeout: positive('keepAliveTimeout', config.keepAliveTimeout),
      maxConnections: positive('maxConnections', config.maxConnections),
      maxConnectionsPerClient:
        config.maxConnectionsPerClient === undefined
          ? undefined
          : positive('maxConnectionsPerClient', config.maxConnectionsPerClient),
      stopGraceMs: positive('stopGraceMs', config.stopGraceMs),
    };
    const [broken] = serverCrossFieldProblems(this.config);
    if (broken !== undefined) {
      throw new WeftError('WEFT_INVALID_ARGUMENT', `ServerManager: option ${broken}`);
    }
    this.logger = logger;
    this.app = express();
    this.app.disable('x-powered-by');
    this.app.use(this.dropRefused);
    this.app.use(this.identify);
    this.app.use(this.checkHost());
    this.app.use(this.checkProtocol());
    this.app.use(this.checkOrigin());
    if (this.config.cors) {
      // The core's CorsOptions are the middleware's, with read-only lists it does not change.
      this.app.use(cors((this.config.cors === true ? {} : this.config.cors) as cors.CorsOptions));
    }
    const maxDepth = this.config.maxJsonDepth;
    // Bodies in another charset whose raw bytes the depth check cannot read (UTF-16), by request.
    const parsedUnchecked = new WeakSet<object>();
    const parse = express.json({
      limit: this.config.bodyLimit,
      verify: (request, _response, body, encoding) => {
        if (encoding !== 'utf-8') parsedUnchecked.add(request);
        else if (nestsDeeperThan(body, maxDepth)) throw jsonTooDeep(maxDepth);
      },
    });
    const limitBytes =
      typeof this.config.bodyLimit === 'number'
        ? this.config.bodyLimit
        : (byteSizeOf(this.config.bodyLimit) as number);
    this.parseJson = (request, response, next) => {
      // The parser answers a body over the limit only once it has read all of it.
      let refused = false;
      const refuse = (error: Error): void => {
        refused = true;
        next(error);
      };
      const checked = guardBodyLimit(request, response, limitBytes, refuse);
      if (checked === 'refused') return;
      parse(request, response, (error?: unknown) => {
        checked();
        if (refused) return;
        if (error === undefined && parsedUnchecked.has(request)) {
          parsedUnchecked.delete(request);
          if (valueNestsDeeperThan(request.body, maxDepth)) {
            next(jsonTooDeep(maxDepth));
            return;
          }
        }
        next(error);
      });
    };
    this.jsonBody = withWeftBodyCodes(this.parseJson);
  }

  /** The port listened on, once started. */
  get port(): number | undefined {
    return this.listeningPort;
  }

  /** The base URL, once started, such as `http://127.0.0.1:3000`. */
  get url(): string | undefined {
    return this.listeningPort === undefined
      ? undefined
      : `http://${formatHost(this.config.host)}:${this.listeningPort}`;
  }

  /**
   * Mounts a trigger route.
   *
   * @typeParam Context - What the route's handler is handed: the runtime, for a plugin's route.
   * @param pluginId - The plugin that owns the route, for logs.
   * @param route - The route: a plugin's {@link TriggerRoute}, or anything with its method, path
   *   and handler.
   * @param context - Passed to the route's handler.
   * @throws {@link WeftError} `WEFT_RUNTIME_STOPPED` once `start()` was called (while it starts,
   * once it listens, or after `stop()`), `WEFT_DUPLICATE` when the method and path are taken, or
   * `WEFT_INVALID_ARGUMENT` naming the plugin and the route when express cannot read the path
   * (`/files/*`, whose wildcard express 5 wants named: `/files/*path`).
   * @claim tsdoc-server-mount
   */
  mount<Context>(pluginId: string, route: MountedRoute<Context>, context: Context): void {
    if (this.startCalled) {
      throw new WeftError(
        'WEFT_RUNTIME_STOPPED',
        `ServerManager: cannot mount ${route.method} ${route.path} of plugin "${pluginId}" after the server started.`,
      );
    }
    const key = `${route.method} ${route.path}`;
    if (this.mounted.has(key)) {
      throw new WeftError(
        'WEFT_DUPLICATE',
        `ServerManager: route ${key} of plugin "${pluginId}" is already mounted.`,
      );
    }
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    // The body is parsed per route, not by app-wide middleware, so that middleware added to
    // `app` before start (authentication) runs first: an unauthenticated request is refused
    // before its body is read, and a large one gets 401, not 413.
    const parseBody =
      route.invalidBodyCode === undefined
        ? this.jsonBody
        : withWeftBodyCodes(bodyRefusedAs(this.parseJson, route.invalidBodyCode));
    try {
      this.app[method](route.path, parseBody, async (request, response) => {
        // A body the parser left unread (not sent as JSON) is not the handler's, which sees only
        // `request.body`: it is read off and dropped as it arrives, so that the request completes
        // and `requestTimeout` does not run on while the handler works.
        if (!request.readableEnded) request.resume();
        await route.handler(
          routeRequestOf(request, requestIdOf(response), response.locals),
          routeResponseOf(response),
          context,
        );
      });
    } catch (error) {
      // express reads the path as it mounts it, and its own error names neither plugin nor route.
      throw new WeftError(
        'WEFT_INVALID_ARGUMENT',
        `ServerManager: route ${key} of plugin "${pluginId}" has a path express cannot read (${describeError(error)}); write it in express 5 syntax, where a wildcard has a name ('/files/*path') and an optional part is in braces ('/notes{/:user}').`,
        { cause: error },
      );
    }
    this.mounted.add(key);
  }

  /**
   * Starts listening.
   *
   * @returns The address listened on.
   * @throws {@link WeftError} `WEFT_LISTEN_FAILED` naming the host and port when listening fails
   * (for example, port in use).
   * @claim tsdoc-server-listen
   */
  async start(): Promise<{ host: string; port: number }> {
    if (this.server) return { host: this.config.host, port: this.listeningPort as number };
    this.startCalled = true;
    this.app.use((request, response) => {
      sendError(response, {
        status: 404,
        message: `No route for ${request.method} ${request.path}`,
        code: 'WEFT_NOT_FOUND',
        docsUrl: errorDocsUrl('WEFT_NOT_FOUND'),
        requestId: requestIdOf(response),
      });
    });
    this.app.use(this.errorHandler);
    const server = createServer(
      {
        headersTimeout: this.config.headersTimeout,
        requestTimeout: this.config.requestTimeout,
        keepAliveTimeout: this.config.keepAliveTimeout,
        // Node checks the two timeouts above only this often (30 s by default).
        connectionsCheckingInterval: Math.min(1_000, this.config.headersTimeout),
        // Node would answer an HTTP/1.1 request without Host with a bare 400 of its own; the
        // host check answers it instead, in JSON with a code like every other error.
        requireHostHeader: false,
      },
      this.app,
    );
    answerClientErrors(server, { 'X-Content-Type-Options': 'nosniff' });
    holdArrivingRequests(server, this.config.headersTimeout);
    this.isRefused = limitConnections(
      server,
      { total: this.config.maxConnections, perClient: this.config.maxConnectionsPerClient },
      { 'X-Content-Type-Options': 'nosniff' },
      (refused) => this.logRefused(refused),
    );
    server.listen(this.config.port, this.config.host);
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', (error) =>
        reject(
          new WeftError(
            'WEFT_LISTEN_FAILED',
            `ServerManager: cannot listen on ${this.config.host}:${this.config.port}: ${describeError(error)}`,
            { cause: error },
          ),
        ),
      );
    });
    this.server = server;
    this.listeningPort = (server.address() as AddressInfo).port;
    this.logger?.info({ url: this.url }, 'HTTP server listening');
    return { host: this.config.host, port: this.listeningPort };
  }

  /**
   * Stops accepting connections, closes idle ones at once, lets open requests finish for
   * `stopGraceMs`, then closes whatever connections are left (such as a client still sending
   * its headers, which Node no longer times out once the server is closing). A connection whose
   * request is answered during the grace is closed soon after, not kept open for another request
   * until the grace ends, so the stop ends once the last open request has. Resolves within
   * about `stopGraceMs`. Idempotent.
   */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    // Node leaves a keep-alive connection open once its request is answered, even while closing.
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const grace = setTimeout(() => server.closeAllConnections(), this.config.stopGraceMs);
    await closed;
    clearInterval(sweep);
    clearTimeout(grace);
    this.logger?.info('HTTP server stopped');
  }

  /**
   * Drops a request that arrives on a connection refused for the connection caps: it was
   * answered 503 as it opened, and no route may run for it.
   */
  private readonly dropRefused: RequestHandler = (request, _response, next) => {
    if (this.isRefused(request.socket)) {
      request.socket.destroy();
      return;
    }
    next();
  };

  /**
   * Logs refused connections at most once every 10 s: a client opening connections without end
   * would otherwise write a line for each.
   */
  private logRefused(refused: RefusedConnection): void {
    this.refusedSinceLog += 1;
    const now = performance.now();
    if (now - this.refusedLoggedAt < REFUSED_LOG_INTERVAL_MS) return;
    this.logger?.warn(
      { ...refused, refused: this.refusedSinceLog },
      'refused connections over a connection cap (server.maxConnections or server.maxConnectionsPerClient)',
    );
    this.refusedLoggedAt = now;
    this.refusedSinceLog = 0;
  }

  /** Gives each request its correlation id and the headers every answer carries. */
  private readonly identify: RequestHandler = (_request, response, next) => {
    const requestId = randomUUID();
    response.locals.requestId = requestId;
    response.setHeader(REQUEST_ID_HEADER, requestId);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  };

  private checkHost(): RequestHandler {
    const isAllowed = hostChecker(this.config.allowedHosts, this.config.host);
    return (request, response, next) => {
      const host = request.headers.host;
      const http11 =
        request.httpVersionMajor > 1 ||
        (request.httpVersionMajor === 1 && request.httpVersionMinor >= 1);
      if (host === undefined && http11) {
        // HTTP/1.1 makes Host mandatory, whatever the allowed hosts.
        sendError(response, {
          status: 400,
          message: 'An HTTP/1.1 request must carry a Host header',
          code: 'WEFT_BAD_REQUEST',
          docsUrl: errorDocsUrl('WEFT_BAD_REQUEST'),
          requestId: requestIdOf(response),
        });
        return;
      }
      // Node keeps the first of several Host headers; a proxy in front may read another one,
      // so such a request, which HTTP/1.1 forbids, is refused rather than checked by half.
      const hosts = request.rawHeaders.filter(
        (value, index) => index % 2 === 0 && value.toLowerCase() === 'host',
      ).length;
      if (hosts > 1) {
        sendError(response, {
          status: 400,
          message: `A request must carry one Host header, not ${hosts}`,
          code: 'WEFT_BAD_REQUEST',
          docsUrl: errorDocsUrl('WEFT_BAD_REQUEST'),
          requestId: requestIdOf(response),
        });
        return;
      }
      // A Host header with nothing in it names no host: as malformed as a missing one, whatever
      // the allowed hosts and the HTTP version.
      if (host !== undefined && host.trim() === '') {
        sendError(response, {
          status: 400,
          message: 'The Host header must name a host; it is empty',
          code: 'WEFT_BAD_REQUEST',
          docsUrl: errorDocsUrl('WEFT_BAD_REQUEST'),
          requestId: requestIdOf(response),
        });
        return;
      }
      // A target in absolute form (`GET http://agent.example/api`) names the host itself, and
      // RFC 9112 has the server ignore Host then: the check judges the host the target names.
      const authority = absoluteFormAuthority(request.url);
      if (authority !== undefined && !namesHostOnly(authority)) {
        sendError(response, {
          status: 400,
          message: ABSOLUTE_FORM_WITHOUT_HOST,
          code: 'WEFT_BAD_REQUEST',
          docsUrl: errorDocsUrl('WEFT_BAD_REQUEST'),
          requestId: requestIdOf(response),
        });
        return;
      }
      const named = authority ?? host;
      if (isAllowed(named)) {
        next();
        return;
      }
      const requestId = requestIdOf(response);
      const shown = JSON.stringify(hostnameOf(named ?? '').slice(0, 100));
      this.logger?.warn(
        { requestId, host: named, method: request.method, path: request.path },
        `refused a request for host ${shown}: not in options.server.allowedHosts. When the server listens on 0.0.0.0 or ::, or behind a reverse proxy that passes the client's Host on, list the public host names clients use in allowedHosts.`,
      );
      sendError(response, {
        status: 403,
        message: `Host ${shown} is not allowed by this server`,
        code: 'WEFT_HOST_NOT_ALLOWED',
        docsUrl: errorDocsUrl('WEFT_HOST_NOT_ALLOWED'),
        requestId,
      });
    };
  }

  /**
   * Refuses a request this HTTP/1.1 server would misread: one whose request line names another
   * major version (`HTTP/2.0`, `HTTP/0.9`), which Node.js would serve as HTTP/1.1, answered 505;
   * and one whose body has a transfer coding other than `chunked` (`Transfer-Encoding: gzip,
   * chunked`), which Node.js undoes the chunking of but passes on still encoded, answered 501.
   * Both with `WEFT_BAD_REQUEST`, closing the connection, since the rest of what the client sends
   * cannot be read.
   */
  private checkProtocol(): RequestHandler {
    return (request, response, next) => {
      const refusal = protocolRefusal(request);
      if (refusal === undefined) {
        next();
        return;
      }
      response.setHeader('Connection', 'close');
      sendError(response, {
        status: refusal.status,
        message: refusal.message,
        code: 'WEFT_BAD_REQUEST',
        docsUrl: errorDocsUrl('WEFT_BAD_REQUEST'),
        requestId: requestIdOf(response),
      });
    };
  }

  private checkOrigin(): RequestHandler {
    const verdictOf = originChecker(this.config.allowedOrigins, this.config.cors);
    return (request, response, next) => {
      verdictOf(request).then(
        (verdict) => {
          if (verdict.allowed) {
            next();
            return;
          }
          const requestId = requestIdOf(response);
          const shown = JSON.stringify(verdict.origin.slice(0, 100));
          this.logger?.warn(
            { requestId, origin: verdict.origin, method: request.method, path: request.path },
            `refused a request from the web page origin ${shown}: not the server's own origin and not in options.server.allowedOrigins (nor allowed by options.server.cors).`,
          );
          // Browsers send no Origin for a same-origin GET; one that says cross-site is refused
          // without naming a page.
          sendError(response, {
            status: 403,
            message:
              verdict.reason === 'origin'
                ? `Origin ${shown} is not allowed to call this server`
                : 'Requests from other sites are not allowed by this server',
            code: 'WEFT_ORIGIN_NOT_ALLOWED',
            docsUrl: errorDocsUrl('WEFT_ORIGIN_NOT_ALLOWED'),
            requestId,
          });
        },
        (error: unknown) => next(error),
      );
    };
  }

  private readonly errorHandler: ErrorRequestHandler = (
    error: unknown,
    request,
    response,
    _next,
  ) => {
    const answer = errorAnswer(error, requestIdOf(response));
    // The Weft code the failure is or wraps is what an operator needs; the code the client got
    // stands in only when there is none (a plain 401 of an API client answers WEFT_BAD_REQUEST).
    // The pair is kept together, so that `docsUrl` always explains the `code` beside it.
    const fields = errorLogFields(error);
    const codes = fields.code === undefined ? { code: answer.code, docsUrl: answer.docsUrl } : {};
    if (answer.status >= 500) {
      this.logger?.error(
        {
          requestId: answer.requestId,
          method: request.method,
          path: request.path,
          status: answer.status,
          ...fields,
          ...codes,
          stack: stackLogField(error),
        },
        'request failed',
      );
    } else if (hidesClientErrorMessage(error)) {
      this.logger?.warn(
        {
          requestId: answer.requestId,
          method: request.method,
          path: request.path,
          status: answer.status,
          ...fields,
          ...codes,
        },
        'request refused',
      );
    }
    if (response.headersSent) {
      response.end();
      return;
    }
    // Whatever route let a 503 or 429 WeftError through, its client learns when to come back.
    const retryAfter = retryAfterOf(error, answer);
    if (retryAfter !== undefined) response.set('Retry-After', retryAfter);
    sendError(response, answer);
  };
}

/**
 * The correlation id the server gave a request, as route handlers read it.
 *
 * @param response - The express response of the request.
 * @returns The id, also sent to the client as `X-Request-Id`.
 */
function requestIdOf(response: Response): string {
  return String(response.locals.requestId);
}

/**
 * The body parser with its own refusals under a Weft code: a body it cannot read (a charset or
 * `Content-Encoding` it does not decode, 415; a compressed body that does not inflate, 400) is
 * refused by the parser with an error whose `code`, if any, is zlib's (`Z_DATA_ERROR`), which the
 * error answer would pass on with no `docsUrl`. Such a refusal becomes `WEFT_BAD_REQUEST` with
 * the same status and message. Bodies that are not JSON or too large keep the parser's error,
 * which the error answer (or a route's `invalidBodyCode`) reads by its `type`.
 */
function withWeftBodyCodes(parse: RequestHandler): RequestHandler {
  return (request, response, next) => {
    parse(request, response, (error?: unknown) => {
      next(error === undefined ? undefined : bodyRefusal(error));
    });
  };
}

function bodyRefusal(error: unknown): unknown {
  if (WeftError.is(error) || typeof error !== 'object' || error === null) return error;
  const { type, status, message } = error as {
    type?: unknown;
    status?: unknown;
    message?: unknown;
  };
  if (type === 'entity.parse.failed' || type === 'entity.too.large') return error;
  if (typeof status !== 'number' || status < 400 || status > 499) return error;
  return new WeftError(
    'WEFT_BAD_REQUEST',
    `The request body could not be read: ${typeof message === 'string' ? message : 'unreadable'}`,
    { status, cause: error },
  );
}

/** The refusal of a JSON body that nests deeper than `maxJsonDepth`. */
function jsonTooDeep(maxDepth: number): WeftError {
  return new WeftError(
    'WEFT_BAD_REQUEST',
    `JSON body nests deeper than the limit of ${maxDepth} levels`,
    { status: 400 },
  );
}

function sendError(response: Response, answer: ErrorAnswer): void {
  response.status(answer.status).json({ error: answer });
}

function positive(
  name:
    | 'maxJsonDepth'
    | 'headersTimeout'
    | 'requestTimeout'
    | 'keepAliveTimeout'
    | 'maxConnections'
    | 'maxConnectionsPerClient'
    | 'stopGraceMs',
  value: number | undefined,
): number {
  if (value === undefined) return SERVER_DEFAULTS[name] ?? 0;
  if (!Number.isInteger(value) || value <= 0) {
    throw new WeftError(
      'WEFT_INVALID_ARGUMENT',
      `ServerManager: option "${name}" must be a positive integer, got ${String(value)}.`,
    );
  }
  // Node.js times an idle keep-alive socket a second longer, and warns past the timer limit.
  if (name === 'keepAliveTimeout' && value > MAX_KEEP_ALIVE_TIMEOUT_MS) {
    throw new WeftError(
      'WEFT_INVALID_ARGUMENT',
      `ServerManager: option "${name}" must be ${KEEP_ALIVE_LIMIT_RULE}, got ${value}.`,
    );
  }
  // The one option here that becomes a timer's delay, which Node.js runs after 1 ms past it.
  if (name === 'stopGraceMs' && value > MAX_TIMER_MS) {
    throw new WeftError(
      'WEFT_INVALID_ARGUMENT',
      `ServerManager: option "${name}" must be ${TIMER_LIMIT_RULE}, got ${value}.`,
    );
  }
  return value;
}

function checkBodyLimit(value: number | string): number | string {
  const valid =
    typeof value === 'number'
      ? Number.isInteger(value) && value > 0
      : typeof value === 'string' && (byteSizeOf(value) ?? 0) >= 1;
  if (valid) return value;
  throw new WeftError(
    'WEFT_INVALID_ARGUMENT',
    `ServerManager: option "bodyLimit" must be a positive integer of bytes or a size such as '100kb' or '1mb' (b, kb, mb, gb, tb or pb), got ${JSON.stringify(value)}.`,
  );
}

/**
 * The `cors` option, refused when an object has a key or value the middleware does not take:
 * the middleware would ignore a misspelt `origin` and allow every origin.
 */
function checkCors(value: ServerManagerConfig['cors']): ServerManagerConfig['cors'] {
  if (value === undefined || typeof value === 'boolean') return value;
  const checked = corsOptionsSchema.safeParse(value, ONE_SHOT);
  if (checked.success) return value;
  const [issue] = checked.error.issues;
  const where = issue?.path.length ? `cors.${issue.path.map(String).join('.')}` : 'cors';
  throw new WeftError(
    'WEFT_INVALID_ARGUMENT',
    `ServerManager: option "${where}": ${issue?.message ?? 'must be true, false or the cors middleware options'}.`,
  );
}

function checkAllowedHosts(value: AllowedHosts): AllowedHosts {
  if (value === true || value === 'all') return value;
  if (
    Array.isArray(value) &&
    value.every((name) => typeof name === 'string' && name.trim() !== '')
  ) {
    const bad = value.find((name) => !isAllowedHostEntry(name));
    if (bad === undefined) return value;
    throw new WeftError(
      'WEFT_INVALID_ARGUMENT',
      `ServerManager: option "allowedHosts" must list host names; each must be ${ALLOWED_HOST_RULE}. Got ${JSON.stringify(bad)}.`,
    );
  }
  throw new WeftError(
    'WEFT_INVALID_ARGUMENT',
    `ServerManager: option "allowedHosts" must be true, 'all' or a list of host names such as ['agent.example.com'], got ${JSON.stringify(value)}.`,
  );
}

function checkAllowedOrigins(value: AllowedOrigins): AllowedOrigins {
  if (value === true) return value;
  if (Array.isArray(value)) {
    const bad = value.find(
      (origin) => typeof origin !== 'string' || normaliseOrigin(origin) === undefined,
    );
    if (bad === undefined) return value;
    throw new WeftError(
      'WEFT_INVALID_ARGUMENT',
      `ServerManager: option "allowedOrigins" must list origins of the form scheme://host[:port], without a path, such as 'https://chat.example.com', got ${JSON.stringify(bad)}.`,
    );
  }
  throw new WeftError(
    'WEFT_INVALID_ARGUMENT',
    `ServerManager: option "allowedOrigins" must be true or a list of origins such as ['https://chat.example.com'], got ${JSON.stringify(value)}.`,
  );
}

function formatHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
