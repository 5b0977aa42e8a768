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
await runtime.start();
console.log(
  `Agent on "${model.id}" listening on ${runtime.server.url}; press Ctrl+C to stop.`,
);
