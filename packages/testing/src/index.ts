export {
  ScriptedModelProvider,
  type ScriptedModelProviderOptions,
  type ScriptedResponse,
} from './scripted-model-provider.js';
export { InMemoryMemoryProvider } from './in-memory-memory-provider.js';
