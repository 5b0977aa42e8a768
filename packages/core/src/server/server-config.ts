/**
 * How the HTTP server listens and what it accepts: plain options, which `Runtime.init` checks
 * as `options.server` in any host, while only the server of `@weft/core/node` uses them.
 */

/**
 * The CORS options of the server: those of the `cors` middleware, whose documentation explains
 * each, and which receives them unchanged but for a RegExp with the `g` or `y` flag (see
 * {@link CorsOptions.origin}).
 */
export type CorsOptions = {
  /**
   * Which page origins may call: `true` or `'*'` for all, a string, a RegExp or a list of them
   * for those that match, or a function asked for each origin that calls back with such a rule.
   * A RegExp with the `g` or `y` flag is matched from the start of the origin on every request,
   * through a copy without those flags (`y` still anchoring the match at the first character):
   * tested as it is, it would go on from its last match and refuse the next request from the
   * same origin. The RegExp you pass is not changed.
   * @claim tsdoc-server-cors-regexp-flags
   */
  origin?:
    | boolean
    | string
    | RegExp
    | readonly (boolean | string | RegExp)[]
    | ((
        requestOrigin: string | undefined,
        callback: (
          error: Error | null,
          origin?: boolean | string | RegExp | (boolean | string | RegExp)[],
        ) => void,
      ) => void);
  /** The methods a preflight answer allows. */
  methods?: string | string[];
  /** The request headers a preflight answer allows. */
  allowedHeaders?: string | string[];
  /** The answer headers a page may read. */
  exposedHeaders?: string | string[];
  /** Whether pages may send cookies and credentials. */
  credentials?: boolean;
  /** How many seconds a browser may keep a preflight answer. */
  maxAge?: number;
  /** Whether a preflight request goes on to the routes instead of being answered. */
  preflightContinue?: boolean;
  /** The status of a preflight answer. */
  optionsSuccessStatus?: number;
};

