import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MemoryManager,
  type AgentTask,
  type MemoryProvider,
  type QueryMemoryOptions,
} from '@weft/core';
import { SqliteMemoryProvider } from '@weft/memory-sqlite';
import { InMemoryMemoryProvider } from '@weft/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

function sampleTask(overrides: Partial<AgentTask> = {}): AgentTask {
  const trigger = {
    type: 'trigger' as const,
    pluginId: 'chat',
    action: 'message',
    message: 'hello',
    data: { user: 'u1' },
    timestamp: new Date(),
  };
  return {
    id: 'task-1',
    space: { id: 'chat-room-1-user-1' },
    trigger,
    metadata: { requestId: 'r-1' },
    createdAt: new Date(),
    status: 'completed',
    chain: [
      trigger,
      { type: 'result', pluginId: 'chat', action: 'reply', data: 'hi', timestamp: new Date() },
    ],
    steps: [{ pluginId: 'chat', action: 'reply' }],
    recorded: { trigger: true, chain: true },
    ...overrides,
  };
}

async function seeded(): Promise<InMemoryMemoryProvider> {
  const provider = new InMemoryMemoryProvider();
  for (const space of [
    'chat-room-1',
    'chat-room-1-user-1',
    'chat-room-1-user-2',
    'chat-room-2',
    'mail-inbox',
  ]) {
    await provider.store({ space, kind: 'note', content: space, metadata: {} });
  }
  return provider;
}

describe('MemoryManager', () => {
  it('related() queries the space and its relatedSpaces patterns, newest first', async () => {
    const provider = await seeded();
    const queries: QueryMemoryOptions[] = [];
    const query = provider.query.bind(provider);
    provider.query = async (options) => {
      queries.push(options);
      return query(options);
    };
    const memory = new MemoryManager(provider, { relatedLimit: 10 });
    const related = await memory.related({
      id: 'chat-room-1-user-1',
      relatedSpaces: ['chat-room-1', 'mail-*'],
    });
    expect(related.map((stored) => stored.content)).toEqual([
      'mail-inbox',
      'chat-room-1-user-1',
      'chat-room-1',
    ]);
    expect(queries).toEqual([
      {
        space: 'chat-room-1-user-1',
        spacePatterns: ['chat-room-1', 'mail-*'],
        limit: 10,
        order: 'desc',
      },
    ]);
  });

  it('related() without related spaces returns only the space itself, up to the limit', async () => {
    const provider = await seeded();
    await provider.store({ space: 'chat-room-1', kind: 'note', content: 'second', metadata: {} });
    const memory = new MemoryManager(provider, { relatedLimit: 1 });
    expect((await memory.related({ id: 'chat-room-1' })).map((stored) => stored.content)).toEqual([
      'second',
    ]);
    expect(
      (await memory.related({ id: 'chat-room-1' }, 5)).map((stored) => stored.content),
    ).toEqual(['second', 'chat-room-1']);
  });

  it('recordTrigger stores a trigger memory in the task space [claim:sp-stored]', async () => {
    const provider = new InMemoryMemoryProvider();
    const stored = await new MemoryManager(provider).recordTrigger(sampleTask());
    expect(stored).toMatchObject({
      space: 'chat-room-1-user-1',
      kind: 'trigger',
      taskId: 'task-1',
      metadata: { requestId: 'r-1' },
      content: { pluginId: 'chat', action: 'message', message: 'hello', data: { user: 'u1' } },
    });
    expect(await provider.query({ kind: 'trigger' })).toHaveLength(1);
  });

  it('recordChain stores the status, steps and chain [claim:task-records-chain] [claim:sp-stored] [claim:mpm-two-writes]', async () => {
    const provider = new InMemoryMemoryProvider();
    const stored = await new MemoryManager(provider).recordChain(sampleTask({ status: 'failed' }));
    // In the task's space, under its id and with the trigger's metadata, as its trigger memory.
    expect(stored).toMatchObject({
      space: 'chat-room-1-user-1',
      kind: 'chain',
      taskId: 'task-1',
      metadata: { requestId: 'r-1' },
    });
    expect(stored?.content).toMatchObject({
      status: 'failed',
      steps: [{ pluginId: 'chat', action: 'reply' }],
      chain: [
        { type: 'trigger', message: 'hello' },
        { type: 'result', data: 'hi' },
      ],
    });
  });

  it('returns undefined instead of throwing when the store fails [claim:sp-store-failure]', async () => {
    const provider = new InMemoryMemoryProvider();
    provider.store = async () => {
      throw new Error('disk full');
    };
    const memory = new MemoryManager(provider);
    expect(await memory.recordTrigger(sampleTask())).toBeUndefined();
    expect(await memory.recordChain(sampleTask())).toBeUndefined();
  });

  it('passes store, query, update and remove through to the provider', async () => {
    const provider = new InMemoryMemoryProvider();
    const memory = new MemoryManager(provider);
    expect(memory.provider).toBe(provider);
    const stored = await memory.store({
      space: 's',
      kind: 'pref',
      content: { colour: 'red' },
      metadata: {},
    });
    const updated = await memory.update(stored.id, { content: { colour: 'blue' } });
    expect(updated.content).toEqual({ colour: 'blue' });
    expect(
      (await memory.query({ space: 's', kind: 'pref' })).map((found) => found.content),
    ).toEqual([{ colour: 'blue' }]);
    expect(await memory.remove(stored.id)).toBe(true);
    expect(await memory.query({ space: 's' })).toEqual([]);
  });
});

