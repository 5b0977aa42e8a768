/**
 * The whitepaper's PDF is drawn from its Markdown by tooling/assets/generate-whitepaper.ts, which
 * reads a small subset of Markdown. These tests check that what the paper writes in that subset
 * reaches the PDF as text in the right font, not as the Markdown's own markers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inlineRuns, parseWhitepaper } from '../../tooling/assets/generate-whitepaper';

const whitepaper = readFileSync(path.join(__dirname, '../../whitepaper/whitepaper.md'), 'utf8');

describe('the whitepaper renderer', () => {
  it('sets **bold** and `code` runs in their fonts, without their markers', () => {
    expect(inlineRuns('**Limits.** See `@weft/coordinator-postgres` for more.')).toEqual([
      { text: 'Limits.', font: 'bold' },
      { text: ' See ', font: 'regular' },
      { text: '@weft/coordinator-postgres', font: 'code' },
      { text: ' for more.', font: 'regular' },
    ]);
  });

  it('refuses a marker it cannot pair, which the PDF would print literally', () => {
    expect(() => parseWhitepaper('# Title\n\nAn `open run.\n')).toThrow(/cannot pair/);
    expect(() => parseWhitepaper('# Title\n\n- An **open run.\n')).toThrow(/cannot pair/);
  });

  it('leaves no Markdown marker in the text of the paper it draws', () => {
    const texts = parseWhitepaper(whitepaper).flatMap((block) =>
      block.kind === 'paragraph' ? [block.text] : block.kind === 'list' ? block.items : [],
    );
    const drawn = texts.flatMap((text) => inlineRuns(text).map((run) => run.text));
    expect(drawn.filter((text) => /\*\*|`/.test(text))).toEqual([]);
    // The paper names a package in code, so the check above has a code run to look at.
    expect(texts.flatMap((text) => inlineRuns(text)).some((run) => run.font === 'code')).toBe(true);
  });
});
