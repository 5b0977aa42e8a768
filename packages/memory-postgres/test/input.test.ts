import { randomUUID } from 'node:crypto';
import { MAX_MEMORY_JSON_DEPTH, WeftError } from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';
import { describe, expect, it } from 'vitest';
import { useServer } from './helpers.js';

const db = useServer();

async function codeOf(action: () => Promise<unknown>): Promise<string> {
  try {
    await action();
  } catch (error) {
    if (WeftError.is(error)) return (error as WeftError<string>).code;
    throw error;
  }
  throw new Error('expected an error');
}

const note = { space: 'room', kind: 'note', content: 'ok', metadata: {} };

describe('PostgresMemoryProvider: after shutdown()', () => {
  it('refuses every operation with WEFT_POSTGRES_NOT_OPEN, saying to call init() [claim:pg-readme-not-open]', async () => {
    const memory = await db.open();
    const stored = await memory.store(note);
    await memory.shutdown();
    const calls = [
      () => memory.store(note),
      () => memory.query({}),
      () => memory.update(stored.id, { content: 'again' }),
      () => memory.remove(stored.id),
      () => memory.clear(),
    ];
    for (const call of calls) expect(await codeOf(call)).toBe('WEFT_POSTGRES_NOT_OPEN');
    expect(await memory.checkHealth()).toBe(false);
  });
});

