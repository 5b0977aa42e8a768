/**
 * The request target of a request line in absolute form (`GET http://agent.example/api`). Kept
 * apart from allowed-hosts.ts, which needs `node:net`: the options schema, which the browser build
 * of the core carries, reaches this through allowed-origins.ts.
 */

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
 * Whether an authority from {@link absoluteFormAuthority} can be judged as a host: it names one
 * (not only a port, as `:80` does), and carries no user information (`user@`), which RFC 9110
 * (section 4.2.4) asks a server to treat as an error in an `http` URI.
 */
export function namesHostOnly(authority: string): boolean {
  const trimmed = authority.trim();
  return trimmed !== '' && !trimmed.startsWith(':') && !authority.includes('@');
}

/** The answer's message to a target in absolute form that {@link namesHostOnly} refuses. */
export const ABSOLUTE_FORM_WITHOUT_HOST =
  'A request target in absolute form must name a host, without user information (user@)';
