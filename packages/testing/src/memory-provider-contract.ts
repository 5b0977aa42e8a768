import assert from 'node:assert/strict';
import type { Memory, MemoryProvider } from '@weft/core';
import { rejection, runCase, type ProviderCalls } from './contract-runner.js';
import { INVALID_MEMORY_INPUTS } from './memory-contract-inputs.js';

/** How {@link memoryProviderContract} makes the providers it checks. */
export interface MemoryProviderContractFactory<P extends MemoryProvider = MemoryProvider> {
  /**
   * Creates a provider over a new, empty store. The contract calls `init()` itself, and
   * `shutdown()` when the case ends, whether it passed or not; a provider whose `init()` threw
   * is not shut down, and the case fails.
   */
  create(): P | Promise<P>;
  /**
   * For durable providers only: creates a second provider over the same store as `previous`,
   * which has been shut down. When given, the contract checks that every memory survives the
   * restart unchanged; leave it out for a store that forgets on shutdown.
   */
  reopen?(previous: P): P | Promise<P>;
}

/** One named check of the contract, to register with a test runner. */
export interface MemoryProviderContractCase {
  /** What the case checks, as a test title. */
  readonly name: string;
  /**
   * Runs the check against a fresh provider.
   *
   * @throws WeftError with code `WEFT_TESTING_CONTRACT_FAILED`, whose message names the case, the
   * provider and the rule that was broken. An error the provider throws where the case expects
   * none (in `create`, `init`, a call or `shutdown`) fails the case the same way, with the
   * provider's error as the `cause` and its message included. So does a call that returns
   * something the case cannot read (a `store()` that resolves with nothing): the message names
   * the method, and the error reading it is the `cause`.
   */
  run(): Promise<void>;
}

type NewMemory = Omit<Memory, 'id' | 'createdAt'>;

/** How many `store()` calls the concurrency case starts at once. */
const CONCURRENT_WRITES = 32;

// Content is read from the argument list rather than defaulted, so `undefined` can be passed.
const note = (space: string, ...content: [unknown?]): NewMemory => ({
  space,
  kind: 'note',
  content: content.length > 0 ? content[0] : { space },
  metadata: {},
});

/**
 * The memory-provider contract: the rules every {@link MemoryProvider} keeps so that the runtime,
 * plugins and tests behave the same whichever store is plugged in. It returns named async cases
 * that do not depend on a test runner; register each one with your runner's `it`/`test`.
 *
 * The rules: every field round-trips (content as its JSON form: nested objects and arrays kept,
 * `undefined` properties dropped, no `null` where there was nothing); `createdAt` is a `Date`;
 * `taskId` is absent when none was given; a memory with an empty `space` or `kind` or `undefined`
 * content is rejected by `store()`, and content that has no JSON form (a `BigInt`, a circular
 * structure) by `store()` and by `update()`, with `WEFT_MEMORY_INVALID` and an error naming the
 * field, and nothing is written; a bad query option is rejected with `WEFT_MEMORY_INVALID_QUERY`
 * naming the option, and an id or space that is not a string with `WEFT_INVALID_ARGUMENT`, for
 * every input of {@link INVALID_MEMORY_INPUTS}; returned memories are copies; the query filters,
 * order (newest first by default, store order within one instance) and limit (default 100, a
 * positive integer) follow {@link QueryMemoryOptions}; `update()` keeps what the patch leaves out
 * and rejects an unknown id with `WEFT_MEMORY_NOT_FOUND`; `remove()` and `clear()` report what they
 * deleted; concurrent `store()` calls all land with distinct ids; and, when the factory can
 * `reopen` the store, every memory survives `shutdown()`.
 *
 * @param factory - Creates (and, for durable stores, reopens) the provider under test.
 * @returns The cases, in a stable order with unique names.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { SqliteMemoryProvider } from '@weft/memory-sqlite';
 * import { memoryProviderContract } from '@weft/testing';
 * import { describe, it } from 'vitest';
 *
 * const directory = mkdtempSync(join(tmpdir(), 'contract-'));
 *
 * describe('SqliteMemoryProvider keeps the memory-provider contract', () => {
 *   const cases = memoryProviderContract({
 *     create: () => new SqliteMemoryProvider({ path: join(directory, `${crypto.randomUUID()}.db`) }),
 *     reopen: (previous) => new SqliteMemoryProvider({ path: previous.path }),
 *   });
 *   for (const check of cases) it(check.name, check.run);
 * });
 * ```
 */
