import { WeftError } from '@weft/core';
import { createAgent } from './agent.js';
import { loadEnvFile, readHost, readPort, SetupError } from './env.js';
import { createMemory } from './memory.js';
import { createModel } from './model.js';

loadEnvFile();

try {
  const runtime = await createAgent({
    model: createModel(process.env),
    memory: createMemory(process.env),
    port: readPort(process.env),
    host: readHost(process.env),
    // A model server that is down or refuses the key stops the start here, naming it, instead
    // of failing the first message. Set it to false for a server without `GET /models`.
    checkHealthOnStart: true,
  });
  await runtime.start();
  console.log(`Agent listening on ${runtime.server.url}; press Ctrl+C to stop.`);
  console.log(
    `Try: curl -s -X POST ${runtime.server.url}/messages -H 'Content-Type: application/json' -d '{"user":"ada","text":"Hello"}'`,
  );
} catch (error) {
  if (!isForTheUser(error)) throw error;
  // A port another program holds is the usual cause; say which setting moves the agent.
  const hint = WeftError.is(error, 'WEFT_LISTEN_FAILED')
    ? ' Set PORT in .env to a free port, or stop the program that holds this one.'
    : '';
  console.error(`Cannot start the agent. ${error.message}${hint}`);
  process.exitCode = 1;
}

/**
 * A missing key, a bad setting, a model server that does not answer or a port in use: the
 * user's to fix, so said in one line, without a stack trace.
 */
function isForTheUser(error: unknown): error is Error {
  return (
    error instanceof SetupError ||
    WeftError.is(error, 'WEFT_START_FAILED') ||
    WeftError.is(error, 'WEFT_LISTEN_FAILED')
  );
}
