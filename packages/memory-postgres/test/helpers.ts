import { afterAll, afterEach, beforeAll } from 'vitest';
import {
  usePostgresPerFile,
  type PostgresFixture,
} from '@weft-internal/test-support/postgres-per-file';
import { WeftError } from '@weft/core';
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
      await initDespiteLoad(provider);
      return provider;
    },
  };
}

/**
 * Initialises a provider that a test expects to open, trying again when logging in ran past the
 * connection timeout. A test of the pool's waits sets that timeout to a few hundred milliseconds,
 * which a password login (scram-sha-256) on a loaded machine can exceed before the test begins.
 *
 * @param provider - A provider over a server that is up.
 */
export async function initDespiteLoad(provider: PostgresMemoryProvider): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await provider.init();
      return;
    } catch (error) {
      const timedOut =
        WeftError.is(error, 'WEFT_POSTGRES_CONNECT_FAILED') &&
        error.message.includes('connection timeout');
      if (!timedOut || attempt === 5) throw error;
    }
  }
}
