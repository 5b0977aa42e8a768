import * as z from 'zod';
import { ONE_SHOT } from '../util/one-shot-parse.js';
import { MAX_TIMER_MS } from '../util/timer-limit.js';
import { timerMilliseconds } from '../util/timer-schema.js';
import { ALLOWED_HOST_RULE, isAllowedHostEntry } from './allowed-host-entry.js';
import { normaliseOrigin } from './allowed-origins.js';
import type { CorsOptions } from './server-config.js';

const positiveInteger = z.number().int().positive();

/**
 * What a `host` with spaces around it (or only spaces) breaks, worded to follow the option's
 * name: Node.js takes it for a name to look up when the server listens, and finds none.
 *
 * @internal
 */
export const HOST_SPACES_RULE =
  "must not be blank or begin or end with a space, such as '127.0.0.1' or '0.0.0.0': Node.js would fail to look it up when the server starts listening";

/**
 * The most `keepAliveTimeout` may be, in milliseconds. Node.js times an idle keep-alive socket
 * for the option plus one second, and a socket timer over {@link MAX_TIMER_MS} is cut to it
 * with a `TimeoutOverflowWarning` on every answer on a kept-alive connection.
 *
 * @internal
 */
export const MAX_KEEP_ALIVE_TIMEOUT_MS = MAX_TIMER_MS - 1_000;

/**
 * What `keepAliveTimeout` must be at most, worded to follow "must be".
 *
 * @internal
 */
export const KEEP_ALIVE_LIMIT_RULE = `at most ${MAX_KEEP_ALIVE_TIMEOUT_MS} ms (about 24.8 days): Node.js holds an idle connection a second longer, and cuts a socket timer over ${MAX_TIMER_MS} ms to that with a warning on every answer`;

/** The units a size string may end with, as the JSON body parser reads them (powers of 1024). */
const SIZE_UNITS: Readonly<Record<string, number>> = {
  b: 1,
  kb: 2 ** 10,
  mb: 2 ** 20,
  gb: 2 ** 30,
  tb: 2 ** 40,
  pb: 2 ** 50,
};

/**
 * The bytes a size string stands for, as the JSON body parser (the `bytes` package) reads it:
 * whole bytes (`'2048'`, `'2048b'`) or a number of kb, mb, gb, tb or pb (`'1.5mb'`), any case.
 * The parser reads any other text by its leading digits (`'1m'` is 1 byte, `'1 meg'` too) or
 * refuses it only when the server is built, so the options accept only these forms.
 *
 * @param text - The size, such as `'100kb'`.
 * @returns The bytes, or `undefined` when the text is not such a size.
 */
export function byteSizeOf(text: string): number | undefined {
  const match = /^(\d+) *(b?)$|^(\d+(?:\.\d+)?) *(kb|mb|gb|tb|pb)$/i.exec(text);
  if (match === null) return undefined;
  if (match[1] !== undefined) return Number(match[1]);
  return Math.floor(Number(match[3]) * (SIZE_UNITS[(match[4] as string).toLowerCase()] as number));
}

const SIZE_TEXT =
  "a size such as '100kb' or '1mb' (a number of b, kb, mb, gb, tb or pb) of at least 1 byte";

/** What the cors middleware's `origin` option and its function's answer may be. */
const corsOriginRule = z.union([z.boolean(), z.string(), z.instanceof(RegExp)]);
const headerList = z.union([z.string(), z.array(z.string())]);

/**
 * The `cors` option as an object: the options of the `cors` middleware (`CorsOptions`), each
 * with its type, and no other key. The middleware ignores a key it does not know, so a typo
 * (`orign`) would leave its default, which allows every origin: such a key is refused instead.
 *
 * @internal
 */
export const corsOptionsSchema = z
  .object({
    origin: z
      .union(
        [
          corsOriginRule,
          z.array(corsOriginRule),
          z.custom<(...args: unknown[]) => unknown>(
            (value) => typeof value === 'function',
            'expected a function',
          ),
        ],
        { error: 'must be true, false, a string, a RegExp, a list of them or a function' },
      )
      .optional(),
    methods: headerList.optional(),
    allowedHeaders: headerList.optional(),
    exposedHeaders: headerList.optional(),
    credentials: z.boolean().optional(),
    maxAge: z.number().int().nonnegative().optional(),
    preflightContinue: z.boolean().optional(),
    optionsSuccessStatus: z.number().int().min(200).max(299).optional(),
  })
  .strict();

