/**
 * The hover data of one code block as it travels in the page (a string prop of the block's
 * <code>): each distinct type text once, then start, length and text index per identifier.
 * The site's client decodes it only where a block is highlighted again (src/theme/CodeBlock).
 */
export interface EncodedHover {
  start: number;
  length: number;
  text: string;
}

interface Wire {
  texts: string[];
  spans: number[];
}

export function encodeTypeHovers(hovers: readonly EncodedHover[]): string {
  const texts: string[] = [];
  const index = new Map<string, number>();
  const spans: number[] = [];
  for (const { start, length, text } of hovers) {
    let at = index.get(text);
    if (at === undefined) {
      at = texts.push(text) - 1;
      index.set(text, at);
    }
    spans.push(start, length, at);
  }
  return JSON.stringify({ texts, spans } satisfies Wire);
}

export function decodeTypeHovers(encoded: string): EncodedHover[] {
  const { texts, spans } = JSON.parse(encoded) as Wire;
  const hovers: EncodedHover[] = [];
  for (let i = 0; i + 2 < spans.length; i += 3) {
    hovers.push({ start: spans[i]!, length: spans[i + 1]!, text: texts[spans[i + 2]!]! });
  }
  return hovers;
}
