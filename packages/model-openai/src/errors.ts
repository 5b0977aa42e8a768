/**
 * What went wrong, as a stable string callers can branch on without parsing messages:
 *
 * - `invalid_options`: the constructor was given a bad option.
 * - `api_key`: the `apiKey` function threw or returned something other than a string.
 * - `http_status`: the API answered with an error status (a 4xx other than 429 at once, or a
 *   429/5xx on the last attempt).
 * - `timeout`: the last attempt got no complete answer within `timeoutMs`.
 * - `network`: the last attempt could not reach the API (refused connection, DNS failure, ...).
 * - `aborted`: the caller's `AbortSignal` fired.
 * - `invalid_response`: the API answered 2xx with a body that is not a chat completion.
 */
export type OpenAIModelProviderErrorCode =
  | 'invalid_options'
  | 'api_key'
  | 'http_status'
  | 'timeout'
  | 'network'
  | 'aborted'
  | 'invalid_response';

/** Extra facts attached to an {@link OpenAIModelProviderError}. */
export interface OpenAIModelProviderErrorDetails {
  /** HTTP status of the API's (last) answer, when there was one. */
  httpStatus?: number;
  /** How many HTTP attempts were made before giving up. */
  attempts?: number;
  /** The underlying error, such as the fetch failure or the abort reason. */
  cause?: unknown;
}

/**
 * The error every failure of {@link OpenAIModelProvider} is reported with. Its message is
 * meant for people (it names the provider id, the HTTP status and the API's own message);
 * `code`, `httpStatus` and `attempts` are meant for code.
 *
 * `httpStatus` is the status the upstream API returned, not a status to send to your own
 * clients.
 */
export class OpenAIModelProviderError extends Error {
  /** What went wrong; see {@link OpenAIModelProviderErrorCode}. */
  readonly code: OpenAIModelProviderErrorCode;
  /** HTTP status of the API's (last) answer, when there was one. */
  readonly httpStatus: number | undefined;
  /** How many HTTP attempts were made, when the error comes from a request. */
  readonly attempts: number | undefined;

  /**
   * @param code - What went wrong.
   * @param message - A complete, human-readable message.
   * @param details - Status, attempt count and cause, when known.
   */
  constructor(
    code: OpenAIModelProviderErrorCode,
    message: string,
    details: OpenAIModelProviderErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'OpenAIModelProviderError';
    this.code = code;
    this.httpStatus = details.httpStatus;
    this.attempts = details.attempts;
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
