/**
 * A runtime given no logger, started and stopped: the logging test reads the lines it writes to
 * standard output.
 */
import { Runtime } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';

const runtime = await Runtime.init({
  models: [new ScriptedModelProvider()],
  memory: new InMemoryMemoryProvider(),
  plugins: [],
});
await runtime.start();
await runtime.stop();
