/**
 * Rules for the text PostgreSQL can hold. Its `text` and `jsonb` types refuse the NUL character,
 * and node-postgres encodes a lone UTF-16 surrogate as U+FFFD, so two different ids would be
 * stored as the same one: both are refused before anything is sent.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Says what makes a string unstorable, if anything.
 *
 * @param text - The string.
 * @returns `undefined` when PostgreSQL stores it unchanged, else the reason, for an error message.
 */
export function unstorableText(text: string): string | undefined {
  if (text.includes('\0'))
    return 'contains a NUL character (\\u0000), which PostgreSQL cannot store';
  if (LONE_SURROGATE.test(text)) {
    return 'contains a lone UTF-16 surrogate, which has no UTF-8 form';
  }
  return undefined;
}

/**
 * Serialises a value to JSON text that `jsonb` accepts.
 *
 * @param value - The value.
 * @returns The JSON text, or `undefined` when the value has no JSON form (`undefined`, a
 * function or a symbol).
 * @throws TypeError for a `BigInt` or a circular structure (from `JSON.stringify`), and Error
 * naming the key when a string or key holds text PostgreSQL cannot store.
 */
export function toJsonb(value: unknown): string | undefined {
  return JSON.stringify(value, function check(this: unknown, key: string, item: unknown) {
    const keyProblem = unstorableText(key);
    if (keyProblem) throw new Error(`a key ${keyProblem}`);
    if (typeof item === 'string') {
      const problem = unstorableText(item);
      if (problem) throw new Error(`the string${key ? ` at key "${key}"` : ''} ${problem}`);
    }
    return item;
  }) as string | undefined;
}
