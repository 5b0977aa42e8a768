/**
 * Prism's tokens for a block, cut at the identifiers that have a type (from the page's hover
 * data, src/remark/type-hovers), so each such identifier is one token carrying its type for
 * ./highlighted-markup.ts to show on hover and focus. Offsets count UTF-16 units over the
 * block's code, lines joined by one newline, as Prism splits them.
 */
import type { Token } from 'prism-react-renderer';
import type { CodeBlockMetadata } from '@docusaurus/theme-common/internal';
import type { EncodedHover } from '@site/src/remark/type-hovers/encoding';

/** A block's metadata with its encoded hover types, if the page gave it some (./String.tsx). */
export type MetadataWithTypeHovers = CodeBlockMetadata & { typeHovers?: string | undefined };

export interface TypeHoverToken extends Token {
  typeHover?: { text: string };
}

/** Splits one token at the given code offsets (its own start is `offset`). */
function cut(token: Token, offset: number, boundaries: readonly number[]): Token[] {
  const pieces: Token[] = [];
  let from = 0;
  for (const boundary of boundaries) {
    const at = boundary - offset;
    if (at > from && at < token.content.length) {
      pieces.push({ ...token, content: token.content.slice(from, at) });
      from = at;
    }
  }
  pieces.push({ ...token, content: token.content.slice(from) });
  return pieces;
}

export function withTypeHovers(
  lines: readonly (readonly Token[])[],
  hovers: readonly EncodedHover[],
): TypeHoverToken[][] {
  const byStart = new Map(hovers.map((hover) => [hover.start, hover]));
  const boundaries = [...new Set(hovers.flatMap((h) => [h.start, h.start + h.length]))].sort(
    (a, b) => a - b,
  );
  let offset = 0;
  // Tokens come in code order and the boundaries are sorted, so one index walks both: the first
  // boundary past the current token's start (a filter over all boundaries per token was the
  // slowest part of a typed block's markup).
  let next = 0;
  return lines.map((line) => {
    const result: TypeHoverToken[] = [];
    for (const token of line) {
      // Prism gives an empty line one token holding just "\n", which is the line's end.
      if (token.content === '\n') {
        result.push(token);
        continue;
      }
      const end = offset + token.content.length;
      while (next < boundaries.length && boundaries[next]! <= offset) next += 1;
      const inside: number[] = [];
      for (let at = next; at < boundaries.length && boundaries[at]! < end; at += 1) {
        inside.push(boundaries[at]!);
      }
      let pieceOffset = offset;
      for (const piece of cut(token, offset, inside)) {
        const hover = byStart.get(pieceOffset);
        result.push(
          hover && hover.length === piece.content.length
            ? { ...piece, typeHover: { text: hover.text } }
            : piece,
        );
        pieceOffset += piece.content.length;
      }
      offset = end;
    }
    offset += 1; // the newline Prism split the line at
    return result;
  });
}
