import {
  ModelProvider,
  TEXT_GENERATION_CAPABILITY,
  type ModelCapability,
  type ModelRequestConfig,
} from '@weft/core';
import {
  buildChatCompletionBody,
  parseChatCompletion,
  type TextGenerationInput,
  type TextGenerationOptions,
  type TextGenerationOutput,
} from './chat-completions.js';
import { describeError } from '@weft/core/internal';
import { OpenAIModelProviderError } from './errors.js';
import { abortedError, attemptRequest, sendWithRetry, type HttpRequest } from './http.js';
import {
  isSendableKey,
  parseOptions,
  type OpenAIModelProviderOptions,
  type ResolvedOptions,
} from './options.js';

/**
 * A model provider for any server that speaks the OpenAI chat-completions protocol: OpenAI
 * itself, Ollama, vLLM, LM Studio, llama.cpp's server, LiteLLM and others. It offers the
 * `text-generation` capability through `POST {baseUrl}/chat/completions`.
 *
 * Requests that fail with 429, a 5xx, a timeout or a network error are retried with
 * exponential backoff (honouring `Retry-After`); other 4xx answers fail at once. Every failure
 * is an {@link OpenAIModelProviderError} whose message names the provider id and, when the
 * server answered, the HTTP status and the API's own error message.
 *
 * @example
 * ```ts
 * import { OpenAIModelProvider } from '@weft/model-openai';
 *
 * // OpenAI
 * const openai = new OpenAIModelProvider({
 *   baseUrl: 'https://api.openai.com/v1',
 *   apiKey: () => process.env.OPENAI_API_KEY ?? '',
 *   model: 'gpt-4o-mini',
 * });
 *
 * // A local Ollama server: no key needed. A model that loads slowly needs both timeouts
 * // raised: totalTimeoutMs (60 s by default) cuts off every attempt too.
 * const ollama = new OpenAIModelProvider({
 *   id: 'ollama',
 *   baseUrl: 'http://localhost:11434/v1',
 *   model: 'llama3.1:8b',
 *   timeoutMs: 100_000,
 *   totalTimeoutMs: 110_000,
 * });
 * ```
 */
export class OpenAIModelProvider extends ModelProvider {
  /** Id of this provider instance; `'openai'` unless set in the options. */
  readonly id: string;
  /** The model name sent with every request. */
  readonly model: string;
  /** The API's base URL, without trailing slashes. */
  readonly baseUrl: string;
  /** The single capability offered: `text-generation`. */
  readonly capabilities: readonly ModelCapability[];

  readonly #options: ResolvedOptions;
  readonly #label: string;
  /** The health checks still waiting for the server, which `shutdown()` abandons. */
  readonly #healthChecks = new Set<AbortController>();

