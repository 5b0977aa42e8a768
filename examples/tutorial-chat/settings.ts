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

/** A setting the reader has to fix; `main.ts` prints its message alone, without a stack trace. */
export class ChatSettingsError extends Error {
  override name = 'ChatSettingsError';
}

/**
 * Reads the settings from environment variables, falling back to a local Ollama.
 * A variable set to an empty value counts as unset, so `CHAT_PORT=` does not
 * turn into port 0.
 *
 * @throws {ChatSettingsError} When CHAT_PORT is not a port number.
 */
export function readChatSettings(
  env: NodeJS.ProcessEnv = process.env,
): ChatSettings {
  const read = (name: string, fallback: string): string =>
    env[name]?.trim() || fallback;
  const rawPort = read('CHAT_PORT', String(DEFAULT_PORT));
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65535) {
    throw new ChatSettingsError(
      `CHAT_PORT: expected an integer from 0 to 65535, got ${JSON.stringify(rawPort)}; unset it to use ${DEFAULT_PORT}.`,
    );
  }
  return {
    baseUrl: read('CHAT_BASE_URL', 'http://localhost:11434/v1'),
    apiKey: read('CHAT_API_KEY', ''),
    plannerModel: read('CHAT_PLANNER_MODEL', 'llama3.2:3b'),
    writerModel: read('CHAT_WRITER_MODEL', 'llama3.1:8b'),
    databasePath: read('CHAT_DB', './chat-memory.db'),
    port,
  };
}
