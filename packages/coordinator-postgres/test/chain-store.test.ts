/**
 * A task that has run all its steps and is only storing its chain when the runtime stops, or
 * when its instance loses the connection that holds its locks, has ended for its caller
 * (`completed`): it must not run again on the instance that takes its space over, or its steps'
 * outside effects (a mail, a booking) would happen twice.
 */
import {
  Plugin,
  Runtime,
  type AgentTask,
  type Executor,
  type Memory,
  type RuntimeOptions,
} from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresSpaceCoordinator, type PostgresSpaceCoordinatorOptions } from '../src/index.js';
import { useServer } from './support/server.js';

const db = useServer();
const started: Runtime[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((runtime) => runtime.stop()));
});

/** How often each task's step ran, over every instance of the test. */
const runs = new Map<string, number>();

/** A memory store whose chain writes wait until the test opens its gate. */
class SlowChainMemory extends InMemoryMemoryProvider {
  /** Resolves when a chain write has begun. */
  readonly chainStarted: Promise<void>;
  private began!: () => void;
  private open!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.open = resolve));

  constructor() {
    super();
    this.chainStarted = new Promise((resolve) => (this.began = resolve));
  }

  openGate(): void {
    this.open();
  }

  override async store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
    if (memory.kind === 'chain') {
      this.began();
      await this.gate;
    }
    return super.store(memory);
  }
}

class CountingPlugin extends Plugin {
  readonly id = 'work';
  readonly description = 'Counts the runs of its one step.';
  override readonly executors: readonly Executor[] = [
    {
      action: 'step',
      description: 'Counts a run.',
      async execute(task: AgentTask) {
        runs.set(task.id, (runs.get(task.id) ?? 0) + 1);
        return { success: true };
      },
    },
  ];
}

async function startInstance(
  schema: string,
  memory: InMemoryMemoryProvider,
  coordinator: Partial<PostgresSpaceCoordinatorOptions> = {},
  options: Partial<RuntimeOptions> = {},
): Promise<{ runtime: Runtime; coordinator: PostgresSpaceCoordinator }> {
  const instance = new PostgresSpaceCoordinator({
    connectionString: db.url(),
    schema,
    logger: pino({ level: 'silent' }),
    ...coordinator,
  });
  const runtime = await Runtime.init({
    models: [
      new ScriptedModelProvider({
        fallback: (_messages, request) =>
          request.purpose === 'plan' ? { steps: [{ pluginId: 'work', action: 'step' }] } : 'ok',
      }),
    ],
    memory,
    plugins: [new CountingPlugin()],
    coordinator: instance,
    options: {
      pipelineReview: 'never',
      relatedMemories: 0,
      logger: pino({ level: 'silent' }),
      ...options,
    },
  });
  await runtime.start();
  started.push(runtime);
  return { runtime, coordinator: instance };
}

async function rowsLeft(schema: string): Promise<unknown[]> {
  return db.sql(`SELECT ticket FROM "${schema}".tasks`);
}

/** Waits `ms` milliseconds: long enough for several sweeps of an instance that sweeps every 100 ms. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Sends the one task these tests run, to the space they share. */
function acceptWork(runtime: Runtime): ReturnType<Runtime['accept']> {
  return runtime.accept({ pluginId: 'work', triggerId: 'task', space: 'room' });
}

/** Ends the PostgreSQL session holding the instance's lock, as a lost connection would. */
async function cutLockConnection(instance: string | undefined): Promise<void> {
  await db.sql(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'weft-coordinator' AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND ((classid::bigint << 32) | objid::bigint) = $1::bigint)",
    [instance],
  );
}

/** How many times the task ran, once it ran a second time or 10 s passed. */
async function runsAfterRerun(taskId: string): Promise<number | undefined> {
  const rerunBy = Date.now() + 10_000;
  while ((runs.get(taskId) ?? 0) < 2 && Date.now() < rerunBy) await pause(20);
  return runs.get(taskId);
}

