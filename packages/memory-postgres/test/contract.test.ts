import { memoryProviderContract } from '@weft/testing';
import { describe, it } from 'vitest';
import { PostgresMemoryProvider } from '../src/index.js';
import { useServer } from './helpers.js';

const db = useServer();

describe('PostgresMemoryProvider keeps the memory-provider contract on a real server [claim:mpo-pattern-any-run] [claim:pg-contract] [claim:pg-query-rules] [claim:pg-literal-wildcards] [claim:pg-order-limit] [claim:pg-limit-100]', () => {
  const cases = memoryProviderContract({
    // Each case gets a schema of its own: a new, empty store.
    create: () => db.create(),
    reopen: (previous) =>
      new PostgresMemoryProvider({ connectionString: db.url(), schema: previous.schema }),
  });
  for (const check of cases) it(check.name, check.run);
});