  /**
   * @param options - Where the API is, which model to use, and how to retry.
   * @throws {@link OpenAIModelProviderError} with code `WEFT_OPENAI_INVALID_OPTIONS` naming the first bad
   * option, such as `OpenAIModelProvider: option "baseUrl" must be an absolute http(s) URL, got "foo"`.
   */
  constructor(options: OpenAIModelProviderOptions) {
    super();
    this.#options = parseOptions(options);
    this.id = this.#options.id;
    this.model = this.#options.model;
    this.baseUrl = this.#options.baseUrl;
    this.#label = `OpenAIModelProvider "${this.id}"`;
    const textGeneration: ModelCapability<typeof TEXT_GENERATION_CAPABILITY> = {
      id: TEXT_GENERATION_CAPABILITY,
      // The runtime validates input and options against the capability's schemas before
      // calling, so they have the shapes below.
      run: (input, request) =>
        this.#generateText(
          input as TextGenerationInput,
          request as ModelRequestConfig<TextGenerationOptions> | undefined,
        ),
    };
    this.capabilities = [textGeneration];
  }

  /**
   * Asks the server for its model list (`GET {baseUrl}/models`), without retries.
   *
   * @returns `true` when it answers 2xx within `timeoutMs`, counted from the call, the reading
   * of a function `apiKey` included; `false` on any other answer, a timeout, a network failure,
   * an `apiKey` function that throws or has given no key by then, or a `shutdown()` that came
   * first. Never throws.
   */
  override async checkHealth(): Promise<boolean> {
    const abandon = new AbortController();
    this.#healthChecks.add(abandon);
    try {
      const deadline = performance.now() + this.#options.timeoutMs;
      const request = await this.#buildRequest('GET', '/models', undefined, {
        deadline,
        limit: 'timeoutMs',
        signal: abandon.signal,
      });
      const outcome = await attemptRequest(request, {
        fetch: this.#options.fetch,
        timeoutMs: Math.max(1, Math.round(deadline - performance.now())),
        maxResponseBytes: this.#options.maxResponseBytes,
        signal: abandon.signal,
      });
      return (
        outcome.kind === 'response' &&
        outcome.response.status >= 200 &&
        outcome.response.status <= 299
      );
    } catch {
      return false;
    } finally {
      this.#healthChecks.delete(abandon);
    }
  }

  /**
   * Abandons the health checks still waiting for the server: each answers `false` at once and
   * its request is aborted. A runtime whose start gave up on a server that does not answer
   * (`healthCheckTimeoutMs`) shuts the provider down, and the process can then exit without
   * waiting for the check's own `timeoutMs`. Calls to the model are the caller's to cancel,
   * with their signal.
   * @claim tsdoc-openai-shutdown-abandons-health
   */
  override async shutdown(): Promise<void> {
    for (const check of this.#healthChecks) {
      check.abort(new Error(`${this.#label} was shut down`));
    }
    this.#healthChecks.clear();
  }

  async #generateText(
    input: TextGenerationInput,
    request: ModelRequestConfig<TextGenerationOptions> | undefined,
  ): Promise<TextGenerationOutput> {
    // The call's deadline and signal cover the reading of the key too: a key function that
    // never answers must not hold the call past either.
    // A monotonic clock: a wall clock set back (or forward) during the call must not move its deadline.
    const startedAt = performance.now();
    const signal = request?.signal;
    if (signal?.aborted) throw abortedError(this.#label, signal.reason, 0);
    // Written before the key is read: a body JSON cannot write (a BigInt option, from a direct
    // call that skipped the runtime's checks) fails with its TypeError at once, without calling
    // a key function for a request that cannot be sent.
    const body = JSON.stringify(
      buildChatCompletionBody(
        this.#options.model,
        input,
        request?.options,
        this.#options.defaultTemperature,
        this.#options.jsonMode,
      ),
    );
    const httpRequest = await this.#buildRequest('POST', '/chat/completions', body, {
      deadline: startedAt + this.#options.totalTimeoutMs,
      limit: 'totalTimeoutMs',
      signal,
    });
    const response = await sendWithRetry(httpRequest, {
      fetch: this.#options.fetch,
      timeoutMs: this.#options.timeoutMs,
      startedAt,
      signal,
      maxRetries: this.#options.maxRetries,
      retryBaseDelayMs: this.#options.retryBaseDelayMs,
      totalTimeoutMs: this.#options.totalTimeoutMs,
      maxResponseBytes: this.#options.maxResponseBytes,
      label: this.#label,
    });
    return parseChatCompletion(response.body, this.#label, {
      httpStatus: response.status,
      attempts: response.attempts,
    });
  }

  async #buildRequest(
    method: HttpRequest['method'],
    path: string,
    body: string | undefined,
    keyBounds: KeyBounds,
  ): Promise<HttpRequest> {
    const headers = new Headers({ Accept: 'application/json' });
    if (body !== undefined) headers.set('Content-Type', 'application/json');
    for (const [name, value] of Object.entries(this.#options.headers)) headers.set(name, value);
    const apiKey = await this.#resolveApiKey(keyBounds);
    if (apiKey !== undefined) headers.set('Authorization', `Bearer ${apiKey}`);
    return {
      method,
      url: `${this.#options.baseUrl}${path}`,
      headers,
      ...(body === undefined ? {} : { body }),
    };
  }

  async #resolveApiKey(bounds: KeyBounds): Promise<string | undefined> {
    const { apiKey } = this.#options;
    if (apiKey === undefined) return undefined;
    let read: KeyRead;
    try {
      read =
        typeof apiKey === 'function'
          ? await readWithin(() => this.resolve(apiKey), bounds)
          : { kind: 'value', value: apiKey };
    } catch (error) {
      throw new OpenAIModelProviderError(
        'WEFT_OPENAI_API_KEY',
        `${this.#label}: could not read option "apiKey": ${describeError(error)}`,
        { cause: error },
      );
    }
    if (read.kind === 'aborted') throw abortedError(this.#label, read.reason, 0);
    if (read.kind === 'late') {
      const limitMs = this.#options[bounds.limit];
      throw new OpenAIModelProviderError(
        'WEFT_OPENAI_TIMEOUT',
        `${this.#label}: option "apiKey" gave no key within option "${bounds.limit}" (${limitMs} ms); no request was sent`,
        { attempts: 0 },
      );
    }
    const { value } = read;
    if (typeof value !== 'string') {
      throw new OpenAIModelProviderError(
        'WEFT_OPENAI_API_KEY',
        `${this.#label}: option "apiKey" must resolve to a string, got ${value === null ? 'null' : typeof value}`,
      );
    }
    // White space around the key is no part of it: left in, a space before it would reach the
    // header as "Bearer  sk-...", which a server that compares the header whole refuses. An empty
    // key (an unset environment variable), or one of white space alone (an empty key file read
    // with its line break), means "send no Authorization header".
    const key = value.trim();
    if (key === '') return undefined;
    if (!isSendableKey(key)) {
      throw new OpenAIModelProviderError(
        'WEFT_OPENAI_API_KEY',
        `${this.#label}: option "apiKey" gave a key that no HTTP header can carry (it holds a control character other than a tab, such as a line break or a NUL, or a character beyond Latin-1 such as €); the key is not shown`,
      );
    }
    return key;
  }
}

/** What bounds the reading of a function `apiKey`: a deadline, the option that set it, a signal. */
interface KeyBounds {
  /** When to stop waiting for the key, on the clock of `performance.now()`. */
  readonly deadline: number;
  /** The option the deadline comes from, named in the error. */
  readonly limit: 'timeoutMs' | 'totalTimeoutMs';
  /** The call's signal, when it has one. */
  readonly signal?: AbortSignal | undefined;
}

/** How reading the key ended, when it did not throw. */
type KeyRead =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'aborted'; readonly reason: unknown }
  | { readonly kind: 'late' };

