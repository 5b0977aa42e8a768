/**
 * What a route handler is handed and what answers a request: the core's own small interfaces,
 * so that a plugin's routes name no server library. The HTTP server of `@weft/core/node` makes
 * them from each request it serves; a page that calls a handler itself (the docs' Run panels)
 * makes them too. Every field is plain data or a method, nothing that only Node.js has.
 */
import type { HttpMethod } from './http-methods.js';

/**
 * One HTTP request, as a route handler reads it. Its JSON body is already parsed and limited
 * by the server's `bodyLimit` and `maxJsonDepth`.
 */
export interface RouteRequest {
  /**
   * The request's correlation id, also sent to the client as `X-Request-Id`: log it, or put it
   * in your own answers.
   */
  readonly requestId: string;
  /** The HTTP method, upper-case. */
  readonly method: string;
  /** The path, without the query string, such as `/notes/ada`. */
  readonly path: string;
  /** The path and query string as the client sent them, such as `/notes/ada?limit=5`. */
  readonly url: string;
  /**
   * The values the route's path captured by name: `/notes/:user` on `/notes/ada` gives
   * `{ user: 'ada' }`. A wildcard's segments are joined with `/`.
   */
  readonly params: Readonly<Record<string, string>>;
  /** The query string's parameters; one that appears more than once has all its values. */
  readonly query: { readonly [name: string]: string | string[] };
  /**
   * The request headers, with lower-case names, as the client sent them: the shape of Node's
   * `IncomingHttpHeaders`, which it can be passed as.
   */
  readonly headers: { readonly [name: string]: string | string[] | undefined };
  /**
   * The parsed JSON body when it was sent as `application/json`; `undefined` for another
   * content type or no body.
   */
  readonly body: unknown;
  /**
   * An object that stays the same for every request of one client connection (HTTP keep-alive
   * sends many), to count or limit what one connection has in flight. Compare it, do not use it.
   */
  readonly connection: object;
  /**
   * What middleware of your own on the server's express application put in `response.locals`
   * before the route ran, such as the user an authentication middleware found; the server's
   * own `requestId` is among them. Empty where no server runs the route.
   */
  readonly locals: Readonly<Record<string, unknown>>;
  /**
   * One header's value, by case-insensitive name; several values are joined with `, `.
   *
   * @param name - The header's name, such as `x-delivery-id`.
   * @returns Its value, or `undefined` when the request has none.
   */
  header(name: string): string | undefined;
}

/** How a route handler answers. Each call that sets something returns the response, to chain. */
export interface RouteResponse {
  /** Whether the answer has begun, after which its status and headers cannot change. */
  readonly headersSent: boolean;
  /**
   * Sets the status of the answer (200 unless set).
   *
   * @param code - An HTTP status from 100 to 999.
   * @returns The response.
   */
  status(code: number): RouteResponse;
  /**
   * Sets a header of the answer, replacing one of the same name.
   *
   * @param name - The header's name.
   * @param value - Its value.
   * @returns The response.
   */
  set(name: string, value: string): RouteResponse;
  /**
   * Answers with a JSON body (`application/json`) and ends the answer.
   *
   * @param body - Any value JSON can hold.
   */
  json(body: unknown): void;
  /**
   * Answers with a text body and ends the answer; its type is `text/plain` unless a
   * `Content-Type` was set.
   *
   * @param text - The body.
   */
  send(text: string): void;
  /** Ends the answer without a body. */
  end(): void;
}

/**
 * What an HTTP server needs of a route to mount it. A plugin's TriggerRoute has this shape, with
 * the runtime as the context its handler is handed; the server names the shape rather than that
 * type, and passes on whatever context it is given, so that it sits below the runtime instead
 * of in a circle with it and the plugins.
 *
 * @inline
 */
export type MountedRoute<Context> = {
  /** HTTP method. */
  readonly method: HttpMethod;
  /** Path to mount, starting with `/`, in express syntax (`/chat/:room`). */
  readonly path: string;
  /**
   * The code a request body that is not JSON of an object or array (malformed, a bare string or
   * number, or nested deeper than `server.maxJsonDepth`) is refused with, with status 400, so
   * the answer names the route's own rule. Without it the server answers `WEFT_BAD_REQUEST`. A
   * body larger than `server.bodyLimit` is answered 413 `WEFT_BAD_REQUEST` either way. The
   * answer's `docsUrl` links the code's section of the errors reference only for a code of Weft's
   * (`WEFT_...`); another code is answered without one.
   */
  readonly invalidBodyCode?: string;
  /**
   * Handles one request.
   *
   * @param request - The request, its JSON body already parsed.
   * @param response - Where the answer goes.
   * @param context - The context that the server's `mount` was given.
   * @returns Nothing that is used: answer through `response`. A returned promise is awaited.
   */
  handler(request: RouteRequest, response: RouteResponse, context: Context): unknown;
};

/**
 * The runtime's HTTP server, as the runtime uses it: in Node.js, with some plugin's route
 * trigger, the express-based `ServerManager` of `@weft/core/node`; otherwise a stand-in on
 * which nothing listens, whose `port` and `url` are `undefined`.
 */
export interface HttpServer {
  /** The port listened on, once started. */
  readonly port: number | undefined;
  /** The base URL, once started, such as `http://127.0.0.1:3000`. */
  readonly url: string | undefined;
  /**
   * Mounts a route before the server starts.
   *
   * @param pluginId - The plugin that owns the route, for logs.
   * @param route - The route.
   * @param context - Passed to the route's handler.
   */
  mount<Context>(pluginId: string, route: MountedRoute<Context>, context: Context): void;
  /**
   * Starts listening.
   *
   * @returns The address listened on.
   */
  start(): Promise<{ host: string; port: number }>;
  /** Stops listening, letting open requests finish for a bounded time. */
  stop(): Promise<void>;
}
