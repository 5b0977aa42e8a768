/**
 * A Weft model provider for OpenAI-compatible chat-completions APIs: OpenAI, Ollama, vLLM,
 * LM Studio and others.
 *
 * @packageDocumentation
 */
export { OpenAIModelProvider } from './openai-model-provider.js';
export type { OpenAIModelProviderOptions } from './options.js';
export {
  OpenAIModelProviderError,
  type OpenAIModelProviderErrorCode,
  type OpenAIModelProviderErrorDetails,
} from './errors.js';
