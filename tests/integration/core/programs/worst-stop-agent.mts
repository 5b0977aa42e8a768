/**
 * An agent in which every part a stop waits for hangs at once, started with `handleSignals`: its
 * executor never settles and keeps a timer running, the memory store never stores a chain and
 * never shuts down, a request to its route never gets an answer, and its plugin never shuts
 * down. The signal test sends it SIGTERM and reads from its log how long each phase of the stop
 * took. It logs JSON to stdout and writes `ready` once the task and the request are hanging.
 */
import { Plugin, Runtime, type Executor, type Memory, type TriggerRoute } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';

const never = () => new Promise<never>(() => undefined);

let executing = false;
let requested = false;

class HangingPlugin extends Plugin {
  readonly id = 'hung';
  readonly description = 'Hangs in every way a stop waits for.';
  override readonly executors: readonly Executor[] = [
    {
      action: 'hang',
      description: 'Never finishes.',
      execute: () => {
        executing = true;
        // A timer that is never cleared keeps the process alive unless the runtime exits it.
        setInterval(() => undefined, 1_000);
        return never();
      },
    },
  ];
  override readonly triggers: readonly TriggerRoute[] = [
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
  ];
  override shutdown(): Promise<void> {
    return never();
  }
}

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
  plugins: [new HangingPlugin()],
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
