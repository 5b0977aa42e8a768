/**
 * An agent for the coordinator's tests and benchmark: one plugin whose single step records, in
 * a `runs` table of the shared database, when it started and ended on which instance, and
 * waits `data.ms` milliseconds in between. The runs table is the evidence the tests read:
 * overlaps, order, and tasks that never ran.
 */
import {
  Plugin,
  Runtime,
  type AgentTask,
  type ExecutionContext,
  type Executor,
  type RuntimeOptions,
} from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import pg from 'pg';
import { pino } from 'pino';
import { PostgresSpaceCoordinator, type PostgresSpaceCoordinatorOptions } from '../../src/index.js';

/** The event data the tests send: the task's place among its space's tasks, and its length. */
export interface WorkData {
  n: number;
  ms: number;
}

/** Creates the schema and its runs table; the test does, once, before starting agents. */
export async function createRunsTable(
  sql: (text: string) => Promise<unknown>,
  schema: string,
): Promise<void> {
  await sql(`CREATE SCHEMA "${schema}"`);
  await sql(`CREATE TABLE "${schema}".runs (
    id bigserial PRIMARY KEY,
    task_id text NOT NULL, -- the sender's request id when it gave one, else the task's id
    space text NOT NULL,
    n integer NOT NULL,
    instance text NOT NULL,
    started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    ended_at timestamptz
  )`);
}

class WorkPlugin extends Plugin {
  readonly id = 'work';
  readonly description = 'Records each run of a task and waits for data.ms milliseconds.';
  override readonly executors: readonly Executor[];

  constructor(pool: pg.Pool, schema: string, instance: string) {
    super();
    this.executors = [
      {
        action: 'step',
        description: 'Does the work.',
        async execute(task: AgentTask, context: ExecutionContext) {
          const data = task.trigger.data as WorkData;
          const run = await persist(context.signal, () =>
            pool.query<{ id: string }>(
              `INSERT INTO "${schema}".runs (task_id, space, n, instance) VALUES ($1, $2, $3, $4) RETURNING id::text`,
              [String(task.metadata.requestId ?? task.id), task.space.id, data.n, instance],
            ),
          );
          await pause(data.ms, context.signal);
          await persist(context.signal, () =>
            pool.query(`UPDATE "${schema}".runs SET ended_at = clock_timestamp() WHERE id = $1`, [
              run.rows[0]?.id,
            ]),
          );
          return { success: true };
        },
      },
    ];
  }
}

/**
 * Retries a write of the runs table until it succeeds, the task is aborted, or 10 s pass: a
 * connection the pool kept from before a server restart fails once, and the evidence of a run
 * must not depend on which connection the pool handed out.
 */
async function persist<T>(signal: AbortSignal, write: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return await write();
    } catch (error) {
      if (signal.aborted || Date.now() > deadline) throw error;
      await pause(50, signal);
    }
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (ms <= 0) return resolve();
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A started agent of the group, and how to stop it. */
export interface WorkAgent {
  readonly runtime: Runtime;
  readonly coordinator: PostgresSpaceCoordinator;
  stop(): Promise<void>;
}

/**
 * Starts a runtime with the work plugin, a scripted model that always plans one `work.step`,
 * and a {@link PostgresSpaceCoordinator} on `schema`.
 */
export async function startWorkAgent(options: {
  connectionString: string;
  schema: string;
  instance: string;
  concurrency?: number;
  coordinator?: Partial<PostgresSpaceCoordinatorOptions>;
  /** The runtime's coordinator deadlines, when a test sets them. */
  deadlines?: Pick<RuntimeOptions, 'coordinatorTimeoutMs' | 'coordinatorAcquireTimeoutMs'>;
  /** How long `stop()` drains before it cancels the rest; 5 s unless given. */
  shutdownTimeoutMs?: number;
}): Promise<WorkAgent> {
  const pool = new pg.Pool({ connectionString: options.connectionString, max: 8 });
  // A connection the server ends while idle must not crash the process.
  pool.on('error', () => undefined);
  const coordinator = new PostgresSpaceCoordinator({
    connectionString: options.connectionString,
    schema: options.schema,
    logger: pino({ level: process.env.WEFT_LOG_LEVEL ?? 'silent' }),
    ...options.coordinator,
  });
  const model = new ScriptedModelProvider({
    fallback: (_messages, request) =>
      request.purpose === 'plan' ? { steps: [{ pluginId: 'work', action: 'step' }] } : 'ok',
  });
  const runtime = await Runtime.init({
    models: [model],
    memory: new InMemoryMemoryProvider(),
    plugins: [new WorkPlugin(pool, options.schema, options.instance)],
    coordinator,
    options: {
      pipelineReview: 'never',
      relatedMemories: 0,
      scheduler: { concurrency: options.concurrency ?? 4, maxQueueSize: 10_000 },
      logger: pino({ level: process.env.WEFT_LOG_LEVEL ?? 'silent' }),
      shutdownTimeoutMs: options.shutdownTimeoutMs ?? 5_000,
      ...options.deadlines,
    },
  });
  await runtime.start();
  return {
    runtime,
    coordinator,
    async stop() {
      await runtime.stop();
      await pool.end();
    },
  };
}