/**
 * The schema of the server's options, with their defaults and what each does: `Runtime.init`
 * validates `options.server` with it, `ServerManager` takes its defaults from it, and the
 * configuration reference's table is generated from it.
 *
 * @internal
 */
export const serverOptionsSchema = z
  .object({
    port: z
      .number()
      .int()
      .min(0)
      .max(65535)
      .default(3000)
      .describe(
        'The TCP port. `0` lets the operating system pick a free one; read it from `runtime.server.port` or `runtime.server.url` after `start()`.',
      ),
    host: z
      .string()
      .min(1)
      // Node.js looks such a host up only when the server listens, and fails there.
      .refine((host) => host.trim() === host, HOST_SPACES_RULE)
      .default('127.0.0.1')
      .describe(
        'The interface to listen on. The default accepts connections from the same machine only; `0.0.0.0` accepts them from anywhere (see [Running in production](../guides/production.md#host-reverse-proxy-and-tls)). A host that is only spaces, or begins or ends with one, is refused with the other invalid options, rather than failing when the server starts. <!-- claim: cfg-host-spaces -->',
      ),
    allowedHosts: z
      .union(
        [
          z.literal(true),
          z.literal('all'),
          z.array(
            z
              .string()
              .trim()
              .min(1)
              // The host check would never match such an entry, and would refuse every request
              // for the name meant.
              .refine(isAllowedHostEntry, `must be ${ALLOWED_HOST_RULE}`),
          ),
        ],
        { error: "must be true, 'all' or a list of host names such as ['agent.example.com']" },
      )
      .default([])
      .describe(
        "Host names a request’s `Host` header may carry, against DNS rebinding; others get `403` with `WEFT_HOST_NOT_ALLOWED`. `localhost`, `127.0.0.1`, `::1`, the configured `host` and IP addresses are always allowed; `.example.com` allows the name and its subdomains; `true` or `'all'` turns the check off. A request whose request line names its host itself, in absolute form (`GET http://agent.example.com/api HTTP/1.1`), is judged by that host instead of its `Host` header, as RFC 9112 asks, and gets `400` `WEFT_BAD_REQUEST` when that target names no host or carries user information (`user@`). <!-- claim: cfg-allowed-hosts-absolute-form --> An entry with a scheme, a port or a path (`'https://agent.example.com'`, `'agent.example.com:8080'`), which no `Host` header could match since the port is left out of the comparison, is refused, and so is one with a `*` (`'*.example.com'`), which is no wildcard here. <!-- claim: cfg-allowed-hosts-names-only --> List your public names when you listen on `0.0.0.0`, and behind a reverse proxy that passes the client’s `Host` on, even on the loopback: until then every request it forwards is refused. <!-- claim: cfg-allowed-hosts-proxy-public-name --> A proxy that sends its upstream’s address as `Host` instead, as nginx does by default (`proxy_pass http://agent:3000` sends `Host: agent:3000`), is refused the same way when that address is a name, such as a Compose service’s: list that name too. An upstream given as an IP address (`http://127.0.0.1:3000`) needs nothing listed. <!-- claim: cfg-allowed-hosts-upstream-name -->",
      ),
    allowedOrigins: z
      .union(
        [
          z.literal(true),
          z.array(
            z
              .string()
              .trim()
              .min(1)
              // The server refuses such a list when it is built; checked here, it is one of the
              // problems Runtime.init lists.
              .refine(
                (origin) => normaliseOrigin(origin) !== undefined,
                "must be an origin of the form scheme://host[:port], without a path, such as 'https://chat.example.com'",
              ),
          ),
        ],
        {
          error:
            "must be true (to turn the check off) or a list of origins such as ['https://chat.example.com']",
        },
      )
      .default([])
      .describe(
        "Origins of the web pages whose requests the routes take, such as `'https://chat.example.com'`, against cross-site requests (a page elsewhere posting a form to your agent). A request with an `Origin` header that is not the server’s own (scheme aside, its host and port are not the request’s `Host`, which may write out a default port such as `:443`), not listed here and not allowed by `cors` gets `403` with `WEFT_ORIGIN_NOT_ALLOWED` before any route runs; so does one without `Origin` whose `Sec-Fetch-Site` is `cross-site` or `same-site`. <!-- claim: cfg-allowed-origins-own --> A browser extension’s or an app’s origin, such as `'chrome-extension://id'` or `'capacitor://localhost'`, is listed the same way and is never taken for the server’s own; `file:`, `data:` and `null` are no origins to list. <!-- claim: cfg-allowed-origins-schemes --> Requests with neither header (curl, servers, apps) pass; `true` turns the check off.",
      ),
    cors: z
      .custom<boolean | CorsOptions>(
        (value) => typeof value === 'boolean' || (typeof value === 'object' && value !== null),
        'must be true, false or the options of the cors middleware',
      )
      .superRefine((value, context) => {
        // Checked apart from the boolean so that a problem is named by its key.
        if (typeof value !== 'object' || value === null) return;
        const checked = corsOptionsSchema.safeParse(value, ONE_SHOT);
        for (const issue of checked.error?.issues ?? []) {
          context.addIssue({ code: 'custom', message: issue.message, path: issue.path });
        }
      })
      .optional()
      .meta({ typeLabel: '`boolean` or cors options', defaultLabel: 'off' })
      .describe(
        "`true` allows requests from every origin; an object configures the [cors](https://github.com/expressjs/cors#configuration-options) middleware with its options (`origin`, `methods`, `allowedHeaders`, `exposedHeaders`, `credentials`, `maxAge`, `preflightContinue`, `optionsSuccessStatus`), each checked; another key is an error, since the middleware would ignore a misspelt `origin` and allow every origin. The origins it allows, matched as the middleware matches them (a string is one origin exactly, a `true` in a list allows them all, a `'*'` in a list none), also pass the `allowedOrigins` check. <!-- claim: cfg-cors-origins-pass --> A RegExp with the `g` or `y` flag, in `origin` or in its function's answer, is matched from the start of the origin on every request, as one without them (`y` still anchors the match at the origin's first character), where the middleware on its own would go on from the last match and refuse the next request from the same origin; your RegExp object is left unchanged. <!-- claim: cfg-cors-regexp-flags --> A browser request without `Origin` whose `Sec-Fetch-Site` is `cross-site` or `same-site` (a link followed from another site) has no origin to allow, so it is refused even with `cors: true`; only `allowedOrigins: true` lets it through. <!-- claim: cfg-cors-fetch-site --> An `origin` function that has not called back within 5 seconds refuses the origin, and the server logs it. <!-- claim: cfg-cors-origin-deadline --> Off, the server sends no CORS headers, so a page on another origin cannot read its answers or send requests a browser asks about first (JSON bodies, custom headers); its simple requests (a GET, a form POST) still reach the server, where `allowedOrigins` refuses those of origins it does not list with `403` before any route runs (with `allowedOrigins: true`, they run the route).",
      ),
    bodyLimit: z
      .union(
        [
          positiveInteger,
          z.string().refine((text) => (byteSizeOf(text) ?? 0) >= 1, `must be ${SIZE_TEXT}`),
        ],
        { error: `must be a whole number of bytes of at least 1, or ${SIZE_TEXT}` },
      )
      .default('1mb')
      .meta({ typeLabel: 'integer ≥ 1 or size string' })
      .describe(
        "The largest JSON body accepted, in bytes or as a size such as `'100kb'` or `'1.5mb'`: a whole number of bytes, with or without `b`, or a number of kb, mb, gb, tb or pb (1024 to the next), in any letter case, with or without spaces before the unit; a larger body is answered `413`. Any other string (`'1.5b'`, `'1m'`) is an error, since the body parser would read `'1m'` as 1 byte. <!-- claim: cfg-body-limit-forms -->",
      ),
    maxJsonDepth: positiveInteger
      .default(64)
      .describe(
        "The deepest nesting of objects and arrays a JSON body may have; deeper bodies get `400` before the route runs (a UTF-8 body before it is parsed, one in another UTF once it is), with `WEFT_BAD_REQUEST` or the route's own code when it sets `invalidBodyCode`. <!-- claim: cfg-max-json-depth -->",
      ),
    headersTimeout: positiveInteger
      .default(10_000)
      .describe(
        'How many milliseconds a client may take to send a request’s headers, counted from its first byte (from the connection’s opening while it sends nothing); then the server answers `408`, up to a second after the deadline, since it checks once a second. <!-- claim: cfg-headers-timeout-late -->',
      ),
    requestTimeout: positiveInteger
      .default(30_000)
      .describe(
        'How many milliseconds a client may take to send a whole request; then `408`, up to a second after the deadline as with `headersTimeout`. <!-- claim: cfg-request-timeout-late --> It does not limit how long a route takes to answer.',
      ),
    keepAliveTimeout: positiveInteger
      .max(MAX_KEEP_ALIVE_TIMEOUT_MS, {
        error: (issue) => `must be ${KEEP_ALIVE_LIMIT_RULE}, got ${String(issue.input)}`,
      })
      .default(5_000)
      .describe(
        'How long the server keeps an idle keep-alive connection open, in milliseconds; it tells clients in whole seconds (`Keep-Alive: timeout=5` with the default). Recent Node.js versions close the connection a second later than that, so that a client reusing it at the last moment is not cut off. <!-- claim: cfg-keep-alive -->',
      ),
    maxConnections: positiveInteger
      .default(1_000)
      .describe(
        'The most connections the server serves at once, in all; one more is answered `503` with `WEFT_TOO_MANY_CONNECTIONS` and `Retry-After: 1`, and closed. <!-- claim: cfg-max-connections --> Keep it well below the process’s file descriptor limit (`ulimit -n`): a connection over the cap takes a descriptor too until it is closed, and the database and the model server need theirs.',
      ),
    maxConnectionsPerClient: positiveInteger
      .optional()
      .meta({ defaultLabel: 'none' })
      .describe(
        'The most connections the server serves at once from one client address; one more is answered like one over `maxConnections`. <!-- claim: cfg-max-connections-per-client --> Set it when clients reach the server directly. Behind a reverse proxy every client has the proxy’s address: leave it unset there and cap clients in the proxy.',
      ),
    stopGraceMs: timerMilliseconds
      .default(1_000)
      .describe(
        'How long the server’s `stop()` lets open requests finish before it closes their connections, in milliseconds. <!-- claim: cfg-stop-grace -->',
      ),
  })
  .strict();

