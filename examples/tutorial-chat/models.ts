import { OpenAIModelProvider } from '@weft/model-openai';
import type { ChatSettings } from './settings.js';

/** Provider ids, used to choose which model serves which call. */
export const PLANNER_ID = 'planner';
export const WRITER_ID = 'writer';

/**
 * Two providers on the same API: a small model that plans and a larger one that
 * writes the replies. Both offer `text-generation`; the ids tell them apart.
 */
export function createChatModels(
  settings: ChatSettings,
): OpenAIModelProvider[] {
  const shared = {
    baseUrl: settings.baseUrl,
    // An empty key sends no Authorization header, which is what Ollama expects.
    ...(settings.apiKey === '' ? {} : { apiKey: settings.apiKey }),
  };
  return [
    new OpenAIModelProvider({
      ...shared,
      id: PLANNER_ID,
      model: settings.plannerModel,
      defaultTemperature: 0,
    }),
    new OpenAIModelProvider({
      ...shared,
      id: WRITER_ID,
      model: settings.writerModel,
      defaultTemperature: 0.7,
    }),
  ];
}
