import { isIP } from 'node:net';

/**
 * Which `Host` headers the server answers: `true` or `'all'` for any, or a list of host names
 * added to the loopback names. See {@link ServerManagerConfig.allowedHosts}.
 */
export type AllowedHosts = true | 'all' | readonly string[];

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];
const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::']);

/**
 * Builds the check of a request's `Host` header against the allowed hosts. A browser sends the
 * name it resolved in `Host`, so a page of `attacker.example` whose DNS answer was rebound to
 * 127.0.0.1 still says `attacker.example`: refusing names the server does not know keeps such
 * pages from driving a local agent. IP literals are always allowed, because a page can only
 * reach an address by that address, which makes it the server's own origin.
 *
 * @param allowed - The configured allowed hosts.
 * @param boundHost - The interface the server listens on; allowed too unless it is a wildcard.
 * @returns A function telling whether a raw `Host` header value is allowed.
 * @claim tsdoc-host-checker-bound
 * @claim tsdoc-host-checker-ip
 */
export function hostChecker(
  allowed: AllowedHosts,
  boundHost: string,
): (hostHeader: string | undefined) => boolean {
  if (allowed === true || allowed === 'all') return () => true;
  const exact = new Set<string>();
  const suffixes: string[] = [];
  const names = [...LOOPBACK_NAMES, ...allowed];
  if (!WILDCARD_ADDRESSES.has(boundHost)) names.push(boundHost);
  for (const name of names) {
    const normalised = normaliseHostname(name);
    // A leading dot allows the name and every subdomain of it, as in Vite's `allowedHosts`.
    if (normalised.startsWith('.')) {
      exact.add(normalised.slice(1));
      suffixes.push(normalised);
    } else exact.add(normalised);
  }
  return (hostHeader) => {
    if (hostHeader === undefined || hostHeader === '') return false;
    const hostname = normaliseHostname(hostnameOf(hostHeader));
    if (isIP(hostname) !== 0) return true;
    return exact.has(hostname) || suffixes.some((suffix) => hostname.endsWith(suffix));
  };
}

/** A request target in absolute form, as Node.js passes one on: a scheme, `//`, the authority. */
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/;

/**
 * The authority a request target in absolute form names, as in `GET http://agent.example/api
 * HTTP/1.1`. RFC 9112 (section 3.2.2) has a server take the host from there and ignore the `Host`
 * header, so the host check judges this authority instead of `Host` when there is one.
 *
 * @param target - The request target as Node.js read it (`request.url`).
 * @returns The authority as sent (`agent.example:3000`, `''` for `http:///api`), user information
 *   included, or `undefined` for a target in origin form (`/api`) or asterisk form (`*`).
 * @claim tsdoc-absolute-form-authority
 */
export function absoluteFormAuthority(target: string | undefined): string | undefined {
  return ABSOLUTE_FORM.exec(target ?? '')?.[1];
}

/**
 * Whether an authority from {@link absoluteFormAuthority} can be judged as a host: it names one,
 * and carries no user information (`user@`), which RFC 9110 (section 4.2.4) asks a server to
 * treat as an error in an `http` URI.
 */
export function namesHostOnly(authority: string): boolean {
  return authority.trim() !== '' && !authority.includes('@');
}

/** The answer's message to a target in absolute form that {@link namesHostOnly} refuses. */
export const ABSOLUTE_FORM_WITHOUT_HOST =
  'A request target in absolute form must name a host, without user information (user@)';

/**
 * The host name of a `Host` header value, without its port: `[::1]:3000` gives `::1`.
 *
 * @param hostHeader - The raw header value.
 * @returns The host name as sent, brackets of an IPv6 literal removed.
 * @claim tsdoc-hostname-of
 */
export function hostnameOf(hostHeader: string): string {
  const value = hostHeader.trim();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end === -1 ? value : value.slice(1, end);
  }
  const colon = value.indexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}

function normaliseHostname(name: string): string {
  const lower = name.trim().toLowerCase();
  const unbracketed = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  // `localhost.` is the same name as `localhost` written fully qualified.
  return unbracketed.length > 1 && unbracketed.endsWith('.')
    ? unbracketed.slice(0, -1)
    : unbracketed;
}
