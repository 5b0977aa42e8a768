import { STATUS_CODES } from 'node:http';
import { errorDocsUrl } from '../errors/error-registry.js';
import { WeftError } from '../errors/weft-error.js';

/** The JSON body of every error answer of the server. */
export interface ErrorAnswer {
  /** The HTTP status, also sent as the status line. */
  status: number;
  /** What went wrong: the cause for a 4xx, a generic phrase for a 5xx. */
  message: string;
  /** A stable code, such as `WEFT_BAD_REQUEST` or `WEFT_INTERNAL`. */
  code: string;
  /**
   * The code's section of the errors reference (its cause and its fix), the `docsUrl` of the
   * WeftError that was thrown. Absent when the code is not Weft's and nothing says where it is
   * explained: a handler's own non-Weft error with a 4xx code of its own, or a route's own
   * `invalidBodyCode` or another WeftError made without a `docsUrl`.
   */
  docsUrl?: string;
  /** The id of the request, also sent as `X-Request-Id` and logged with a 5xx's full error. */
  requestId: string;
}

interface ErrorDetails {
  type?: unknown;
  status?: unknown;
  statusCode?: unknown;
  message?: unknown;
  code?: unknown;
  limit?: unknown;
  body?: unknown;
  expose?: unknown;
}

/**
 * The HTTP status an error carries: its `status`, or else its `statusCode`, whichever is first an
 * integer from 400 to 599, as express reads them. A status written as a string is none, and a
 * `status` that is a word (`'NOT_FOUND'`) does not hide a numeric `statusCode`.
 *
 * @param details - The thrown value's fields.
 * @returns The status, or `undefined` when it has none.
 */
function errorStatusOf(details: ErrorDetails): number | undefined {
  for (const value of [details.status, details.statusCode]) {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 400 && value < 600) {
      return value;
    }
  }
  return undefined;
}

/**
 * Turns anything a route or middleware threw into the answer a client receives, following the
 * http-errors convention: the message of a 4xx made for the client (`expose: true`) is exposed
 * (it tells the client what to fix); the message of a 5xx, or of a 4xx that does not say so, is
 * not (it may hold hosts, credentials or stack details) and is replaced by the status's reason
 * phrase; the caller logs the full error next to `requestId`.
 *
 * @param error - The thrown value.
 * @param requestId - The request's correlation id.
 * @returns The status and the JSON error body.
 */
export function errorAnswer(error: unknown, requestId: string): ErrorAnswer {
  const details = (typeof error === 'object' && error !== null ? error : {}) as ErrorDetails;
  const message = typeof details.message === 'string' ? details.message : undefined;
  if (details.type === 'entity.parse.failed') {
    return answer(
      400,
      'WEFT_BAD_REQUEST',
      `Malformed JSON body: ${isBareJson(error) ? BARE_JSON : (message ?? 'could not parse')}`,
    );
  }
  if (details.type === 'entity.too.large') {
    const limit = typeof details.limit === 'number' ? details.limit : '?';
    return answer(
      413,
      'WEFT_BAD_REQUEST',
      `Request body is larger than the limit of ${limit} bytes`,
    );
  }
  const weft = WeftError.is(error);
  const status = errorStatusOf(details);
  if (status !== undefined && status < 500) {
    const code = codeOf(details, weft, 'WEFT_BAD_REQUEST');
    if (hidesClientErrorMessage(error)) return answer(status, code, genericMessage(status));
    return answer(status, code, message ?? 'Bad request');
  }
  const serverStatus = status ?? 500;
  const code = codeOf(details, weft, 'WEFT_INTERNAL');
  // Only a WeftError made with `expose` (the queue-full and shutting-down 503s) shows a 5xx message.
  const exposed = weft && details.expose === true && message !== undefined;
  return answer(serverStatus, code, exposed ? message : genericMessage(serverStatus));

  function answer(status: number, code: string, text: string): ErrorAnswer {
    const docsUrl = weftDocsUrl(error, code);
    return {
      status,
      message: text,
      code,
      ...(docsUrl === undefined ? {} : { docsUrl }),
      requestId,
    };
  }
}

/**
 * How many seconds the `Retry-After` of a `503` or `429` answer to a WeftError asks a client to
 * wait: a full queue, a stopping runtime, a space coordinator that cannot take work now, or a
 * plugin's own limit, such as `@weft/plugin-chat`'s messages waiting per user. A place in the
 * queue or under a limit frees only when a running task ends, and a task spends seconds on its
 * model calls; a runtime or a database that restarts takes seconds too. A client that came back
 * after the connection cap's 1 second would mostly be refused again and add to the load.
 */
export const RETRY_AFTER_SECONDS = 5;

