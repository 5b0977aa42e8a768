import { WeftError } from '../errors/weft-error.js';
import { hasLoneSurrogate } from './memory-input.js';

/**
 * What a space id may be: 1 to 200 ASCII letters, digits, `_`, `.`, `:` and `-`, starting with a
 * letter or digit.
 *
 * @internal
 */
export const SPACE_ID_PATTERN = /^[A-Za-z0-9][\w.:-]{0,199}$/;

/** Characters a part keeps as they are; everything else, `-` and `_` included, is escaped. */
const KEPT = /^[A-Za-z0-9.:]$/;
const encoder = new TextEncoder();

/**
 * Builds a space id from parts, most general first, such as a room and a user that came from
 * a request. Each part is encoded so that it never contains `-`, then the parts are joined with
 * `-`. Two different lists of parts therefore never give the same id, whatever the parts
 * contain, and a pattern built from a prefix of parts only matches ids with exactly those
 * parts in front: `${spaceId('chat', 'room', room)}-*` matches every space under that room and
 * nothing of a room whose id merely starts the same way or contains `-user-`.
 *
 * ASCII letters and digits, `.` and `:` are kept, so ordinary ids read as they are
 * (`spaceId('chat', 'room', '42')` is `chat-room-42`); every other character becomes `_`
 * followed by the two hex digits of each of its UTF-8 bytes (`-` is `_2d`, `_` is `_5f`, `é`
 * is `_c3_a9`), as in percent-encoding. A part holding a UTF-16 surrogate without its pair is
 * refused: it has no UTF-8 form, and encoding it as U+FFFD would give the id of another part.
 *
 * @param parts - The parts, most general first; each a non-empty string.
 * @returns The space id.
 * @throws {@link WeftError} `WEFT_INVALID_SPACE` (status 400) when no part is given, a part is
 * empty, not a string or holds a lone UTF-16 surrogate, when the first part does not start with
 * an ASCII letter or digit (`é` is escaped, so `été` is refused), or when the encoded id is longer
 * than 200 characters.
 *
 * @example
 * ```ts
 * import { spaceId, type Runtime } from '@weft/core';
 *
 * async function onTicketMessage(runtime: Runtime, team: string, ticket: string, text: string) {
 *   return runtime.dispatch({
 *     pluginId: 'support',
 *     triggerId: 'ticket-message',
 *     space: {
 *       id: spaceId('support', team, 'ticket', ticket),
 *       // Every ticket of the same team, and no ticket of a team named like `${team}-x`.
 *       relatedSpaces: [`${spaceId('support', team, 'ticket')}-*`],
 *     },
 *     message: text,
 *   });
 * }
 * ```
 * @claim tsdoc-space-id-lone-surrogate
 */
export function spaceId(...parts: readonly string[]): string {
  if (parts.length === 0) {
    throw invalid('give at least one part, such as spaceId("notes", user)');
  }
  const encoded = parts.map((part, index) => {
    if (typeof part !== 'string' || part === '') {
      throw invalid(
        `part ${index + 1} must be a non-empty string, got ${part === '' ? 'an empty string' : typeof part}`,
      );
    }
    if (hasLoneSurrogate(part)) {
      throw invalid(
        `part ${index + 1} holds a UTF-16 surrogate without its pair, which has no UTF-8 form; drop broken characters from text received from outside`,
      );
    }
    return encodePart(part);
  });
  const id = encoded.join('-');
  if (!/^[A-Za-z0-9]/.test(id)) {
    throw invalid(
      `the id must start with an ASCII letter or digit, but its first part ${JSON.stringify(parts[0])} does not; start with a fixed part such as your plugin's id`,
    );
  }
  if (!SPACE_ID_PATTERN.test(id)) {
    throw invalid(
      `the encoded id is ${id.length} characters, over the limit of 200 (each character other than letters, digits, '.' and ':' takes 3 per UTF-8 byte); use shorter parts`,
    );
  }
  return id;
}

function encodePart(part: string): string {
  let encoded = '';
  for (const character of part) {
    if (KEPT.test(character)) {
      encoded += character;
      continue;
    }
    for (const byte of encoder.encode(character)) {
      encoded += `_${byte.toString(16).padStart(2, '0')}`;
    }
  }
  return encoded;
}

function invalid(problem: string): WeftError {
  return new WeftError('WEFT_INVALID_SPACE', `spaceId: ${problem}.`, { status: 400 });
}
