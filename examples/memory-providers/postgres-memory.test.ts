import { randomUUID } from 'node:crypto';
import { Runtime } from '@weft/core';
import type { PostgresMemoryProvider } from '@weft/memory-postgres';
import { memoryProviderContract, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startPostgres,
  type PostgresServer,
} from '@weft-internal/test-support/postgres-server';
import { createPostgresMemory } from './postgres-memory.js';

// A real PostgreSQL server, started in a temporary directory for this file.
let server: PostgresServer;
let url = '';
beforeAll(async () => {
  server = await startPostgres();
  url = await server.createDatabase('examples');
}, 120_000);
afterAll(() => server?.destroy(), 120_000);

const newSchema = () => `memory_${randomUUID().replace(/-/g, '')}`;

describe('createPostgresMemory [claim:testing-contract-stores]', () => {
  const cases = memoryProviderContract<PostgresMemoryProvider>({
    create: () => createPostgresMemory(url, newSchema()),
    reopen: (previous) => createPostgresMemory(url, previous.schema),
  });
  for (const check of cases) it(check.name, check.run);

  it('shares memories between two runtimes, as two instances of an agent would', async () => {
    const schema = newSchema();
    const start = async () => {
      const memory = createPostgresMemory(url, schema);
      const runtime = await Runtime.init({
        models: [new ScriptedModelProvider()],
        memory,
        plugins: [],
        options: { logger: pino({ level: 'silent' }) },
      });
      // start() connects the provider and migrates the schema; the two
      // instances start at once, and one waits for the other's migration.
      await runtime.start();
      return { runtime, memory };
    };
    const [first, second] = await Promise.all([start(), start()]);
    try {
      await first.memory.store({
        space: 'room-1',
        kind: 'note',
        content: { text: 'written by the first instance' },
        metadata: {},
      });
      const seen = await second.memory.query({ space: 'room-1' });
      expect(seen.map((memory) => memory.content)).toEqual([
        { text: 'written by the first instance' },
      ]);
    } finally {
      await Promise.all([first.runtime.stop(), second.runtime.stop()]);
    }
  });
});
