import type { IncomingMessage } from 'node:http';
import type { CorsOptions } from './server-config.js';
import { absoluteFormAuthority } from './request-target.js';

/**
 * Which web pages may call the server's routes: `true` for every page, or a list of origins
 * such as `https://chat.example.com`. See {@link ServerManagerConfig.allowedOrigins}.
 */
export type AllowedOrigins = true | readonly string[];

/** What the origin check decides about one request. */
export type OriginVerdict =
  { allowed: true } | { allowed: false; origin: string; reason: 'origin' | 'fetch-site' };

/**
 * An origin as browsers send it (`https://chat.example.com`, default port left out), lower-cased,
 * or `undefined` when the text is not an origin (`null`, a path, a query). A scheme the URL
 * standard gives no origin of its own, such as a browser extension's `chrome-extension://id` or
 * an app's `capacitor://localhost`, is read as `scheme://host`, as browsers send it in `Origin`;
 * `file:` (with a host or without) and `data:` are no origin: a browser sends `null` for them.
 * The core's server and `@weft/plugin-websocket` both read origins with it.
 *
 * @param text - An origin from the options or from an `Origin` header.
 * @returns The normalised origin.
 */
export function normaliseOrigin(text: string): string | undefined {
  try {
    const url = new URL(text);
    if (url.pathname.length > 1 || url.search || url.hash) return undefined;
    if (url.origin !== 'null') return url.origin.toLowerCase();
    // `file:`, `data:` and the `null` of a sandboxed page have no host to allow. A page opened
    // from a file sends `Origin: null` even when its URL names a host (`file://server/`), so such
    // an entry could never match a request.
    if (url.protocol === 'file:' || url.host === '' || url.username || url.password) {
      return undefined;
    }
    return `${url.protocol}//${url.host}`.toLowerCase();
  } catch {
    return undefined;
  }
}

/** The port a scheme's URLs have when they name none, which the URL standard leaves out. */
const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/**
 * Whether a `Host` header (lower case) names a normalised origin's host and port. A browser
 * leaves a default port out of both, but a proxy may write it out in the `Host` it passes on
 * (`agent.example.com:443`), which is still the page's own origin.
 */
function namesOrigin(host: string, normalised: string): boolean {
  const url = new URL(normalised);
  if (url.host === host) return true;
  const port = DEFAULT_PORTS[url.protocol];
  return port !== undefined && url.port === '' && host === `${url.host}:${port}`;
}

/**
 * Whether the URL standard gives a normalised origin's scheme an origin of its own, as it does a
 * web page's `https://chat.example.com`. Only such an origin can be the server's own: an app's
 * `capacitor://localhost` names the host `localhost` too, but no page the server serves has it.
 */
function hasTupleOrigin(normalised: string): boolean {
  return new URL(normalised).origin !== 'null';
}

/**
 * Builds the check of a request's `Origin` header. A browser lets any page send a "simple"
 * request (a form POST with `text/plain`, say) to any address without asking the server first,
 * and CORS only hides the answer from the page: the route has run by then. The browser does say
 * which page sent the request, in `Origin` (and `Sec-Fetch-Site`), so refusing pages the server
 * does not know, before any route runs, is what keeps them from driving an agent.
 *
 * A request passes when it carries no `Origin` and no cross-site `Sec-Fetch-Site` (curl, a
 * server, a native app: not a browser page), when its origin is the server's own (its host and
 * port are the request's `Host`, or the authority of a target in absolute form), when the origin is in `allowed`, or when the CORS options
 * allow it (an origin the server tells browsers they may call from must also be let in).
 *
 * @param allowed - The configured allowed origins.
 * @param corsOptions - The server's `cors` option.
 * @returns A function deciding about one request.
 */
export function originChecker(
  allowed: AllowedOrigins,
  corsOptions: boolean | CorsOptions | undefined,
): (request: IncomingMessage) => Promise<OriginVerdict> {
  const corsAllows = corsOriginCheck(corsOptions);
  const listed =
    allowed === true ? true : new Set(allowed.map((origin) => normaliseOrigin(origin) ?? origin));
  return async (request) => {
    if (listed === true) return { allowed: true };
    const origin = header(request, 'origin');
    if (origin === undefined) {
      // A browser that leaves out Origin (a GET navigation, an image) still says where the
      // request comes from in Sec-Fetch-Site.
      const site = header(request, 'sec-fetch-site')?.toLowerCase();
      if (site === 'cross-site' || site === 'same-site') {
        return { allowed: false, origin: `(none; Sec-Fetch-Site: ${site})`, reason: 'fetch-site' };
      }
      return { allowed: true };
    }
    const normalised = normaliseOrigin(origin);
    if (normalised !== undefined) {
      if (listed.has(normalised)) return { allowed: true };
      // The host the request is for: that of a target in absolute form, as the host check reads it.
      const host = (absoluteFormAuthority(request.url) ?? header(request, 'host'))?.toLowerCase();
      if (host !== undefined && hasTupleOrigin(normalised) && namesOrigin(host, normalised)) {
        return { allowed: true };
      }
    }
    if (await corsAllows(origin)) return { allowed: true };
    return { allowed: false, origin, reason: 'origin' };
  };
}

/**
 * Reads the `cors` middleware's `origin` option as a yes or no for one origin: `cors: true`,
 * `{}` (whose default answers `*`), `origin: true` and `'*'` allow every origin; a string, a
 * RegExp or a list of them allow what they match; a function is asked as the middleware asks
 * it, and its answer read the same way.
 */