describe('a task that ran all its steps, while it stores its chain', () => {
  it('is recorded finished when a cancelling stop comes, and no other instance runs it again [claim:task-cancel-rejects-waiting] [claim:task-cancel-storing-finished] [claim:task-status-cancelled]', async () => {
    const schema = db.newSchema();
    const memory = new SlowChainMemory();
    const first = await startInstance(schema, memory, {}, { shutdown: 'cancel' });
    // The second instance takes over, at its sweeps, whatever the first leaves unfinished.
    await startInstance(schema, new InMemoryMemoryProvider(), { sweepIntervalMs: 100 });
    const { taskId, done } = await acceptWork(first.runtime);
    await memory.chainStarted;
    const stopped = first.runtime.stop();
    await pause(100);
    memory.openGate();
    expect((await done).status).toBe('completed');
    await stopped;
    await pause(1_000);
    expect(runs.get(taskId)).toBe(1);
    expect(await rowsLeft(schema)).toEqual([]);
  }, 20_000);

  it('runs again on another instance when its store outlasts the 2 s a cancelling stop waits for it [claim:task-cancel-storing-abandoned] [claim:task-cancel-coordinator-reruns]', async () => {
    const schema = db.newSchema();
    const memory = new SlowChainMemory();
    const first = await startInstance(schema, memory, {}, { shutdown: 'cancel' });
    await startInstance(schema, new InMemoryMemoryProvider(), { sweepIntervalMs: 100 });
    const { taskId, done } = await acceptWork(first.runtime);
    await memory.chainStarted;
    // The stop abandons the task and shuts the coordinator down before the store ends.
    await first.runtime.stop();
    memory.openGate();
    expect((await done).status).toBe('completed');
    expect(await runsAfterRerun(taskId)).toBe(2);
  }, 20_000);

  it('is recorded finished once its instance has reconnected, when the connection holding its locks was lost meanwhile, and is not run again [claim:scaling-finished-during-loss] [claim:coord-readme-finished-during-loss] [claim:task-signal-space-lost-storing]', async () => {
    const schema = db.newSchema();
    const memory = new SlowChainMemory();
    const victim = await startInstance(schema, memory, {
      sweepIntervalMs: 100,
      reconnectDelayMs: 50,
      reconnectMaxDelayMs: 200,
    });
    const before = victim.coordinator.instance;
    const { taskId, done } = await acceptWork(victim.runtime);
    await memory.chainStarted;
    await cutLockConnection(before);
    const lostBy = Date.now() + 5_000;
    while ((await victim.coordinator.checkHealth()) && Date.now() < lostBy) await pause(20);
    expect(await victim.coordinator.checkHealth()).toBe(false);
    memory.openGate();
    expect((await done).status).toBe('completed');
    const backBy = Date.now() + 10_000;
    while (victim.coordinator.instance === before && Date.now() < backBy) await pause(20);
    expect(victim.coordinator.instance).not.toBe(before);
    await pause(1_000);
    expect(runs.get(taskId)).toBe(1);
    expect(await rowsLeft(schema)).toEqual([]);
  }, 20_000);

  it('runs again on another instance that takes it over before its own instance has reconnected [claim:scaling-finished-during-loss] [claim:coord-readme-finished-during-loss] [claim:httpchat-coordinator-finished-during-loss] [claim:chatreadme-coordinator-finished-during-loss]', async () => {
    const schema = db.newSchema();
    const memory = new SlowChainMemory();
    // The victim stays away a while: its first reconnection comes 2 to 4 s after the loss.
    const victim = await startInstance(schema, memory, {
      reconnectDelayMs: 4_000,
      reconnectMaxDelayMs: 4_000,
    });
    await startInstance(schema, new InMemoryMemoryProvider(), { sweepIntervalMs: 100 });
    const before = victim.coordinator.instance;
    const { taskId, done } = await acceptWork(victim.runtime);
    await memory.chainStarted;
    await cutLockConnection(before);
    memory.openGate();
    expect((await done).status).toBe('completed');
    expect(await runsAfterRerun(taskId)).toBe(2);
  }, 20_000);
});
