import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { SqliteMemoryProvider, type SqliteMemoryProviderOptions } from '../src/index.js';

/**
 * Gives each test a fresh temporary directory and shuts down and removes everything the test
 * opened there.
 */
export function useTempDatabase(): {
  /** Path of `weft.db` inside this test's directory. */
  readonly path: () => string;
  /** Creates (without init) a provider that is shut down after the test. */
  readonly create: (options?: Partial<SqliteMemoryProviderOptions>) => SqliteMemoryProvider;
  /** Creates and initialises a provider that is shut down after the test. */
  readonly open: (options?: Partial<SqliteMemoryProviderOptions>) => Promise<SqliteMemoryProvider>;
} {
  let dir = '';
  const providers: SqliteMemoryProvider[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'weft-memory-sqlite-'));
  });
  afterEach(async () => {
    await Promise.all(providers.splice(0).map((provider) => provider.shutdown()));
    await rm(dir, { recursive: true, force: true });
  });
  const path = (): string => join(dir, 'weft.db');
  const create = (options: Partial<SqliteMemoryProviderOptions> = {}): SqliteMemoryProvider => {
    const provider = new SqliteMemoryProvider({ path: path(), ...options });
    providers.push(provider);
    return provider;
  };
  const open = async (
    options: Partial<SqliteMemoryProviderOptions> = {},
  ): Promise<SqliteMemoryProvider> => {
    const provider = create(options);
    await provider.init();
    return provider;
  };
  return { path, create, open };
}