function corsOriginCheck(
  corsOptions: boolean | CorsOptions | undefined,
): (origin: string) => Promise<boolean> {
  if (corsOptions === undefined || corsOptions === false) return async () => false;
  if (corsOptions === true) return async () => true;
  const option = corsOptions.origin;
  if (typeof option === 'function') {
    return (origin) =>
      new Promise<boolean>((resolve) => {
        try {
          option(origin, (error, verdict) =>
            resolve(!error && staticOriginAllows(verdict ?? false, origin)),
          );
        } catch {
          resolve(false);
        }
      });
  }
  return async (origin) => staticOriginAllows(option ?? '*', origin);
}

type StaticOrigin = boolean | string | RegExp | readonly (boolean | string | RegExp)[];

/**
 * Whether the middleware allows `origin` under an `origin` option or a function's answer, matched
 * as the middleware matches it: a string must be the origin exactly, a `true` in a list allows
 * every origin, and a `'*'` in a list is compared as a string, so it allows none (only a `'*'` on
 * its own means every origin).
 */
function staticOriginAllows(option: StaticOrigin, origin: string, inList = false): boolean {
  if (option === true || (option === '*' && !inList)) return true;
  if (option === false) return false;
  if (option instanceof RegExp) return option.test(origin);
  // Compared as the middleware and the browser compare them: a string that is not the page's
  // origin byte for byte ('https://app.example.com/') lets no page read an answer.
  if (typeof option === 'string') return option === origin;
  return option.some((entry) => staticOriginAllows(entry, origin, true));
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text === '' ? undefined : text;
}

/**
 * `pattern`, or when it has the `g` or `y` flag a copy without them that matches as `pattern`
 * does from the start of the text. `test` on a `g` or `y` RegExp starts at its `lastIndex`, left
 * where the last match ended, so the middleware and the origin check would refuse on one request
 * the origin they allowed on the one before. A `cors` origin is a yes or no for a whole origin,
 * which the `cors` documentation describes as testing the origin against the pattern, and
 * `@fastify/cors` matches a `g` RegExp from the start each time: a user writing `/…/g` out of
 * habit expects that, not an option refused. The `y` flag anchors a match at `lastIndex`, 0 for
 * a fresh RegExp, so the copy keeps that anchor as a lookbehind for the start of the text
 * (dropping it would allow origins the pattern does not allow from their first character).
 *
 * @param pattern - A RegExp from the `cors` option or its function's answer.
 * @returns A RegExp whose `test` keeps no state between calls.
 */
function matchingFromStart(pattern: RegExp): RegExp {
  if (!pattern.global && !pattern.sticky) return pattern;
  const flags = pattern.flags.replace(/[gy]/g, '');
  return new RegExp(pattern.sticky ? `(?<![\\s\\S])(?:${pattern.source})` : pattern.source, flags);
}

/**
 * A `cors` origin rule with each RegExp matched from the start every time (see
 * {@link matchingFromStart}); other values are returned as they are.
 */
function rulesFromStart(rule: StaticOrigin | undefined): StaticOrigin | undefined {
  if (rule instanceof RegExp) return matchingFromStart(rule);
  if (Array.isArray(rule)) {
    const list = rule as readonly (boolean | string | RegExp)[];
    const copied = list.map((entry) =>
      entry instanceof RegExp ? matchingFromStart(entry) : entry,
    );
    return copied.some((entry, index) => entry !== list[index]) ? copied : rule;
  }
  return rule;
}

/**
 * The `cors` option with each RegExp of its `origin` replaced by one that keeps no state between
 * requests, so the same origin gets the same answer on every request (see
 * {@link matchingFromStart}). The user's RegExp objects are not changed.
 *
 * @param option - The checked `cors` option.
 * @returns The option, copied when its `origin` held a RegExp with the `g` or `y` flag.
 */
export function corsWithStatelessPatterns(
  option: boolean | CorsOptions | undefined,
): boolean | CorsOptions | undefined {
  if (typeof option !== 'object' || typeof option.origin === 'function') return option;
  const origin = rulesFromStart(option.origin);
  return origin === option.origin ? option : { ...option, origin };
}

/** How long the `cors` option's origin function may take to answer; past it the origin is refused. */
export const ORIGIN_HOOK_TIMEOUT_MS = 5_000;

/**
 * The `cors` option with its origin function, when it has one, answered within `ms`: a function
 * that does not call back in time (a lookup that hangs) counts as refusing the origin, and
 * `onLate` is told, so no request waits on it without end.
 *
 * @param option - The server's `cors` option.
 * @param ms - The longest wait for the function.
 * @param onLate - Called with the origin when the function did not answer in time.
 * @returns The option, with the function wrapped.
 */
export function originHookWithDeadline(
  option: boolean | CorsOptions | undefined,
  ms: number,
  onLate: (origin: string | undefined) => void,
): boolean | CorsOptions | undefined {
  if (typeof option !== 'object' || typeof option.origin !== 'function') return option;
  const hook = option.origin;
  return {
    ...option,
    origin: (origin, callback) => {
      let answered = false;
      const answer: typeof callback = (error, verdict) => {
        if (answered) return;
        answered = true;
        clearTimeout(timer);
        // The function may answer with the same `g` RegExp each time, as a static option may.
        callback(error, rulesFromStart(verdict) as typeof verdict);
      };
      const timer = setTimeout(() => {
        if (answered) return;
        onLate(origin);
        answer(null, false);
      }, ms);
      try {
        hook(origin, answer);
      } catch (error) {
        answer(error instanceof Error ? error : new Error(String(error)));
      }
    },
  };
}
