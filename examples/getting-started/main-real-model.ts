import { createAgent } from './agent.js';
import { createRealModel } from './real-model.js';

const model = createRealModel();
const runtime = await createAgent({ model });
await runtime.start();
console.log(
  `Agent on "${model.id}" listening on ${runtime.server.url}; press Ctrl+C to stop.`,
);
