/**
 * Bad input and failing dependencies, against a real PostgreSQL server: each gives a clear
 * WEFT_COORDINATOR_* error, never shows the password, and every wait ends by its deadline.
 */
import { randomBytes } from 'node:crypto';
import {
  Plugin,
  Runtime,
  WeftError,
  type SpaceCoordinatorHost,
  type TaskArrival,
} from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import pg from 'pg';
import { pino } from 'pino';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { freePort, withoutPasswordAndPort } from '@weft-internal/test-support/postgres-server';
import { PostgresSpaceCoordinator, PostgresSpaceCoordinatorError } from '../src/index.js';
import { resolveOptions } from '../src/options.js';
import { holdAdmissionLock, withBlocker } from './support/blocker.js';
import { errorOf } from './support/error-of.js';
import { useServer } from './support/server.js';

const db = useServer();
const opened: PostgresSpaceCoordinator[] = [];
const resumed: { arrival: TaskArrival; ticket: number }[] = [];
const host: SpaceCoordinatorHost = {
  resume: (arrival, ticket) => resumed.push({ arrival, ticket }),
};

afterEach(async () => {
  await Promise.all(opened.splice(0).map((coordinator) => coordinator.shutdown()));
  resumed.length = 0;
});

type CoordinatorOptions = Partial<ConstructorParameters<typeof PostgresSpaceCoordinator>[0]>;

/** A coordinator on a new schema of the test server, logging nothing, not started. */
function unstarted(options: CoordinatorOptions = {}): PostgresSpaceCoordinator {
  return new PostgresSpaceCoordinator({
    connectionString: db.url(),
    schema: db.newSchema(),
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    ...options,
  });
}

async function open(options: CoordinatorOptions = {}): Promise<PostgresSpaceCoordinator> {
  const coordinator = unstarted(options);
  opened.push(coordinator);
  await coordinator.init(host);
  return coordinator;
}

function arrival(space: string, data: unknown = {}): TaskArrival {
  return {
    taskId: `task-${Math.random()}`,
    createdAt: new Date().toISOString(),
    pluginId: 'work',
    triggerId: 'task',
    space: { id: space },
    data,
  };
}

/**
 * A started runtime with `coordinator` whose plugin `work` has one route, POST /task, that
 * dispatches a task of the space `room` (with `data`, when given) and answers `{ ok: true }`.
 */
async function startDispatching(
  coordinator: PostgresSpaceCoordinator,
  data?: Record<string, unknown>,
): Promise<{ runtime: Runtime; model: ScriptedModelProvider }> {
  const model = new ScriptedModelProvider();
  const plugin = new (class extends Plugin {
    readonly id = 'work';
    readonly description = 'Takes a task per request.';
    override readonly triggers = [
      {
        type: 'route' as const,
        id: 'task',
        method: 'POST' as const,
        path: '/task',
        handler: async (
          _request: unknown,
          response: { json(body: unknown): void },
          runtime: Runtime,
        ) => {
          await runtime.dispatch({
            pluginId: 'work',
            triggerId: 'task',
            space: 'room',
            ...(data === undefined ? {} : { data }),
          });
          response.json({ ok: true });
        },
      },
    ];
  })();
  const runtime = await runtimeOf(coordinator, plugin, { model, server: { port: 0 } });
  await runtime.start();
  return { runtime, model };
}

/**
 * A runtime, not started, with `coordinator` and `plugin`, a scripted model (`model`, or one
 * of its own) and a silent log; `server` starts its HTTP server.
 */
function runtimeOf(
  coordinator: PostgresSpaceCoordinator,
  plugin: Plugin,
  { model, server }: { model?: ScriptedModelProvider; server?: { port: number } } = {},
): Promise<Runtime> {
  return Runtime.init({
    models: [model ?? new ScriptedModelProvider()],
    memory: new InMemoryMemoryProvider(),
    plugins: [plugin],
    coordinator,
    options: { logger: pino({ level: 'silent' }), ...(server === undefined ? {} : { server }) },
  });
}

/** A plugin `work` that takes tasks and runs none; `init` runs when the runtime starts it. */
function idlePlugin(init: () => Promise<void> = async () => undefined): Plugin {
  return new (class extends Plugin {
    readonly id = 'work';
    readonly description = 'Takes tasks and runs none.';
    override async init(): Promise<void> {
      await init();
    }
  })();
}

/** Ends the connection that holds `instance`'s lock, as a network failure would. */
async function dropLockConnection(instance: string | undefined): Promise<void> {
  await db.sql(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'weft-coordinator' AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND ((classid::bigint << 32) | objid::bigint) = $1::bigint)",
    [instance],
  );
}

/**
 * A client that holds the schema's tasks table locked, in a transaction left open, so every
 * query of the coordinator on it waits; it is ended when the test finishes.
 */
async function lockTasksTable(schema: string): Promise<pg.Client> {
  const blocker = new pg.Client({ connectionString: db.url() });
  await blocker.connect();
  onTestFinished(() => blocker.end());
  await blocker.query('BEGIN');
  await blocker.query(`LOCK TABLE "${schema}".tasks IN ACCESS EXCLUSIVE MODE`);
  return blocker;
}

