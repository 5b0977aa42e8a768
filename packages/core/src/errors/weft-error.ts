import type { WeftErrorCode } from '../errors.js';
import { cutText } from '../util/cut-text.js';
import { errorDocsUrl } from './error-registry.js';

// A registered symbol is the same in every copy of the package (an ESM and a CJS build side by
// side, or two installed versions), where `instanceof` only knows its own copy's class.
const WEFT_ERROR = Symbol.for('weft.error');

/** Options of a {@link WeftError}. */
export interface WeftErrorOptions {
  /** The HTTP status the server answers with when this error reaches it, such as 503. */
  status?: number;
  /** The error that caused this one. */
  cause?: unknown;
  /**
   * Whether the server may send the message to a client. Defaults to `true` below status 500
   * and `false` otherwise (the http-errors convention): set it on a 5xx only when the message
   * holds nothing but fixed text and configuration, and to `false` on a 4xx whose message is not
   * for the client, which then gets the status's reason phrase and the request id while the log
   * has the message (a `request refused` line).
   * @claim tsdoc-weft-error-expose
   */
  expose?: boolean;
  /**
   * Where the code is explained. Defaults to the code's section of Weft's errors reference;
   * set it when a package outside Weft raises codes of its own, documented elsewhere.
   */
  docsUrl?: string;
}

/**
 * The error Weft throws on purpose. `code` is stable and closed, so callers branch on it rather
 * than on the message; the message says what went wrong and how to fix it, and ends its first
 * line with the code in brackets, so a search of the documentation for it finds its section.
 * First-party packages extend it with codes of their own (`Code`).
 *
 * Check for it with {@link WeftError.is}, which also recognises errors thrown by another copy of
 * the package, where `instanceof` would not.
 *
 * @typeParam Code - The union of codes the error can carry.
 *
 * @example
 * ```ts
 * import { WeftError, type ModelManager } from '@weft/core';
 * import { z } from 'zod';
 *
 * async function askForTitle(models: ModelManager): Promise<string | undefined> {
 *   try {
 *     const answer = await models.getObject({
 *       schema: z.object({ title: z.string() }),
 *       prompt: 'Suggest a title for a note about weaving.',
 *     });
 *     return answer.title;
 *   } catch (error) {
 *     if (WeftError.is(error, 'WEFT_GET_OBJECT_FAILED')) return undefined;
 *     throw error;
 *   }
 * }
 * ```
 */
export class WeftError<Code extends string = WeftErrorCode> extends Error {
  /** What went wrong, as a stable string; see {@link WeftErrorCode}. */
  readonly code: Code;
  /** The HTTP status the server answers with when the error reaches it, when it has one. */
  readonly status: number | undefined;
  /** Whether the server may send the message to a client; see {@link WeftErrorOptions.expose}. */
  readonly expose: boolean;
  /**
   * The address of the code's section in the errors reference (its cause and its fix), such as
   * `https://weft-ai.github.io/docs/reference/errors/#weft_queue_full`. Log lines of the runtime
   * carry it next to the error.
   */
  readonly docsUrl: string;
  /**
   * Creates an error with a code, a message and optionally an HTTP status and a cause.
   *
   * @param code - What went wrong.
   * @param message - What went wrong and how to fix it, starting with the owner
   * (`Runtime.dispatch: ...`). The code is appended to its first line.
   * @param options - HTTP status, cause, whether to expose the message, and the docs URL.
   */
  constructor(code: Code, message: string, options: WeftErrorOptions = {}) {
    super(
      withCode(message, code),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = 'WeftError';
    this.code = code;
    this.status = options.status;
    this.expose = options.expose ?? (options.status !== undefined && options.status < 500);
    this.docsUrl = options.docsUrl ?? errorDocsUrl(code);
    Object.defineProperty(this, WEFT_ERROR, { value: true });
  }

  /**
   * Tells whether a value is a {@link WeftError}, from this copy of the package or another one,
   * and, when `code` is given, whether it carries that code.
   *
   * @param value - Anything, typically a caught error.
   * @param code - The code to look for; any code when omitted.
   * @returns `true` when `value` is a WeftError (with that code).
   */
  static is<C extends string = WeftErrorCode>(value: unknown, code?: C): value is WeftError<C> {
    if (typeof value !== 'object' || value === null) return false;
    if ((value as Record<symbol, unknown>)[WEFT_ERROR] !== true) return false;
    return code === undefined || (value as { code?: unknown }).code === code;
  }
}

function withCode(message: string, code: string): string {
  const newline = message.indexOf('\n');
  if (newline === -1) return `${message} [${code}]`;
  return `${message.slice(0, newline)} [${code}]${message.slice(newline)}`;
}

/**
 * Renders any thrown value as a message, for logs, chains and retry prompts: one line unless the
 * error's own text has several. The text of the error's own `cause` (one level: not the cause's
 * cause) is appended when it is not already part of its message (`fetch failed (connect
 * ECONNREFUSED ...)`), so the reason is not lost. An error with an empty message is described
 * by the errors it aggregates, or else by its `code`: Node.js refuses a connection to a name
 * with several addresses (`localhost` is both `::1` and `127.0.0.1`) with such an
 * `AggregateError`, one reason per address. With neither, its cause's text stands alone, and
 * with no cause either, its name and the words `with no message` do (`TypeError with no
 * message`), so the description is never empty. A `message` whose getter throws, or that is not
 * a string, gives `Error whose message could not be read`, and a `cause` whose getter throws is
 * left out: describing an error never throws. A thrown value that is
 * not an Error is given as its text or JSON, cut to 400 characters with `...` at the end (never
 * in the middle of an emoji's surrogate pair).
 *
 * @param error - Anything that was thrown.
 * @returns A description of it.
 */
export function describeError(error: unknown): string {
  if (isError(error)) {
    const text = ownText(error);
    const cause = readField(error, 'cause');
    const causeText = isError(cause) ? ownText(cause) : '';
    if (causeText !== '' && !withoutCodeMarks(text).includes(withoutCodeMarks(causeText))) {
      return text === '' ? causeText : `${text} (${causeText})`;
    }
    return text === '' ? `${errorName(error)} with no message` : text;
  }
  return cutText(thrownText(error), THROWN_CHARS);
}

/** What {@link readField} gives for a property whose getter throws. */
const UNREADABLE: unique symbol = Symbol('unreadable');

/**
 * A property of a thrown value, or {@link UNREADABLE} when reading it throws: an error may come
 * with a `message` or `cause` getter that throws, and describing it must not throw in turn, or
 * the failure would be reported as another's (a step's as the task's planning).
 */
function readField(value: object, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return UNREADABLE;
  }
}

