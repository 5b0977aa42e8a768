import { InMemoryMemoryProvider } from '@weft/testing';
import { createAgent } from './agent.js';
import { DEFAULT_PORT } from './port.js';
import { createScriptedModel } from './scripted-model.js';

const runtime = await createAgent({
  model: createScriptedModel(),
  memory: new InMemoryMemoryProvider(),
  port: DEFAULT_PORT,
});
await runtime.start();
console.log(`Agent listening on ${runtime.server.url}; press Ctrl+C to stop.`);
