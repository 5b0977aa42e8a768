/**
 * An agent whose only executor hangs and keeps the event loop busy, started with
 * `handleSignals`: the signal test sends it SIGTERM and times how long it takes to exit.
 */
import { Runtime } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { hangWithTimer, pluginOf } from '@weft-internal/test-support/agent-parts';
import { pino } from 'pino';

const hungPlugin = pluginOf({
  id: 'hung',
  description: 'Hangs forever.',
  executors: [{ action: 'hang', description: 'Never finishes.', execute: hangWithTimer }],
});

const runtime = await Runtime.init({
  models: [
    new ScriptedModelProvider({ fallback: { steps: [{ pluginId: 'hung', action: 'hang' }] } }),
  ],
  memory: new InMemoryMemoryProvider(),
  plugins: [hungPlugin],
  options: { handleSignals: true, shutdownTimeoutMs: 300, logger: pino({ level: 'silent' }) },
});
await runtime.start();
void runtime.dispatch({ pluginId: 'hung', triggerId: 'manual', space: 'a' });
setTimeout(() => process.stdout.write('ready\n'), 100);
