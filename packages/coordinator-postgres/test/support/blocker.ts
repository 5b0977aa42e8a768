/**
 * A second session for the tests: a plain pg client that holds locks and rows the coordinator
 * then waits for.
 */
import pg from 'pg';

/**
 * Runs `body` with a plain client of the server connected; after it, rolls back whatever
 * transaction the client left open and ends it.
 */
export async function withBlocker<T>(
  connectionString: string,
  body: (blocker: pg.Client) => Promise<T>,
): Promise<T> {
  const blocker = new pg.Client({ connectionString });
  await blocker.connect();
  try {
    return await body(blocker);
  } finally {
    await blocker.query('ROLLBACK').catch(() => undefined);
    await blocker.end();
  }
}

/**
 * Has `blocker` take, in a transaction it leaves open, the lock that orders the admissions of
 * `space` in `schema`, so an admission of that space waits until the transaction ends.
 */
export async function holdAdmissionLock(
  blocker: pg.Client,
  schema: string,
  space: string,
): Promise<void> {
  await blocker.query('BEGIN');
  await blocker.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [
    `${schema}:admit`,
    space,
  ]);
}
