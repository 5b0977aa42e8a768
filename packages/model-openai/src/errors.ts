import { WeftError } from '@weft/core';
import type { ErrorRegistry } from '@weft/core/internal';

// <error-codes> generated from the registry by: npm run generate:references
/**
 * The code of an error raised by `@weft/model-openai`. The list is closed (a new code is
 * a change to the public API) and stable across versions, so callers branch on the code rather
 * than on messages. Each code has a section of the same name in the errors reference of
 * the documentation, with what raises it, its cause and its fix; the error’s `docsUrl` links it.
 *
 * - `WEFT_OPENAI_INVALID_OPTIONS`: The constructor was given a bad option.
 * - `WEFT_OPENAI_API_KEY`: The `apiKey` function threw, or gave something other than a string or a
 *   key no header can carry.
 * - `WEFT_OPENAI_HTTP_STATUS`: The API answered with an error status or a redirect (a 4xx other
 *   than 429, a 3xx or a status from 600 to 999 at once, or a 429/5xx on the last attempt).
 * - `WEFT_OPENAI_TIMEOUT`: The last attempt got no complete answer within `timeoutMs`, or the call
 *   ran past `totalTimeoutMs`.
 * - `WEFT_OPENAI_NETWORK`: The last attempt could not reach the API (refused connection, DNS
 *   failure, ...), was answered with something other than HTTP, or its answer broke off.
 * - `WEFT_OPENAI_ABORTED`: The caller’s `AbortSignal` fired.
 * - `WEFT_OPENAI_INVALID_RESPONSE`: The API answered 2xx with a body that is not a chat completion.
 * - `WEFT_OPENAI_RESPONSE_TOO_LARGE`: The API’s answer was larger than `maxResponseBytes`.
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
// </error-codes>

/**
 * What the errors reference says about each code of `@weft/model-openai`; the code union above
 * and the page are generated from it.
 *
 * @internal
 */
