import { WeftError } from '@weft/core';
import { createAgent } from './agent.js';
import { loadEnvFile, readPort, SetupError } from './env.js';
import { createMemory } from './memory.js';
import { createModel } from './model.js';

loadEnvFile();

try {
  const runtime = await createAgent({
    model: createModel(process.env),
    memory: createMemory(process.env),
    port: readPort(process.env),
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
  // A missing key, a bad setting or a model that is not running is the user's to fix: say
  // which, without a stack trace.
  if (!(error instanceof SetupError) && !WeftError.is(error, 'WEFT_START_FAILED')) throw error;
  console.error(`Cannot start the agent. ${error.message}`);
  process.exitCode = 1;
}
