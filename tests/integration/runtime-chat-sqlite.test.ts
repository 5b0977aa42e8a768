/**
 * End to end: a Runtime with the chat plugin, a scripted model and SQLite memory, driven over
 * real HTTP with fetch.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Runtime, type Context, type Memory } from '@weft/core';
import { SqliteMemoryProvider } from '@weft/memory-sqlite';
import { ChatPlugin } from '@weft/plugin-chat';
import { ScriptedModelProvider, type ScriptedResponse } from '@weft/testing';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const PLAN = { steps: [{ pluginId: 'chat', action: 'reply' }] };
// The runtime reviews the pipeline after every step by default (options.pipelineReview 'always').
const CONTINUE = { type: 'continue' };

let dir = '';
let runtime: Runtime | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'weft-e2e-'));
});

afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function boot(
  responses: ScriptedResponse[],
  scheduler: { concurrency?: number; maxQueueSize?: number } = {},
  reviewFinalStep = false,
): Promise<{ runtime: Runtime; model: ScriptedModelProvider; memory: SqliteMemoryProvider }> {
  const model = new ScriptedModelProvider({ responses });
  const memory = new SqliteMemoryProvider({ path: join(dir, 'memory.db') });
  runtime = await Runtime.init({
    models: [model],
    memory,
    plugins: [new ChatPlugin({ trustClientUser: true })],
    options: {
      server: { port: 0 },
      scheduler,
      reviewFinalStep,
      logger: pino({ level: 'silent' }),
    },
  });
  await runtime.start();
  return { runtime, model, memory };
}

/** The fields of the chat plugin's JSON answers that these tests read. */
interface ChatAnswer {
  taskId: string;
  status: string;
  reply?: string;
  error?: { status: number; message: string };
}

