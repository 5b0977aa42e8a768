import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { WeftError } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { useTempDatabase } from './helpers.js';

describe('SqliteMemoryProvider: concurrent writers', () => {
  const db = useTempDatabase();

  it('keeps every memory of many parallel stores on one provider [claim:sqlite-serialised]', async () => {
    const memory = await db.open();
    const stored = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        memory.store({ space: `s-${i % 4}`, kind: 'k', content: i, metadata: { i } }),
      ),
    );
    expect(new Set(stored.map((m) => m.id)).size).toBe(300);
    const all = await memory.query({ limit: 1000, order: 'asc' });
    expect(all.map((m) => m.content)).toEqual([...Array(300).keys()]);
    expect(await memory.query({ space: 's-1', limit: 1000 })).toHaveLength(75);
  });

  it('keeps both sets when two providers on one file write interleaved [claim:mpm-sqlite-shared] [claim:mpo-sqlite-init] [claim:sqlite-shared-file]', async () => {
    const a = await db.open({ id: 'a' });
    const b = await db.open({ id: 'b' });
    const writes = [];
    for (let i = 0; i < 100; i++) {
      writes.push(a.store({ space: 'shared', kind: 'from-a', content: i, metadata: {} }));
      writes.push(b.store({ space: 'shared', kind: 'from-b', content: i, metadata: {} }));
    }
    await Promise.all(writes);
    const updated = await b.update((await a.query({ kind: 'from-a', limit: 1 }))[0]!.id, {
      metadata: { touchedBy: 'b' },
    });

    for (const reader of [a, b]) {
      const fromA = await reader.query({ kind: 'from-a', limit: 1000, order: 'asc' });
      const fromB = await reader.query({ kind: 'from-b', limit: 1000, order: 'asc' });
      expect(fromA.map((m) => m.content)).toEqual([...Array(100).keys()]);
      expect(fromB.map((m) => m.content)).toEqual([...Array(100).keys()]);
      expect(fromA.at(-1)).toEqual(updated);
    }
    await a.shutdown();
    await b.shutdown();
    const reopened = await db.open({ id: 'c' });
    expect(await reopened.query({ space: 'shared', limit: 1000 })).toHaveLength(200);
  });

  it('reads while another connection holds the write lock, and writes while another reads, without waiting [claim:sqlite-wal-readers]', async () => {
    // A zero busy timeout turns any wait for a lock into an immediate SQLITE_BUSY.
    const memory = await db.open({ busyTimeoutMs: 0 });
    const kept = await memory.store({ space: 'kept', kind: 'k', content: 1, metadata: {} });
    const other = new Database(db.path());
    try {
      other.exec('BEGIN IMMEDIATE');
      other
        .prepare(
          'INSERT INTO memories (id, space, kind, content, task_id, metadata, created_at) VALUES (?, ?, ?, ?, NULL, ?, ?)',
        )
        .run('uncommitted', 'kept', 'k', '2', '{}', Date.now());
      // The reader sees the last committed state, not the writer's pending row.
      expect(await memory.query({ space: 'kept' })).toEqual([kept]);
      other.exec('COMMIT');

      other.exec('BEGIN');
      expect(other.prepare('SELECT count(*) AS count FROM memories').get()).toEqual({ count: 2 });
      const written = await memory.store({
        space: 'during-read',
        kind: 'k',
        content: 3,
        metadata: {},
      });
      expect(await memory.query({ space: 'during-read' })).toEqual([written]);
      // The open read transaction keeps its snapshot.
      expect(other.prepare('SELECT count(*) AS count FROM memories').get()).toEqual({ count: 2 });
      other.exec('COMMIT');
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    }
  });

  it("fails a write with SQLite's own SQLITE_BUSY error, database is locked, after waiting busyTimeoutMs for another connection's lock [claim:sqlite-busy-error] [claim:sqlite-sqlite-errors] [claim:sqlite-busy]", async () => {
    const memory = await db.open({ busyTimeoutMs: 150 });
    const other = new Database(db.path());
    try {
      other.exec('BEGIN IMMEDIATE');
      const started = Date.now();
      const error = await memory
        .store({ space: 's', kind: 'k', content: 1, metadata: {} })
        .catch((caught: unknown) => caught);
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
      expect(error).toBeInstanceOf(Database.SqliteError);
      expect(WeftError.is(error)).toBe(false);
      expect((error as { code?: string }).code).toBe('SQLITE_BUSY');
      expect((error as Error).message).toBe('database is locked');
      other.exec('ROLLBACK');
      // Once the lock is free the provider writes again.
      await memory.store({ space: 's', kind: 'k', content: 2, metadata: {} });
      expect((await memory.query({ space: 's' })).map((m) => m.content)).toEqual([2]);
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    }
  });

  it("blocks the thread while a write waits for another connection's lock: no timer fires meanwhile [claim:sqlite-busy-blocks-thread]", async () => {
    const memory = await db.open({ busyTimeoutMs: 200 });
    const other = new Database(db.path());
    try {
      other.exec('BEGIN IMMEDIATE');
      let timerFiredAt: number | undefined;
      const timer = new Promise<void>((resolve) => {
        setTimeout(() => {
          timerFiredAt = Date.now();
          resolve();
        }, 10);
      });
      const started = Date.now();
      // store() waits for the lock before it returns its promise: the wait is not awaited.
      const failure = memory
        .store({ space: 's', kind: 'k', content: 1, metadata: {} })
        .catch((caught: unknown) => caught);
      const returnedAt = Date.now();
      expect(returnedAt - started).toBeGreaterThanOrEqual(190);
      expect(timerFiredAt).toBeUndefined();
      expect((await failure) as { code?: string }).toMatchObject({ code: 'SQLITE_BUSY' });
      await timer;
      // The 10 ms timer could fire only once the wait was over.
      expect(timerFiredAt).toBeGreaterThanOrEqual(returnedAt);
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    }
  });

  it('waits for another connection migrating a new file and then applies no step twice [claim:sqlite-migrations]', async () => {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    // Another thread creates the file, takes the write lock, applies the first schema step
    // itself while the provider opens the file, and commits.
    const worker = new Worker(
      `
      const { parentPort, workerData } = require('node:worker_threads');
      const Database = require(workerData.driver);
      const db = new Database(workerData.path);
      db.pragma('journal_mode = WAL');
      db.exec('BEGIN IMMEDIATE');
      parentPort.postMessage('locked');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
      db.exec(\`
        CREATE TABLE memories (
          id TEXT PRIMARY KEY, space TEXT NOT NULL, kind TEXT NOT NULL, content TEXT NOT NULL,
          task_id TEXT, metadata TEXT NOT NULL, created_at INTEGER NOT NULL
        );
        CREATE INDEX memories_space_created_at ON memories (space, created_at);
        CREATE INDEX memories_created_at ON memories (created_at);
        CREATE INDEX memories_task_id ON memories (task_id);
        INSERT INTO memories VALUES ('from-worker', 's', 'k', '1', NULL, '{}', 1);
      \`);
      db.pragma('user_version = 1');
      db.exec('COMMIT');
      db.close();
      `,
      { eval: true, workerData: { driver, path: db.path() } },
    );
    const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        worker.once('message', () => resolve());
        worker.once('error', reject);
      });
      const memory = db.create();
      await memory.init();
      expect((await memory.query({})).map((m) => m.id)).toEqual(['from-worker']);
      await memory.store({ space: 's', kind: 'k', content: 2, metadata: {} });
      expect(await memory.query({})).toHaveLength(2);
      expect(await exited).toBe(0);
    } finally {
      await worker.terminate();
    }
  });

  it('waits for another thread holding the write lock instead of failing [claim:mpm-sqlite-shared] [claim:mpo-sqlite-busy] [claim:sqlite-busy] [claim:sqlite-shared-file]', async () => {
    const memory = await db.open();
    const require = createRequire(import.meta.url);
    const driver = require.resolve('better-sqlite3');
    // A second thread takes the write lock in bursts and inserts its own rows meanwhile.
    const worker = new Worker(
      `
      const { parentPort, workerData } = require('node:worker_threads');
      const Database = require(workerData.driver);
      const db = new Database(workerData.path, { timeout: 5000 });
      const insert = db.prepare(
        'INSERT INTO memories (id, space, kind, content, task_id, metadata, created_at) VALUES (?, ?, ?, ?, NULL, ?, ?)',
      );
      parentPort.postMessage('ready');
      for (let burst = 0; burst < 20; burst++) {
        db.exec('BEGIN IMMEDIATE');
        for (let i = 0; i < 10; i++) {
          insert.run('worker-' + burst + '-' + i, 'worker', 'k', JSON.stringify(burst * 10 + i), '{}', Date.now());
        }
        const until = Date.now() + 5;
        while (Date.now() < until) {}
        db.exec('COMMIT');
      }
      db.close();
      parentPort.postMessage('done');
      `,
      { eval: true, workerData: { driver, path: db.path() } },
    );
    const done = new Promise<void>((resolve, reject) => {
      worker.on('message', (message) => {
        if (message === 'done') resolve();
      });
      worker.on('error', reject);
    });
    await new Promise<void>((resolve) => worker.once('message', () => resolve()));

    for (let i = 0; i < 100; i++) {
      await memory.store({ space: 'main', kind: 'k', content: i, metadata: {} });
      if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await done;
    await worker.terminate();

    expect(await memory.query({ space: 'main', limit: 1000 })).toHaveLength(100);
    expect(await memory.query({ space: 'worker', limit: 1000 })).toHaveLength(200);
  });

  it('shares the file with another process writing at the same time [claim:sqlite-shared-file] [claim:mpm-sqlite-shared]', async () => {
    const memory = await db.open();
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    // Another Node process takes the write lock in bursts and inserts its own rows meanwhile.
    const child = spawn(
      process.execPath,
      [
        '-e',
        `
        const Database = require(process.argv[1]);
        const db = new Database(process.argv[2], { timeout: 5000 });
        const insert = db.prepare(
          'INSERT INTO memories (id, space, kind, content, task_id, metadata, created_at) VALUES (?, ?, ?, ?, NULL, ?, ?)',
        );
        console.log('ready');
        for (let burst = 0; burst < 20; burst++) {
          db.exec('BEGIN IMMEDIATE');
          for (let i = 0; i < 10; i++) {
            insert.run('process-' + burst + '-' + i, 'process', 'k', JSON.stringify(burst * 10 + i), '{}', Date.now());
          }
          const until = Date.now() + 5;
          while (Date.now() < until) {}
          db.exec('COMMIT');
        }
        db.close();
        `,
        driver,
        db.path(),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 },
    );
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.once('data', () => resolve());
      child.once('exit', () => reject(new Error(`the writer process ended early: ${errors}`)));
    });

    for (let i = 0; i < 100; i++) {
      await memory.store({ space: 'main', kind: 'k', content: i, metadata: {} });
      if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(await exited, errors).toBe(0);

    expect(await memory.query({ space: 'main', limit: 1000 })).toHaveLength(100);
    const fromProcess = await memory.query({ space: 'process', limit: 1000, order: 'asc' });
    expect(fromProcess.map((m) => m.content)).toEqual([...Array(200).keys()]);
  });
});
