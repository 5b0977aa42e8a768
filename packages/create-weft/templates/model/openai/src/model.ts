import { WeftError, type ModelProvider } from '@weft/core';
import { OpenAIModelProvider } from '@weft/model-openai';
import { SetupError } from './env.js';

/** The OpenAI model, configured from the environment (see .env.example). */
export function createModel(env: NodeJS.ProcessEnv): ModelProvider {
  const apiKey = env.OPENAI_API_KEY?.trim();
  if (!apiKey) {
    throw new SetupError(
      'OPENAI_API_KEY is not set; copy .env.example to .env and put your key in it, or export it in your shell.',
    );
  }
  try {
    return new OpenAIModelProvider({
      baseUrl: env.OPENAI_BASE_URL?.trim() || 'https://api.openai.com/v1',
      apiKey,
      model: env.OPENAI_MODEL?.trim() || 'gpt-4o-mini',
    });
  } catch (error) {
    // The provider names its option; the user set a variable, such as a URL without https://.
    if (!WeftError.is(error, 'WEFT_OPENAI_INVALID_OPTIONS')) throw error;
    throw new SetupError(
      `OPENAI_BASE_URL, OPENAI_API_KEY or OPENAI_MODEL (the options baseUrl, apiKey and model) has a value the provider refuses: ${error.message}`,
    );
  }
}