describe('PostgresMemoryProvider: hostile input', () => {
  it('refuses content and metadata nested deeper than MAX_MEMORY_JSON_DEPTH with WEFT_MEMORY_INVALID, sending nothing, and stores and reads back content exactly that deep [claim:pg-json-depth]', async () => {
    const memory = await db.open();
    // `levels` objects, one inside the other.
    const nested = (levels: number): Record<string, unknown> => {
      let value: Record<string, unknown> = { leaf: true };
      for (let level = 1; level < levels; level += 1) value = { a: value };
      return value;
    };
    for (const deep of [nested(MAX_MEMORY_JSON_DEPTH + 1), nested(100_000)]) {
      for (const input of [
        { ...note, content: deep },
        { ...note, metadata: deep },
      ]) {
        await expect(memory.store(input)).rejects.toMatchObject({
          code: 'WEFT_MEMORY_INVALID',
          message: expect.stringContaining(
            'deeper than the limit of 100 levels (MAX_MEMORY_JSON_DEPTH)',
          ),
        });
      }
    }
    const stored = await memory.store(note);
    await expect(
      memory.update(stored.id, { content: nested(MAX_MEMORY_JSON_DEPTH + 1) }),
    ).rejects.toMatchObject({ code: 'WEFT_MEMORY_INVALID' });
    expect((await memory.query({})).map((m) => m.content)).toEqual(['ok']);
    const deepest = await memory.store({
      ...note,
      content: nested(MAX_MEMORY_JSON_DEPTH),
      metadata: nested(MAX_MEMORY_JSON_DEPTH),
    });
    const [read] = await memory.query({ limit: 1 });
    expect(read?.id).toBe(deepest.id);
    expect(read?.content).toEqual(nested(MAX_MEMORY_JSON_DEPTH));
    expect(read?.metadata).toEqual(nested(MAX_MEMORY_JSON_DEPTH));
  });

  it('refuses text PostgreSQL cannot hold with WEFT_MEMORY_INVALID, naming the field, and writes nothing [claim:mpo-unstorable] [claim:mpo-pg-refused-text] [claim:pg-refused-text] [claim:pg-surrogate] [claim:pg-memory-invalid] [claim:tsdoc-postgres-store-invalid]', async () => {
    const memory = await db.open();
    const bad: [string, Parameters<typeof memory.store>[0], RegExp][] = [
      ['a NUL in the space', { ...note, space: 'room\0' }, /"space" contains a NUL/],
      ['a NUL in the kind', { ...note, kind: 'no\0te' }, /"kind" .*contains a NUL/],
      ['a NUL in the task id', { ...note, taskId: 't\0' }, /"taskId" .*contains a NUL/],
      ['a lone surrogate in the space', { ...note, space: 'room-\uD800' }, /lone UTF-16 surrogate/],
      ['a NUL in content', { ...note, content: { text: 'a\0b' } }, /key "text" contains a NUL/],
      ['a NUL in a key', { ...note, content: { ['k\0']: 1 } }, /a key contains a NUL/],
      ['a lone surrogate in metadata', { ...note, metadata: { m: '\uDC00' } }, /surrogate/],
    ];
    for (const [what, memoryIn, message] of bad) {
      const failure = await memory.store(memoryIn).catch((error: unknown) => error);
      expect(WeftError.is(failure, 'WEFT_MEMORY_INVALID'), what).toBe(true);
      expect((failure as Error).message, what).toMatch(message);
    }
    expect(await memory.query({})).toEqual([]);
  });

  it('keeps content and metadata in the form JSON.stringify gives them: NaN and Infinity as null, a Date as its ISO string, an undefined key left out [claim:pg-json-form]', async () => {
    const memory = await db.open();
    const stored = await memory.store({
      ...note,
      content: { n: Number.NaN, i: Number.POSITIVE_INFINITY, d: new Date(0), u: undefined },
      metadata: { m: Number.NaN, gone: undefined },
    });
    const [read] = await memory.query({});
    for (const each of [stored, read]) {
      expect(each?.content).toStrictEqual({ n: null, i: null, d: '1970-01-01T00:00:00.000Z' });
      expect(each?.metadata).toStrictEqual({ m: null });
    }
    const updated = await memory.update(stored.id, { content: Number.NaN });
    expect(updated.content).toBeNull();
  });

  it('refuses memories and patches that break the memory contract with WEFT_MEMORY_INVALID, and takes a null taskId or metadata as none [claim:pg-memory-invalid]', async () => {
    const memory = await db.open();
    type StoreInput = Parameters<typeof memory.store>[0];
    const refused: [string, unknown][] = [
      ['an array', [note]],
      ['null', null],
      ['an empty space', { ...note, space: '' }],
      ['a numeric kind', { ...note, kind: 7 }],
      ['a numeric taskId', { ...note, taskId: 7 }],
      ['a space of 501 code units', { ...note, space: 'x'.repeat(501) }],
      ['a kind of 501 code units', { ...note, kind: 'x'.repeat(501) }],
      ['a taskId of 501 code units', { ...note, taskId: 'x'.repeat(501) }],
      ['content undefined', { ...note, content: undefined }],
      ['a BigInt in content', { ...note, content: { n: 1n } }],
      ['a BigInt in metadata', { ...note, metadata: { n: 1n } }],
      ['array metadata', { ...note, metadata: [] }],
    ];
    for (const [what, input] of refused) {
      expect(await codeOf(() => memory.store(input as StoreInput)), what).toBe(
        'WEFT_MEMORY_INVALID',
      );
    }
    expect(await memory.query({})).toEqual([]);
    const kept = await memory.store({
      ...note,
      space: 'x'.repeat(500),
      taskId: null as unknown as string,
      metadata: null as unknown as Record<string, unknown>,
    });
    expect(kept.taskId).toBeUndefined();
    expect(kept.metadata).toEqual({});
    for (const patch of [[], null, { metadata: null }, { metadata: { n: 1n } }]) {
      expect(
        await codeOf(() => memory.update(kept.id, patch as Parameters<typeof memory.update>[1])),
        JSON.stringify(patch, (_, value: unknown) =>
          typeof value === 'bigint' ? `${value}n` : value,
        ),
      ).toBe('WEFT_MEMORY_INVALID');
    }
    expect(await memory.query({})).toEqual([kept]);
  });

  it('keeps spaces that differ only in characters PostgreSQL could mangle apart [claim:pg-refused-text] [claim:pg-literal-wildcards] [claim:pg-surrogate]', async () => {
    const memory = await db.open();
    // Surrogate pairs, combining marks and look-alikes each stay their own space.
    const spaces = [
      'room-😀',
      'room-😁',
      'café',
      'cafe\u0301',
      'ROOM',
      'room',
      'room%',
      'room_',
      'room\\',
    ];
    for (const space of spaces) await memory.store({ ...note, space, content: space });
    for (const space of spaces) {
      expect((await memory.query({ space })).map((each) => each.content)).toEqual([space]);
    }
    expect((await memory.query({ spacePrefix: 'room' })).length).toBe(6);
    expect((await memory.query({ spacePatterns: ['room_'] })).map((m) => m.space)).toEqual([
      'room_',
    ]);
    // A backslash is literal too, not LIKE's escape character.
    expect((await memory.query({ spacePatterns: ['room\\*'] })).map((m) => m.space)).toEqual([
      'room\\',
    ]);
    expect((await memory.query({ spacePrefix: 'room\\' })).map((m) => m.space)).toEqual(['room\\']);
  });

  it('sends a character a database of another encoding than UTF8 has no equivalent for, and passes PostgreSQL’s error on [claim:pg-non-utf8-database] [claim:mpo-pg-non-utf8]', async () => {
    const name = `latin1_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await db.sql(
      `CREATE DATABASE ${name} ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0`,
    );
    const url = new URL(db.url());
    url.pathname = `/${name}`;
    const memory = await db.open({ connectionString: url.toString() });
    // A character LATIN1 has: stored and read back unchanged.
    const kept = await memory.store({ ...note, space: 'café', content: 'crème' });
    expect((await memory.query({ space: 'café' })).map((each) => each.content)).toEqual(['crème']);
    const failure = await memory
      .store({ ...note, space: 'room-😀' })
      .catch((error: unknown) => error);
    expect(WeftError.is(failure)).toBe(false);
    expect(failure).toMatchObject({ code: '22P05' });
    expect((failure as Error).message).toMatch(/has no equivalent in encoding "LATIN1"/);
    expect(await memory.query({})).toEqual([kept]);
    // The store the page compares it with keeps the same memory.
    const inMemory = new InMemoryMemoryProvider();
    expect((await inMemory.store({ ...note, space: 'room-😀' })).space).toBe('room-😀');
  });

  it('answers unknown and malformed ids as not found, and bad arguments with clear codes [claim:pg-invalid-argument] [claim:pg-readme-not-found] [claim:tsdoc-postgres-arguments] [claim:tsdoc-postgres-remove] [claim:tsdoc-postgres-update-not-found]', async () => {
    const memory = await db.open();
    const stored = await memory.store(note);
    for (const id of ['', 'x', "'; DROP TABLE weft_memories; --", stored.id.toUpperCase()]) {
      expect(await codeOf(() => memory.update(id, { content: 1 }))).toBe('WEFT_MEMORY_NOT_FOUND');
      expect(await memory.remove(id)).toBe(false);
    }
    expect(await codeOf(() => memory.update(42 as unknown as string, {}))).toBe(
      'WEFT_INVALID_ARGUMENT',
    );
    expect(await codeOf(() => memory.remove({} as unknown as string))).toBe(
      'WEFT_INVALID_ARGUMENT',
    );
    expect(await codeOf(() => memory.clear(7 as unknown as string))).toBe('WEFT_INVALID_ARGUMENT');
    expect(await memory.clear('room\0')).toBe(0);
    expect(await memory.query({})).toEqual([stored]);
  });

  it('refuses query options of the wrong type, with unstorable text or of an unknown name with WEFT_MEMORY_INVALID_QUERY [claim:pg-invalid-query] [claim:tsdoc-postgres-query]', async () => {
    const memory = await db.open();
    const bad: [Parameters<typeof memory.query>[0], RegExp][] = [
      [{ limit: 0 }, /"limit" must be a positive integer/],
      [{ order: 'sideways' as 'asc' }, /"order"/],
      [{ space: 3 as unknown as string }, /"space" must be a string/],
      [{ spacePatterns: 'room*' as unknown as string[] }, /"spacePatterns" must be an array/],
      [{ since: new Date(Number.NaN) }, /"since" must be a valid Date/],
      [{ kind: 'a\0' }, /"kind" contains a NUL/],
      [{ spacePatterns: ['\uD800*'] }, /"spacePatterns\[0\]" contains a lone/],
      [null as unknown as Parameters<typeof memory.query>[0], /needs an options object/],
      [{ spacePatterns: Array.from({ length: 101 }, () => 'a*') }, /at most 100 patterns/],
      [
        { spacePatern: ['room*'] } as Parameters<typeof memory.query>[0],
        /"spacePatern" is not an option/,
      ],
    ];
    for (const [options, message] of bad) {
      const failure = await memory.query(options).catch((error: unknown) => error);
      expect(WeftError.is(failure, 'WEFT_MEMORY_INVALID_QUERY')).toBe(true);
      expect((failure as Error).message).toMatch(message);
    }
  });

  it('gives strictly increasing createdAt to a burst of stores, and same-instant ties go by insertion [claim:pg-same-instant]', async () => {
    const memory = await db.open();
    const burst = [];
    for (let index = 0; index < 50; index += 1)
      burst.push(await memory.store({ ...note, content: index }));
    const times = burst.map((each) => each.createdAt.getTime());
    expect(times.every((time, index) => index === 0 || time > times[index - 1]!)).toBe(true);
    // Two instances may store in the same millisecond: the later insert is the newer memory.
    const instant = new Date(Date.now() + 60_000);
    await db.sql(
      `INSERT INTO "${memory.schema}".weft_memories (id, space, kind, content, metadata, created_at)
       VALUES (gen_random_uuid(), 'tie', 'first', '1', '{}', $1),
              (gen_random_uuid(), 'tie', 'second', '2', '{}', $1)`,
      [instant],
    );
    expect((await memory.query({ space: 'tie' })).map((each) => each.kind)).toEqual([
      'second',
      'first',
    ]);
    expect((await memory.query({ space: 'tie', order: 'asc' })).map((each) => each.kind)).toEqual([
      'first',
      'second',
    ]);
  });
  it('starts the clock of a reopened schema after its newest memory, so what is stored after a restart is the newest [claim:mpo-clock-after-newest] [claim:pg-clock-after-newest]', async () => {
    const first = await db.open();
    await first.store(note);
    // As a burst of stores leaves it: the newest memory a minute ahead of the clock.
    const ahead = Date.now() + 60_000;
    await db.sql(
      `INSERT INTO "${first.schema}".weft_memories (id, space, kind, content, metadata, created_at)
       VALUES (gen_random_uuid(), 'room', 'ahead', '1', '{}', $1)`,
      [new Date(ahead)],
    );
    await first.shutdown();
    const second = await db.open({ schema: first.schema });
    const after = await second.store({ ...note, kind: 'after' });
    expect(after.createdAt.getTime()).toBe(ahead + 1);
    expect((await second.query({ space: 'room', limit: 1 })).map((each) => each.kind)).toEqual([
      'after',
    ]);
  });

  it('answers a prefix or pattern longer than any space as matching nothing, as every store does, and any positive limit [claim:mpo-long-space-filters] [claim:mpo-query-limit]', async () => {
    const memory = await db.open();
    await memory.store(note);
    const long = 'x'.repeat(60_000);
    expect(await memory.query({ spacePrefix: long })).toEqual([]);
    expect(await memory.query({ spacePatterns: [long] })).toEqual([]);
    expect((await memory.query({ space: 'room', spacePrefix: long })).length).toBe(1);
    expect((await memory.query({ spacePatterns: ['*'.repeat(60_000)] })).length).toBe(1);
    expect((await memory.query({ limit: 1e300 })).length).toBe(1);
  });

  it("gives object keys back in jsonb's order, not the order they were written in [claim:mpo-pg-jsonb-key-order] [claim:pg-jsonb-order]", async () => {
    const memory = await db.open();
    const stored = await memory.store({
      ...note,
      content: { zebra: 1, ant: 2, b: 3 },
      metadata: { later: true, a: 1 },
    });
    const [read] = await memory.query({ space: 'room' });
    for (const each of [stored, read]) {
      expect(Object.keys(each?.content as object)).toEqual(['b', 'ant', 'zebra']);
      expect(Object.keys(each?.metadata ?? {})).toEqual(['a', 'later']);
    }
  });
});
