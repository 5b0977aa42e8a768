import { describeError, WeftError } from '../errors/weft-error.js';

// The default logger is the platform's: see createDefaultLogger in platform/node.ts and browser.ts.

/** The fields a log line about a failure carries; see {@link errorLogFields}. */
export interface ErrorLogFields {
  /** The error's message, with its cause's when that adds to it. */
  error: string;
  /** The code of the Weft error, when the error is one or wraps one. */
  code?: string;
  /** Where that code's cause and fix are explained. */
  docsUrl?: string;
}

/**
 * What a log line says about a failure: its description and, for a Weft error (or an error
 * wrapping one), its code and the address of the code's section on the errors page, so a
 * reader of the log goes from the line to the fix.
 *
 * @param error - Anything that was thrown.
 * @returns The fields to spread into the log line's object.
 */
export function errorLogFields(error: unknown): ErrorLogFields {
  const fields: ErrorLogFields = { error: describeError(error) };
  let current: unknown = error;
  // A few levels are enough: Weft wraps at most twice (a start failure around a provider's).
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    if (WeftError.is(current)) {
      fields.code = current.code;
      fields.docsUrl = current.docsUrl;
      break;
    }
    current = current.cause;
  }
  return fields;
}
