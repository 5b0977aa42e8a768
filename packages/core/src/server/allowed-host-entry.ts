/**
 * The rule an `allowedHosts` entry follows, apart from the host check itself (./allowed-hosts.ts),
 * which needs `node:net`: the options schema checks entries with it, and the schema is part of
 * the core's browser bundle.
 */

/**
 * What an `allowedHosts` entry must be, worded to follow "must be".
 *
 * @internal
 */
export const ALLOWED_HOST_RULE =
  "a host name such as 'agent.example.com', or '.example.com' for a name and its subdomains, without a scheme, port or path, and without a '*', which is no wildcard here: it is compared with the name of the Host header, whose port is left out";

/** Characters a browser never puts in the name of a `Host` header (the WHATWG URL standard's forbidden domain code points). */
const NOT_IN_HOST_NAME = /[\s/?#@[\]\\<>^|%:]/;

/**
 * A `*`, which other tools read as a wildcard (`'*.example.com'`) and the host check compares as
 * a character: no name a browser resolves holds one, so such an entry would refuse every request
 * for the names meant.
 */
const WILDCARD = '*';

/**
 * Whether an `allowedHosts` entry can match a `Host` header as the host check compares them:
 * the header's name, port and IPv6 brackets left out, against each entry lower-cased and
 * trimmed, brackets and a final dot left out. An entry with a scheme (`'http://example.com'`),
 * a port (`'name:8080'`) or a path can never be such a name, nor one with a `*`
 * (`'*.example.com'`), which no resolved name holds. An IPv6 address, whose colons
 * are not a port, passes (every IP address is allowed anyway).
 *
 * @param entry - An entry of `allowedHosts`.
 * @returns `true` when some `Host` header can match it.
 * @internal
 */
export function isAllowedHostEntry(entry: string): boolean {
  const name = entry.trim().toLowerCase();
  if (name === '') return false;
  const unbracketed = name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name;
  if (unbracketed.includes(WILDCARD)) return false;
  if (!NOT_IN_HOST_NAME.test(unbracketed)) return true;
  return unbracketed.includes(':') && isIpv6(unbracketed);
}

/** Whether the text is an IPv6 address, read by the URL parser (which runs in any host). */
function isIpv6(text: string): boolean {
  if (!/^[0-9a-f:.]+$/.test(text)) return false;
  try {
    new URL(`http://[${text}]/`);
    return true;
  } catch {
    return false;
  }
}
