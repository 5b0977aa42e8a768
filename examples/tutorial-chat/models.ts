import { WeftError } from '@weft/core';
import {
  OpenAIModelProvider,
  type OpenAIModelProviderOptions,
} from '@weft/model-openai';
import { ChatSettingsError, type ChatSettings } from './settings.js';

/** Provider ids, used to choose which model serves which call. */
export const PLANNER_ID = 'planner';
export const WRITER_ID = 'writer';

/**
 * Two providers on the same API: a small model that plans and a larger one that
 * writes the replies. Both offer `text-generation`; the ids tell them apart.
 *
 * @throws {ChatSettingsError} When the provider refuses a setting, such as a
 * CHAT_BASE_URL without `http://`.
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
    provider({
      ...shared,
      id: PLANNER_ID,
      model: settings.plannerModel,
      defaultTemperature: 0,
    }),
    provider({
      ...shared,
      id: WRITER_ID,
      model: settings.writerModel,
      defaultTemperature: 0.7,
    }),
  ];
}

/**
 * A provider whose refused option is reported as the variable that set it: the
 * provider checks the URL and the key (a model name is never empty here).
 */
function provider(options: OpenAIModelProviderOptions): OpenAIModelProvider {
  try {
    return new OpenAIModelProvider(options);
  } catch (error) {
    if (!WeftError.is(error, 'WEFT_OPENAI_INVALID_OPTIONS')) throw error;
    throw new ChatSettingsError(
      `CHAT_BASE_URL or CHAT_API_KEY has a value the provider refuses: ${error.message}`,
    );
  }
}
