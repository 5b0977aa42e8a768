import type { CapabilityMap } from '@weft/core';
import {
  OpenAIModelProviderError,
  extractApiErrorMessage,
  snippet,
  type OpenAIModelProviderErrorDetails,
} from './errors.js';

/** One chat message, as the `text-generation` capability's input schema defines it. */
export interface ChatMessage {
  /** Who speaks. */
  readonly role: 'system' | 'user' | 'assistant';
  /** What is said. */
  readonly content: string;
}

/** Input of the `text-generation` capability (already validated by the runtime). */
export interface TextGenerationInput {
  /** The conversation so far, oldest first. */
  readonly messages: readonly ChatMessage[];
}

/** Per-call options of the `text-generation` capability. */
export interface TextGenerationOptions {
  /** Sampling temperature, 0–2. */
  readonly temperature?: number;
  /** The most tokens to generate, sent as `max_tokens`. */
  readonly maxTokens?: number;
  /**
   * Asks for a JSON object only, sent as `response_format: { type: 'json_object' }` unless the
   * provider's `jsonMode` is `false`.
   */
  readonly json?: boolean;
}

/** Output of the `text-generation` capability. */
export type TextGenerationOutput = CapabilityMap['text-generation']['output'];

/**
 * Builds the JSON body of a `POST /chat/completions` request. Fields left undefined are left
 * out, so the server's defaults apply.
 *
 * @param model - The model name.
 * @param input - The chat messages.
 * @param options - Per-call temperature, token limit and JSON mode.
 * @param defaultTemperature - The temperature to use when the call sets none.
 * @param jsonMode - Whether `json: true` is sent as `response_format`; `false` for a server that
 * refuses the field.
 * @returns The request body, ready for `JSON.stringify`.
 */
export function buildChatCompletionBody(
  model: string,
  input: TextGenerationInput,
  options: TextGenerationOptions | undefined,
  defaultTemperature: number | undefined,
  jsonMode = true,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model,
    messages: input.messages.map(({ role, content }) => ({ role, content })),
  };
  const temperature = options?.temperature ?? defaultTemperature;
  if (temperature !== undefined) body.temperature = temperature;
  if (options?.maxTokens !== undefined) body.max_tokens = options.maxTokens;
  if (options?.json === true && jsonMode) body.response_format = { type: 'json_object' };
  return body;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Shows a parsed JSON value in an error message. JSON.parse reads arrays nested millions deep,
 * but JSON.stringify overflows the stack on them, so such a value is named by its kind instead
 * of failing the call with a RangeError that names no provider.
 *
 * @param value - A value from a parsed response body.
 * @returns Its JSON text, shortened, or its kind when it cannot be written back.
 */
function describeJsonValue(value: unknown): string {
  try {
    return snippet(JSON.stringify(value) ?? typeof value);
  } catch {
    return Array.isArray(value)
      ? 'an array nested too deep to show'
      : 'an object nested too deep to show';
  }
}

/**
 * Whether a reported token count can be passed on: a whole number from 0 up to
 * `Number.MAX_SAFE_INTEGER`, as the capability's output schema accepts. A count beyond it (a
 * server that reports `1e300`) would fail the runtime's check of a completion that is fine.
 */
function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * Reads the answer of `POST /chat/completions`: the text of the first choice and, when the
 * server reports it, the token usage.
 *
 * @param body - The raw 2xx response body.
 * @param label - Prefix of error messages, such as `OpenAIModelProvider "openai"`.
 * @param answer - The answer's `httpStatus` and the `attempts` it took, carried by the error.
 * @returns The generated text and usage.
 * @throws {@link OpenAIModelProviderError} with code `WEFT_OPENAI_INVALID_RESPONSE` naming what is missing
 * when the body is not JSON or has no `choices[0].message.content` string.
 */
export function parseChatCompletion(
  body: string,
  label: string,
  answer: Pick<OpenAIModelProviderErrorDetails, 'httpStatus' | 'attempts'> = {},
): TextGenerationOutput {
  const fail = (problem: string): OpenAIModelProviderError =>
    new OpenAIModelProviderError(
      'WEFT_OPENAI_INVALID_RESPONSE',
      `${label}: invalid chat completion response: ${problem}`,
      answer,
    );

  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw fail(body.trim() === '' ? 'the body is empty' : `the body is not JSON: ${snippet(body)}`);
  }
  if (!isRecord(parsed)) throw fail(`the body is not a JSON object: ${snippet(body)}`);

  const choices = parsed.choices;
  if (!Array.isArray(choices) || choices.length === 0) {
    const apiError = 'error' in parsed ? extractApiErrorMessage(body) : undefined;
    throw fail(
      `"choices" is missing or empty${apiError === undefined ? '' : ` (the API said: ${apiError})`}`,
    );
  }
  const first: unknown = choices[0];
  if (!isRecord(first) || !isRecord(first.message)) throw fail('"choices[0].message" is missing');
  const content = first.message.content;
  if (typeof content !== 'string') {
    const got = content === undefined ? 'it is missing' : `got ${describeJsonValue(content)}`;
    throw fail(`"choices[0].message.content" is not a string (${got})`);
  }

  const output: TextGenerationOutput = { text: content };
  const usage = parsed.usage;
  if (
    isRecord(usage) &&
    isTokenCount(usage.prompt_tokens) &&
    isTokenCount(usage.completion_tokens)
  ) {
    output.usage = { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens };
  }
  return output;
}
