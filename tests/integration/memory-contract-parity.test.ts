/**
 * One memory contract: the in-memory store, SQLite and PostgreSQL (a real server) refuse exactly
 * the same inputs with exactly the same codes and the same messages after the store's name, and
 * accept the same edge cases with the same result, so a test written against
 * InMemoryMemoryProvider holds for the durable stores too.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MAX_MEMORY_JSON_DEPTH,
  Plugin,
  Runtime,
  WeftError,
  spaceId,
  type Memory,
  type MemoryProvider,
  type QueryMemoryOptions,
} from '@weft/core';
import { PostgresMemoryProvider } from '@weft/memory-postgres';
import { SqliteMemoryProvider } from '@weft/memory-sqlite';
import {
  INVALID_MEMORY_INPUTS,
  InMemoryMemoryProvider,
  ScriptedModelProvider,
} from '@weft/testing';
import { pino } from 'pino';
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

describe('every first-party memory store refuses a blank id option', () => {
  it.each(['', '   ', '\t\n'])(
    'refuses id %j in its constructor with its options code and the same message [claim:mpo-blank-id-refused]',
    (id) => {
      const outcome = (make: () => unknown): string => {
        try {
          make();
          return 'accepted';
        } catch (error) {
          if (!WeftError.is(error)) return `not a WeftError: ${String(error)}`;
          return `${error.code} ${error.message.replace(/, got .*/, '')}`;
        }
      };
      expect({
        'in-memory': outcome(() => new InMemoryMemoryProvider({ id })),
        sqlite: outcome(() => new SqliteMemoryProvider({ path: ':memory:', id })),
        postgres: outcome(
          () => new PostgresMemoryProvider({ connectionString: postgres.url(), id }),
        ),
      }).toEqual({
        'in-memory':
          'WEFT_TESTING_INVALID_OPTIONS InMemoryMemoryProvider: option "id" must be a non-empty string',
        sqlite:
          'WEFT_SQLITE_INVALID_OPTIONS SqliteMemoryProvider: option "id" must be a non-empty string [WEFT_SQLITE_INVALID_OPTIONS]',
        postgres:
          'WEFT_POSTGRES_INVALID_OPTIONS PostgresMemoryProvider: option "id" must be a non-empty string [WEFT_POSTGRES_INVALID_OPTIONS]',
      });
    },
  );
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
      'content and metadata nested exactly MAX_MEMORY_JSON_DEPTH levels deep, stored, updated and read back whole',
      async (provider) => {
        // As deep as the shared check lets through: a store must not stop short of it.
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
          content: nested(MAX_MEMORY_JSON_DEPTH, 'leaf'),
          metadata: { deep: nested(MAX_MEMORY_JSON_DEPTH - 1, 1) },
        });
        const updated = await provider.update(stored.id, {
          content: [nested(MAX_MEMORY_JSON_DEPTH - 1, 'leaf')],
        });
        const [read] = await provider.query({ space: 'deep' });
        return [
          depthOf(stored.content),
          depthOf(stored.metadata.deep),
          depthOf((updated.content as unknown[])[0]),
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

describe('what a test written against the in-memory store can lean on', () => {
  it('gets a memory back with its fields in the same order from every store, from store(), update() and query() [claim:tst-in-memory-field-order] [claim:tst-in-memory-holds-for-durable]', async () => {
    const shapes = [];
    for (const { provider } of stores) {
      const withTask = await provider.store({
        space: 'shape',
        kind: 'note',
        content: 'text',
        taskId: 't-shape',
        metadata: { m: 1 },
      });
      const withoutTask = await provider.store({
        space: 'shape',
        kind: 'note',
        content: 1,
        metadata: {},
      });
      const updated = await provider.update(withTask.id, { content: 'edited' });
      const read = await provider.query({ space: 'shape', order: 'asc' });
      // The ids and times differ from store to store; the rest of the JSON text must not.
      const text = (memory: Memory) =>
        JSON.stringify({ ...memory, id: '<id>', createdAt: '<time>' });
      shapes.push(
        [withTask, withoutTask, updated, ...read].map((memory) => [
          Object.keys(memory),
          text(memory),
        ]),
      );
    }
    expect(shapes[0]?.[0]?.[0]).toEqual([
      'id',
      'space',
      'kind',
      'content',
      'metadata',
      'createdAt',
      'taskId',
    ]);
    expect(shapes[1]).toEqual(shapes[0]);
    expect(shapes[2]).toEqual(shapes[0]);
  });
});

describe('what a test written against the in-memory store must not lean on', () => {
  it("needs init() only for the durable stores, gets object keys back in jsonb's order only from PostgreSQL, and starts each error message with the store [claim:tst-in-memory-durable-differences] [claim:tst-in-memory-holds-for-durable] [claim:testing-in-memory-same-rules]", async () => {
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

    // One refusal from each store: the same code, and a message that differs only in its start.
    const messages = [];
    for (const { provider } of stores) {
      const error: unknown = await provider
        .store({ space: 'room', kind: '', content: 1, metadata: {} })
        .catch((caught: unknown) => caught);
      expect(WeftError.is(error, 'WEFT_MEMORY_INVALID')).toBe(true);
      messages.push((error as Error).message);
    }
    const rest = `: a memory's "kind" must be a non-empty string (space "room"), got "" [WEFT_MEMORY_INVALID]`;
    expect(messages).toEqual([
      `InMemoryMemoryProvider "${stores[0]?.provider.id}"${rest}`,
      `SqliteMemoryProvider "${stores[1]?.provider.id}"${rest}`,
      `PostgresMemoryProvider "${stores[2]?.provider.id}"${rest}`,
    ]);
    expect(stores[0]?.provider.id).toBe('in-memory');
  });
});

