/**
 * The coordinator's start against a real PostgreSQL server: its own statements (the tables, the
 * wait for another instance's migration lock, the instance lock) run under a deadline of their
 * own, `connectTimeoutMs`, not under the tasks' `statementTimeoutMs`.
 */
import { Runtime, WeftError, type SpaceCoordinatorHost } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import type pg from 'pg';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresSpaceCoordinator } from '../src/index.js';
import { withBlocker } from './support/blocker.js';
import { errorOf } from './support/error-of.js';
import { useServer } from './support/server.js';

const db = useServer();
const opened: PostgresSpaceCoordinator[] = [];
const host: SpaceCoordinatorHost = { resume: () => undefined };

afterEach(async () => {
  await Promise.all(opened.splice(0).map((coordinator) => coordinator.shutdown()));
});

type CoordinatorOptions = Partial<ConstructorParameters<typeof PostgresSpaceCoordinator>[0]>;

/** A coordinator of the test server, logging nothing, not started; shut down after the test. */
function coordinatorOf(options: CoordinatorOptions): PostgresSpaceCoordinator {
  const coordinator = new PostgresSpaceCoordinator({
    connectionString: db.url(),
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    ...options,
  });
  opened.push(coordinator);
  return coordinator;
}

/** Has `blocker` take, in a transaction it leaves open, the lock under which instances migrate. */
async function holdMigrationLock(blocker: pg.Client, schema: string): Promise<void> {
  await blocker.query('BEGIN');
  await blocker.query('SELECT pg_advisory_xact_lock(hashtext($1), 0)', [`${schema}:migrate`]);
}

/** Ends `blocker`'s transaction after `ms`, letting go of what it holds. */
function releaseAfter(blocker: pg.Client, ms: number): Promise<void> {
  return new Promise<void>((resolve) => setTimeout(resolve, ms)).then(async () => {
    await blocker.query('ROLLBACK');
  });
}

/**
 * Starts `coordinator` while `blocker` holds what the start waits for, lets that go after 1.5 s,
 * and checks that the start waited for it.
 */
async function startPastHeldLock(
  coordinator: PostgresSpaceCoordinator,
  blocker: pg.Client,
): Promise<void> {
  const started = Date.now();
  const released = releaseAfter(blocker, 1_500);
  await coordinator.init(host);
  await released;
  // It waited, seven times a statementTimeoutMs of 200 ms, rather than failing at 200 ms.
  expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
}

/** The coordinator's connections of the test database that wait for a lock. */
async function waitingCoordinatorConnections(): Promise<number> {
  const rows = await db.sql<{ count: string }>(
    `SELECT count(*) FROM pg_stat_activity
     WHERE datname = current_database() AND application_name = 'weft-coordinator'
       AND wait_event_type = 'Lock'`,
  );
  return Number(rows[0]?.count);
}

