/**
 * An agent in which every part a stop waits for hangs at once, started with `handleSignals`: its
 * executor never settles and keeps a timer running, the memory store never stores a chain and
 * never shuts down, a request to its route never gets an answer, and its plugin never shuts
 * down. The signal test sends it SIGTERM and reads from its log how long each phase of the stop
 * took. It logs JSON to stdout and writes `ready` once the task and the request are hanging.
 */
import { Runtime, type Memory } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { hangWithTimer, pluginOf } from '@weft-internal/test-support/agent-parts';
import { pino } from 'pino';

const never = () => new Promise<never>(() => undefined);

let executing = false;
let requested = false;

const hangingPlugin = pluginOf({
  id: 'hung',
  description: 'Hangs in every way a stop waits for.',
  executors: [
    {
      action: 'hang',
      description: 'Never finishes.',
      execute: () => {
        executing = true;
        return hangWithTimer();
      },
    },
  ],
  triggers: [
    {
      type: 'route',
      id: 'hang',
      method: 'GET',
      path: '/hang',
      handler: () => {
        requested = true;
        return never();
      },
    },
  ],
  shutdown: never,
});

/** Stores everything but a task's chain, and never shuts down. */
class HangingMemory extends InMemoryMemoryProvider {
  override store(memory: Parameters<InMemoryMemoryProvider['store']>[0]): Promise<Memory> {
    return memory.kind === 'chain' ? never() : super.store(memory);
  }
  override shutdown(): Promise<void> {
    return never();
  }
}

const runtime = await Runtime.init({
  models: [
    new ScriptedModelProvider({ fallback: { steps: [{ pluginId: 'hung', action: 'hang' }] } }),
  ],
  memory: new HangingMemory(),
  plugins: [hangingPlugin],
  options: {
    handleSignals: true,
    shutdownTimeoutMs: 200,
    server: { port: 0 },
    logger: pino({ level: 'info' }),
  },
});
await runtime.start();
void runtime.dispatch({ pluginId: 'hung', triggerId: 'manual', space: 'a' });
// The server closes this request's connection when it stops; the failed fetch is expected.
fetch(`${runtime.server.url}/hang`).catch(() => undefined);
const ready = setInterval(() => {
  if (!executing || !requested) return;
  clearInterval(ready);
  process.stdout.write('ready\n');
}, 20);
