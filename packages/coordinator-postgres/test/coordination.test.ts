/**
 * Two runtimes in one process, each with its own coordinator and connections, share a real
 * PostgreSQL server: a space's tasks, sent to both, run one at a time in the order they were
 * accepted.
 */
import { Runtime, WeftError, type TaskArrival } from '@weft/core';
import { capturingLogger } from '@weft-internal/test-support/capturing-logger';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  PostgresSpaceCoordinator,
  PostgresSpaceCoordinatorError,
  type PostgresSpaceCoordinatorOptions,
} from '../src/index.js';
import { resolveOptions } from '../src/options.js';
import { holdAdmissionLock, withBlocker } from './support/blocker.js';
import { overlaps, outOfOrder, type RunRow } from './support/runs.js';
import { useServer } from './support/server.js';
import { createRunsTable, startWorkAgent, type WorkAgent } from './support/work-agent.js';

const db = useServer();
const agents: WorkAgent[] = [];
const prepared = new Set<string>();

afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.stop()));
});

/**
 * The tickets left in a schema's queue once the releases of finished tasks are through. The
 * scheduler releases a task's ticket after the task has settled, without holding up its caller,
 * so the row of a task whose `done` just resolved may still be there for a moment.
 */
async function ticketsLeft(schema: string, within = 3_000): Promise<unknown[]> {
  const by = Date.now() + within;
  let rows = await db.sql(`SELECT ticket FROM "${schema}".tasks`);
  while (rows.length > 0 && Date.now() < by) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    rows = await db.sql(`SELECT ticket FROM "${schema}".tasks`);
  }
  return rows;
}
/** The nth event of space room-1, as the coordinator is handed it. */
function arrival(n: number): TaskArrival {
  return {
    taskId: `room-1-${n}`,
    createdAt: new Date().toISOString(),
    pluginId: 'work',
    triggerId: 'task',
    space: { id: 'room-1' },
    data: { n },
    metadata: {},
  };
}

/** Makes the schema's runs table, once per schema. */
async function prepare(schema: string): Promise<void> {
  if (!prepared.has(schema)) await createRunsTable(db.sql, schema);
  prepared.add(schema);
}

/** Starts a work agent on the schema (its runs table made first), stopped after the test. */
async function startAgent(
  schema: string,
  options: Omit<Parameters<typeof startWorkAgent>[0], 'connectionString' | 'schema'>,
): Promise<WorkAgent> {
  await prepare(schema);
  const agent = await startWorkAgent({ connectionString: db.url(), schema, ...options });
  agents.push(agent);
  return agent;
}

async function group(count: number, schema = db.newSchema()): Promise<WorkAgent[]> {
  await prepare(schema);
  return Promise.all(
    Array.from({ length: count }, (_, index) => startAgent(schema, { instance: `i${index}` })),
  );
}

/** Agent options: the coordinator reconnects and sweeps soon; the runtime waits 300 ms for it. */
const impatient = {
  coordinator: { reconnectDelayMs: 50, reconnectMaxDelayMs: 200, sweepIntervalMs: 100 },
  deadlines: { coordinatorTimeoutMs: 300 },
};

/** Dispatches task `id` of space `<id>-space`, which fails with WEFT_COORDINATOR_TIMEOUT. */
async function dispatchTimesOut(agent: WorkAgent, id: string): Promise<void> {
  await expect(
    agent.runtime.dispatch({
      pluginId: 'work',
      triggerId: 'task',
      space: `${id}-space`,
      data: { n: 0, ms: 10 },
      metadata: { requestId: id },
    }),
  ).rejects.toMatchObject({ code: 'WEFT_COORDINATOR_TIMEOUT' });
}

