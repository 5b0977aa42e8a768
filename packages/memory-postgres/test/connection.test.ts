/**
 * The connection runner's reading of the server's errors, on a stand-in pool: what a server set
 * to another language than English sends cannot be produced by the test server, whose cluster
 * has only the C locale.
 */
import type pg from 'pg';
import { WeftError } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { ConnectionRunner } from '../src/connection.js';
import { resolveOptions, type PostgresPoolOptions } from '../src/options.js';

/** A server error as node-postgres reports it: its message, in the server's language, and code. */
function serverError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

/** A pool of one connection whose every statement fails with `error` after `afterMs`. */
function failingPool(error: Error, afterMs: number): pg.Pool {
  const client = {
    query: () =>
      new Promise((_, reject) => {
        setTimeout(() => reject(error), afterMs);
      }),
    release: () => undefined,
    on: () => client,
    removeListener: () => client,
  };
  return { connect: () => Promise.resolve(client) } as unknown as pg.Pool;
}

/** A pool whose every connection attempt fails with `error`; it counts the attempts. */
function unreachablePool(error: Error): { pool: pg.Pool; attempts: () => number } {
  let attempts = 0;
  const pool = {
    connect: () => {
      attempts += 1;
      return Promise.reject(error);
    },
  } as unknown as pg.Pool;
  return { pool, attempts: () => attempts };
}

/** A runner on `pool` for the server at db.internal:5432, with the pool settings given. */
function runnerOn(pool: pg.Pool, settings: PostgresPoolOptions): ConnectionRunner {
  return new ConnectionRunner(
    pool,
    resolveOptions({
      connectionString: 'postgres://weft:secret@db.internal:5432/weft',
      pool: settings,
    }),
    'PostgresMemoryProvider "postgres"',
  );
}

/** What a `query()` of `SELECT 1` through `runner` fails with. */
function queryFailure(runner: ConnectionRunner): Promise<unknown> {
  return runner
    .run('query()', 'idempotent', (client) => client.query('SELECT 1'))
    .catch((failure: unknown) => failure);
}

async function failureOf(error: Error, afterMs: number): Promise<unknown> {
  return queryFailure(
    runnerOn(failingPool(error, afterMs), { statementTimeoutMs: 100, reconnectTimeoutMs: 0 }),
  );
}

