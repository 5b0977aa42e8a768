import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SqliteMemoryProvider } from '../src/index.js';
import { useTempDatabase } from './helpers.js';

async function seedSpaces(memory: SqliteMemoryProvider, spaces: string[]): Promise<void> {
  for (const space of spaces) {
    await memory.store({ space, kind: 'k', content: space, metadata: {} });
  }
}

async function spacesOf(
  memory: SqliteMemoryProvider,
  options: Parameters<SqliteMemoryProvider['query']>[0],
): Promise<string[]> {
  const found = await memory.query({ ...options, order: 'asc' });
  return found.map((m) => m.space);
}

describe('SqliteMemoryProvider.query', () => {
  const db = useTempDatabase();

  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('returns everything, newest first, when no filter is given [claim:mpo-query-empty-patterns]', async () => {
    const memory = await db.open();
    await seedSpaces(memory, ['a', 'b', 'c']);
    expect((await memory.query({})).map((m) => m.space)).toEqual(['c', 'b', 'a']);
  });

  it('answers a prefix or pattern longer than SQLite takes in a LIKE pattern, as every store does [claim:mpo-long-space-filters]', async () => {
    const memory = await db.open();
    await seedSpaces(memory, ['room', 'x'.repeat(500)]);
    // SQLite refuses a LIKE or GLOB pattern over 50,000 bytes as "too complex".
    const long = 'x'.repeat(60_000);
    expect(await spacesOf(memory, { spacePrefix: long })).toEqual([]);
    expect(await spacesOf(memory, { spacePatterns: [long] })).toEqual([]);
    expect(await spacesOf(memory, { space: 'room', spacePrefix: long })).toEqual(['room']);
    expect(await spacesOf(memory, { spacePatterns: ['*'.repeat(60_000)] })).toEqual([
      'room',
      'x'.repeat(500),
    ]);
  });

  it('takes a limit past Number.MAX_SAFE_INTEGER as no limit [claim:mpo-query-limit]', async () => {
    const memory = await db.open();
    await seedSpaces(memory, ['a', 'b']);
    expect(await spacesOf(memory, { limit: 1e300 })).toEqual(['a', 'b']);
  });

  it('filters by exact space [claim:mpo-query-space]', async () => {
    const memory = await db.open();
    await seedSpaces(memory, ['room', 'room-1', 'ROOM', 'room']);
    expect(await spacesOf(memory, { space: 'room' })).toEqual(['room', 'room']);
    expect(await spacesOf(memory, { space: 'nope' })).toEqual([]);
  });

  it('filters by space prefix, case-sensitively [claim:sp-prefix-plain] [claim:mpo-query-prefix] [claim:mpo-query-case] [claim:sqlite-space-filters] [claim:sp-case-sensitive] [claim:wp-prefix-plain]', async () => {
    const memory = await db.open();
    await seedSpaces(memory, [
      'chat-room-42',
      'chat-room-42-user-7',
      'chat-room-420',
      'CHAT-room-42',
      'chat',
    ]);
    expect(await spacesOf(memory, { spacePrefix: 'chat-room-42' })).toEqual([
      'chat-room-42',
      'chat-room-42-user-7',
      'chat-room-420',
    ]);
    expect(await spacesOf(memory, { spacePrefix: '' })).toHaveLength(5);
    // Exact ids and patterns are case-sensitive too.
    expect(await spacesOf(memory, { space: 'chat-room-42' })).toEqual(['chat-room-42']);
    expect(await spacesOf(memory, { spacePatterns: ['chat-room-42*'] })).toEqual([
      'chat-room-42',
      'chat-room-42-user-7',
      'chat-room-420',
    ]);
  });

  it('treats %, _ and \\ in a prefix literally [claim:sp-prefix-plain] [claim:sqlite-space-filters]', async () => {
    const memory = await db.open();
    await seedSpaces(memory, ['a_b', 'axb', 'a_b-c', 'a%b', 'aZZb', 'a\\b', 'a\\\\b']);
    expect(await spacesOf(memory, { spacePrefix: 'a_b' })).toEqual(['a_b', 'a_b-c']);
    expect(await spacesOf(memory, { spacePrefix: 'a%' })).toEqual(['a%b']);
    expect(await spacesOf(memory, { spacePrefix: 'a\\b' })).toEqual(['a\\b']);
    expect(await spacesOf(memory, { spacePrefix: 'a\\' })).toEqual(['a\\b', 'a\\\\b']);
  });

  it('matches space patterns with * as any run of characters and everything else literal [claim:sp-patterns] [claim:sqlite-space-filters]', async () => {
    const memory = await db.open();
    await seedSpaces(memory, [
      'chat-room-42',
      'chat-room-42-user-7',
      'chat-room-43',
      'chat-room-42-bot',
      'Chat-room-42',
      'a_b',
      'axb',
      'a%b',
      'a?b',
      'a[b]',
      'ab',
      'a\\b',
      'A\\b',
    ]);
    expect(await spacesOf(memory, { spacePatterns: ['chat-room-42*'] })).toEqual([
      'chat-room-42',
      'chat-room-42-user-7',
      'chat-room-42-bot',
    ]);
    expect(await spacesOf(memory, { spacePatterns: ['chat-room-*-user-*'] })).toEqual([
      'chat-room-42-user-7',
    ]);
    expect(await spacesOf(memory, { spacePatterns: ['*-bot'] })).toEqual(['chat-room-42-bot']);
    expect(await spacesOf(memory, { spacePatterns: ['chat-room-42'] })).toEqual(['chat-room-42']);
    expect(await spacesOf(memory, { spacePatterns: ['a_b'] })).toEqual(['a_b']);
    expect(await spacesOf(memory, { spacePatterns: ['a%b'] })).toEqual(['a%b']);
    expect(await spacesOf(memory, { spacePatterns: ['a?b'] })).toEqual(['a?b']);
    expect(await spacesOf(memory, { spacePatterns: ['a[b]'] })).toEqual(['a[b]']);
    expect(await spacesOf(memory, { spacePatterns: ['a\\b'] })).toEqual(['a\\b']);
    expect(await spacesOf(memory, { spacePatterns: ['a*b'] })).toEqual([
      'a_b',
      'axb',
      'a%b',
      'a?b',
      'ab',
      'a\\b',
    ]);
    expect(await spacesOf(memory, { spacePatterns: ['*'] })).toHaveLength(13);
    expect(await spacesOf(memory, { spacePatterns: ['chat-room-43', 'ab'] })).toEqual([
      'chat-room-43',
      'ab',
    ]);
  });

  it('answers a prefix or pattern longer than SQLite lets a LIKE pattern be, instead of failing the query [claim:sqlite-space-filters]', async () => {
    const memory = await db.open();
    const long = 'x'.repeat(500);
    await seedSpaces(memory, ['room-1', long, 'room-2']);
    // Past 50,000 bytes SQLite fails a LIKE or GLOB with "LIKE or GLOB pattern too complex".
    const huge = 'room-'.repeat(12_000);
    expect(await spacesOf(memory, { spacePrefix: huge })).toEqual([]);
    expect(await spacesOf(memory, { spacePatterns: [huge] })).toEqual([]);
    expect(await spacesOf(memory, { spacePatterns: [`${huge}*`, 'room-1'] })).toEqual(['room-1']);
    expect(await spacesOf(memory, { space: 'room-2', spacePrefix: huge })).toEqual(['room-2']);
    // A run of stars is one star, however long.
    expect(await spacesOf(memory, { spacePatterns: ['*'.repeat(60_000)] })).toEqual([
      'room-1',
      long,
      'room-2',
    ]);
    expect(await spacesOf(memory, { spacePatterns: [`room${'*'.repeat(60_000)}2`] })).toEqual([
      'room-2',
    ]);
    // The longest space the contract allows still matches as its own prefix and pattern.
    expect(await spacesOf(memory, { spacePrefix: long })).toEqual([long]);
    expect(await spacesOf(memory, { spacePatterns: [long] })).toEqual([long]);
  });

  it('matches nothing for an empty pattern list that is the only space filter [claim:mpo-query-empty-patterns] [claim:sqlite-and-or]', async () => {
    const memory = await db.open();
    await seedSpaces(memory, ['a', 'b']);
    expect(await spacesOf(memory, { spacePatterns: [] })).toEqual([]);
    expect(await spacesOf(memory, { space: 'a', spacePatterns: [] })).toEqual(['a']);
  });

  it('ORs the space filters together [claim:sp-query-filters] [claim:mpo-query-or] [claim:sqlite-and-or]', async () => {
    const memory = await db.open();
    await seedSpaces(memory, ['x', 'p-1', 'p-2', 'q-1', 'r']);
    expect(
      await spacesOf(memory, { space: 'x', spacePrefix: 'p-', spacePatterns: ['q*'] }),
    ).toEqual(['x', 'p-1', 'p-2', 'q-1']);
  });

  it('filters by kind and task, ANDed with the space filters [claim:sp-query-filters] [claim:mpo-query-kind-task] [claim:mpo-query-and] [claim:sqlite-and-or]', async () => {
    const memory = await db.open();
    const rows: [string, string, string | undefined][] = [
      ['room', 'trigger', 't1'],
      ['room', 'chain', 't1'],
      ['room', 'chain', 't2'],
      ['room-1', 'chain', 't1'],
      ['other', 'chain', 't1'],
      ['room', 'chain', undefined],
    ];
    for (const [space, kind, taskId] of rows) {
      await memory.store({
        space,
        kind,
        taskId,
        content: `${space}/${kind}/${taskId}`,
        metadata: {},
      });
    }
    const contents = async (options: Parameters<typeof memory.query>[0]): Promise<unknown[]> =>
      (await memory.query({ ...options, order: 'asc' })).map((m) => m.content);

    expect(await contents({ kind: 'trigger' })).toEqual(['room/trigger/t1']);
    expect(await contents({ taskId: 't2' })).toEqual(['room/chain/t2']);
    expect(await contents({ spacePrefix: 'room', kind: 'chain', taskId: 't1' })).toEqual([
      'room/chain/t1',
      'room-1/chain/t1',
    ]);
    expect(
      await contents({ space: 'room', spacePatterns: ['oth*'], kind: 'chain', taskId: 't1' }),
    ).toEqual(['room/chain/t1', 'other/chain/t1']);
    expect(await contents({ kind: 'missing' })).toEqual([]);
  });

  it('filters by since (inclusive) and until (exclusive), ANDed with the space filters [claim:sqlite-and-or] [claim:mpo-query-since-until] [claim:sp-query-filters]', async () => {
    const memory = await db.open();
    const base = Date.UTC(2030, 0, 1);
    const now = vi.spyOn(Date, 'now');
    for (const offset of [0, 1000, 2000, 3000]) {
      now.mockReturnValue(base + offset);
      await memory.store({ space: 's', kind: 'k', content: offset, metadata: {} });
    }
    now.mockRestore();
    const contents = async (options: Parameters<typeof memory.query>[0]): Promise<unknown[]> =>
      (await memory.query({ ...options, order: 'asc' })).map((m) => m.content);

    expect(await contents({ since: new Date(base + 1000) })).toEqual([1000, 2000, 3000]);
    expect(await contents({ until: new Date(base + 2000) })).toEqual([0, 1000]);
    expect(await contents({ since: new Date(base + 1000), until: new Date(base + 3000) })).toEqual([
      1000, 2000,
    ]);
    expect(await contents({ since: new Date(base + 500), until: new Date(base + 900) })).toEqual(
      [],
    );
    // A space filter that every memory matches narrows nothing: the times must match as well.
    expect(await contents({ space: 's', until: new Date(base + 1000) })).toEqual([0]);
    expect(
      await contents({ spacePrefix: 's', spacePatterns: ['*'], since: new Date(base + 3000) }),
    ).toEqual([3000]);
    const [first] = await memory.query({ order: 'asc', limit: 1 });
    expect(first?.createdAt).toEqual(new Date(base));
  });

  it('orders by creation time in either direction [claim:sqlite-order-limit]', async () => {
    const memory = await db.open();
    await seedSpaces(memory, ['1', '2', '3']);
    expect((await memory.query({ order: 'asc' })).map((m) => m.space)).toEqual(['1', '2', '3']);
    expect((await memory.query({ order: 'desc' })).map((m) => m.space)).toEqual(['3', '2', '1']);
  });

  it('breaks timestamp ties by insertion order [claim:mpo-query-order] [claim:sqlite-order-limit]', async () => {
    const memory = await db.open();
    const other = await db.open({ id: 'other' });
    vi.spyOn(Date, 'now').mockReturnValue(Date.UTC(2030, 0, 1));
    // Two instances with independent clocks store at the very same millisecond.
    await memory.store({ space: 's', kind: 'k', content: 1, taskId: 'T', metadata: {} });
    await other.store({ space: 't', kind: 'k', content: 2, taskId: 'T', metadata: {} });
    await memory.store({ space: 's', kind: 'k', content: 3, taskId: 'T', metadata: {} });
    await other.store({ space: 't', kind: 'k', content: 4, taskId: 'T', metadata: {} });
    const asc = (await memory.query({ order: 'asc' })).map((m) => m.content);
    expect(asc).toEqual([1, 2, 3, 4]);
    const desc = (await other.query({})).map((m) => m.content);
    expect(desc).toEqual([4, 3, 2, 1]);
    // Filters SQLite answers through another index, or by sorting rows itself, keep the order.
    const byTask = (await memory.query({ taskId: 'T' })).map((m) => m.content);
    expect(byTask).toEqual([4, 3, 2, 1]);
    const byPatterns = await memory.query({ spacePatterns: ['s', 't'], order: 'asc' });
    expect(byPatterns.map((m) => m.content)).toEqual([1, 2, 3, 4]);
  });

  it('applies limit after ordering, defaulting to 100 [claim:mpo-query-limit] [claim:sqlite-order-limit] [claim:mpo-query-order-default]', async () => {
    const memory = await db.open();
    for (let i = 0; i < 120; i++) {
      await memory.store({ space: 's', kind: 'k', content: i, metadata: {} });
    }
    const byDefault = await memory.query({});
    expect(byDefault).toHaveLength(100);
    expect(byDefault[0]?.content).toBe(119);
    expect((await memory.query({ limit: 3 })).map((m) => m.content)).toEqual([119, 118, 117]);
    expect((await memory.query({ limit: 3, order: 'asc' })).map((m) => m.content)).toEqual([
      0, 1, 2,
    ]);
    expect(await memory.query({ limit: 1000 })).toHaveLength(120);
  });

  it('rejects a limit that is not a positive integer, naming it [claim:sqlite-order-limit]', async () => {
    const memory = await db.open();
    for (const limit of [
      0,
      -1,
      1.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '5' as unknown as number,
    ]) {
      await expect(memory.query({ limit })).rejects.toThrow(/"limit"/);
    }
  });

  it('rejects other invalid options, naming them', async () => {
    const memory = await db.open();
    await expect(memory.query({ order: 'sideways' as 'asc' })).rejects.toThrow(/"order"/);
    await expect(memory.query({ since: new Date('nope') })).rejects.toThrow(/"since"/);
    await expect(memory.query({ until: 12 as unknown as Date })).rejects.toThrow(/"until"/);
    await expect(memory.query({ space: 1 as unknown as string })).rejects.toThrow(/"space"/);
    await expect(memory.query({ spacePatterns: 'a*' as unknown as string[] })).rejects.toThrow(
      /"spacePatterns"/,
    );
  });

  it('never lets filter values reach the SQL text [claim:mpo-sqlite-bound]', async () => {
    const memory = await db.open();
    await seedSpaces(memory, ["x' OR 1=1 --", 'y']);
    expect(await spacesOf(memory, { space: "x' OR 1=1 --" })).toEqual(["x' OR 1=1 --"]);
    expect(await spacesOf(memory, { spacePrefix: "' OR 1=1 --" })).toEqual([]);
    expect(await spacesOf(memory, { spacePatterns: ["*' OR '1'='1"] })).toEqual([]);
    expect(await spacesOf(memory, {})).toHaveLength(2);
  });

  it('prepares no statement holding a value of a memory or a query: every value is a bound parameter [claim:mpo-sqlite-bound]', async () => {
    const prepared: string[] = [];
    const prepare = Database.prototype.prepare;
    vi.spyOn(Database.prototype, 'prepare').mockImplementation(function (
      this: Database.Database,
      source: string,
    ) {
      prepared.push(source);
      return prepare.call(this, source);
    });
    const exec = vi.spyOn(Database.prototype, 'exec');
    const memory = await db.open();
    const stored = await memory.store({
      space: 'zq-space',
      kind: 'zq-kind',
      content: { text: 'zq-content' },
      taskId: 'zq-task',
      metadata: { tag: 'zq-meta' },
    });
    const since = new Date(stored.createdAt.getTime() - 1);
    const until = new Date(stored.createdAt.getTime() + 1);
    const found = await memory.query({
      space: 'zq-space',
      spacePrefix: 'zq-sp',
      spacePatterns: ['zq-*'],
      kind: 'zq-kind',
      taskId: 'zq-task',
      since,
      until,
      limit: 7,
      order: 'asc',
    });
    expect(found.map((each) => each.id)).toEqual([stored.id]);
    await memory.update(stored.id, { content: 'zq-updated', metadata: { tag: 'zq-meta-2' } });
    expect(await memory.remove(stored.id)).toBe(true);
    expect(await memory.clear('zq-space')).toBe(0);
    const values = [stored.id, 'zq-', String(since.getTime()), String(until.getTime())];
    const statements = [...prepared, ...exec.mock.calls.map(([source]) => source)];
    expect(statements.length).toBeGreaterThan(0);
    for (const source of statements) {
      for (const value of values) expect(source).not.toContain(value);
      expect(source).not.toMatch(/LIMIT \d/);
    }
  });
});