/** Waits, for up to 10 s, until task `id` has a row in the schema's runs table. */
async function ranWithin10s(schema: string, id: string): Promise<void> {
  const by = Date.now() + 10_000;
  while ((await db.sql(`SELECT 1 FROM "${schema}".runs WHERE task_id = $1`, [id])).length === 0) {
    if (Date.now() > by) throw new Error(`the ${id} task did not run within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs `body` with a started coordinator that logs nothing, and shuts it down after. */
async function withCoordinator(
  options: Omit<PostgresSpaceCoordinatorOptions, 'connectionString' | 'logger'>,
  body: (coordinator: PostgresSpaceCoordinator) => Promise<void>,
): Promise<void> {
  const coordinator = new PostgresSpaceCoordinator({
    connectionString: db.url(),
    ...options,
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  await coordinator.init({ resume: () => undefined });
  try {
    await body(coordinator);
  } finally {
    await coordinator.shutdown();
  }
}

describe('PostgresSpaceCoordinator with two runtimes', () => {
  it('runs a space’s tasks sent to both instances one at a time, in the order they were accepted [claim:philo-spaces-instances] [claim:scaling-many-instances] [claim:scaling-row] [claim:scaling-order] [claim:scaling-any-instance] [claim:coord-readme-order]', async () => {
    const schema = db.newSchema();
    const [first, second] = (await group(2, schema)) as [WorkAgent, WorkAgent];
    const spaces = ['room-a', 'room-b', 'room-c'];
    const done: Promise<unknown>[] = [];
    for (let n = 0; n < 12; n += 1) {
      for (const space of spaces) {
        const agent = (n + space.length) % 2 === 0 ? first : second;
        // Each acceptance is awaited, so the acceptance order is n's order.
        const accepted = await agent.runtime.accept({
          pluginId: 'work',
          triggerId: 'task',
          space,
          data: { n, ms: 5 },
        });
        done.push(accepted.done);
      }
    }
    await Promise.all(done);
    const runs = await db.sql<RunRow>(`SELECT * FROM "${schema}".runs`);
    expect(runs).toHaveLength(36);
    expect(new Set(runs.map((run) => run.instance))).toEqual(new Set(['i0', 'i1']));
    expect(overlaps(runs, new Date())).toEqual([]);
    expect(outOfOrder(runs)).toEqual([]);
    // Finished tasks leave nothing behind.
    expect(await ticketsLeft(schema)).toEqual([]);
  });

  it('serves other spaces while one space waits for the other instance [claim:scaling-lock-wait-no-worker] [claim:scaling-dispatch] [claim:scaling-row] [claim:wp-coordinator-no-worker]', async () => {
    const schema = db.newSchema();
    const [first, second] = (await group(2, schema)) as [WorkAgent, WorkAgent];
    const slow = await first.runtime.accept({
      pluginId: 'work',
      triggerId: 'task',
      space: 'busy',
      data: { n: 0, ms: 1_500 },
    });
    // Four tasks of the busy space wait on the second instance; none may hold a worker.
    const waiting: { taskId: string; done: Promise<unknown> }[] = [];
    for (const n of [1, 2, 3, 4]) {
      waiting.push(
        await second.runtime.accept({
          pluginId: 'work',
          triggerId: 'task',
          space: 'busy',
          data: { n, ms: 1 },
        }),
      );
    }
    // Each accepted task is a row of the tasks table while it has not finished.
    const recorded = await db.sql<{ task_id: string }>(
      `SELECT arrival->>'taskId' AS task_id FROM "${schema}".tasks WHERE space = 'busy'`,
    );
    expect(recorded.map((row) => row.task_id).sort()).toEqual(
      [slow.taskId, ...waiting.map((each) => each.taskId)].sort(),
    );
    const started = Date.now();
    const free = await second.runtime.dispatch({
      pluginId: 'work',
      triggerId: 'task',
      space: 'free',
      data: { n: 0, ms: 1 },
    });
    expect(Date.now() - started).toBeLessThan(1_000);
    // dispatch resolved once the task had run: its run has ended by then.
    expect(free.status).toBe('completed');
    const freeRuns = await db.sql<RunRow>(`SELECT * FROM "${schema}".runs WHERE space = 'free'`);
    expect(freeRuns.map((run) => run.ended_at !== null)).toEqual([true]);
    await Promise.all([slow.done, ...waiting.map((each) => each.done)]);
    const runs = await db.sql<RunRow>(`SELECT * FROM "${schema}".runs WHERE space = 'busy'`);
    expect(outOfOrder(runs)).toEqual([]);
    expect(overlaps(runs, new Date())).toEqual([]);
    expect(await ticketsLeft(schema)).toEqual([]);
  });

  it('hands the tasks a stopped instance left unfinished to the other, which runs them in order, the cut one again [claim:scaling-compose-takeover] [claim:scaling-local-ctrl-c-limit] [claim:task-cancel-coordinator-reruns] [claim:task-graceful-stop-coordinator-takeover]', async () => {
    const schema = db.newSchema();
    // The first instance's drain is shorter than its first task, as a deploy's stop may be.
    const first = await startAgent(schema, {
      instance: 'first',
      shutdownTimeoutMs: 300,
    });
    // The second takes the first's tasks over at its sweeps.
    await startAgent(schema, {
      instance: 'second',
      coordinator: { sweepIntervalMs: 100 },
    });
    const accepted = [];
    for (let n = 0; n < 4; n += 1) {
      accepted.push(
        await first.runtime.accept({
          pluginId: 'work',
          triggerId: 'task',
          space: 'handover',
          data: { n, ms: n === 0 ? 1_500 : 200 },
        }),
      );
    }
    const runsOf = (instance: string) =>
      db.sql<RunRow>(`SELECT * FROM "${schema}".runs WHERE instance = $1 ORDER BY started_at`, [
        instance,
      ]);
    const startBy = Date.now() + 10_000;
    while ((await runsOf('first')).length === 0) {
      if (Date.now() > startBy) throw new Error('the first task never started');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // The cut run counts as lasting until its task ended. The scheduler settles the task before
    // it asks the coordinator to let the space go, so this is read before the other instance can
    // have the space; the end of stop() comes after the release, too late to judge an overlap by.
    const [cut] = accepted;
    if (!cut) throw new Error('no task was accepted');
    const cutAt = cut.done.then(
      () => new Date(),
      () => new Date(),
    );
    await first.runtime.stop();
    // The stop left every task unfinished: the running one cut short, the queued ones cancelled.
    const outcomes = await Promise.all(
      accepted.map((task) =>
        task.done.then(
          (done) => done.status,
          (error: unknown) => (WeftError.is(error) ? error.code : String(error)),
        ),
      ),
    );
    expect(outcomes).toEqual([
      'cancelled',
      'WEFT_TASK_CANCELLED',
      'WEFT_TASK_CANCELLED',
      'WEFT_TASK_CANCELLED',
    ]);
    const deadline = Date.now() + 15_000;
    let taken: RunRow[] = [];
    while (Date.now() < deadline) {
      taken = (await runsOf('second')).filter((run) => run.ended_at !== null);
      if (taken.length === 4) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await runsOf('first')).map((run) => [run.n, run.ended_at === null])).toEqual([
      [0, true],
    ]);
    expect(taken.map((run) => run.n)).toEqual([0, 1, 2, 3]);
    const all = await db.sql<RunRow>(`SELECT * FROM "${schema}".runs`);
    expect(overlaps(all, await cutAt)).toEqual([]);
    expect(await ticketsLeft(schema)).toEqual([]);
  });

  it('starts four instances together on a new schema, which it creates once [claim:scaling-start-together]', async () => {
    const agents4 = await group(4);
    const accepted = await Promise.all(
      agents4.map((agent, n) =>
        agent.runtime.accept({
          pluginId: 'work',
          triggerId: 'task',
          space: 'together',
          data: { n, ms: 1 },
        }),
      ),
    );
    await Promise.all(accepted.map((task) => task.done));
    expect(new Set(agents4.map((agent) => agent.coordinator.instance)).size).toBe(4);
  });

  it('runs two groups side by side in separate schemas of one database, each with its own instance keys [claim:coord-readme-schema-groups]', async () => {
    const [first, second] = await Promise.all([group(1), group(1)]);
    const ran = await Promise.all(
      [first, second].map(async ([agent]) => {
        const task = await (agent as WorkAgent).runtime.accept({
          pluginId: 'work',
          triggerId: 'task',
          space: 'shared-name',
          data: { n: 0, ms: 1 },
        });
        return (await task.done).status;
      }),
    );
    expect(ran).toEqual(['completed', 'completed']);
    expect(first[0]?.coordinator.instance).not.toBe(second[0]?.coordinator.instance);
  });

  it('holds at most poolSize + 1 connections: its pool and its lock connection [claim:scaling-connections] [claim:coord-readme-connections]', async () => {
    const schema = db.newSchema();
    const agent = await startAgent(schema, {
      instance: 'i0',
      coordinator: { poolSize: 2 },
    });
    const accepted = [];
    for (let n = 0; n < 8; n += 1) {
      accepted.push(
        await agent.runtime.accept({
          pluginId: 'work',
          triggerId: 'task',
          space: `room-${n}`,
          data: { n, ms: 300 },
        }),
      );
    }
    let most = 0;
    const finished = Promise.all(accepted.map((task) => task.done));
    let done = false;
    void finished.then(() => (done = true));
    while (!done) {
      const [row] = await db.sql<{ count: string }>(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'weft-coordinator'",
      );
      most = Math.max(most, Number(row?.count ?? 0));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await finished;
    expect(most).toBeGreaterThanOrEqual(2);
    expect(most).toBeLessThanOrEqual(3);
    // The guide's figure for the defaults: a pool of 8 and the lock connection.
    expect(resolveOptions({ connectionString: db.url() }).poolSize + 1).toBe(9);
  });

  it('reconnects while the lost session’s busy pool connections still wait for their statements, so a live server sees more than poolSize + 1 of the instance’s for up to statementTimeoutMs [claim:scaling-connections-busy-pool] [claim:coord-readme-connections-busy-pool]', async () => {
    const schema = db.newSchema();
    const poolSize = 2;
    // Long enough for the reconnection to open within it on a busy machine.
    const statementTimeoutMs = 5_000;
    const count = async (): Promise<number> => {
      const [row] = await db.sql<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'weft-coordinator'",
      );
      return (row as { n: number }).n;
    };
    const options = {
      schema,
      poolSize,
      statementTimeoutMs,
      reconnectDelayMs: 100,
      reconnectMaxDelayMs: 200,
    };
    await withCoordinator(options, async (coordinator) => {
      // Another session holds the space's admission lock, so both of the pool's connections
      // wait on it with a recording each, as statements do on a busy server.
      await withBlocker(db.url(), async (blocker) => {
        await holdAdmissionLock(blocker, schema, 'room-1');
        const admits = [1, 2].map((n) =>
          coordinator.admit(arrival(n)).then(
            () => 'recorded',
            (error: unknown) => (error as WeftError).code,
          ),
        );
        const busySince = Date.now();
        while ((await count()) < poolSize + 1) {
          if (Date.now() - busySince > 5_000) throw new Error('the pool did not fill');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        // The server ends the lock connection, as an administrator's pg_terminate_backend would.
        await db.sql(
          `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory'
               AND objsubid = 1 AND ((classid::bigint << 32) | objid::bigint) = $1::bigint`,
          [coordinator.instance],
        );
        const lostAt = Date.now();
        while (!(await coordinator.checkHealth()) || (await count()) <= poolSize + 1) {
          if (Date.now() - lostAt > statementTimeoutMs) {
            throw new Error('no overlap of the old and new connections was seen');
          }
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        // The new session is open beside the lost one's two waiting connections.
        expect(await count()).toBeGreaterThan(poolSize + 1);
        // Those end with their statements, at statementTimeoutMs; then the count is back in bounds.
        expect(await Promise.all(admits)).toEqual([
          'WEFT_COORDINATOR_ADMIT_FAILED',
          'WEFT_COORDINATOR_ADMIT_FAILED',
        ]);
        const endedBy = Date.now() + 2_000;
        while ((await count()) > poolSize + 1) {
          if (Date.now() > endedBy) throw new Error('the lost session’s connections stayed');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      });
    });
  });

  it('fails the tasks waiting on an instance past acquireTimeoutMs, deletes their rows and never runs them; dispatch and done reject, accept does not, with a 503 whose message is shown [claim:coord-readme-acquire-timeout] [claim:coord-readme-acquire-timeout-callers] [claim:scaling-ack-acquire-timeout] [claim:wp-limits-acquire-timeout] [claim:obs-request-failed-generic] [claim:errors-5xx-message-generic] [claim:index-dispatch-rejects]', async () => {
    const schema = db.newSchema();
    const [holder] = (await group(1, schema)) as [WorkAgent];
    const waiter = await startAgent(schema, {
      instance: 'waiter',
      coordinator: { acquireTimeoutMs: 800 },
    });
    const event = (n: number, ms: number) => ({
      pluginId: 'work',
      triggerId: 'task',
      space: 'held',
      data: { n, ms },
    });
    const slow = await holder.runtime.accept(event(0, 3_000));
    // The waiter's tasks wait behind the holder's for longer than their acquireTimeoutMs.
    const accepted = await waiter.runtime.accept(event(1, 1));
    const dispatched = waiter.runtime.dispatch(event(2, 1)).catch((error: unknown) => error);
    // A task that arrives while the instance waits fails with the others, however recent: the
    // deadline is the instance's wait for the space, not the task's own.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const late = await waiter.runtime.accept(event(3, 1));
    const lateAcceptedAt = Date.now();
    const fromLate = late.done.then(
      () => ({ error: undefined as unknown, after: Date.now() }),
      (error: unknown) => ({ error, after: Date.now() }),
    );
    const fromDone = await accepted.done.catch((error: unknown) => error);
    const fromDispatch = await dispatched;
    const lateEnd = await fromLate;
    expect(WeftError.is(lateEnd.error, 'WEFT_COORDINATOR_ACQUIRE_TIMEOUT')).toBe(true);
    expect(lateEnd.after - lateAcceptedAt).toBeLessThan(800);
    for (const error of [fromDone, fromDispatch]) {
      expect(WeftError.is(error, 'WEFT_COORDINATOR_ACQUIRE_TIMEOUT')).toBe(true);
      // Made with `expose`, so a route that lets it through answers 503 with this message, not
      // the generic one (the rule server-manager.test.ts checks).
      expect(error).toMatchObject({ status: 503, expose: true });
    }
    // Only the holder's row is left while its task runs; then nothing is, and no one ran theirs.
    // The rows of the failed tasks are deleted just after their callers hear of it: wait for
    // that, well within the holder's 3 s task.
    const rowsGoneBy = Date.now() + 1_500;
    let rows = await db.sql<{ ticket: string }>(`SELECT ticket FROM "${schema}".tasks`);
    while (rows.length > 1 && Date.now() < rowsGoneBy) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      rows = await db.sql<{ ticket: string }>(`SELECT ticket FROM "${schema}".tasks`);
    }
    expect(rows).toHaveLength(1);
    await slow.done;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await ticketsLeft(schema)).toEqual([]);
    const runs = await db.sql<RunRow>(`SELECT * FROM "${schema}".runs`);
    expect(runs.map((run) => run.n)).toEqual([0]);
  });

  it('fails the tasks waiting on an instance at the runtime’s coordinatorAcquireTimeoutMs, with WEFT_COORDINATOR_TIMEOUT, when acquireTimeoutMs is longer; their rows are deleted and they never run [claim:coord-readme-runtime-acquire-deadline] [claim:scaling-coordinator-deadlines] [claim:coord-readme-timeout-is-runtimes] [claim:errors-coordinator-acquire-timeout-runtime-deadline]', async () => {
    const schema = db.newSchema();
    const [holder] = (await group(1, schema)) as [WorkAgent];
    const waiter = await startAgent(schema, {
      instance: 'waiter',
      coordinator: { acquireTimeoutMs: 60_000 },
      deadlines: { coordinatorAcquireTimeoutMs: 800 },
    });
    const event = (n: number, ms: number) => ({
      pluginId: 'work',
      triggerId: 'task',
      space: 'held-long',
      data: { n, ms },
    });
    const slow = await holder.runtime.accept(event(0, 3_000));
    const started = Date.now();
    // Both of the waiter's tasks wait for the space: both fail at the runtime's deadline.
    const errors = await Promise.all(
      [1, 2].map((n) => waiter.runtime.dispatch(event(n, 1)).catch((error: unknown) => error)),
    );
    expect(Date.now() - started).toBeLessThan(2_500);
    for (const error of errors) {
      expect(WeftError.is(error, 'WEFT_COORDINATOR_TIMEOUT')).toBe(true);
      expect(error).toMatchObject({ status: 503 });
      // The runtime's error, not the coordinator's.
      expect(error).not.toBeInstanceOf(PostgresSpaceCoordinatorError);
    }
    const rowsGoneBy = Date.now() + 1_500;
    let rows = await db.sql<{ ticket: string }>(`SELECT ticket FROM "${schema}".tasks`);
    while (rows.length > 1 && Date.now() < rowsGoneBy) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      rows = await db.sql<{ ticket: string }>(`SELECT ticket FROM "${schema}".tasks`);
    }
    expect(rows).toHaveLength(1);
    await slow.done;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await ticketsLeft(schema)).toEqual([]);
    const runs = await db.sql<RunRow>(`SELECT * FROM "${schema}".runs`);
    expect(runs.map((run) => run.n)).toEqual([0]);
  });

  it('lets a space go for good after the runtime stopped waiting for its grant: a later task of the space runs there, then the other instance runs the next one', async () => {
    const schema = db.newSchema();
    // A space left locked shows as this instance's acquire timing out, soon.
    const holder = await startAgent(schema, {
      instance: 'i0',
      coordinator: { acquireTimeoutMs: 3_000 },
    });
    const waiter = await startAgent(schema, {
      instance: 'waiter',
      coordinator: { acquireTimeoutMs: 60_000 },
      deadlines: { coordinatorAcquireTimeoutMs: 800 },
    });
    const event = (n: number, ms: number) => ({
      pluginId: 'work',
      triggerId: 'task',
      space: 'regranted',
      data: { n, ms },
    });
    const slow = await holder.runtime.accept(event(0, 1_200));
    const refused = await waiter.runtime.dispatch(event(1, 1)).catch((error: unknown) => error);
    expect(WeftError.is(refused, 'WEFT_COORDINATOR_TIMEOUT')).toBe(true);
    // The coordinator still looks for the space for the refused task when this one asks too:
    // PostgreSQL grants the session's lock to both, and one release must not leave it held.
    const next = waiter.runtime.dispatch(event(2, 300));
    await slow.done;
    expect((await next).status).toBe('completed');
    const last = await holder.runtime.dispatch(event(3, 1));
    expect(last.status).toBe('completed');
    const runs = await db.sql<RunRow>(`SELECT * FROM "${schema}".runs ORDER BY n`);
    expect(runs.map((run) => [run.n, run.instance])).toEqual([
      [0, 'i0'],
      [2, 'waiter'],
      [3, 'i0'],
    ]);
  });

  it('tries three times to record a finished task, each up to statementTimeoutMs, before it gives its spaces up, so a release can outlast the runtime’s coordinatorTimeoutMs [claim:scaling-release-outlasts-deadline] [claim:coord-readme-release-outlasts-deadline] [claim:scaling-release-deadline-40s]', async () => {
    const schema = db.newSchema();
    const options = { schema, statementTimeoutMs: 1_000 };
    // Every statement the coordinator's pool sends, to count the tries to delete the task's row.
    const poolQuery = vi.spyOn(pg.Pool.prototype, 'query');
    try {
      await withCoordinator(options, async (coordinator) => {
        await withBlocker(db.url(), async (blocker) => {
          const ticket = await coordinator.admit(arrival(1));
          await coordinator.acquire('room-1', new AbortController().signal);
          // Another session holds the task's row, so each try to delete it hits statement_timeout.
          await blocker.query('BEGIN');
          await blocker.query(`SELECT ticket FROM "${schema}".tasks WHERE ticket = $1 FOR UPDATE`, [
            ticket,
          ]);
          poolQuery.mockClear();
          const started = Date.now();
          await coordinator.release('room-1', ticket, 'finished');
          expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 1_000);
          const deletes = poolQuery.mock.calls.filter(([text]) =>
            String(text).startsWith(`DELETE FROM "${schema}".tasks WHERE ticket`),
          );
          expect(deletes).toHaveLength(3);
          // Only then does it give its spaces up.
          expect(await coordinator.checkHealth()).toBe(false);
          await blocker.query('ROLLBACK');
        });
      });
    } finally {
      poolQuery.mockRestore();
    }
  });

  it('lets a space go on the lock connection after that connection’s earlier queries, so a sweep held up by a locked row holds a release and a look at a space up as well [claim:scaling-release-unlock-queue] [claim:coord-readme-release-unlock-queue] [claim:coord-readme-acquire-last-look]', async () => {
    const schema = db.newSchema();
    const options = { schema, statementTimeoutMs: 3_000, sweepIntervalMs: 50 };
    await withCoordinator(options, async (coordinator) => {
      await withBlocker(db.url(), async (blocker) => {
        const ticket = await coordinator.admit(arrival(1));
        await coordinator.acquire('room-1', new AbortController().signal);
        // A task of an instance that holds no lock, whose row another session keeps locked: each
        // sweep's takeover waits for that row until statement_timeout, on the lock connection.
        // The blocker holds instance 1's lock until the row is locked, so no sweep takes the row
        // over in between.
        await blocker.query('SELECT pg_advisory_lock(1::bigint)');
        const [dead] = await db.sql<{ ticket: string }>(
          `INSERT INTO "${schema}".tasks (space, owner, arrival) VALUES ('room-dead', 1, $1::json) RETURNING ticket`,
          [JSON.stringify({ ...arrival(2), space: { id: 'room-dead' } })],
        );
        await blocker.query('BEGIN');
        await blocker.query(`SELECT ticket FROM "${schema}".tasks WHERE ticket = $1 FOR UPDATE`, [
          dead?.ticket,
        ]);
        await blocker.query('SELECT pg_advisory_unlock(1::bigint)');
        const sweepWaits = async (): Promise<void> => {
          const by = Date.now() + 5_000;
          while (
            (
              await db.sql(
                `SELECT 1 FROM pg_stat_activity WHERE application_name = 'weft-coordinator' AND wait_event_type = 'Lock'`,
              )
            ).length === 0
          ) {
            if (Date.now() > by) throw new Error('no sweep waited for the locked row within 5 s');
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        };
        await sweepWaits();
        let started = Date.now();
        await coordinator.release('room-1', ticket, 'finished');
        // The row's DELETE is at once; the unlock waited for the sweep's statement to time out.
        expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
        expect(await coordinator.checkHealth()).toBe(true);
        expect(await db.sql(`SELECT 1 FROM "${schema}".tasks WHERE ticket = $1`, [ticket])).toEqual(
          [],
        );
        // A look at a space takes its lock on that connection too, after the next sweep's query.
        const next = await coordinator.admit(arrival(3));
        await sweepWaits();
        started = Date.now();
        const grant = await coordinator.acquire('room-1', new AbortController().signal);
        expect(grant.ticket).toBe(next);
        expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
        await blocker.query(`DELETE FROM "${schema}".tasks WHERE ticket = $1`, [dead?.ticket]);
        await blocker.query('COMMIT');
      });
    });
  });

  it('runs a task whose dispatch failed with WEFT_COORDINATOR_TIMEOUT when its row is written after the instance lost its lock connection, since the row is then a lost session’s [claim:scaling-coordinator-timeout-late-row]', async () => {
    const schema = db.newSchema();
    const agent = await startAgent(schema, {
      instance: 'late',
      ...impatient,
    });
    await withBlocker(db.url(), async (blocker) => {
      // Admissions of a space take this lock first: holding it keeps the INSERT waiting.
      await holdAdmissionLock(blocker, schema, 'late-space');
      await dispatchTimesOut(agent, 'late');
      // The server ends the connection that holds the instance lock.
      await db.sql(
        `SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND granted AND ((classid::bigint << 32) | objid::bigint) = $1::bigint`,
        [agent.coordinator.instance],
      );
      const lost = Date.now() + 5_000;
      while (await agent.coordinator.checkHealth()) {
        if (Date.now() > lost) throw new Error('the coordinator did not notice within 5 s');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await blocker.query('COMMIT');
      await ranWithin10s(schema, 'late');
      expect(await ticketsLeft(schema)).toEqual([]);
    });
  });

  it('runs a task whose dispatch failed with WEFT_COORDINATOR_TIMEOUT when PostgreSQL does not delete its late row: the instance gives its spaces up and reconnects [claim:scaling-coordinator-timeout-undeleted]', async () => {
    const schema = db.newSchema();
    const agent = await startAgent(schema, {
      instance: 'undeleted',
      ...impatient,
    });
    const firstKey = agent.coordinator.instance;
    // PostgreSQL refuses to delete a row whose task never ran: the late ticket's, given back.
    await db.sql(`CREATE FUNCTION "${schema}".refuse_unrun_delete() RETURNS trigger
      LANGUAGE plpgsql AS $$ BEGIN
        IF OLD.attempts = 0 THEN RAISE EXCEPTION 'refused for the test'; END IF;
        RETURN OLD;
      END $$`);
    await db.sql(`CREATE TRIGGER refuse_unrun_delete BEFORE DELETE ON "${schema}".tasks
      FOR EACH ROW EXECUTE FUNCTION "${schema}".refuse_unrun_delete()`);
    await withBlocker(db.url(), async (blocker) => {
      // Admissions of a space take this lock first: holding it keeps the INSERT waiting.
      await holdAdmissionLock(blocker, schema, 'undeleted-space');
      await dispatchTimesOut(agent, 'undeleted');
      // The INSERT goes through now, and the runtime gives the late ticket back finished.
      await blocker.query('COMMIT');
      await ranWithin10s(schema, 'undeleted');
      // It ran under a new session: the instance gave its spaces up and reconnected.
      expect(agent.coordinator.instance).not.toBe(firstKey);
      expect(await ticketsLeft(schema)).toEqual([]);
    });
  });

  it('does not time a task queued behind its own instance’s tasks of the space: acquireTimeoutMs bounds each wait for the space, not a task’s whole wait [claim:coord-readme-acquire-timeout-local] [claim:scaling-acquire-timeout-local] [claim:tsdoc-coordinator-default-acquire-timeout-ms]', async () => {
    const schema = db.newSchema();
    const agent = await startAgent(schema, {
      instance: 'alone',
      coordinator: { acquireTimeoutMs: 800 },
    });
    const started = Date.now();
    const accepted = [];
    for (let n = 0; n < 3; n += 1) {
      accepted.push(
        await agent.runtime.accept({
          pluginId: 'work',
          triggerId: 'task',
          space: 'local-queue',
          data: { n, ms: 500 },
        }),
      );
    }
    const tasks = await Promise.all(accepted.map((each) => each.done));
    expect(tasks.map((task) => task.status)).toEqual(['completed', 'completed', 'completed']);
    const runs = await db.sql<RunRow>(`SELECT * FROM "${schema}".runs ORDER BY n`);
    expect(runs.map((run) => run.n)).toEqual([0, 1, 2]);
    // The last task waited for two tasks of 500 ms, longer than acquireTimeoutMs, and ran.
    const lastStart = (runs[2] as RunRow).started_at.getTime();
    expect(lastStart - started).toBeGreaterThan(800);
    expect(await ticketsLeft(schema)).toEqual([]);
  });

  it('on losing its lock connection, hands a dispatch of its running task back cancelled and fails its waiting ones with WEFT_COORDINATOR_CONNECTION_LOST; all of them still run [claim:coord-readme-connection-lost] [claim:errors-coordinator-connection-lost-retry]', async () => {
    const schema = db.newSchema();
    const survivor = await startAgent(schema, {
      instance: 'survivor',
      coordinator: { sweepIntervalMs: 100 },
    });
    const victim = await startAgent(schema, { instance: 'victim' });
    const event = (space: string, n: number, ms: number) => ({
      pluginId: 'work',
      triggerId: 'task',
      space,
      data: { n, ms },
      metadata: { requestId: `${space}-${n}` },
    });
    const started = async (id: string) => {
      const by = Date.now() + 10_000;
      while (
        (await db.sql(`SELECT 1 FROM "${schema}".runs WHERE task_id = $1`, [id])).length === 0
      ) {
        if (Date.now() > by) throw new Error(`${id} did not start within 10 s`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    // The survivor holds space "held", so the victim's task of it waits for the space; long
    // enough that it still waits at the kill on a machine busy with other tests.
    const holding = await survivor.runtime.accept(event('held', 0, 6_000));
    await started('held-0');
    // The victim runs a long task of "room"; a second one queues behind it.
    const running = victim.runtime.dispatch(event('room', 0, 4_000));
    const queued = victim.runtime.dispatch(event('room', 1, 1)).catch((error: unknown) => error);
    const waiting = victim.runtime.dispatch(event('held', 1, 1)).catch((error: unknown) => error);
    await started('room-0');
    // Both others are recorded before the kill: one still being admitted would fail otherwise.
    for (const requestId of ['room-1', 'held-1']) {
      const by = Date.now() + 10_000;
      while (
        (
          await db.sql(
            `SELECT 1 FROM "${schema}".tasks WHERE arrival->'metadata'->>'requestId' = $1`,
            [requestId],
          )
        ).length === 0
      ) {
        if (Date.now() > by) throw new Error(`${requestId} was not recorded within 10 s`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    await db.sql(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'weft-coordinator' AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND ((classid::bigint << 32) | objid::bigint) = $1::bigint)",
      [victim.coordinator.instance],
    );
    expect((await running).status).toBe('cancelled');
    for (const error of [await queued, await waiting]) {
      expect(WeftError.is(error, 'WEFT_COORDINATOR_CONNECTION_LOST'), String(error)).toBe(true);
      expect((error as WeftError).status).toBe(503);
    }
    await holding.done;
    // Their rows pass to whichever instance sweeps first, which runs each to its end.
    const ids = ['room-0', 'room-1', 'held-1'];
    const deadline = Date.now() + 30_000;
    let finished: string[] = [];
    while (ids.some((id) => !finished.includes(id))) {
      if (Date.now() > deadline) throw new Error(`not run to the end: ${ids.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      finished = (
        await db.sql<RunRow>(`SELECT * FROM "${schema}".runs WHERE ended_at IS NOT NULL`)
      ).map((run) => run.task_id);
    }
    expect(outOfOrder(await db.sql<RunRow>(`SELECT * FROM "${schema}".runs`))).toEqual([]);
  }, 60_000);

  it('refuses at accept a space id over 200 characters with WEFT_INVALID_SPACE (400) before the coordinator sees it [claim:coord-readme-runtime-space-limit] [claim:coord-readme-invalid-arrival]', async () => {
    const [agent] = (await group(1)) as [WorkAgent];
    const admit = vi.spyOn(agent.coordinator, 'admit');
    const event = (space: string) => ({
      pluginId: 'work',
      triggerId: 'task',
      space,
      data: { n: 0, ms: 1 },
    });
    const error = await agent.runtime.accept(event('r'.repeat(201))).catch((e: unknown) => e);
    expect(WeftError.is(error, 'WEFT_INVALID_SPACE')).toBe(true);
    expect((error as WeftError).status).toBe(400);
    expect(admit).not.toHaveBeenCalled();
    // 200 characters are accepted, and the coordinator records the task.
    const accepted = await agent.runtime.accept(event('r'.repeat(200)));
    await accepted.done;
    expect(admit).toHaveBeenCalledTimes(1);
  });
});

