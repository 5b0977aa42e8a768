/** What prompts show for data that has no JSON form (a bigint, a function, a circular object). */
export const NO_JSON_FORM = 'data with no JSON form';

/**
 * The JSON of a value, or `undefined` when it has none (`JSON.stringify` throws or gives none).
 *
 * @param value - Any value.
 * @returns Its JSON text, or `undefined`.
 */
export function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) as string | undefined;
  } catch {
    return undefined;
  }
}
