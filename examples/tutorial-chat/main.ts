import { createChatAgent } from './agent.js';
import { readChatSettings } from './settings.js';

const settings = readChatSettings();
const runtime = await createChatAgent(settings);
await runtime.start();
console.log(
  `Chat assistant on ${runtime.server.url} (planner ${settings.plannerModel}, writer ${settings.writerModel} at ${settings.baseUrl}); Ctrl+C stops it.`,
);
