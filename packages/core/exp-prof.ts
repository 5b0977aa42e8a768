import { pino } from 'pino';
import { Plugin, Runtime, type Executor } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
const noop: Executor = { action: 'noop', description: 'noop', execute: async () => ({ success: true }) };
class P extends Plugin { readonly id = 'bench'; readonly description = 'x'; override readonly executors = [noop]; }
const model = new ScriptedModelProvider({ fallback: (m) => (m.at(-1)!.content.startsWith('You plan') ? { steps: Array.from({ length: 21 }, () => ({ pluginId: 'bench', action: 'noop' })) } : { type: 'continue' }) });
const rt = await Runtime.init({ models: [model], memory: new InMemoryMemoryProvider(), plugins: [new P()], options: { maxSteps: 50, logger: pino({ level: 'silent' }) } });
await rt.start();
const t0 = performance.now();
for (let i = 0; i < 300; i++) { await rt.dispatch({ pluginId: 'bench', triggerId: 't', space: `s${i % 50}`, message: 'm' }); model.requests.length = 0; }
console.log('ms/task', (performance.now() - t0) / 300);
await rt.stop();
