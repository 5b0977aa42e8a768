import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type PostgresServer } from '../../../../tests/support/postgres-server.js';

/** initdb and the first start take a few seconds on a busy machine. */
export const SERVER_START_TIMEOUT_MS = 120_000;

/** What {@link useServer} gives a test file. */
export interface ServerFixture {
  readonly server: () => PostgresServer;
  /** The connection string of this file's own database. */
  readonly url: () => string;
  /** A schema name no other test uses. */
  readonly newSchema: () => string;
  /** Runs SQL on a connection of its own, as another tool would. */
  readonly sql: <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<R[]>;
}

/**
 * Starts a real PostgreSQL server for the test file (initdb in a temporary directory, pg_ctl on
 * a free port) with one database for the file.
 */
export function useServer(): ServerFixture {
  let server: PostgresServer | undefined;
  let url = '';
  beforeAll(async () => {
    server = await startPostgres();
    url = await server.createDatabase(`weft_${randomUUID().replace(/-/g, '').slice(0, 12)}`);
  }, SERVER_START_TIMEOUT_MS);
  afterAll(async () => {
    await server?.destroy();
  }, SERVER_START_TIMEOUT_MS);
  return {
    server: () => {
      if (!server) throw new Error('the server has not started');
      return server;
    },
    url: () => url,
    newSchema: () => `c_${randomUUID().replace(/-/g, '')}`,
    sql: async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
      await client.connect();
      try {
        return (await client.query<R>(text, values)).rows;
      } finally {
        await client.end();
      }
    },
  };
}

/** One run of a task, as the work agent recorded it. */
export interface RunRow {
  task_id: string;
  space: string;
  n: number;
  instance: string;
  started_at: Date;
  ended_at: Date | null;
}

/**
 * Pairs of runs of one space that overlapped in time: a run started before the previous one
 * (by start time) ended. A run that never ended (its process was killed) counts as lasting
 * until `cutOff`.
 */
export function overlaps(runs: readonly RunRow[], cutOff: Date): [RunRow, RunRow][] {
  const found: [RunRow, RunRow][] = [];
  const bySpace = new Map<string, RunRow[]>();
  for (const run of runs) bySpace.set(run.space, [...(bySpace.get(run.space) ?? []), run]);
  for (const list of bySpace.values()) {
    list.sort((a, b) => a.started_at.getTime() - b.started_at.getTime());
    for (let i = 1; i < list.length; i += 1) {
      const previous = list[i - 1] as RunRow;
      const current = list[i] as RunRow;
      const previousEnd = previous.ended_at ?? cutOff;
      if (current.started_at.getTime() < previousEnd.getTime()) found.push([previous, current]);
    }
  }
  return found;
}

/** Spaces whose runs, by start time, go back to a lower `n`: a task ran before an earlier one. */
export function outOfOrder(runs: readonly RunRow[]): string[] {
  const bySpace = new Map<string, RunRow[]>();
  for (const run of runs) bySpace.set(run.space, [...(bySpace.get(run.space) ?? []), run]);
  return [...bySpace.entries()]
    .filter(([, list]) => {
      const ns = [...list]
        .sort((a, b) => a.started_at.getTime() - b.started_at.getTime())
        .map((run) => run.n);
      return ns.some((n, i) => i > 0 && n < (ns[i - 1] as number));
    })
    .map(([space]) => space);
}
