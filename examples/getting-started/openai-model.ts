import { OpenAIModelProvider } from '@weft/model-openai';

/**
 * The real model. Pass it to createAgent instead of the scripted one:
 * `createAgent({ model: createOpenAIModel(), memory, port })`.
 */
export function createOpenAIModel(): OpenAIModelProvider {
  return new OpenAIModelProvider({
    baseUrl: 'https://api.openai.com/v1',
    apiKey: () => process.env.OPENAI_API_KEY ?? '',
    model: 'gpt-4o-mini',
  });
}
