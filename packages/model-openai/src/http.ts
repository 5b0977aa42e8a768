import { parseRetryAfter, retryDelayMs, sleep } from './backoff.js';
import { describeError } from '@weft/core/internal';
import { describeHttpFailure, OpenAIModelProviderError, snippet } from './errors.js';

/** One HTTP request, as the provider builds it. */
export interface HttpRequest {
  /** The HTTP method. */
  readonly method: 'GET' | 'POST';
  /** The absolute URL. */
  readonly url: string;
  /** Request headers, including any `Authorization`. */
  readonly headers: Headers;
  /** The request body, already serialised. */
  readonly body?: string;
}

/** An HTTP answer with its body read in full. */
export interface HttpResponse {
  /** The HTTP status code. */
  readonly status: number;
  /** The reason phrase; empty over HTTP/2. */
  readonly statusText: string;
  /** Response headers. */
  readonly headers: Headers;
  /** The whole response body as text. */
  readonly body: string;
}

/** The 2xx answer of {@link sendWithRetry}, with the number of attempts it took. */
export interface RetriedResponse extends HttpResponse {
  /** How many attempts were made, this one included. */
  readonly attempts: number;
}

/** How one attempt ended. */
export type AttemptOutcome =
  | { readonly kind: 'response'; readonly response: HttpResponse }
  | {
      readonly kind: 'timeout';
      /** The status of an answer whose body was still arriving; absent when no answer came. */
      readonly status?: number;
      /** Its reason phrase, with `status`. */
      readonly statusText?: string;
      /** Its `Location` header, when it had one. */
      readonly location?: string;
    }
  | {
      readonly kind: 'too-large';
      readonly status: number;
      /** The answer's reason phrase. */
      readonly statusText: string;
      /** Its `Location` header, when it had one. */
      readonly location?: string;
    }
  | {
      readonly kind: 'network';
      readonly error: unknown;
      /** The status of an answer whose body broke off; absent when no answer came. */
      readonly status?: number;
      /** Its reason phrase, with `status`. */
      readonly statusText?: string;
      /** Its `Location` header, when it had one. */
      readonly location?: string;
    }
  | {
      /**
       * The `fetch` option followed a redirect although it was asked not to: its answer came
       * from `url`, not from the request's URL, and is not used.
       */
      readonly kind: 'redirected';
      /** The status of the answer at the end of the redirects. */
      readonly status: number;
      /** Where that answer came from, as fetch reports it (`response.url`). */
      readonly url: string;
    }
  | {
      readonly kind: 'aborted';
      readonly reason: unknown;
      /** The status of an answer whose body was still arriving; absent when no answer came. */
      readonly status?: number;
      /** `true` when the signal had fired before the request was sent: no request was made. */
      readonly unsent?: true;
    };

/** Settings for a single attempt. */
export interface AttemptConfig {
  /** The fetch implementation to call. */
  readonly fetch: typeof fetch;
  /** The attempt is abandoned when headers and body have not both arrived by then. */
  readonly timeoutMs: number;
  /** The most bytes of body read; a larger answer ends the attempt as `too-large`. */
  readonly maxResponseBytes: number;
  /** The caller's signal; when it fires the attempt stops at once. */
  readonly signal?: AbortSignal;
}

/** Settings for a request with retries. */
export interface RetryConfig extends AttemptConfig {
  /** Attempts after the first one; `0` disables retrying. */
  readonly maxRetries: number;
  /** The wait after the first failed attempt, doubled for each further one (before jitter). */
  readonly retryBaseDelayMs: number;
  /** The most time all attempts and waits together may take, counted from `startedAt`. */
  readonly totalTimeoutMs: number;
  /**
   * When the call began, as `performance.now()` read it, so that what it did before its first
   * attempt (reading the key) counts against `totalTimeoutMs`; now when left out. A monotonic
   * clock, not `Date.now()`: a wall clock set back during the call must not extend it.
   */
  readonly startedAt?: number;
  /** Prefix of every error message, such as `OpenAIModelProvider "openai"`. */
  readonly label: string;
  /** A source of numbers in [0, 1) for the jitter; `Math.random` unless testing. */
  readonly random?: () => number;
}