/** How the runtime's HTTP server listens and what it accepts. */
export interface ServerManagerConfig {
  /**
   * TCP port; `0` picks a free one (read it back from `runtime.server.port`). Default 3000.
   * @claim tsdoc-server-default-port
   */
  port?: number;
  /**
   * Interface to listen on. Default `127.0.0.1`; use `0.0.0.0` to accept remote clients.
   * @claim tsdoc-server-default-host
   */
  host?: string;
  /**
   * The host names a request's `Host` header may carry, against DNS rebinding: a web page whose
   * name was rebound to this machine's address still sends its own name, and is refused with
   * 403 `WEFT_HOST_NOT_ALLOWED` before any route runs or any body is read. Compared without
   * the port and case-insensitively; `localhost`, `127.0.0.1`, `::1`, the configured `host`
   * and any IP address are always allowed. A name with a leading dot (`.example.com`) allows
   * that name and its subdomains. `true` or `'all'` turns the check off. A request whose
   * request line names its host, in absolute form (`GET http://agent.example.com/api HTTP/1.1`),
   * is judged by that host instead of `Host`, as RFC 9112 asks. An entry with a
   * scheme, a port or a path (`'https://agent.example.com'`, `'agent.example.com:8080'`) can
   * match no `Host` header, since the port is left out of the comparison, and is refused; so
   * is one with a `*` (`'*.example.com'`), which is no wildcard here.
   *
   * When you listen on `0.0.0.0` or `::` for remote clients, list the public host names they
   * use here (such as `['agent.example.com']`), or they are refused; so are the requests of a
   * reverse proxy that passes the client's `Host` on, even on the loopback. A proxy that sends
   * its upstream's name as `Host` instead (nginx's `proxy_pass http://agent:3000` sends
   * `agent:3000`) needs that name listed; an upstream given as an IP address needs nothing.
   * Default: `[]`.
   * @claim tsdoc-server-default-allowed-hosts
   */
  allowedHosts?: true | 'all' | readonly string[];
  /**
   * The web pages whose requests the routes take, by origin (`https://chat.example.com`),
   * against cross-site requests: a page on another site can make a visitor's browser send a form
   * POST to any address, and the route would run before CORS hides the answer. A request whose
   * `Origin` header is not the server's own (its host and port are not the request's `Host`, or
   * those its request line names in absolute form),
   * not listed here and not allowed by {@link ServerManagerConfig.cors} is refused with 403
   * `WEFT_ORIGIN_NOT_ALLOWED` before any route runs or any body is read; so is one without
   * `Origin` whose `Sec-Fetch-Site` is `cross-site` or `same-site`. Requests with neither header
   * (curl, servers, native apps) pass. `true` turns the check off. Default: `[]`.
   *
   * A browser extension's or an app's origin (`chrome-extension://id`, `capacitor://localhost`)
   * is listed the same way; it is never taken for the server's own, though its host may be the
   * request's `Host`. `file:`, `data:` and `null` are no origins, and the constructor refuses them.
   * @claim tsdoc-server-default-allowed-origins
   * @claim tsdoc-server-origin-refused
   * @claim tsdoc-server-origin-pass
   * @claim tsdoc-server-origin-schemes
   */
  allowedOrigins?: true | readonly string[];
  /**
   * `true` allows every origin, an object configures the `cors` middleware; default off. The
   * origins CORS allows are also let through the {@link ServerManagerConfig.allowedOrigins}
   * check. An `origin` function that has not called back within 5 seconds refuses the origin,
   * and the server logs it. An object may hold only the options of {@link CorsOptions}, each of
   * its type: the middleware ignores a key it does not know, so a misspelt `origin` would leave
   * its default, which allows every origin; the server's constructor refuses such a key instead.
   * @claim tsdoc-server-default-cors
   * @claim tsdoc-server-cors-checked
   * @claim tsdoc-server-cors-origins
   * @claim tsdoc-server-cors-origin-deadline
   */
  cors?: boolean | CorsOptions;
  /**
   * Largest accepted JSON body, as bytes or a string like `'100kb'`. Default `'1mb'`. A string
   * is whole bytes (`'2048'`) or a number of b, kb, mb, gb, tb or pb (`'1.5mb'`, 1024 to the
   * next); the constructor refuses any other, which the body parser would misread (`'1m'` as
   * 1 byte).
   * @claim tsdoc-server-default-body-limit
   * @claim tsdoc-server-body-limit-checked
   */
  bodyLimit?: number | string;
  /**
   * Deepest nesting of objects and arrays a JSON body may have; deeper bodies are refused with
   * 400 before the route runs (a UTF-8 body before it is parsed, one in another UTF once it
   * is), as `WEFT_BAD_REQUEST` or the route's own `invalidBodyCode`. Default 64.
   * @claim tsdoc-server-default-max-json-depth
   */
  maxJsonDepth?: number;
  /**
   * Most milliseconds a client may take to send a request's headers, counted from its first byte
   * (from the connection's opening while it sends nothing); then 408. Default 10000.
   * @claim tsdoc-server-default-headers-timeout
   */
  headersTimeout?: number;
  /**
   * Most milliseconds a client may take to send a whole request (then 408). Default 30000.
   * @claim tsdoc-server-default-request-timeout
   */
  requestTimeout?: number;
  /**
   * How long the server keeps an idle keep-alive connection open, in milliseconds, as it tells
   * clients in `Keep-Alive: timeout=` (whole seconds). Default 5000. Recent Node.js versions close
   * the connection a second later than that.
   * @claim tsdoc-server-default-keep-alive-timeout
   * @claim tsdoc-server-keep-alive-buffer
   */
  keepAliveTimeout?: number;
  /**
   * Most connections held open in all; one more is answered 503 `WEFT_TOO_MANY_CONNECTIONS`
   * and closed, while those open go on. Default 1000.
   * @claim tsdoc-server-default-max-connections
   */
  maxConnections?: number;
  /**
   * Most connections held open from one client address, answered like one over
   * `maxConnections`. No cap by default: behind a reverse proxy every client has the proxy's
   * address.
   * @claim tsdoc-server-max-connections-per-client
   */
  maxConnectionsPerClient?: number;
  /**
   * How long `stop()` lets open requests finish before it closes their connections, in
   * milliseconds. Default 1000.
   * @claim tsdoc-server-default-stop-grace-ms
   */
  stopGraceMs?: number;
}
