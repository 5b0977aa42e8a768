import { WeftError } from '@weft/core';

/**
 * What went wrong, as a stable string callers can branch on without parsing messages:
 *
 * - `WEFT_OPENAI_INVALID_OPTIONS`: the constructor was given a bad option.
 * - `WEFT_OPENAI_API_KEY`: the `apiKey` function threw or returned something other than a string.
 * - `WEFT_OPENAI_HTTP_STATUS`: the API answered with an error status (a 4xx other than 429 at
 *   once, or a 429/5xx on the last attempt).
 * - `WEFT_OPENAI_TIMEOUT`: the last attempt got no complete answer within `timeoutMs`, or the
 *   attempts together ran past `totalTimeoutMs`.
 * - `WEFT_OPENAI_NETWORK`: the last attempt could not reach the API (refused connection, DNS
 *   failure, ...).
 * - `WEFT_OPENAI_ABORTED`: the caller's `AbortSignal` fired.
 * - `WEFT_OPENAI_INVALID_RESPONSE`: the API answered 2xx with a body that is not a chat
 *   completion.
 * - `WEFT_OPENAI_RESPONSE_TOO_LARGE`: the API's answer was larger than `maxResponseBytes`.
 */
export type OpenAIModelProviderErrorCode =
  | 'WEFT_OPENAI_INVALID_OPTIONS'
  | 'WEFT_OPENAI_API_KEY'
  | 'WEFT_OPENAI_HTTP_STATUS'
  | 'WEFT_OPENAI_TIMEOUT'
  | 'WEFT_OPENAI_NETWORK'
  | 'WEFT_OPENAI_ABORTED'
  | 'WEFT_OPENAI_INVALID_RESPONSE'
  | 'WEFT_OPENAI_RESPONSE_TOO_LARGE';

/**
 * Every {@link OpenAIModelProviderErrorCode}, for tests and tools that list them.
 *
 * @internal
 */
export const OPENAI_ERROR_CODES = Object.keys({
  WEFT_OPENAI_INVALID_OPTIONS: true,
  WEFT_OPENAI_API_KEY: true,
  WEFT_OPENAI_HTTP_STATUS: true,
  WEFT_OPENAI_TIMEOUT: true,
  WEFT_OPENAI_NETWORK: true,
  WEFT_OPENAI_ABORTED: true,
  WEFT_OPENAI_INVALID_RESPONSE: true,
  WEFT_OPENAI_RESPONSE_TOO_LARGE: true,
} satisfies Record<OpenAIModelProviderErrorCode, true>) as readonly OpenAIModelProviderErrorCode[];

/** Extra facts attached to an {@link OpenAIModelProviderError}. */
export interface OpenAIModelProviderErrorDetails {
  /** HTTP status of the API's (last) answer, when there was one. */
  httpStatus?: number;
  /** How many HTTP attempts were made before giving up. */
  attempts?: number;
  /** The underlying error, such as the fetch failure or the abort reason. */
  cause?: unknown;
}

// Registered, so that the check works across two copies of this package (see `is`).
const OPENAI_ERROR = Symbol.for('weft.openai.error');

/**
 * The error every failure of {@link OpenAIModelProvider} is reported with: a `WeftError` from
 * `@weft/core` with an {@link OpenAIModelProviderErrorCode}. Its message is meant for people
 * (it names the provider id, the HTTP status and the API's own message, and ends its first
 * line with the code); `code`, `httpStatus` and `attempts` are meant for code. The runtime's
 * `ModelManager` passes it to the caller of `models.call` as it is, so an executor can catch
 * it and read `httpStatus`.
 *
 * `httpStatus` is the status the upstream API returned, not a status to send to your own
 * clients. Recognise the error with {@link OpenAIModelProviderError.is}, which also works when
 * two copies of this package are installed, where `instanceof` would not.
 */
