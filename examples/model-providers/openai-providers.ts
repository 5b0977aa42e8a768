import { OpenAIModelProvider } from '@weft/model-openai';

/**
 * OpenAI's hosted API. The key is read once per call (its retries reuse it),
 * so a rotated key is picked up.
 */
export const openai = () =>
  new OpenAIModelProvider({
    baseUrl: 'https://api.openai.com/v1',
    apiKey: () => process.env.OPENAI_API_KEY ?? '',
    model: 'gpt-4o-mini',
  });

/**
 * A local Ollama server: no key, and longer timeouts while the model loads.
 * `totalTimeoutMs` (60 s by default) cuts off every attempt too, so it is
 * raised with `timeoutMs`; both stay below the runtime's `taskTimeoutMs`
 * (120 s by default), which bounds the whole task.
 */
export const ollama = () =>
  new OpenAIModelProvider({
    id: 'ollama',
    baseUrl: 'http://localhost:11434/v1',
    model: 'llama3.1:8b',
    timeoutMs: 100_000,
    totalTimeoutMs: 110_000,
  });

/**
 * vLLM started with `vllm serve Qwen/Qwen2.5-7B-Instruct --api-key
 * token-abc123`.
 */
export const vllm = () =>
  new OpenAIModelProvider({
    id: 'vllm',
    baseUrl: 'http://localhost:8000/v1',
    apiKey: 'token-abc123',
    model: 'Qwen/Qwen2.5-7B-Instruct',
  });

/**
 * LM Studio's local server (Developer tab, port 1234 by default). It answers
 * `400` to `response_format: { type: 'json_object' }`, which every plan asks
 * for, so `jsonMode: false` leaves that field out.
 */
export const lmStudio = () =>
  new OpenAIModelProvider({
    id: 'lm-studio',
    baseUrl: 'http://localhost:1234/v1',
    model: 'qwen2.5-7b-instruct',
    maxRetries: 1,
    jsonMode: false,
  });