describe('PostgresSpaceCoordinator and the runtime’s logger', () => {
  it('logs through the logger of its own options, never through the runtime’s options.logger [claim:obs-coordinator-logger]', async () => {
    const schema = db.newSchema();
    const runtimeLog = capturingLogger('info');
    const ownLog = capturingLogger('info');
    const start = async (coordinator: PostgresSpaceCoordinator) => {
      const runtime = await Runtime.init({
        models: [new ScriptedModelProvider()],
        memory: new InMemoryMemoryProvider(),
        plugins: [],
        coordinator,
        options: { logger: runtimeLog.logger },
      });
      await runtime.start();
      await runtime.stop();
    };
    // Without a logger of its own it writes nothing at info, and nothing reaches the runtime's.
    await start(new PostgresSpaceCoordinator({ connectionString: db.url(), schema }));
    // Given one, its lines go there.
    await start(
      new PostgresSpaceCoordinator({ connectionString: db.url(), schema, logger: ownLog.logger }),
    );
    expect(runtimeLog.lines.map((line) => line.msg)).not.toContain('coordinator started');
    expect(runtimeLog.lines.map((line) => line.msg)).toContain('runtime started');
    expect(ownLog.lines.map((line) => line.msg)).toEqual([
      'coordinator started',
      'coordinator stopped',
    ]);
  });
});

