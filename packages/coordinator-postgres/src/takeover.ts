import type { TaskArrival } from '@weft/core';
import { lockQuery, type Session } from './session.js';

/** A task's row as the sweep reads it; node-postgres returns the bigint ticket as a string. */
export interface TaskRow {
  ticket: string;
  arrival: TaskArrival;
  attempts: number;
}

/**
 * Takes over, in one statement, every unfinished task whose owner's instance lock is gone,
 * except the `excluded` tickets. It runs on the lock connection, ahead of a pool that may be
 * busy, since its latency is the takeover time.
 *
 * @returns The rows taken over, now the session's.
 */
export async function adoptDeadInstancesTasks(
  session: Session,
  table: string,
  excluded: readonly number[],
): Promise<TaskRow[]> {
  const adopted = await lockQuery<TaskRow>(
    session,
    `UPDATE ${table} AS t SET owner = $1::bigint, running = false
     WHERE t.owner IN (
       SELECT DISTINCT owner FROM ${table} o
       WHERE o.owner <> $1::bigint AND NOT EXISTS (
         SELECT 1 FROM pg_locks l
         WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted
           AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
           AND ((l.classid::bigint << 32) | l.objid::bigint) = o.owner))
       AND NOT (t.ticket = ANY($2::bigint[]))
     RETURNING t.ticket, t.arrival, t.attempts`,
    [session.key, excluded],
  );
  return adopted.rows;
}

/**
 * Deletes the rows of tasks that ran to their end while their session was lost, each only while
 * it still names that session's key as its owner: a row another instance has taken over is left
 * to it.
 *
 * @param finished - Each task's ticket with the instance key of its lost session.
 */
export async function deleteFinishedOrphans(
  session: Session,
  table: string,
  finished: readonly (readonly [number, string])[],
): Promise<void> {
  await lockQuery(
    session,
    `DELETE FROM ${table} AS t USING unnest($1::bigint[], $2::bigint[]) AS f(ticket, owner)
     WHERE t.ticket = f.ticket AND t.owner = f.owner`,
    [finished.map(([ticket]) => ticket), finished.map(([, owner]) => owner)],
  );
}

/**
 * The session's own tasks that it does not know of: their admission answer was lost, for
 * example to a statement timeout after the row was written. It runs on the lock connection, as
 * the takeover does: a sweep's queries are what notice a network cut there, and one waiting on
 * a silent pool connection would hold the next sweep back by a whole statement deadline.
 */
export async function unknownOwnTasks(session: Session, table: string): Promise<TaskRow[]> {
  const mine = await lockQuery<{ ticket: string }>(
    session,
    `SELECT ticket FROM ${table} WHERE owner = $1::bigint`,
    [session.key],
  );
  const lostTrack = mine.rows.map((row) => Number(row.ticket)).filter((t) => !session.known.has(t));
  if (lostTrack.length === 0) return [];
  const strays = await lockQuery<TaskRow>(
    session,
    `SELECT ticket, arrival, attempts FROM ${table} WHERE ticket = ANY($1::bigint[])`,
    [lostTrack],
  );
  return strays.rows;
}
