/**
 * One memory contract: the in-memory store, SQLite and PostgreSQL (a real server) refuse exactly
 * the same inputs with exactly the same codes and the same messages after the store's name, and
 * accept the same edge cases with the same result, so a test written against
 * InMemoryMemoryProvider holds for the durable stores too.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WeftError, type Memory, type MemoryProvider, type QueryMemoryOptions } from '@weft/core';
import { PostgresMemoryProvider } from '@weft/memory-postgres';
import { SqliteMemoryProvider } from '@weft/memory-sqlite';
import { INVALID_MEMORY_INPUTS, InMemoryMemoryProvider } from '@weft/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SERVER_START_TIMEOUT_MS,
  usePostgresPerFile,
} from '@weft-internal/test-support/postgres-per-file';

// Its hooks come first: the server is up before the stores open, and destroyed after they shut down.
const postgres = usePostgresPerFile('p_', { beforeAll, afterAll });
let directory = '';
const stores: { name: string; provider: MemoryProvider; seed: Memory }[] = [];

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'weft-memory-parity-'));
  const providers: [string, MemoryProvider][] = [
    ['in-memory', new InMemoryMemoryProvider()],
    ['sqlite', new SqliteMemoryProvider({ path: join(directory, 'parity.db') })],
    ['postgres', new PostgresMemoryProvider({ connectionString: postgres.url() })],
  ];
  for (const [name, provider] of providers) {
    await provider.init();
    const seed = await provider.store({
      space: 'inputs',
      kind: 'note',
      content: { ok: true },
      taskId: 't-1',
      metadata: { m: 1 },
    });
    stores.push({ name, provider, seed });
  }
}, SERVER_START_TIMEOUT_MS);

afterAll(async () => {
  for (const { provider } of stores.splice(0)) await provider.shutdown();
  if (directory) await rm(directory, { recursive: true, force: true });
}, SERVER_START_TIMEOUT_MS);

/** What a call did: the code and the message after the store's own name, or that it passed. */
async function outcomeOf(call: () => Promise<unknown>, id: string): Promise<string> {
  try {
    await call();
    return 'accepted';
  } catch (error) {
    if (!WeftError.is(error)) return `not a WeftError: ${String(error)}`;
    // The store's class and id start the message, and each store gave its memory another id: the
    // only parts that may differ.
    return `${error.code} ${error.message.replace(/^\w+MemoryProvider "[^"]*": /, '').replaceAll(id, '<id>')}`;
  }
}

describe('every first-party memory store refuses the same invalid input the same way', () => {
  it.each(INVALID_MEMORY_INPUTS.map((input) => [input.name, input] as const))(
    '%s [claim:testing-in-memory-same-rules] [claim:mpo-develop-in-memory] [claim:mpo-same-code] [claim:mpo-unstorable] [claim:mpo-max-patterns] [claim:mpo-in-memory-same-refusals] [claim:mpo-max-key-length] [claim:pg-refused-text] [claim:pg-shared-text-rules] [claim:core-readme-memory-store] [claim:sqlite-shared-codes] [claim:tst-in-memory] [claim:tst-in-memory-holds-for-durable] [claim:tsdoc-core-check-id] [claim:tsdoc-core-provider-same-code] [claim:tsdoc-core-provider-store-throws] [claim:tsdoc-core-provider-query-throws] [claim:tsdoc-core-provider-remove-throws] [claim:tsdoc-core-provider-clear-throws] [claim:tsdoc-postgres-store-invalid] [claim:errors-memory-invalid-contract] [claim:pg-memory-invalid] [claim:pg-invalid-query] [claim:pg-invalid-argument] [claim:pg-readme-not-found]',
    async (_name, input) => {
      const outcomes = Object.fromEntries(
        await Promise.all(
          stores.map(
            async ({ name, provider, seed }) =>
              [name, await outcomeOf(() => input.call(provider, seed.id), seed.id)] as const,
          ),
        ),
      );
      const expected = outcomes['in-memory'];
      expect(expected).toMatch(new RegExp(`^${input.code} `));
      expect(expected).toContain(input.names);
      expect(outcomes).toEqual({ 'in-memory': expected, sqlite: expected, postgres: expected });
    },
  );

  it('leaves every store holding only its one valid memory, unchanged [claim:tst-in-memory-holds-for-durable] [claim:tsdoc-core-provider-store-throws] [claim:errors-memory-invalid-contract]', async () => {
    for (const { name, provider, seed } of stores) {
      expect(await provider.query({}), name).toEqual([seed]);
    }
  });
});

