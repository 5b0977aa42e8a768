import { Runtime, type MemoryProvider, type ModelProvider } from '@weft/core';
import { AssistantPlugin } from './assistant-plugin.js';

/** Builds the agent: one model, one memory store, one plugin. `start()` runs it. */
export async function createAgent(options: {
  model: ModelProvider;
  memory: MemoryProvider;
  port: number;
}): Promise<Runtime> {
  return Runtime.init({
    models: [options.model],
    memory: options.memory,
    plugins: [new AssistantPlugin()],
    options: {
      server: { port: options.port },
      // Ctrl+C and `kill` stop the runtime gracefully: queued tasks finish first.
      handleSignals: true,
    },
  });
}
