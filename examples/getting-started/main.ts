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
await runtime.start();
console.log(`Agent listening on ${runtime.server.url}; press Ctrl+C to stop.`);
