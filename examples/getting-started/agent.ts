import { Runtime, type MemoryProvider, type ModelProvider } from '@weft/core';
import type { Logger } from 'pino';
import { AssistantPlugin } from './assistant-plugin.js';

/** Builds the agent: one model, one memory store, one plugin. `start()` runs it. */
export async function createAgent(options: {
  model: ModelProvider;
  memory: MemoryProvider;
  /** The HTTP port; 0 picks a free one. */
  port: number;
  /** The interface to listen on; default 127.0.0.1, `0.0.0.0` in a container. */
  host?: string;
  /** Fail at start, naming the provider, when the model or memory is down. */
  checkHealthOnStart?: boolean;
  /** Where the runtime logs; by default JSON lines on standard output. */
  logger?: Logger;
}): Promise<Runtime> {
  return Runtime.init({
    models: [options.model],
    memory: options.memory,
    plugins: [new AssistantPlugin()],
    options: {
      server: { port: options.port, host: options.host ?? '127.0.0.1' },
      // Ctrl+C and `kill` stop the runtime gracefully: tasks get up to 30 s (`shutdownTimeoutMs`)
      // to finish; under `npm run dev`, tsx's watcher kills the agent after 5 s.
      handleSignals: true,
      checkHealthOnStart: options.checkHealthOnStart ?? false,
      ...(options.logger ? { logger: options.logger } : {}),
    },
  });
}
