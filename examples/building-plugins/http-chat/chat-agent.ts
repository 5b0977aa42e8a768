import { Runtime, type MemoryProvider, type ModelProvider } from '@weft/core';
import { ChatPlugin } from '@weft/plugin-chat';
import type { Logger } from 'pino';

/** Where the agent takes chat messages: `POST /chat`. */
export const CHAT_PATH = '/chat';

/** The chat plugin of this agent, with its route at {@link CHAT_PATH}. */
export function createChatPlugin(): ChatPlugin {
  return new ChatPlugin({ path: CHAT_PATH });
}

/**
 * Starts an agent that answers chat messages over HTTP. The reply is sent once the whole task
 * has run, so `taskTimeoutMs` is also the longest a client waits for it: past it the task
 * fails and the route answers 502.
 */
export async function startChatAgent(
  model: ModelProvider,
  memory: MemoryProvider,
  options: { port?: number; taskTimeoutMs?: number; logger?: Logger } = {},
): Promise<Runtime> {
  const runtime = await Runtime.init({
    models: [model],
    memory,
    plugins: [createChatPlugin()],
    options: {
      server: { port: options.port ?? 3000 },
      taskTimeoutMs: options.taskTimeoutMs ?? 60_000,
      logger: options.logger,
    },
  });
  await runtime.start();
  return runtime;
}