/**
 * Reads the key, unless the deadline passes or the signal fires first; the function is not
 * called at all when the signal has already fired. A key that arrives later is dropped.
 *
 * @param read - Reads the key; may throw or reject, which is passed on.
 * @param bounds - The deadline and the signal.
 * @returns The value, or why it was not waited for.
 */
async function readWithin(read: () => Promise<unknown>, bounds: KeyBounds): Promise<KeyRead> {
  const { signal } = bounds;
  if (signal?.aborted) return { kind: 'aborted', reason: signal.reason };
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), Math.max(0, bounds.deadline - performance.now()));
  // AbortSignal.any adds no listener to the caller's signal, which many calls may share.
  const stop = signal === undefined ? timeout.signal : AbortSignal.any([signal, timeout.signal]);
  let onStop: (() => void) | undefined;
  try {
    return await new Promise<KeyRead>((resolve, reject) => {
      onStop = () =>
        resolve(signal?.aborted ? { kind: 'aborted', reason: signal.reason } : { kind: 'late' });
      stop.addEventListener('abort', onStop, { once: true });
      read().then((value) => resolve({ kind: 'value', value }), reject);
    });
  } finally {
    clearTimeout(timer);
    if (onStop !== undefined) stop.removeEventListener('abort', onStop);
  }
}
