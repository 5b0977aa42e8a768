import { Runtime } from '@weft/core';
import { SqliteMemoryProvider } from '@weft/memory-sqlite';
import type { Logger } from 'pino';
import { ConversationPlugin } from './conversation-plugin.js';
import { createChatModels, PLANNER_ID, WRITER_ID } from './models.js';
import type { ChatSettings } from './settings.js';

/** Builds the chat assistant: two models, SQLite memory, one plugin. */
export async function createChatAgent(
  settings: ChatSettings,
  logger?: Logger,
): Promise<Runtime> {
  return Runtime.init({
    models: createChatModels(settings),
    memory: new SqliteMemoryProvider({ path: settings.databasePath }),
    plugins: [new ConversationPlugin({ writerProvider: WRITER_ID })],
    options: {
      // Calls that name no provider, planning among them, go to the planner.
      defaultProviders: { 'text-generation': PLANNER_ID },
      // Review only after a failed step, even when the planner plans several.
      pipelineReview: 'on-failure',
      server: { port: settings.port },
      handleSignals: true,
      ...(logger ? { logger } : {}),
    },
  });
}