/**
 * Makes one HTTP attempt and reads the body, within `timeoutMs` and `maxResponseBytes`. Never
 * throws: every ending, including a timeout, an answer too large, a network failure and an
 * abort by the caller, is an outcome.
 *
 * fetch is asked not to follow redirects (`redirect: 'manual'`): a 3xx answer is the attempt's
 * answer, so the request's headers (keys a user put in option `headers` among them, which fetch
 * would carry to another origin) and body never leave for the address its `Location` names. A
 * `fetch` that follows one anyway, and says so (`response.redirected`), ends the attempt as
 * `redirected`, its answer unread.
 *
 * The deadline is enforced by aborting the request and also by racing it, so a `fetch`
 * implementation that ignores its signal cannot hang the caller. The caller's signal is
 * followed through `AbortSignal.any`, which adds no listener to it, so many concurrent calls
 * sharing one signal do not trip Node's MaxListenersExceededWarning.
 *
 * @param request - What to send.
 * @param config - The fetch implementation, timeout, size limit and caller's signal.
 * @returns How the attempt ended.
 * @claim tsdoc-openai-attempt-ignoring-fetch
 * @claim tsdoc-openai-attempt-no-listener
 * @claim tsdoc-openai-no-redirect
 */
export async function attemptRequest(
  request: HttpRequest,
  config: AttemptConfig,
): Promise<AttemptOutcome> {
  const { signal } = config;
  if (signal?.aborted) return { kind: 'aborted', reason: signal.reason, unsent: true };

  const timeout = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    timeout.abort(new Error(`timed out after ${config.timeoutMs} ms`));
  }, config.timeoutMs);
  const stop = signal === undefined ? timeout.signal : AbortSignal.any([signal, timeout.signal]);
  const stopped = new Promise<never>((_resolve, reject) => {
    stop.addEventListener('abort', () => reject(stop.reason), { once: true });
  });
  // The race below handles the rejection; this keeps it from being reported as unhandled when
  // the attempt finishes first.
  stopped.catch(() => undefined);

  // Set once the status line has arrived, so that an answer whose body then breaks off (the
  // server closed the connection half-way) is not reported as a server that could not be reached.
  let status: number | undefined;
  let statusText = '';
  let location: string | undefined;
  try {
    const response = await Promise.race([
      config.fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        // Never follow a redirect: fetch drops `Authorization` on the way to another origin, but
        // not the other headers (an `api-key`, an `x-api-key`), and a 307 or 308 sends the body,
        // the prompt, along too.
        redirect: 'manual',
        signal: stop,
      }),
      stopped,
    ]);
    if (response.redirected) {
      timeout.abort(new Error('redirect followed'));
      await response.body?.cancel().catch(() => undefined);
      return { kind: 'redirected', status: response.status, url: response.url };
    }
    status = response.status;
    statusText = response.statusText;
    location = response.headers.get('location') ?? undefined;
    const body = await Promise.race([readBody(response, config.maxResponseBytes), stopped]);
    if (body === undefined) {
      timeout.abort(new Error('response too large'));
      return {
        kind: 'too-large',
        status: response.status,
        statusText: response.statusText,
        ...(location === undefined ? {} : { location }),
      };
    }
    return {
      kind: 'response',
      response: {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
        body,
      },
    };
  } catch (error) {
    if (signal?.aborted) return { kind: 'aborted', reason: signal.reason, status };
    const at = location === undefined ? {} : { location };
    if (timedOut) {
      return status === undefined
        ? { kind: 'timeout' }
        : { kind: 'timeout', status, statusText, ...at };
    }
    return status === undefined
      ? { kind: 'network', error }
      : { kind: 'network', error, status, statusText, ...at };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads a response body as UTF-8 text, chunk by chunk, and gives up as soon as it passes
 * `maxBytes` (or at once when `Content-Length` says it will), so a huge answer is never held
 * in memory whole.
 *
 * @param response - The fetch response.
 * @param maxBytes - The most bytes to read.
 * @returns The text, or `undefined` when the body is larger than `maxBytes`.
 */
async function readBody(response: Response, maxBytes: number): Promise<string | undefined> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    text += decoder.decode(value, { stream: true });
  }
}

