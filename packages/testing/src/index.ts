export {
  ScriptedModelProvider,
  type ScriptedModelProviderOptions,
  type ScriptedResponse,
} from './scripted-model-provider.js';
export { InMemoryMemoryProvider } from './in-memory-memory-provider.js';
export {
  memoryProviderContract,
  type MemoryProviderContractCase,
  type MemoryProviderContractFactory,
} from './memory-provider-contract.js';
export {
  INVALID_MEMORY_INPUTS,
  type InvalidMemoryInput,
  type MemoryContractCode,
} from './memory-contract-inputs.js';
export { WeftTestingError, type WeftTestingErrorCode } from './errors.js';