export const OPENAI_ERRORS = {
  packageName: '@weft/model-openai',
  intro:
    "Errors of `OpenAIModelProvider` are `OpenAIModelProviderError`s, Weft errors that also carry the upstream API’s `httpStatus` (when it answered) and the number of `attempts`. They reach an executor unwrapped, so `WeftError.is(error, 'WEFT_OPENAI_HTTP_STATUS')` works on what `generateText` throws.",
  codes: {
    /** @claim errors-openai-invalid-options */
    WEFT_OPENAI_INVALID_OPTIONS: {
      summary: 'The constructor was given a bad option.',
      raisedBy: '`new OpenAIModelProvider`',
      raisers: ['model-openai/src/options.ts#invalid'],
      cause:
        'the constructor was given a bad option, such as a `baseUrl` that is not an absolute http(s) URL or holds a user name, a password, a control character, a query or a fragment, an `id` that is empty or holds a control character, an empty `model`, a timeout that is not a positive whole number of milliseconds (`0` included), a `timeoutMs` or `totalTimeoutMs` over 2147483647 ms (the longest delay a Node.js timer keeps), a negative `maxRetries`, a `jsonMode` other than `true` or `false`, an `apiKey` string that is empty, white space alone, or holds a control character other than a tab (a line break, a NUL; white space around the key, a line break included, is trimmed) or a character beyond Latin-1 such as €, a `headers` value holding such a character, or an unknown option name.',
      fix: 'the message names the first bad option and what it must be.',
    },
    /** @claim errors-openai-api-key-unsendable */
    WEFT_OPENAI_API_KEY: {
      summary:
        'The `apiKey` function threw, or gave something other than a string or a key no header can carry.',
      raisedBy: 'every call of `OpenAIModelProvider`',
      raisers: ['model-openai/src/openai-model-provider.ts#OpenAIModelProvider.#resolveApiKey'],
      cause:
        'the `apiKey` function threw, or returned something other than a string, or a key with a control character other than a tab (a line break, a NUL, an escape) or a character beyond Latin-1 such as € inside it, which no HTTP header can carry (the message does not show the key).',
      fix: 'make the function return the key as a string, without line breaks inside it (white space around it, such as the line break at the end of a file, is trimmed). An empty string, or one of white space alone (an empty key file), is allowed and sends no `Authorization` header; see [A missing API key](../guides/troubleshooting.md#a-missing-api-key).',
    },
    /**
     * @claim errors-openai-http-status-3xx
     * @claim errors-openai-http-status-redirect
     */
    WEFT_OPENAI_HTTP_STATUS: {
      summary:
        'The API answered with an error status or a redirect (a 4xx other than 429, a 3xx or a status from 600 to 999 at once, or a 429/5xx on the last attempt).',
      raisedBy: 'every call of `OpenAIModelProvider`',
      raisers: [
        'model-openai/src/http.ts#exhaustedError',
        'model-openai/src/http.ts#sendWithRetry',
      ],
      cause:
        'the API answered with an error status: a `4xx` other than `429` at once (a wrong key gives `401`, an unknown model `404`), or a `429` or `5xx` that lasted through every retry; a status from `600` to `999`, which HTTP does not define, fails at once too, and so does a `3xx`, since the provider follows no redirect (fetch would carry the keys in `headers` and, on a `307` or `308`, the prompt to wherever it points): the message names the status and the address its `Location` points to. A `fetch` option that follows a redirect anyway, although the provider asks it not to, fails the call here as well once its answer arrives, its message naming that option and `httpStatus` holding that answer’s status. Such a status fails the call at once even when the answer’s body broke off, was still arriving at `timeoutMs` or was larger than `maxResponseBytes`, and the message then says so. `httpStatus` holds the status, and the message includes the API’s own explanation, when its body gave one whole.',
      fix: "for `401` and `403`, check the key; for `404`, the model name and the base URL; for `429` and `5xx`, the provider’s limits and status, or raise `maxRetries`; for a `3xx`, set `baseUrl` to the address the message names if the API has moved there, and make a `fetch` of your own honour `redirect: 'manual'`.",
    },
    /** @claim errors-openai-timeout-last-status */
    WEFT_OPENAI_TIMEOUT: {
      summary:
        'The last attempt got no complete answer within `timeoutMs`, or the call ran past `totalTimeoutMs`.',
      raisedBy: 'every call of `OpenAIModelProvider`',
      raisers: [
        'model-openai/src/http.ts#exhaustedError',
        'model-openai/src/openai-model-provider.ts#OpenAIModelProvider.#resolveApiKey',
      ],
      cause:
        'the last attempt got no complete answer within `timeoutMs`, or the call ran past `totalTimeoutMs`, which counts from its start: the reading of a function `apiKey`, the attempts and the waits between them. A key function that has given no key by then ends the call here before any request, with a message that names `apiKey` and `attempts` 0. Any attempt that would be retried (a `429`, a `5xx`, a timeout, a network failure) ends here too, not as `WEFT_OPENAI_HTTP_STATUS` or `WEFT_OPENAI_NETWORK`, when the wait before the next attempt would end past `totalTimeoutMs`, or the deadline cut the last attempt short: the message says `leaves no time for another` and names how the last attempt ended, and `httpStatus` holds the status of that attempt’s answer, when it had one. An attempt that timed out while its answer (a `2xx`, `429` or `5xx`) was still arriving gives that answer’s status too, and its message says so; any other error status fails as `WEFT_OPENAI_HTTP_STATUS` instead.',
      fix: 'when the message names `apiKey`, make the key function answer sooner (cache the key it reads). A local model may need longer while it loads: raise both `timeoutMs` and `totalTimeoutMs` (the second caps every attempt, so raising the first alone changes nothing past 60 s), keeping them below the runtime’s `taskTimeoutMs`. When `httpStatus` is a 429 or a 5xx, the API kept refusing: see [WEFT_OPENAI_HTTP_STATUS](#weft_openai_http_status).',
    },
    /**
     * @claim errors-openai-network-no-time
     * @claim errors-openai-not-http
     */
    WEFT_OPENAI_NETWORK: {
      summary:
        'The last attempt could not reach the API (refused connection, DNS failure, ...), was answered with something other than HTTP, or its answer broke off.',
      raisedBy: 'every call of `OpenAIModelProvider`',
      raisers: ['model-openai/src/http.ts#exhaustedError'],
      cause:
        'the last attempt could not reach the API: connection refused, a DNS failure, a reset connection. The message includes the system’s reason, such as `ECONNREFUSED`. A server that answers with something other than HTTP (an SSH greeting, any bytes that do not start an HTTP answer, whether it then closes the connection or keeps it open) ends here too, at once, retried the same way: the message says `answered, but not with HTTP` instead of `could not reach`, which usually means `baseUrl` names the port of another service. An HTTP answer whose headers are larger than fetch reads (16 KiB) ends here the same way, and its message says `answered with headers larger than fetch reads`. A server that wants `https` sends nothing before the client’s TLS greeting, and one of Node.js closes the connection on a plain request without a byte, so `http` where it wants `https` gives `could not reach` with `other side closed`. An answer (a `2xx`, `429` or `5xx`) whose body broke off before its end (the server closed the connection half-way) ends here too, retried like a refused connection, while any other error status fails at once as `WEFT_OPENAI_HTTP_STATUS`: the message says `broke off` instead of `could not reach`, and `httpStatus` holds the status the answer began with. When `totalTimeoutMs` leaves no time for another attempt, the same failure ends as [WEFT_OPENAI_TIMEOUT](#weft_openai_timeout), whose message then gives that reason.',
      fix: 'check that the server runs and that `baseUrl` points at it, including the scheme (`https` for a server that wants TLS), the port and the `/v1` suffix.',
    },
    /** @claim errors-openai-aborted-causes */
    WEFT_OPENAI_ABORTED: {
      summary: 'The caller’s `AbortSignal` fired.',
      raisedBy: 'every call of `OpenAIModelProvider`',
      raisers: ['model-openai/src/http.ts#abortedError'],
      cause:
        'the call’s abort signal fired. Inside a task it is the task’s signal, which the runtime aborts when the task passes `taskTimeoutMs`, when a stop cancels it (a stop in `cancel` mode, or a draining stop that ran out of `shutdownTimeoutMs`), or when the space coordinator loses the task’s space.',
      fix: 'nothing to fix in the provider; see [WEFT_TASK_TIMEOUT](#weft_task_timeout) and [WEFT_TASK_CANCELLED](#weft_task_cancelled).',
    },
    WEFT_OPENAI_INVALID_RESPONSE: {
      summary: 'The API answered 2xx with a body that is not a chat completion.',
      raisedBy: 'every call of `OpenAIModelProvider`',
      raisers: ['model-openai/src/chat-completions.ts#fail'],
      cause:
        'the API answered `2xx` with a body that is not a chat completion, such as an HTML page from a proxy or a completion without choices. `httpStatus` holds that status and `attempts` the attempts it took.',
      fix: 'check that `baseUrl` ends at the API’s version segment (`.../v1`) and that the server speaks the chat-completions protocol.',
    },
    WEFT_OPENAI_RESPONSE_TOO_LARGE: {
      summary: 'The API’s answer was larger than `maxResponseBytes`.',
      raisedBy: 'every call of `OpenAIModelProvider`',
      raisers: ['model-openai/src/http.ts#sendWithRetry'],
      cause:
        'the answer, a `2xx`, `429` or `5xx`, was larger than `maxResponseBytes` (a `4xx` other than `429`, a `3xx` or a status from `600` to `999` that large fails as [WEFT_OPENAI_HTTP_STATUS](#weft_openai_http_status) instead). It is not retried.',
      fix: 'lower the call’s `maxTokens`, or raise `maxResponseBytes` if such answers are expected.',
    },
  },
} as const satisfies ErrorRegistry<OpenAIModelProviderErrorCode>;

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
   * @param options - Status, attempt count and cause, when known.
   */
  constructor(
    code: OpenAIModelProviderErrorCode,
    message: string,
    options: OpenAIModelProviderErrorDetails = {},
  ) {
    super(code, message, { cause: options.cause });
    this.name = 'OpenAIModelProviderError';
    this.httpStatus = options.httpStatus;
    this.attempts = options.attempts;
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
 * The reason phrase is shortened like the API's message: a server may send one of many
 * kilobytes, which would otherwise fill every log line that quotes the error.
 *
 * @param status - The HTTP status code.
 * @param statusText - The reason phrase; may be empty (HTTP/2 has none).
 * @param body - The response body, searched for the API's error message.
 * @returns The status, reason phrase and API message, as far as they are known.
 */
export function describeHttpFailure(status: number, statusText: string, body: string): string {
  const reason = statusText.trim() === '' ? '' : ` ${snippet(statusText)}`;
  const apiMessage = extractApiErrorMessage(body);
  return `${status}${reason}${apiMessage === undefined ? '' : `: ${apiMessage}`}`;
}