/** `value instanceof Error`, `false` when the check throws (a proxy whose trap throws). */
function isError(value: unknown): value is Error {
  try {
    return value instanceof Error;
  } catch {
    return false;
  }
}

/** The most characters of an error's name that {@link describeError} quotes. */
const NAME_CHARS = 100;

/**
 * An error's name for a description, `TypeError` say: its `name` when that is a text, else
 * `Error`.
 */
function errorName(error: Error): string {
  const name = readField(error, 'name');
  return typeof name === 'string' && name !== '' ? cutText(name, NAME_CHARS) : 'Error';
}

/**
 * The most characters of a thrown value that is not an Error that {@link describeError} keeps:
 * as many as the review prompt shows of a step's data. A plugin that throws a large object or
 * string would otherwise write all of it into each log line and into the task's chain.
 */
const THROWN_CHARS = 400;

/**
 * The text of a thrown value that is not an Error: a string as it is, anything else as its JSON,
 * or, when it has none (a circular object, a bigint), as `String` makes it, or as a fixed phrase
 * when even that throws (an object without a prototype, a `toString` that throws).
 */
function thrownText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    const json = JSON.stringify(value) as string | undefined;
    if (json !== undefined) return json;
  } catch {
    // No JSON form: a circular object, a bigint, a toJSON that throws.
  }
  try {
    return String(value);
  } catch {
    return 'a thrown value with no text form';
  }
}

/**
 * A message without the ` [CODE]` marks a WeftError puts at the end of its first line. A cause
 * quoted in a WeftError's message has the wrapper's mark inside it when the cause spans several
 * lines (Node.js's explanation of a native module built for another version, say), so the
 * quote is recognised without them, and the cause is not appended a second time.
 */
function withoutCodeMarks(text: string): string {
  return text.replace(/(?: \[[A-Z][A-Z0-9_]*\])+(?=\n|$)/g, '');
}

/**
 * The messages of the errors an `AggregateError` holds, those that have one; none when `errors`
 * is not a list, or reading it throws.
 */
function aggregatedTexts(inner: unknown): string[] {
  try {
    if (!Array.isArray(inner)) return [];
    return inner
      .map((item: unknown) => (isError(item) ? readField(item, 'message') : ''))
      .filter((text): text is string => typeof text === 'string' && text !== '');
  } catch {
    return [];
  }
}

/**
 * What an error says of itself: its message or, when that is empty, the distinct messages of the
 * errors it aggregates (an `AggregateError`), or its `code`. A `message` that cannot be read (its
 * getter throws) or is not a string is said to be so, with the error's name.
 *
 * @param error - An error.
 * @returns Its text; empty when it has none of them.
 */
function ownText(error: Error): string {
  const message = readField(error, 'message');
  if (typeof message !== 'string') return `${errorName(error)} whose message could not be read`;
  if (message !== '') return message;
  const texts = aggregatedTexts(readField(error, 'errors'));
  if (texts.length > 0) return [...new Set(texts)].join('; ');
  const code = readField(error, 'code');
  return typeof code === 'string' ? code : '';
}