describe("the spaces page's memory claims hold for every first-party store", () => {
  const spaces = [
    'support-billing',
    'support-billing-kb',
    'support-billing-kb-faq',
    'support-billing-kbx',
    'support-billing-ticket-1042',
    'Support-billing-ticket-7',
    'support-billingx',
    'support-billing_2dkb-kb',
    'support-sales-kb',
    'sp%lit_a?b[c]\\d',
  ];
  let seeded: Promise<void> | undefined;
  /** Stores the page's spaces in every store once, a note and a trigger of one task in each. */
  const seedSpaces = () =>
    (seeded ??= (async () => {
      for (const { provider } of stores) {
        for (const space of spaces) {
          await provider.store({ space, kind: 'note', content: space, metadata: {} });
          await provider.store({
            space,
            kind: 'trigger',
            taskId: `t-${space}`,
            content: space,
            metadata: {},
          });
        }
      }
    })());
  /** The spaces a query finds, sorted, for each store by name. */
  const found = async (options: QueryMemoryOptions) => {
    await seedSpaces();
    const results = await Promise.all(
      stores.map(
        async ({ name, provider }) =>
          [name, [...new Set((await provider.query(options)).map((m) => m.space))].sort()] as const,
      ),
    );
    return Object.fromEntries(results);
  };
  const inEvery = (expected: string[]) => ({
    'in-memory': expected,
    sqlite: expected,
    postgres: expected,
  });

  it('select a subtree by its id and a prefix ending in the separator, not a team whose name starts the same [claim:sp-subtree-prefix]', async () => {
    const billingKb = spaceId('support', 'billing-kb', 'kb');
    expect(billingKb).toBe('support-billing_2dkb-kb');
    expect(await found({ space: 'support-billing', spacePrefix: 'support-billing-' })).toEqual(
      inEvery([
        'support-billing',
        'support-billing-kb',
        'support-billing-kb-faq',
        'support-billing-kbx',
        'support-billing-ticket-1042',
      ]),
    );
    expect(await found({ spacePrefix: 'support-billing' })).toEqual(
      inEvery([
        'support-billing',
        'support-billing-kb',
        'support-billing-kb-faq',
        'support-billing-kbx',
        'support-billing-ticket-1042',
        billingKb,
        'support-billingx',
      ]),
    );
  });

  it('match ids case-sensitively, by exact id, prefix and pattern [claim:sp-case-sensitive] [claim:mpo-query-case]', async () => {
    expect(await found({ space: 'support-billing-ticket-7' })).toEqual(inEvery([]));
    expect(await found({ spacePrefix: 'support-billing-ticket' })).toEqual(
      inEvery(['support-billing-ticket-1042']),
    );
    expect(await found({ spacePatterns: ['*billing-ticket-*'] })).toEqual(
      inEvery(['Support-billing-ticket-7', 'support-billing-ticket-1042']),
    );
    expect(await found({ spacePatterns: ['support-*-ticket-*'] })).toEqual(
      inEvery(['support-billing-ticket-1042']),
    );
  });

  it('treat * in a pattern as any run of characters and every other character as itself [claim:sp-patterns] [claim:sp-pattern-subtree] [claim:sp-pattern-separator]', async () => {
    expect(await found({ spacePatterns: ['support-billing-kb-*'] })).toEqual(
      inEvery(['support-billing-kb-faq']),
    );
    expect(await found({ spacePatterns: ['support-billing-kb*'] })).toEqual(
      inEvery(['support-billing-kb', 'support-billing-kb-faq', 'support-billing-kbx']),
    );
    // `%`, `_`, `?`, `[` and `\` are wildcards or escapes of LIKE or GLOB, not of a pattern.
    expect(await found({ spacePatterns: ['sp%lit_a?b[c]\\d', 'sp_lit*', 'sp%lit%'] })).toEqual(
      inEvery(['sp%lit_a?b[c]\\d']),
    );
    expect(await found({ spacePatterns: ['sp*d'] })).toEqual(inEvery(['sp%lit_a?b[c]\\d']));
  });

  it('match a prefix as plain text, so support-bill matches support-billing [claim:sp-prefix-plain]', async () => {
    expect(await found({ spacePrefix: 'support-bill' })).toEqual(
      inEvery(spaces.filter((space) => space.startsWith('support-bill')).sort()),
    );
    expect(await found({ spacePrefix: 'support-billing-' })).toEqual(
      inEvery([
        'support-billing-kb',
        'support-billing-kb-faq',
        'support-billing-kbx',
        'support-billing-ticket-1042',
      ]),
    );
    expect(await found({ spacePrefix: 'sp%lit_' })).toEqual(inEvery(['sp%lit_a?b[c]\\d']));
  });

  it('match when any space filter matches and every other filter does too [claim:sp-query-filters]', async () => {
    const either = {
      space: 'support-billing',
      spacePrefix: 'support-sales',
      spacePatterns: ['support-billing-kb-*'],
    };
    expect(await found(either)).toEqual(
      inEvery(['support-billing', 'support-billing-kb-faq', 'support-sales-kb']),
    );
    expect(await found({ ...either, kind: 'trigger', taskId: 't-support-sales-kb' })).toEqual(
      inEvery(['support-sales-kb']),
    );
    expect(await found({ ...either, until: new Date(0) })).toEqual(inEvery([]));
    expect(await found({ ...either, since: new Date(0), kind: 'note' })).toEqual(
      inEvery(['support-billing', 'support-billing-kb-faq', 'support-sales-kb']),
    );
  });
});

