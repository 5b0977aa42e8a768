import { describe, expect, it } from 'vitest';
import { MemoryProvider } from '@weft/core';
import { SqliteMemoryProvider, type SqliteMemoryProviderOptions } from '../src/index.js';
import { useTempDatabase } from './helpers.js';

describe('SqliteMemoryProvider: options and lifecycle', () => {
  const db = useTempDatabase();

  it('is a MemoryProvider with a default id of "sqlite", which its errors name [claim:mpo-sqlite-id] [claim:sqlite-defaults]', async () => {
    const memory = db.create();
    expect(memory).toBeInstanceOf(MemoryProvider);
    expect(memory.id).toBe('sqlite');
    const notes = db.create({ id: 'notes' });
    expect(notes.id).toBe('notes');
    const error = await notes.query({}).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/^SqliteMemoryProvider "notes" is not open/);
    // The constructor's own errors name it too, once the id itself is valid.
    expect(() => db.create({ id: 'notes', busyTimeoutMs: -1 })).toThrow(
      /^SqliteMemoryProvider "notes": option "busyTimeoutMs"/,
    );
    expect(() => db.create({ id: 'notes', path: '' })).toThrow(
      /^SqliteMemoryProvider "notes": option "path"/,
    );
  });

  it('rejects bad options, naming the option [claim:sqlite-options]', () => {
    const bad: [unknown, RegExp][] = [
      [undefined, /options must be an object/],
      [null, /options must be an object/],
      [[], /options must be an object/],
      [['x.db'], /options must be an object/],
      [{}, /"path"/],
      [{ path: '' }, /"path"/],
      [{ path: 42 }, /"path"/],
      [{ path: 'x.db', id: '' }, /"id"/],
      [{ path: 'x.db', id: 7 }, /"id"/],
      [{ path: 'x.db', busyTimeoutMs: -1 }, /"busyTimeoutMs"/],
      [{ path: 'x.db', busyTimeoutMs: 1.5 }, /"busyTimeoutMs"/],
      [{ path: 'x.db', busyTimeoutMs: '100' }, /"busyTimeoutMs"/],
      [
        { path: 'x.db', busyTimeout: 100 },
        /unknown option "busyTimeout"; the options are path, id, busyTimeoutMs/,
      ],
      [{ path: 'x.db', timeout: undefined }, /unknown option "timeout"/],
    ];
    for (const [options, message] of bad) {
      expect(() => new SqliteMemoryProvider(options as SqliteMemoryProviderOptions)).toThrow(
        message,
      );
      expect(() => new SqliteMemoryProvider(options as SqliteMemoryProviderOptions)).toThrow(
        /\[WEFT_SQLITE_INVALID_OPTIONS\]/,
      );
    }
  });

  it('refuses an option name it does not know, naming it and listing the options, and takes undefined as the default [claim:sqlite-unknown-option]', () => {
    const misspelt = { path: 'x.db', busyTimeout: 100 } as unknown as SqliteMemoryProviderOptions;
    expect(() => new SqliteMemoryProvider(misspelt)).toThrow(
      'unknown option "busyTimeout"; the options are path, id, busyTimeoutMs',
    );
    expect(() => new SqliteMemoryProvider(misspelt)).toThrow(/\[WEFT_SQLITE_INVALID_OPTIONS\]/);
    const unset = new SqliteMemoryProvider({
      path: 'x.db',
      id: undefined,
      busyTimeoutMs: undefined,
    });
    expect(unset.id).toBe('sqlite');
  });

  it('sets the busy timeout it was given [claim:mpo-sqlite-busy] [claim:sqlite-busy]', async () => {
    const memory = await db.open({ busyTimeoutMs: 1234 });
    // The pragma is per connection, so read it through the provider's own connection.
    const connection = (
      memory as unknown as { connection: { db: { pragma: (s: string, o: object) => unknown } } }
    ).connection;
    expect(connection.db.pragma('busy_timeout', { simple: true })).toBe(1234);
  });

  it('opens with a busyTimeoutMs at either end of its range, and with -0, which counts as 0 [claim:sqlite-busy]', async () => {
    // -0 passes as a whole number from 0 up; better-sqlite3 takes only a 32-bit integer, which
    // -0 is not, so init() failed with WEFT_SQLITE_OPEN_FAILED for a timeout the constructor took.
    for (const [given, set] of [
      [0, 0],
      [-0, 0],
      [2 ** 31 - 1, 2 ** 31 - 1],
    ] as const) {
      const memory = await db.open({ busyTimeoutMs: given });
      const connection = (
        memory as unknown as { connection: { db: { pragma: (s: string, o: object) => unknown } } }
      ).connection;
      expect(connection.db.pragma('busy_timeout', { simple: true })).toBe(set);
      await memory.shutdown();
    }
  });

  it('waits 5000 ms for a write lock when not told otherwise, as the README says [claim:sqlite-busy] [claim:mpo-sqlite-busy]', async () => {
    const memory = await db.open();
    const connection = (
      memory as unknown as { connection: { db: { pragma: (s: string, o: object) => unknown } } }
    ).connection;
    expect(connection.db.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('refuses every operation before init(), saying to call it [claim:mpo-sqlite-before-init] [claim:sqlite-before-init]', async () => {
    const memory = db.create();
    const calls: (() => Promise<unknown>)[] = [
      () => memory.store({ space: 's', kind: 'k', content: 1, metadata: {} }),
      () => memory.update('id', { content: 1 }),
      () => memory.query({}),
      () => memory.remove('id'),
      () => memory.clear(),
    ];
    for (const call of calls) {
      await expect(call()).rejects.toThrow(
        /call init\(\).*Runtime\.start\(\).*\[WEFT_SQLITE_NOT_OPEN\]/,
      );
    }
    expect(await memory.checkHealth()).toBe(false);
  });

  it('reports health while open, and shuts down idempotently [claim:sqlite-before-init] [claim:sqlite-shutdown]', async () => {
    const memory = db.create();
    await memory.shutdown();
    await memory.init();
    await memory.init();
    expect(await memory.checkHealth()).toBe(true);
    await memory.shutdown();
    await memory.shutdown();
    expect(await memory.checkHealth()).toBe(false);
    await expect(memory.query({})).rejects.toThrow(/init\(\)/);
  });
});