describe('PostgresSpaceCoordinator start', () => {
  it('waits for another instance’s migration lock past a statementTimeoutMs of 200 ms, and starts once it is let go [claim:tsdoc-coordinator-start-deadline] [claim:errors-coordinator-start-not-statement-timeout] [claim:coord-readme-start-deadline] [claim:scaling-start-deadline] [claim:tsdoc-coordinator-connect-timeout-start]', async () => {
    const schema = db.newSchema();
    await withBlocker(db.url(), async (blocker) => {
      await holdMigrationLock(blocker, schema);
      const coordinator = coordinatorOf({ schema, statementTimeoutMs: 200 });
      await startPastHeldLock(coordinator, blocker);
      expect(await coordinator.checkHealth()).toBe(true);
    });
  });

  it('waits for a table another session has locked past a statementTimeoutMs of 200 ms, and starts; the tasks’ statements keep the 200 ms [claim:tsdoc-coordinator-start-deadline] [claim:errors-coordinator-start-not-statement-timeout] [claim:coord-readme-start-deadline] [claim:tsdoc-coordinator-statement-timeout-tasks]', async () => {
    const schema = db.newSchema();
    await coordinatorOf({ schema }).init(host);
    await withBlocker(db.url(), async (blocker) => {
      await blocker.query('BEGIN');
      await blocker.query(`LOCK TABLE "${schema}".meta IN ACCESS EXCLUSIVE MODE`);
      const coordinator = coordinatorOf({ schema, statementTimeoutMs: 200 });
      await startPastHeldLock(coordinator, blocker);
      // The start's deadline ended with its transactions: a task's statement has 200 ms again.
      await blocker.query('BEGIN');
      await blocker.query(`LOCK TABLE "${schema}".tasks IN ACCESS EXCLUSIVE MODE`);
      const refused = await errorOf(
        coordinator.admit({
          taskId: 'late',
          createdAt: new Date().toISOString(),
          pluginId: 'work',
          triggerId: 'task',
          space: { id: 'room' },
          data: {},
        }),
      );
      expect(refused.code).toBe('WEFT_COORDINATOR_ADMIT_FAILED');
      expect(refused.message).toContain('statement timeout');
    });
  });

  it('fails a start held past connectTimeoutMs with WEFT_COORDINATOR_START_TIMEOUT naming the migration lock, not a connection failure, within a second of its deadline [claim:errors-coordinator-start-timeout] [claim:tsdoc-coordinator-start-deadline] [claim:coord-readme-start-timeout] [claim:scaling-start-deadline] [claim:tsdoc-coordinator-connect-timeout-start]', async () => {
    const schema = db.newSchema();
    const connectTimeoutMs = 1_000;
    await withBlocker(db.url(), async (blocker) => {
      await holdMigrationLock(blocker, schema);
      const coordinator = coordinatorOf({ schema, statementTimeoutMs: 200, connectTimeoutMs });
      const started = Date.now();
      const error = await errorOf(coordinator.init(host));
      const elapsed = Date.now() - started;
      expect(error.code).toBe('WEFT_COORDINATOR_START_TIMEOUT');
      expect(error.message).toContain(`did not finish within connectTimeoutMs (1000 ms)`);
      expect(error.message).toContain(
        `waiting for the lock under which instances prepare the tables of schema "${schema}"`,
      );
      expect(error.message).not.toMatch(/could not connect/);
      // The coordinator's words, and no SQL of its own.
      expect(error.message).not.toMatch(/pg_advisory|SELECT/);
      expect(error.cause).toMatchObject({ code: '57014' });
      // The deadline was counted from the open connections; the bound leaves over a second for
      // connecting and for a loaded machine.
      expect(elapsed).toBeGreaterThanOrEqual(connectTimeoutMs - 50);
      expect(elapsed).toBeLessThan(connectTimeoutMs + 1_500);
      // PostgreSQL ended the wait: no connection of the coordinator still waits for the lock.
      expect(await waitingCoordinatorConnections()).toBe(0);
      expect(await coordinator.checkHealth()).toBe(false);
    });
  });

  it('fails through Runtime.start as WEFT_START_FAILED whose cause is the coordinator’s WEFT_COORDINATOR_START_TIMEOUT, and whose message quotes it [claim:errors-coordinator-start-timeout] [claim:scaling-start-deadline] [claim:coord-readme-start-timeout-runtime]', async () => {
    const schema = db.newSchema();
    await withBlocker(db.url(), async (blocker) => {
      await holdMigrationLock(blocker, schema);
      // 2 s, not less: each of the two connections is also given connectTimeoutMs to open, and
      // on a loaded machine one took more than 500 ms, failing the start as a connection failure.
      const coordinator = coordinatorOf({
        schema,
        statementTimeoutMs: 200,
        connectTimeoutMs: 2_000,
      });
      const runtime = await Runtime.init({
        models: [new ScriptedModelProvider()],
        memory: new InMemoryMemoryProvider(),
        plugins: [],
        coordinator,
        options: { logger: pino({ level: 'silent' }) },
      });
      const error = await errorOf(runtime.start());
      expect(error.code).toBe('WEFT_START_FAILED');
      expect(WeftError.is(error.cause, 'WEFT_COORDINATOR_START_TIMEOUT'), error.message).toBe(true);
      // What an instance prints when it cannot start: the step it was waiting for, and the code.
      expect(error.message).toContain(
        `waiting for the lock under which instances prepare the tables of schema "${schema}"`,
      );
      expect(error.message).toContain('[WEFT_COORDINATOR_START_TIMEOUT]');
    });
  });
});
