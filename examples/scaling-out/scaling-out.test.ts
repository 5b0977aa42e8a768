/**
 * The Scaling out guide's examples: two instances started by startInstance share a real
 * PostgreSQL server, a webhook's tasks sent to both run one at a time in the order they were
 * accepted, and the compose file wires the agents to the database it starts.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import {
  Plugin,
  type AgentTask,
  type Executor,
  type Runtime,
} from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parse } from 'yaml';
import { optionsSchema } from '../../packages/core/src/runtime/options-schema.js';
import {
  startPostgres,
  type PostgresServer,
} from '@weft-internal/test-support/postgres-server';
import { acceptWebhook, startInstance } from './instance.js';
import { TicketsPlugin } from './tickets-plugin.js';

let server: PostgresServer;
let databaseUrl = '';

beforeAll(async () => {
  server = await startPostgres();
  databaseUrl = await server.createDatabase('scaling_out');
}, 120_000);

afterAll(async () => {
  await server?.destroy();
}, 120_000);

/** A model that plans `support.answer` for every task and stops at its review. */
function planner(): ScriptedModelProvider {
  return new ScriptedModelProvider({
    fallback: (_messages, request) =>
      request.purpose === 'plan'
        ? { steps: [{ pluginId: 'support', action: 'answer' }] }
        : { type: 'stop' },
  });
}

class SupportPlugin extends Plugin {
  readonly id = 'support';
  readonly description = 'Answers support tickets.';
  override readonly executors: readonly Executor[];

  constructor(log: { text: string; start: number; end: number }[]) {
    super();
    this.executors = [
      {
        action: 'answer',
        description: 'Answers the ticket.',
        async execute(task: AgentTask) {
          const start = Date.now();
          await new Promise((resolve) => setTimeout(resolve, 20));
          log.push({
            text: task.trigger.message ?? '',
            start,
            end: Date.now(),
          });
          return { success: true };
        },
      },
    ];
  }
}

it('runs a ticket’s webhooks, sent to two instances, one at a time in the order they were accepted [claim:scaling-accept]', async () => {
  const log: { text: string; start: number; end: number }[] = [];
  const instances: Runtime[] = [];
  try {
    for (let index = 0; index < 2; index += 1) {
      instances.push(
        await startInstance({
          databaseUrl,
          models: [
            new ScriptedModelProvider({
              fallback: (_messages, request) =>
                request.purpose === 'plan'
                  ? { steps: [{ pluginId: 'support', action: 'answer' }] }
                  : { type: 'stop' },
            }),
          ],
          memory: new InMemoryMemoryProvider(),
          plugins: [new SupportPlugin(log)],
        }),
      );
    }
    const answers = [];
    for (let n = 0; n < 6; n += 1) {
      answers.push(
        await acceptWebhook(
          instances[n % 2] as Runtime,
          '1042',
          `message ${n}`,
        ),
      );
    }
    expect(answers.every((answer) => answer.status === 202)).toBe(true);
    const deadline = Date.now() + 30_000;
    while (log.length < 6 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log.map((entry) => entry.text)).toEqual(
      [0, 1, 2, 3, 4, 5].map((n) => `message ${n}`),
    );
    for (let i = 1; i < log.length; i += 1) {
      expect(log[i]!.start).toBeGreaterThanOrEqual(log[i - 1]!.end);
    }
  } finally {
    await Promise.all(instances.map((runtime) => runtime.stop()));
  }
}, 60_000);

it('plans a space’s task on one instance with the history the other instance wrote to the shared PostgreSQL memory [claim:scaling-history-shared]', async () => {
  const models = [planner(), planner()];
  const instances: Runtime[] = [];
  try {
    // No memory given: startInstance's PostgreSQL memory on the shared database.
    for (const model of models) {
      instances.push(
        await startInstance({
          databaseUrl,
          models: [model],
          plugins: [new SupportPlugin([])],
        }),
      );
    }
    const [first, second] = instances as [Runtime, Runtime];
    const event = (message: string) => ({
      pluginId: 'support',
      triggerId: 'webhook',
      space: 'ticket-history',
      message,
    });
    expect((await first.dispatch(event('Parcel lost in transit'))).status).toBe(
      'completed',
    );
    expect((await second.dispatch(event('Any news?'))).status).toBe(
      'completed',
    );
    const prompt = (model: ScriptedModelProvider): string =>
      (model.requests.at(-1) ?? [])
        .map((message) => message.content)
        .join('\n');
    // The second instance never ran the first task, yet plans with it.
    expect(prompt(models[1] as ScriptedModelProvider)).toContain(
      'Parcel lost in transit',
    );
    expect(prompt(models[0] as ScriptedModelProvider)).not.toContain(
      'Any news?',
    );
  } finally {
    await Promise.all(instances.map((runtime) => runtime.stop()));
  }
}, 60_000);

