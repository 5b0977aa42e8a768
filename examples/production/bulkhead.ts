import type { Logger } from 'pino';
import {
  Runtime,
  type MemoryProvider,
  type ModelProvider,
  type Plugin,
} from '@weft/core';

/**
 * An agent whose `weather` plugin calls an upstream that sometimes stops
 * answering. Eight workers; no model provider, plugin or memory provider may
 * hold more than six of them, and the weather plugin two: when its upstream
 * hangs, two tasks wait on it and the other six workers keep answering every
 * other space. A third weather step waits for a slot without holding a worker,
 * and fails with WEFT_BULKHEAD_FULL after five seconds.
 */
export function createAgent(parts: {
  model: ModelProvider;
  memory: MemoryProvider;
  plugins: Plugin[];
  logger?: Logger;
  shutdown?: 'drain' | 'cancel';
}): Promise<Runtime> {
  return Runtime.init({
    models: [parts.model],
    memory: parts.memory,
    plugins: parts.plugins,
    options: {
      scheduler: { concurrency: 8 },
      taskTimeoutMs: 60_000,
      bulkhead: {
        maxConcurrent: 6,
        limits: { 'plugin:weather': 2 },
        maxWaitMs: 5_000,
      },
      logger: parts.logger,
      shutdown: parts.shutdown,
    },
  });
}
