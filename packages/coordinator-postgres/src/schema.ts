import type { PoolClient } from 'pg';
import { PostgresSpaceCoordinatorError } from './errors.js';
import type { StartDeadline } from './start-deadline.js';

/** The version of the tables this package writes; a newer one in the database is refused. */
export const SCHEMA_VERSION = 1;

/**
 * Creates the coordinator's tables when missing. Instances starting together take a
 * transaction-level advisory lock first, so only one creates them; a schema stamped by a newer
 * version of the package is left untouched. Every statement, the wait for that lock included,
 * ends by the start's deadline.
 */
export async function prepareSchema(
  client: PoolClient,
  schema: string,
  deadline: StartDeadline,
): Promise<void> {
  const q = `"${schema}"`;
  const query = (text: string, values?: unknown[]) => deadline.query(client, text, values);
  deadline.step = 'opening the transaction that prepares the tables';
  await deadline.begin(client);
  try {
    deadline.step = `waiting for the lock under which instances prepare the tables of schema "${schema}" (another instance may hold it)`;
    await query('SELECT pg_advisory_xact_lock(hashtext($1), 0)', [`${schema}:migrate`]);
    deadline.step = `preparing the tables of schema "${schema}"`;
    // CREATE SCHEMA IF NOT EXISTS asks for the CREATE privilege on the database even when the
    // schema exists, which would refuse a role given only a schema made for it beforehand.
    const existing = await query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (existing.rowCount === 0) await query(`CREATE SCHEMA ${q}`);
    await query(`CREATE TABLE IF NOT EXISTS ${q}.meta (key text PRIMARY KEY, value text NOT NULL)`);
    const found = await deadline.query<{ value: string }>(
      client,
      `SELECT value FROM ${q}.meta WHERE key = 'version'`,
    );
    const version = found.rows[0] ? Number(found.rows[0].value) : 0;
    if (version > SCHEMA_VERSION) {
      throw new PostgresSpaceCoordinatorError(
        'WEFT_COORDINATOR_SCHEMA_TOO_NEW',
        `PostgresSpaceCoordinator: schema "${schema}" has version ${version}, made by a newer @weft/coordinator-postgres (this one knows up to ${SCHEMA_VERSION}); upgrade this package on every instance.`,
      );
    }
    if (version < 1) {
      // Instance keys are bigint advisory locks; drawn from a sequence, they never repeat.
      await query(`CREATE SEQUENCE ${q}.instance_keys`);
      // One row per task that arrived and has not finished: the durable record of arrival.
      await query(`CREATE TABLE ${q}.tasks (
        ticket bigserial PRIMARY KEY,
        space text NOT NULL,
        owner bigint NOT NULL,
        running boolean NOT NULL DEFAULT false,
        attempts integer NOT NULL DEFAULT 0,
        arrival json NOT NULL,
        arrived_at timestamptz NOT NULL DEFAULT now()
      )`);
      await query(`CREATE INDEX tasks_by_space ON ${q}.tasks (space, ticket)`);
      await query(`CREATE INDEX tasks_by_owner ON ${q}.tasks (owner)`);
      await query(`INSERT INTO ${q}.meta (key, value) VALUES ('version', '1')`);
    }
    await query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
