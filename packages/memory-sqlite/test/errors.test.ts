import Database from 'better-sqlite3';
import { randomBytes, randomUUID } from 'node:crypto';
import { execFile } from 'node:child_process';
import { chmod, chown, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { WeftError } from '@weft/core';
import { describe, expect, it, vi } from 'vitest';
import { SqliteMemoryProvider, SqliteMemoryProviderError } from '../src/index.js';
import { useTempDatabase } from './helpers.js';

const db = useTempDatabase();

async function codeOf(action: () => unknown): Promise<string | undefined> {
  try {
    await action();
  } catch (error) {
    expect(WeftError.is(error)).toBe(true);
    return (error as WeftError<string>).code;
  }
  throw new Error('expected an error');
}

describe('SqliteMemoryProvider errors', () => {
  it('carry a WEFT_SQLITE_* code for each problem of the backend [claim:sqlite-readme-invalid-options] [claim:mpo-backend-codes] [claim:sqlite-error-format] [claim:tsdoc-sqlite-init]', async () => {
    expect(await codeOf(() => new SqliteMemoryProvider({ path: '' }))).toBe(
      'WEFT_SQLITE_INVALID_OPTIONS',
    );
    const closed = db.create();
    expect(await codeOf(() => closed.query({}))).toBe('WEFT_SQLITE_NOT_OPEN');
    const missingDir = db.create({ path: `${db.path()}-missing/dir/weft.db` });
    expect(await codeOf(() => missingDir.init())).toBe('WEFT_SQLITE_OPEN_FAILED');
    const error = await missingDir.init().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SqliteMemoryProviderError);
    expect(error).toBeInstanceOf(WeftError);
    expect((error as Error).name).toBe('SqliteMemoryProviderError');
  });

  it('refuse with WEFT_SQLITE_INVALID_OPTIONS, naming the option, every bad option the errors reference lists [claim:errors-sqlite-invalid-options] [claim:sqlite-busy]', async () => {
    type Options = ConstructorParameters<typeof SqliteMemoryProvider>[0];
    const refused: [Options, string][] = [
      [null as unknown as Options, 'options must be an object'],
      [{ path: ' ' }, 'option "path"'],
      [{ path: 'a\0b.db' }, 'option "path" must not contain NUL'],
      [{ path: ':memory:', id: '' }, 'option "id"'],
      [{ path: ':memory:', busyTimeout: 1 } as Options, 'unknown option "busyTimeout"'],
      [{ path: ':memory:', busyTimeoutMs: -1 }, 'option "busyTimeoutMs"'],
      [{ path: ':memory:', busyTimeoutMs: 1.5 }, 'option "busyTimeoutMs"'],
      [
        { path: ':memory:', busyTimeoutMs: 2 ** 31 },
        'option "busyTimeoutMs" must be an integer of milliseconds from 0 to 2147483647, got 2147483648',
      ],
      [{ path: ':memory:', busyTimeout: 100 } as Options, 'unknown option "busyTimeout"'],
    ];
    for (const [options, named] of refused) {
      expect(await codeOf(() => new SqliteMemoryProvider(options))).toBe(
        'WEFT_SQLITE_INVALID_OPTIONS',
      );
      expect(() => new SqliteMemoryProvider(options)).toThrow(named);
    }
    // The bounds themselves are accepted.
    expect(new SqliteMemoryProvider({ path: ':memory:', busyTimeoutMs: 0 }).path).toBe(':memory:');
    expect(new SqliteMemoryProvider({ path: ':memory:', busyTimeoutMs: 2 ** 31 - 1 }).path).toBe(
      ':memory:',
    );
  });

  it('carry the shared memory codes of @weft/core for input the memory contract refuses [claim:sqlite-shared-codes] [claim:sqlite-readme-invalid-query] [claim:sqlite-memory-invalid] [claim:tsdoc-sqlite-codes] [claim:tsdoc-sqlite-query]', async () => {
    const memory = await db.open();
    const note = { space: 's', kind: 'note', content: 1, metadata: {} };
    expect(await codeOf(() => memory.store({ ...note, kind: '' }))).toBe('WEFT_MEMORY_INVALID');
    expect(await codeOf(() => memory.store({ ...note, content: 1n }))).toBe('WEFT_MEMORY_INVALID');
    expect(await codeOf(() => memory.store({ ...note, space: 7 as unknown as string }))).toBe(
      'WEFT_MEMORY_INVALID',
    );
    expect(await codeOf(() => memory.store(null as unknown as typeof note))).toBe(
      'WEFT_MEMORY_INVALID',
    );
    expect(await codeOf(() => memory.update('nope', null as unknown as { content: unknown }))).toBe(
      'WEFT_MEMORY_INVALID',
    );
    expect(await codeOf(() => memory.query({ limit: 0 }))).toBe('WEFT_MEMORY_INVALID_QUERY');
    expect(await codeOf(() => memory.update('nope', { content: 1 }))).toBe('WEFT_MEMORY_NOT_FOUND');
    expect(await codeOf(() => memory.remove(42 as unknown as string))).toBe(
      'WEFT_INVALID_ARGUMENT',
    );
  });

  it('refuse, with the shared codes, what the README lists: arrays, a taskId of the wrong type, a null patch metadata, a non-object query, too many patterns, an option name query() lacks; and take a null taskId or metadata as none [claim:sqlite-memory-invalid] [claim:sqlite-readme-invalid-query]', async () => {
    const memory = await db.open();
    const note = { space: 's', kind: 'note', content: 1, metadata: {} };
    expect(await codeOf(() => memory.store([note] as unknown as typeof note))).toBe(
      'WEFT_MEMORY_INVALID',
    );
    expect(await codeOf(() => memory.store({ ...note, taskId: 5 as unknown as string }))).toBe(
      'WEFT_MEMORY_INVALID',
    );
    expect(await codeOf(() => memory.store({ ...note, space: 'x'.repeat(501) }))).toBe(
      'WEFT_MEMORY_INVALID',
    );
    const stored = await memory.store({
      ...note,
      taskId: null as unknown as string,
      metadata: null as unknown as Record<string, unknown>,
    });
    expect(stored).not.toHaveProperty('taskId');
    expect(stored.metadata).toEqual({});
    const { metadata: _left, ...bare } = note;
    const withoutMetadata = await memory.store(bare as typeof note);
    expect(withoutMetadata.metadata).toEqual({});
    await memory.remove(withoutMetadata.id);
    expect(
      await codeOf(() =>
        memory.update(stored.id, { metadata: null as unknown as Record<string, unknown> }),
      ),
    ).toBe('WEFT_MEMORY_INVALID');
    expect(
      await codeOf(() => memory.update(stored.id, [] as unknown as { content: unknown })),
    ).toBe('WEFT_MEMORY_INVALID');
    expect(await codeOf(() => memory.query(null as unknown as object))).toBe(
      'WEFT_MEMORY_INVALID_QUERY',
    );
    // A misspelt filter is refused, not ignored: ignored, it would leave the query every space.
    const misspelt = await memory
      .query({ spacePattern: ['s'] } as unknown as object)
      .catch((caught: unknown) => caught);
    expect(WeftError.is(misspelt, 'WEFT_MEMORY_INVALID_QUERY')).toBe(true);
    expect((misspelt as Error).message).toContain('"spacePattern" is not an option of query()');
    const patterns = Array.from({ length: 101 }, (_, index) => `p-${index}`);
    expect(await codeOf(() => memory.query({ spacePatterns: patterns }))).toBe(
      'WEFT_MEMORY_INVALID_QUERY',
    );
    expect(await memory.query({ spacePatterns: patterns.slice(1) })).toEqual([]);
    expect(await memory.query({})).toEqual([stored]);
  });

  it('give WEFT_INVALID_ARGUMENT for an id or space that is not a string (TSDoc of update and clear) [claim:sqlite-readme-invalid-argument] [claim:tsdoc-sqlite-update-id] [claim:tsdoc-sqlite-clear]', async () => {
    const memory = await db.open();
    expect(await codeOf(() => memory.update(42 as unknown as string, { content: 1 }))).toBe(
      'WEFT_INVALID_ARGUMENT',
    );
    expect(await codeOf(() => memory.clear(7 as unknown as string))).toBe('WEFT_INVALID_ARGUMENT');
  });

  it('keep the "owner: problem" message and name the code at the end of its first line [claim:sqlite-error-format] [claim:tsdoc-core-provider-update-throws]', async () => {
    const memory = await db.open();
    await expect(memory.update('nope', { content: 1 })).rejects.toThrow(
      'SqliteMemoryProvider "sqlite": no memory with id "nope"; use an id that store() or query() returned [WEFT_MEMORY_NOT_FOUND]',
    );
  });

  it('give WEFT_SQLITE_OPEN_FAILED for a file that is not a SQLite database, and leave the file alone [claim:sqlite-open-not-a-database] [claim:tsdoc-sqlite-init]', async () => {
    // Junk that cannot start with SQLite's 16-byte header ("SQLite format 3\0").
    const junk = Buffer.concat([Buffer.from('not a database\n'), randomBytes(4096)]);
    await writeFile(db.path(), junk);
    const memory = db.create();
    const error = await memory.init().catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_SQLITE_OPEN_FAILED')).toBe(true);
    expect((error as Error).message).toContain(
      `SqliteMemoryProvider "sqlite": cannot open the database "${db.path()}": file is not a database`,
    );
    expect(((error as Error).cause as { code?: string }).code).toBe('SQLITE_NOTADB');
    expect(await readFile(db.path())).toEqual(junk);
    // The provider did not open: it says so rather than reading the junk.
    expect(await codeOf(() => memory.query({}))).toBe('WEFT_SQLITE_NOT_OPEN');
  });

  it('give WEFT_SQLITE_OPEN_FAILED with advice about write access, not about the file being a database, when the path names a folder [claim:sqlite-open-access]', async () => {
    const folder = dirname(db.path());
    const error = await db
      .create({ path: folder })
      .init()
      .catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_SQLITE_OPEN_FAILED')).toBe(true);
    expect(((error as Error).cause as { code?: string }).code).toBe('SQLITE_CANTOPEN');
    const [firstLine] = (error as Error).message.split('\n');
    expect(firstLine).toContain('that the path names a file, not a folder');
    expect(firstLine).not.toContain('a SQLite database file written by this package');
  });

  it('give WEFT_SQLITE_OPEN_FAILED with advice about write access when the process may not write the folder of a file it must switch to WAL [claim:sqlite-open-access] [claim:sqlite-path] [claim:mpo-sqlite-path]', async () => {
    // A file another tool made, in rollback-journal mode: init() must switch it to WAL, which
    // creates its -wal file beside it, in a folder the process may read but not write.
    const folder = join(dirname(db.path()), 'read-only');
    await mkdir(folder);
    const path = join(folder, 'weft.db');
    const other = new Database(path);
    other.exec('CREATE TABLE notes (text TEXT)');
    other.close();
    const { code, message } = await initUnprivileged(path, async () => {
      await chmod(folder, 0o555);
    });
    await chmod(folder, 0o755);
    expect(code).toBe('WEFT_SQLITE_OPEN_FAILED');
    const [firstLine] = message.split('\n');
    expect(firstLine).toContain(
      'check that the process may write this file and create files in its directory',
    );
    expect(firstLine).not.toContain('a SQLite database file written by this package');
  });

  it('give WEFT_SQLITE_OPEN_FAILED, untouched, for a database file the process may only read, rather than failing at the first store [claim:sqlite-open-access]', async () => {
    // A current file in WAL mode needs no write to open, so SQLite alone would open it read-only.
    const made = await db.open();
    await made.store({ space: 'room', kind: 'note', content: 1, metadata: {} });
    await made.shutdown();
    const before = await readFile(db.path());
    const { code, message } = await initUnprivileged(db.path(), async () => {
      await chmod(db.path(), 0o444);
    });
    expect(code).toBe('WEFT_SQLITE_OPEN_FAILED');
    expect(message.split('\n')[0]).toContain(
      `cannot open the database "${db.path()}" for writing: `,
    );
    expect(message).toContain('check that the process may write this file');
    expect(await readFile(db.path())).toEqual(before);
    expect(await readdir(dirname(db.path()))).not.toContain('weft.db-wal');
  });

  it('give WEFT_SQLITE_OPEN_FAILED for a file it may write whose -wal and -shm files it may only read, rather than failing at the first store [claim:sqlite-open-access] [claim:tsdoc-sqlite-init]', async () => {
    // A process of another user has the file open, so its -wal and -shm files are there and
    // belong to that user: SQLite alone would open the database read-only.
    const made = await db.open();
    await made.store({ space: 'room', kind: 'note', content: 1, metadata: {} });
    await made.shutdown();
    const holder = new Database(db.path());
    try {
      holder.prepare('SELECT count(*) FROM memories').get();
      const { code, message } = await initUnprivileged(db.path(), async () => {
        await chmod(`${db.path()}-wal`, 0o444);
        await chmod(`${db.path()}-shm`, 0o444);
      });
      expect(code).toBe('WEFT_SQLITE_OPEN_FAILED');
      const [firstLine] = message.split('\n');
      expect(firstLine).toContain(`cannot open the database "${db.path()}" for writing: `);
      expect(firstLine).toMatch(/weft\.db-(wal|shm)'/);
      expect(firstLine).toContain('check that the process may write this file');
    } finally {
      holder.close();
    }
  });

  it('give WEFT_SQLITE_OPEN_FAILED, with SQLITE_BUSY as cause and advice about the lock, when init() must migrate and meets a write lock held past busyTimeoutMs [claim:sqlite-init-busy] [claim:sqlite-sqlite-errors] [claim:tsdoc-sqlite-init] [claim:sqlite-error-format]', async () => {
    // A new file in WAL mode, so only the migration needs the lock the holder has.
    const holder = new Database(db.path());
    holder.pragma('journal_mode = WAL');
    try {
      holder.exec('BEGIN IMMEDIATE');
      const memory = db.create({ busyTimeoutMs: 100 });
      const started = Date.now();
      const error = await memory.init().catch((caught: unknown) => caught);
      expect(Date.now() - started).toBeGreaterThanOrEqual(90);
      expect(error).toBeInstanceOf(SqliteMemoryProviderError);
      expect(WeftError.is(error, 'WEFT_SQLITE_OPEN_FAILED')).toBe(true);
      expect(((error as Error).cause as { code?: string }).code).toBe('SQLITE_BUSY');
      const [firstLine] = (error as Error).message.split('\n');
      expect(firstLine).toBe(
        `SqliteMemoryProvider "sqlite": cannot open the database "${db.path()}": database is locked; ` +
          'another connection held a lock on this file longer than busyTimeoutMs (100 ms): ' +
          'its write lock, or any lock, a reader’s too, on a file in rollback-journal mode being ' +
          'switched to WAL; start again once it is released, or raise busyTimeoutMs ' +
          '[WEFT_SQLITE_OPEN_FAILED]',
      );
      expect(await codeOf(() => memory.query({}))).toBe('WEFT_SQLITE_NOT_OPEN');
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });

  it('give WEFT_SQLITE_OPEN_FAILED at once, saying SQLite does not wait, when switching a rollback-journal file to WAL meets its write lock [claim:sqlite-init-busy] [claim:tsdoc-sqlite-init]', async () => {
    const holder = new Database(db.path());
    try {
      holder.exec('BEGIN IMMEDIATE');
      const memory = db.create({ busyTimeoutMs: 2000 });
      const started = Date.now();
      const error = await memory.init().catch((caught: unknown) => caught);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(WeftError.is(error, 'WEFT_SQLITE_OPEN_FAILED')).toBe(true);
      expect(((error as Error).cause as { code?: string }).code).toBe('SQLITE_BUSY');
      expect((error as Error).message).toContain(
        'database is locked; another connection holds the write lock of this file in ' +
          'rollback-journal mode, which SQLite does not wait for while switching the file to WAL; ' +
          'start again once it is released [WEFT_SQLITE_OPEN_FAILED]',
      );
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });

  it('say that SQLite did not wait for the write lock of a rollback-journal file even when opening the file was slow [claim:sqlite-init-busy]', async () => {
    // A cold load of the native module on a busy machine takes time before any lock is asked
    // for; here opening takes 1.5 s, more than half of busyTimeoutMs, and must not count as a wait.
    vi.doMock('better-sqlite3', async (importOriginal) => {
      const real = (await importOriginal<{ default: typeof Database }>()).default;
      function SlowDatabase(...args: ConstructorParameters<typeof Database>): Database.Database {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);
        return new real(...args);
      }
      return { default: SlowDatabase };
    });
    vi.resetModules();
    const holder = new Database(db.path());
    try {
      const { SqliteMemoryProvider: Provider } = await import('../src/index.js');
      holder.exec('BEGIN IMMEDIATE');
      const error = await new Provider({ path: db.path(), busyTimeoutMs: 2000 })
        .init()
        .catch((caught: unknown) => caught);
      expect((error as { code?: string }).code).toBe('WEFT_SQLITE_OPEN_FAILED');
      expect((error as Error).message).toContain(
        'database is locked; another connection holds the write lock of this file in ' +
          'rollback-journal mode, which SQLite does not wait for while switching the file to WAL; ' +
          'start again once it is released [WEFT_SQLITE_OPEN_FAILED]',
      );
    } finally {
      holder.close();
      vi.doUnmock('better-sqlite3');
      vi.resetModules();
    }
  });

  it('say, with busyTimeoutMs 0, that init() did not wait, and that raising it does not help against the write lock of a rollback-journal file [claim:sqlite-init-busy]', async () => {
    // With no wait allowed, the time init() took cannot tell the two cases apart.
    const holder = new Database(db.path());
    try {
      holder.exec('BEGIN IMMEDIATE');
      const error = await db
        .create({ busyTimeoutMs: 0 })
        .init()
        .catch((caught: unknown) => caught);
      expect(WeftError.is(error, 'WEFT_SQLITE_OPEN_FAILED')).toBe(true);
      expect(((error as Error).cause as { code?: string }).code).toBe('SQLITE_BUSY');
      const message = (error as Error).message;
      expect(message).toContain(
        'database is locked; another connection holds a lock on this file, and with ' +
          'busyTimeoutMs 0 init() did not wait for it; start again once it is released, or raise ' +
          'busyTimeoutMs, which does not help against the write lock of a file in rollback-journal ' +
          'mode being switched to WAL: SQLite does not wait for that one [WEFT_SQLITE_OPEN_FAILED]',
      );
      expect(message).not.toContain('longer than busyTimeoutMs');
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });

  it('give WEFT_SQLITE_OPEN_FAILED after busyTimeoutMs when a reader holds a rollback-journal file init() must switch to WAL [claim:sqlite-init-busy] [claim:tsdoc-sqlite-init]', async () => {
    const reader = new Database(db.path());
    reader.exec('CREATE TABLE other (a); INSERT INTO other VALUES (1)');
    expect(reader.pragma('journal_mode', { simple: true })).toBe('delete');
    try {
      // A read transaction: SQLite keeps the file's shared lock until it ends.
      reader.exec('BEGIN');
      reader.prepare('SELECT a FROM other').all();
      const memory = db.create({ busyTimeoutMs: 300 });
      const started = Date.now();
      const error = await memory.init().catch((caught: unknown) => caught);
      expect(Date.now() - started).toBeGreaterThanOrEqual(270);
      expect(WeftError.is(error, 'WEFT_SQLITE_OPEN_FAILED')).toBe(true);
      expect(((error as Error).cause as { code?: string }).code).toBe('SQLITE_BUSY');
      expect((error as Error).message).toContain(
        'another connection held a lock on this file longer than busyTimeoutMs (300 ms): ' +
          'its write lock, or any lock, a reader’s too',
      );
    } finally {
      reader.exec('COMMIT');
      reader.close();
    }
  });

  it('open a file whose schema is current without waiting for a write lock another connection holds [claim:sqlite-init-busy] [claim:sqlite-migrations] [claim:tsdoc-sqlite-init]', async () => {
    const first = await db.open();
    const stored = await first.store({ space: 's', kind: 'k', content: 1, metadata: {} });
    await first.shutdown();
    const holder = new Database(db.path());
    try {
      holder.exec('BEGIN IMMEDIATE');
      const memory = db.create({ busyTimeoutMs: 2000 });
      const started = Date.now();
      await memory.init();
      expect(Date.now() - started).toBeLessThan(1000);
      expect(await memory.query({})).toEqual([stored]);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });

  it('give WEFT_SQLITE_NOT_OPEN before init() and again after shutdown() [claim:sqlite-readme-not-open]', async () => {
    const memory = db.create();
    expect(
      await codeOf(() => memory.store({ space: 's', kind: 'k', content: 1, metadata: {} })),
    ).toBe('WEFT_SQLITE_NOT_OPEN');
    await memory.init();
    await memory.store({ space: 's', kind: 'k', content: 1, metadata: {} });
    const [stored] = await memory.query({});
    await memory.shutdown();
    const calls: (() => Promise<unknown>)[] = [
      () => memory.store({ space: 's', kind: 'k', content: 1, metadata: {} }),
      () => memory.query({}),
      () => memory.update(stored!.id, { content: 2 }),
      () => memory.remove(stored!.id),
      () => memory.clear(),
    ];
    for (const call of calls) expect(await codeOf(call)).toBe('WEFT_SQLITE_NOT_OPEN');
    // The other methods do not throw.
    expect(await memory.checkHealth()).toBe(false);
    await expect(memory.shutdown()).resolves.toBeUndefined();
  });

  it('give WEFT_SQLITE_SCHEMA_TOO_NEW for a file a newer version wrote [claim:sqlite-readme-schema-too-new]', async () => {
    const raw = new Database(db.path());
    raw.pragma('user_version = 2');
    raw.close();
    expect(await codeOf(() => db.create().init())).toBe('WEFT_SQLITE_SCHEMA_TOO_NEW');
  });

  it('give WEFT_SQLITE_SCHEMA_TOO_NEW for another program’s file that keeps its own version number, and change nothing in it [claim:sqlite-readme-schema-too-new]', async () => {
    const raw = new Database(db.path());
    raw.exec('CREATE TABLE notes (body TEXT)');
    raw.pragma('user_version = 7');
    raw.close();
    expect(await codeOf(() => db.create().init())).toBe('WEFT_SQLITE_SCHEMA_TOO_NEW');
    const after = new Database(db.path(), { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(7);
    expect(
      after.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all(),
    ).toEqual(['notes']);
    after.close();
  });

  it("give WEFT_SQLITE_MIGRATION_FAILED with SQLite's error in the message and as cause when a step fails, and leave its tables, rows and version as they were [claim:sqlite-readme-migration-failed] [claim:sqlite-migrations] [claim:errors-sqlite-migration-message] [claim:sqlite-sqlite-errors]", async () => {
    // An index that already holds a name the first step creates makes that step fail midway,
    // after it has created the memories table.
    const raw = new Database(db.path());
    raw.exec('CREATE TABLE other (x INTEGER); CREATE INDEX memories_created_at ON other (x);');
    raw.close();

    const failure = await db
      .create()
      .init()
      .catch((error: unknown) => error);
    expect(WeftError.is(failure, 'WEFT_SQLITE_MIGRATION_FAILED')).toBe(true);
    expect((failure as Error).message).toMatch(
      /schema migration 1 .* failed and was rolled back: index memories_created_at already exists/,
    );
    expect((failure as Error).cause).toBeInstanceOf(Database.SqliteError);
    expect(((failure as Error).cause as { code?: string }).code).toBe('SQLITE_ERROR');

    const check = new Database(db.path(), { readonly: true });
    try {
      expect(Number(check.pragma('user_version', { simple: true }))).toBe(0);
      const names = check
        .prepare('SELECT name FROM sqlite_master ORDER BY name')
        .all()
        .map((row) => (row as { name: string }).name);
      expect(names).toEqual(['memories_created_at', 'other']);
    } finally {
      check.close();
    }
  });
});

/**
 * Runs `init()` of a provider over `path` as a user that file permissions apply to: this process
 * when it is not root, else a child process as user nobody (root may write anywhere). `path` lies in
 * this test's temporary directory, or a folder in it. `restrict` takes away the permissions the
 * case is about; as root the file is given to nobody first.
 */
async function initUnprivileged(
  path: string,
  restrict: () => Promise<void>,
): Promise<{ code: string | undefined; message: string }> {
  if (process.getuid?.() !== 0) {
    await restrict();
    const error = await new SqliteMemoryProvider({ path })
      .init()
      .catch((caught: unknown) => caught);
    return {
      code: (error as { code?: string } | undefined)?.code,
      message: String((error as Error | undefined)?.message),
    };
  }
  // Nobody must reach and write the folders of this test's temporary directory (mkdtemp makes
  // it 0700); folders outside it, such as the system's temporary folder, are left as they are.
  const own = dirname(db.path());
  await chown(path, 65534, 65534);
  await chmod(own, 0o777);
  if (dirname(path) !== own) await chmod(dirname(path), 0o777);
  await restrict();
  const script = join(tmpdir(), `weft-sqlite-open-${randomUUID()}.mts`);
  await writeFile(
    script,
    `import { SqliteMemoryProvider } from ${JSON.stringify(new URL('../src/index.ts', import.meta.url).href)};\n` +
      `const error = await new SqliteMemoryProvider({ path: ${JSON.stringify(path)} }).init().catch((caught) => caught);\n` +
      'console.log(JSON.stringify({ code: error?.code, message: String(error?.message) }));\n',
  );
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--conditions=weft-source', '--import', 'tsx', script],
      { cwd: new URL('..', import.meta.url).pathname, uid: 65534, gid: 65534 },
    );
    return JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as {
      code: string | undefined;
      message: string;
    };
  } finally {
    await rm(script, { force: true });
  }
}
