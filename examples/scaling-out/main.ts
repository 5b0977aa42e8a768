/**
 * One instance of the support agent of the Scaling out guide. Run as many as you like against one
 * PostgreSQL database; each takes its settings from the environment:
 *
 * - `DATABASE_URL` (required): the database every instance shares.
 * - `PORT` (default 8787) and `HOST` (default 127.0.0.1; 0.0.0.0 in a container).
 * - `INSTANCE` (default the host name and port): names this instance in its answers and logs.
 * - `WORK_MS` (default 2000): how long answering a message takes, standing in for a model call.
 *
 * From a clone of the repository: `npm run example:scaling-out`.
 */
import { WeftError } from '@weft/core';
import { ScriptedModelProvider } from '@weft/testing';
import { startInstance } from './instance.js';
import { readSettings, SettingsError } from './settings.js';
import { TicketsPlugin } from './tickets-plugin.js';

/**
 * Plans every task as one `answer` step, without a model server or key. Put your own model
 * provider here (such as OpenAIModelProvider from @weft/model-openai); nothing else changes.
 */
function planner(): ScriptedModelProvider {
  return new ScriptedModelProvider({
    fallback: (_messages, request) =>
      request.purpose === 'plan'
        ? { steps: [{ pluginId: 'support', action: 'answer' }] }
        : { type: 'stop' },
  });
}

try {
  const settings = readSettings(process.env);
  const runtime = await startInstance({
    databaseUrl: settings.databaseUrl,
    models: [planner()],
    plugins: [new TicketsPlugin(settings)],
    options: {
      server: { port: settings.port, host: settings.host },
      // Ctrl+C and `docker stop` drain: queued tasks finish before the process exits.
      handleSignals: true,
    },
  });
  console.log(
    `Instance ${settings.instance} (pid ${process.pid}) listening on ${runtime.server.url}`,
  );
} catch (error) {
  // A wrong setting, a database that does not answer, a port in use: one line, no stack.
  const forTheUser =
    error instanceof SettingsError ||
    WeftError.is(error, 'WEFT_START_FAILED') ||
    WeftError.is(error, 'WEFT_LISTEN_FAILED');
  if (!forTheUser) throw error;
  console.error(`Cannot start the instance. ${(error as Error).message}`);
  process.exitCode = 1;
}
