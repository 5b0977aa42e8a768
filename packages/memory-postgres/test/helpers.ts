import { afterAll, afterEach, beforeAll } from 'vitest';
import {
  usePostgresPerFile,
  type PostgresFixture,
} from '@weft-internal/test-support/postgres-per-file';
import { PostgresMemoryProvider, type PostgresMemoryProviderOptions } from '../src/index.js';

/** What {@link useServer} gives a test file. */
export interface ServerFixture extends PostgresFixture {
  /** Creates (without init) a provider on a new schema, shut down after the test. */
  readonly create: (options?: Partial<PostgresMemoryProviderOptions>) => PostgresMemoryProvider;
  /** Creates and initialises a provider on a new schema, shut down after the test. */
  readonly open: (
    options?: Partial<PostgresMemoryProviderOptions>,
  ) => Promise<PostgresMemoryProvider>;
}

/**
 * Starts a real PostgreSQL server for the test file (in a temporary directory, on a free port),
 * with one database for the file, and shuts down every provider a test opened.
 */
export function useServer(): ServerFixture {
  const base = usePostgresPerFile('t_', { beforeAll, afterAll });
  const providers: PostgresMemoryProvider[] = [];
  afterEach(async () => {
    await Promise.all(providers.splice(0).map((provider) => provider.shutdown()));
  });
  const create = (options: Partial<PostgresMemoryProviderOptions> = {}): PostgresMemoryProvider => {
    const provider = new PostgresMemoryProvider({
      connectionString: base.url(),
      schema: base.newSchema(),
      ...options,
    });
    providers.push(provider);
    return provider;
  };
  return {
    ...base,
    create,
    open: async (options) => {
      const provider = create(options);
      await provider.init();
      return provider;
    },
  };
}
