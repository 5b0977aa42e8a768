import { WeftError, type ModelProvider } from '@weft/core';
import { OpenAIModelProvider } from '@weft/model-openai';
import { SetupError } from './env.js';

/** A model served by Ollama's OpenAI-compatible API, configured from the environment. */
export function createModel(env: NodeJS.ProcessEnv): ModelProvider {
  const apiKey = env.OLLAMA_API_KEY?.trim();
  try {
    return new OpenAIModelProvider({
      id: 'ollama',
      baseUrl: env.OLLAMA_BASE_URL?.trim() || 'http://127.0.0.1:11434/v1',
      // A local Ollama needs no key; a proxy in front of it may.
      ...(apiKey ? { apiKey } : {}),
      model: env.OLLAMA_MODEL?.trim() || 'llama3.1:8b',
    });
  } catch (error) {
    // The provider names its option; the user set a variable, such as a URL without http://.
    if (!WeftError.is(error, 'WEFT_OPENAI_INVALID_OPTIONS')) throw error;
    throw new SetupError(
      `OLLAMA_BASE_URL, OLLAMA_API_KEY or OLLAMA_MODEL (the options baseUrl, apiKey and model) has a value the provider refuses: ${error.message}`,
    );
  }
}