it('starts two agents against the PostgreSQL server the compose file starts, after it is healthy [claim:scaling-compose-start]', () => {
  const compose = parse(
    readFileSync(new URL('./compose.yaml', import.meta.url), 'utf8'),
  ) as {
    services: Record<string, Record<string, unknown>>;
  };
  const agent = compose.services.agent as {
    environment: Record<string, string>;
    depends_on: Record<string, { condition: string }>;
    deploy: { replicas: number };
    stop_grace_period: string;
  };
  const url = new URL(
    agent.environment.DATABASE_URL!.replace('${POSTGRES_PASSWORD}', 'secret'),
  );
  expect(url.hostname).toBe('postgres');
  expect(Object.keys(compose.services)).toContain(url.hostname);
  expect(agent.depends_on[url.hostname]?.condition).toBe('service_healthy');
  // Healthy means the server answers pg_isready over TCP, as the agents connect: the server the
  // image sets the database up with on its first start listens on its socket file only.
  const healthcheck = compose.services.postgres?.healthcheck as {
    test: string[];
  };
  expect(healthcheck.test.join(' ')).toMatch(/pg_isready -h 127\.0\.0\.1 /);
  expect(agent.deploy.replicas).toBeGreaterThanOrEqual(2);
  // The password is read from the environment, never written in the file.
  expect(agent.environment.DATABASE_URL).toContain('${POSTGRES_PASSWORD}');
  // A stop must outlast the runtime's default drain (shutdownTimeoutMs, 30 s) and the 7 s its
  // stop and exit may take after it (the production guide's prod-abandon-after-grace and
  // prod-exit-after-stop), or Docker kills the instance in the middle of its stop.
  expect(agent.stop_grace_period).toMatch(/^\d+s$/);
  expect(Number.parseInt(agent.stop_grace_period, 10)).toBe(40);
  const { shutdownTimeoutMs } = optionsSchema.parse({});
  expect(shutdownTimeoutMs).toBe(30_000);
  expect(Number.parseInt(agent.stop_grace_period, 10) * 1000).toBeGreaterThan(
    shutdownTimeoutMs + 7_000,
  );
});

it('stops on Ctrl+C once its drain of shutdownTimeoutMs (30 s by default) runs out, leaving the task it cut and the one still queued recorded for the next instance to start [claim:scaling-local-ctrl-c-limit]', async () => {
  expect(optionsSchema.parse({}).shutdownTimeoutMs).toBe(30_000);
  const rows = async (): Promise<{ running: boolean; task: string }[]> => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (
        await client.query<{ running: boolean; task: string }>(
          `SELECT running, arrival->>'taskId' AS task FROM weft_coordinator.tasks
           WHERE space = 'ticket-ctrl-c' ORDER BY ticket`,
        )
      ).rows;
    } finally {
      await client.end();
    }
  };
  const started: Runtime[] = [];
  try {
    // A drain shorter than one answer, as 30 s is shorter than four answers of 10 s.
    const first = await startInstance({
      databaseUrl,
      models: [planner()],
      memory: new InMemoryMemoryProvider(),
      plugins: [new TicketsPlugin({ instance: 'a', workMs: 5_000 })],
      options: { shutdownTimeoutMs: 1_000 },
    });
    started.push(first);
    const cut = await acceptWebhook(first, 'ctrl-c', 'first message');
    const queued = await acceptWebhook(first, 'ctrl-c', 'second message');
    const runningBy = Date.now() + 10_000;
    while (!(await rows()).some((row) => row.running)) {
      if (Date.now() > runningBy)
        throw new Error('the first task never started');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // What Ctrl+C does with handleSignals: stop(), which drains.
    await first.stop();
    expect((await rows()).map((row) => row.task)).toEqual([
      cut.taskId,
      queued.taskId,
    ]);

    const memory = new InMemoryMemoryProvider();
    const next = await startInstance({
      databaseUrl,
      models: [planner()],
      memory,
      plugins: [new TicketsPlugin({ instance: 'b', workMs: 0 })],
    });
    started.push(next);
    const answeredBy = Date.now() + 20_000;
    let answers: { taskId?: string; content: unknown }[] = [];
    while (answers.length < 2) {
      if (Date.now() > answeredBy)
        throw new Error('the next instance did not answer both messages');
      await new Promise((resolve) => setTimeout(resolve, 50));
      answers = await memory.query({
        space: 'ticket-ctrl-c',
        kind: 'answer',
        order: 'asc',
      });
    }
    expect(answers.map((answer) => [answer.taskId, answer.content])).toEqual([
      [cut.taskId, { message: 'first message', answeredBy: 'b' }],
      [queued.taskId, { message: 'second message', answeredBy: 'b' }],
    ]);
  } finally {
    await Promise.all(started.map((runtime) => runtime.stop()));
  }
}, 60_000);