/** The server's options with every default applied. */
export type ResolvedServerOptions = z.output<typeof serverOptionsSchema>;

/** The default of every server option. */
export const SERVER_DEFAULTS: ResolvedServerOptions = serverOptionsSchema.parse({}, ONE_SHOT);

/**
 * A rule between options that no single option's type can state. The runtime reports a broken
 * rule in its `WEFT_INVALID_CONFIG` with the others, the owner of the options (here the server's
 * constructor) refuses it, and the configuration reference lists it.
 *
 * @internal
 */
export interface CrossFieldRule<Options> {
  /** The options it relates, by key. */
  readonly keys: readonly (keyof Options & string)[];
  /** The rule, in Markdown, for the reference. */
  readonly rule: string;
  /**
   * @param options - The options, defaults applied.
   * @returns What is wrong, naming the options and their values, or `undefined`.
   */
  problem(options: Options): string | undefined;
}

/** @internal */
export const SERVER_CROSS_FIELD_RULES: readonly CrossFieldRule<ResolvedServerOptions>[] = [
  {
    keys: ['headersTimeout', 'requestTimeout'],
    rule: '`requestTimeout` must not be below `headersTimeout` (with their defaults, 30000 and 10000): the whole request cannot arrive sooner than its headers.',
    problem: ({ headersTimeout, requestTimeout }) =>
      headersTimeout > requestTimeout
        ? `"headersTimeout" (${headersTimeout} ms) must not exceed "requestTimeout" (${requestTimeout} ms); raise requestTimeout or lower headersTimeout.`
        : undefined,
  },
];

/**
 * Checks the cross-field rules on server options given by a user, with defaults applied to
 * those left out. A rule whose options are not themselves valid is skipped: their own problem
 * is reported already.
 *
 * @param given - The server options as given.
 * @returns One message per broken rule.
 */
export function serverCrossFieldProblems(given: unknown): string[] {
  const record = (typeof given === 'object' && given !== null ? given : {}) as Record<
    string,
    unknown
  >;
  const problems: string[] = [];
  for (const rule of SERVER_CROSS_FIELD_RULES) {
    const values: Record<string, unknown> = {};
    const valid = rule.keys.every((key) => {
      const parsed = serverOptionsSchema.shape[key].safeParse(record[key]);
      values[key] = parsed.data;
      return parsed.success;
    });
    if (!valid) continue;
    const problem = rule.problem({ ...SERVER_DEFAULTS, ...values });
    if (problem !== undefined) problems.push(problem);
  }
  return problems;
}
