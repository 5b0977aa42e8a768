import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SqliteMemoryProvider } from '@weft/memory-sqlite';
import {
  InMemoryMemoryProvider,
  memoryProviderContract,
  type MemoryProviderContractFactory,
} from '@weft/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonFileMemoryProvider } from './json-file-memory.js';
import { createSqliteMemory } from './sqlite-memory.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'weft-memory-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

const newPath = (extension: string) =>
  join(directory, `memory-${crypto.randomUUID()}.${extension}`);

// Each factory creates a provider over a new, empty store; `reopen` (durable
// stores only) opens a second instance over the same store after a shutdown.
const inMemory: MemoryProviderContractFactory<InMemoryMemoryProvider> = {
  create: () => new InMemoryMemoryProvider(),
};
const sqlite: MemoryProviderContractFactory<SqliteMemoryProvider> = {
  create: () => createSqliteMemory(newPath('db')),
  reopen: (previous) => createSqliteMemory(previous.path),
};
const jsonFile: MemoryProviderContractFactory<JsonFileMemoryProvider> = {
  create: () => new JsonFileMemoryProvider(newPath('json')),
  reopen: (previous) => new JsonFileMemoryProvider(previous.path),
};
const factories: [string, MemoryProviderContractFactory][] = [
  ['InMemoryMemoryProvider', inMemory],
  ['SqliteMemoryProvider', sqlite],
  ['JsonFileMemoryProvider', jsonFile],
];

// The contract from @weft/testing: add your provider's factory to the list.
describe.each(factories)(
  '%s [claim:testing-in-memory-same-rules] [claim:testing-contract-stores] [claim:mpo-develop-in-memory] [claim:mpo-content-json] [claim:mpo-in-memory] [claim:mpo-in-memory-refusals] [claim:mpo-pattern-any-run] [claim:core-readme-memory-store] [claim:tst-in-memory] [claim:mpo-json-file-checks] [claim:mpo-check-all]',
  (_name, factory) => {
    for (const check of memoryProviderContract(factory)) {
      it(check.name, check.run);
    }
  },
);

it('JsonFileMemoryProvider keeps every concurrent store in one file and leaves no temporary files behind [claim:mpo-json-file-temp]', async () => {
  const path = join(directory, 'temporary-files.json');
  const memory = new JsonFileMemoryProvider(path);
  await memory.init();
  await Promise.all(
    Array.from({ length: 8 }, (_, index) =>
      memory.store({
        space: 'room',
        kind: 'note',
        content: index,
        metadata: {},
      }),
    ),
  );
  await memory.shutdown();
  const files = await readdir(directory);
  expect(files.filter((file) => file.startsWith('temporary-files'))).toEqual([
    'temporary-files.json',
  ]);
  // Every concurrent store landed in the one file that is left.
  const reopened = new JsonFileMemoryProvider(path);
  await reopened.init();
  const kept = await reopened.query({ space: 'room' });
  expect(kept.map((memory) => memory.content).sort()).toEqual([
    0, 1, 2, 3, 4, 5, 6, 7,
  ]);
});
