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

/**
 * A spinner on a terminal. Anywhere else (a CI log, a pipe, a file) one line per step: a spinner
 * redraws its line many times a second, and a log that is not a terminal keeps every frame.
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
  const spinner = prompts.spinner({ output });
  return {
    step(message) {
      if (started) spinner.message(message);
      else spinner.start(message);
      started = true;
    },
    done() {
      if (started) spinner.stop('Done');
    },
    failed() {
      if (started) spinner.error('Failed');
    },
  };
}
