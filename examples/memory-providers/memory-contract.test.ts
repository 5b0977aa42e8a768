import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryProvider } from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonFileMemoryProvider } from './json-file-memory.js';
import { createSqliteMemory } from './sqlite-memory.js';

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'weft-memory-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

const providers: [string, () => MemoryProvider][] = [
  ['InMemoryMemoryProvider', () => new InMemoryMemoryProvider()],
  [
    'SqliteMemoryProvider',
    () => createSqliteMemory(join(directory, `memory-${Math.random()}.db`)),
  ],
  [
    'JsonFileMemoryProvider',
    () =>
      new JsonFileMemoryProvider(
        join(directory, `memory-${Math.random()}.json`),
      ),
  ],
];

// The same checks hold for every provider: run them against yours too.
describe.each(providers)('%s', (_name, create) => {
  async function seeded() {
    const memory = create();
    await memory.init();
    for (const space of [
      'team-a',
      'team-a-user-1',
      'team-a-user-2',
      'team-b',
      'TEAM-a',
    ]) {
      await memory.store({
        space,
        kind: 'note',
        content: { space },
        metadata: {},
      });
    }
    await memory.store({
      space: 'team-a-user-1',
      kind: 'chain',
      content: [1, 2],
      taskId: 't-1',
      metadata: { ok: true },
    });
    return memory;
  }
  const spaces = (memories: { space: string }[]) =>
    memories.map((memory) => memory.space);

  it('ORs space filters, ANDs the rest, newest first', async () => {
    const memory = await seeded();
    expect(
      spaces(await memory.query({ spacePrefix: 'team-a', kind: 'note' })),
    ).toEqual(['team-a-user-2', 'team-a-user-1', 'team-a']);
    expect(
      spaces(
        await memory.query({
          space: 'team-b',
          spacePatterns: ['team-a-user-*'],
          kind: 'note',
        }),
      ),
    ).toEqual(['team-b', 'team-a-user-2', 'team-a-user-1']);
    expect(await memory.query({ spacePatterns: [] })).toEqual([]);
    expect(
      spaces(
        await memory.query({ spacePrefix: 'team-a', order: 'asc', limit: 2 }),
      ),
    ).toEqual(['team-a', 'team-a-user-1']);
    const [chain] = await memory.query({ taskId: 't-1' });
    expect(chain).toMatchObject({
      kind: 'chain',
      content: [1, 2],
      metadata: { ok: true },
    });
    await memory.shutdown();
  });

  it('updates, removes and clears one exact space', async () => {
    const memory = await seeded();
    const [latest] = await memory.query({ space: 'team-b' });
    expect(
      (await memory.update(latest!.id, { content: 'edited' })).content,
    ).toBe('edited');
    expect(await memory.remove(latest!.id)).toBe(true);
    expect(await memory.remove(latest!.id)).toBe(false);
    expect(await memory.clear('team-a')).toBe(1); // team-a-user-* are kept
    expect(await memory.query({ spacePrefix: 'team-a' })).toHaveLength(3);
    await expect(memory.update('missing', { content: 1 })).rejects.toThrow(
      'missing',
    );
    await memory.shutdown();
  });
});

describe('durable providers', () => {
  it.each([
    [
      'SqliteMemoryProvider',
      (path: string) => createSqliteMemory(`${path}.db`),
    ],
    [
      'JsonFileMemoryProvider',
      (path: string) => new JsonFileMemoryProvider(`${path}.json`),
    ],
  ] as const)('%s keeps memories across restarts', async (_name, create) => {
    const path = join(directory, 'restart');
    const first = create(path);
    await first.init();
    await first.store({
      space: 'chat-room-1',
      kind: 'note',
      content: 'kept',
      metadata: {},
    });
    await first.shutdown();

    const second = create(path);
    await second.init();
    expect(
      (await second.query({ space: 'chat-room-1' })).map((m) => m.content),
    ).toEqual(['kept']);
    await second.shutdown();
  });
});