/**
 * Whether an HTTP status is worth another attempt: rate limiting (429) and server errors (5xx).
 *
 * @param status - The HTTP status code.
 * @returns `true` for 429 and 5xx.
 * @claim tsdoc-openai-retryable
 */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * Sends a request, retrying with backoff on 429, 5xx, timeouts and network failures, within
 * `totalTimeoutMs` overall: each attempt gets at most what is left of it, and no retry starts
 * when its wait would end past it.
 *
 * @param request - What to send.
 * @param config - Timeouts, size limit, retry policy, the caller's signal and the label.
 * @returns The first 2xx answer, with its body read and the number of attempts it took.
 * @throws {@link OpenAIModelProviderError} with code `WEFT_OPENAI_HTTP_STATUS` at once for a 4xx
 * other than 429 or a status from 600 to 999 (and for any 1xx or 3xx answer: no redirect is followed, and a redirect's
 * message names its `Location`; and for an answer that a `fetch` option reached by following
 * one anyway), even one whose body broke off, was still arriving or was over
 * `maxResponseBytes`; `WEFT_OPENAI_RESPONSE_TOO_LARGE` at once for a 2xx, 429 or 5xx answer over
 * `maxResponseBytes`; `WEFT_OPENAI_HTTP_STATUS`, `WEFT_OPENAI_TIMEOUT`
 * or `WEFT_OPENAI_NETWORK`, after how the last attempt ended, when no retries are left;
 * `WEFT_OPENAI_TIMEOUT` (with the last answer's `httpStatus`, if any) when `totalTimeoutMs`
 * leaves no time for the next attempt, or cut the last one short, naming that option;
 * `WEFT_OPENAI_ABORTED` as soon as the caller's signal
 * fires, even between attempts (then with the status of the answer it was waiting to retry).
 * @claim tsdoc-openai-3xx
 * @claim tsdoc-openai-total-deadline
 * @claim tsdoc-openai-last-attempt
 */
export async function sendWithRetry(
  request: HttpRequest,
  config: RetryConfig,
): Promise<RetriedResponse> {
  const totalAttempts = config.maxRetries + 1;
  const deadline = (config.startedAt ?? performance.now()) + config.totalTimeoutMs;
  // One signal of this call's own, so that its attempts and waits listen to it rather than
  // each adding a listener to a signal the caller may share with many concurrent calls.
  const signal = config.signal === undefined ? undefined : AbortSignal.any([config.signal]);
  // The status of the previous attempt's answer, for an abort that comes before the next request.
  let previousStatus: number | undefined;
  for (let attempt = 1; ; attempt++) {
    const left = deadline - performance.now();
    // Whole milliseconds: the monotonic clock reads fractions, and messages quote this figure.
    const timeoutMs = Math.max(1, Math.min(config.timeoutMs, Math.round(left)));
    const outcome = await attemptRequest(request, { ...config, timeoutMs, signal });
    if (outcome.kind === 'redirected') {
      throw new OpenAIModelProviderError(
        'WEFT_OPENAI_HTTP_STATUS',
        `${config.label}: option "fetch" followed a redirect to ${shownAddress(outcome.url)}, although the provider asks it not to (redirect: 'manual'); the provider does not follow redirects, so its answer (status ${outcome.status}) is not used: make that fetch honour the \`redirect\` option, and set option "baseUrl" to the API's address there if it has moved`,
        { httpStatus: outcome.status, attempts: attempt },
      );
    }
    if (outcome.kind === 'aborted') {
      // A signal that fired before this attempt's request went out (in the same tick as the call
      // began, while its key was read) stopped it unsent: it is not counted as an attempt.
      throw outcome.unsent === true
        ? abortedError(config.label, outcome.reason, attempt - 1, previousStatus)
        : abortedError(config.label, outcome.reason, attempt, outcome.status);
    }
    if (outcome.kind === 'too-large') {
      // An error status that asking again would not help (a 401, a 404) is what the caller needs
      // to hear about, whatever the size of its body, as when its body broke off: the status
      // alone settles it.
      if ((outcome.status < 200 || outcome.status > 299) && !isRetryableStatus(outcome.status)) {
        throw new OpenAIModelProviderError(
          'WEFT_OPENAI_HTTP_STATUS',
          `${config.label}: request failed with ${describeHttpFailure(outcome.status, outcome.statusText, '')}${redirectNote(outcome.status, outcome.location, request.url)} (its answer was larger than option "maxResponseBytes" (${config.maxResponseBytes} bytes))`,
          { httpStatus: outcome.status, attempts: attempt },
        );
      }
      throw new OpenAIModelProviderError(
        'WEFT_OPENAI_RESPONSE_TOO_LARGE',
        `${config.label}: the answer (status ${outcome.status}) is larger than option "maxResponseBytes" (${config.maxResponseBytes} bytes); raise it if the server really sends such answers`,
        { httpStatus: outcome.status, attempts: attempt },
      );
    }
    // An error status that asking again would not help (a 401, a 404) fails at once, even when
    // its body broke off or was still arriving: the status alone settles it.
    if (
      (outcome.kind === 'network' || outcome.kind === 'timeout') &&
      outcome.status !== undefined &&
      (outcome.status < 200 || outcome.status > 299) &&
      !isRetryableStatus(outcome.status)
    ) {
      const how =
        outcome.kind === 'timeout'
          ? `its answer was still arriving after ${timeoutMs} ms`
          : `its answer broke off before its end: ${describeError(outcome.error)}`;
      throw new OpenAIModelProviderError(
        'WEFT_OPENAI_HTTP_STATUS',
        `${config.label}: request failed with ${describeHttpFailure(outcome.status, outcome.statusText ?? '', '')}${redirectNote(outcome.status, outcome.location, request.url)} (${how})`,
        { httpStatus: outcome.status, attempts: attempt },
      );
    }

    let retryAfterMs: number | undefined;
    if (outcome.kind === 'response') {
      const { response } = outcome;
      if (response.status >= 200 && response.status <= 299)
        return { ...response, attempts: attempt };
      if (!isRetryableStatus(response.status)) {
        const location = response.headers.get('location') ?? undefined;
        const note = redirectNote(response.status, location, request.url);
        // A redirect's body (a "Moved" page) explains nothing its Location does not.
        const body = note === '' ? response.body : '';
        throw new OpenAIModelProviderError(
          'WEFT_OPENAI_HTTP_STATUS',
          `${config.label}: request failed with ${describeHttpFailure(response.status, response.statusText, body)}${note}`,
          { httpStatus: response.status, attempts: attempt },
        );
      }
      retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    }

    if (attempt >= totalAttempts) {
      // A last attempt that the call's deadline cut short timed out on totalTimeoutMs, not on
      // timeoutMs: the message names the limit that ended it.
      const cutByDeadline = outcome.kind === 'timeout' && timeoutMs < config.timeoutMs;
      throw exhaustedError(config, request, outcome, attempt, cutByDeadline);
    }
    const delay = retryDelayMs(attempt, config.retryBaseDelayMs, retryAfterMs, config.random);
    // Another attempt needs some time after its wait; give up now rather than start one that
    // the deadline would cut short at once.
    if (performance.now() + delay >= deadline) {
      throw exhaustedError(config, request, outcome, attempt, true);
    }
    previousStatus = statusOf(outcome);
    if (!(await sleep(delay, signal))) {
      throw abortedError(config.label, signal?.reason, attempt, previousStatus);
    }
  }
}

/**
 * How a message quotes an address a server named (a redirect's `Location`, or where a `fetch`
 * that followed one ended up): resolved against `base`, cut to 200 characters, and without its
 * user name, password, query and fragment, which may hold another service's credentials or a
 * signed URL's token; the message says which of them it left out. An address that does not parse
 * is quoted up to its first `?` or `#`, and not at all when it holds an `@`.
 *
 * @param address - The address as the server gave it.
 * @param base - The URL of the request it answered, for a relative `Location`.
 * @returns The text to quote.
 */
export function shownAddress(address: string, base?: string): string {
  let url: URL;
  try {
    url = new URL(address, base);
  } catch {
    if (address.includes('@')) return 'an address with "@" in it, not shown';
    const cut = address.search(/[?#]/);
    return cut === -1
      ? snippet(address)
      : `${snippet(address.slice(0, cut))} (its query or fragment not shown)`;
  }
  const left = [
    url.username !== '' || url.password !== '' ? 'user name and password' : undefined,
    url.search !== '' ? 'query' : undefined,
    url.hash !== '' ? 'fragment' : undefined,
  ].filter((part) => part !== undefined);
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  const shown = snippet(url.href);
  if (left.length === 0) return shown;
  const named =
    left.length === 1 ? left[0] : `${left.slice(0, -1).join(', ')} and ${left[left.length - 1]}`;
  return `${shown} (its ${named} not shown)`;
}

/**
 * What an error message adds for a redirect (a 3xx with a `Location` header): where it points,
 * resolved against the request's URL, and that the provider does not follow it.
 *
 * @param status - The answer's status.
 * @param location - Its `Location` header, if any.
 * @param requestUrl - The URL the request went to.
 * @returns The text to append after the status, or `''` for any other answer.
 */
function redirectNote(status: number, location: string | undefined, requestUrl: string): string {
  if (status < 300 || status > 399 || location === undefined) return '';
  return ` pointing to ${shownAddress(location, requestUrl)}; the provider does not follow redirects, so nothing was sent there: set option "baseUrl" to the API's address there if it has moved`;
}

function attemptsText(attempts: number): string {
  return `${attempts} ${attempts === 1 ? 'attempt' : 'attempts'}`;
}

/**
 * The error of a call whose signal fired.
 *
 * @param label - Prefix of the message, such as `OpenAIModelProvider "openai"`.
 * @param reason - The signal's reason.
 * @param attempts - How many requests were made.
 * @param httpStatus - The status of the last answer, when there was one.
 * @returns The error, with code `WEFT_OPENAI_ABORTED`.
 */
export function abortedError(
  label: string,
  reason: unknown,
  attempts: number,
  httpStatus?: number,
): OpenAIModelProviderError {
  const why = reason === undefined ? '' : `: ${describeError(reason)}`;
  return new OpenAIModelProviderError(
    'WEFT_OPENAI_ABORTED',
    `${label}: request was aborted${why}`,
    { attempts, httpStatus, cause: reason },
  );
}

function exhaustedError(
  config: RetryConfig,
  request: HttpRequest,
  outcome: Exclude<AttemptOutcome, { kind: 'aborted' | 'too-large' | 'redirected' }>,
  attempts: number,
  overall = false,
): OpenAIModelProviderError {
  if (overall) {
    return new OpenAIModelProviderError(
      'WEFT_OPENAI_TIMEOUT',
      `${config.label}: gave up after ${attemptsText(attempts)}: option "totalTimeoutMs" (${config.totalTimeoutMs} ms) leaves no time for another; last ${describeOutcome(outcome)}`,
      { attempts, httpStatus: statusOf(outcome) },
    );
  }
  switch (outcome.kind) {
    case 'response': {
      const { status, statusText, body } = outcome.response;
      return new OpenAIModelProviderError(
        'WEFT_OPENAI_HTTP_STATUS',
        `${config.label}: request failed after ${attemptsText(attempts)}; last status ${describeHttpFailure(status, statusText, body)}`,
        { httpStatus: status, attempts },
      );
    }
    case 'timeout':
      return new OpenAIModelProviderError(
        'WEFT_OPENAI_TIMEOUT',
        `${config.label}: request timed out after ${config.timeoutMs} ms (${attemptsText(attempts)})${outcome.status === undefined ? '' : `; the answer (status ${outcome.status}) was still arriving`}`,
        { attempts, httpStatus: outcome.status },
      );
    case 'network':
      return new OpenAIModelProviderError(
        'WEFT_OPENAI_NETWORK',
        outcome.status === undefined
          ? notHttp(outcome.error)
            ? `${config.label}: the server at ${request.method} ${request.url} answered, but not with HTTP (${attemptsText(attempts)}): ${describeError(outcome.error)}`
            : headersTooLarge(outcome.error)
              ? `${config.label}: the server at ${request.method} ${request.url} answered with headers larger than fetch reads (${attemptsText(attempts)}): ${describeError(outcome.error)}`
              : `${config.label}: could not reach ${request.method} ${request.url} (${attemptsText(attempts)}): ${describeError(outcome.error)}`
          : `${config.label}: the answer to ${request.method} ${request.url} (status ${outcome.status}) broke off before its end (${attemptsText(attempts)}): ${describeError(outcome.error)}`,
        { attempts, httpStatus: outcome.status, cause: outcome.error },
      );
  }
}

/**
 * Whether a failed request reached a server that answered something other than HTTP (an SSH
 * greeting, any bytes that do not start an HTTP answer): fetch's parser then fails with a code
 * `HPE_...`, found on the error or a cause of it. A TLS server sends nothing before the client's
 * greeting, and closes a plain connection without a byte, so it is not caught here.
 * @claim tsdoc-openai-not-http
 */
function notHttp(error: unknown): boolean {
  return hasCode(error, (code) => code.startsWith('HPE_'));
}

/**
 * Whether a failed request reached a server whose answer had headers larger than fetch reads
 * (16 KiB, Node.js's `--max-http-header-size`): the server answered, so "could not reach" would
 * send its reader after the wrong problem.
 */
function headersTooLarge(error: unknown): boolean {
  return hasCode(error, (code) => code === 'UND_ERR_HEADERS_OVERFLOW');
}

/** Whether the error, or a cause of it up to five deep, has a string `code` that `matches`. */
function hasCode(error: unknown, matches: (code: string) => boolean): boolean {
  for (let at = error, depth = 0; at instanceof Error && depth < 5; depth += 1) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && matches(code)) return true;
    at = at.cause;
  }
  return false;
}

/** The status of the last attempt's answer, complete or broken off, when one came. */
function statusOf(
  outcome: Exclude<AttemptOutcome, { kind: 'aborted' | 'too-large' | 'redirected' }>,
): number | undefined {
  return outcome.kind === 'response' ? outcome.response.status : outcome.status;
}

function describeOutcome(
  outcome: Exclude<AttemptOutcome, { kind: 'aborted' | 'too-large' | 'redirected' }>,
): string {
  switch (outcome.kind) {
    case 'response': {
      const { status, statusText, body } = outcome.response;
      return `status ${describeHttpFailure(status, statusText, body)}`;
    }
    case 'timeout':
      return outcome.status === undefined
        ? 'attempt timed out'
        : `attempt timed out while its answer (status ${outcome.status}) was still arriving`;
    case 'network':
      if (outcome.status === undefined && notHttp(outcome.error)) {
        return `attempt was answered, but not with HTTP: ${describeError(outcome.error)}`;
      }
      if (outcome.status === undefined && headersTooLarge(outcome.error)) {
        return `attempt was answered with headers larger than fetch reads: ${describeError(outcome.error)}`;
      }
      return outcome.status === undefined
        ? `attempt could not connect: ${describeError(outcome.error)}`
        : `attempt's answer (status ${outcome.status}) broke off: ${describeError(outcome.error)}`;
  }
}
