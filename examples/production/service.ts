import { serverOf } from '@weft/core/node';
import type { Logger } from 'pino';
import { createChatAgent } from '../tutorial-chat/agent.js';
import { readChatSettings } from '../tutorial-chat/settings.js';
import { requireBearerToken } from './bearer-auth.js';
import { addHealthRoutes } from './health.js';

/**
 * The tutorial's chat assistant, ready for a server: triggers need a token,
 * probes do not. Middleware and routes must be added before `start()`, which
 * mounts the plugins' routes and the final 404 handler.
 */
export async function startService(
  env: NodeJS.ProcessEnv = process.env,
  logger?: Logger,
) {
  const token = env.CHAT_API_TOKEN;
  if (!token) {
    throw new Error(
      'CHAT_API_TOKEN: set a token of at least 32 characters for clients to send.',
    );
  }
  const runtime = await createChatAgent(readChatSettings(env), logger);
  serverOf(runtime).app.use('/conversations', requireBearerToken(token));
  addHealthRoutes(runtime);
  await runtime.start();
  runtime.logger.info({ url: runtime.server.url }, 'chat service ready');
  return runtime;
}
