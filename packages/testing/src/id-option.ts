/**
 * The rule for the `id` option of this package's providers: a string with at least one character
 * other than white space, as `SqliteMemoryProvider` and `PostgresMemoryProvider` require. An id
 * of spaces alone would name the provider in logs and errors as nothing at all.
 */

/** The start of the message that refuses an `id` breaking the rule; the caller adds what it got. */
export const ID_OPTION_RULE = 'option "id" must be a non-empty string';

/**
 * Whether a given `id` option breaks the rule: it is not a string, or it is empty or white space
 * alone. An absent option (`undefined`) is the caller's to default.
 *
 * @param id - The option as given, not `undefined`.
 * @returns `true` when the id must be refused.
 * @internal
 */
export function isBadIdOption(id: unknown): boolean {
  return typeof id !== 'string' || id.trim() === '';
}