/**
 * The `Retry-After` header an error's answer carries, in seconds: a WeftError answered `503`
 * (Service Unavailable) or `429` (Too Many Requests), whichever package raised it, has
 * {@link RETRY_AFTER_SECONDS}; other errors none, since the server cannot tell when a handler's
 * own error, which may carry the status of its own upstream call, passes.
 *
 * @param error - The thrown value.
 * @param answer - The answer {@link errorAnswer} made of it.
 * @returns The header's value, or `undefined` for none.
 */
export function retryAfterOf(error: unknown, answer: ErrorAnswer): string | undefined {
  return WeftError.is(error) ? weftRetryAfter(answer.status) : undefined;
}

/**
 * The `Retry-After` header of an answer with a Weft code and this status: {@link RETRY_AFTER_SECONDS}
 * for `503` and `429`, none for any other status. The one rule behind {@link retryAfterOf}, shared
 * with the packages that write such answers themselves, such as `@weft/plugin-websocket`'s refused
 * upgrades.
 *
 * @param status - The answer's HTTP status.
 * @returns The header's value, or `undefined` for none.
 */
export function weftRetryAfter(status: number): string | undefined {
  return status === 503 || status === 429 ? String(RETRY_AFTER_SECONDS) : undefined;
}

/**
 * Whether the answer to a 4xx error hides its message. It is shown only when the error says it
 * was written for the client: `expose: true`, which a WeftError made with a 4xx status has unless
 * made with `expose: false`, and http-errors and the body parser set on their 4xx errors; and
 * Express's own 400 for a path segment that is not valid percent-encoding, which quotes only what
 * the client sent. Any other error with a 4xx status, such as an API client's error carrying the
 * status of its own upstream call, may name hosts or keys: its message is hidden, and the server
 * logs it under the request id, as it logs every 5xx.
 *
 * @param error - The thrown value, with a 4xx status.
 * @returns Whether its message is left out of the answer.
 */
export function hidesClientErrorMessage(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return true;
  const { expose, message } = error as ErrorDetails;
  if (expose === true) return false;
  return !(
    expose === undefined &&
    error instanceof URIError &&
    typeof message === 'string' &&
    message.startsWith(EXPRESS_DECODE_FAILURE)
  );
}

/** How Express's router starts the message of a path segment it cannot percent-decode. */
const EXPRESS_DECODE_FAILURE = "Failed to decode param '";

/**
 * The generic message of an answer that hides the error's own: the reason phrase and a pointer
 * to the request id.
 *
 * @param status - An HTTP error status.
 * @returns Such as `Internal Server Error; the server log has the details under this requestId`.
 */
function genericMessage(status: number): string {
  const phrase = STATUS_CODES[status] ?? (status >= 500 ? 'Server error' : 'Client error');
  return `${phrase}; the server log has the details under this requestId`;
}

/**
 * Where the answer's code is explained: the thrown WeftError's own `docsUrl`, or the errors
 * reference's section of a Weft code (`WEFT_...`) otherwise, whether the server chose it (a
 * `WEFT_BAD_REQUEST` or `WEFT_INTERNAL` fallback) or an error that is no WeftError carries it
 * (a handler's `{ status: 404, code: 'WEFT_NOT_FOUND' }`), as a WeftError of that code would get.
 * A code that is not Weft's (a route's own `invalidBodyCode`, a plugin's code) gets none unless
 * its WeftError was made with a `docsUrl` of its own: its default address names a section the
 * reference lacks.
 */
function weftDocsUrl(error: unknown, code: string): string | undefined {
  if (WeftError.is<string>(error) && error.code === code) {
    return code.startsWith('WEFT_') || error.docsUrl !== errorDocsUrl(code)
      ? error.docsUrl
      : undefined;
  }
  return code.startsWith('WEFT_') ? errorDocsUrl(code) : undefined;
}

function codeOf(details: ErrorDetails, weft: boolean, fallback: string): string {
  // A WeftError's code is public by design; another error's own string code (such as an
  // HttpError's) is kept below 500 only, where its message is exposed anyway.
  return (weft || fallback === 'WEFT_BAD_REQUEST') && typeof details.code === 'string'
    ? details.code
    : fallback;
}

/** Why a body that is JSON but not of an object or array is refused. */
export const BARE_JSON =
  'it must be an object or array, not a bare string, number, boolean or null';

/**
 * Whether the JSON parser refused a body that is valid JSON but not of an object or array (a bare
 * `42`, `"text"` or `null`). The parser reports it with `JSON.parse`'s message for a mangled copy
 * of the body, which calls valid JSON invalid, so the answer names the rule instead.
 *
 * @param error - What the JSON parser passed on.
 * @returns `true` for such a refusal.
 */
export function isBareJson(error: unknown): boolean {
  const { type, body } = (typeof error === 'object' && error !== null ? error : {}) as ErrorDetails;
  if (type !== 'entity.parse.failed' || typeof body !== 'string' || /^\s*[{[]/.test(body)) {
    return false;
  }
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}