async function post(target: Runtime, body: unknown): Promise<{ status: number; json: ChatAnswer }> {
  const response = await fetch(`${target.server.url}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as ChatAnswer };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('Runtime end to end with the chat plugin', () => {
  it('answers a chat message over HTTP and remembers the task in its space', async () => {
    const { runtime, model, memory } = await boot([PLAN, 'Hello Ada, welcome to room 42.']);
    expect(runtime.status).toBe('running');
    expect(runtime.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const { status, json } = await post(runtime, {
      room: '42',
      user: 'ada',
      message: 'Hi, is anyone here?',
    });
    expect(status).toBe(200);
    expect(json).toEqual({
      taskId: expect.any(String),
      status: 'completed',
      reply: 'Hello Ada, welcome to room 42.',
    });

    // Planning, then the reply itself: no review follows a successful final step by default.
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]?.at(-1)?.content).toContain('Message: Hi, is anyone here?');
    expect(model.requests[1]?.at(-1)?.content).toContain('Hi, is anyone here?');
    expect(model.remaining).toBe(0);

    const stored = await memory.query({ taskId: json.taskId, order: 'asc' });
    expect(stored.map((entry) => [entry.space, entry.kind])).toEqual([
      ['chat-room-42-user-ada', 'trigger'],
      ['chat-room-42-user-ada', 'chain'],
    ]);
    const [trigger, chain] = stored as [Memory, Memory];
    expect(trigger.content).toEqual({
      pluginId: 'chat',
      action: 'message',
      message: 'Hi, is anyone here?',
      data: { room: '42', user: 'ada' },
    });
    const content = chain.content as { status: string; steps: unknown[]; chain: Context[] };
    expect(content.status).toBe('completed');
    expect(content.steps).toEqual([{ pluginId: 'chat', action: 'reply' }]);
    expect(content.chain.map((entry) => [entry.type, entry.pluginId, entry.action])).toEqual([
      ['trigger', 'chat', 'message'],
      ['result', 'chat', 'reply'],
    ]);
    expect(content.chain[1]?.data).toEqual({ text: 'Hello Ada, welcome to room 42.' });

    // A room's memories, every user's, match the room's patterns.
    const room = await memory.query({ spacePatterns: ['chat-room-42', 'chat-room-42-*'] });
    expect(room).toHaveLength(2);
  });

  it('keeps the memories on disk after the runtime stops [claim:httpchat-restart] [claim:task-crash-leaves-trigger-memory]', async () => {
    const { runtime } = await boot([PLAN, 'Stored.', CONTINUE]);
    const { json } = await post(runtime, { room: 'r1', user: 'u1', message: 'remember me' });
    await runtime.stop();

    const reopened = new SqliteMemoryProvider({ path: join(dir, 'memory.db') });
    await reopened.init();
    try {
      const kinds = (await reopened.query({ space: 'chat-room-r1-user-u1', order: 'asc' })).map(
        (entry) => [entry.kind, entry.taskId],
      );
      expect(kinds).toEqual([
        ['trigger', json.taskId],
        ['chain', json.taskId],
      ]);
    } finally {
      await reopened.shutdown();
    }
  });

  it('plans and reviews a task dispatched without data, message or step reasons [claim:task-review-prompt-contents]', async () => {
    // Regression: liquid's strict mode used to fail planning on a trigger without data, and the
    // review on a result without data; generateText without options failed validation.
    const { runtime, model } = await boot([PLAN, 'Direct.', CONTINUE], {}, true);
    const task = await runtime.dispatch({ pluginId: 'chat', triggerId: 'manual', space: 'direct' });
    expect(task.status).toBe('completed');
    expect(task.chain.at(-1)).toMatchObject({ type: 'result', data: { text: 'Direct.' } });
    const [planning, , review] = model.requests.map((request) => request.at(-1)?.content ?? '');
    expect(planning).toContain('Trigger: chat/manual');
    expect(planning).not.toContain('Data:');
    expect(review).toContain('- trigger from chat/manual: no data');
    expect(review).toContain('- result from chat/reply: {"text":"Direct."}');
  });

  it('answers 400 for a bad body and runs no task', async () => {
    const { runtime, model, memory } = await boot([]);
    const { status, json } = await post(runtime, { room: '42', user: 'ada', message: 7 });
    expect(status).toBe(400);
    expect(json).toEqual({
      error: {
        status: 400,
        code: 'WEFT_CHAT_INVALID_REQUEST',
        message: expect.stringContaining('"message" must be a string'),
        docsUrl: expect.stringMatching(/\/docs\/reference\/errors\/#weft_chat_invalid_request$/),
        requestId: expect.any(String),
      },
    });
    expect(model.requests).toHaveLength(0);
    expect(await memory.query({})).toEqual([]);
  });

  it('answers 503 when the scheduler queue is full [claim:errors-503-sources] [claim:httpchat-row-503] [claim:httpchat-queue-full] [claim:task-queue-full-503] [claim:chat-503]', async () => {
    const gate = deferred();
    const slowPlan: ScriptedResponse = async () => {
      await gate.promise;
      return PLAN;
    };
    const { runtime, model } = await boot([slowPlan, 'first reply', PLAN, 'second reply'], {
      concurrency: 1,
      maxQueueSize: 1,
    });

    // The first task runs (blocked in planning), the second waits: the queue is then full.
    const first = post(runtime, { room: '1', user: 'a', message: 'one' });
    await vi.waitFor(() => expect(model.requests).toHaveLength(1));
    expect(runtime.scheduler.running).toBe(1);
    const second = post(runtime, { room: '2', user: 'b', message: 'two' });
    await vi.waitFor(() => expect(runtime.scheduler.pending).toBe(1));

    const third = await post(runtime, { room: '3', user: 'c', message: 'three' });
    expect(third.status).toBe(503);
    expect(third.json).toEqual({
      error: {
        status: 503,
        code: 'WEFT_QUEUE_FULL',
        message: expect.stringMatching(/queue is full/),
        docsUrl: expect.stringMatching(/\/docs\/reference\/errors\/#weft_queue_full$/),
        requestId: expect.any(String),
      },
    });

    gate.resolve();
    expect((await first).json).toMatchObject({ status: 'completed', reply: 'first reply' });
    expect((await second).json).toMatchObject({ status: 'completed', reply: 'second reply' });
    expect(model.remaining).toBe(0);
  });
});

describe('The chat plugin over SQLite memory, whose LIKE ignores case', () => {
  it('keeps rooms whose ids differ only in case apart, in SQLite too, whose LIKE ignores case [claim:chat-room-ids-exact]', async () => {
    const model = new ScriptedModelProvider({ responses: [PLAN, 'One', PLAN, 'Two'] });
    runtime = await Runtime.init({
      models: [model],
      memory: new SqliteMemoryProvider({ path: join(dir, 'memory.db') }),
      plugins: [
        new ChatPlugin({ trustClientUser: true, roomHistory: 'shared', authorizeRoom: () => true }),
      ],
      options: { server: { port: 0 }, pipelineReview: 'never', logger: pino({ level: 'silent' }) },
    });
    await runtime.start();
    await post(runtime, { room: 'Ops', user: 'ada', message: 'the launch code is 1234' });
    await post(runtime, { room: 'ops', user: 'bob', message: 'anything new?' });
    const bobPlanning = model.requests[2]?.at(-1)?.content ?? '';
    expect(bobPlanning).toContain('Space: chat-room-ops-user-bob');
    expect(bobPlanning).not.toContain('launch code');
    expect(bobPlanning).not.toContain('chat-room-Ops');
  });
});
