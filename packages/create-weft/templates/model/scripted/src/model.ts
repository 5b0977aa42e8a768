import type { ModelProvider } from '@weft/core';
import { createScriptedModel } from './scripted-model.js';

/**
 * The scripted stand-in, so the agent runs with no key and no network. Replace it with a real
 * provider such as `OpenAIModelProvider` from `@weft/model-openai` when you are ready.
 */
export function createModel(_env: NodeJS.ProcessEnv): ModelProvider {
  return createScriptedModel();
}
