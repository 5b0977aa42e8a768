/**
 * Faults on a real server: a crash and restart in the middle of a run, a statement held up by a
 * lock, a server that refuses or never answers at init, and an outage longer than the
 * reconnect window.
 */
import { randomUUID } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { inspect } from 'node:util';
import { Writable } from 'node:stream';
import pg from 'pg';
import { pino } from 'pino';
import { Runtime, WeftError, type Memory } from '@weft/core';
import { ScriptedModelProvider } from '@weft/testing';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  PostgresMemoryProvider,
  PostgresMemoryProviderError,
  type PostgresPoolOptions,
} from '../src/index.js';
import { freePort, withoutPasswordAndPort } from '@weft-internal/test-support/postgres-server';
import { MIGRATION_LOCK_CLASS } from '../src/migrations.js';
import { initDespiteLoad, useServer } from './helpers.js';

const db = useServer();

const SECRET = 'sup3r-secret-pw';

/** A server that accepts connections and never answers: a hung dependency. */
async function silentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A TCP proxy to the server that can stop forwarding in both directions (a server, or a
 * network, that hangs without closing anything), or only the server's answers (a network that
 * loses them after the server got the statement).
 */
async function hangableProxy(port: number): Promise<{
  port: number;
  hang: (on: boolean | 'answers') => void;
  /** Stops forwarding the server's answers once the client sends a statement holding `text`. */
  hangAnswersFrom: (text: string) => void;
  /**
   * Once the client sends a statement holding `text`, lets the server run it and closes that
   * connection, both ways, when the server's answer arrives, instead of passing the answer on.
   */
  breakAfterAnswerTo: (text: string) => void;
  close: () => Promise<void>;
}> {
  let hung: boolean | 'answers' = false;
  let trigger: string | undefined;
  let breakTrigger: string | undefined;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    let breakOnAnswer = false;
    client.on('data', (chunk: Buffer) => {
      if (trigger !== undefined && chunk.includes(trigger)) {
        hung = 'answers';
        trigger = undefined;
      }
      if (breakTrigger !== undefined && chunk.includes(breakTrigger)) {
        breakOnAnswer = true;
        breakTrigger = undefined;
      }
      if (hung !== true) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (breakOnAnswer) {
        client.destroy();
        upstream.destroy();
        return;
      }
      if (!hung) client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    hang: (on) => {
      hung = on;
    },
    hangAnswersFrom: (text) => {
      trigger = text;
    },
    breakAfterAnswerTo: (text) => {
      breakTrigger = text;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A provider that reaches the test server through a {@link hangableProxy}, with its own schema
 * and the given pool settings.
 */
async function behindHangableProxy(pool: PostgresPoolOptions, schema = db.newSchema()) {
  const { host, port, user, password } = db.server();
  const proxy = await hangableProxy(port);
  const database = new URL(db.url()).pathname.slice(1);
  const memory = new PostgresMemoryProvider({
    connectionString: `postgres://${user}:${encodeURIComponent(password)}@${host}:${proxy.port}/${database}`,
    schema,
    pool,
  });
  return { proxy, memory };
}

/** Everything an error shows: message, code, cause chain, as util.inspect prints it. */
const everything = (error: unknown): string => `${String(error)}\n${inspect(error, { depth: 8 })}`;

/**
 * Waits, with a deadline, until `count` statements of the provider `id` wait on a lock, and
 * returns their server process ids.
 */
async function lockWaiters(id: string, count: number): Promise<number[]> {
  const deadline = Date.now() + 10_000;
  let pids: number[] = [];
  while (pids.length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    pids = (
      await db.sql<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity
          WHERE application_name = $1 AND wait_event_type = 'Lock'`,
        [`weft-memory-postgres/${id}`],
      )
    ).map((row) => row.pid);
  }
  expect(pids.length).toBe(count);
  return pids;
}

/**
 * Waits until `count` statements of the provider `id` wait on a lock, then ends their
 * connections on the server, as a connection that breaks while a statement runs.
 */
async function terminateLockWaiters(id: string, count: number): Promise<void> {
  for (const pid of await lockWaiters(id, count)) {
    await db.sql('SELECT pg_terminate_backend($1)', [pid]);
  }
}

/**
 * Holds the provider's memories table under an ACCESS EXCLUSIVE lock from another session, so
 * its statements wait; `unlock` rolls the lock back, `close` does so if still held and ends the
 * session.
 */
async function lockMemories(
  memory: PostgresMemoryProvider,
): Promise<{ unlock: () => Promise<void>; close: () => Promise<void> }> {
  const locker = new pg.Client({ connectionString: db.url() });
  await locker.connect();
  let locked = false;
  const unlock = async (): Promise<void> => {
    if (!locked) return;
    await locker.query('ROLLBACK');
    locked = false;
  };
  try {
    await locker.query('BEGIN');
    locked = true;
    await locker.query(`LOCK TABLE "${memory.schema}".weft_memories IN ACCESS EXCLUSIVE MODE`);
  } catch (error) {
    await locker.end();
    throw error;
  }
  return {
    unlock,
    close: async () => {
      try {
        await unlock();
      } finally {
        await locker.end();
      }
    },
  };
}

/**
 * An initialised provider behind a hangable proxy (see {@link behindHangableProxy}); once the test
 * ends, the proxy forwards again, the provider shuts down and the proxy closes.
 */
async function openBehindHangableProxy(pool: PostgresPoolOptions) {
  const { proxy, memory } = await behindHangableProxy(pool);
  onTestFinished(async () => {
    proxy.hang(false);
    await memory.shutdown();
    await proxy.close();
  });
  await initDespiteLoad(memory);
  return { proxy, memory };
}

/**
 * An initialised provider that logs in as a new role, with the password `passwordOf` gives for
 * the role's name, and owns its schema; the role's password is then changed, and its idle
 * connections close at once, so the next call must log in again and is rejected. The provider is
 * shut down and the schema and role dropped after the test.
 */
async function loggedInThenPasswordChanged(
  passwordOf: (role: string) => string,
): Promise<{ memory: PostgresMemoryProvider; role: string }> {
  const role = `relogin_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const password = passwordOf(role);
  await db.sql(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
  const schema = db.newSchema();
  await db.sql(`CREATE SCHEMA "${schema}" AUTHORIZATION ${role}`);
  const url = new URL(db.url());
  url.username = role;
  url.password = password;
  const memory = db.create({
    connectionString: url.toString(),
    schema,
    pool: { idleTimeoutMs: 1, reconnectTimeoutMs: 10_000 },
  });
  onTestFinished(async () => {
    await memory.shutdown();
    await db.sql(`DROP SCHEMA "${schema}" CASCADE`);
    await db.sql(`DROP ROLE ${role}`);
  });
  await memory.init();
  await db.sql(`ALTER ROLE ${role} PASSWORD 'second-pw'`);
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { memory, role };
}

describe('PostgresMemoryProvider under faults', () => {
  it('loses no acknowledged write when the server crashes and restarts mid-run [claim:mpo-pg-timeouts] [claim:prod-outage-memory-postgres] [claim:pg-restart-no-loss] [claim:pg-restart]', async () => {
    const memory = await db.open({ pool: { reconnectTimeoutMs: 30_000, max: 4 } });
    const acknowledged: Memory[] = [];
    const failures: unknown[] = [];
    let restarted = false;
    let afterRestart = 0;
    const writer = async (lane: number): Promise<void> => {
      for (let index = 0; afterRestart < 40; index += 1) {
        try {
          acknowledged.push(
            await memory.store({
              space: `lane-${lane}`,
              kind: 'note',
              content: { lane, index },
              metadata: {},
            }),
          );
          if (restarted) afterRestart += 1;
        } catch (error) {
          failures.push(error);
          return;
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    while (acknowledged.length < 40) await new Promise((resolve) => setTimeout(resolve, 10));
    // An immediate stop is a crash: no checkpoint, recovery replays the log on start.
    await db.server().stop('immediate');
    const whileDown = acknowledged.length;
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(acknowledged.length).toBe(whileDown);
    await db.server().start();
    restarted = true;
    await Promise.all(writers);

    expect(failures).toEqual([]);
    expect(afterRestart).toBeGreaterThanOrEqual(40);
    const rows = await db.sql<{ id: string }>(
      `SELECT id::text AS id FROM "${memory.schema}".weft_memories`,
    );
    const stored = new Set(rows.map((row) => row.id));
    expect(acknowledged.filter((each) => !stored.has(each.id))).toEqual([]);
    // Retried stores were written once.
    expect(rows.length).toBe(acknowledged.length);
    expect(await memory.checkHealth()).toBe(true);
  }, 120_000);

  it('retries a store whose connection broke after the server had stored it, with the same id, so it resolves and is stored once [claim:pg-restart-no-loss]', async () => {
    const { proxy, memory } = await openBehindHangableProxy({ reconnectTimeoutMs: 10_000 });
    // The server runs the INSERT and commits it; the connection breaks before its answer arrives.
    proxy.breakAfterAnswerTo('INSERT INTO');
    const stored = await memory.store({ space: 'broken', kind: 'note', content: 1, metadata: {} });
    const rows = await db.sql<{ id: string }>(
      `SELECT id::text AS id FROM "${memory.schema}".weft_memories`,
    );
    expect(rows.map((row) => row.id)).toEqual([stored.id]);
    expect((await memory.query({ space: 'broken' })).map((each) => each.id)).toEqual([stored.id]);
  });

  it('cancels a statement held up past the statement timeout, with a clear error [claim:errors-postgres-statement-timeout-written] [claim:pg-statement-timeout] [claim:mpo-pg-default-statement-timeout] [claim:pg-readme-statement-timeout-row] [claim:pg-readme-statement-timeout-option] [claim:mpo-pg-timeouts]', async () => {
    const memory = await db.open({ pool: { statementTimeoutMs: 300 } });
    const lock = await lockMemories(memory);
    try {
      const started = Date.now();
      const failure = await memory
        .store({ space: 'blocked', kind: 'note', content: 1, metadata: {} })
        .catch((error: unknown) => error);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(WeftError.is(failure, 'WEFT_POSTGRES_STATEMENT_TIMEOUT')).toBe(true);
      expect((failure as Error).message).toMatch(
        /store\(\) of a memory of kind "note" in space "blocked" ran past the statement timeout of 300 ms/,
      );
      await expect(memory.query({})).rejects.toMatchObject({
        code: 'WEFT_POSTGRES_STATEMENT_TIMEOUT',
      });
    } finally {
      await lock.close();
    }
    // Nothing was written, and the provider works once the lock is gone.
    expect(await memory.query({})).toEqual([]);
    await memory.store({ space: 'free', kind: 'note', content: 2, metadata: {} });
    expect((await memory.query({})).length).toBe(1);
  });

  it('fails init on a refused port with WEFT_POSTGRES_CONNECT_FAILED naming host and port, never the password [claim:pg-password-never-shown] [claim:mpo-pg-password-hidden] [claim:pg-connect-failed] [claim:pg-error-codes] [claim:pg-readme-connect-failed] [claim:mpo-pg-connect-failed]', async () => {
    const port = await freePort();
    const memory = new PostgresMemoryProvider({
      connectionString: `postgres://weft:${SECRET}@127.0.0.1:${port}/weft`,
    });
    const failure = await memory.init().catch((error: unknown) => error);
    expect(WeftError.is(failure, 'WEFT_POSTGRES_CONNECT_FAILED')).toBe(true);
    expect(failure).toBeInstanceOf(PostgresMemoryProviderError);
    expect(failure).toBeInstanceOf(WeftError);
    expect((failure as Error).message).toContain(`127.0.0.1:${port}`);
    expect((failure as Error).message).toContain('ECONNREFUSED');
    expect(everything(failure)).not.toContain(SECRET);
  });

  it('makes Runtime.start fail with WEFT_START_FAILED naming host and port, and logs no password [claim:pg-password-never-shown] [claim:mpo-pg-password-hidden] [claim:pg-connect-failed] [claim:pg-start-failed] [claim:mpo-pg-connect-failed]', async () => {
    const port = await freePort();
    let logged = '';
    const logger = pino(
      { level: 'debug' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          logged += chunk.toString();
          done();
        },
      }),
    );
    const runtime = await Runtime.init({
      models: [new ScriptedModelProvider()],
      memory: new PostgresMemoryProvider({
        connectionString: `postgresql://weft:${encodeURIComponent(`${SECRET}/@`)}@127.0.0.1:${port}/weft`,
      }),
      plugins: [],
      options: { logger },
    });
    const failure = await runtime.start().catch((error: unknown) => error);
    expect(WeftError.is(failure, 'WEFT_START_FAILED')).toBe(true);
    expect((failure as Error).message).toMatch(
      new RegExp(`memory provider "postgres" failed to initialise: .*127\\.0\\.0\\.1:${port}`),
    );
    expect(logged).toContain(`127.0.0.1:${port}`);
    for (const text of [everything(failure), logged]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(encodeURIComponent(`${SECRET}/@`));
    }
  });

  it('takes the password and the port a connection string leaves out from PGPASSWORD and PGPORT, as its driver pg does [claim:cfg-pg-variables]', async () => {
    const { connectionString, password, port } = withoutPasswordAndPort(db.url());
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    vi.stubEnv('PGPASSWORD', password);
    vi.stubEnv('PGPORT', port);
    const memory = db.create({ connectionString: connectionString });
    await memory.init();
    const stored = await memory.store({ space: 'env', kind: 'note', content: 1, metadata: {} });
    expect((await memory.query({ space: 'env' })).map((memory) => memory.id)).toEqual([stored.id]);
    // The same string with another PGPASSWORD is refused: the variable is what logged in.
    vi.stubEnv('PGPASSWORD', SECRET);
    const refused = db.create({ connectionString: connectionString });
    const failure = await refused.init().catch((error: unknown) => error);
    expect(WeftError.is(failure, 'WEFT_POSTGRES_CONNECT_FAILED')).toBe(true);
    expect((failure as Error).message).toMatch(/password authentication failed/);
  });

  it('masks PGPASSWORD, when the connection string holds no password, where a refused login quotes it as the user name [claim:cfg-pgpassword-masked] [claim:errors-postgres-connect-no-password]', async () => {
    const role = `pgpass_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await db.sql(`CREATE ROLE ${role} LOGIN PASSWORD 'not-the-name'`);
    onTestFinished(async () => {
      vi.unstubAllEnvs();
      await db.sql(`DROP ROLE ${role}`);
    });
    const url = new URL(db.url());
    url.username = role;
    url.password = '';
    vi.stubEnv('PGPASSWORD', role);
    const failure = await db
      .create({ connectionString: url.toString() })
      .init()
      .catch((error: unknown) => error);
    expect(WeftError.is(failure, 'WEFT_POSTGRES_CONNECT_FAILED')).toBe(true);
    expect((failure as Error).message).toMatch(/password authentication failed for user "\*\*\*"/);
    expect(everything(failure)).not.toContain(role);
  });

  it('names in its errors the host, port and database pg took from PGHOST, PGPORT and PGDATABASE where the connection string leaves them out [claim:pg-connect-failed] [claim:pg-readme-unavailable-host-port] [claim:cfg-pg-variables] [claim:pg-readme-pg-variables]', async () => {
    const { connectionString, password } = withoutPasswordAndPort(db.url());
    const refused = await freePort();
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    vi.stubEnv('PGPASSWORD', password);
    vi.stubEnv('PGPORT', String(refused));
    const memory = db.create({ connectionString });
    const failure = await memory.init().catch((error: unknown) => error);
    expect(WeftError.is(failure, 'WEFT_POSTGRES_CONNECT_FAILED')).toBe(true);
    const database = new URL(connectionString).pathname.slice(1);
    expect((failure as Error).message).toContain(
      `cannot connect to PostgreSQL at 127.0.0.1:${refused} (database "${database}")`,
    );
    expect((failure as Error).message).toContain(`ECONNREFUSED 127.0.0.1:${refused}`);
    // A string without host, port or database: pg takes all three from the variables.
    const { port } = db.server();
    vi.stubEnv('PGHOST', '127.0.0.1');
    vi.stubEnv('PGPORT', String(port));
    vi.stubEnv('PGDATABASE', database);
    const opened = db.create({
      connectionString: `postgres:///?user=${db.server().user}`,
      pool: { reconnectTimeoutMs: 0 },
    });
    await opened.init();
    await db.server().stop('fast');
    try {
      const down = await opened.query({}).catch((error: unknown) => error);
      expect(WeftError.is(down, 'WEFT_POSTGRES_UNAVAILABLE')).toBe(true);
      expect((down as Error).message).toContain(
        `could not reach PostgreSQL at 127.0.0.1:${port} (database "${database}")`,
      );
    } finally {
      await db.server().start();
    }
  }, 60_000);

  it('fails init on a wrong password without showing the password tried [claim:pg-password-never-shown] [claim:mpo-pg-password-hidden] [claim:pg-connect-failed] [claim:pg-readme-connect-failed] [claim:mpo-pg-connect-failed]', async () => {
    const { host, port, user } = db.server();
    const memory = new PostgresMemoryProvider({
      connectionString: `postgres://${user}:${SECRET}@${host}:${port}/postgres`,
    });
    const failure = await memory.init().catch((error: unknown) => error);
    expect(WeftError.is(failure, 'WEFT_POSTGRES_CONNECT_FAILED')).toBe(true);
    expect((failure as Error).message).toMatch(/password authentication failed/);
    expect(everything(failure)).not.toContain(SECRET);
  });

  it('gives up on a server that never answers within the connection timeout [claim:pg-connect-failed] [claim:pg-deadlines] [claim:mpo-pg-connect-failed] [claim:mpo-pg-default-connection-timeout]', async () => {
    const silent = await silentServer();
    try {
      const memory = new PostgresMemoryProvider({
        connectionString: `postgres://weft:${SECRET}@127.0.0.1:${silent.port}/weft`,
        pool: { connectionTimeoutMs: 300 },
      });
      const started = Date.now();
      const failure = await memory.init().catch((error: unknown) => error);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(WeftError.is(failure, 'WEFT_POSTGRES_CONNECT_FAILED')).toBe(true);
      expect((failure as Error).message).toMatch(/timeout/i);
      expect(everything(failure)).not.toContain(SECRET);
    } finally {
      await silent.close();
    }
  });

  it('retries a remove that never reached the server until the server is back [claim:mpo-pg-timeouts] [claim:pg-remove-retry]', async () => {
    const memory = await db.open({ pool: { reconnectTimeoutMs: 30_000 } });
    const stored = await memory.store({ space: 'gone', kind: 'note', content: 1, metadata: {} });
    await db.server().stop('fast');
    // Refused connections until the restart: the remove was never sent, so it is retried.
    const removing = memory.remove(stored.id);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await db.server().start();
    expect(await removing).toBe(true);
    expect(await memory.query({ space: 'gone' })).toEqual([]);
  }, 60_000);

  it('gives up on a statement whose answer never comes, and on connections that hang [claim:pg-client-deadline] [claim:pg-deadlines] [claim:pg-readme-statement-timeout-option] [claim:mpo-pg-timeouts]', async () => {
    const { proxy, memory } = await openBehindHangableProxy({
      statementTimeoutMs: 300,
      connectionTimeoutMs: 500,
      reconnectTimeoutMs: 0,
    });
    await memory.store({ space: 'before', kind: 'note', content: 1, metadata: {} });
    proxy.hang(true);
    let started = Date.now();
    // The server never sees the statement, so only the client's own deadline can end the wait.
    const failure = await memory.query({}).catch((error: unknown) => error);
    // The client waits one second past the statement timeout, then gives up.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1250);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(WeftError.is(failure, 'WEFT_POSTGRES_STATEMENT_TIMEOUT')).toBe(true);
    started = Date.now();
    expect(await memory.checkHealth()).toBe(false);
    expect(Date.now() - started).toBeLessThan(3000);
    proxy.hang(false);
    // The connection that hung was dropped; new ones work.
    expect((await memory.query({})).map((each) => each.space)).toEqual(['before']);
  }, 60_000);

  it('gives up on a store whose answer is lost with WEFT_POSTGRES_STATEMENT_TIMEOUT saying it may have taken effect, which it did [claim:errors-postgres-statement-timeout-written] [claim:pg-readme-lost-answer] [claim:pg-readme-statement-timeout-row] [claim:mpo-pg-timeouts]', async () => {
    const { proxy, memory } = await openBehindHangableProxy({
      statementTimeoutMs: 300,
      reconnectTimeoutMs: 0,
    });
    // The server gets the INSERT and commits it; only its answer is lost on the way back.
    proxy.hang('answers');
    const failure = await memory
      .store({ space: 'lost-answer', kind: 'note', content: 1, metadata: {} })
      .catch((error: unknown) => error);
    expect(WeftError.is(failure, 'WEFT_POSTGRES_STATEMENT_TIMEOUT')).toBe(true);
    expect((failure as Error).message).toMatch(
      /got no answer within 1300 ms .* the server may still have run it, so query to find out whether it took effect/,
    );
    proxy.hang(false);
    expect((await memory.query({ space: 'lost-answer' })).map((each) => each.content)).toEqual([1]);
  }, 60_000);

  it('fails init with WEFT_POSTGRES_CONNECT_FAILED when the connection breaks while it prepares the schema, saying a migration may or may not have been applied, and applies it at the next init [claim:errors-postgres-connect-failed-preparing] [claim:pg-connect-failed] [claim:pg-readme-connect-failed] [claim:pg-readme-init-broken] [claim:pg-readme-init-recorded] [claim:mpo-pg-connect-failed]', async () => {
    const holder = new pg.Client({ connectionString: db.url(), connectionTimeoutMillis: 10_000 });
    await holder.connect();
    try {
      // Two places init can wait, each ended on the server: the lock instances take while they
      // prepare a schema, and the schema's creation, blocked by another session creating it.
      for (const hold of ['migration lock', 'schema creation'] as const) {
        const schema = db.newSchema();
        const id = `broken-init-${hold.replace(' ', '-')}`;
        await holder.query('BEGIN');
        if (hold === 'migration lock') {
          await holder.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
            MIGRATION_LOCK_CLASS,
            schema,
          ]);
        } else {
          await holder.query(`CREATE SCHEMA "${schema}"`);
        }
        const memory = db.create({ id, schema, pool: { statementTimeoutMs: 20_000 } });
        const initialising = memory.init().catch((error: unknown) => error);
        await terminateLockWaiters(id, 1);
        const failure = await initialising;
        await holder.query('ROLLBACK');
        expect(WeftError.is(failure, 'WEFT_POSTGRES_CONNECT_FAILED'), hold).toBe(true);
        const { host, port } = db.server();
        expect((failure as Error).message, hold).toContain(
          `the connection to PostgreSQL at ${host}:${port}`,
        );
        expect((failure as Error).message, hold).toMatch(
          new RegExp(
            `broke while preparing schema "${schema}" .*may or may not have been applied; the ` +
              `next init\\(\\) applies only the migrations not recorded in the schema's ` +
              `weft_memory_migrations table`,
          ),
        );
        expect(everything(failure)).not.toContain(db.server().password);
        // Here it was not applied (the server ended the transaction before its COMMIT), so the
        // next init applies it.
        await memory.init();
        const versions = await db.sql<{ version: number }>(
          `SELECT version FROM "${schema}".weft_memory_migrations`,
        );
        expect(
          versions.map((row) => row.version),
          hold,
        ).toEqual([1]);
        await memory.store({ space: 'after', kind: 'note', content: 1, metadata: {} });
      }
    } finally {
      await holder.end();
    }
  }, 60_000);

  it('fails init with WEFT_POSTGRES_STATEMENT_TIMEOUT a second after the statement timeout when the answer to its COMMIT is lost, saying the migration may or may not have been applied, which it was, and is not applied twice [claim:errors-postgres-statement-timeout-written] [claim:pg-readme-lost-answer] [claim:pg-client-deadline] [claim:pg-readme-init-broken] [claim:pg-readme-init-recorded]', async () => {
    const schema = db.newSchema();
    const { proxy, memory } = await behindHangableProxy(
      { statementTimeoutMs: 1000, reconnectTimeoutMs: 0 },
      schema,
    );
    try {
      // The server gets the COMMIT and commits; only its answer is lost on the way back.
      proxy.hangAnswersFrom('COMMIT');
      const started = Date.now();
      const failure = await memory.init().catch((error: unknown) => error);
      // Given up a second after the statement timeout, not again after a ROLLBACK queued behind.
      expect(Date.now() - started).toBeGreaterThanOrEqual(1950);
      expect(Date.now() - started).toBeLessThan(3500);
      expect(WeftError.is(failure, 'WEFT_POSTGRES_STATEMENT_TIMEOUT')).toBe(true);
      expect((failure as Error).message).toMatch(
        new RegExp(
          `preparing schema "${schema}" got no answer .* within 2000 ms .* was given up, so any ` +
            `migration it was applying may or may not have been applied`,
        ),
      );
      expect((failure as Error).message).not.toMatch(/rolled back/);
    } finally {
      await memory.shutdown();
      await proxy.close();
    }
    // It was applied and recorded, so the next init applies nothing.
    const next = await db.open({ schema });
    const versions = await db.sql<{ version: number }>(
      `SELECT version FROM "${schema}".weft_memory_migrations`,
    );
    expect(versions.map((row) => row.version)).toEqual([1]);
    await next.store({ space: 'after', kind: 'note', content: 1, metadata: {} });
    expect((await next.query({})).map((each) => each.space)).toEqual(['after']);
  }, 60_000);

  it('fails with WEFT_POSTGRES_UNAVAILABLE when an outage outlasts the reconnect window, then recovers [claim:prod-outage-memory-postgres] [claim:mpo-pg-default-reconnect-timeout] [claim:pg-unavailable] [claim:pg-readme-unavailable-host-port] [claim:pg-readme-unavailable-row] [claim:mpo-pg-timeouts]', async () => {
    const memory = await db.open({ pool: { reconnectTimeoutMs: 500, connectionTimeoutMs: 500 } });
    await db.server().stop('fast');
    try {
      const started = Date.now();
      const failure = await memory
        .store({ space: 'down', kind: 'note', content: 1, metadata: {} })
        .catch((error: unknown) => error);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(WeftError.is(failure, 'WEFT_POSTGRES_UNAVAILABLE')).toBe(true);
      const { host, port } = db.server();
      expect((failure as Error).message).toContain(`${host}:${port}`);
      expect(everything(failure)).not.toContain(db.server().password);
      expect(await memory.checkHealth()).toBe(false);
    } finally {
      await db.server().start();
    }
    expect(await memory.checkHealth()).toBe(true);
    await memory.store({ space: 'up', kind: 'note', content: 2, metadata: {} });
    expect((await memory.query({})).map((each) => each.space)).toEqual(['up']);
  }, 60_000);

  it('passes on PostgreSQL’s 28P01 at once, without retrying, when the server rejects the login after init [claim:pg-readme-login-rejected-after-init]', async () => {
    const { memory } = await loggedInThenPasswordChanged(() => 'first-pw');
    const started = Date.now();
    const failure = await memory
      .store({ space: 'relogin', kind: 'note', content: 1, metadata: {} })
      .catch((error: unknown) => error);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(WeftError.is(failure)).toBe(false);
    expect(failure).toMatchObject({ code: '28P01' });
    expect(everything(failure)).not.toContain('first-pw');
  });

  it('keeps the 28P01 code when the rejected login’s message quotes the password, masking it [claim:pg-readme-login-rejected-after-init]', async () => {
    // A password equal to the user name appears in "password authentication failed for user".
    const { memory, role } = await loggedInThenPasswordChanged((name) => name);
    const failure = await memory
      .store({ space: 'relogin', kind: 'note', content: 1, metadata: {} })
      .catch((error: unknown) => error);
    expect(WeftError.is(failure)).toBe(false);
    expect(failure).toMatchObject({ code: '28P01' });
    expect((failure as Error).message).toContain('password authentication failed');
    expect(everything(failure)).not.toContain(role);
  });

  it('lets the attempt under way when the reconnect window ends run its course, so a call fails up to connectionTimeoutMs after it [claim:pg-readme-reconnect-last-attempt]', async () => {
    const { proxy, memory } = await openBehindHangableProxy({
      connectionTimeoutMs: 1500,
      reconnectTimeoutMs: 300,
      idleTimeoutMs: 1,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    proxy.hang(true);
    const started = Date.now();
    const failure = await memory
      .store({ space: 'hung', kind: 'note', content: 1, metadata: {} })
      .catch((error: unknown) => error);
    const took = Date.now() - started;
    expect(WeftError.is(failure, 'WEFT_POSTGRES_UNAVAILABLE')).toBe(true);
    expect((failure as Error).message).toMatch(/Connection terminated due to connection timeout/);
    // Past the 300 ms window by the one connection attempt that started within it.
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(1500 + 300 + 1000);
  }, 30_000);

  it('fails a remove and a clear whose connections broke while they ran with WEFT_POSTGRES_UNAVAILABLE, saying the outcome is unknown, and does not retry them [claim:mpo-pg-timeouts] [claim:mpo-pg-remove-broken] [claim:pg-readme-unavailable-row] [claim:pg-remove-retry]', async () => {
    const memory = await db.open({ id: 'broken-remove', pool: { statementTimeoutMs: 20_000 } });
    const stored = await memory.store({ space: 'held', kind: 'note', content: 1, metadata: {} });
    const lock = await lockMemories(memory);
    try {
      const removing = memory.remove(stored.id).catch((error: unknown) => error);
      const clearing = memory.clear('held').catch((error: unknown) => error);
      await terminateLockWaiters('broken-remove', 2);
      for (const [failure, call] of [
        [await removing, 'remove'],
        [await clearing, 'clear'],
      ] as const) {
        expect(WeftError.is(failure, 'WEFT_POSTGRES_UNAVAILABLE'), call).toBe(true);
        expect((failure as Error).message).toMatch(
          new RegExp(`broke while ${call}\\(\\).* was running.*is unknown`),
        );
      }
    } finally {
      await lock.close();
    }
    // Neither took effect, and nothing ran them again.
    expect(await memory.query({})).toEqual([stored]);
  }, 60_000);

  it('fails a call that waits connectionTimeoutMs for a free connection while every one is busy, without retrying it, with WEFT_POSTGRES_UNAVAILABLE saying the pool stayed busy [claim:mpo-pg-pool-busy] [claim:pg-readme-pool-busy] [claim:pg-readme-connection-timeout-option] [claim:pg-readme-pool-busy-row] [claim:pg-deadlines] [claim:mpo-pg-default-connection-timeout]', async () => {
    // One connection, held by a store that waits on a lock; the reconnect window stays long.
    const memory = await db.open({
      id: 'busy-pool',
      pool: {
        max: 1,
        connectionTimeoutMs: 300,
        reconnectTimeoutMs: 20_000,
        statementTimeoutMs: 20_000,
      },
    });
    const lock = await lockMemories(memory);
    try {
      const holding = memory
        .store({ space: 'held', kind: 'note', content: 1, metadata: {} })
        .catch((error: unknown) => error);
      await lockWaiters('busy-pool', 1);
      const started = Date.now();
      const failure = await memory.query({}).catch((error: unknown) => error);
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(250);
      // Not retried up to the 20 s reconnect window.
      expect(waited).toBeLessThan(3000);
      expect(WeftError.is(failure, 'WEFT_POSTGRES_UNAVAILABLE')).toBe(true);
      expect((failure as Error).message).toMatch(
        /query\(\) waited 300 ms \(pool\.connectionTimeoutMs\) for a free connection, but all 1 connections of the pool \(pool\.max\) stayed busy/,
      );
      await lock.unlock();
      // The held store finishes once the lock is gone, and the pool serves calls again.
      expect(await holding).toMatchObject({ space: 'held' });
      expect((await memory.query({})).map((each) => each.space)).toEqual(['held']);
    } finally {
      await lock.close();
    }
  }, 60_000);

  it('fails a call with WEFT_POSTGRES_UNAVAILABLE saying the pool stayed busy when every connection waits on a server that stopped answering, without retrying it [claim:mpo-pg-pool-busy] [claim:pg-readme-pool-busy]', async () => {
    const { proxy, memory } = await openBehindHangableProxy({
      max: 1,
      connectionTimeoutMs: 300,
      statementTimeoutMs: 2000,
      reconnectTimeoutMs: 20_000,
    });
    proxy.hang(true);
    // The one connection waits for an answer the hung server never sends.
    const holding = memory.query({}).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    const failure = await memory.query({}).catch((error: unknown) => error);
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(250);
    // Not retried up to the 20 s reconnect window, though the server does not answer.
    expect(waited).toBeLessThan(1500);
    expect(WeftError.is(failure, 'WEFT_POSTGRES_UNAVAILABLE')).toBe(true);
    expect((failure as Error).message).toMatch(
      /all 1 connections of the pool \(pool\.max\) stayed busy .* a server that stopped answering/,
    );
    // The held call ends at its own deadline: the statement timeout and a second more.
    expect(WeftError.is(await holding, 'WEFT_POSTGRES_STATEMENT_TIMEOUT')).toBe(true);
    proxy.hang(false);
    expect(await memory.query({})).toEqual([]);
  }, 60_000);

  it('retries a call that waits behind a connection still being opened to a server that stopped answering, and fails it as a server out of reach [claim:pg-readme-pool-wait-while-connecting]', async () => {
    const { proxy, memory } = await openBehindHangableProxy({
      max: 1,
      connectionTimeoutMs: 300,
      // Idle connections close at once: the next call must open one through the hung proxy.
      idleTimeoutMs: 1,
      reconnectTimeoutMs: 1500,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    proxy.hang(true);
    // The first call takes the pool's one slot to open a connection, which never logs in.
    const opening = memory.query({}).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = Date.now();
    const failure = await memory.query({}).catch((error: unknown) => error);
    const waited = Date.now() - started;
    // Past several connection timeouts: retried up to the reconnect window, not failed at once.
    expect(waited).toBeGreaterThanOrEqual(1200);
    expect(WeftError.is(failure, 'WEFT_POSTGRES_UNAVAILABLE')).toBe(true);
    expect((failure as Error).message).toMatch(
      /could not reach PostgreSQL at .* in \d+ attempt\(s\) over 1500 ms/,
    );
    expect((failure as Error).message).not.toMatch(/stayed busy/);
    expect(WeftError.is(await opening, 'WEFT_POSTGRES_UNAVAILABLE')).toBe(true);
  }, 30_000);

  it('passes on PostgreSQL’s 57014 for a statement another session cancels before the statement timeout [claim:pg-other-errors-cancel]', async () => {
    const memory = await db.open({ id: 'cancelled', pool: { statementTimeoutMs: 20_000 } });
    const lock = await lockMemories(memory);
    try {
      const querying = memory.query({}).catch((error: unknown) => error);
      for (const pid of await lockWaiters('cancelled', 1)) {
        await db.sql('SELECT pg_cancel_backend($1)', [pid]);
      }
      const failure = await querying;
      expect(WeftError.is(failure)).toBe(false);
      expect(failure).toMatchObject({
        code: '57014',
        message: 'canceling statement due to user request',
      });
    } finally {
      await lock.close();
    }
    // The connection went back to the pool in good health.
    expect(await memory.query({})).toEqual([]);
  }, 60_000);

  it('fails a call still retrying when shutdown() runs with WEFT_POSTGRES_NOT_OPEN, naming the call [claim:pg-readme-shutdown-while-waiting] [claim:pg-readme-not-open] [claim:errors-postgres-not-open-shutdown]', async () => {
    const memory = await db.open({ pool: { reconnectTimeoutMs: 30_000 } });
    await db.server().stop('fast');
    try {
      const querying = memory.query({}).catch((error: unknown) => error);
      // Refused connections: the query retries, pausing between attempts.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = Date.now();
      await memory.shutdown();
      const failure = await querying;
      expect(Date.now() - started).toBeLessThan(3000);
      expect(WeftError.is(failure, 'WEFT_POSTGRES_NOT_OPEN')).toBe(true);
      expect((failure as Error).message).toMatch(
        /was shut down while query\(\) waited for the server; .*call init\(\) to open it again/,
      );
    } finally {
      await db.server().start();
    }
  }, 60_000);

  it('fails a call waiting for a free connection when shutdown() runs with WEFT_POSTGRES_NOT_OPEN, not as a busy pool, and lets the statement already running end [claim:pg-readme-shutdown-while-waiting] [claim:errors-postgres-not-open-shutdown]', async () => {
    const memory = await db.open({
      id: 'shut-while-busy',
      pool: { max: 1, connectionTimeoutMs: 1000, reconnectTimeoutMs: 20_000 },
    });
    const lock = await lockMemories(memory);
    try {
      // The one connection waits on the lock; the query waits for it to come free.
      const holding = memory
        .store({ space: 'held', kind: 'note', content: 1, metadata: {} })
        .catch((error: unknown) => error);
      await lockWaiters('shut-while-busy', 1);
      const querying = memory.query({}).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const closing = memory.shutdown();
      let closed = false;
      void closing.then(() => (closed = true));
      const failure = await querying;
      expect(WeftError.is(failure, 'WEFT_POSTGRES_NOT_OPEN')).toBe(true);
      expect((failure as Error).message).toMatch(
        /was shut down while query\(\) waited for a free connection; .*call init\(\) to open it again/,
      );
      // shutdown() waits for the statement the server is running, which is not failed.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(closed).toBe(false);
      await lock.unlock();
      // The store in flight finishes before the pool closes.
      expect(await holding).toMatchObject({ space: 'held' });
      await closing;
    } finally {
      await lock.close();
    }
  }, 60_000);

  it('retries an update and a query whose connections broke while they ran, on new connections [claim:mpo-pg-timeouts]', async () => {
    const memory = await db.open({ id: 'broken-update', pool: { statementTimeoutMs: 20_000 } });
    const stored = await memory.store({ space: 'held', kind: 'note', content: 1, metadata: {} });
    const lock = await lockMemories(memory);
    try {
      const updating = memory.update(stored.id, { content: 2 }).catch((error: unknown) => error);
      const querying = memory.query({ space: 'held' }).catch((error: unknown) => error);
      await terminateLockWaiters('broken-update', 2);
      await lock.unlock();
      const updated = await updating;
      expect(updated).toMatchObject({ id: stored.id, content: 2 });
      const found = await querying;
      expect(Array.isArray(found) && found.map((each: Memory) => each.id)).toEqual([stored.id]);
    } finally {
      await lock.close();
    }
    expect((await memory.query({})).map((each) => each.content)).toEqual([2]);
  }, 60_000);
});
