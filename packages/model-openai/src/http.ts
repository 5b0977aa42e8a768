import { parseRetryAfter, retryDelayMs, sleep } from './backoff.js';
import { describeError } from '@weft/core/internal';
import { describeHttpFailure, OpenAIModelProviderError } from './errors.js';

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

/** How one attempt ended. */
export type AttemptOutcome =
  | { readonly kind: 'response'; readonly response: HttpResponse }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'network'; readonly error: unknown }
  | { readonly kind: 'aborted'; readonly reason: unknown };

/** Settings for a single attempt. */
export interface AttemptConfig {
  /** The fetch implementation to call. */
  readonly fetch: typeof fetch;
  /** The attempt is abandoned when headers and body have not both arrived by then. */
  readonly timeoutMs: number;
  /** The caller's signal; when it fires the attempt stops at once. */
  readonly signal?: AbortSignal;
}

/** Settings for a request with retries. */
export interface RetryConfig extends AttemptConfig {
  /** Attempts after the first one; `0` disables retrying. */
  readonly maxRetries: number;
  /** The wait after the first failed attempt, doubled for each further one (before jitter). */
  readonly retryBaseDelayMs: number;
  /** Prefix of every error message, such as `OpenAIModelProvider "openai"`. */
  readonly label: string;
  /** A source of numbers in [0, 1) for the jitter; `Math.random` unless testing. */
  readonly random?: () => number;
}

/**
 * Makes one HTTP attempt and reads the whole body, within `timeoutMs`. Never throws: every
 * ending, including a timeout, a network failure and an abort by the caller, is an outcome.
 *
 * The deadline is enforced by aborting the request and also by racing it, so a `fetch`
 * implementation that ignores its signal cannot hang the caller.
 *
 * @param request - What to send.
 * @param config - The fetch implementation, timeout and caller's signal.
 * @returns How the attempt ended.
 */
export async function attemptRequest(
  request: HttpRequest,
  config: AttemptConfig,
): Promise<AttemptOutcome> {
  const { signal } = config;
  if (signal?.aborted) return { kind: 'aborted', reason: signal.reason };

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`timed out after ${config.timeoutMs} ms`));
  }, config.timeoutMs);
  const forwardAbort = (): void => controller.abort(signal?.reason);
  signal?.addEventListener('abort', forwardAbort, { once: true });
  const stopped = new Promise<never>((_resolve, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), {
      once: true,
    });
  });
  // The race below handles the rejection; this keeps it from being reported as unhandled when
  // the attempt finishes first.
  stopped.catch(() => undefined);

  try {
    const response = await Promise.race([
      config.fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: controller.signal,
      }),
      stopped,
    ]);
    const body = await Promise.race([response.text(), stopped]);
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
    if (signal?.aborted) return { kind: 'aborted', reason: signal.reason };
    if (timedOut) return { kind: 'timeout' };
    return { kind: 'network', error };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forwardAbort);
  }
}

/**
 * Whether an HTTP status is worth another attempt: rate limiting (429) and server errors (5xx).
 *
 * @param status - The HTTP status code.
 * @returns `true` for 429 and 5xx.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * Sends a request, retrying with backoff on 429, 5xx, timeouts and network failures.
 *
 * @param request - What to send.
 * @param config - Timeout, retry policy, the caller's signal and the error-message label.
 * @returns The first 2xx answer, with its body read.
 * @throws {@link OpenAIModelProviderError} with code `http_status` at once for a 4xx other than
 * 429 (and for 1xx/3xx answers fetch did not follow); with code `http_status`, `timeout` or
 * `network` when the last attempt fails; with code `aborted` as soon as the caller's signal
 * fires, even between attempts.
 */
export async function sendWithRetry(
  request: HttpRequest,
  config: RetryConfig,
): Promise<HttpResponse> {
  const totalAttempts = config.maxRetries + 1;
  for (let attempt = 1; ; attempt++) {
    const outcome = await attemptRequest(request, config);
    if (outcome.kind === 'aborted') throw abortedError(config.label, outcome.reason, attempt);

    let retryAfterMs: number | undefined;
    if (outcome.kind === 'response') {
      const { response } = outcome;
      if (response.status >= 200 && response.status <= 299) return response;
      if (!isRetryableStatus(response.status)) {
        throw new OpenAIModelProviderError(
          'http_status',
          `${config.label}: request failed with ${describeHttpFailure(response.status, response.statusText, response.body)}`,
          { httpStatus: response.status, attempts: attempt },
        );
      }
      retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    }

    if (attempt >= totalAttempts) throw exhaustedError(config, request, outcome, attempt);

    const delay = retryDelayMs(attempt, config.retryBaseDelayMs, retryAfterMs, config.random);
    if (!(await sleep(delay, config.signal))) {
      throw abortedError(config.label, config.signal?.reason, attempt);
    }
  }
}

function attemptsText(attempts: number): string {
  return `${attempts} ${attempts === 1 ? 'attempt' : 'attempts'}`;
}

function abortedError(label: string, reason: unknown, attempts: number): OpenAIModelProviderError {
  const why = reason === undefined ? '' : `: ${describeError(reason)}`;
  return new OpenAIModelProviderError('aborted', `${label}: request was aborted${why}`, {
    attempts,
    cause: reason,
  });
}

function exhaustedError(
  config: RetryConfig,
  request: HttpRequest,
  outcome: Exclude<AttemptOutcome, { kind: 'aborted' }>,
  attempts: number,
): OpenAIModelProviderError {
  switch (outcome.kind) {
    case 'response': {
      const { status, statusText, body } = outcome.response;
      return new OpenAIModelProviderError(
        'http_status',
        `${config.label}: request failed after ${attemptsText(attempts)}; last status ${describeHttpFailure(status, statusText, body)}`,
        { httpStatus: status, attempts },
      );
    }
    case 'timeout':
      return new OpenAIModelProviderError(
        'timeout',
        `${config.label}: request timed out after ${config.timeoutMs} ms (${attemptsText(attempts)})`,
        { attempts },
      );
    case 'network':
      return new OpenAIModelProviderError(
        'network',
        `${config.label}: could not reach ${request.method} ${request.url} (${attemptsText(attempts)}): ${describeError(outcome.error)}`,
        { attempts, cause: outcome.error },
      );
  }
}