describe('every first-party memory store accepts the same edge cases with the same result', () => {
  const cases: [string, (provider: MemoryProvider) => Promise<unknown>][] = [
    [
      'a null taskId and no metadata, stored as no taskId and {}',
      async (provider) => {
        const { id, createdAt, ...stored } = await provider.store({
          space: 'edge',
          kind: 'note',
          content: null,
          taskId: null as unknown as string,
        } as Omit<Memory, 'id' | 'createdAt'>);
        return [typeof id, createdAt instanceof Date, stored];
      },
    ],
    [
      'text with surrogate pairs and combining marks, kept as it is',
      async (provider) => {
        const stored = await provider.store({
          space: 'edge-😀',
          kind: 'cafe\u0301',
          content: { '😀': 'é\u0301' },
          metadata: {},
        });
        return [stored.space, stored.kind, stored.content];
      },
    ],
    [
      'an empty spacePatterns list, matching nothing',
      (provider) => provider.query({ spacePatterns: [] }),
    ],
    [
      'the largest number of space patterns, the last one matching',
      async (provider) =>
        (
          await provider.query({
            spacePatterns: [...Array.from({ length: 99 }, (_, index) => `none-${index}*`), 'edge*'],
          })
        ).map((memory) => memory.space),
    ],
    [
      'a space, kind and taskId of the most characters, surrogate pairs included',
      async (provider) => {
        const space = `edge-${'😀'.repeat(247)}x`;
        const kind = 'é'.repeat(500);
        const taskId = 't'.repeat(500);
        const stored = await provider.store({ space, kind, taskId, content: 1, metadata: {} });
        const [read] = await provider.query({ space, kind, taskId });
        return [space.length, stored.space === space, read?.kind === kind, read?.taskId === taskId];
      },
    ],
    [
      'content and metadata nested 2500 levels deep, stored, updated and read back whole',
      async (provider) => {
        // Deeper than structuredClone goes on Node's default stack, well within what
        // JSON.stringify (the shared check) takes: a store must not stop short of the check.
        const nested = (depth: number, leaf: unknown): unknown => {
          let value = leaf;
          for (let level = 0; level < depth; level += 1) value = { a: value };
          return value;
        };
        const depthOf = (value: unknown): number => {
          let depth = 0;
          let current = value;
          while (typeof current === 'object' && current !== null && 'a' in current) {
            current = current.a;
            depth += 1;
          }
          return depth;
        };
        const stored = await provider.store({
          space: 'deep',
          kind: 'note',
          content: nested(2500, 'leaf'),
          metadata: { deep: nested(2500, 1) },
        });
        const updated = await provider.update(stored.id, { content: nested(2600, 'leaf') });
        const [read] = await provider.query({ space: 'deep' });
        return [
          depthOf(stored.content),
          depthOf(stored.metadata.deep),
          depthOf(updated.content),
          depthOf(read?.content),
          depthOf(read?.metadata.deep),
        ];
      },
    ],
    ['remove() of an unknown id, false', (provider) => provider.remove('no-such-memory')],
    [
      'since and until before any database calendar: since matches every memory, until none',
      async (provider) => {
        const spaces = async (options: QueryMemoryOptions) =>
          (await provider.query({ space: 'inputs', ...options })).map((memory) => memory.space);
        const results = [];
        // The earliest Date, 5000 BC, and the last day before PostgreSQL's timestamps begin.
        for (const date of [
          new Date(-8.64e15),
          new Date(Date.UTC(-4999, 0, 1)),
          new Date(Date.UTC(-4713, 10, 23)),
        ]) {
          results.push(await spaces({ since: date }), await spaces({ until: date }));
        }
        results.push(
          await spaces({ since: new Date(8.64e15) }),
          await spaces({ until: new Date(8.64e15) }),
        );
        return results;
      },
    ],
  ];

  it.each(cases)(
    '%s [claim:testing-in-memory-same-rules] [claim:mpo-develop-in-memory] [claim:mpo-same-code] [claim:mpo-unstorable] [claim:mpo-max-patterns] [claim:mpo-in-memory-same-refusals] [claim:mpo-max-key-length] [claim:pg-refused-text] [claim:pg-shared-text-rules] [claim:core-readme-memory-store] [claim:sqlite-shared-codes] [claim:tst-in-memory] [claim:tst-in-memory-holds-for-durable] [claim:tsdoc-core-check-id] [claim:tsdoc-core-provider-same-code] [claim:tsdoc-core-provider-store-throws] [claim:tsdoc-core-provider-query-throws] [claim:tsdoc-core-provider-remove-throws] [claim:tsdoc-core-provider-clear-throws] [claim:tsdoc-postgres-store-invalid]',
    async (_name, call) => {
      const results = await Promise.all(stores.map(({ provider }) => call(provider)));
      expect(results[1]).toEqual(results[0]);
      expect(results[2]).toEqual(results[0]);
    },
  );
});

describe('what a test written against the in-memory store must not lean on', () => {
  it("needs init() only for the durable stores, and gets object keys back in jsonb's order only from PostgreSQL [claim:tst-in-memory-durable-differences] [claim:testing-in-memory-same-rules]", async () => {
    const fresh: [string, MemoryProvider][] = [
      ['in-memory', new InMemoryMemoryProvider()],
      ['sqlite', new SqliteMemoryProvider({ path: join(directory, 'fresh.db') })],
      ['postgres', new PostgresMemoryProvider({ connectionString: postgres.url() })],
    ];
    const note = { space: 'fresh', kind: 'note', content: 1, metadata: {} };
    const codeOf = (call: () => Promise<unknown>) =>
      call().then(
        () => 'accepted',
        (error: unknown) => (WeftError.is(error) ? error.code : String(error)),
      );
    const beforeInit = [];
    const afterShutdown = [];
    for (const [, provider] of fresh) {
      beforeInit.push(await codeOf(() => provider.store(note)));
      await provider.init();
      await provider.shutdown();
      afterShutdown.push(await codeOf(() => provider.query({})));
    }
    expect(beforeInit).toEqual(['accepted', 'WEFT_SQLITE_NOT_OPEN', 'WEFT_POSTGRES_NOT_OPEN']);
    expect(afterShutdown).toEqual(['accepted', 'WEFT_SQLITE_NOT_OPEN', 'WEFT_POSTGRES_NOT_OPEN']);

    const content = { zebra: 1, ant: 2, b: 3 };
    const keys = [];
    for (const { provider } of stores) {
      const stored = await provider.store({ space: 'keys', kind: 'note', content, metadata: {} });
      const [read] = await provider.query({ space: 'keys' });
      expect(read?.content).toEqual(content);
      keys.push([Object.keys(stored.content as object), Object.keys(read?.content as object)]);
    }
    const written = ['zebra', 'ant', 'b'];
    const shorterFirst = ['b', 'ant', 'zebra'];
    expect(keys).toEqual([
      [written, written],
      [written, written],
      [shorterFirst, shorterFirst],
    ]);
  });
});
