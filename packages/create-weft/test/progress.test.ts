/**
 * Guards createProgress (src/progress.ts): a spinner only on a terminal, one plain line per step
 * anywhere else, so CI logs and piped output keep no animation frames.
 */
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createProgress } from '../src/progress.js';

/** Cursor moves and line erasures: what a spinner writes to redraw its line. */
const ESC = String.fromCharCode(27);
const REDRAW = new RegExp(`${ESC}\\[(?:\\d*[ABGJK]|\\?25[hl])`);
const FRAMES = /[◒◐◓◑]/;

function capture(isTTY: boolean): { output: Writable & { isTTY: boolean }; text: () => string } {
  let text = '';
  const output = Object.assign(
    new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        text += String(chunk);
        done();
      },
    }),
    { isTTY, columns: 80 },
  );
  return { output, text: () => text };
}

describe('createProgress', () => {
  it('writes one line per step and no spinner frames when the output is not a terminal', async () => {
    const { output, text } = capture(false);
    const progress = createProgress(output);
    progress.step('Packing @weft/core from this clone');
    // Long enough for a spinner to draw several frames, had one started.
    await sleep(400);
    progress.step('Writing the project');
    progress.done();
    expect(text()).not.toMatch(REDRAW);
    expect(text()).not.toMatch(FRAMES);
    const lines = stripVTControlCharacters(text())
      .split('\n')
      .filter((line) => /Packing|Writing|Done/.test(line));
    expect(lines).toHaveLength(3);
    expect(lines.map((line) => line.match(/Packing|Writing|Done/)?.[0])).toEqual([
      'Packing',
      'Writing',
      'Done',
    ]);
  });

  it('says Failed after a step when the work fails, and nothing when no step began', () => {
    const failed = capture(false);
    const progress = createProgress(failed.output);
    progress.step('Writing the project');
    progress.failed();
    expect(stripVTControlCharacters(failed.text())).toMatch(/Writing the project[\s\S]*Failed/);

    const idle = capture(false);
    createProgress(idle.output).done();
    expect(idle.text()).toBe('');
  });

  it('animates a spinner on a terminal, redrawing its line', async () => {
    const { output, text } = capture(true);
    const progress = createProgress(output);
    progress.step('Packing @weft/core from this clone');
    await sleep(400);
    progress.done();
    expect(text()).toMatch(REDRAW);
    expect(stripVTControlCharacters(text())).toContain('Done');
  });

  it('on a terminal keeps each frame within its width and shows the cursor again when it fails', async () => {
    const { output, text } = capture(true);
    const progress = createProgress(output);
    progress.step(`Packing ${'@weft/memory-sqlite, '.repeat(8)}from this clone`);
    await sleep(200);
    progress.failed();
    const frames = text()
      .split('\r')
      .map((part) => stripVTControlCharacters(part))
      .filter((part) => FRAMES.test(part));
    expect(frames.length).toBeGreaterThan(1);
    for (const frame of frames) expect(frame.length).toBeLessThan(80);
    expect(text()).toContain(`${ESC}[?25h`);
    expect(text().lastIndexOf(`${ESC}[?25h`)).toBeGreaterThan(text().lastIndexOf(`${ESC}[?25l`));
    expect(stripVTControlCharacters(text())).toMatch(/Failed/);
  });
});
