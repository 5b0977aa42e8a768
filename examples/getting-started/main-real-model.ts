import { WeftError } from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';
import { createAgent } from './agent.js';
import { DEFAULT_PORT } from './port.js';
import { createRealModel } from './real-model.js';

const model = createRealModel();
const runtime = await createAgent({
  model,
  memory: new InMemoryMemoryProvider(),
  // PORT moves it, as in the generated project; 0 picks a free port.
  port: Number(process.env.PORT?.trim() || DEFAULT_PORT),
  // A model server that is down stops the start at once, naming the provider.
  checkHealthOnStart: true,
});
try {
  await runtime.start();
  console.log(
    `Agent on "${model.id}" listening on ${runtime.server.url}; press Ctrl+C to stop.`,
  );
} catch (error) {
  // A model server that is down or a port in use is yours to fix: one line, no stack trace.
  const startFailed = WeftError.is(error, 'WEFT_START_FAILED');
  if (!startFailed && !WeftError.is(error, 'WEFT_LISTEN_FAILED')) throw error;
  const hint = startFailed
    ? ''
    : ' Stop the agent that holds this port, or set PORT to a free one.';
  console.error(`Cannot start the agent. ${error.message}${hint}`);
  process.exitCode = 1;
}
