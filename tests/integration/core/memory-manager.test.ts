import { MemoryManager, type AgentTask, type QueryMemoryOptions } from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';
import { describe, expect, it } from 'vitest';

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
