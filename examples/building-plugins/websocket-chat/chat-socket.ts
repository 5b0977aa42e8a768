import {
  Runtime,
  type MemoryProvider,
  type ModelProvider,
  type RuntimeOptions,
} from '@weft/core';
import { WebSocketPlugin } from '@weft/plugin-websocket';

/**
 * Starts an agent that web and app clients chat with over a websocket. Browsers cannot set
 * headers on a websocket, so the client passes its session token in the URL
 * (`ws://host:3001/ws?token=...`); `sessions` maps tokens to user ids.
 */
export async function startChatSocket(
  model: ModelProvider,
  memory: MemoryProvider,
  sessions: ReadonlyMap<string, string>,
  options: { port?: number; logger?: RuntimeOptions['logger'] } = {},
): Promise<{ runtime: Runtime; chat: WebSocketPlugin }> {
  const chat = new WebSocketPlugin({
    port: options.port ?? 3001,
    // The pages allowed to connect; apps and servers send no Origin and go on to authenticate.
    allowedOrigins: ['https://chat.example.com'],
    // Runs before the upgrade is accepted: an unknown token gets 401 and no websocket.
    authenticate: (request) => {
      const token = new URL(
        request.url ?? '/',
        'http://localhost',
      ).searchParams.get('token');
      const user = token === null ? undefined : sessions.get(token);
      return user === undefined ? false : { user };
    },
    taskTimeoutMs: 60_000,
  });
  const runtime = await Runtime.init({
    models: [model],
    memory,
    plugins: [chat],
    options: { logger: options.logger },
  });
  await runtime.start();
  return { runtime, chat };
}
