import {
  Runtime,
  type MemoryProvider,
  type ModelProvider,
  type RuntimeOptions,
} from '@weft/core';
import { ChatPlugin, type ChatPluginOptions } from '@weft/plugin-chat';

/** Where the agent takes chat messages: `POST /chat`. */
export const CHAT_PATH = '/chat';

/**
 * The chat plugin's options: its route, and who is asking. Each client sends its token as
 * `Authorization: Bearer <token>`; `tokens` maps tokens to user ids, and the user a token
 * names is the sender, whatever the body's `user` says. An unknown token gets 401.
 */
export function chatPluginOptions(
  tokens: ReadonlyMap<string, string>,
): ChatPluginOptions {
  return {
    path: CHAT_PATH,
    authenticate: (request) => {
      const header = request.headers.authorization ?? '';
      const token = header.startsWith('Bearer ') ? header.slice(7) : '';
      const user = tokens.get(token);
      return user === undefined ? false : { user };
    },
  };
}

/** The chat plugin of this agent, with its route at {@link CHAT_PATH}. */
export function createChatPlugin(
  tokens: ReadonlyMap<string, string>,
): ChatPlugin {
  return new ChatPlugin(chatPluginOptions(tokens));
}

/**
 * Starts an agent that answers chat messages over HTTP. The reply is sent once the whole task
 * has run. `taskTimeoutMs` bounds the task from when it leaves the queue: past it the task
 * fails and the route answers 502, or 200 with status `failed` when a reply step had already
 * succeeded. A message may first wait behind others in the queue, so a client keeps a deadline
 * of its own.
 */
export async function startChatAgent(
  model: ModelProvider,
  memory: MemoryProvider,
  tokens: ReadonlyMap<string, string>,
  options: {
    port?: number;
    taskTimeoutMs?: number;
    logger?: RuntimeOptions['logger'];
  } = {},
): Promise<Runtime> {
  const runtime = await Runtime.init({
    models: [model],
    memory,
    plugins: [createChatPlugin(tokens)],
    options: {
      server: { port: options.port ?? 3000 },
      taskTimeoutMs: options.taskTimeoutMs ?? 60_000,
      logger: options.logger,
    },
  });
  await runtime.start();
  return runtime;
}
