const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Measures how deeply a JSON text nests objects and arrays, stopping as soon as it passes
 * `limit`. It reads the raw bytes in one loop with a counter, so a hostile body nested 100,000
 * levels costs one pass and no recursion (`JSON.parse` would accept it, and every recursive
 * consumer after it, such as prompt rendering or serialisation, would overflow the stack).
 * Brackets inside strings are skipped; UTF-8 continuation bytes are all above 0x7f, so they
 * never look like the ASCII bytes counted here. Malformed JSON is left to the parser.
 *
 * @param body - The raw JSON bytes.
 * @param limit - The deepest nesting allowed.
 * @returns `true` when the text nests deeper than `limit`.
 * @claim tsdoc-nests-deeper-strings
 * @claim tsdoc-nests-deeper-hostile
 */
export function nestsDeeperThan(body: Uint8Array, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < body.length; index += 1) {
    const byte = body[index];
    if (inString) {
      if (byte === BACKSLASH) index += 1;
      else if (byte === QUOTE) inString = false;
      continue;
    }
    if (byte === QUOTE) inString = true;
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth += 1;
      if (depth > limit) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) depth -= 1;
  }
  return false;
}

/**
 * Measures how deeply a parsed JSON value nests objects and arrays, stopping as soon as it passes
 * `limit`, with a stack of its own instead of recursion. For a body in another charset than
 * UTF-8, whose raw bytes {@link nestsDeeperThan} cannot read (in UTF-16 a character's bytes can
 * pass for a quote and hide the nesting after it), the depth is measured once it is parsed;
 * `JSON.parse` itself does not recurse.
 *
 * @param value - The parsed value.
 * @param limit - The deepest nesting allowed.
 * @returns `true` when the value nests deeper than `limit`.
 */
export function valueNestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [current, depth] = next;
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}