export function memoryProviderContract<P extends MemoryProvider>(
  factory: MemoryProviderContractFactory<P>,
): MemoryProviderContractCase[] {
  const cases: [string, (provider: P) => Promise<void>][] = [
    ['round-trips every field', roundTripsEveryField],
    ['keeps content as its JSON form', keepsJsonForm],
    ['rejects an empty space or kind', rejectsEmptySpaceOrKind],
    ['rejects undefined and non-JSON content on store', rejectsBadContentOnStore],
    ['rejects non-JSON content on update and keeps the memory', rejectsBadContentOnUpdate],
    ['refuses every invalid input with the shared code, changing nothing', refusesInvalidInputs],
    ['returns copies, not live objects', returnsCopies],
    ['gives createdAt as a Date, in store order', ordersByCreation],
    ['filters by space, prefix and pattern, OR-ed', filtersBySpace],
    ['ANDs kind, task and time filters with the space filters', filtersByKindTaskAndTime],
    ['applies limit and order', appliesLimitAndOrder],
    ['updates content and metadata separately', updatesSeparately],
    ['rejects updates of unknown ids', rejectsUnknownUpdate],
    ['removes one memory and reports whether it existed', removesOne],
    ['clears one exact space or everything', clears],
    [`lands ${CONCURRENT_WRITES} concurrent stores with distinct ids`, landsConcurrentStores],
  ];
  const result = cases.map(([name, check]) => ({
    name,
    run: () => runCase(factory, name, check),
  }));
  const reopen = factory.reopen?.bind(factory);
  if (reopen) {
    const name = 'keeps every memory across shutdown and a new instance';
    result.push({
      name,
      run: () =>
        runCase(factory, name, (provider, closed, calls) =>
          survivesRestart(provider, reopen, closed, calls),
        ),
    });
  }
  return result;
}

async function roundTripsEveryField(provider: MemoryProvider): Promise<void> {
  const input: NewMemory = {
    space: 'contract-space',
    kind: 'chain',
    content: { text: 'hello', nested: { list: [1, 'two', null, true, { deep: 3.5 }] } },
    taskId: 'task-1',
    metadata: { source: 'contract', tags: ['a', 'b'], nested: { n: 1 } },
  };
  const stored = await provider.store(input);
  assert.equal(typeof stored.id, 'string', 'store() must assign a string id');
  assert.notEqual(stored.id, '', 'store() must assign a non-empty id');
  const [read] = await provider.query({ space: 'contract-space' });
  for (const memory of [stored, read]) {
    assert.ok(memory, 'query() must find the stored memory');
    const { id, createdAt, ...fields } = memory;
    assert.equal(id, stored.id, 'query() must give the id store() returned');
    assert.ok(createdAt instanceof Date, 'createdAt must be a Date');
    assert.deepStrictEqual(fields, input, 'every field must come back as stored');
  }
  const withoutTask = await provider.store(note('contract-space-2'));
  const [readWithoutTask] = await provider.query({ space: 'contract-space-2' });
  for (const memory of [withoutTask, readWithoutTask]) {
    assert.equal(memory?.taskId, undefined, 'taskId must stay undefined when none was given');
  }
}

async function keepsJsonForm(provider: MemoryProvider): Promise<void> {
  const contents: [unknown, unknown][] = [
    ['text', 'text'],
    [0, 0],
    [false, false],
    [null, null],
    [
      [1, [2, [3]]],
      [1, [2, [3]]],
    ],
    [{ kept: 1, dropped: undefined }, { kept: 1 }],
    [{ when: new Date(0) }, { when: '1970-01-01T00:00:00.000Z' }],
  ];
  for (const [index, [content, expected]] of contents.entries()) {
    const stored = await provider.store(note(`json-${index}`, content));
    const [read] = await provider.query({ space: `json-${index}` });
    assert.deepStrictEqual(stored.content, expected, `store() result for content #${index}`);
    assert.deepStrictEqual(read?.content, expected, `query() result for content #${index}`);
  }
}

async function rejectsEmptySpaceOrKind(provider: MemoryProvider): Promise<void> {
  const kindMessage = await rejection(
    () => provider.store({ ...note('contract-space'), kind: '' }),
    'a memory with an empty kind',
    'WEFT_MEMORY_INVALID',
  );
  assert.match(kindMessage, /kind/, 'the error for an empty kind must name "kind"');
  const spaceMessage = await rejection(
    () => provider.store(note('')),
    'a memory with an empty space',
    'WEFT_MEMORY_INVALID',
  );
  assert.match(spaceMessage, /space/, 'the error for an empty space must name "space"');
  assert.deepStrictEqual(await provider.query({}), [], 'a rejected memory must not be stored');
}

