import { afterAll, beforeAll } from 'vitest';
import {
  usePostgresPerFile,
  type PostgresFixture,
} from '@weft-internal/test-support/postgres-per-file';

/** What {@link useServer} gives a test file. */
export type ServerFixture = PostgresFixture;

/**
 * Starts a real PostgreSQL server for the test file (initdb in a temporary directory, pg_ctl on
 * a free port) with one database for the file.
 */
export function useServer(): ServerFixture {
  return usePostgresPerFile('c_', { beforeAll, afterAll });
}
