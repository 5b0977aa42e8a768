import type { Writable } from 'node:stream';
import * as prompts from '@clack/prompts';

/** Shows the slow steps of creating a project. */
export interface Progress {
  /** A step begins; the previous one, if any, is over. */
  step(message: string): void;
  /** Every step succeeded. */
  done(): void;
  /** A step failed; the error is reported by whoever caught it. */
  failed(): void;
}

/** What a spinner's line shows in turn. */
const FRAMES = ['◒', '◐', '◓', '◑'];
const ESC = String.fromCharCode(27);

/**
 * A spinner on a terminal. Anywhere else (a CI log, a pipe, a file) one line per step: a spinner
 * redraws its line many times a second, and a log that is not a terminal keeps every frame.
 *
 * The spinner is drawn here rather than by `@clack/prompts`, whose spinner reads the keyboard
 * while it turns and ends the process with code 0 on Ctrl+C, before the work can be stopped
 * and what it wrote removed. This one leaves the keyboard alone: Ctrl+C stays a `SIGINT`.
 *
 * @param output - Where progress goes; standard output by default.
 * @returns The reporter for that output.
 */
export function createProgress(output: Writable & { isTTY?: boolean } = process.stdout): Progress {
  let started = false;
  if (output.isTTY !== true) {
    return {
      step(message) {
        started = true;
        prompts.log.step(message, { output });
      },
      done() {
        if (started) prompts.log.success('Done', { output });
      },
      failed() {
        if (started) prompts.log.error('Failed', { output });
      },
    };
  }
  let timer: NodeJS.Timeout | undefined;
  let message = '';
  let frame = 0;
  // Back to the start of the line, erase it, draw the next frame; the cursor stays hidden. A
  // line wider than the terminal would wrap, and the next frame erase only its last row.
  const draw = (): void => {
    const width = (output as { columns?: number }).columns ?? 80;
    output.write(`\r${ESC}[2K${`${FRAMES[frame]}  ${message}`.slice(0, Math.max(width - 1, 1))}`);
    frame = (frame + 1) % FRAMES.length;
  };
  const stop = (): boolean => {
    if (timer === undefined) return false;
    clearInterval(timer);
    timer = undefined;
    output.write(`\r${ESC}[2K${ESC}[?25h`);
    return true;
  };
  return {
    step(next) {
      if (timer !== undefined) {
        // The finished step stays above as a line of its own; the spinner moves on below it.
        output.write(`\r${ESC}[2K`);
        prompts.log.step(message, { output });
      }
      message = next;
      if (timer === undefined) {
        output.write(`${ESC}[?25l`);
        timer = setInterval(draw, 80);
        timer.unref();
      }
      draw();
    },
    done() {
      const last = message;
      if (stop()) {
        prompts.log.step(last, { output });
        prompts.log.success('Done', { output });
      }
    },
    failed() {
      const last = message;
      if (stop()) {
        prompts.log.step(last, { output });
        prompts.log.error('Failed', { output });
      }
    },
  };
}