async function rejectsBadContentOnStore(provider: MemoryProvider): Promise<void> {
  const circular: Record<string, unknown> = {};
  circular.self = circular;
  const bad: [string, unknown][] = [
    ['undefined content', undefined],
    ['BigInt content', 10n],
    ['content holding a BigInt', { amount: 10n }],
    ['circular content', circular],
  ];
  for (const [what, content] of bad) {
    await rejection(
      () => provider.store(note('bad', content)),
      `store() of ${what}`,
      'WEFT_MEMORY_INVALID',
    );
  }
  assert.deepStrictEqual(await provider.query({}), [], 'a rejected memory must not be stored');
}

async function rejectsBadContentOnUpdate(provider: MemoryProvider): Promise<void> {
  const stored = await provider.store(note('update-space', { value: 1 }));
  await rejection(
    () => provider.update(stored.id, { content: { amount: 10n } }),
    'update() with content holding a BigInt',
    'WEFT_MEMORY_INVALID',
  );
  await rejection(
    () => provider.update(stored.id, { metadata: { amount: 10n } }),
    'update() with metadata holding a BigInt',
    'WEFT_MEMORY_INVALID',
  );
  const [read] = await provider.query({ space: 'update-space' });
  assert.deepStrictEqual(read?.content, { value: 1 }, 'a rejected update must change nothing');
  assert.deepStrictEqual(read?.metadata, {}, 'a rejected update must change nothing');
}

async function refusesInvalidInputs(provider: MemoryProvider): Promise<void> {
  const stored = await provider.store({
    space: 'inputs',
    kind: 'note',
    content: { ok: true },
    taskId: 't-1',
    metadata: { m: 1 },
  });
  for (const input of INVALID_MEMORY_INPUTS) {
    const message = await rejection(() => input.call(provider, stored.id), input.name, input.code);
    assert.ok(
      message.includes(input.names),
      `the error for ${input.name} must name "${input.names}"; it says: ${message}`,
    );
  }
  assert.deepStrictEqual(
    await provider.query({}),
    [stored],
    'a refused input must change nothing and store nothing',
  );
}

async function returnsCopies(provider: MemoryProvider): Promise<void> {
  const content = { list: [1] };
  const metadata = { tag: 'a' };
  const stored = await provider.store({ ...note('copies', content), metadata });
  content.list.push(2);
  metadata.tag = 'changed';
  (stored.content as { list: number[] }).list.push(3);
  const [first] = await provider.query({ space: 'copies' });
  (first?.content as { list: number[] }).list.push(4);
  const [second] = await provider.query({ space: 'copies' });
  assert.deepStrictEqual(
    second?.content,
    { list: [1] },
    'changing a returned object must not change the store',
  );
  assert.deepStrictEqual(
    second?.metadata,
    { tag: 'a' },
    'changing the input must not change the store',
  );
}

async function ordersByCreation(provider: MemoryProvider): Promise<void> {
  const before = Date.now();
  const stored: Memory[] = [];
  for (let index = 0; index < 5; index += 1)
    stored.push(await provider.store(note(`order-${index}`)));
  const after = Date.now();
  for (const memory of stored) {
    assert.ok(memory.createdAt instanceof Date, 'createdAt must be a Date');
    const time = memory.createdAt.getTime();
    // A provider may nudge a timestamp forward to keep store order; allow a few milliseconds.
    assert.ok(time >= before && time <= after + 10, 'createdAt must be the time of the store');
  }
  const newestFirst = await provider.query({});
  assert.deepStrictEqual(
    newestFirst.map((memory) => memory.id),
    stored.map((memory) => memory.id).reverse(),
    'query() must give the newest first, in store order, by default',
  );
  for (const memory of newestFirst) {
    assert.ok(memory.createdAt instanceof Date, 'query() must give createdAt as a Date');
  }
}

async function seed(provider: MemoryProvider, spaces: readonly string[]): Promise<void> {
  for (const space of spaces) await provider.store(note(space));
}

const spacesOf = (memories: readonly Memory[]): string[] => memories.map((memory) => memory.space);

