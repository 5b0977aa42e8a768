import { randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import pg from 'pg';
import { checkMemoryQuery, type QueryMemoryOptions } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { PostgresMemoryProvider } from '../src/index.js';
import { MIGRATION_LOCK_CLASS, tablesOf } from '../src/migrations.js';
import { buildQuery } from '../src/query.js';
import { createPool } from '../src/connection.js';
import { resolveOptions } from '../src/options.js';
import { freePort } from '@weft-internal/test-support/postgres-server';
import { useServer } from './helpers.js';

const db = useServer();

/**
 * Runs the body with a new login role that may use the migrated schema and read and write its
 * tables, and nothing more (it may create nothing); the role is dropped afterwards.
 */
async function withTableRole(
  prefix: string,
  schema: string,
  body: (role: string, connectionString: string) => Promise<void>,
): Promise<void> {
  const role = `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const password = `${prefix}-pw`;
  await db.sql(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
  const grants = [
    `USAGE ON SCHEMA "${schema}"`,
    `SELECT ON "${schema}".weft_memory_migrations`,
    `SELECT, INSERT, UPDATE, DELETE ON "${schema}".weft_memories`,
  ];
  for (const grant of grants) await db.sql(`GRANT ${grant} TO ${role}`);
  try {
    const url = new URL(db.url());
    url.username = role;
    url.password = password;
    await body(role, url.toString());
  } finally {
    for (const grant of grants) await db.sql(`REVOKE ${grant} FROM ${role}`);
    await db.sql(`DROP ROLE ${role}`);
  }
}

const columnsOf = (schema: string) =>
  db.sql<{ column_name: string; data_type: string; is_nullable: string }>(
    `SELECT column_name, data_type, is_nullable FROM information_schema.columns
     WHERE table_schema = $1 AND table_name = 'weft_memories' ORDER BY ordinal_position`,
    [schema],
  );

const tablesIn = async (schema: string): Promise<string[]> =>
  (
    await db.sql<{ table_name: string }>(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1',
      [schema],
    )
  ).map((row) => row.table_name);

const versionsIn = async (schema: string): Promise<number[]> =>
  (
    await db.sql<{ version: number }>(
      `SELECT version FROM "${schema}".weft_memory_migrations ORDER BY version`,
    )
  ).map((row) => row.version);

describe('PostgresMemoryProvider: schema and migrations', () => {
  it('creates its schema, the tables with jsonb content, and records version 1 [claim:pg-schema-ident] [claim:pg-migrations-recorded] [claim:mpo-pg-default-schema]', async () => {
    const memory = await db.open();
    expect(await tablesIn(memory.schema)).toEqual(['weft_memories', 'weft_memory_migrations']);
    expect(
      (await columnsOf(memory.schema)).map((c) => [c.column_name, c.data_type, c.is_nullable]),
    ).toEqual([
      ['seq', 'bigint', 'NO'],
      ['id', 'uuid', 'NO'],
      ['space', 'text', 'NO'],
      ['kind', 'text', 'NO'],
      ['content', 'jsonb', 'NO'],
      ['task_id', 'text', 'YES'],
      ['metadata', 'jsonb', 'NO'],
      ['created_at', 'timestamp with time zone', 'NO'],
    ]);
    expect(await versionsIn(memory.schema)).toEqual([1]);
    const stored = await memory.store({
      space: 'room',
      kind: 'note',
      content: { nested: { list: [1, 'two'] } },
      metadata: { tag: 'a' },
    });
    // Another tool reading the table sees JSON it can query with PostgreSQL's own operators.
    const [row] = await db.sql<{ text: string; tag: string }>(
      `SELECT content #>> '{nested,list,1}' AS text, metadata ->> 'tag' AS tag
       FROM "${memory.schema}".weft_memories WHERE id = $1`,
      [stored.id],
    );
    expect(row).toEqual({ text: 'two', tag: 'a' });
  });

  it('lets eight instances start together on a new schema: one migrates, none fails [claim:pg-migration-lock] [claim:pg-shared] [claim:mpm-postgres-shared] [claim:mpo-pg-migration-lock]', async () => {
    const schema = db.newSchema();
    const instances = Array.from({ length: 8 }, (_, index) =>
      db.create({ schema, id: `instance-${index}` }),
    );
    const results = await Promise.allSettled(instances.map((memory) => memory.init()));
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(await versionsIn(schema)).toEqual([1]);
    // They all work on the same table.
    await Promise.all(
      instances.map((memory, index) =>
        memory.store({ space: 'shared', kind: 'note', content: index, metadata: {} }),
      ),
    );
    expect((await instances[0]!.query({ space: 'shared' })).length).toBe(8);
  });

  it('opens an existing schema without re-running migrations or touching rows [claim:pg-migrations-recorded]', async () => {
    const first = await db.open();
    const stored = await first.store({ space: 's', kind: 'k', content: 'kept', metadata: {} });
    const [before] = await db.sql<{ applied_at: Date }>(
      `SELECT applied_at FROM "${first.schema}".weft_memory_migrations`,
    );
    await first.shutdown();
    const second = await db.open({ schema: first.schema });
    expect(await second.query({})).toEqual([stored]);
    const after = await db.sql<{ applied_at: Date }>(
      `SELECT applied_at FROM "${first.schema}".weft_memory_migrations`,
    );
    expect(after).toEqual([before]);
    // The same instance can be opened again after a shutdown.
    await second.shutdown();
    await second.init();
    expect(await second.query({})).toEqual([stored]);
  });

  it('refuses a schema written by a newer version and changes nothing in it [claim:pg-schema-too-new] [claim:pg-readme-schema-too-new] [claim:mpo-pg-schema-too-new]', async () => {
    const schema = db.newSchema();
    await db.sql(`CREATE SCHEMA "${schema}"`);
    await db.sql(
      `CREATE TABLE "${schema}".weft_memory_migrations
         (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    await db.sql(
      `INSERT INTO "${schema}".weft_memory_migrations (version, description)
       VALUES (1, 'first'), (7, 'from the future')`,
    );
    const memory = db.create({ schema });
    const failure = await memory.init().catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'WEFT_POSTGRES_SCHEMA_TOO_NEW' });
    expect((failure as Error).message).toMatch(
      /version 7.*up to 1.*upgrade @weft\/memory-postgres/,
    );
    expect(await tablesIn(schema)).toEqual(['weft_memory_migrations']);
    expect(await versionsIn(schema)).toEqual([1, 7]);
    expect(await memory.checkHealth()).toBe(false);
    await expect(memory.query({})).rejects.toMatchObject({ code: 'WEFT_POSTGRES_NOT_OPEN' });
  });

  it('rolls a failed migration back whole, leaving no table behind, and says what to do [claim:pg-migration-rollback] [claim:pg-readme-migration-failed] [claim:pg-error-codes]', async () => {
    const schema = db.newSchema();
    // A table in the way of step 1's index names makes the step fail half-way.
    await db.sql(`CREATE SCHEMA "${schema}"`);
    await db.sql(`CREATE TABLE "${schema}".weft_memories_kind_created (x int)`);
    const failure = await db
      .create({ schema })
      .init()
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'WEFT_POSTGRES_MIGRATION_FAILED' });
    expect((failure as Error).message).toMatch(
      /migration 1 .*rolled back: .*weft_memories_kind_created.*; remove what PostgreSQL names as in the way, .*or choose another schema \[WEFT_POSTGRES_MIGRATION_FAILED\]$/,
    );
    expect(await tablesIn(schema)).toEqual(['weft_memories_kind_created']);
  });

  it('refuses a role that may not create the schema or its tables with WEFT_POSTGRES_MIGRATION_FAILED carrying PostgreSQL’s error, and changes nothing [claim:errors-postgres-migration-privilege] [claim:pg-readme-migration-privilege] [claim:pg-role-first-init]', async () => {
    const role = `lowly_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await db.sql(`CREATE ROLE ${role} LOGIN PASSWORD 'lowly-pw'`);
    const url = new URL(db.url());
    url.username = role;
    url.password = 'lowly-pw';
    const database = decodeURIComponent(url.pathname.slice(1));
    await db.sql(`REVOKE CREATE ON DATABASE "${database}" FROM PUBLIC`);
    await db.sql('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
    const existing = db.newSchema();
    await db.sql(`CREATE SCHEMA "${existing}"`);
    await db.sql(`GRANT USAGE ON SCHEMA "${existing}" TO ${role}`);
    try {
      // A new schema needs CREATE on the database; an existing one, CREATE on the schema.
      for (const schema of [db.newSchema(), existing]) {
        const memory = db.create({ connectionString: url.toString(), schema });
        const failure = await memory.init().catch((error: unknown) => error);
        expect(failure, schema).toMatchObject({ code: 'WEFT_POSTGRES_MIGRATION_FAILED' });
        expect((failure as Error).message, schema).toMatch(
          new RegExp(
            `could not create schema "${schema}" .*permission denied for (database|schema)`,
          ),
        );
        expect(((failure as Error).cause as { code?: string }).code, schema).toBe('42501');
        expect(await tablesIn(schema), schema).toEqual([]);
      }
    } finally {
      await db.sql(`REVOKE USAGE ON SCHEMA "${existing}" FROM ${role}`);
      await db.sql(`DROP ROLE ${role}`);
    }
  });

  it('masks a password that the database is named like, in the address and in PostgreSQL’s refusal, and in the cause [claim:pg-password-never-shown]', async () => {
    const url = new URL(db.url());
    const database = decodeURIComponent(url.pathname.slice(1));
    const role = `namesake_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await db.sql(`CREATE ROLE ${role} LOGIN PASSWORD '${database}'`);
    await db.sql(`REVOKE CREATE ON DATABASE "${database}" FROM PUBLIC`);
    url.username = role;
    url.password = database;
    const shown = (error: unknown): string => `${String(error)}\n${inspect(error, { depth: 8 })}`;
    try {
      // A new schema needs CREATE on the database, which PostgreSQL's refusal names.
      const memory = db.create({ connectionString: url.toString(), schema: db.newSchema() });
      const failure = await memory.init().catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'WEFT_POSTGRES_MIGRATION_FAILED' });
      expect((failure as Error).message).toContain('(database "***")');
      expect((failure as Error).message).toContain('permission denied for database ***');
      expect(((failure as Error).cause as { code?: string }).code).toBe('42501');
      expect(shown(failure)).not.toContain(database);
      // A server out of reach: the address alone names the database.
      url.port = String(await freePort());
      const refused = db.create({ connectionString: url.toString() });
      const unreached = await refused.init().catch((error: unknown) => error);
      expect(unreached).toMatchObject({ code: 'WEFT_POSTGRES_CONNECT_FAILED' });
      expect((unreached as Error).message).toContain('(database "***")');
      expect(shown(unreached)).not.toContain(database);
    } finally {
      await db.sql(`DROP ROLE ${role}`);
    }
  });

  it('refuses a role that may not read the schema version, on a new or a migrated schema, with WEFT_POSTGRES_MIGRATION_FAILED carrying PostgreSQL’s error, and changes nothing [claim:pg-readme-migration-read-privilege]', async () => {
    const role = `blind_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await db.sql(`CREATE ROLE ${role} LOGIN PASSWORD 'blind-pw'`);
    const url = new URL(db.url());
    url.username = role;
    url.password = 'blind-pw';
    const empty = db.newSchema();
    await db.sql(`CREATE SCHEMA "${empty}"`);
    const owner = await db.open();
    const migrated = owner.schema;
    await owner.shutdown();
    const unreadable = await db.open();
    await unreadable.shutdown();
    await db.sql(`GRANT USAGE ON SCHEMA "${unreadable.schema}" TO ${role}`);
    try {
      for (const [schema, denied] of [
        [empty, 'schema'],
        [migrated, 'schema'],
        [unreadable.schema, 'table weft_memory_migrations'],
      ] as const) {
        const before = await tablesIn(schema);
        const memory = db.create({ connectionString: url.toString(), schema });
        const failure = await memory.init().catch((error: unknown) => error);
        expect(failure, schema).toMatchObject({ code: 'WEFT_POSTGRES_MIGRATION_FAILED' });
        expect((failure as Error).message, schema).toMatch(
          new RegExp(
            `could not read the version of schema "${schema}", so nothing was changed: ` +
              `permission denied for ${denied}.*give the role USAGE on the schema`,
          ),
        );
        expect(((failure as Error).cause as { code?: string }).code, schema).toBe('42501');
        expect(await tablesIn(schema), schema).toEqual(before);
      }
    } finally {
      await db.sql(`REVOKE USAGE ON SCHEMA "${unreadable.schema}" FROM ${role}`);
      await db.sql(`DROP ROLE ${role}`);
    }
  });

  it('opens a migrated schema with a role that may only use it and read and write its tables [claim:pg-role-after-first-init]', async () => {
    const owner = await db.open();
    const { schema } = owner;
    await owner.shutdown();
    await withTableRole('runner', schema, async (role, connectionString) => {
      const memory = db.create({ connectionString, schema });
      await memory.init();
      const stored = await memory.store({ space: 'room', kind: 'note', content: 1, metadata: {} });
      expect(await memory.update(stored.id, { content: 2 })).toMatchObject({ content: 2 });
      expect((await memory.query({ space: 'room' })).map((each) => each.id)).toEqual([stored.id]);
      expect(await memory.remove(stored.id)).toBe(true);
      expect(await memory.clear()).toBe(0);
      await memory.shutdown();
      // The role could not have created the tables: it may create nothing in the schema.
      const [privilege] = await db.sql<{ can: boolean }>(
        `SELECT has_schema_privilege($1, $2, 'CREATE') AS can`,
        [role, schema],
      );
      expect(privilege?.can).toBe(false);
    });
  });

  it('leaves the default schema public to the database’s owner from PostgreSQL 15 on: another role’s first init() there fails with WEFT_POSTGRES_MIGRATION_FAILED [claim:pg-role-public-15]', async () => {
    const suffix = randomUUID().replace(/-/g, '').slice(0, 12);
    const database = `fresh_${suffix}`;
    const role = `app_${suffix}`;
    await db.sql(`CREATE DATABASE ${database}`);
    await db.sql(`CREATE ROLE ${role} LOGIN PASSWORD 'app-pw'`);
    const url = new URL(db.url());
    url.pathname = `/${database}`;
    url.username = role;
    url.password = 'app-pw';
    const [{ version } = { version: 0 }] = await db.sql<{ version: number }>(
      "SELECT current_setting('server_version_num')::int AS version",
    );
    try {
      const stranger = db.create({ connectionString: url.toString(), schema: undefined });
      expect(stranger.schema).toBe('public');
      const failure = await stranger.init().catch((error: unknown) => error);
      if (version >= 150000) {
        expect(failure).toMatchObject({ code: 'WEFT_POSTGRES_MIGRATION_FAILED' });
        expect((failure as Error).message).toContain('permission denied for schema public');
        await stranger.shutdown();
        // The database's owner may create tables in public without any grant.
        await db.sql(`ALTER DATABASE ${database} OWNER TO ${role}`);
        const owner = db.create({ connectionString: url.toString(), schema: undefined });
        await owner.init();
        await owner.store({ space: 'room', kind: 'note', content: 1, metadata: {} });
        expect(await owner.query({})).toHaveLength(1);
        await owner.shutdown();
      } else {
        // Before 15, every role could create tables in public.
        expect(failure).toBeUndefined();
        await stranger.shutdown();
      }
    } finally {
      await db.sql(`DROP DATABASE ${database}`);
      await db.sql(`DROP ROLE ${role}`);
    }
  });

  it('passes on unchanged, at once, PostgreSQL’s error for a privilege revoked after init() [claim:pg-other-errors]', async () => {
    const owner = await db.open();
    const { schema } = owner;
    await owner.shutdown();
    await withTableRole('revoked', schema, async (role, connectionString) => {
      const memory = db.create({ connectionString, schema });
      await memory.init();
      await memory.store({ space: 'room', kind: 'note', content: 1, metadata: {} });
      await db.sql(
        `REVOKE SELECT, INSERT, UPDATE, DELETE ON "${schema}".weft_memories FROM ${role}`,
      );
      const started = Date.now();
      const failure = await memory.query({}).catch((error: unknown) => error);
      expect(Date.now() - started).toBeLessThan(2000);
      // The driver's own error, as PostgreSQL sent it: not wrapped, not retried.
      expect(failure).toBeInstanceOf(pg.DatabaseError);
      expect(failure).toMatchObject({
        code: '42501',
        message: 'permission denied for table weft_memories',
      });
      await memory.shutdown();
    });
  });

  it('opens a migrated schema with a role that may not read weft_memories, which fails only at its first call, as before the clock started after the newest memory', async () => {
    const owner = await db.open();
    const { schema } = owner;
    await owner.store({ space: 'room', kind: 'note', content: 1, metadata: {} });
    await owner.shutdown();
    const role = `writer_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await db.sql(`CREATE ROLE ${role} LOGIN PASSWORD 'writer-pw'`);
    const grants = [
      `USAGE ON SCHEMA "${schema}"`,
      `SELECT ON "${schema}".weft_memory_migrations`,
      `INSERT ON "${schema}".weft_memories`,
    ];
    for (const grant of grants) await db.sql(`GRANT ${grant} TO ${role}`);
    try {
      const url = new URL(db.url());
      url.username = role;
      url.password = 'writer-pw';
      const memory = db.create({ connectionString: url.toString(), schema });
      await memory.init();
      const failure = await memory.query({}).catch((error: unknown) => error);
      expect((failure as { code?: string }).code).toBe('42501');
      await memory.shutdown();
    } finally {
      for (const grant of grants) await db.sql(`REVOKE ${grant} FROM ${role}`);
      await db.sql(`DROP ROLE ${role}`);
    }
  });

  it('fails init with WEFT_POSTGRES_STATEMENT_TIMEOUT when another session holds the schema’s migration lock past the timeout [claim:errors-postgres-init-statement-timeout] [claim:pg-migration-lock]', async () => {
    const schema = db.newSchema();
    const holder = new pg.Client({ connectionString: db.url(), connectionTimeoutMillis: 10_000 });
    await holder.connect();
    try {
      // The lock instances take while they prepare a schema, held as another instance would.
      await holder.query('SELECT pg_advisory_lock($1, hashtext($2))', [
        MIGRATION_LOCK_CLASS,
        schema,
      ]);
      const memory = db.create({ schema, pool: { statementTimeoutMs: 300 } });
      const failure = await memory.init().catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'WEFT_POSTGRES_STATEMENT_TIMEOUT' });
      expect((failure as Error).message).toMatch(/preparing schema .* statement timeout of 300 ms/);
      expect(((failure as Error).cause as { code?: string }).code).toBe('57014');
      expect(await tablesIn(schema)).toEqual([]);
    } finally {
      await holder.end();
    }
  });

  it('answers each query filter from its own index, never a scan of the table, and a pattern starting with * without the space index [claim:mpo-postgres-indexes] [claim:pg-indexes] [claim:pg-collation]', async () => {
    const memory = await db.open();
    const table = tablesOf(memory.schema).memories;
    // 20,000 memories over 5,000 spaces, seven common kinds and one rare one, one task each.
    await db.sql(
      `INSERT INTO ${table} (id, space, kind, content, task_id, metadata, created_at)
       SELECT gen_random_uuid(), 'space-' || (n % 5000),
              CASE WHEN n % 2000 = 0 THEN 'rare' ELSE 'kind-' || (n % 7) END,
              '{}', 'task-' || n, '{}', now() - n * interval '1 second'
       FROM generate_series(1, 20000) AS n`,
    );
    await db.sql(`ANALYZE ${table}`);
    const expected: [QueryMemoryOptions, string][] = [
      [{ space: 'space-7' }, 'weft_memories_space_created'],
      [{ spacePrefix: 'space-499' }, 'weft_memories_space_created'],
      [{ spacePatterns: ['space-123*', 'space-2'] }, 'weft_memories_space_created'],
      [{ kind: 'rare' }, 'weft_memories_kind_created'],
      [{ taskId: 'task-42' }, 'weft_memories_task_id'],
      [{ since: new Date(Date.now() - 60_000) }, 'weft_memories_created'],
      [{ until: new Date(Date.now() - 19_990_000) }, 'weft_memories_created'],
      [{}, 'weft_memories_created'],
    ];
    for (const [filter, index] of expected) {
      const { sql, params } = buildQuery(table, checkMemoryQuery(filter, 'test'));
      const plan = (await db.sql<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, [...params]))
        .map((row) => row['QUERY PLAN'])
        .join('\n');
      expect(plan, JSON.stringify(filter)).toContain(index);
      expect(plan, JSON.stringify(filter)).not.toMatch(/Seq Scan/);
    }
    // A pattern with no literal start, or an empty prefix, has no range of the space index to read.
    for (const filter of [{ spacePatterns: ['*-7'] }, { spacePrefix: '' }]) {
      const { sql, params } = buildQuery(table, checkMemoryQuery(filter, 'test'));
      const plan = (await db.sql<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, [...params]))
        .map((row) => row['QUERY PLAN'])
        .join('\n');
      expect(plan, JSON.stringify(filter)).not.toContain('weft_memories_space_created');
    }
  });

  it('lets the planner read a small table whole rather than through the space index [claim:pg-indexes-small-table] [claim:mpo-postgres-indexes]', async () => {
    const memory = await db.open();
    const table = tablesOf(memory.schema).memories;
    // 300 memories over 5 spaces: a space filter matches a fifth of a table of a few pages.
    await db.sql(
      `INSERT INTO ${table} (id, space, kind, content, task_id, metadata, created_at)
       SELECT gen_random_uuid(), 'space-' || (n % 5), 'note', '{}', 'task-' || n, '{}',
              now() - n * interval '1 second'
       FROM generate_series(1, 300) AS n`,
    );
    await db.sql(`ANALYZE ${table}`);
    const { sql, params } = buildQuery(table, checkMemoryQuery({ space: 'space-1' }, 'test'));
    const plan = (await db.sql<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, [...params]))
      .map((row) => row['QUERY PLAN'])
      .join('\n');
    expect(plan).toMatch(/Seq Scan on weft_memories/);
    expect(plan).not.toContain('weft_memories_space_created');
    // The query still finds every memory of the space, newest first.
    const found = await memory.query({ space: 'space-1', limit: 1000 });
    expect(found).toHaveLength(60);
    expect(found.map((each) => each.createdAt.getTime())).toEqual(
      found.map((each) => each.createdAt.getTime()).sort((a, b) => b - a),
    );
  });

  it('creates and uses the schema under the name as written, upper-case letters kept [claim:pg-schema-case] [claim:pg-schema-ident]', async () => {
    const schema = `Mixed_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const memory = await db.open({ schema });
    await memory.store({ space: 'room', kind: 'note', content: 1, metadata: {} });
    const names = await db.sql<{ nspname: string }>(
      'SELECT nspname FROM pg_namespace WHERE lower(nspname) = lower($1)',
      [schema],
    );
    expect(names.map((row) => row.nspname)).toEqual([schema]);
    expect(await tablesIn(schema)).toEqual(['weft_memories', 'weft_memory_migrations']);
    const ok = 'a'.repeat(63);
    expect(new PostgresMemoryProvider({ connectionString: db.url(), schema: ok }).schema).toBe(ok);
  });

  it('accepts a schema name only as a plain identifier, so it cannot inject SQL [claim:pg-schema-ident]', () => {
    for (const schema of ['a"; DROP TABLE x; --', '1abc', '', 'a'.repeat(64), 'with space']) {
      expect(
        () => new PostgresMemoryProvider({ connectionString: db.url(), schema }),
        schema,
      ).toThrow(/option "schema"/);
    }
  });
});

describe('PostgresMemoryProvider: connections', () => {
  const connectionsOf = async (id: string): Promise<number> =>
    (
      await db.sql<{ count: string }>(
        'SELECT count(*) AS count FROM pg_stat_activity WHERE application_name = $1',
        [`weft-memory-postgres/${id}`],
      )
    ).map((row) => Number(row.count))[0] ?? 0;

  it('opens one pool for concurrent init() calls and closes every connection at shutdown [claim:pg-nothing-until-init] [claim:scaling-memory-pool] [claim:coord-readme-memory-pool]', async () => {
    const memory = db.create({ id: 'pool-check', pool: { max: 3 } });
    await Promise.all([memory.init(), memory.init(), memory.init()]);
    await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        memory.store({ space: 'busy', kind: 'note', content: index, metadata: {} }),
      ),
    );
    const open = await connectionsOf('pool-check');
    expect(open).toBeGreaterThan(0);
    expect(open).toBeLessThanOrEqual(3);
    await memory.shutdown();
    // A backend leaves pg_stat_activity a moment after its client has gone: poll, with a deadline.
    const deadline = Date.now() + 5000;
    let left = await connectionsOf('pool-check');
    while (left > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      left = await connectionsOf('pool-check');
    }
    expect(left).toBe(0);
  });

  it("asks the server for no keepalives of its own, unlike the coordinator, so the server drops a vanished host's connections after its system's keepalive [claim:scaling-memory-pool-cut]", async () => {
    const settings = async (pool: pg.Pool | pg.Client) =>
      (
        await pool.query<{ idle: string; user_timeout: string }>(
          "SELECT current_setting('tcp_keepalives_idle') AS idle, current_setting('tcp_user_timeout') AS user_timeout",
        )
      ).rows[0];
    const pool = createPool(resolveOptions({ connectionString: db.url() }));
    const plain = new pg.Client({ connectionString: db.url() });
    await plain.connect();
    try {
      const memory = await settings(pool);
      // The system's own keepalive (7200 s on a default Linux), as any client that sets none has.
      expect(memory).toEqual(await settings(plain));
      expect(memory?.user_timeout).toBe('0');
      expect(memory?.idle).not.toBe('10');
    } finally {
      await plain.end();
      await pool.end();
    }
  });

  it('opens and stores with the largest statementTimeoutMs it accepts, 2,147,482,647 ms [claim:errors-postgres-invalid-options]', async () => {
    // One more and the second the client waits past it would pass PostgreSQL's and Node's limit.
    const memory = await db.open({ pool: { statementTimeoutMs: 2_147_482_647 } });
    const stored = await memory.store({ space: 's', kind: 'note', content: 1, metadata: {} });
    expect((await memory.query({ space: 's' })).map((found) => found.id)).toEqual([stored.id]);
  });

  it('leaves no connection open when shutdown() is called while init() is still opening', async () => {
    const memory = db.create({ id: 'early-stop' });
    const opening = memory.init();
    await memory.shutdown();
    await opening;
    await expect(memory.query({})).rejects.toMatchObject({ code: 'WEFT_POSTGRES_NOT_OPEN' });
    expect(await memory.checkHealth()).toBe(false);
    const deadline = Date.now() + 5000;
    let left = await connectionsOf('early-stop');
    while (left > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      left = await connectionsOf('early-stop');
    }
    expect(left).toBe(0);
  });

  it('refuses calls with WEFT_POSTGRES_NOT_OPEN after shutdown() [claim:pg-readme-not-open]', async () => {
    const memory = await db.open();
    await memory.store({ space: 's', kind: 'note', content: 1, metadata: {} });
    await memory.shutdown();
    await expect(memory.query({})).rejects.toMatchObject({ code: 'WEFT_POSTGRES_NOT_OPEN' });
    await expect(
      memory.store({ space: 's', kind: 'note', content: 2, metadata: {} }),
    ).rejects.toMatchObject({ code: 'WEFT_POSTGRES_NOT_OPEN' });
  });
});
