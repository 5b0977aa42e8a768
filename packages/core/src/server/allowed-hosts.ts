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