async function filtersBySpace(provider: MemoryProvider): Promise<void> {
  await seed(provider, [
    'team-a',
    'team-a-user-1',
    'team-ab',
    'TEAM-a',
    'team-b',
    'a.b',
    'a%b_c',
    'line\nbreak',
  ]);
  assert.deepStrictEqual(
    spacesOf(await provider.query({ space: 'team-a' })),
    ['team-a'],
    'space matches one space exactly',
  );
  assert.deepStrictEqual(
    spacesOf(await provider.query({ spacePrefix: 'team-a' })),
    ['team-ab', 'team-a-user-1', 'team-a'],
    'spacePrefix matches by prefix, case-sensitively',
  );
  assert.deepStrictEqual(
    spacesOf(await provider.query({ space: 'team-b', spacePatterns: ['team-a-*'] })),
    ['team-b', 'team-a-user-1'],
    'space filters are OR-ed',
  );
  assert.deepStrictEqual(
    await provider.query({ spacePatterns: [] }),
    [],
    'an empty spacePatterns list on its own matches nothing',
  );
  assert.deepStrictEqual(
    spacesOf(await provider.query({ spacePatterns: ['a.b', 'a%b*'] })),
    ['a%b_c', 'a.b'],
    'only * is special in a pattern',
  );
  assert.deepStrictEqual(
    await provider.query({ spacePatterns: ['a_b'] }),
    [],
    '_ in a pattern matches only itself',
  );
  assert.deepStrictEqual(
    spacesOf(await provider.query({ spacePatterns: ['line*'] })),
    ['line\nbreak'],
    '* matches any run of characters, a line break included',
  );
}

async function filtersByKindTaskAndTime(provider: MemoryProvider): Promise<void> {
  await provider.store({ ...note('room'), kind: 'trigger', taskId: 't-1' });
  const middle = await provider.store({ ...note('room'), kind: 'chain', taskId: 't-1' });
  await new Promise((resolve) => setTimeout(resolve, 5));
  const last = await provider.store({ ...note('room-user'), kind: 'chain', taskId: 't-2' });
  await provider.store({ ...note('elsewhere'), kind: 'chain', taskId: 't-1' });
  const ids = (memories: readonly Memory[]): string[] => memories.map((memory) => memory.id);
  assert.deepStrictEqual(
    ids(await provider.query({ spacePrefix: 'room', kind: 'chain' })),
    [last.id, middle.id],
    'kind is AND-ed with the space filters',
  );
  assert.deepStrictEqual(
    spacesOf(await provider.query({ taskId: 't-1', kind: 'chain' })),
    ['elsewhere', 'room'],
    'taskId and kind are AND-ed',
  );
  assert.deepStrictEqual(
    ids(await provider.query({ spacePrefix: 'room', since: last.createdAt })),
    [last.id],
    'since includes its own instant',
  );
  assert.ok(
    !ids(await provider.query({ until: last.createdAt })).includes(last.id),
    'until excludes its own instant',
  );
  assert.ok(
    ids(await provider.query({ until: last.createdAt })).includes(middle.id),
    'until includes what came before',
  );
}

async function appliesLimitAndOrder(provider: MemoryProvider): Promise<void> {
  const spaces = Array.from({ length: 102 }, (_, index) => `limit-${index}`);
  await seed(provider, spaces);
  assert.equal((await provider.query({})).length, 100, 'the default limit is 100');
  assert.deepStrictEqual(
    spacesOf(await provider.query({ limit: 2 })),
    ['limit-101', 'limit-100'],
    'limit keeps the newest',
  );
  assert.deepStrictEqual(
    spacesOf(await provider.query({ limit: 2, order: 'asc' })),
    ['limit-0', 'limit-1'],
    'order asc gives the oldest first',
  );
  for (const limit of [0, -1, 1.5]) {
    await rejection(
      () => provider.query({ limit }),
      `query() with limit ${limit}`,
      'WEFT_MEMORY_INVALID_QUERY',
    );
  }
}

async function updatesSeparately(provider: MemoryProvider): Promise<void> {
  const stored = await provider.store({
    ...note('update', { v: 1 }),
    taskId: 't-1',
    metadata: { m: 1 },
  });
  const withContent = await provider.update(stored.id, { content: { v: 2 } });
  assert.deepStrictEqual(withContent.content, { v: 2 }, 'update() returns the new content');
  assert.deepStrictEqual(withContent.metadata, { m: 1 }, 'a content patch keeps the metadata');
  const withMetadata = await provider.update(stored.id, { metadata: { m: 2 } });
  assert.deepStrictEqual(withMetadata.content, { v: 2 }, 'a metadata patch keeps the content');
  assert.deepStrictEqual(withMetadata.metadata, { m: 2 }, 'update() returns the new metadata');
  const [read] = await provider.query({ space: 'update' });
  assert.ok(read, 'the updated memory is still found');
  assert.deepStrictEqual(
    { ...read, createdAt: read.createdAt.getTime() },
    { ...stored, content: { v: 2 }, metadata: { m: 2 }, createdAt: stored.createdAt.getTime() },
    'update() keeps id, space, kind, taskId and createdAt',
  );
}

