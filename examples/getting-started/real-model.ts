import { OpenAIModelProvider } from '@weft/model-openai';

/**
 * A real model, chosen from the environment. With OPENAI_API_KEY set, it is OpenAI (or any
 * server at OPENAI_BASE_URL that speaks the same protocol); without it, a local Ollama, which
 * needs no key. OPENAI_MODEL and OLLAMA_MODEL name the model.
 */
export function createRealModel(
  env: NodeJS.ProcessEnv = process.env,
): OpenAIModelProvider {
  const apiKey = env.OPENAI_API_KEY;
  if (apiKey) {
    return new OpenAIModelProvider({
      baseUrl: env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
      apiKey,
      model: env.OPENAI_MODEL ?? 'gpt-4o-mini',
    });
  }
  return new OpenAIModelProvider({
    id: 'ollama',
    baseUrl: env.OLLAMA_BASE_URL ?? 'http://127.0.0.1:11434/v1',
    model: env.OLLAMA_MODEL ?? 'llama3.1:8b',
  });
}