export class OpenAIModelProviderError extends WeftError<OpenAIModelProviderErrorCode> {
  /** HTTP status of the API's (last) answer, when there was one. */
  readonly httpStatus: number | undefined;
  /** How many HTTP attempts were made, when the error comes from a request. */
  readonly attempts: number | undefined;

  /**
   * @param code - What went wrong.
   * @param message - A complete, human-readable message; the code is appended to its first line.
   * @param details - Status, attempt count and cause, when known.
   */
  constructor(
    code: OpenAIModelProviderErrorCode,
    message: string,
    details: OpenAIModelProviderErrorDetails = {},
  ) {
    super(code, message, { cause: details.cause });
    this.name = 'OpenAIModelProviderError';
    this.httpStatus = details.httpStatus;
    this.attempts = details.attempts;
    Object.defineProperty(this, OPENAI_ERROR, { value: true });
  }

  /**
   * Tells whether a value is an {@link OpenAIModelProviderError}, from this copy of the package
   * or another one, and, when `code` is given, whether it carries that code.
   *
   * @param value - Anything, typically a caught error.
   * @param code - The code to look for; any code when omitted.
   * @returns `true` when `value` is such an error (with that code).
   */
  static override is<C extends string = OpenAIModelProviderErrorCode>(
    value: unknown,
    code?: C,
  ): value is OpenAIModelProviderError & WeftError<C> {
    if (!WeftError.is(value, code)) return false;
    return (value as unknown as Record<symbol, unknown>)[OPENAI_ERROR] === true;
  }
}

const MAX_SNIPPET_LENGTH = 200;

/**
 * Shortens a response body for an error message: one line, at most 200 characters.
 *
 * @param text - Any text, typically a response body.
 * @returns The text on one line, truncated with an ellipsis when long.
 */
export function snippet(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_SNIPPET_LENGTH ? `${oneLine.slice(0, MAX_SNIPPET_LENGTH)}…` : oneLine;
}

/**
 * Finds the API's own explanation in an error response body. OpenAI and most compatible
 * servers send `{ "error": { "message": "..." } }`; some send `{ "error": "..." }`,
 * `{ "message": "..." }` or `{ "detail": "..." }`. A body that is not JSON is used as is.
 *
 * @param body - The raw response body.
 * @returns The message, or `undefined` when the body says nothing useful.
 */
export function extractApiErrorMessage(body: string): string | undefined {
  if (body.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return snippet(body);
  }
  if (typeof parsed !== 'object' || parsed === null) return snippet(body);
  const record = parsed as Record<string, unknown>;
  const error = record.error;
  if (typeof error === 'object' && error !== null) {
    const message = (error as Record<string, unknown>).message;
    if (typeof message === 'string' && message.trim() !== '') return snippet(message);
  }
  for (const candidate of [error, record.message, record.detail]) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return snippet(candidate);
  }
  return snippet(body);
}

/**
 * Renders an HTTP answer for an error message, such as `401 Unauthorized: Incorrect API key`.
 *
 * @param status - The HTTP status code.
 * @param statusText - The reason phrase; may be empty (HTTP/2 has none).
 * @param body - The response body, searched for the API's error message.
 * @returns The status, reason phrase and API message, as far as they are known.
 */
export function describeHttpFailure(status: number, statusText: string, body: string): string {
  const reason = statusText.trim() === '' ? '' : ` ${statusText.trim()}`;
  const apiMessage = extractApiErrorMessage(body);
  return `${status}${reason}${apiMessage === undefined ? '' : `: ${apiMessage}`}`;
}

/**
 * Renders a thrown value for an error message, including the cause `fetch` hides its reason
 * in (`fetch failed` → `fetch failed (connect ECONNREFUSED 127.0.0.1:80)`).
 *
 * @param error - Anything that was thrown.
 * @returns A one-line description.
 */
export function describeThrown(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause;
    if (cause instanceof Error && cause.message !== '' && cause.message !== error.message) {
      return `${error.message} (${cause.message})`;
    }
    return error.message;
  }
  return String(error);
}