describe('PostgresSpaceCoordinator space locks', () => {
  /** How many sessions hold the advisory lock of a space of the schema (0 or 1). */
  async function spaceLocks(schema: string, space: string): Promise<number> {
    const [row] = await db.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2
         AND classid::bigint = (hashtext($1)::bigint & 4294967295)
         AND objid::bigint = (hashtext($2)::bigint & 4294967295)`,
      [`${schema}:space`, space],
    );
    return (row as { n: number }).n;
  }

  it('keeps a space locked for its running task when a task of the space that never ran is given back, and lets it go with that task', async () => {
    const schema = db.newSchema();
    await withCoordinator({ schema }, async (coordinator) => {
      const first = await coordinator.admit(arrival(1));
      const second = await coordinator.admit(arrival(2));
      const grant = await coordinator.acquire('room-1', new AbortController().signal);
      expect(grant.ticket).toBe(first);
      expect(await spaceLocks(schema, 'room-1')).toBe(1);
      // As the scheduler gives a waiting task back when its wait for the space times out.
      await coordinator.release('room-1', second, 'finished');
      expect(await spaceLocks(schema, 'room-1')).toBe(1);
      await coordinator.release('room-1', first, 'finished');
      expect(await spaceLocks(schema, 'room-1')).toBe(0);
    });
  });
});
