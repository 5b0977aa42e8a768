/**
 * Throughput of a group of Weft runtimes that share one PostgreSQL server through
 * `@weft/coordinator-postgres`, with 1, 2 and 4 instances on this machine. The server is real
 * (started in a temporary directory by libs/test-support/postgres-server.ts, as the tests do); each
 * instance is a process of its own (packages/coordinator-postgres/test/support/agent-process.ts)
 * with `scheduler.concurrency` 4, a scripted model, and one step per task that records its run
 * in the database and then waits `--work-ms` milliseconds, standing in for a model call.
 *
 * Tasks are spread over `--spaces` spaces and sent round-robin to the instances (so each space
 * has one home instance, as when a load balancer routes by space), by clients that keep 16
 * requests in flight per instance; the clock runs from the first send to the last task's end. Each run checks that no two runs of
 * a space overlapped. With `--work-ms 0` it measures the coordination's own cost instead.
 *
 * Run with `npm run bench -- coordinator` (`--tasks`, `--spaces`, `--work-ms`, `--instances 1,2,4`).
 * It prints figures and always exits 0 unless a check fails: timings depend on the machine.
 */
import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import {
  AgentProcess,
  type SentTask,
} from '../packages/coordinator-postgres/test/support/agent-processes';
import { overlaps, type RunRow } from '../packages/coordinator-postgres/test/support/runs';
import { createRunsTable } from '../packages/coordinator-postgres/test/support/work-agent';
import { startPostgres } from '@weft-internal/test-support/postgres-server';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '2000' },
    spaces: { type: 'string', default: '200' },
    'work-ms': { type: 'string', default: '50' },
    instances: { type: 'string', default: '1,2,4' },
  },
});
const TASKS = Number(values.tasks);
const SPACES = Number(values.spaces);
const WORK_MS = Number(values['work-ms']);
const GROUPS = (values.instances ?? '1,2,4').split(',').map(Number);
/** Requests each instance has in flight at most. */
const IN_FLIGHT_PER_INSTANCE = 16;

async function runGroup(url: string, instances: number): Promise<number> {
  const schema = `bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await createRunsTable((text) => client.query(text), schema);
  const agents = Array.from(
    { length: instances },
    (_, index) => new AgentProcess({ url, schema, instance: `i${index}` }),
  );
  try {
    await Promise.all(agents.map((agent) => agent.ready));
    const started = performance.now();
    // Clients with a bounded number of requests in flight, as a load balancer would allow.
    let next = 0;
    const outcomes: string[] = [];
    const sender = async (): Promise<void> => {
      while (next < TASKS) {
        const index = next;
        next += 1;
        const task: SentTask = {
          id: `t${index}`,
          space: `space-${index % SPACES}`,
          n: Math.floor(index / SPACES),
          ms: WORK_MS,
        };
        outcomes.push(await (agents[index % instances] as AgentProcess).send(task, 120_000));
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT_PER_INSTANCE * instances }, sender));
    if (outcomes.some((outcome) => outcome !== 'ack')) throw new Error('a task was refused');
    const deadline = Date.now() + 600_000;
    while (agents.reduce((sum, agent) => sum + agent.done.size, 0) < TASKS) {
      if (Date.now() > deadline) throw new Error('tasks did not finish within 10 minutes');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const seconds = (performance.now() - started) / 1000;
    const runs = (await client.query<RunRow>(`SELECT * FROM "${schema}".runs`)).rows;
    if (runs.length !== TASKS) throw new Error(`expected ${TASKS} runs, found ${runs.length}`);
    const overlapping = overlaps(runs, new Date());
    if (overlapping.length > 0) throw new Error(`${overlapping.length} runs of a space overlapped`);
    return TASKS / seconds;
  } finally {
    await Promise.all(agents.map((agent) => agent.stop()));
    await client.end();
  }
}

async function main(): Promise<void> {
  const server = await startPostgres();
  try {
    const url = await server.createDatabase('bench_coordinator');
    console.log(
      `${TASKS} tasks over ${SPACES} spaces, ${WORK_MS} ms of work each, concurrency 4 per instance; ` +
        `PostgreSQL on the same machine (${cpus().length} cores).`,
    );
    const results: { instances: number; perSecond: number }[] = [];
    for (const instances of GROUPS) {
      const perSecond = await runGroup(url, instances);
      results.push({ instances, perSecond });
      console.log(
        `${instances} instance(s): ${perSecond.toFixed(0)} tasks/s (load average ${loadavg()[0]?.toFixed(1)} at the end)`,
      );
    }
    const base = results[0]?.perSecond ?? 1;
    console.log('\ninstances | tasks/s | vs 1 instance');
    for (const { instances, perSecond } of results) {
      console.log(`${instances} | ${perSecond.toFixed(0)} | ${(perSecond / base).toFixed(2)}x`);
    }
  } finally {
    await server.destroy();
  }
}

void main();
