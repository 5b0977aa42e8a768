import { Runtime, type MemoryProvider, type ModelProvider } from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';
import type { Logger } from 'pino';
import { AssistantPlugin } from './assistant-plugin.js';

/** Builds the agent: one model, one memory store, one plugin. */
export async function createAgent(options: {
  model: ModelProvider;
  memory?: MemoryProvider;
  port?: number;
  logger?: Logger;
}): Promise<Runtime> {
  return Runtime.init({
    models: [options.model],
    memory: options.memory ?? new InMemoryMemoryProvider(),
    plugins: [new AssistantPlugin()],
    options: {
      server: { port: options.port ?? 3000 },
      handleSignals: true,
      ...(options.logger ? { logger: options.logger } : {}),
    },
  });
}