/** Waits, for up to 10 s, until a sweep has resumed `task`; `what` names it in the failure. */
async function resumedWithin10s(task: TaskArrival, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!resumed.some((entry) => entry.arrival.taskId === task.taskId)) {
    if (Date.now() > deadline) throw new Error(`the ${what} task was not resumed within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Two coordinators on a new schema: a holder that holds space `busy`, and a waiter (with
 * `waiterOptions`) that has admitted a task of that space too.
 */
async function waiterBehindHolder(
  waiterOptions: CoordinatorOptions = {},
): Promise<{ schema: string; waiter: PostgresSpaceCoordinator }> {
  const schema = db.newSchema();
  const holder = await open({ schema });
  const waiter = await open({ schema, ...waiterOptions });
  await holder.admit(arrival('busy'));
  await holder.acquire('busy', new AbortController().signal);
  await waiter.admit(arrival('busy'));
  return { schema, waiter };
}

/** Timings under which a write to a locked table fails soon and the instance reconnects soon. */
const failSoonReconnectSoon = {
  statementTimeoutMs: 200,
  sweepIntervalMs: 100,
  reconnectDelayMs: 100,
  reconnectMaxDelayMs: 200,
};

/** Admits a task of space `room` and takes the space for it. */
async function holdRoom(coordinator: PostgresSpaceCoordinator) {
  const task = arrival('room');
  const ticket = await coordinator.admit(task);
  const grant = await coordinator.acquire('room', new AbortController().signal);
  return { task, ticket, grant };
}

describe('PostgresSpaceCoordinator errors', () => {
  it('refuses admit and acquire before init, and a second init, with WEFT_COORDINATOR_NOT_STARTED (TSDoc of admit, acquire, init) [claim:tsdoc-coordinator-not-started] [claim:tsdoc-coordinator-init-twice]', async () => {
    const idle = new PostgresSpaceCoordinator({
      connectionString: db.url(),
      schema: db.newSchema(),
    });
    const refused = await errorOf(idle.admit(arrival('a')));
    expect(refused.code).toBe('WEFT_COORDINATOR_NOT_STARTED');
    // A trigger that lets it through answers 503, as the errors reference says.
    expect(refused.status).toBe(503);
    expect((await errorOf(idle.acquire('a', new AbortController().signal))).code).toBe(
      'WEFT_COORDINATOR_NOT_STARTED',
    );
    const started = await open();
    expect((await errorOf(started.init(host))).code).toBe('WEFT_COORDINATOR_NOT_STARTED');
  });

  it('fills in the timings the README gives when they are left out [claim:coord-readme-acquire-timeout] [claim:scaling-ack-acquire-timeout] [claim:wp-limits-acquire-timeout] [claim:coord-readme-takeover] [claim:coord-readme-reconnect] [claim:coord-readme-health] [claim:wp-coordinator] [claim:scaling-takeover] [claim:scaling-network-cut]', () => {
    const resolved = resolveOptions({ connectionString: 'postgres://localhost/weft' });
    expect(resolved.acquireTimeoutMs).toBe(10 * 60_000);
    expect(resolved.sweepIntervalMs).toBe(1_000);
    // A network cut is noticed within a sweep and the client's read deadline: 7 s by default.
    expect(resolved.sweepIntervalMs + resolved.statementTimeoutMs + 1_000).toBe(7_000);
    expect(resolved.reconnectDelayMs).toBe(500);
    expect(resolved.reconnectMaxDelayMs).toBe(30_000);
  });

  it('lists every bad option at once, without the connection string, in a PostgresSpaceCoordinatorError [claim:coord-error-class] [claim:errors-coordinator-invalid-options] [claim:coord-readme-invalid-options]', () => {
    let error: unknown;
    try {
      new PostgresSpaceCoordinator({
        connectionString: 'mysql://root:hunter2@db/app',
        schema: 'Bad-Name',
        pollIntervalMs: 0,
        reconnectDelayMs: 1_000,
        reconnectMaxDelayMs: 500,
      });
    } catch (caught) {
      error = caught;
    }
    expect(WeftError.is(error, 'WEFT_COORDINATOR_INVALID_OPTIONS')).toBe(true);
    expect(error).toBeInstanceOf(PostgresSpaceCoordinatorError);
    expect(error).toBeInstanceOf(WeftError);
    expect((error as Error).name).toBe('PostgresSpaceCoordinatorError');
    const message = (error as Error).message;
    expect(message).toMatch(/connectionString/);
    expect(message).toMatch(/schema/);
    expect(message).toMatch(/pollIntervalMs/);
    expect(message).toContain(
      'reconnectMaxDelayMs (500) must not be below reconnectDelayMs (1000)',
    );
    expect(message).not.toContain('hunter2');
  });

  it('refuses each option the errors reference lists, at its edge, and takes the value just inside it [claim:errors-coordinator-invalid-options]', () => {
    const connectionString = 'postgres://agent:hunter2@db/app';
    const refusal = (options: Record<string, unknown>): string => {
      try {
        new PostgresSpaceCoordinator({ connectionString, ...options });
      } catch (error) {
        expect(WeftError.is(error, 'WEFT_COORDINATOR_INVALID_OPTIONS')).toBe(true);
        const { message } = error as Error;
        expect(message).not.toContain('hunter2');
        return message;
      }
      throw new Error(`expected ${JSON.stringify(options)} to be refused`);
    };
    const taken = (options: Record<string, unknown>) =>
      resolveOptions({ connectionString, ...options });
    // A lower-case identifier of up to 54 characters, not starting with pg_.
    expect(taken({ schema: `s${'x'.repeat(53)}` }).schema).toHaveLength(54);
    expect(refusal({ schema: `s${'x'.repeat(54)}` })).toMatch(/schema must be/);
    expect(refusal({ schema: 'Agents' })).toMatch(/schema must be/);
    expect(refusal({ schema: 'pg_agents' })).toMatch(/must not start with 'pg_'/);
    // A timer over 2147483647 ms, or 2147482647 for statementTimeoutMs; a pool size below 1.
    expect(taken({ pollIntervalMs: 2_147_483_647 }).pollIntervalMs).toBe(2_147_483_647);
    expect(refusal({ pollIntervalMs: 2_147_483_648 })).toMatch(/pollIntervalMs/);
    expect(taken({ statementTimeoutMs: 2_147_482_647 }).statementTimeoutMs).toBe(2_147_482_647);
    expect(refusal({ statementTimeoutMs: 2_147_482_648 })).toMatch(/statementTimeoutMs/);
    expect(refusal({ connectTimeoutMs: 1.5 })).toMatch(/connectTimeoutMs/);
    expect(refusal({ poolSize: 0 })).toMatch(/poolSize/);
    // A logger without info, warn and error functions; a key that is no option.
    expect(refusal({ logger: { info() {}, warn() {} } })).toMatch(/logger/);
    expect(refusal({ pollIntervalMS: 500 })).toMatch(/"pollIntervalMS" is not an option/);
  });

  it('refuses a dispatch of a runtime that has not started it with WEFT_COORDINATOR_NOT_STARTED (503), and one after stop() with WEFT_SHUTTING_DOWN [claim:errors-coordinator-not-started-before-start] [claim:task-held-until-start-coordinator] [claim:task-dispatch-coordinator-admit] [claim:errors-503-sources] [claim:index-dispatch-rejects]', async () => {
    const runtime = await runtimeOf(unstarted(), idlePlugin());
    const event = { pluginId: 'work', triggerId: 'task', space: 'early' };
    const early = await errorOf(runtime.dispatch(event));
    expect(early.code).toBe('WEFT_COORDINATOR_NOT_STARTED');
    expect(early.status).toBe(503);
    await runtime.start();
    await runtime.stop();
    const late = await errorOf(runtime.dispatch(event));
    expect(late.code).toBe('WEFT_SHUTTING_DOWN');
    expect(late.status).toBe(503);
  });

  it('refuses with WEFT_SHUTTING_DOWN, recording nothing, a dispatch after a stop() that waits for a start still under way [claim:errors-coordinator-not-started-before-start]', async () => {
    const schema = db.newSchema();
    let entered!: () => void;
    const initEntered = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The coordinator starts before the plugins, so it is running while this init holds the start.
    const plugin = idlePlugin(async () => {
      entered();
      await held;
    });
    const runtime = await runtimeOf(unstarted({ schema }), plugin);
    const starting = errorOf(runtime.start());
    await initEntered;
    const stopping = runtime.stop();
    const refused = await errorOf(
      runtime.dispatch({ pluginId: 'work', triggerId: 'task', space: 'during' }),
    );
    expect(refused).toMatchObject({ code: 'WEFT_SHUTTING_DOWN', status: 503 });
    release();
    expect((await starting).code).toBe('WEFT_RUNTIME_STOPPED');
    await stopping;
    expect(await db.sql(`SELECT count(*)::int AS n FROM "${schema}".tasks`)).toEqual([{ n: 0 }]);
  });

  it('takes the password and the port its connection string leaves out from PGPASSWORD and PGPORT, as its driver pg does [claim:cfg-pg-variables]', async () => {
    const { connectionString, password, port } = withoutPasswordAndPort(db.url());
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    vi.stubEnv('PGPASSWORD', password);
    vi.stubEnv('PGPORT', port);
    const coordinator = await open({ connectionString: connectionString });
    expect(typeof (await coordinator.admit(arrival('env')))).toBe('number');
    vi.stubEnv('PGPASSWORD', 'not-the-password');
    const error = await errorOf(open({ connectionString: connectionString }));
    expect(error.code).toBe('WEFT_COORDINATOR_CONNECT_FAILED');
    expect(error.message).toMatch(/password authentication failed/);
  });

  it('names in its connect error the host, port and database pg took from PGHOST, PGPORT and PGDATABASE where the connection string leaves them out [claim:cfg-pg-variables]', async () => {
    const { connectionString, password } = withoutPasswordAndPort(db.url());
    const refused = await freePort();
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    vi.stubEnv('PGPASSWORD', password);
    vi.stubEnv('PGPORT', String(refused));
    const database = decodeURI(new URL(connectionString).pathname.slice(1));
    const error = await errorOf(open({ connectionString, connectTimeoutMs: 2_000 }));
    expect(error.code).toBe('WEFT_COORDINATOR_CONNECT_FAILED');
    expect(error.message).toContain(`PostgreSQL at 127.0.0.1:${refused}/${database}:`);
    expect(error.message).toContain(`ECONNREFUSED 127.0.0.1:${refused}`);
    // A string without host, port or database: pg takes all three from the variables, and so
    // does the message.
    const user = new URL(connectionString).username;
    vi.stubEnv('PGHOST', '127.0.0.1');
    vi.stubEnv('PGDATABASE', `${database}_missing`);
    vi.stubEnv('PGPORT', String(db.server().port));
    const missing = await errorOf(open({ connectionString: `postgres:///?user=${user}` }));
    expect(missing.code).toBe('WEFT_COORDINATOR_CONNECT_FAILED');
    expect(missing.message).toContain(
      `PostgreSQL at 127.0.0.1:${db.server().port}/${database}_missing: database "${database}_missing" does not exist`,
    );
  });

  it('names host and port when the server refuses, never the password, within the connect timeout', async () => {
    const started = Date.now();
    const refused = new PostgresSpaceCoordinator({
      connectionString: 'postgres://weft:s3cret-pw@127.0.0.1:1/weft',
      connectTimeoutMs: 2_000,
    });
    const error = await errorOf(refused.init(host));
    expect(error.code).toBe('WEFT_COORDINATOR_CONNECT_FAILED');
    expect(error.message).toContain('127.0.0.1:1/weft');
    expect(error.message).not.toContain('s3cret-pw');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('masks a password equal to the user name, which PostgreSQL quotes when it refuses the login, in the message and the cause [claim:errors-coordinator-connect-no-password]', async () => {
    const role = `agent_${randomBytes(6).toString('hex')}`;
    await db.sql(`CREATE ROLE ${role} LOGIN PASSWORD 'not-the-name'`);
    onTestFinished(async () => {
      await db.sql(`DROP ROLE ${role}`);
    });
    const url = new URL(db.url());
    url.username = role;
    url.password = role;
    const error = await errorOf(open({ connectionString: url.toString() }));
    expect(error.code).toBe('WEFT_COORDINATOR_CONNECT_FAILED');
    expect(error.message).toMatch(/password authentication failed for user "\*\*\*"/);
    expect(error.message).not.toContain(role);
    expect((error.cause as Error).message).not.toContain(role);
    expect(error.cause).toMatchObject({ code: '28P01' });
  });

  it('starts with a schema made beforehand for a user who may not create schemas, and fails naming the reason without it [claim:errors-coordinator-schema-beforehand]', async () => {
    const role = `agent_${randomBytes(6).toString('hex')}`;
    await db.sql(`CREATE ROLE ${role} LOGIN PASSWORD 'agent-pw'`);
    const url = new URL(db.url());
    url.username = role;
    url.password = 'agent-pw';
    await db.sql(
      `REVOKE CREATE ON DATABASE "${decodeURIComponent(url.pathname.slice(1))}" FROM PUBLIC`,
    );
    const made = db.newSchema();
    await db.sql(`CREATE SCHEMA "${made}" AUTHORIZATION ${role}`);
    try {
      const refused = await errorOf(open({ connectionString: url.toString() }));
      expect(refused.code).toBe('WEFT_COORDINATOR_CONNECT_FAILED');
      expect(refused.message).toMatch(/permission denied for database/);
      const coordinator = await open({ connectionString: url.toString(), schema: made });
      expect(await coordinator.checkHealth()).toBe(true);
      expect(await coordinator.admit(arrival('room'))).toBeGreaterThan(0);
    } finally {
      await Promise.all(opened.splice(0).map((coordinator) => coordinator.shutdown()));
      await db.sql(`DROP SCHEMA "${made}" CASCADE`);
      await db.sql(`DROP ROLE ${role}`);
    }
  });

  it('is right to refuse a schema starting with pg_: PostgreSQL will not create one [claim:coord-readme-schema-pg-prefix]', async () => {
    await expect(db.sql('CREATE SCHEMA pg_weft')).rejects.toThrow(/unacceptable schema name/);
    expect(() => unstarted({ schema: 'pg_weft' })).toThrow(/must not start with 'pg_'/);
  });

  it('refuses a schema made by a newer version and changes nothing', async () => {
    const schema = db.newSchema();
    await db.sql(`CREATE SCHEMA "${schema}"`);
    await db.sql(`CREATE TABLE "${schema}".meta (key text PRIMARY KEY, value text NOT NULL)`);
    await db.sql(`INSERT INTO "${schema}".meta VALUES ('version', '99')`);
    const error = await errorOf(open({ schema }));
    expect(error.code).toBe('WEFT_COORDINATOR_SCHEMA_TOO_NEW');
    const tables = await db.sql<{ table_name: string }>(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
      [schema],
    );
    expect(tables.map((row) => row.table_name)).toEqual(['meta']);
  });

  it('refuses an event with no JSON form as a 400, and records nothing [claim:tsdoc-coordinator-too-large]', async () => {
    const coordinator = await open();
    const error = await errorOf(coordinator.admit(arrival('room', { big: 10n })));
    expect(error.code).toBe('WEFT_COORDINATOR_INVALID_ARRIVAL');
    expect(error.status).toBe(400);
    expect(error.expose).toBe(true);
  });

  it('refuses an event whose data or metadata nests past 100 levels with a 400 naming the path, records nothing, and records one at the limit [claim:coord-readme-too-deep] [claim:coord-readme-too-deep-path] [claim:errors-coordinator-too-deep]', async () => {
    const schema = db.newSchema();
    const coordinator = await open({ schema });
    /** `levels` objects, each holding the next under `a`: `{}` is 1 level, `{ a: {} }` is 2. */
    const nested = (levels: number): Record<string, unknown> => {
      let value: Record<string, unknown> = {};
      for (let level = 1; level < levels; level += 1) value = { a: value };
      return value;
    };
    const path = (root: string) => `${root}${'.a'.repeat(100)}`;
    const cut = (whole: string) => `${whole.slice(0, 200)}… (${whole.length} characters)`;
    const refused = [
      await errorOf(coordinator.admit(arrival('deep', nested(101)))),
      await errorOf(coordinator.admit({ ...arrival('deep'), metadata: nested(101) })),
      // Far past the limit, deeper than JSON.stringify can follow on the stack.
      await errorOf(coordinator.admit(arrival('deep', nested(200_000)))),
    ];
    expect(refused.map((error) => error.message)).toEqual([
      `PostgresSpaceCoordinator.admit: the event of space "deep" cannot be recorded, since "data" nests objects and arrays deeper than the limit of 100 levels: ${cut(path('data'))} is at level 101; send flatter data. [WEFT_COORDINATOR_INVALID_ARRIVAL]`,
      `PostgresSpaceCoordinator.admit: the event of space "deep" cannot be recorded, since "metadata" nests objects and arrays deeper than the limit of 100 levels: ${cut(path('metadata'))} is at level 101; send flatter data. [WEFT_COORDINATOR_INVALID_ARRIVAL]`,
      `PostgresSpaceCoordinator.admit: the event of space "deep" cannot be recorded, since "data" nests objects and arrays deeper than the limit of 100 levels: ${cut(path('data'))} is at level 101; send flatter data. [WEFT_COORDINATOR_INVALID_ARRIVAL]`,
    ]);
    for (const error of refused) {
      expect(error.code).toBe('WEFT_COORDINATOR_INVALID_ARRIVAL');
      expect(error.status).toBe(400);
    }
    expect(await db.sql(`SELECT count(*)::int AS n FROM "${schema}".tasks`)).toEqual([{ n: 0 }]);
    // At the limit the event is recorded, and reads back as it was sent.
    const ticket = await coordinator.admit(arrival('deep', nested(100)));
    expect(Number.isInteger(ticket)).toBe(true);
  });

  it('refuses an event holding a circular value with a one-line message naming the field, keeping the TypeError as its cause [claim:coord-readme-no-json-form] [claim:coord-invalid-arrival-one-line] [claim:errors-coordinator-invalid-arrival-one-line]', async () => {
    const coordinator = await open();
    const data: Record<string, unknown> = { list: [1, { x: {} }] };
    ((data.list as unknown[])[1] as { x: Record<string, unknown> }).x.back = data;
    const metadata: Record<string, unknown> = {};
    metadata.self = metadata;
    const refused = [
      await errorOf(coordinator.admit(arrival('room', data))),
      await errorOf(coordinator.admit({ ...arrival('room'), metadata })),
      await errorOf(coordinator.admit(arrival('room', { counts: [1, { n: 10n }] }))),
    ];
    expect(refused.map((error) => error.message)).toEqual([
      'PostgresSpaceCoordinator.admit: the event of space "room" cannot be recorded, since "data" holds a circular reference: data.list[1].x.back refers back to an object that contains it; send plain JSON values. [WEFT_COORDINATOR_INVALID_ARRIVAL]',
      'PostgresSpaceCoordinator.admit: the event of space "room" cannot be recorded, since "metadata" holds a circular reference: metadata.self refers back to an object that contains it; send plain JSON values. [WEFT_COORDINATOR_INVALID_ARRIVAL]',
      'PostgresSpaceCoordinator.admit: the event of space "room" cannot be recorded, since "data" holds a BigInt at data.counts[1].n, which JSON cannot write; send plain JSON values. [WEFT_COORDINATOR_INVALID_ARRIVAL]',
    ]);
    for (const error of refused) {
      expect(error.code).toBe('WEFT_COORDINATOR_INVALID_ARRIVAL');
      expect(error.status).toBe(400);
      expect(error.cause).toBeInstanceOf(TypeError);
    }
    expect((refused[0]?.cause as Error).message).toMatch(/circular structure/);
  });

  it('leaves an event with no JSON form to the runtime, which answers 400 WEFT_INVALID_EVENT before the coordinator records anything, and runs nothing [claim:errors-coordinator-invalid-arrival-runtime-first] [claim:coord-readme-runtime-refuses-first]', async () => {
    const schema = db.newSchema();
    // A BigInt has no JSON form: no memory store could keep the task's trigger memory either.
    const { runtime, model } = await startDispatching(unstarted({ schema }), { n: 10n });
    try {
      const answer = await fetch(`${runtime.server.url}/task`, { method: 'POST' });
      expect(answer.status).toBe(400);
      const body = (await answer.json()) as { error: { code: string; docsUrl: string } };
      expect(body.error.code).toBe('WEFT_INVALID_EVENT');
      expect(body.error.docsUrl).toMatch(/#weft_invalid_event$/);
      expect(model.requests).toHaveLength(0);
      expect(await db.sql(`SELECT count(*)::int AS n FROM "${schema}".tasks`)).toEqual([{ n: 0 }]);
    } finally {
      await runtime.stop();
    }
  });

  it("answers 400 for a task too large for PostgreSQL in the coordinator's words, and logs PostgreSQL's own text [claim:errors-400-coordinator-arrival] [claim:coord-readme-too-large-hidden] [claim:errors-coordinator-too-large-hidden] [claim:obs-coord-too-large]", async () => {
    const schema = db.newSchema();
    const warnings: { details: Record<string, unknown>; message: string }[] = [];
    const logger = {
      info: () => undefined,
      warn: (details: object, message: string) =>
        warnings.push({ details: details as Record<string, unknown>, message }),
      error: () => undefined,
    };
    const { runtime, model } = await startDispatching(unstarted({ schema, logger }));
    // The runtime's 200-character cap keeps space ids below PostgreSQL's index limit, so the
    // limit is reached here by a trigger that copies each task's space, grown to 3,200 hex digits
    // that do not compress, into an index of its own: PostgreSQL refuses the insert as it would
    // a space id too long (code 54000), and its text names the index.
    await db.sql(`CREATE TABLE "${schema}".wide (entry text PRIMARY KEY)`);
    await db.sql(`CREATE FUNCTION "${schema}".widen() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO "${schema}".wide
          SELECT string_agg(md5(NEW.space || i), '') FROM generate_series(1, 100) AS i;
        RETURN NEW;
      END $$`);
    await db.sql(`CREATE TRIGGER widen BEFORE INSERT ON "${schema}".tasks
      FOR EACH ROW EXECUTE FUNCTION "${schema}".widen()`);
    try {
      const answer = await fetch(`${runtime.server.url}/task`, { method: 'POST' });
      expect(answer.status).toBe(400);
      const body = (await answer.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('WEFT_COORDINATOR_INVALID_ARRIVAL');
      expect(body.error.message).toMatch(
        /a task of space "room" is too large for PostgreSQL to record: its space id \(4 bytes\) must fit an index entry of at most about 2,700 bytes/,
      );
      expect(body.error.message).not.toMatch(/index row|btree|wide_pkey|54000/i);
      expect(model.requests).toHaveLength(0);
      const logged = warnings.find((line) => line.message.includes('too large'));
      expect(logged?.details).toMatchObject({
        space: 'room',
        spaceBytes: 4,
        error: expect.stringMatching(/index row size \d+ exceeds .* "wide_pkey"/),
      });
      expect(logged?.details.taskId).toEqual(expect.any(String));
    } finally {
      await runtime.stop();
    }
  });

  it('answers 503 with WEFT_COORDINATOR_ADMIT_FAILED and a generic message when PostgreSQL does not record the task within statementTimeoutMs, and runs nothing, with Retry-After: 5 [claim:errors-503-sources] [claim:errors-retry-after-429-503] [claim:coord-readme-retry-after]', async () => {
    const schema = db.newSchema();
    const { runtime, model } = await startDispatching(
      unstarted({ schema, statementTimeoutMs: 300 }),
    );
    // Another session holds the lock that orders the admissions of the space, in a transaction
    // left open, so the insert of the task waits past the statement timeout.
    try {
      await withBlocker(db.url(), async (blocker) => {
        await holdAdmissionLock(blocker, schema, 'room');
        const started = Date.now();
        const answer = await fetch(`${runtime.server.url}/task`, {
          method: 'POST',
          signal: AbortSignal.timeout(10_000),
        });
        expect(Date.now() - started).toBeLessThan(5_000);
        expect(answer.status).toBe(503);
        // The runtime's server gives every 503 WeftError, a coordinator's too, a Retry-After.
        expect(answer.headers.get('retry-after')).toBe('5');
        const body = (await answer.json()) as {
          error: { code: string; message: string; docsUrl: string };
        };
        expect(body.error.code).toBe('WEFT_COORDINATOR_ADMIT_FAILED');
        expect(body.error.docsUrl).toMatch(/#weft_coordinator_admit_failed$/);
        // The details name the database: they go to the log, not to the client.
        expect(body.error.message).not.toMatch(/PostgreSQL|statement/);
        expect(model.requests).toHaveLength(0);
      });
    } finally {
      await runtime.stop();
    }
  });

  it('keeps hostile text, NUL characters included, intact through a takeover by an instance started after the first stopped [claim:scaling-compose-takeover]', async () => {
    const schema = db.newSchema();
    const first = await open({ schema });
    const text = "a\u0000b '; DROP TABLE tasks; -- \u{1F600} \ud800";
    const ticket = await first.admit({ ...arrival('room'), message: text });
    await first.shutdown();
    await open({ schema, sweepIntervalMs: 100 });
    const deadline = Date.now() + 5_000;
    while (resumed.length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(resumed.map((entry) => [entry.ticket, entry.arrival.message])).toEqual([[ticket, text]]);
  });

  it('ends a wait for a space held elsewhere at acquireTimeoutMs, as a 503 [claim:errors-503-sources] [claim:tsdoc-coordinator-acquire-timeout] [claim:coord-readme-acquire-timeout]', async () => {
    const { waiter } = await waiterBehindHolder({ acquireTimeoutMs: 600 });
    const started = Date.now();
    const error = await errorOf(waiter.acquire('busy', new AbortController().signal));
    expect(error.code).toBe('WEFT_COORDINATOR_ACQUIRE_TIMEOUT');
    expect(error.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('gives a wait that ends while PostgreSQL answers its looks no cause, even after an earlier look failed [claim:errors-coordinator-acquire-timeout-cause]', async () => {
    const { schema, waiter } = await waiterBehindHolder({
      statementTimeoutMs: 200,
      acquireTimeoutMs: 2_500,
      pollIntervalMs: 100,
    });
    // The waiter's first looks wait for the locked table and are cancelled at its statement
    // timeout; then PostgreSQL answers again, and the holder's task alone keeps the space.
    const blocker = await lockTasksTable(schema);
    const waiting = errorOf(waiter.acquire('busy', new AbortController().signal));
    await new Promise((resolve) => setTimeout(resolve, 700));
    await blocker.query('COMMIT');
    const error = await waiting;
    expect(error.code).toBe('WEFT_COORDINATOR_ACQUIRE_TIMEOUT');
    expect(error.cause).toBeUndefined();
  }, 20_000);

  it('logs a failed look at the space as acquire failed and looks again; a failed try of its lock is the lock connection lost, with no retry [claim:obs-coord-acquire-failed]', async () => {
    const schema = db.newSchema();
    const lines: { level: string; details: Record<string, unknown>; message: string }[] = [];
    const record = (level: string) => (details: object, message: string) =>
      lines.push({ level, details: details as Record<string, unknown>, message });
    const coordinator = await open({
      schema,
      logger: { info: () => undefined, warn: record('warn'), error: record('error') },
      statementTimeoutMs: 200,
      acquireTimeoutMs: 5_000,
      pollIntervalMs: 100,
    });
    await coordinator.admit(arrival('room'));
    // The looks at the space wait for the locked table and are cancelled at statementTimeoutMs.
    const blocker = await lockTasksTable(schema);
    const granting = coordinator.acquire('room', new AbortController().signal);
    await new Promise((resolve) => setTimeout(resolve, 700));
    await blocker.query('COMMIT');
    const grant = await granting;
    expect(grant.signal.aborted).toBe(false);
    const failedLooks = lines.filter((line) => line.message === 'acquire failed');
    expect(failedLooks.length).toBeGreaterThan(0);
    expect(failedLooks.every((line) => line.level === 'warn')).toBe(true);
    expect(failedLooks[0]?.details).toMatchObject({ space: 'room', error: expect.any(String) });
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
    // A try to take a space's lock that fails is taken for the lock connection's failure.
    await coordinator.admit(arrival('hall'));
    const query = pg.Client.prototype.query;
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
      this: pg.Client,
      ...args: unknown[]
    ) {
      if (typeof args[0] === 'string' && args[0].includes('pg_try_advisory_lock')) {
        return Promise.reject(new Error('lock query failed'));
      }
      return (query as (...rest: unknown[]) => unknown).apply(this, args);
    } as never);
    onTestFinished(() => spy.mockRestore());
    lines.length = 0;
    const refused = await errorOf(coordinator.acquire('hall', new AbortController().signal));
    spy.mockRestore();
    expect(refused.code).toBe('WEFT_COORDINATOR_CONNECTION_LOST');
    expect(lines.map((line) => line.message)).toEqual([
      'lost the connection holding this instance’s locks; its spaces pass to other instances while it reconnects',
    ]);
    expect(lines[0]?.details).toMatchObject({ error: 'lock query failed' });
  }, 20_000);

  it('ends a wait at acquireTimeoutMs also when PostgreSQL answers none of the looks at the space, and runs the task after all when it cannot delete its row either [claim:coord-readme-acquire-timeout] [claim:coord-readme-acquire-timeout-undeleted] [claim:scaling-ack-acquire-timeout] [claim:scaling-acquire-timeout-undeleted] [claim:wp-limits-acquire-timeout]', async () => {
    const schema = db.newSchema();
    const coordinator = await open({ schema, ...failSoonReconnectSoon, acquireTimeoutMs: 1_000 });
    const task = arrival('room');
    const ticket = await coordinator.admit(task);
    // No other instance holds the space; another session holds the table, so every query on
    // it waits and PostgreSQL cancels each at statementTimeoutMs.
    const blocker = await lockTasksTable(schema);
    const error = await errorOf(coordinator.acquire('room', new AbortController().signal));
    expect(error.code).toBe('WEFT_COORDINATOR_ACQUIRE_TIMEOUT');
    // PostgreSQL's query_canceled: the statement timeout of the last look.
    expect(error.cause).toMatchObject({ code: '57014' });
    // The scheduler forgets a task whose wait timed out; PostgreSQL refuses that deletion too,
    // so the instance gives its spaces up and reconnects...
    await coordinator.release('room', ticket, 'finished');
    expect(await coordinator.checkHealth()).toBe(false);
    await blocker.query('COMMIT');
    // ... and the row, left in place, is taken over: the task runs after all.
    await resumedWithin10s(task, 'undeleted');
    expect(resumed.find((entry) => entry.arrival.taskId === task.taskId)?.ticket).toBe(ticket);
  }, 20_000);

  /**
   * An acquire of a space whose tasks table another client holds locked, so that every look at
   * the space waits for the table until PostgreSQL cancels it at `statementTimeoutMs`.
   */
  async function acquireWithTableLocked(options: {
    statementTimeoutMs: number;
    acquireTimeoutMs: number;
    pollIntervalMs: number;
  }): Promise<{ error: WeftError; elapsed: number }> {
    const schema = db.newSchema();
    const coordinator = await open({ schema, ...options });
    await coordinator.admit(arrival('room'));
    const blocker = await lockTasksTable(schema);
    const started = Date.now();
    const error = await errorOf(coordinator.acquire('room', new AbortController().signal));
    const elapsed = Date.now() - started;
    await blocker.query('ROLLBACK');
    return { error, elapsed };
  }

  it('fails an acquire only once its last look at the space has ended, which can be a statement deadline past acquireTimeoutMs [claim:coord-readme-acquire-last-look]', async () => {
    const { error, elapsed } = await acquireWithTableLocked({
      statementTimeoutMs: 1_500,
      acquireTimeoutMs: 100,
      pollIntervalMs: 1_000,
    });
    expect(error.code).toBe('WEFT_COORDINATOR_ACQUIRE_TIMEOUT');
    // Not at 100 ms: the look begun at once ends at the statement deadline, and only then is
    // the deadline seen. Within that look, a second for the client and a poll interval.
    expect(elapsed).toBeGreaterThanOrEqual(1_500);
    expect(elapsed).toBeLessThan(1_500 + 1_000 + 1_000 + 1_000);
  }, 20_000);

  it('fails an acquire as soon as a look that ended past acquireTimeoutMs has, without a poll interval more', async () => {
    const { error, elapsed } = await acquireWithTableLocked({
      statementTimeoutMs: 1_500,
      acquireTimeoutMs: 1_000,
      pollIntervalMs: 1_000,
    });
    expect(error.code).toBe('WEFT_COORDINATOR_ACQUIRE_TIMEOUT');
    // The look ends at 1.5 s, past the 1 s deadline: no pause of pollIntervalMs (up to 2.5 s)
    // follows it before the error.
    expect(elapsed).toBeGreaterThanOrEqual(1_500);
    expect(elapsed).toBeLessThan(2_300);
  }, 20_000);

  it('gives its spaces up and reconnects when PostgreSQL does not record that a task finished, and the task runs again [claim:coord-readme-finish-unrecorded] [claim:coord-readme-health] [claim:obs-coord-finish-unrecorded] [claim:obs-coord-lost-after-finish]', async () => {
    const schema = db.newSchema();
    const errors: { details: Record<string, unknown>; message: string }[] = [];
    const coordinator = await open({
      schema,
      logger: {
        info: () => undefined,
        warn: () => undefined,
        error: (details: object, message: string) =>
          errors.push({ details: details as Record<string, unknown>, message }),
      },
      ...failSoonReconnectSoon,
    });
    const { task, ticket, grant } = await holdRoom(coordinator);
    const before = coordinator.instance;
    // Another session holds the table, so each attempt to delete the finished task's row waits
    // and PostgreSQL cancels it at statementTimeoutMs.
    const blocker = await lockTasksTable(schema);
    await coordinator.release('room', ticket, 'finished');
    // The instance gave its spaces up, as when its lock connection drops.
    expect(grant.signal.aborted).toBe(true);
    expect(grant.signal.reason).toMatchObject({ code: 'WEFT_COORDINATOR_CONNECTION_LOST' });
    expect(await coordinator.checkHealth()).toBe(false);
    // The failed write is logged, then the lost-connection line, with that failure as its error.
    expect(errors.map((line) => line.message)).toEqual([
      'could not record the end of a task; giving this instance’s spaces up',
      'lost the connection holding this instance’s locks; its spaces pass to other instances while it reconnects',
    ]);
    expect(errors[1]?.details).toMatchObject({ instance: before, error: errors[0]?.details.error });
    await blocker.query('COMMIT');
    // Its row, left in place, is taken over once the instance is back: the task runs again.
    await resumedWithin10s(task, 'finished');
    expect(resumed.find((entry) => entry.arrival.taskId === task.taskId)?.ticket).toBe(ticket);
    expect(await coordinator.checkHealth()).toBe(true);
    expect(coordinator.instance).not.toBe(before);
  }, 20_000);

  it('gives its spaces up at the first failure to record that a task was abandoned, with no retry, and the task runs again [claim:coord-readme-abandon-unrecorded]', async () => {
    const schema = db.newSchema();
    const coordinator = await open({ schema, ...failSoonReconnectSoon });
    const { task, ticket, grant } = await holdRoom(coordinator);
    const before = coordinator.instance;
    const blocker = await lockTasksTable(schema);
    const started = Date.now();
    await coordinator.release('room', ticket, 'abandoned');
    // One statement deadline, not three tries with pauses between them.
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(grant.signal.aborted).toBe(true);
    expect(await coordinator.checkHealth()).toBe(false);
    await blocker.query('COMMIT');
    await resumedWithin10s(task, 'abandoned');
    expect(coordinator.instance).not.toBe(before);
  }, 20_000);

  it('runs and releases a task in a schema of the longest name it takes, 54 characters, and stays connected [claim:coord-readme-schema-length]', async () => {
    const schema = `${db.newSchema()}_`.padEnd(54, 'x');
    expect(schema).toHaveLength(54);
    const holder = await open({ schema });
    const waiter = await open({ schema });
    const first = await holder.admit(arrival('room'));
    const second = await waiter.admit(arrival('room'));
    expect((await holder.acquire('room', new AbortController().signal)).ticket).toBe(first);
    const waiting = waiter.acquire('room', new AbortController().signal);
    await holder.release('room', first, 'finished');
    // The release's notification went out on the schema's channel: the holder stays connected.
    expect(await holder.checkHealth()).toBe(true);
    expect((await waiting).ticket).toBe(second);
  });

  it('ends a wait when the scheduler’s signal aborts', async () => {
    const { waiter } = await waiterBehindHolder();
    const controller = new AbortController();
    const waiting = waiter.acquire('busy', controller.signal);
    setTimeout(() => controller.abort(new Error('stopping')), 100);
    await expect(waiting).rejects.toThrow('stopping');
  });

  it('aborts the running task and refuses new ones when its lock connection is killed; another instance takes the task over [claim:coord-readme-connection-lost] [claim:httpchat-503-coordinator] [claim:prod-outage-coordinator] [claim:prod-outage-coordinator-health] [claim:scaling-connection-lost] [claim:scaling-restart-gives-up] [claim:scaling-restart-readiness] [claim:errors-503-sources] [claim:tsdoc-coordinator-reconnects] [claim:tsdoc-coordinator-health-reconnecting] [claim:wp-coordinator-reconnects] [claim:coord-readme-health]', async () => {
    const schema = db.newSchema();
    const victim = await open({ schema });
    await victim.admit(arrival('room'));
    const grant = await victim.acquire('room', new AbortController().signal);
    await open({ schema, sweepIntervalMs: 100 });
    await db.sql(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'weft-coordinator' AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND ((classid::bigint << 32) | objid::bigint) = $1::bigint)",
      [victim.instance],
    );
    const deadline = Date.now() + 5_000;
    while (!grant.signal.aborted && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(grant.signal.aborted).toBe(true);
    expect(await victim.checkHealth()).toBe(false);
    const refused = await errorOf(victim.admit(arrival('room')));
    expect(refused.code).toBe('WEFT_COORDINATOR_CONNECTION_LOST');
    expect(refused.status).toBe(503);
    expect(refused.expose).toBe(false);
    while (resumed.length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(resumed).toHaveLength(1);
  });

  it('reconnects by itself after its lock connection is killed, under a new key, and takes work again [claim:coord-readme-reconnect] [claim:prod-outage-coordinator] [claim:prod-outage-coordinator-health] [claim:scaling-connection-lost] [claim:scaling-restart-new-key] [claim:scaling-restart-readiness] [claim:tsdoc-coordinator-reconnects] [claim:tsdoc-coordinator-health-reconnecting] [claim:wp-coordinator-reconnects] [claim:coord-readme-health] [claim:coord-readme-new-key]', async () => {
    const schema = db.newSchema();
    // Only a notification can wake the victim's waits within the test: its poll is a minute apart.
    // The first reconnection waits 150 to 300 ms: long enough to see the instance unhealthy.
    const victim = await open({
      schema,
      reconnectDelayMs: 300,
      reconnectMaxDelayMs: 600,
      pollIntervalMs: 60_000,
    });
    const holder = await open({ schema });
    const before = victim.instance;
    expect(await victim.checkHealth()).toBe(true);
    await dropLockConnection(before);
    // While it reconnects, a readiness probe sees it unhealthy.
    let sawUnhealthy = false;
    const deadline = Date.now() + 10_000;
    while (victim.instance === before && Date.now() < deadline) {
      if (!(await victim.checkHealth())) sawUnhealthy = true;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(sawUnhealthy).toBe(true);
    expect(victim.instance).not.toBe(before);
    expect(await victim.checkHealth()).toBe(true);
    // The new session holds its instance lock...
    const locks = await db.sql(
      "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND granted AND ((classid::bigint << 32) | objid::bigint) = $1::bigint",
      [victim.instance],
    );
    expect(locks).toHaveLength(1);
    // ...and listens again: the holder's release wakes its wait at once.
    const held = await holder.admit(arrival('after'));
    await holder.acquire('after', new AbortController().signal);
    const ticket = await victim.admit(arrival('after'));
    const waiting = victim.acquire('after', new AbortController().signal);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const released = Date.now();
    await holder.release('after', held, 'finished');
    expect((await waiting).ticket).toBe(ticket);
    expect(Date.now() - released).toBeLessThan(5_000);
    await victim.release('after', ticket, 'finished');
    expect(await db.sql(`SELECT ticket FROM "${schema}".tasks`)).toEqual([]);
  });

  it('after reconnecting, hands a task still queued from before back cut short; the next takeover runs it before the tasks accepted since [claim:tsdoc-coordinator-orphan-grant]', async () => {
    const schema = db.newSchema();
    const coordinator = await open({
      schema,
      reconnectDelayMs: 50,
      reconnectMaxDelayMs: 200,
      sweepIntervalMs: 100,
    });
    const before = coordinator.instance;
    const early = await coordinator.admit(arrival('room'));
    await dropLockConnection(before);
    // The early task is never given back here, as a scheduler stuck behind it would not: the
    // reconnection waits for it for a while, then goes ahead.
    const deadline = Date.now() + 30_000;
    while (coordinator.instance === before && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(coordinator.instance).not.toBe(before);
    const late = await coordinator.admit(arrival('room'));

    const cut = await coordinator.acquire('room', new AbortController().signal);
    expect(cut.ticket).toBe(early);
    expect(cut.signal.aborted).toBe(true);
    expect(WeftError.is(cut.signal.reason, 'WEFT_COORDINATOR_CONNECTION_LOST')).toBe(true);
    await coordinator.release('room', early, 'abandoned');
    // Its row is left for a takeover, which this instance makes itself at its next sweep.
    while (!resumed.some((entry) => entry.ticket === early) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(resumed.map((entry) => entry.ticket)).toEqual([early]);
    const first = await coordinator.acquire('room', new AbortController().signal);
    expect([first.ticket, first.signal.aborted]).toEqual([early, false]);
    await coordinator.release('room', early, 'finished');
    const second = await coordinator.acquire('room', new AbortController().signal);
    expect(second.ticket).toBe(late);
    await coordinator.release('room', late, 'finished');
    expect(await db.sql(`SELECT ticket FROM "${schema}".tasks`)).toEqual([]);
  }, 60_000);

  it('releases a space whose id is over 8,000 bytes, wakes its next holder, and keeps its other spaces [claim:tsdoc-coordinator-release-key] [claim:coord-readme-release-hash]', async () => {
    const schema = db.newSchema();
    // PostgreSQL refuses a notification payload of 8,000 bytes or more; this id is 9,000 bytes.
    const long = `room-${'é'.repeat(4_497)}`;
    expect(Buffer.byteLength(long)).toBeGreaterThan(8_000);
    const holder = await open({ schema });
    // Only a notification can wake the waiter within the test: its poll is a minute apart.
    const waiter = await open({ schema, pollIntervalMs: 60_000 });
    const first = await holder.admit(arrival(long));
    const grant = await holder.acquire(long, new AbortController().signal);
    await holder.admit(arrival('other'));
    const other = await holder.acquire('other', new AbortController().signal);
    const next = await waiter.admit(arrival(long));
    const waiting = waiter.acquire(long, new AbortController().signal);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const released = Date.now();
    await holder.release(long, first, 'finished');
    expect((await waiting).ticket).toBe(next);
    expect(Date.now() - released).toBeLessThan(5_000);
    expect(grant.signal.aborted).toBe(false);
    expect(other.signal.aborted).toBe(false);
    expect(await holder.checkHealth()).toBe(true);
    // The holder still holds "other": the waiter cannot take it.
    const third = await waiter.admit(arrival('other'));
    const refused = await waiter.acquire('other', AbortSignal.timeout(300)).catch((e: Error) => e);
    expect((refused as Error).name).toBe('TimeoutError');
    expect(third).toBeGreaterThan(other.ticket);
  });

  it('refuses a space id too large for PostgreSQL’s index as a 400, and keeps running [claim:tsdoc-coordinator-too-large] [claim:coord-readme-invalid-arrival]', async () => {
    const coordinator = await open();
    // Hexadecimal digits of random bytes do not compress: 2,600 of them fit, 2,800 do not.
    const hex = (length: number) => randomBytes(length / 2).toString('hex');
    expect(await coordinator.admit(arrival(hex(2_600)))).toBeGreaterThan(0);
    for (const huge of [hex(2_800), hex(9_000)]) {
      const error = await errorOf(coordinator.admit(arrival(huge)));
      expect(error.code).toBe('WEFT_COORDINATOR_INVALID_ARRIVAL');
      expect(error.status).toBe(400);
      expect(error.message.length).toBeLessThan(1_000);
      expect(error.message).not.toMatch(/index row|btree/);
      expect((error.cause as Error).message).toMatch(/index row/);
    }
    expect(await coordinator.checkHealth()).toBe(true);
    expect(await coordinator.admit(arrival('fine'))).toBeGreaterThan(0);
  });

  it('answers WEFT_COORDINATOR_ADMIT_FAILED (503) when the answer comes too late, and still runs a task whose row was written [claim:errors-coordinator-admit-failed-may-run] [claim:scaling-admit-failed-may-run] [claim:tsdoc-coordinator-admit-failed] [claim:coord-readme-admit-failed-may-run]', async () => {
    const schema = db.newSchema();
    const statementTimeoutMs = 200;
    const coordinator = await open({ schema, statementTimeoutMs, sweepIntervalMs: 100 });
    // A trigger deferred to the commit holds the commit past the client's deadline
    // (statementTimeoutMs + 1 s): PostgreSQL stops timing a statement before it commits, so the
    // row is written after the client has given up on its answer, as when an answer is lost.
    await db.sql(`CREATE FUNCTION "${schema}".slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_sleep(2); RETURN NULL; END $$`);
    await db.sql(`CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON "${schema}".tasks
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "${schema}".slow_commit()`);
    const late = arrival('room');
    const error = await errorOf(coordinator.admit(late));
    expect(error.code).toBe('WEFT_COORDINATOR_ADMIT_FAILED');
    expect(error.status).toBe(503);
    // The row may have been written: the message must not say it was not.
    expect(error.message).toMatch(
      /^PostgresSpaceCoordinator\.admit: PostgreSQL did not confirm that it recorded a task of space "room", which may still run: /,
    );
    await resumedWithin10s(late, 'written');
    const rows = await db.sql<{ owner: string }>(`SELECT owner::text FROM "${schema}".tasks`);
    expect(rows).toEqual([{ owner: coordinator.instance }]);
  }, 20_000);
});
