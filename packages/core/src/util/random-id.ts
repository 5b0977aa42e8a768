/**
 * A random UUID (version 4), for task ids. Web Crypto's `randomUUID` exists in Node.js and in
 * browsers, but a browser offers it only in secure contexts (HTTPS or localhost); a page opened
 * over plain HTTP or from a file still has `getRandomValues`, from which the id is built.
 *
 * @returns Such as `3b241101-e2bb-4255-8caf-4136c566a962`.
 * @claim tsdoc-random-id-v4
 * @claim tsdoc-random-id-fallback
 */
export function randomId(): string {
  const { crypto } = globalThis;
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // the RFC 9562 variant
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
