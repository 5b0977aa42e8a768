/**
 * A process for tests/integration/crash-restart.test.ts to kill mid-task: an agent on SQLite
 * whose one executor never finishes. It prints `listening <url>` once started, `dispatching`
 * as each request reaches its route, and `started` when the executor runs.
 *
 * Run: node --conditions=weft-source --import tsx tests/integration/crash-child.mts <db file>
 */
import { Plugin, Runtime, type Executor, type Trigger } from '@weft/core';
import { SqliteMemoryProvider } from '@weft/memory-sqlite';
import { ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';

const [file] = process.argv.slice(2);
if (!file) throw new Error('crash-child: give the SQLite file as the first argument');

class HangingPlugin extends Plugin {
  readonly id = 'work';
  readonly description = 'Starts work that never ends.';
  override readonly executors: Executor[] = [
    {
      action: 'hang',
      description: 'Never finishes.',
      execute: () => {
        process.stdout.write('started\n');
        return new Promise(() => undefined);
      },
    },
  ];
  override readonly triggers: Trigger[] = [
    {
      type: 'route',
      id: 'run',
      method: 'POST',
      path: '/run',
      async handler(_request, response, runtime) {
        process.stdout.write('dispatching\n');
        const task = await runtime.dispatch({
          pluginId: 'work',
          triggerId: 'run',
          space: 'crash',
          message: 'go',
        });
        response.json({ status: task.status });
      },
    },
  ];
}

const runtime = await Runtime.init({
  models: [
    new ScriptedModelProvider({ fallback: { steps: [{ pluginId: 'work', action: 'hang' }] } }),
  ],
  memory: new SqliteMemoryProvider({ path: file }),
  plugins: [new HangingPlugin()],
  options: { server: { port: 0 }, logger: pino({ level: 'silent' }) },
});
await runtime.start();
process.stdout.write(`listening ${runtime.server.url}\n`);
