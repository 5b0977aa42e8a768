import type { ModelProvider } from '@weft/core';
import { OpenAIModelProvider } from '@weft/model-openai';

/** A model served by Ollama's OpenAI-compatible API, configured from the environment. */
export function createModel(env: NodeJS.ProcessEnv): ModelProvider {
  const apiKey = env.OLLAMA_API_KEY?.trim();
  return new OpenAIModelProvider({
    id: 'ollama',
    baseUrl: env.OLLAMA_BASE_URL?.trim() || 'http://127.0.0.1:11434/v1',
    // A local Ollama needs no key; a proxy in front of it may.
    ...(apiKey ? { apiKey } : {}),
    model: env.OLLAMA_MODEL?.trim() || 'llama3.1:8b',
  });
}