describe('the runtime plans with the history the spaces page describes, on every first-party store', () => {
  class SupportPlugin extends Plugin {
    readonly id = 'support';
    readonly description = 'Answers support tickets.';
  }
  const STORE_NAMES = ['in-memory', 'sqlite', 'postgres'] as const;
  /** A new, empty store of this kind; the server and folder exist only once the file started. */
  const fresh = (name: (typeof STORE_NAMES)[number]): MemoryProvider => {
    if (name === 'in-memory') return new InMemoryMemoryProvider();
    if (name === 'sqlite') {
      return new SqliteMemoryProvider({ path: join(directory, `planner-${randomUUID()}.db`) });
    }
    return new PostgresMemoryProvider({
      connectionString: postgres.url(),
      schema: postgres.newSchema(),
    });
  };
  const relatedSpaces = ['support-billing-kb', 'support-billing-kb-*'];

  it.each(STORE_NAMES)(
    '%s: shows the own and related spaces newest first, not the task itself, and stores a trigger and a chain memory [claim:sp-planner-memories] [claim:sp-own-space] [claim:sp-stored]',
    async (name) => {
      const memory = fresh(name);
      const model = new ScriptedModelProvider({ fallback: { steps: [] } });
      const runtime = await Runtime.init({
        models: [model],
        memory,
        plugins: [new SupportPlugin()],
        options: { logger: pino({ level: 'silent' }) },
      });
      await runtime.start();
      try {
        const note = (space: string, content: string) =>
          runtime.memory.store({ space, kind: 'note', content, metadata: {} });
        await note('support-billing-kb', 'kb note');
        await note('support-billing-kb-faq', 'faq note');
        await note('support-billing-ticket-7', 'other ticket note');
        const ticket = { id: 'support-billing-ticket-1042', relatedSpaces };
        const first = await runtime.dispatch({
          pluginId: 'support',
          triggerId: 'email',
          space: ticket,
          message: 'first message',
          metadata: { requestId: 'r-1' },
        });
        const firstPrompt = String(model.requests[0]?.at(-1)?.content);
        expect(firstPrompt).not.toContain('trigger support/email: first message');
        await runtime.dispatch({
          pluginId: 'support',
          triggerId: 'email',
          space: ticket,
          message: 'second message',
        });
        const prompt = String(model.requests[1]?.at(-1)?.content);
        const at = (text: string) => prompt.indexOf(text);
        expect(at('trigger support/email: first message')).toBeGreaterThan(-1);
        expect(at('trigger support/email: first message')).toBeLessThan(at('faq note'));
        expect(at('faq note')).toBeLessThan(at('kb note'));
        expect(prompt).not.toContain('other ticket note');
        expect(prompt).not.toContain('trigger support/email: second message');

        const stored = await runtime.memory.query({ taskId: first.id, order: 'asc' });
        expect(
          stored.map(({ space, kind, taskId, metadata }) => ({ space, kind, taskId, metadata })),
        ).toEqual(
          ['trigger', 'chain'].map((kind) => ({
            space: ticket.id,
            kind,
            taskId: first.id,
            metadata: { requestId: 'r-1' },
          })),
        );
        expect(Object.keys(stored[0]?.content as object).sort()).toEqual([
          'action',
          'message',
          'pluginId',
        ]);
        expect(Object.keys(stored[1]?.content as object).sort()).toEqual([
          'chain',
          'status',
          'steps',
        ]);
      } finally {
        await runtime.stop();
      }
    },
  );

  it.each(STORE_NAMES)(
    '%s: plans a task whose space lists over 100 patterns without any memories, and says so [claim:sp-related-max]',
    async (name) => {
      const memory = fresh(name);
      const model = new ScriptedModelProvider({ fallback: { steps: [] } });
      const runtime = await Runtime.init({
        models: [model],
        memory,
        plugins: [new SupportPlugin()],
        options: { logger: pino({ level: 'silent' }) },
      });
      await runtime.start();
      try {
        await runtime.dispatch({
          pluginId: 'support',
          triggerId: 'email',
          space: 'ticket-1',
          message: 'earlier message',
        });
        const patterns = Array.from({ length: 101 }, (_, index) => `kb-${index}-*`);
        const over = await runtime.dispatch({
          pluginId: 'support',
          triggerId: 'email',
          space: { id: 'ticket-1', relatedSpaces: patterns },
        });
        expect(over.historyUnavailable?.errorId).toEqual(expect.any(String));
        expect(String(model.requests[1]?.at(-1)?.content)).not.toContain('earlier message');
        const atMost = await runtime.dispatch({
          pluginId: 'support',
          triggerId: 'email',
          space: { id: 'ticket-1', relatedSpaces: patterns.slice(1) },
        });
        expect(atMost.historyUnavailable).toBeUndefined();
        expect(String(model.requests[2]?.at(-1)?.content)).toContain('earlier message');
      } finally {
        await runtime.stop();
      }
    },
  );
});
