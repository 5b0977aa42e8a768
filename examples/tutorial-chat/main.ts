import { WeftError } from '@weft/core';
import { createChatAgent } from './agent.js';
import { ChatSettingsError, readChatSettings } from './settings.js';

try {
  const settings = readChatSettings();
  const runtime = await createChatAgent(settings);
  await runtime.start();
  console.log(
    `Chat assistant on ${runtime.server.url} (planner ${settings.plannerModel}, writer ${settings.writerModel} at ${settings.baseUrl}); Ctrl+C stops it.`,
  );
} catch (error) {
  // A bad setting, a database that cannot be opened or a port in use: yours to fix, so said in
  // one line, without a stack trace. Anything else is a bug and keeps its trace.
  if (!isForTheUser(error)) throw error;
  console.error(
    `Cannot start the chat assistant. ${error.message}${hintFor(error)}`,
  );
  process.exitCode = 1;
}

function isForTheUser(error: unknown): error is Error {
  return (
    error instanceof ChatSettingsError ||
    WeftError.is(error, 'WEFT_START_FAILED') ||
    WeftError.is(error, 'WEFT_LISTEN_FAILED')
  );
}

/** Which setting to change, when the message alone does not say. */
function hintFor(error: Error): string {
  if (WeftError.is(error, 'WEFT_LISTEN_FAILED')) {
    const { code } = (error.cause ?? {}) as NodeJS.ErrnoException;
    if (code === 'EADDRINUSE') {
      return ' Stop the agent that holds this port (the Getting started one, say), or set CHAT_PORT to a free one.';
    }
    // Not held but refused: a port below 1024 needs privileges on most systems.
    return ' Set CHAT_PORT to a port this user may listen on (1024 or above on most systems), or to 0 for a free one.';
  }
  if (
    WeftError.is(error.cause, 'WEFT_SQLITE_OPEN_FAILED') ||
    WeftError.is(error.cause, 'WEFT_SQLITE_MIGRATION_FAILED') ||
    WeftError.is(error.cause, 'WEFT_SQLITE_SCHEMA_TOO_NEW')
  ) {
    // A missing folder and a file that is no database of this agent all end here: one that is
    // no SQLite file cannot be opened, a SQLite file of another program with a table of the same
    // name cannot take this agent's schema, and one whose own schema version is above this
    // agent's (many programs set one) reads as written by a newer @weft/memory-sqlite.
    return ' Set CHAT_DB to a database file of this agent, or to a new file in a folder that exists.';
  }
  return '';
}