describe('ConnectionRunner', () => {
  it('reports the server cancelling a statement at its statement timeout as WEFT_POSTGRES_STATEMENT_TIMEOUT, whatever the language of the server’s message [claim:pg-statement-timeout]', async () => {
    for (const message of [
      'canceling statement due to statement timeout',
      // A server whose lc_messages is German.
      'storniere Anfrage wegen Zeitüberschreitung der Anweisung',
    ]) {
      const failure = await failureOf(serverError(message, '57014'), 120);
      expect(WeftError.is(failure, 'WEFT_POSTGRES_STATEMENT_TIMEOUT'), message).toBe(true);
      expect((failure as Error).message, message).toMatch(
        /query\(\) ran past the statement timeout of 100 ms and was cancelled/,
      );
    }
  });

  it('passes on a cancel another session asked for before the statement timeout, as PostgreSQL reported it, in any language [claim:pg-other-errors-cancel]', async () => {
    for (const message of [
      'canceling statement due to user request',
      // The same from a server whose lc_messages is German.
      'storniere Anfrage wegen Benutzeraufforderung',
    ]) {
      const cancel = serverError(message, '57014');
      expect(await failureOf(cancel, 10), message).toBe(cancel);
    }
  });

  it('tries an unreachable server once when reconnectTimeoutMs is 0, and again and again within a longer window [claim:pg-reconnect-zero]', async () => {
    const attemptsWith = async (reconnectTimeoutMs: number) => {
      const refusing = unreachablePool(
        serverError('connect ECONNREFUSED 10.0.0.1:5432', 'ECONNREFUSED'),
      );
      const failure = await queryFailure(runnerOn(refusing.pool, { reconnectTimeoutMs }));
      expect(WeftError.is(failure, 'WEFT_POSTGRES_UNAVAILABLE')).toBe(true);
      expect((failure as Error).message).toContain('db.internal:5432');
      return refusing.attempts();
    };
    expect(await attemptsWith(0)).toBe(1);
    expect(await attemptsWith(400)).toBeGreaterThan(2);
  });

  it('keeps retrying an unreachable server until the whole window has passed, its last attempt as the window ends [claim:pg-reconnect-zero] [claim:pg-readme-connection-timeout-option] [claim:pg-restart-no-loss] [claim:pg-readme-reconnect-last-attempt]', async () => {
    const startedAt: number[] = [];
    const error = serverError('connect ECONNREFUSED 10.0.0.1:5432', 'ECONNREFUSED');
    const refusing = {
      connect: () => {
        startedAt.push(Date.now());
        return Promise.reject(error);
      },
    } as unknown as pg.Pool;
    const began = Date.now();
    const failure = await queryFailure(runnerOn(refusing, { reconnectTimeoutMs: 1000 }));
    const took = Date.now() - began;
    expect(WeftError.is(failure, 'WEFT_POSTGRES_UNAVAILABLE')).toBe(true);
    // Pauses of 50, 100, 200 and 400 ms, then the 250 ms left of the window (not a whole
    // 800 ms pause, which would have ended the retries at 750 ms).
    const last = (startedAt.at(-1) ?? 0) - began;
    expect(last).toBeGreaterThanOrEqual(990);
    expect(last).toBeLessThan(1500);
    expect(took).toBeLessThan(1500);
  });

  it('retries a host name that stopped resolving, as a restarting container’s does, and then fails with WEFT_POSTGRES_UNAVAILABLE naming host and port [claim:errors-postgres-unavailable-dns]', async () => {
    const unresolved = unreachablePool(
      serverError('getaddrinfo ENOTFOUND db.internal', 'ENOTFOUND'),
    );
    const failure = await queryFailure(runnerOn(unresolved.pool, { reconnectTimeoutMs: 400 }));
    expect(WeftError.is(failure, 'WEFT_POSTGRES_UNAVAILABLE')).toBe(true);
    expect((failure as Error).message).toContain('db.internal:5432');
    expect((failure as Error).message).toContain('ENOTFOUND');
    expect(unresolved.attempts()).toBeGreaterThan(2);
  });

  it('counts a health check holding a connection, so a call that finds the pool full of them fails at once saying the pool stayed busy [claim:pg-readme-pool-busy]', async () => {
    let answer: (value: unknown) => void = () => undefined;
    let free = true;
    let connects = 0;
    const client = {
      query: () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
      release: () => {
        free = true;
      },
      on: () => client,
      removeListener: () => client,
    };
    // A pool of one connection that pg-pool would hand out once, then time out waiting for.
    const pool = {
      connect: () => {
        connects += 1;
        if (free) {
          free = false;
          return Promise.resolve(client);
        }
        return new Promise((_, reject) => {
          setTimeout(() => reject(new Error('timeout exceeded when trying to connect')), 50);
        });
      },
    } as unknown as pg.Pool;
    const runner = runnerOn(pool, { max: 1, connectionTimeoutMs: 50, reconnectTimeoutMs: 5000 });
    const health = runner.ping();
    const started = Date.now();
    const failure = await queryFailure(runner);
    expect(WeftError.is(failure, 'WEFT_POSTGRES_UNAVAILABLE')).toBe(true);
    expect((failure as Error).message).toMatch(
      /all 1 connections of the pool \(pool.max\) stayed busy/,
    );
    // One wait, not retries until reconnectTimeoutMs.
    expect(connects).toBe(2);
    expect(Date.now() - started).toBeLessThan(1000);
    answer({ rows: [{ ok: 1 }] });
    expect(await health).toBe(true);
    expect(free).toBe(true);
  });
});