async function rejectsUnknownUpdate(provider: MemoryProvider): Promise<void> {
  const message = await rejection(
    () => provider.update('no-such-memory', { content: 1 }),
    'update() of an unknown id',
    'WEFT_MEMORY_NOT_FOUND',
  );
  assert.match(message, /no-such-memory/, 'the error must name the unknown id');
  assert.deepStrictEqual(await provider.query({}), [], 'an update of an unknown id stores nothing');
}

async function removesOne(provider: MemoryProvider): Promise<void> {
  const kept = await provider.store(note('remove'));
  const removed = await provider.store(note('remove'));
  assert.equal(await provider.remove(removed.id), true, 'remove() of a stored memory is true');
  assert.equal(await provider.remove(removed.id), false, 'a second remove() is false');
  assert.equal(
    await provider.remove('no-such-memory'),
    false,
    'remove() of an unknown id is false',
  );
  assert.deepStrictEqual(
    (await provider.query({})).map((memory) => memory.id),
    [kept.id],
    'only the removed memory is gone',
  );
}

async function clears(provider: MemoryProvider): Promise<void> {
  await seed(provider, ['room', 'room', 'room-user', 'other']);
  assert.equal(await provider.clear('room'), 2, 'clear(space) counts what it deleted');
  assert.deepStrictEqual(
    spacesOf(await provider.query({})),
    ['other', 'room-user'],
    'clear(space) keeps the spaces under it',
  );
  assert.equal(await provider.clear('room'), 0, 'clearing an empty space deletes nothing');
  assert.equal(await provider.clear(), 2, 'clear() counts what it deleted');
  assert.deepStrictEqual(await provider.query({}), [], 'clear() deletes everything');
}

async function landsConcurrentStores(provider: MemoryProvider): Promise<void> {
  const stored = await Promise.all(
    Array.from({ length: CONCURRENT_WRITES }, (_, index) =>
      provider.store(note(index % 2 === 0 ? 'even' : 'odd', { index })),
    ),
  );
  assert.equal(
    new Set(stored.map((memory) => memory.id)).size,
    CONCURRENT_WRITES,
    'ids must be distinct',
  );
  const read = await provider.query({ limit: CONCURRENT_WRITES * 2 });
  assert.deepStrictEqual(
    read.map((memory) => (memory.content as { index: number }).index).sort((a, b) => a - b),
    Array.from({ length: CONCURRENT_WRITES }, (_, index) => index),
    'every concurrent store() must land exactly once',
  );
}

async function survivesRestart<P extends MemoryProvider>(
  provider: P,
  reopen: (previous: P) => P | Promise<P>,
  closed: () => void,
  calls: ProviderCalls,
): Promise<void> {
  const first = await provider.store({
    space: 'durable',
    kind: 'chain',
    content: { steps: [{ pluginId: 'p', action: 'a' }] },
    taskId: 't-1',
    metadata: { via: 'contract' },
  });
  const second = await provider.store(note('durable-user'));
  const gone = await provider.store(note('durable'));
  await provider.update(second.id, { content: 'edited' });
  await provider.remove(gone.id);
  const before = await provider.query({ order: 'asc' });
  await provider.shutdown();
  closed();

  // The factory gets the provider it made, not the contract's view of it.
  const next = calls.watch(await calls.own(() => reopen(calls.original(provider))));
  await next.init();
  try {
    const after = await next.query({ order: 'asc' });
    assert.deepStrictEqual(after, before, 'every memory must survive a restart unchanged');
    assert.ok(after[0]?.createdAt instanceof Date, 'createdAt must still be a Date');
    assert.equal(
      after[0]?.id,
      first.id,
      'the oldest memory must come first in order asc after the restart, under the id store() gave it',
    );
    const later = await next.store(note('durable'));
    assert.equal(
      (await next.query({ limit: 1 }))[0]?.id,
      later.id,
      'a memory stored after the restart is the newest',
    );
  } catch (error) {
    // The broken rule is the failure to report, not an error of the shutdown that follows it.
    await next.shutdown().catch(() => undefined);
    throw error;
  }
  await next.shutdown();
}
