import type { IncomingMessage } from 'node:http';
import type { CorsOptions } from './server-config.js';

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
 * or `undefined` when the text is not an origin (`null`, a path, a query).
 *
 * @param text - An origin from the options or from an `Origin` header.
 * @returns The normalised origin.
 */
export function normaliseOrigin(text: string): string | undefined {
  try {
    const url = new URL(text);
    if (url.origin === 'null' || url.pathname.length > 1 || url.search || url.hash) {
      return undefined;
    }
    return url.origin.toLowerCase();
  } catch {
    return undefined;
  }
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
 * port are the request's `Host`), when the origin is in `allowed`, or when the CORS options
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
      const host = header(request, 'host')?.toLowerCase();
      if (host !== undefined && new URL(normalised).host === host) return { allowed: true };
    }
    if (await corsAllows(origin)) return { allowed: true };
    return { allowed: false, origin, reason: 'origin' };
  };
}

/**
 * Reads the `cors` middleware's `origin` option as a yes or no for one origin: `cors: true`,
 * `{}` (whose default answers `*`), `origin: true` and `'*'` allow every origin; a string, a
 * RegExp or a list of them allow what they match; a function is asked as the middleware asks
 * it, and its answer read the same way. In a list, an entry is read as the middleware reads it:
 * `true` allows every origin, and `'*'` is a string that no origin equals.
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

function staticOriginAllows(option: StaticOrigin, origin: string): boolean {
  if (option === true || option === '*') return true;
  if (option === false) return false;
  if (option instanceof RegExp) return option.test(origin);
  if (typeof option === 'string') return namesOrigin(option, origin);
  return option.some((entry) => listEntryAllows(entry, origin));
}

/**
 * One entry of an `origin` list, as the middleware matches it: `true` allows every origin (the
 * middleware then sends the page's own origin back), a RegExp what it matches, and a string the
 * origin it names, `'*'` included, which no page's origin is.
 */
function listEntryAllows(entry: boolean | string | RegExp, origin: string): boolean {
  if (typeof entry === 'boolean') return entry;
  if (entry instanceof RegExp) return entry.test(origin);
  return namesOrigin(entry, origin);
}

/**
 * Whether a configured origin names the request's: written the same, or the same origin in
 * another case or with its default port.
 */
function namesOrigin(option: string, origin: string): boolean {
  const normalised = normaliseOrigin(option);
  return option === origin || (normalised !== undefined && normalised === normaliseOrigin(origin));
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text === '' ? undefined : text;
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
        callback(error, verdict);
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
