import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Runtime, type MemoryProvider } from '@weft/core';
import { SqliteMemoryProvider } from '@weft/memory-sqlite';
import { ChatPlugin, chatSpace } from '@weft/plugin-chat';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  deleteMemories,
  deleteOlderThan,
  forgetChatUser,
} from './delete-memories.js';

let folder = '';
afterEach(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
  folder = '';
});

const stores: [string, () => Promise<MemoryProvider>][] = [
  ['InMemoryMemoryProvider', async () => new InMemoryMemoryProvider()],
  [
    'SqliteMemoryProvider',
    async () => {
      folder = await mkdtemp(path.join(tmpdir(), 'retention-'));
      return new SqliteMemoryProvider({ path: path.join(folder, 'memory.db') });
    },
  ],
];

/** Runs the chat plugin on `memory` and sends each (room, user) one message. */
async function chat(
  memory: MemoryProvider,
  messages: [room: string, user: string][],
): Promise<void> {
  const runtime = await Runtime.init({
    models: [
      new ScriptedModelProvider({
        fallback: (_messages, request) =>
          request.purpose === 'plan'
            ? { steps: [{ pluginId: 'chat', action: 'reply' }] }
            : 'Noted.',
      }),
    ],
    memory,
    // A test client that names its users itself.
    plugins: [new ChatPlugin({ trustClientUser: true })],
    options: { server: { port: 0 }, logger: pino({ level: 'silent' }) },
  });
  await runtime.start();
  try {
    for (const [room, user] of messages) {
      const response = await fetch(`${runtime.server.url}/chat`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ room, user, message: 'Hello' }),
      });
      expect(response.status).toBe(200);
    }
  } finally {
    await runtime.stop();
  }
}

describe.each(stores)('deleting memories from %s', (_name, open) => {
  it("forgets one chat user in every room, and no one else's memories [claim:prod-forget-user]", async () => {
    const memory = await open();
    // Users and rooms whose ids contain "-user-" and "ada" as well.
    await chat(memory, [
      ['r1', 'ada'],
      ['r2', 'ada'],
      ['r1', 'bob'],
      ['r1', 'ada-user-bob'],
      ['x-user-ada', 'carol'],
    ]);
    await memory.init();
    try {
      expect(await forgetChatUser(memory, 'ada')).toBe(4);
      const left = await memory.query({ order: 'asc' });
      expect([...new Set(left.map((item) => item.space))].sort()).toEqual(
        [
          chatSpace('r1', 'bob').id,
          chatSpace('r1', 'ada-user-bob').id,
          chatSpace('x-user-ada', 'carol').id,
        ].sort(),
      );
      expect(left).toHaveLength(6);
    } finally {
      await memory.shutdown();
    }
  });

  it('deletes memories older than a cutoff in batches, and keeps newer ones [claim:prod-retention-batches]', async () => {
    const memory = await open();
    await memory.init();
    try {
      let last = new Date(0);
      for (let index = 0; index < 5; index += 1) {
        const stored = await memory.store({
          space: `s${index}`,
          kind: 'note',
          content: index,
          metadata: {},
        });
        last = stored.createdAt;
      }
      // Stores keep timestamps unique by moving a clash forward a millisecond,
      // so the cutoff follows the last one stored, and the newer memory waits
      // for the clock to pass it.
      const cutoff = new Date(last.getTime() + 1);
      while (Date.now() <= cutoff.getTime() + 5) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await memory.store({
        space: 's0',
        kind: 'note',
        content: 'new',
        metadata: {},
      });
      expect(await deleteMemories(memory, { until: cutoff }, 2)).toBe(5);
      expect((await memory.query({})).map((item) => item.content)).toEqual([
        'new',
      ]);
      // One hour of retention keeps what was stored a moment ago.
      expect(await deleteOlderThan(memory, 3_600_000)).toBe(0);
    } finally {
      await memory.shutdown();
    }
  });
});

it('stops when nothing it finds can be removed, instead of looping [claim:prod-retention-batches]', async () => {
  class Undeletable extends InMemoryMemoryProvider {
    override async remove(): Promise<boolean> {
      return false;
    }
  }
  const memory = new Undeletable();
  for (let index = 0; index < 3; index += 1) {
    await memory.store({
      space: 's',
      kind: 'note',
      content: index,
      metadata: {},
    });
  }
  expect(await deleteMemories(memory, { space: 's' }, 2)).toBe(0);
});
