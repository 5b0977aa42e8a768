/**
 * Shutdown checkpoints the write-ahead log into the database file, so a copy of the file alone
 * holds every memory; providers sharing a file leave that to the last one to stop.
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { useTempDatabase } from './helpers.js';

const database = useTempDatabase();

describe('the WAL checkpoint at shutdown', () => {
  it('leaves no -wal file beside the database after shutdown, with every memory in the file [claim:prod-sqlite-checkpoint] [claim:sqlite-shutdown]', async () => {
    const provider = await database.open();
    for (let index = 0; index < 20; index += 1) {
      await provider.store({ space: 'wal', kind: 'note', content: { index }, metadata: {} });
    }
    expect(existsSync(`${database.path()}-wal`)).toBe(true);
    await provider.shutdown();

    expect(existsSync(`${database.path()}-wal`)).toBe(false);
    // Read the file alone, as a backup copied after the stop would be read.
    const raw = new Database(database.path(), { readonly: true });
    try {
      const row = raw.prepare("SELECT count(*) AS count FROM memories WHERE space = 'wal'").get();
      expect(row).toEqual({ count: 20 });
    } finally {
      raw.close();
    }
  });

  it('checkpoints the WAL only when the last provider sharing the file shuts down [claim:sqlite-shutdown]', async () => {
    const first = await database.open();
    const second = await database.open();
    await first.store({ space: 'shared', kind: 'note', content: 1, metadata: {} });
    await first.shutdown();
    // The second connection still has the file open, so the log stays beside it.
    expect(existsSync(`${database.path()}-wal`)).toBe(true);
    expect(await second.query({ space: 'shared' })).toHaveLength(1);
    await second.shutdown();
    expect(existsSync(`${database.path()}-wal`)).toBe(false);
  });
});
