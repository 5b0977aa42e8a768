/**
 * A work agent in a process of its own, for the fail-over test and the benchmark. Settings come
 * from the environment (WEFT_PG_URL, WEFT_SCHEMA, WEFT_INSTANCE, WEFT_CONCURRENCY,
 * WEFT_SWEEP_MS). It reads one JSON task a line on stdin, `{ "id", "space", "n", "ms" }`, and
 * writes `{ "ack": id, "taskId" }` once the task is recorded in PostgreSQL (or `{ "nack": id, "code" }`),
 * `{ "done": id }` when it has run here, and `{ "tookOver": id }` when it takes over a task of
 * a process that died.
 *
 * Run: node --conditions=weft-source --import tsx agent-process.ts
 */
import { createInterface } from 'node:readline';
import { startWorkAgent } from './work-agent.js';

function write(line: object): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

const agent = await startWorkAgent({
  connectionString: requireEnv('WEFT_PG_URL'),
  schema: requireEnv('WEFT_SCHEMA'),
  instance: requireEnv('WEFT_INSTANCE'),
  concurrency: Number(process.env.WEFT_CONCURRENCY ?? 4),
  coordinator: {
    sweepIntervalMs: Number(process.env.WEFT_SWEEP_MS ?? 1000),
    // Tells the parent when this process took a task of a dead one over.
    logger: {
      info: (details: { taskId?: string }, message: string) => {
        if (message === 'taking over a task') write({ tookOver: details.taskId });
      },
      warn: (details, message) => process.stderr.write(`${message} ${JSON.stringify(details)}\n`),
      error: (details, message) => process.stderr.write(`${message} ${JSON.stringify(details)}\n`),
    },
  },
});
write({ ready: agent.coordinator.instance });

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const task = JSON.parse(line) as { id: string; space: string; n: number; ms: number };
  agent.runtime
    .accept({
      pluginId: 'work',
      triggerId: 'task',
      space: task.space,
      data: { n: task.n, ms: task.ms },
      metadata: { requestId: task.id },
    })
    .then(
      ({ taskId, done }) => {
        write({ ack: task.id, taskId });
        return done.then(() => write({ done: task.id }));
      },
      (error: { code?: string }) => write({ nack: task.id, code: error.code ?? 'unknown' }),
    )
    .catch(() => undefined);
});
lines.on('close', () => {
  void agent.stop().then(() => process.exit(0));
});

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`agent-process: set ${name}`);
  return value;
}
