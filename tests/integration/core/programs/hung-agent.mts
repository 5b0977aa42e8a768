/**
 * An agent whose only executor hangs and keeps the event loop busy, started with
 * `handleSignals`: the signal test sends it SIGTERM and times how long it takes to exit.
 */
import { Plugin, Runtime, type Executor } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';

class HungPlugin extends Plugin {
  readonly id = 'hung';
  readonly description = 'Hangs forever.';
  override readonly executors: readonly Executor[] = [
    {
      action: 'hang',
      description: 'Never finishes.',
      // A timer that is never cleared keeps the process alive unless the runtime exits it.
      execute: () => new Promise(() => setInterval(() => undefined, 1_000)),
    },
  ];
}

const runtime = await Runtime.init({
  models: [
    new ScriptedModelProvider({ fallback: { steps: [{ pluginId: 'hung', action: 'hang' }] } }),
  ],
  memory: new InMemoryMemoryProvider(),
  plugins: [new HungPlugin()],
  options: { handleSignals: true, shutdownTimeoutMs: 300, logger: pino({ level: 'silent' }) },
});
await runtime.start();
void runtime.dispatch({ pluginId: 'hung', triggerId: 'manual', space: 'a' });
setTimeout(() => process.stdout.write('ready\n'), 100);
