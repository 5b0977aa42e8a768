import { WeftError } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { PostgresMemoryProvider, type PostgresMemoryProviderOptions } from '../src/index.js';
import { createPool } from '../src/connection.js';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import pg from 'pg';
import {
  DEFAULT_ID,
  DEFAULT_POOL,
  DEFAULT_SCHEMA,
  describeServer,
  resolveOptions,
  serverAddress,
} from '../src/options.js';

const URL = 'postgres://weft:hunter2@db.internal:6543/agents';

function rejection(options: unknown): WeftError<string> {
  try {
    new PostgresMemoryProvider(options as PostgresMemoryProviderOptions);
  } catch (error) {
    if (WeftError.is(error)) return error as WeftError<string>;
    throw error;
  }
  throw new Error('expected the options to be refused');
}

describe('PostgresMemoryProvider options', () => {
  it('shows in the README and the memory providers overview the defaults the provider applies [claim:pg-defaults] [claim:mpo-pg-default-schema] [claim:mpo-pg-default-id] [claim:mpo-pg-default-pool-max] [claim:mpo-pg-default-connection-timeout] [claim:mpo-pg-default-statement-timeout] [claim:mpo-pg-default-idle-timeout] [claim:mpo-pg-default-reconnect-timeout] [claim:scaling-memory-pool] [claim:coord-readme-memory-pool]', () => {
    for (const file of ['../README.md', '../../../docs/memory-providers/overview.md']) {
      const text = readFileSync(new globalThis.URL(file, import.meta.url), 'utf8');
      // The overview has tables of other providers too: read its PostgreSQL section only.
      const page = text.includes('## PostgresMemoryProvider')
        ? (text.split('## PostgresMemoryProvider')[1]?.split('\n## ')[0] ?? '')
        : text;
      const shown = (name: string) =>
        /^`([^`]+)`$/.exec(
          page
            .split('\n')
            .find((line) => line.startsWith(`| \`${name}\``))
            ?.split('|')[2]
            ?.trim() ?? '',
        )?.[1];
      expect(shown('schema'), file).toBe(`'${DEFAULT_SCHEMA}'`);
      expect(shown('id'), file).toBe(`'${DEFAULT_ID}'`);
      for (const [name, value] of Object.entries(DEFAULT_POOL)) {
        expect(shown(`pool.${name}`), `${file}: pool.${name}`).toBe(String(value));
      }
    }
    // And the provider applies them when the options leave them out.
    expect(resolveOptions({ connectionString: URL }).pool).toEqual(DEFAULT_POOL);
  });

  it('hands the default pool size, connect wait and idle time to the pool it creates [claim:mpo-pg-default-pool-max] [claim:mpo-pg-default-connection-timeout] [claim:mpo-pg-default-idle-timeout]', async () => {
    // node-postgres has defaults of its own (an idle connection closes after 10 s): the
    // provider's must reach the pool, not only its resolved options.
    const pool = createPool(resolveOptions({ connectionString: URL }));
    try {
      const { max, connectionTimeoutMillis, idleTimeoutMillis } = pool.options;
      expect({ max, connectionTimeoutMillis, idleTimeoutMillis }).toEqual({
        max: 10,
        connectionTimeoutMillis: 5000,
        idleTimeoutMillis: 30_000,
      });
    } finally {
      await pool.end();
    }
  });

  it('gives the server the statement timeout and the client a read deadline one second longer [claim:pg-readme-statement-timeout-option] [claim:pg-client-deadline]', async () => {
    for (const statementTimeoutMs of [300, DEFAULT_POOL.statementTimeoutMs]) {
      const pool = createPool(
        resolveOptions({ connectionString: URL, pool: { statementTimeoutMs } }),
      );
      try {
        const { statement_timeout, query_timeout } = pool.options as {
          statement_timeout?: number;
          query_timeout?: number;
        };
        expect({ statement_timeout, query_timeout }).toEqual({
          statement_timeout: statementTimeoutMs,
          query_timeout: statementTimeoutMs + 1000,
        });
      } finally {
        await pool.end();
      }
    }
  });

  it('fills in the defaults and connects nothing until init [claim:pg-not-open] [claim:pg-readme-not-open] [claim:pg-defaults] [claim:pg-nothing-until-init]', async () => {
    const memory = new PostgresMemoryProvider({ connectionString: URL });
    expect(memory.id).toBe('postgres');
    expect(memory.schema).toBe('public');
    expect(await memory.checkHealth()).toBe(false);
    const calls = [
      () => memory.store({ space: 's', kind: 'k', content: 1, metadata: {} }),
      () => memory.query({}),
      () => memory.update('00000000-0000-4000-8000-000000000000', { content: 2 }),
      () => memory.remove('00000000-0000-4000-8000-000000000000'),
      () => memory.clear(),
    ];
    for (const call of calls) {
      await expect(call()).rejects.toThrow(
        /is not open: call init\(\) first.*\[WEFT_POSTGRES_NOT_OPEN\]/,
      );
    }
    await memory.shutdown();
  });

  it.each([
    [null, /options must be an object/],
    [[{ connectionString: URL }], /options must be an object/],
    [{}, /"connectionString" must be a non-empty string/],
    [{ connectionString: 'db.internal:5432' }, /must start with postgres:\/\//],
    [{ connectionString: 'not a url at all' }, /is not a URL/],
    [{ connectionString: URL, schema: 'Robert"); DROP' }, /option "schema"/],
    [{ connectionString: URL, id: ' ' }, /option "id"/],
    [{ connectionString: URL, pool: 5 }, /option "pool" must be an object/],
    [{ connectionString: URL, pool: { maxConnections: 5 } }, /unknown keys maxConnections/],
    [{ connectionString: URL, poolSize: 5 }, /unknown option "poolSize"/],
    [{ connectionString: URL, pool: { max: 0 } }, /"pool.max" must be a positive integer/],
    [{ connectionString: URL, pool: { statementTimeoutMs: -1 } }, /"pool.statementTimeoutMs"/],
    [{ connectionString: URL, pool: { connectionTimeoutMs: 1.5 } }, /"pool.connectionTimeoutMs"/],
    [{ connectionString: URL, pool: { reconnectTimeoutMs: 2 ** 40 } }, /"pool.reconnectTimeoutMs"/],
    [{ connectionString: URL, pool: { idleTimeoutMs: 0 } }, /"pool.idleTimeoutMs"/],
  ])(
    'refuses %j with WEFT_POSTGRES_INVALID_OPTIONS [claim:pg-invalid-options] [claim:pg-readme-invalid-options] [claim:errors-postgres-invalid-options]',
    (options, message) => {
      const error = rejection(options);
      expect(error.code).toBe('WEFT_POSTGRES_INVALID_OPTIONS');
      expect(error.message).toMatch(message);
      expect(error.message).not.toContain('hunter2');
    },
  );

  it('names the provider by its id in an options error once that id is valid, as its later errors do', () => {
    expect(rejection({ connectionString: URL, id: 'notes', pool: { max: 0 } }).message).toMatch(
      /^PostgresMemoryProvider "notes": option "pool.max"/,
    );
    expect(rejection({ connectionString: 'mysql://x@h/d', id: 'notes' }).message).toMatch(
      /^PostgresMemoryProvider "notes": option "connectionString"/,
    );
    expect(rejection({ connectionString: URL, id: 'notes', shema: 'x' }).message).toMatch(
      /^PostgresMemoryProvider "notes": unknown option "shema"/,
    );
    // Without a valid id, the message names the class alone.
    expect(rejection({ connectionString: URL, pool: { max: 0 } }).message).toMatch(
      /^PostgresMemoryProvider: option "pool.max"/,
    );
    expect(rejection({ connectionString: URL, id: ' ' }).message).toMatch(
      /^PostgresMemoryProvider: option "id"/,
    );
  });

  it('retries for 10 s (pool.reconnectTimeoutMs) unless configured [claim:prod-outage-memory-postgres]', () => {
    expect(resolveOptions({ connectionString: URL }).pool.reconnectTimeoutMs).toBe(10_000);
    expect(
      resolveOptions({ connectionString: URL, pool: { reconnectTimeoutMs: 2_500 } }).pool
        .reconnectTimeoutMs,
    ).toBe(2_500);
  });

  it('takes 0 for reconnectTimeoutMs alone, and 2,147,483,647 ms for a timeout [claim:errors-postgres-invalid-options]', () => {
    expect(
      resolveOptions({ connectionString: URL, pool: { reconnectTimeoutMs: 0 } }).pool
        .reconnectTimeoutMs,
    ).toBe(0);
    expect(
      resolveOptions({ connectionString: URL, pool: { idleTimeoutMs: 2_147_483_647 } }).pool
        .idleTimeoutMs,
    ).toBe(2_147_483_647);
    expect(rejection({ connectionString: URL, pool: { idleTimeoutMs: 2_147_483_648 } }).code).toBe(
      'WEFT_POSTGRES_INVALID_OPTIONS',
    );
  });

  it('takes statementTimeoutMs up to 2,147,482,647 ms, since the client waits a second past it [claim:errors-postgres-invalid-options]', () => {
    // The read deadline and idle_in_transaction_session_timeout are a second longer: past the
    // largest timer, Node fires the deadline at once and PostgreSQL refuses the setting.
    expect(
      resolveOptions({ connectionString: URL, pool: { statementTimeoutMs: 2_147_482_647 } }).pool
        .statementTimeoutMs,
    ).toBe(2_147_482_647);
    const error = rejection({ connectionString: URL, pool: { statementTimeoutMs: 2_147_482_648 } });
    expect(error.code).toBe('WEFT_POSTGRES_INVALID_OPTIONS');
    expect(error.message).toContain(
      'option "pool.statementTimeoutMs" must be an integer of milliseconds from 1 to 2147482647',
    );
  });

  it('gives an option or pool key written as undefined its default, as if it were left out [claim:pg-undefined-default]', () => {
    const resolved = resolveOptions({
      connectionString: URL,
      schema: undefined,
      id: undefined,
      pool: {
        max: undefined,
        connectionTimeoutMs: undefined,
        statementTimeoutMs: undefined,
        idleTimeoutMs: undefined,
        reconnectTimeoutMs: 250,
      },
    });
    expect(resolved.schema).toBe(DEFAULT_SCHEMA);
    expect(resolved.id).toBe(DEFAULT_ID);
    expect(resolved.pool).toEqual({ ...DEFAULT_POOL, reconnectTimeoutMs: 250 });
  });

  it('refuses a schema name PostgreSQL would not create, starting with pg_, and takes PG_ [claim:pg-schema-ident] [claim:errors-postgres-invalid-options]', () => {
    const error = rejection({ connectionString: URL, schema: 'pg_weft' });
    expect(error.code).toBe('WEFT_POSTGRES_INVALID_OPTIONS');
    expect(error.message).toContain('not starting with a digit or with pg_');
    expect(resolveOptions({ connectionString: URL, schema: 'PG_weft' }).schema).toBe('PG_weft');
  });

  it('refuses an option name it does not know and a key pool does not know, naming them [claim:pg-unknown-keys]', () => {
    expect(rejection({ connectionString: URL, pool: { maxSize: 5 } }).message).toMatch(
      /option "pool" has unknown keys maxSize; known: max, connectionTimeoutMs/,
    );
    const error = rejection({ connectionString: URL, shema: 'weft' });
    expect(error.code).toBe('WEFT_POSTGRES_INVALID_OPTIONS');
    expect(error.message).toContain(
      'unknown option "shema"; the options are connectionString, schema, pool, id',
    );
    // A known option left undefined still takes its default.
    const memory = new PostgresMemoryProvider({ connectionString: URL, schema: undefined });
    expect(memory.schema).toBe('public');
  });

  it('takes a postgresql:// URL as a postgres:// one, and refuses any other scheme by name [claim:pg-url-schemes]', () => {
    const memory = new PostgresMemoryProvider({
      connectionString: 'postgresql://weft:hunter2@db.internal:6543/agents',
    });
    expect(memory.id).toBe('postgres');
    const error = rejection({ connectionString: 'mysql://weft:hunter2@db.internal:6543/agents' });
    expect(error.code).toBe('WEFT_POSTGRES_INVALID_OPTIONS');
    expect(error.message).toContain('must start with postgres:// or postgresql://, got mysql://');
  });

  it('refuses a string pg would read as another server or database: postgres: without //, or white space around the URL [claim:pg-url-schemes]', () => {
    // pg reads "postgres:weft" as database "eft", and " postgres://..." as a host named "base".
    for (const connectionString of [
      'postgres:weft',
      'postgresql:/agents',
      ' postgres://weft:hunter2@db.internal:6543/agents',
      '\tpostgres://weft:hunter2@db.internal:6543/agents',
    ]) {
      const error = rejection({ connectionString });
      expect(error.code, connectionString).toBe('WEFT_POSTGRES_INVALID_OPTIONS');
      expect(error.message, connectionString).toContain(
        'must start with postgres:// or postgresql://, with nothing before it',
      );
      expect(error.message).not.toContain('hunter2');
    }
    const trailing = rejection({
      connectionString: 'postgres://weft:hunter2@db.internal:6543/agents ',
    });
    expect(trailing.message).toContain('"connectionString" must not end with white space');
    expect(trailing.message).not.toContain('hunter2');
    expect(
      new PostgresMemoryProvider({ connectionString: 'POSTGRES://weft@db.internal/agents' }).id,
    ).toBe('postgres');
  });

  it('connects once in init, without the retries reconnectTimeoutMs allows its operations [claim:pg-readme-connection-timeout-option]', async () => {
    // A peer that accepts and closes every connection: pg sees it break before the login.
    const sockets: Socket[] = [];
    const peer = createServer((socket) => {
      sockets.push(socket);
      socket.destroy();
    });
    await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = peer.address() as AddressInfo;
      const memory = new PostgresMemoryProvider({
        connectionString: `postgres://weft:hunter2@127.0.0.1:${port}/agents`,
        pool: { reconnectTimeoutMs: 60_000 },
      });
      const failure = await memory.init().catch((error: unknown) => error);
      expect(WeftError.is(failure, 'WEFT_POSTGRES_CONNECT_FAILED')).toBe(true);
      expect(sockets).toHaveLength(1);
    } finally {
      await new Promise<void>((resolve) => peer.close(() => resolve()));
    }
  });

  it('never repeats a connection string it cannot read, since it may hold a password [claim:pg-password-never-shown] [claim:mpo-pg-password-hidden]', () => {
    const error = rejection({ connectionString: 'weft:hunter2@db.internal/agents' });
    expect(error.message).not.toContain('hunter2');
  });

  it('names the server as pg finds it: the string first, then PGHOST, PGPORT, PGDATABASE and PGUSER, then localhost:5432 [claim:pg-connect-failed] [claim:pg-readme-unavailable-host-port] [claim:pg-readme-pg-variables]', () => {
    // The order itself is the core's postgresServerAddress (packages/core/test): here, that
    // messages read the environment and pg's own defaults through it.
    const env = { PGHOST: 'env-host', PGPORT: '7777', PGDATABASE: 'env-db', PGUSER: 'env-user' };
    expect(serverAddress(URL, env)).toEqual({
      host: 'db.internal',
      port: 6543,
      database: 'agents',
    });
    expect(serverAddress('postgres:///', env)).toEqual({
      host: 'env-host',
      port: 7777,
      database: 'env-db',
    });
    expect(serverAddress('postgres:///', { PGUSER: 'env-user' })).toEqual({
      host: 'localhost',
      port: 5432,
      database: 'env-user',
    });
  });

  it('accepts a connection string that names a user but no host, as pg does, and names its server', () => {
    const socketString = 'postgres://ada:s3cret@/agents?host=%2Ftmp%2Fsock&port=6000';
    expect(resolveOptions({ connectionString: socketString }).secrets).toEqual(['s3cret']);
    expect(describeServer(socketString)).toBe('/tmp/sock:6000 (database "agents")');
  });

  it('falls back, with no user in the string and no PGUSER, to the USER variable as pg does (USERNAME on Windows), not to the account [claim:cfg-pguser-fallback]', () => {
    // pg read the variable when it loaded: its default is the variable, whatever the account.
    const login = process.platform === 'win32' ? process.env.USERNAME : process.env.USER;
    expect(pg.defaults.user).toBe(login);
    const before = pg.defaults.user;
    try {
      pg.defaults.user = 'from-user-variable';
      expect(serverAddress('postgres://db.internal/', {}).database).toBe('from-user-variable');
      // A process started without USER (as in many containers) has no default user at all.
      pg.defaults.user = undefined;
      expect(serverAddress('postgres://db.internal/', {}).database).toBe('');
    } finally {
      pg.defaults.user = before;
    }
  });
});
