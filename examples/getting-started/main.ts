import { WeftError } from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';
import { createAgent } from './agent.js';
import { DEFAULT_PORT } from './port.js';
import { createScriptedModel } from './scripted-model.js';

const runtime = await createAgent({
  model: createScriptedModel(),
  memory: new InMemoryMemoryProvider(),
  // PORT moves it, as in the generated project; 0 picks a free port.
  port: Number(process.env.PORT?.trim() || DEFAULT_PORT),
});
try {
  await runtime.start();
  console.log(
    `Agent listening on ${runtime.server.url}; press Ctrl+C to stop.`,
  );
} catch (error) {
  // A port another agent holds is yours to fix: one line, no stack trace.
  if (!WeftError.is(error, 'WEFT_LISTEN_FAILED')) throw error;
  console.error(
    `Cannot start the agent. ${error.message} Stop the agent that holds this port, or set PORT to a free one.`,
  );
  process.exitCode = 1;
}
