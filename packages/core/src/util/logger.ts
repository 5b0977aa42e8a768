import { describeError, WeftError } from '../errors/weft-error.js';
import { cutText } from './cut-text.js';

// The default logger is the platform's: see createDefaultLogger in platform/node.ts and browser.ts.

/** The fields a log line about a failure carries; see {@link errorLogFields}. */
export interface ErrorLogFields {
  /**
   * The error's message, with its cause's when that adds to it, cut to
   * {@link MAX_LOGGED_ERROR_CHARS} characters.
   */
  error: string;
  /** The code of the Weft error, when the error is one or wraps one. */
  code?: string;
  /** Where that code's cause and fix are explained. */
  docsUrl?: string;
}

/**
 * The most characters of an error's description a log line keeps (the `error` field, and the
 * message at the head of the `stack` field): an error thrown with a message of megabytes would
 * otherwise write all of it into each line that reports it.
 */
export const MAX_LOGGED_ERROR_CHARS = 2_000;

/**
 * The most characters of the `stack` field of a log line: the error's name and message, cut to
 * {@link MAX_LOGGED_ERROR_CHARS}, then its frames (Node.js keeps 10 by default, about 1,000
 * characters).
 */
export const MAX_LOGGED_STACK_CHARS = 8_000;

/**
 * What a log line says about a failure: its description and, for a Weft error (or an error
 * wrapping one), its code and the address of the code's section on the errors page, so a
 * reader of the log goes from the line to the fix.
 *
 * @param error - Anything that was thrown.
 * @returns The fields to spread into the log line's object.
 */
export function errorLogFields(error: unknown): ErrorLogFields {
  const fields: ErrorLogFields = { error: cutText(describeError(error), MAX_LOGGED_ERROR_CHARS) };
  // An error's getters may throw (a `cause` getter that does): the line then goes without a code.
  try {
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
  } catch {
    // Described already; the code is all that is lost.
  }
  return fields;
}

/**
 * An error's stack for a log line, with its message cut as {@link errorLogFields} cuts it and
 * the whole cut to {@link MAX_LOGGED_STACK_CHARS} characters: the stack starts with the message,
 * so a message of megabytes would otherwise fill the line all the same.
 *
 * @param error - Anything that was thrown.
 * @returns The stack, or `undefined` when the value has none.
 */
export function stackLogField(error: unknown): string | undefined {
  let stack: unknown;
  let read: unknown = '';
  try {
    stack = (error as { stack?: unknown } | null | undefined)?.stack;
    if (error instanceof Error) read = error.message;
  } catch {
    // A getter that throws: the line goes without the stack, or without the message's cut.
  }
  if (typeof stack !== 'string') return undefined;
  const message = typeof read === 'string' ? read : '';
  const at = message === '' ? -1 : stack.indexOf(message);
  const shortened =
    at === -1 || message.length <= MAX_LOGGED_ERROR_CHARS
      ? stack
      : `${stack.slice(0, at)}${cutText(message, MAX_LOGGED_ERROR_CHARS)}${stack.slice(at + message.length)}`;
  return cutText(shortened, MAX_LOGGED_STACK_CHARS);
}
