/**
 * Cuts a text to at most `max` UTF-16 code units, ending it with `...` when it was longer. The cut
 * never keeps half of a surrogate pair (an emoji): alone it has no UTF-8 form, and a memory
 * store refuses a string that holds one, so a task whose chain quoted it would not be recorded.
 *
 * @param text - The text.
 * @param max - The most code units to keep, `...` included; at least 3.
 * @returns The text, or its start and `...`.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 3;
  const last = text.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}...`;
}
