/**
 * An agent started with `handleSignals` whose plugin takes 500 ms to shut down: it writes
 * `ready` once started, `stopping` as the plugin's shutdown begins and `stopped` as it ends. The
 * signal test sends it SIGINT, then a copy of it during the stop, as a supervisor forwards one.
 */
import { Plugin, Runtime } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';

class SlowStopPlugin extends Plugin {
  readonly id = 'slow-stop';
  readonly description = 'Takes a while to shut down.';

  override async shutdown(): Promise<void> {
    process.stdout.write('stopping\n');
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.stdout.write('stopped\n');
  }
}

// As a real agent's server would, something keeps the process alive until the runtime ends it.
setInterval(() => undefined, 1_000);

const runtime = await Runtime.init({
  models: [new ScriptedModelProvider()],
  memory: new InMemoryMemoryProvider(),
  plugins: [new SlowStopPlugin()],
  options: { handleSignals: true, logger: pino({ level: 'silent' }) },
});
await runtime.start();
process.stdout.write('ready\n');
