/**
 * The browser build of `@weft/testing` (the `browser` export condition): the scripted model and
 * the in-memory memory provider, which run a task in a page without a model service or a
 * database. `memoryProviderContract` is left out: it asserts with `node:assert` inside a Node
 * test runner, and a page has neither.
 */
export {
  ScriptedModelProvider,
  type ScriptedModelProviderOptions,
  type ScriptedResponse,
} from './scripted-model-provider.js';
export { InMemoryMemoryProvider } from './in-memory-memory-provider.js';
export { WeftTestingError, type WeftTestingErrorCode } from './errors.js';
