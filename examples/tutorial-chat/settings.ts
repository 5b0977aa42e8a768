import { DEFAULT_PORT } from '../getting-started/port.js';

/**
 * Where the tutorial's agent finds its model and its database, read once from the
 * environment. Every value has a default that suits a local Ollama server.
 */
export interface ChatSettings {
  /** The chat-completions API, up to and including `/v1`. */
  baseUrl: string;
  /** The API key; empty for servers that need none, such as Ollama. */
  apiKey: string;
  /** The model that plans each task: it only has to pick a step and answer JSON. */
  plannerModel: string;
  /** The model that writes the replies the user reads. */
  writerModel: string;
  /** The SQLite file that keeps every conversation. */
  databasePath: string;
  /** The HTTP port; 0 picks a free one. */
  port: number;
}

/** Reads the settings from environment variables, falling back to a local Ollama. */
export function readChatSettings(
  env: NodeJS.ProcessEnv = process.env,
): ChatSettings {
  const port = Number(env.CHAT_PORT ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(
      `CHAT_PORT: expected an integer from 0 to 65535, got ${JSON.stringify(env.CHAT_PORT)}; unset it to use ${DEFAULT_PORT}.`,
    );
  }
  return {
    baseUrl: env.CHAT_BASE_URL ?? 'http://localhost:11434/v1',
    apiKey: env.CHAT_API_KEY ?? '',
    plannerModel: env.CHAT_PLANNER_MODEL ?? 'llama3.2:3b',
    writerModel: env.CHAT_WRITER_MODEL ?? 'llama3.1:8b',
    databasePath: env.CHAT_DB ?? './chat-memory.db',
    port,
  };
}
