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
import { attemptRequest, sendWithRetry, type HttpRequest } from './http.js';
import { parseOptions, type OpenAIModelProviderOptions, type ResolvedOptions } from './options.js';

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
   * @returns `true` when it answers 2xx within `timeoutMs`; `false` on any other answer, a
   * timeout, a network failure or an `apiKey` function that throws. Never throws.
   */
  override async checkHealth(): Promise<boolean> {
    try {
      const request = await this.#buildRequest('GET', '/models');
      const outcome = await attemptRequest(request, {
        fetch: this.#options.fetch,
        timeoutMs: this.#options.timeoutMs,
        maxResponseBytes: this.#options.maxResponseBytes,
      });
      return (
        outcome.kind === 'response' &&
        outcome.response.status >= 200 &&
        outcome.response.status <= 299
      );
    } catch {
      return false;
    }
  }

  async #generateText(
    input: TextGenerationInput,
    request: ModelRequestConfig<TextGenerationOptions> | undefined,
  ): Promise<TextGenerationOutput> {
    const body = buildChatCompletionBody(
      this.#options.model,
      input,
      request?.options,
      this.#options.defaultTemperature,
    );
    const httpRequest = await this.#buildRequest('POST', '/chat/completions', body);
    const response = await sendWithRetry(httpRequest, {
      fetch: this.#options.fetch,
      timeoutMs: this.#options.timeoutMs,
      signal: request?.signal,
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
    body?: unknown,
  ): Promise<HttpRequest> {
    const headers = new Headers({ Accept: 'application/json' });
    if (body !== undefined) headers.set('Content-Type', 'application/json');
    for (const [name, value] of Object.entries(this.#options.headers)) headers.set(name, value);
    const apiKey = await this.#resolveApiKey();
    if (apiKey !== undefined) headers.set('Authorization', `Bearer ${apiKey}`);
    return {
      method,
      url: `${this.#options.baseUrl}${path}`,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    };
  }

  async #resolveApiKey(): Promise<string | undefined> {
    const { apiKey } = this.#options;
    if (apiKey === undefined) return undefined;
    let value: unknown;
    try {
      value = await this.resolve(apiKey);
    } catch (error) {
      throw new OpenAIModelProviderError(
        'WEFT_OPENAI_API_KEY',
        `${this.#label}: could not read option "apiKey": ${describeError(error)}`,
        { cause: error },
      );
    }
    if (typeof value !== 'string') {
      throw new OpenAIModelProviderError(
        'WEFT_OPENAI_API_KEY',
        `${this.#label}: option "apiKey" must resolve to a string, got ${value === null ? 'null' : typeof value}`,
      );
    }
    // An empty key (an unset environment variable, say) means "send no Authorization header".
    return value === '' ? undefined : value;
  }
}
