import { describe, expect, it, vi } from 'vitest';
import { useTempDatabase } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('SqliteMemoryProvider: store, update, remove, clear', () => {
  const db = useTempDatabase();

  it('stores a memory and reads it back with the same shape [claim:sqlite-json]', async () => {
    const memory = await db.open();
    const before = Date.now();
    const stored = await memory.store({
      space: 'chat-room-42',
      kind: 'note',
      content: { text: 'hello', tags: ['a', 'b'], n: 1.5, nested: { ok: true, none: null } },
      taskId: 'task-1',
      metadata: { source: 'test' },
    });
    expect(stored.id).toMatch(UUID);
    expect(stored.createdAt).toBeInstanceOf(Date);
    expect(stored.createdAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(stored).toMatchObject({
      space: 'chat-room-42',
      kind: 'note',
      taskId: 'task-1',
      metadata: { source: 'test' },
    });

    const [read] = await memory.query({ space: 'chat-room-42' });
    expect(read).toEqual(stored);
  });

  it('drops an object field holding undefined or a function, as JSON.stringify does, and returns what it reads back [claim:sqlite-json]', async () => {
    const memory = await db.open();
    const when = new Date(Date.UTC(2026, 0, 2));
    const stored = await memory.store({
      space: 'json-form',
      kind: 'k',
      content: { kept: 1, gone: undefined, call: () => 1, list: [undefined, 2], when },
      metadata: { kept: 'yes', gone: undefined },
    });
    // In an array, JSON writes null where it cannot write the item.
    const expected = { kept: 1, list: [null, 2], when: when.toISOString() };
    expect(stored.content).toStrictEqual(expected);
    expect(stored.metadata).toStrictEqual({ kept: 'yes' });
    const [read] = await memory.query({ space: 'json-form' });
    expect(read?.content).toStrictEqual(expected);
    expect(read).toStrictEqual(stored);
  });

  it('omits taskId when none was given and defaults missing metadata to {}', async () => {
    const memory = await db.open();
    const stored = await memory.store({
      space: 's',
      kind: 'k',
      content: 'text',
      metadata: undefined as unknown as Record<string, unknown>,
    });
    expect('taskId' in stored).toBe(false);
    expect(stored.metadata).toEqual({});
    const [read] = await memory.query({});
    expect(read).toEqual(stored);
    expect(read && 'taskId' in read).toBe(false);
  });

  it('round-trips every kind of JSON content [claim:mpo-content-json] [claim:sqlite-json]', async () => {
    const memory = await db.open();
    const values: unknown[] = [
      null,
      0,
      -12.5,
      true,
      false,
      '',
      'ünïcødé 🧵',
      [],
      {},
      [1, [2, [3]]],
    ];
    for (const content of values) {
      await memory.store({ space: 'json', kind: 'value', content, metadata: {} });
    }
    const read = await memory.query({ space: 'json', order: 'asc' });
    expect(read.map((m) => m.content)).toEqual(values);
  });

  it('assigns distinct ids and strictly increasing timestamps within one millisecond [claim:mpo-query-order] [claim:sqlite-monotonic]', async () => {
    const memory = await db.open();
    const stored = [];
    for (let i = 0; i < 50; i++) {
      stored.push(await memory.store({ space: 's', kind: 'k', content: i, metadata: {} }));
    }
    expect(new Set(stored.map((m) => m.id)).size).toBe(50);
    for (let i = 1; i < stored.length; i++) {
      expect(stored[i]!.createdAt.getTime()).toBeGreaterThan(stored[i - 1]!.createdAt.getTime());
    }
    const newestFirst = await memory.query({ space: 's' });
    expect(newestFirst.map((m) => m.content)).toEqual([...Array(50).keys()].reverse());
  });

  it('gives memories stored in one millisecond timestamps one millisecond apart, usable as since/until cursors [claim:sqlite-monotonic]', async () => {
    const memory = await db.open();
    const frozen = Date.UTC(2030, 0, 1);
    vi.spyOn(Date, 'now').mockReturnValue(frozen);
    const stored = [];
    try {
      for (let i = 0; i < 3; i++) {
        stored.push(await memory.store({ space: 'same-ms', kind: 'k', content: i, metadata: {} }));
      }
    } finally {
      vi.restoreAllMocks();
    }
    expect(stored.map((m) => m.createdAt.getTime())).toEqual([frozen, frozen + 1, frozen + 2]);
    const between = await memory.query({
      space: 'same-ms',
      since: stored[1]!.createdAt,
      until: stored[2]!.createdAt,
    });
    expect(between.map((m) => m.content)).toEqual([1]);
  });

  it('starts the clock of a reopened file after its newest memory, so what is stored after a restart is the newest [claim:sqlite-monotonic-restart] [claim:mpo-clock-after-newest]', async () => {
    const frozen = Date.UTC(2030, 0, 1);
    const first = await db.open();
    const burst = [];
    // A burst of stores within one millisecond runs the timestamps ahead of the clock.
    vi.spyOn(Date, 'now').mockReturnValue(frozen);
    try {
      for (let i = 0; i < 5; i++) {
        burst.push(await first.store({ space: 'burst', kind: 'k', content: i, metadata: {} }));
      }
      await first.shutdown();
      const second = await db.open();
      const after = await second.store({
        space: 'burst',
        kind: 'k',
        content: 'after',
        metadata: {},
      });
      expect(after.createdAt.getTime()).toBe(frozen + 5);
      const [newest] = await second.query({ space: 'burst', limit: 1 });
      expect(newest?.id).toBe(after.id);
      const since = await second.query({ space: 'burst', since: after.createdAt });
      expect(since.map((m) => m.content)).toEqual(['after']);
    } finally {
      vi.restoreAllMocks();
    }
    expect(burst.at(-1)!.createdAt.getTime()).toBe(frozen + 4);
  });

  it('updates content, metadata or both, and keeps what the patch omits', async () => {
    const memory = await db.open();
    const stored = await memory.store({
      space: 's',
      kind: 'k',
      content: { v: 1 },
      taskId: 't',
      metadata: { m: 1 },
    });

    const contentOnly = await memory.update(stored.id, { content: { v: 2 } });
    expect(contentOnly).toEqual({ ...stored, content: { v: 2 } });

    const metadataOnly = await memory.update(stored.id, { metadata: { m: 2 } });
    expect(metadataOnly).toEqual({ ...stored, content: { v: 2 }, metadata: { m: 2 } });

    const both = await memory.update(stored.id, { content: null, metadata: {} });
    expect(both).toEqual({ ...stored, content: null, metadata: {} });

    const nothing = await memory.update(stored.id, {});
    expect(nothing).toEqual(both);

    expect(await memory.query({ space: 's' })).toEqual([both]);
  });

  it('rejects updating an unknown id, naming it [claim:mpo-update-unknown] [claim:sqlite-not-found]', async () => {
    const memory = await db.open();
    await expect(memory.update('no-such-id', { content: 1 })).rejects.toThrow(/no-such-id/);
  });

  it('rejects an unserialisable update and leaves the memory unchanged', async () => {
    const memory = await db.open();
    const stored = await memory.store({ space: 's', kind: 'k', content: 'keep', metadata: {} });
    await expect(memory.update(stored.id, { content: 10n })).rejects.toThrow(stored.id);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    await expect(memory.update(stored.id, { metadata: circular })).rejects.toThrow(stored.id);
    expect(await memory.query({})).toEqual([stored]);
  });

  it('removes one memory and reports whether it existed [claim:mpo-remove]', async () => {
    const memory = await db.open();
    const a = await memory.store({ space: 's', kind: 'k', content: 'a', metadata: {} });
    const b = await memory.store({ space: 's', kind: 'k', content: 'b', metadata: {} });
    expect(await memory.remove(a.id)).toBe(true);
    expect(await memory.remove(a.id)).toBe(false);
    expect(await memory.remove('missing')).toBe(false);
    expect(await memory.query({})).toEqual([b]);
  });

  it('clears exactly one space, or everything [claim:mpo-clear]', async () => {
    const memory = await db.open();
    for (const space of ['room', 'room', 'room-user', 'roomy', 'other']) {
      await memory.store({ space, kind: 'k', content: space, metadata: {} });
    }
    expect(await memory.clear('room')).toBe(2);
    expect(await memory.clear('room')).toBe(0);
    const left = await memory.query({ order: 'asc' });
    expect(left.map((m) => m.space)).toEqual(['room-user', 'roomy', 'other']);
    expect(await memory.clear()).toBe(3);
    expect(await memory.query({})).toEqual([]);
  });

  describe('unserialisable content', () => {
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    const cases: [string, unknown][] = [
      ['undefined', undefined],
      ['a BigInt', 12n],
      ['a nested BigInt', { count: 12n }],
      ['a circular structure', circular],
      ['a function', () => 1],
      ['a symbol', Symbol('s')],
    ];
    for (const [name, content] of cases) {
      it(`rejects ${name}, naming the space and kind, and writes nothing [claim:mpo-content-json] [claim:mpo-sqlite-unserialisable] [claim:sqlite-json]`, async () => {
        const memory = await db.open();
        const error = await memory
          .store({ space: 'room-1', kind: 'odd-kind', content, metadata: {} })
          .then(
            () => undefined,
            (reason: unknown) => reason,
          );
        expect(error).toBeInstanceOf(Error);
        expect((error as Error).message).toContain('room-1');
        expect((error as Error).message).toContain('odd-kind');
        expect(await memory.query({})).toEqual([]);
      });
    }

    it('rejects unserialisable or non-object metadata, and writes nothing [claim:sqlite-memory-invalid]', async () => {
      const memory = await db.open();
      await expect(
        memory.store({ space: 'room-1', kind: 'k', content: 1, metadata: { n: 1n } }),
      ).rejects.toThrow(/room-1.*k|k.*room-1/);
      await expect(
        memory.store({
          space: 'room-1',
          kind: 'k',
          content: 1,
          metadata: [1] as unknown as Record<string, unknown>,
        }),
      ).rejects.toThrow(/metadata/);
      expect(await memory.query({})).toEqual([]);
    });
  });

  it('rejects memories without a space or kind', async () => {
    const memory = await db.open();
    await expect(memory.store({ space: '', kind: 'k', content: 1, metadata: {} })).rejects.toThrow(
      /space/,
    );
    await expect(
      memory.store({ space: 's', kind: 3 as unknown as string, content: 1, metadata: {} }),
    ).rejects.toThrow(/kind/);
    expect(await memory.query({})).toEqual([]);
  });
});
