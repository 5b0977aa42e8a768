import { InMemoryMemoryProvider } from '@weft/testing';
import { createAgent } from './agent.js';
import { createScriptedModel } from './scripted-model.js';

const runtime = await createAgent({
  model: createScriptedModel(),
  memory: new InMemoryMemoryProvider(),
  port: 3000,
});
await runtime.start();
console.log(`Agent listening on ${runtime.server.url}; press Ctrl+C to stop.`);
