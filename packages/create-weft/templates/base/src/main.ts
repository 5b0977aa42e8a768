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
  });
  await runtime.start();
  console.log(`Agent listening on ${runtime.server.url}; press Ctrl+C to stop.`);
  console.log(
    `Try: curl -s -X POST ${runtime.server.url}/messages -H 'Content-Type: application/json' -d '{"user":"ada","text":"Hello"}'`,
  );
} catch (error) {
  // A missing key or a bad setting is the user's to fix: say which, without a stack trace.
  if (!(error instanceof SetupError)) throw error;
  console.error(`Cannot start the agent. ${error.message}`);
  process.exitCode = 1;
}