describe('the history of a task that runs again', () => {
  let directory = '';
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'weft-related-rerun-'));
  });
  afterAll(async () => {
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  const STORES = ['in-memory', 'sqlite'] as const;
  let opened = 0;
  /** Opens a fresh store of kind `name` for `use`, and shuts it down when `use` has ended. */
  async function withStore(
    name: (typeof STORES)[number],
    use: (provider: MemoryProvider) => Promise<void>,
  ): Promise<void> {
    opened += 1;
    const provider =
      name === 'in-memory'
        ? new InMemoryMemoryProvider()
        : new SqliteMemoryProvider({ path: join(directory, `related-${opened}.db`) });
    await provider.init();
    try {
      await use(provider);
    } finally {
      await provider.shutdown();
    }
  }

  /** Counts the provider's reads and keeps the limit each asked for. */
  function countReads(provider: MemoryProvider): number[] {
    const limits: number[] = [];
    const query = provider.query.bind(provider);
    provider.query = async (options) => {
      limits.push(options.limit ?? -1);
      return query(options);
    };
    return limits;
  }

  const space = { id: 'chat-room-1-user-1' };
  /** One run of a task, as the runtime records it: its trigger, then (unless cut) its chain. */
  async function run(
    memory: MemoryManager,
    id: string,
    message: string,
    status: AgentTask['status'] | 'running',
  ): Promise<void> {
    const trigger = { ...sampleTask().trigger, message };
    const task = sampleTask({ id, space, trigger, chain: [trigger] });
    await memory.recordTrigger(task);
    if (status !== 'running') await memory.recordChain({ ...task, status });
  }

  /**
   * Two earlier tasks, then task `again`, cut short `cuts` times and now being planned: it
   * holds `2 * cuts + 1` memories of its own, all newer than the earlier tasks'.
   */
  async function seed(memory: MemoryManager, cuts: number): Promise<void> {
    await run(memory, 'older', 'older question', 'completed');
    await run(memory, 'newer', 'newer question', 'completed');
    for (let cut = 0; cut < cuts; cut += 1) await run(memory, 'again', 'ask again', 'cancelled');
    await run(memory, 'again', 'ask again', 'running');
  }

  it.each(STORES)(
    "%s: related() returns as many memories of other tasks as asked, past the task's own from its earlier runs [claim:tsdoc-core-related-own-excluded] [claim:mpm-rerun-reads]",
    (name) =>
      withStore(name, async (provider) => {
        const memory = new MemoryManager(provider);
        await seed(memory, 1);
        for (const limit of [1, 2, 3, 4]) {
          const related = await memory.related(space, limit, 'again');
          expect(related.map((stored) => stored.taskId)).toEqual(
            ['newer', 'newer', 'older', 'older'].slice(0, limit),
          );
        }
        // Asking for more than there are returns them all, still without the task's own.
        expect(await memory.related(space, 10, 'again')).toHaveLength(4);
      }),
  );

  it.each(STORES)(
    '%s: the planning history shows relatedMemories earlier tasks though the task was cut short twice [claim:mpm-rerun-reads] [claim:sp-planner-memories]',
    (name) =>
      withStore(name, async (provider) => {
        await seed(new MemoryManager(provider), 2);
        for (const [relatedLimit, shown] of [
          [1, ['newer question']],
          [2, ['newer question', 'older question']],
        ] as const) {
          const memory = new MemoryManager(provider, { relatedLimit });
          const { memories, text } = await memory.describeRelated(space, 'again');
          expect(memories.every((stored) => stored.taskId !== 'again')).toBe(true);
          expect(text.match(/trigger chat\/message: .*/g)).toEqual(
            shown.map((message) => `trigger chat/message: ${message}`),
          );
        }
      }),
  );

  it.each(STORES)(
    '%s: a task that has not run before is read once, with one row over the limit [claim:mpm-one-read] [claim:tsdoc-core-related-own-excluded]',
    (name) =>
      withStore(name, async (provider) => {
        const memory = new MemoryManager(provider, { relatedLimit: 1 });
        await run(memory, 'older', 'older question', 'completed');
        await run(memory, 'first', 'first question', 'running');
        const limits = countReads(provider);
        const { text } = await memory.describeRelated(space, 'first');
        expect(text).toContain('older question');
        expect(text).not.toContain('first question');
        expect(limits).toEqual([4]);
      }),
  );

  it.each(STORES)(
    '%s: reads the store at most three times however many memories of its own the task holds [claim:mpm-rerun-reads] [claim:tsdoc-core-related-own-excluded]',
    (name) =>
      withStore(name, async (provider) => {
        const memory = new MemoryManager(provider, { relatedLimit: 1 });
        await seed(memory, 1);
        const limits = countReads(provider);
        // The history asks for three rows per entry (4 with the one over): its own three
        // memories leave one other, so it reads again, with room for twice its own.
        expect((await memory.describeRelated(space, 'again')).text).toContain('newer question');
        expect(limits).toEqual([4, 10]);
        // Thirty more cut runs: sixty-three memories of its own, the newest of all.
        for (let cut = 0; cut < 30; cut += 1) await run(memory, 'again', 'ask again', 'cancelled');
        limits.length = 0;
        const { memories } = await memory.describeRelated(space, 'again');
        // Three reads, each larger, all filled by its own: the bound holds, and it is planned
        // without history rather than read on.
        expect(limits).toEqual([4, 12, 28]);
        expect(memories).toEqual([]);
      }),
  );

  it.each(STORES)(
    '%s: shows fewer than relatedMemories entries to a task run once when the earlier tasks each ran twice [claim:mpm-history-fewer-entries]',
    (name) =>
      withStore(name, async (provider) => {
        // Twelve earlier tasks, each cut short once and run again: four memories, one entry each.
        for (let index = 0; index < 12; index += 1) {
          await run(
            new MemoryManager(provider),
            `earlier-${index}`,
            `question ${index}`,
            'cancelled',
          );
          await run(
            new MemoryManager(provider),
            `earlier-${index}`,
            `question ${index}`,
            'completed',
          );
        }
        await run(new MemoryManager(provider), 'first', 'first question', 'running');
        const memory = new MemoryManager(provider, { relatedLimit: 10, relatedChars: 100_000 });
        const limits = countReads(provider);
        const { memories, text } = await memory.describeRelated(space, 'first');
        // One read of thirty-one rows: thirty memories of others, seven whole tasks and half of
        // an eighth, so eight entries though twelve earlier tasks would fit ten.
        expect(limits).toEqual([31]);
        expect(memories).toHaveLength(30);
        const asked = text.match(/trigger chat\/message: question \d+/g) ?? [];
        expect(asked).toEqual(
          [11, 10, 9, 8, 7, 6, 5, 4].map((index) => `trigger chat/message: question ${index}`),
        );
      }),
  );

  it.each(STORES)(
    '%s: shows relatedMemories entries when each earlier task ran once [claim:mpm-history-fewer-entries]',
    (name) =>
      withStore(name, async (provider) => {
        for (let index = 0; index < 12; index += 1) {
          await run(
            new MemoryManager(provider),
            `earlier-${index}`,
            `question ${index}`,
            'completed',
          );
        }
        await run(new MemoryManager(provider), 'first', 'first question', 'running');
        const memory = new MemoryManager(provider, { relatedLimit: 10, relatedChars: 100_000 });
        const { text } = await memory.describeRelated(space, 'first');
        expect(text.match(/trigger chat\/message: question \d+/g)).toHaveLength(10);
      }),
  );
});
