import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { WeftError } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { SqliteMemoryProvider } from '../src/index.js';
import { useTempDatabase } from './helpers.js';

function userVersion(path: string): number {
  const raw = new Database(path, { readonly: true });
  try {
    return Number(raw.pragma('user_version', { simple: true }));
  } finally {
    raw.close();
  }
}

describe('SqliteMemoryProvider: persistence and migrations', () => {
  const db = useTempDatabase();

  it('creates the file with the v1 schema, in WAL mode [claim:prod-sqlite-wal] [claim:sqlite-path] [claim:mpo-sqlite-path] [claim:mpo-sqlite-init] [claim:tut-sqlite-creates-file]', async () => {
    await db.open();
    expect(existsSync(db.path())).toBe(true);
    const raw = new Database(db.path(), { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(raw.pragma('user_version', { simple: true })).toBe(1);
      const columns = raw.pragma('table_info(memories)') as { name: string; notnull: number }[];
      expect(columns.map((c) => [c.name, c.notnull])).toEqual([
        ['id', 0],
        ['space', 1],
        ['kind', 1],
        ['content', 1],
        ['task_id', 0],
        ['metadata', 1],
        ['created_at', 1],
      ]);
      const indexes = (raw.pragma('index_list(memories)') as { name: string }[])
        .map((i) => i.name)
        .filter((name) => !name.startsWith('sqlite_autoindex'))
        .sort();
      expect(indexes).toEqual([
        'memories_created_at',
        'memories_space_created_at',
        'memories_task_id',
      ]);
    } finally {
      raw.close();
    }
  });

  it('syncs every commit to disk (synchronous = FULL), on a new file and on one reopened in WAL mode [claim:sqlite-synced-writes] [claim:tsdoc-sqlite-init]', async () => {
    // SQLite's default for a database in WAL mode, as better-sqlite3 builds it, is NORMAL (1),
    // which a power cut can take committed writes back from; FULL is 2.
    const synchronousOf = (provider: SqliteMemoryProvider): unknown =>
      (provider as unknown as { connection: { db: Database.Database } }).connection.db.pragma(
        'synchronous',
        { simple: true },
      );
    const first = await db.open();
    await first.store({ space: 'room', kind: 'note', content: 'one', metadata: {} });
    expect(synchronousOf(first)).toBe(2);
    await first.shutdown();
    const reopened = await db.open();
    await reopened.store({ space: 'room', kind: 'note', content: 'two', metadata: {} });
    expect(synchronousOf(reopened)).toBe(2);
    const raw = new Database(db.path());
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      // What a connection that does not set it gets: the default the provider overrides.
      expect(raw.pragma('synchronous', { simple: true })).toBe(1);
    } finally {
      raw.close();
    }
  });

  it('keeps every memory across close and reopen, without re-running migrations [claim:mpm-sqlite-shared] [claim:sqlite-migrations]', async () => {
    const first = await db.open();
    const stored = [];
    for (let i = 0; i < 25; i++) {
      stored.push(
        await first.store({
          space: `room-${i % 3}`,
          kind: i % 2 ? 'odd' : 'even',
          content: { i, text: `memory ${i}` },
          taskId: i % 5 === 0 ? `task-${i}` : undefined,
          metadata: { i },
        }),
      );
    }
    const updated = await first.update(stored[3]!.id, { content: 'changed' });
    await first.remove(stored[4]!.id);
    await first.shutdown();
    expect(userVersion(db.path())).toBe(1);

    const second = await db.open();
    const expected = stored.map((m, i) => (i === 3 ? updated : m)).filter((_, i) => i !== 4);
    expect(await second.query({ order: 'asc' })).toEqual(expected);
    expect(userVersion(db.path())).toBe(1);

    // A third open of the same file by a new instance changes nothing either.
    await second.shutdown();
    const third = await db.open();
    expect(await third.query({ order: 'asc' })).toEqual(expected);
    expect(userVersion(db.path())).toBe(1);
  });

  it('can be initialised again on the same instance after shutdown [claim:sqlite-shutdown]', async () => {
    const memory = await db.open();
    const stored = await memory.store({ space: 's', kind: 'k', content: 1, metadata: {} });
    await memory.shutdown();
    await memory.init();
    expect(await memory.query({})).toEqual([stored]);
  });

  it('opens an existing v1 database created elsewhere without touching its rows [claim:sqlite-migrations]', async () => {
    const memory = await db.open();
    await memory.store({ space: 's', kind: 'k', content: 'kept', metadata: {} });
    await memory.shutdown();

    // Simulate a row written by another tool: migrations must not drop or recreate the table.
    const raw = new Database(db.path());
    raw
      .prepare(
        'INSERT INTO memories (id, space, kind, content, task_id, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run('external', 's', 'k', '"outside"', null, '{}', 1);
    raw.close();

    await memory.init();
    expect((await memory.query({ order: 'asc' })).map((m) => m.content)).toEqual([
      'outside',
      'kept',
    ]);
  });

  it('refuses a database whose schema is newer than it knows, and leaves it untouched [claim:mpo-sqlite-init] [claim:sqlite-too-new] [claim:tsdoc-sqlite-init] [claim:mpo-sqlite-too-new]', async () => {
    // A file in SQLite's default rollback-journal mode: switching it to WAL would rewrite it.
    const raw = new Database(db.path());
    raw.exec('CREATE TABLE theirs (x INTEGER)');
    raw.pragma('user_version = 7');
    raw.close();
    const bytes = readFileSync(db.path());

    const memory = db.create();
    const refused = await memory.init().catch((error: unknown) => error);
    expect(WeftError.is(refused, 'WEFT_SQLITE_SCHEMA_TOO_NEW')).toBe(true);
    expect((refused as Error).message).toMatch(/schema version 7.*up to 1/);
    expect(readFileSync(db.path())).toEqual(bytes);
    expect(existsSync(`${db.path()}-wal`)).toBe(false);
    expect(await memory.checkHealth()).toBe(false);
    await expect(memory.query({})).rejects.toThrow(/init\(\)/);
    expect(userVersion(db.path())).toBe(7);
    const check = new Database(db.path(), { readonly: true });
    try {
      expect(check.prepare("SELECT name FROM sqlite_master WHERE name = 'memories'").get()).toBe(
        undefined,
      );
    } finally {
      check.close();
    }
  });

  it('reports a clear error when the directory does not exist [claim:sqlite-path] [claim:mpo-sqlite-path] [claim:tut-sqlite-creates-file]', async () => {
    const memory = new SqliteMemoryProvider({ path: `${db.path()}-missing-dir/weft.db` });
    await expect(memory.init()).rejects.toThrow(/cannot open the database/);
  });

  it('works in memory with ":memory:" [claim:sqlite-path] [claim:mpo-sqlite-path]', async () => {
    const memory = new SqliteMemoryProvider({ path: ':memory:' });
    await memory.init();
    const stored = await memory.store({ space: 's', kind: 'k', content: [1], metadata: {} });
    expect(await memory.query({ space: 's' })).toEqual([stored]);
    await memory.shutdown();
    await memory.init();
    expect(await memory.query({})).toEqual([]);
    await memory.shutdown();
  });
});
