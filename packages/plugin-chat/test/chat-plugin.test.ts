import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { capturingLogger } from '@weft-internal/test-support/capturing-logger';
import {
  Plugin,
  Runtime,
  WeftError,
  type AgentTask,
  type Context,
  type ExecutionContext,
  type Executor,
  type Memory,
} from '@weft/core';
import {
  InMemoryMemoryProvider,
  ScriptedModelProvider,
  type ScriptedResponse,
} from '@weft/testing';
import {
  CHAT_HISTORY_UNAVAILABLE,
  CHAT_REPLY_TEMPLATE,
  ChatPlugin,
  chatReplyExecutor,
  chatSpace,
  findReply,
  NOT_REMEMBERED_WARNING,
  parseChatRequest,
} from '../src/index.js';

const PLAN = { steps: [{ pluginId: 'chat', action: 'reply' }] };
const CONTINUE = { type: 'continue' };

let runtime: Runtime | undefined;

afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
});

async function boot(
  responses: ScriptedResponse[],
  // The tests of the route's answers believe the body's user; chat-access.test.ts covers who
  // the sender is.
  plugin = new ChatPlugin({ trustClientUser: true }),
  memory = new InMemoryMemoryProvider(),
  history: { relatedMemories?: number; relatedMemoryChars?: number } = {},
): Promise<{
  runtime: Runtime;
  model: ScriptedModelProvider;
  memory: InMemoryMemoryProvider;
  logs: Record<string, unknown>[];
}> {
  const model = new ScriptedModelProvider({ responses });
  const { logger, lines: logs } = capturingLogger('info');
  runtime = await Runtime.init({
    models: [model],
    memory,
    plugins: [plugin],
    options: { server: { port: 0 }, logger, ...history },
  });
  await runtime.start();
  return { runtime, model, memory, logs };
}

async function post(
  target: Runtime,
  body: unknown,
  path = '/chat',
): Promise<{
  status: number;
  json: Record<string, unknown>;
  contentType: string | null;
  retryAfter: string | null;
}> {
  const response = await fetch(`${target.server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    json: (await response.json()) as Record<string, unknown>,
    contentType: response.headers.get('content-type'),
    retryAfter: response.headers.get('retry-after'),
  };
}

/** A step `forever` that never ends by itself: the task's deadline ends it. */
const forever: Executor = {
  action: 'forever',
  description: 'Waits until the task is aborted.',
  execute: (_task, context) =>
    new Promise((_resolve, reject) => {
      context.signal?.addEventListener('abort', () => reject(new Error('aborted')));
    }),
};

/** Starts a runtime with the chat plugin and `other`, whose tasks time out after 300 ms. */
async function bootTimingOut(model: ScriptedModelProvider, other: Plugin): Promise<Runtime> {
  runtime = await Runtime.init({
    models: [model],
    memory: new InMemoryMemoryProvider(),
    plugins: [new ChatPlugin({ trustClientUser: true }), other],
    options: { server: { port: 0 }, taskTimeoutMs: 300, logger: capturingLogger('info').logger },
  });
  await runtime.start();
  return runtime;
}

function item(overrides: Partial<Context>): Context {
  return { type: 'result', pluginId: 'chat', action: 'reply', timestamp: new Date(), ...overrides };
}

describe('parseChatRequest', () => {
  it('accepts a valid body and trims the message [claim:httpchat-message] [claim:chat-message-limit]', () => {
    expect(parseChatRequest({ room: '42', user: 'ada', message: '  hi  ' })).toEqual({
      success: true,
      data: { room: '42', user: 'ada', message: 'hi' },
    });
  });

  it('trims Unicode spaces too, so a message of no-break spaces is empty [claim:httpchat-message]', () => {
    expect(parseChatRequest({ room: '42', user: 'ada', message: '\u00a0hi\u3000' })).toEqual({
      success: true,
      data: { room: '42', user: 'ada', message: 'hi' },
    });
    expect(parseChatRequest({ room: '42', user: 'ada', message: '\u00a0\u2003\ufeff' })).toEqual({
      success: false,
      error: 'Invalid chat request: "message" must not be empty.',
    });
  });

  it('counts the 8000 characters after trimming [claim:httpchat-message] [claim:chat-message-limit]', () => {
    const longest = 'x'.repeat(8000);
    expect(parseChatRequest({ room: '42', user: 'ada', message: `  ${longest}\n` })).toEqual({
      success: true,
      data: { room: '42', user: 'ada', message: longest },
    });
    expect(parseChatRequest({ room: '42', user: 'ada', message: ` ${longest}y ` }).success).toBe(
      false,
    );
  });

  it('counts the 8000 in characters (code points), so an emoji of two UTF-16 units counts one [claim:chat-message-limit] [claim:httpchat-message]', () => {
    // U+1F600, one emoji, is two UTF-16 code units.
    const emoji = '\u{1F600}';
    expect(emoji).toHaveLength(2);
    expect(parseChatRequest({ room: '42', user: 'ada', message: emoji.repeat(8000) }).success).toBe(
      true,
    );
    const over = parseChatRequest({ room: '42', user: 'ada', message: `${emoji.repeat(8000)}x` });
    expect(over.success).toBe(false);
    if (!over.success) expect(over.error).toMatch(/"message" must be at most 8000 characters/);
    // A flag is two code points (regional indicators), and counts two.
    const flag = '\u{1F1EB}\u{1F1F7}';
    expect([...flag]).toHaveLength(2);
    expect(parseChatRequest({ room: '42', user: 'ada', message: flag.repeat(4000) }).success).toBe(
      true,
    );
    expect(
      parseChatRequest({ room: '42', user: 'ada', message: `${flag.repeat(4000)}x` }).success,
    ).toBe(false);
  });

  it.each([
    [{ user: 'ada', message: 'hi' }, /"room" is required/],
    [{ room: 42, user: 'ada', message: 'hi' }, /"room" must be a string/],
    [{ room: '42', user: 'ada lovelace', message: 'hi' }, /"user" must be a user id/],
    [{ room: '42', user: '', message: 'hi' }, /"user" must not be empty/],
    // An id starts with a letter or digit: '_', '-', '.' and ':' only follow one.
    [{ room: '_42', user: 'ada', message: 'hi' }, /"room" must be a room id/],
    [{ room: '42', user: '-ada', message: 'hi' }, /"user" must be a user id/],
    [{ room: '.42', user: 'ada', message: 'hi' }, /"room" must be a room id/],
    [{ room: '42', user: ':ada', message: 'hi' }, /"user" must be a user id/],
    [{ room: '42', user: 'ada', message: '   ' }, /"message" must not be empty/],
    [{ room: '42', user: 'ada', message: 'x'.repeat(8001) }, /"message" must be at most 8000/],
    [{ room: 'r', user: 'u', message: ['hi'] }, /"message" must be a string/],
  ])(
    'rejects %j naming the field [claim:httpchat-ids] [claim:httpchat-message] [claim:chat-fields] [claim:chat-message-limit]',
    (body, problem) => {
      const result = parseChatRequest(body);
      expect(result.success).toBe(false);
      if (!result.success) expect(result.error).toMatch(problem);
    },
  );

  it.each([
    ['a NUL character', 'before\u0000after', /"message" contains a NUL character \(\\u0000\)/],
    ['a lone high surrogate', 'a\uD800b', /"message" contains a lone UTF-16 surrogate/],
    ['a lone low surrogate', '\uDC00', /"message" contains a lone UTF-16 surrogate/],
    ['a high surrogate at the end', 'ab\uDBFF', /"message" contains a lone UTF-16 surrogate/],
  ])(
    'rejects a message holding %s, which no memory store can hold [claim:httpchat-message-unstorable] [claim:chat-message-unstorable] [claim:tsdoc-chat-message-unstorable]',
    (_what, message, problem) => {
      const result = parseChatRequest({ room: '42', user: 'ada', message });
      expect(result.success).toBe(false);
      if (!result.success) expect(result.error).toMatch(problem);
    },
  );

  it('accepts a message whose surrogates are paired [claim:httpchat-message-unstorable] [claim:chat-message-unstorable]', () => {
    expect(parseChatRequest({ room: '42', user: 'ada', message: 'ok \u{1F600}' })).toEqual({
      success: true,
      data: { room: '42', user: 'ada', message: 'ok \u{1F600}' },
    });
  });

  it.each([undefined, null, 'text', [1, 2]])('rejects a body that is not an object: %j', (body) => {
    const result = parseChatRequest(body);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error).toMatch(/must be a JSON object/);
  });
});

describe('findReply', () => {
  it('returns the text of the last chat/reply result [claim:httpchat-last-reply] [claim:chat-200]', () => {
    const task = {
      chain: [
        item({ type: 'trigger', action: 'message' }),
        item({ data: { text: 'first' } }),
        item({ pluginId: 'other', data: { text: 'not a reply' } }),
        item({ data: { text: 'second' } }),
        item({ type: 'error', error: 'later failure' }),
      ],
    } as unknown as AgentTask;
    expect(findReply(task)).toBe('second');
  });

  it('takes the reply of another plugin in the runtime built with chatReplyExecutor [claim:chat-reply-other-plugins] [claim:httpchat-last-reply]', async () => {
    class PagerChatPlugin extends Plugin {
      readonly id = 'pager';
      readonly description = 'Answers pager messages.';
      override readonly templates = { reply: CHAT_REPLY_TEMPLATE };
      override readonly executors: readonly Executor[] = [chatReplyExecutor()];
    }
    /** A reply action that is not the chat's: its text is never taken for the answer. */
    class ToolsPlugin extends Plugin {
      readonly id = 'tools';
      readonly description = 'Tools.';
      override readonly executors: readonly Executor[] = [
        {
          action: 'reply',
          description: 'Not a chat reply.',
          execute: async () => ({ success: true, data: { text: 'from tools' } }),
        },
      ];
    }
    runtime = await Runtime.init({
      models: [
        new ScriptedModelProvider({
          responses: [
            {
              steps: [
                { pluginId: 'pager', action: 'reply' },
                { pluginId: 'tools', action: 'reply' },
              ],
            },
            'Paged reply',
            CONTINUE,
          ],
        }),
      ],
      memory: new InMemoryMemoryProvider(),
      plugins: [
        new ChatPlugin({ trustClientUser: true }),
        new PagerChatPlugin(),
        new ToolsPlugin(),
      ],
      options: { server: { port: 0 }, logger: pino({ level: 'silent' }) },
    });
    await runtime.start();
    const { status, json } = await post(runtime, { room: '42', user: 'ada', message: 'Hi' });
    expect(status).toBe(200);
    expect(json).toMatchObject({ status: 'completed', reply: 'Paged reply' });
  });

  it('writes the reply after steps whose data has no JSON form, which the reply prompt names as such', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const outputs: Record<string, unknown> = { big: 10n, cycle: circular, fn: () => 1 };
    class ToolsPlugin extends Plugin {
      readonly id = 'tools';
      readonly description = 'Tools.';
      override readonly executors: readonly Executor[] = Object.entries(outputs).map(
        ([action, data]) => ({
          action,
          description: `Returns ${action} data.`,
          execute: async () => ({ success: true, data }),
        }),
      );
    }
    const model = new ScriptedModelProvider({
      responses: [
        {
          steps: [
            ...Object.keys(outputs).map((action) => ({ pluginId: 'tools', action })),
            { pluginId: 'chat', action: 'reply' },
          ],
        },
        'Done, Ada.',
      ],
    });
    runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [new ChatPlugin({ trustClientUser: true }), new ToolsPlugin()],
      options: { logger: pino({ level: 'silent' }), pipelineReview: 'never' },
    });
    await runtime.start();
    const task = await runtime.dispatch({
      pluginId: 'chat',
      triggerId: 'message',
      space: 'chat-room-42-user-ada',
      message: 'Hi',
      data: { room: '42', user: 'ada' },
    });
    expect(task.chain.at(-1)).toMatchObject({ type: 'result', pluginId: 'chat', action: 'reply' });
    expect(findReply(task)).toBe('Done, Ada.');
    const replyPrompt = model.requests[1]?.at(-1)?.content ?? '';
    for (const action of Object.keys(outputs)) {
      expect(replyPrompt).toContain(`- tools/${action} returned: data with no JSON form\n`);
    }
  });

  it('returns undefined when no reply succeeded', () => {
    const task = { chain: [item({ type: 'error', error: 'boom' })] } as unknown as AgentTask;
    expect(findReply(task)).toBeUndefined();
  });
});

describe('ChatPlugin', () => {
  it('describes its executor and route for the runtime [claim:httpchat-what] [claim:httpchat-id] [claim:httpchat-adds] [claim:chat-path]', () => {
    const plugin = new ChatPlugin({ path: '/talk' });
    expect(plugin.id).toBe('chat');
    expect(plugin.executors.map((executor) => executor.action)).toEqual(['reply']);
    expect(plugin.executors[0]?.description).toMatch(/reply|answer/i);
    expect(plugin.triggers).toEqual([
      expect.objectContaining({ type: 'route', id: 'message', method: 'POST', path: '/talk' }),
    ]);
    expect(Object.keys(plugin.templates)).toEqual(['reply']);
  });

  it('rejects a path that does not start with a slash [claim:httpchat-path-option] [claim:chat-path]', () => {
    expect(() => new ChatPlugin({ path: 'chat' })).toThrow(/"path" must start with "\/"/);
  });

  it('answers a message with the reply the model wrote [claim:httpchat-what] [claim:httpchat-path-option] [claim:httpchat-adds] [claim:httpchat-body] [claim:httpchat-whole] [claim:httpchat-row-200] [claim:httpchat-last-reply] [claim:httpchat-space] [claim:httpchat-memories] [claim:chat-spaces] [claim:chat-reply-executor] [claim:chat-200] [claim:chat-readme-whole]', async () => {
    const { runtime, model, memory } = await boot([PLAN, 'Hello Ada!']);
    const { status, json, contentType } = await post(runtime, {
      room: '42',
      user: 'ada',
      message: 'Hi there',
    });
    expect(status).toBe(200);
    expect(json).toEqual({ taskId: expect.any(String), status: 'completed', reply: 'Hello Ada!' });
    // One JSON body once the task has ended, not a stream (README, "Responses").
    expect(contentType).toBe('application/json; charset=utf-8');

    // The reply prompt is the plugin's template, rendered with the message and the chain.
    const replyPrompt = model.requests[1]?.at(-1)?.content ?? '';
    expect(replyPrompt).toContain('chat room "42"');
    expect(replyPrompt).toContain('user "ada"');
    expect(replyPrompt).toContain('Hi there');
    expect(replyPrompt).toContain('## The conversation so far\n');
    expect(replyPrompt).toContain('the message arrived (chat/message)');

    const memories = await memory.query({ taskId: json.taskId as string, order: 'asc' });
    expect(memories.map((memory) => [memory.space, memory.kind])).toEqual([
      ['chat-room-42-user-ada', 'trigger'],
      ['chat-room-42-user-ada', 'chain'],
    ]);
  });

  it('shows the sender’s earlier message and its reply to the reply step, before the latest message, to whoever names that user with trustClientUser [claim:httpchat-reply-history] [claim:httpchat-trust-client-user] [claim:chat-reply-history] [claim:tsdoc-chat-reply-history]', async () => {
    const { runtime, model } = await boot([PLAN, 'Hello Ada.', PLAN, 'Your name is Ada.']);
    for (const message of ['My name is Ada.', 'What is my name?']) {
      expect((await post(runtime, { room: '42', user: 'ada', message })).status).toBe(200);
    }
    // Requests 0 and 1 are the first message's plan and reply; 2 and 3 the second's.
    const secondPlan = model.requests[2]?.at(-1)?.content ?? '';
    const secondReply = model.requests[3]?.at(-1)?.content ?? '';
    expect(secondPlan).toContain('My name is Ada.');
    // The reply step sees what planning saw: the earlier message and the reply given to it.
    const history = /## The conversation so far\n([\s\S]*?)\n\n## The message\n/.exec(
      secondReply,
    )?.[1];
    expect(history).toContain('My name is Ada.');
    expect(history).toContain('Hello Ada.');
    expect(history).not.toContain('What is my name?');
    expect(secondReply).toMatch(/## The message\nWhat is my name\?\n/);
    // The first message had no history: the section says so rather than vanishing.
    const firstReply = model.requests[1]?.at(-1)?.content ?? '';
    expect(firstReply).toMatch(/## The conversation so far\n.*\nNone\.\n\n## The message\nMy name/);
  });

  it('cuts the reply step’s history to options.relatedMemories and options.relatedMemoryChars, as the planning prompt’s [claim:cfg-related-history] [claim:mpm-chat-reply-reads]', async () => {
    const section = (prompt: string) =>
      /## The conversation so far\n.*\n([\s\S]*?)\n\n## The message\n/.exec(prompt)?.[1] ?? '';
    const messages = ['First words.', 'Second words.', 'Third words.'];
    const replies = [PLAN, 'Reply one.', PLAN, 'Reply two.', PLAN, 'Reply three.'];

    // One entry: the third message's reply sees the second message only, as its plan does.
    const few = await boot(replies, undefined, undefined, { relatedMemories: 1 });
    for (const message of messages) {
      expect((await post(few.runtime, { room: '42', user: 'ada', message })).status).toBe(200);
    }
    const plan = few.model.requests[4]?.at(-1)?.content ?? '';
    const reply = section(few.model.requests[5]?.at(-1)?.content ?? '');
    expect(reply).toContain('Second words.');
    expect(reply).not.toContain('First words.');
    expect(plan).toContain('Second words.');
    expect(plan).not.toContain('First words.');
    await few.runtime.stop();

    // A character budget: the history fits in it, and keeps the newest entry.
    const short = await boot(replies, undefined, undefined, { relatedMemoryChars: 150 });
    for (const message of messages) {
      expect((await post(short.runtime, { room: '42', user: 'ada', message })).status).toBe(200);
    }
    const cut = section(short.model.requests[5]?.at(-1)?.content ?? '');
    expect(cut.length).toBeLessThanOrEqual(150);
    expect(cut).toContain('Second words.');
    expect(cut).not.toContain('First words.');
  });

  it('cuts a long earlier message and its reply at 300 characters in the history of planning and reply [claim:httpchat-reply-history-entry-cut] [claim:chat-reply-history-entry-cut]', async () => {
    const long = 'M'.repeat(1000);
    const reply = 'R'.repeat(1000);
    const { runtime, model } = await boot([PLAN, reply, PLAN, 'Short.']);
    for (const message of [long, 'And now?']) {
      expect((await post(runtime, { room: '42', user: 'ada', message })).status).toBe(200);
    }
    const plan = model.requests[2]?.at(-1)?.content ?? '';
    const history =
      /## The conversation so far\n([\s\S]*?)\n\n## The message\n/.exec(
        model.requests[3]?.at(-1)?.content ?? '',
      )?.[1] ?? '';
    for (const prompt of [plan, history]) {
      // The message: its first 299 characters and an ellipsis.
      expect(prompt).toContain(`chat/message: ${'M'.repeat(299)}…`);
      expect(prompt).not.toContain('M'.repeat(300));
      // The outcome, the reply in its wrapper, is cut the same way.
      const outcome = `chat/reply returned {"text":"`;
      expect(prompt).toContain(`${outcome}${'R'.repeat(299 - outcome.length)}…`);
      expect(prompt).not.toContain('R'.repeat(300 - outcome.length));
    }
  });

  it('counts the 300 in UTF-16 code units, never splitting an emoji: a message of 200 emoji shows its first 149 [claim:chat-reply-history-entry-cut] [claim:httpchat-reply-history-entry-cut] [claim:sp-entry-field-cuts]', async () => {
    const emoji = '\u{1F600}';
    const { runtime, model } = await boot([PLAN, 'ok', PLAN, 'Short.']);
    for (const message of [emoji.repeat(200), 'And now?']) {
      expect((await post(runtime, { room: '42', user: 'ada', message })).status).toBe(200);
    }
    const plan = model.requests[2]?.at(-1)?.content ?? '';
    const reply = model.requests[3]?.at(-1)?.content ?? '';
    for (const prompt of [plan, reply]) {
      expect(prompt).toContain(`chat/message: ${emoji.repeat(149)}…`);
      expect(prompt).not.toContain(emoji.repeat(150));
    }
  });

  it('writes the reply when the store cannot be read, saying the earlier messages are missing and logging an errorId [claim:httpchat-reply-history-unavailable] [claim:chat-reply-history-unavailable] [claim:tsdoc-chat-reply-history-unavailable] [claim:obs-chat-history-unavailable] [claim:obs-chat-ws-logger]', async () => {
    class UnreadableStore extends InMemoryMemoryProvider {
      override async query(): Promise<Memory[]> {
        throw new Error('ECONNRESET: the database went away');
      }
    }
    const { runtime, model, logs } = await boot(
      [PLAN, 'Hello anyway.'],
      new ChatPlugin({ trustClientUser: true }),
      new UnreadableStore(),
    );
    const { status, json } = await post(runtime, { room: '42', user: 'ada', message: 'Hi' });
    expect(status).toBe(200);
    expect(json).toMatchObject({ status: 'completed', reply: 'Hello anyway.' });
    const replyPrompt = model.requests[1]?.at(-1)?.content ?? '';
    expect(replyPrompt).toContain(`## The conversation so far\n`);
    expect(replyPrompt).toContain(CHAT_HISTORY_UNAVAILABLE);
    expect(replyPrompt).not.toContain('ECONNRESET');
    const warning = logs.find(
      (line) =>
        line.msg === 'chat: could not read the conversation so far; writing the reply without it',
    );
    expect(warning).toMatchObject({
      level: 40,
      taskId: json.taskId,
      space: expect.any(String),
      component: 'pipeline',
      pluginId: 'chat',
      action: 'reply',
      stepIndex: 0,
      errorId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      error: expect.stringContaining('ECONNRESET'),
    });
    // A plain error has no Weft code to point at.
    expect(warning).not.toHaveProperty('code');
  });

  it('gives the unread-history line the code and docsUrl of a Weft error the store threw [claim:obs-chat-history-unavailable]', async () => {
    class RefusingStore extends InMemoryMemoryProvider {
      override async query(): Promise<Memory[]> {
        throw new WeftError('WEFT_BULKHEAD_FULL', 'the memory store has no free slot');
      }
    }
    const { runtime, logs } = await boot(
      [PLAN, 'Hello anyway.'],
      new ChatPlugin({ trustClientUser: true }),
      new RefusingStore(),
    );
    const { status } = await post(runtime, { room: '42', user: 'ada', message: 'Hi' });
    expect(status).toBe(200);
    const warning = logs.find(
      (line) =>
        line.msg === 'chat: could not read the conversation so far; writing the reply without it',
    );
    expect(warning).toMatchObject({
      code: 'WEFT_BULKHEAD_FULL',
      docsUrl: expect.stringContaining('#weft_bulkhead_full'),
      error: expect.stringContaining('no free slot'),
    });
  });

  it('ends the reply step when the task is aborted while the history is read', async () => {
    const controller = new AbortController();
    const failure = new Error('aborted while reading');
    const context = {
      pluginId: 'chat',
      step: { pluginId: 'chat', action: 'reply' },
      chain: [],
      signal: controller.signal,
      memory: {
        describeRelated: async () => {
          controller.abort();
          throw failure;
        },
      },
      logger: { warn: () => undefined },
      render: async () => 'prompt',
      models: { generateText: async () => 'never asked' },
    } as unknown as ExecutionContext;
    const task = {
      id: 't1',
      space: chatSpace('42', 'ada'),
      trigger: { message: 'Hi', data: { room: '42', user: 'ada' } },
      chain: [],
    } as unknown as AgentTask;
    await expect(chatReplyExecutor().execute(task, context)).rejects.toBe(failure);
  });

  it('never shows one user’s messages to the reply to another user in the same room [claim:httpchat-reply-history-private] [claim:chat-reply-history-private]', async () => {
    const { runtime, model } = await boot([
      PLAN,
      'Hello Ada.',
      PLAN,
      'Hello Bob.',
      PLAN,
      'Your name is Bob.',
    ]);
    await post(runtime, { room: '42', user: 'ada', message: 'My name is Ada.' });
    await post(runtime, { room: '42', user: 'bob', message: 'My name is Bob.' });
    await post(runtime, { room: '42', user: 'bob', message: 'What is my name?' });
    const bobFirstReply = model.requests[3]?.at(-1)?.content ?? '';
    expect(bobFirstReply).not.toContain('Ada');
    const bobSecondReply = model.requests[5]?.at(-1)?.content ?? '';
    expect(bobSecondReply).toContain('My name is Bob.');
    expect(bobSecondReply).toContain('Hello Bob.');
    expect(bobSecondReply).not.toContain('Ada');
  });

  it('shows the whole room’s conversation to the reply step with roomHistory shared [claim:httpchat-reply-history-shared] [claim:chat-reply-history-shared]', async () => {
    const { runtime, model } = await boot(
      [PLAN, 'Hello Ada.', PLAN, 'Ada spoke first.', PLAN, 'Nobody yet.'],
      new ChatPlugin({ trustClientUser: true, roomHistory: 'shared', authorizeRoom: () => true }),
    );
    await post(runtime, { room: 'lobby', user: 'ada', message: 'My name is Ada.' });
    await post(runtime, { room: 'lobby', user: 'bob', message: 'Who spoke before me?' });
    const bobReply = model.requests[3]?.at(-1)?.content ?? '';
    expect(bobReply).toMatch(
      /space chat-room-lobby-user-ada, trigger chat\/message: My name is Ada\./,
    );
    expect(bobReply).toContain('Hello Ada.');
    // Another room's conversation stays out even when shared.
    await post(runtime, { room: 'other', user: 'bob', message: 'Anyone here?' });
    const otherRoomReply = model.requests[5]?.at(-1)?.content ?? '';
    expect(otherRoomReply).toContain('Anyone here?');
    expect(otherRoomReply).not.toContain('Ada');
  });

  it('keeps an earlier failure’s error text out of the reply prompt, as out of the 502: the history and the chain say only that the step failed [claim:httpchat-reply-history-failures] [claim:chat-reply-history-failures]', async () => {
    const secret = 'upstream https://10.0.0.7/v1 refused key sk-live-123';
    const { runtime, model } = await boot(
      [
        PLAN,
        () => {
          throw new Error(secret);
        },
        { type: 'stop', reason: 'the reply failed' },
        PLAN,
        'Hello again, Bob.',
      ],
      new ChatPlugin({ trustClientUser: true, roomHistory: 'shared', authorizeRoom: () => true }),
    );
    expect((await post(runtime, { room: 'lobby', user: 'ada', message: 'Hi' })).status).toBe(502);
    expect((await post(runtime, { room: 'lobby', user: 'bob', message: 'Hi' })).status).toBe(200);
    const plan = model.requests[3]?.at(-1)?.content ?? '';
    const reply = model.requests[4]?.at(-1)?.content ?? '';
    // Planning and review keep the cause; the reply, which another user of the room reads, does not.
    expect(plan).toContain('sk-live-123');
    const review = (model.requests[2] ?? []).map((message) => message.content).join('\n');
    expect(review).toContain('sk-live-123');
    expect(reply).toMatch(/Outcome: failed; chat\/reply failed\n/);
    expect(reply).not.toContain('sk-live-123');
    expect(reply).not.toContain('10.0.0.7');

    // A step of the same task that failed before the reply: named, without its text.
    const context = {
      pluginId: 'chat',
      step: { pluginId: 'chat', action: 'reply' },
      chain: [item({ type: 'error', pluginId: 'tools', action: 'search', error: secret })],
      signal: new AbortController().signal,
      memory: { describeRelated: async () => ({ memories: [], text: 'None.' }) },
      logger: { warn: () => undefined },
      render: async (_name: string, variables: { chain: string[] }) => variables.chain.join('\n'),
      models: { generateText: async (prompt: string) => prompt },
    } as unknown as ExecutionContext;
    const task = {
      id: 't1',
      space: chatSpace('42', 'ada'),
      trigger: { message: 'Hi', data: { room: '42', user: 'ada' } },
      chain: [],
    } as unknown as AgentTask;
    const result = await chatReplyExecutor().execute(task, context);
    expect(result).toEqual({ success: true, data: { text: 'tools/search failed' } });
  });

  it('shows an earlier task whose failed step a reply followed as failed with the reply as its outcome, the failed step not named and its error in neither prompt [claim:chat-reply-history-failed-before-last] [claim:chat-reply-history-failures] [claim:httpchat-reply-history-failed-before-last]', async () => {
    const secret = 'upstream https://10.0.0.7/v1 refused key sk-live-123';
    class ToolsPlugin extends Plugin {
      readonly id = 'tools';
      readonly description = 'Tools.';
      override readonly executors: readonly Executor[] = [
        {
          action: 'search',
          description: 'Searches.',
          execute: async () => ({ success: false, error: secret }),
        },
      ];
    }
    const model = new ScriptedModelProvider({
      responses: [
        {
          steps: [
            { pluginId: 'tools', action: 'search' },
            { pluginId: 'chat', action: 'reply' },
          ],
        },
        CONTINUE,
        'The search failed, sorry.',
        PLAN,
        'Hello again.',
      ],
    });
    runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [new ChatPlugin({ trustClientUser: true }), new ToolsPlugin()],
      options: { server: { port: 0 }, logger: pino({ level: 'silent' }) },
    });
    await runtime.start();
    const first = await post(runtime, { room: '42', user: 'ada', message: 'Find it' });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ status: 'failed', reply: 'The search failed, sorry.' });
    // The review after the failed step had its error.
    const review = (model.requests[1] ?? []).map((message) => message.content).join('\n');
    expect(review).toContain('sk-live-123');
    expect((await post(runtime, { room: '42', user: 'ada', message: 'Again' })).status).toBe(200);
    const plan = (model.requests[3] ?? []).map((message) => message.content).join('\n');
    const reply = (model.requests[4] ?? []).map((message) => message.content).join('\n');
    for (const prompt of [plan, reply]) {
      expect(prompt).toContain('Steps: tools/search, chat/reply\n');
      expect(prompt).toContain(
        'Outcome: failed; chat/reply returned {"text":"The search failed, sorry."}',
      );
      expect(prompt).not.toContain('tools/search failed');
      expect(prompt).not.toContain('sk-live-123');
    }
  });

  it('answers only once the task has ended, even when that is after the server’s requestTimeout [claim:trouble-client-waits-task]', async () => {
    const slowReply = () =>
      new Promise<string>((resolve) => setTimeout(() => resolve('Late but whole.'), 1_200));
    runtime = await Runtime.init({
      models: [new ScriptedModelProvider({ responses: [PLAN, slowReply] })],
      memory: new InMemoryMemoryProvider(),
      plugins: [new ChatPlugin({ trustClientUser: true })],
      options: {
        server: { port: 0, headersTimeout: 300, requestTimeout: 600 },
        logger: pino({ level: 'silent' }),
      },
    });
    await runtime.start();
    const started = performance.now();
    const { status, json, contentType } = await post(runtime, {
      room: '1',
      user: 'ada',
      message: 'Hi',
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_100);
    expect(status).toBe(200);
    // One JSON body, not a stream of parts.
    expect(contentType).toMatch(/^application\/json\b/);
    expect(json).toMatchObject({ status: 'completed', reply: 'Late but whole.' });
  });

  // Guards docs/concepts/how-a-task-runs.md ("A trigger that answers a person should tell them
  // when recorded.chain is false") and the 200 row of the README's Responses table.
  it('answers with a warning when the exchange could not be stored [claim:httpchat-row-200] [claim:task-chat-warns-unrecorded] [claim:httpchat-warning] [claim:chat-warning] [claim:chat-warning-reply-lost] [claim:tsdoc-chat-warning]', async () => {
    class FailingChainStore extends InMemoryMemoryProvider {
      override async store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
        if (memory.kind === 'chain') throw new Error('SQLITE_BUSY: database is locked');
        return super.store(memory);
      }
    }
    const { runtime, model, logs } = await boot(
      [PLAN, 'Hello Ada, the code is 7781.', PLAN, 'Again'],
      new ChatPlugin({ trustClientUser: true }),
      new FailingChainStore(),
    );
    const { status, json } = await post(runtime, {
      room: '42',
      user: 'ada',
      message: 'Which code opens the shed?',
    });
    expect(status).toBe(200);
    expect(json).toEqual({
      taskId: expect.any(String),
      status: 'completed',
      reply: 'Hello Ada, the code is 7781.',
      warning: NOT_REMEMBERED_WARNING,
    });
    expect(NOT_REMEMBERED_WARNING).toMatch(/^This reply may not have been saved/);
    expect(JSON.stringify(json)).not.toContain('SQLITE_BUSY');
    // The store's own error is in the log, under the task's id.
    expect(
      logs.some(
        (line) => line.taskId === json.taskId && JSON.stringify(line).includes('SQLITE_BUSY'),
      ),
    ).toBe(true);
    // What the next message's planning sees: the question, stored as its task started, and not
    // the reply, which is what the warning says is lost.
    await post(runtime, { room: '42', user: 'ada', message: 'And the gate?' });
    const nextPlanning = model.requests[2]?.at(-1)?.content ?? '';
    expect(nextPlanning).toContain('Which code opens the shed?');
    expect(nextPlanning).not.toContain('the code is 7781');
  });

  it('answers with the warning when the store does not answer for the chain within 10 s [claim:chat-warning-timeout] [claim:httpchat-warning-late-store]', async () => {
    /** Stores the trigger memory, and never answers for the chain memory, like a hung database. */
    class HangingChainStore extends InMemoryMemoryProvider {
      override store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
        return memory.kind === 'chain' ? new Promise(() => undefined) : super.store(memory);
      }
    }
    const { runtime } = await boot(
      [PLAN, 'Hello Ada!'],
      new ChatPlugin({ trustClientUser: true }),
      new HangingChainStore(),
    );
    const started = performance.now();
    const { status, json } = await post(runtime, { room: '42', user: 'ada', message: 'Hi' });
    expect(status).toBe(200);
    expect(json).toEqual({
      taskId: expect.any(String),
      status: 'completed',
      reply: 'Hello Ada!',
      warning: NOT_REMEMBERED_WARNING,
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(9_900);
  }, 20_000);

  it('answers with the warning when the chain is stored only after 10 s, though later messages then see the reply [claim:chat-warning-late-store] [claim:httpchat-warning-late-store]', async () => {
    /** Stores the first chain memory 10.5 s late, like a database that answers after a stall. */
    class LateChainStore extends InMemoryMemoryProvider {
      chainStored = false;
      override async store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
        if (memory.kind !== 'chain' || this.chainStored) return super.store(memory);
        await new Promise((resolve) => setTimeout(resolve, 10_500));
        const stored = await super.store(memory);
        this.chainStored = true;
        return stored;
      }
    }
    const memory = new LateChainStore();
    const { runtime, model } = await boot(
      [PLAN, 'The shed code is 7781.', PLAN, 'Again'],
      new ChatPlugin({ trustClientUser: true }),
      memory,
    );
    const first = await post(runtime, { room: '42', user: 'ada', message: 'Which code?' });
    expect(first.json).toMatchObject({
      reply: 'The shed code is 7781.',
      warning: NOT_REMEMBERED_WARNING,
    });
    await expect.poll(() => memory.chainStored, { timeout: 2_000 }).toBe(true);
    await post(runtime, { room: '42', user: 'ada', message: 'And the gate?' });
    expect(model.requests[2]?.at(-1)?.content ?? '').toContain('7781');
  }, 20_000);

  // Guards the README's last paragraph: no review follows a successful last step by default,
  // so a queue of plan, reply, plan, reply answers two messages.
  it('answers two messages from a queue of plan and reply per message, with no review between [claim:chat-no-review] [claim:tst-no-final-review]', async () => {
    const { runtime, model } = await boot([PLAN, 'First answer', PLAN, 'Second answer']);
    const first = await post(runtime, { room: '42', user: 'ada', message: 'One' });
    const second = await post(runtime, { room: '42', user: 'ada', message: 'Two' });
    expect([first.json.reply, second.json.reply]).toEqual(['First answer', 'Second answer']);
    expect(model.requests).toHaveLength(4);
  });

  it('relates the whole room to the sender space when planning, with roomHistory shared [claim:httpchat-room-shared] [claim:chat-spaces-shared]', async () => {
    const { runtime, model } = await boot(
      [PLAN, 'One', PLAN, 'Two'],
      new ChatPlugin({ trustClientUser: true, roomHistory: 'shared', authorizeRoom: () => true }),
    );
    await post(runtime, { room: 'lobby', user: 'ada', message: 'first' });
    await post(runtime, { room: 'lobby', user: 'bob', message: 'second' });
    // Bob's planning prompt shows Ada's memories: they share the room.
    const bobPlanning = model.requests[2]?.at(-1)?.content ?? '';
    expect(bobPlanning).toContain('Space: chat-room-lobby-user-bob');
    expect(bobPlanning).toMatch(
      /UTC, space chat-room-lobby-user-ada, trigger chat\/message: first\n/,
    );
  });

  it('does not relate a room to another room whose id starts the same way [claim:httpchat-room-history] [claim:chat-spaces-shared] [claim:tsdoc-chat-space-private]', async () => {
    const { runtime, model } = await boot(
      [PLAN, 'One', PLAN, 'Two'],
      new ChatPlugin({ trustClientUser: true, roomHistory: 'shared', authorizeRoom: () => true }),
    );
    await post(runtime, { room: '42', user: 'ada', message: 'first' });
    await post(runtime, { room: '4', user: 'bob', message: 'second' });
    const bobPlanning = model.requests[2]?.at(-1)?.content ?? '';
    expect(bobPlanning).toContain('Space: chat-room-4-user-bob');
    expect(bobPlanning).not.toContain('chat-room-42-user-ada');
  });

  it('mounts the route on a custom path [claim:httpchat-path-option] [claim:chat-path]', async () => {
    const { runtime } = await boot(
      [PLAN, 'Custom'],
      new ChatPlugin({ path: '/talk', trustClientUser: true }),
    );
    expect((await post(runtime, { room: '1', user: 'u', message: 'hi' }, '/talk')).json.reply).toBe(
      'Custom',
    );
    expect((await post(runtime, { room: '1', user: 'u', message: 'hi' })).status).toBe(404);
  });

  it('answers 400 naming the bad field without dispatching a task [claim:httpchat-checked-first] [claim:httpchat-400] [claim:httpchat-row-400] [claim:httpchat-docs-url] [claim:chat-400] [claim:chat-readme-error-docs-url] [claim:tsdoc-chat-codes]', async () => {
    const { runtime, model } = await boot([]);
    const { status, json } = await post(runtime, { room: '42', message: 'hi' });
    expect(status).toBe(400);
    expect(json).toEqual({
      error: {
        status: 400,
        code: 'WEFT_CHAT_INVALID_REQUEST',
        docsUrl: 'https://weft-ai.github.io/docs/reference/errors/#weft_chat_invalid_request',
        message: expect.stringMatching(/"user"/),
        requestId: expect.any(String),
      },
    });
    expect(model.requests).toHaveLength(0);
  });

  it.each([
    ['a NUL character', '{"room":"42","user":"ada","message":"Hi\\u0000there"}', 'a NUL character'],
    [
      'a lone surrogate',
      '{"room":"42","user":"ada","message":"Hi \\ud83d"}',
      'a lone UTF-16 surrogate',
    ],
  ])(
    'answers 400 for a message holding %s, without running a task or storing a memory [claim:httpchat-message-unstorable] [claim:chat-message-unstorable] [claim:httpchat-400] [claim:chat-400]',
    async (_what, body, named) => {
      const { runtime, model, memory } = await boot([PLAN, 'Hello']);
      const { status, json } = await post(runtime, body);
      expect(status).toBe(400);
      expect(json).toEqual({
        error: expect.objectContaining({
          code: 'WEFT_CHAT_INVALID_REQUEST',
          message: expect.stringContaining(`"message" contains ${named}`),
        }),
      });
      expect(model.requests).toHaveLength(0);
      expect(await memory.query({ limit: 10 })).toEqual([]);
    },
  );

  it('answers 400 naming a room, user or message that is not a string, empty, too long or not an id [claim:errors-chat-invalid-request-body]', async () => {
    const { runtime, model } = await boot([]);
    const good = { room: '42', user: 'ada', message: 'hi' };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...good, room: 42 }, /"room" must be a string/],
      [{ ...good, user: undefined }, /"user" is required/],
      [{ ...good, message: '  ' }, /"message" must not be empty/],
      [{ ...good, user: 'a'.repeat(65) }, /"user" must be at most 64 characters/],
      [{ ...good, room: 'room 42' }, /"room" must be a room id/],
    ];
    for (const [body, named] of cases) {
      const { status, json } = await post(runtime, body);
      expect(status).toBe(400);
      expect(json.error).toMatchObject({
        code: 'WEFT_CHAT_INVALID_REQUEST',
        message: expect.stringMatching(named),
      });
    }
    expect(model.requests).toHaveLength(0);
  });

  it('answers 400 for a body that is not JSON [claim:httpchat-body] [claim:httpchat-400] [claim:httpchat-row-400] [claim:httpchat-request-id] [claim:chat-400] [claim:errors-400-codes]', async () => {
    const { runtime } = await boot([]);
    const response = await fetch(`${runtime.server.url}/chat`, { method: 'POST', body: 'hello' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        status: 400,
        code: 'WEFT_CHAT_INVALID_REQUEST',
        docsUrl: 'https://weft-ai.github.io/docs/reference/errors/#weft_chat_invalid_request',
        message: expect.stringMatching(/JSON object/),
        requestId: response.headers.get('x-request-id'),
      },
    });
  });

  // The last two bodies nest deeper than the server's default maxJsonDepth (64): an array, and
  // an object whose fields are all valid.
  it.each([
    '{"room":',
    '"hello"',
    '42',
    'null',
    `${'['.repeat(65)}${']'.repeat(65)}`,
    `{"room":"42","user":"ada","message":"hi","extra":${'['.repeat(64)}${']'.repeat(64)}}`,
  ])(
    'answers %s sent as application/json with 400 WEFT_CHAT_INVALID_REQUEST, not the server’s code [claim:httpchat-400-malformed-json] [claim:httpchat-row-400] [claim:chat-400] [claim:errors-chat-invalid-request-body] [claim:errors-bad-request-route-code]',
    async (body) => {
      const { runtime, model } = await boot([]);
      const response = await fetch(`${runtime.server.url}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: {
          status: 400,
          code: 'WEFT_CHAT_INVALID_REQUEST',
          docsUrl: 'https://weft-ai.github.io/docs/reference/errors/#weft_chat_invalid_request',
          message: expect.stringMatching(/JSON of an object/),
          requestId: response.headers.get('x-request-id'),
        },
      });
      expect(model.requests).toHaveLength(0);
    },
  );

  it('answers 200 with the reply and status failed when the task times out after its reply step succeeded, and 502 when it times out before [claim:httpchat-task-timeout-502] [claim:httpchat-row-200]', async () => {
    /** A plugin whose one step never ends by itself. */
    class WaitPlugin extends Plugin {
      readonly id = 'wait';
      readonly description = 'Waits.';
      override readonly executors: readonly Executor[] = [forever];
    }
    const replyThenWait = {
      steps: [
        { pluginId: 'chat', action: 'reply' },
        { pluginId: 'wait', action: 'forever' },
      ],
    };
    const waitThenReply = { steps: [...replyThenWait.steps].reverse() };
    const model = new ScriptedModelProvider({
      // After the reply, a step follows: the runtime asks for a review, which continues.
      responses: [replyThenWait, 'Hello, Ada.', CONTINUE, waitThenReply],
      fallback: () => ({ type: 'stop', reason: 'timed out' }),
    });
    const runtime = await bootTimingOut(model, new WaitPlugin());
    const body = { room: '42', user: 'ada', message: 'hi' };
    const replied = await post(runtime, body);
    expect(replied.status).toBe(200);
    expect(replied.json).toMatchObject({ status: 'failed', reply: 'Hello, Ada.' });
    const unreplied = await post(runtime, body);
    expect(unreplied.status).toBe(502);
    expect(unreplied.json).toMatchObject({
      status: 'failed',
      error: { code: 'WEFT_CHAT_NO_REPLY' },
    });
  });

  it('lists an earlier task with the last item of its chain, and in the reply prompt also the reply a later step or the timeout followed [claim:httpchat-reply-history-last-item] [claim:chat-reply-history-last-item]', async () => {
    /** A step after the reply: one that returns a note, and one the task's deadline ends. */
    class AfterPlugin extends Plugin {
      readonly id = 'after';
      readonly description = 'Runs after the reply.';
      override readonly executors: readonly Executor[] = [
        {
          action: 'note',
          description: 'Returns a note.',
          execute: async () => ({ success: true, data: { noted: 'filed' } }),
        },
        forever,
      ];
    }
    const replyThen = (action: string) => ({
      steps: [
        { pluginId: 'chat', action: 'reply' },
        { pluginId: 'after', action },
      ],
    });
    const model = new ScriptedModelProvider({
      // Each reply is followed by a step, so the runtime asks for a review, which continues.
      responses: [
        replyThen('note'),
        'First reply.',
        CONTINUE,
        replyThen('forever'),
        'Second reply.',
        CONTINUE,
        PLAN,
        'Third reply.',
      ],
    });
    const runtime = await bootTimingOut(model, new AfterPlugin());
    const answers = [];
    for (const message of ['First words.', 'Second words.', 'Third words.']) {
      answers.push(await post(runtime, { room: '42', user: 'ada', message }));
    }
    // The sender got both earlier replies: the second with status failed, after its timeout.
    expect(answers.map(({ status, json }) => [status, json.status, json.reply])).toEqual([
      [200, 'completed', 'First reply.'],
      [200, 'failed', 'Second reply.'],
      [200, 'completed', 'Third reply.'],
    ]);
    // Requests 6 and 7 are the third message's plan and reply.
    const plan = model.requests[6]?.at(-1)?.content ?? '';
    const history =
      /## The conversation so far\n([\s\S]*?)\n\n## The message\n/.exec(
        model.requests[7]?.at(-1)?.content ?? '',
      )?.[1] ?? '';
    for (const prompt of [plan, history]) {
      expect(prompt).toContain('First words.');
      expect(prompt).toContain('Second words.');
      // The outcome each shows is the step after the reply, or the timeout.
      expect(prompt).toContain('after/note returned {"noted":"filed"}');
      expect(prompt).toContain('core/timeout failed');
    }
    // The planning prompt shows no more; the reply's lists each answer given on a line of its own.
    expect(plan).not.toContain('First reply.');
    expect(plan).not.toContain('Second reply.');
    expect(history).toContain('  Result: chat/reply returned {"text":"First reply."}');
    expect(history).toContain('  Result: chat/reply returned {"text":"Second reply."}');
  });

  it('lists in the reply prompt an earlier reply another chat plugin wrote, which a later step followed [claim:httpchat-reply-history-last-item] [claim:chat-reply-history-last-item]', async () => {
    class PagerChatPlugin extends Plugin {
      readonly id = 'pager';
      readonly description = 'Answers pager messages.';
      override readonly templates = { reply: CHAT_REPLY_TEMPLATE };
      override readonly executors: readonly Executor[] = [chatReplyExecutor()];
    }
    class AfterPlugin extends Plugin {
      readonly id = 'after';
      readonly description = 'Runs after the reply.';
      override readonly executors: readonly Executor[] = [
        {
          action: 'note',
          description: 'Returns a note.',
          execute: async () => ({ success: true, data: { noted: 'filed' } }),
        },
      ];
    }
    const model = new ScriptedModelProvider({
      responses: [
        {
          steps: [
            { pluginId: 'pager', action: 'reply' },
            { pluginId: 'after', action: 'note' },
          ],
        },
        'Paged reply.',
        CONTINUE,
        PLAN,
        'Second reply.',
      ],
    });
    runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [
        new ChatPlugin({ trustClientUser: true }),
        new PagerChatPlugin(),
        new AfterPlugin(),
      ],
      options: { server: { port: 0 }, logger: pino({ level: 'silent' }) },
    });
    await runtime.start();
    const first = await post(runtime, { room: '42', user: 'ada', message: 'First words.' });
    expect(first.json).toMatchObject({ status: 'completed', reply: 'Paged reply.' });
    const second = await post(runtime, { room: '42', user: 'ada', message: 'Second words.' });
    expect(second.json).toMatchObject({ status: 'completed', reply: 'Second reply.' });
    // Requests 3 and 4 are the second message's plan and reply.
    const history =
      /## The conversation so far\n([\s\S]*?)\n\n## The message\n/.exec(
        model.requests[4]?.at(-1)?.content ?? '',
      )?.[1] ?? '';
    expect(history).toContain('after/note returned {"noted":"filed"}');
    expect(history).toContain('  Result: pager/reply returned {"text":"Paged reply."}');
  });

  it('answers 502 without the internal error text, which is logged under the task id [claim:httpchat-row-502] [claim:httpchat-docs-url] [claim:httpchat-502-generic] [claim:httpchat-502-log] [claim:chat-502] [claim:chat-readme-error-docs-url] [claim:tsdoc-chat-502] [claim:errors-502-cause] [claim:errors-502-code] [claim:obs-chat-ws-logger]', async () => {
    const failing: ScriptedResponse = () => {
      throw new Error(
        'connect ECONNREFUSED 127.0.0.1:5432 (postgres://agent:hunter2@db.internal/agent)',
      );
    };
    const { runtime, logs } = await boot([PLAN, failing, CONTINUE]);
    const response = await fetch(`${runtime.server.url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ room: '42', user: 'ada', message: 'hi' }),
    });
    const text = await response.text();
    expect(response.status).toBe(502);
    expect(text).not.toMatch(/ECONNREFUSED|hunter2|127\.0\.0\.1:5432|db\.internal/);
    const json = JSON.parse(text) as { taskId: string };
    expect(json).toEqual({
      taskId: expect.any(String),
      status: 'failed',
      error: {
        status: 502,
        code: 'WEFT_CHAT_NO_REPLY',
        docsUrl: 'https://weft-ai.github.io/docs/reference/errors/#weft_chat_no_reply',
        message:
          'No reply: the task failed without one; the server log has the cause under this taskId',
        requestId: response.headers.get('x-request-id'),
      },
    });
    const logged = logs.find((line) => line.msg === 'chat: task ended without a reply');
    expect(logged).toMatchObject({
      taskId: json.taskId,
      requestId: response.headers.get('x-request-id'),
      error: expect.stringMatching(/chat\/reply: .*hunter2/),
    });
    // The route logs through the runtime's logger, which binds no component.
    expect(logged).not.toHaveProperty('component');
  });

  it('answers 502 when the model writes an empty reply, logging why [claim:httpchat-row-502] [claim:httpchat-502-log] [claim:chat-502]', async () => {
    const { runtime, logs } = await boot([PLAN, '   ', CONTINUE]);
    const { status, json } = await post(runtime, { room: '42', user: 'ada', message: 'hi' });
    expect(status).toBe(502);
    expect(json.error).toMatchObject({ status: 502, code: 'WEFT_CHAT_NO_REPLY' });
    expect(logs.find((line) => line.taskId === json.taskId)?.error).toMatch(/empty reply/);
  });

  it('answers 502 when the model plans no reply at all [claim:httpchat-row-502] [claim:httpchat-502-generic] [claim:httpchat-502-log] [claim:chat-502]', async () => {
    const { runtime } = await boot([{ steps: [] }]);
    const { status, json } = await post(runtime, { room: '42', user: 'ada', message: 'hi' });
    expect(status).toBe(502);
    expect(json).toMatchObject({
      status: 'completed',
      error: {
        status: 502,
        message:
          'No reply: the task completed without one; the server log has the cause under this taskId',
      },
    });
  });

  it('refuses a request whose Host is not allowed, even with a matching Origin, and runs no task [claim:httpchat-host]', async () => {
    const { runtime, model } = await boot([PLAN, 'Hello']);
    const url = new URL(`${runtime.server.url}/chat`);
    const status = await new Promise<number>((resolve, reject) => {
      const outgoing = httpRequest(
        url,
        {
          method: 'POST',
          headers: {
            host: `attacker.example:${url.port}`,
            origin: `http://attacker.example:${url.port}`,
            'content-type': 'application/json',
          },
        },
        (incoming) => {
          incoming.resume();
          resolve(incoming.statusCode ?? 0);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(JSON.stringify({ room: '42', user: 'ada', message: 'hi' }));
    });
    expect(status).toBe(403);
    expect(model.requests).toHaveLength(0);
  });
});

describe('chat spaces', () => {
  it('keeps ordinary ids readable, and relates the room only when its history is shared [claim:httpchat-space] [claim:httpchat-chat-space] [claim:chat-readme-chat-space] [claim:httpchat-room-shared] [claim:chat-escaping] [claim:chat-spaces-shared] [claim:tsdoc-chat-space-private]', () => {
    expect(chatSpace('42', 'ada')).toEqual({ id: 'chat-room-42-user-ada', relatedSpaces: [] });
    expect(chatSpace('42', 'ada', 'shared')).toEqual({
      id: 'chat-room-42-user-ada',
      relatedSpaces: ['chat-room-42', 'chat-room-42-user-*'],
    });
  });

  it('gives each (room, user) pair its own space, whatever the ids contain [claim:httpchat-escaping] [claim:chat-escaping]', () => {
    const ids = ['r42', 'r42-user-alice', 'alice', 'user-alice', 'r42-user', 'a_b', 'a-b', 'a:b'];
    const seen = new Set<string>();
    for (const room of ids) for (const user of ids) seen.add(chatSpace(room, user).id);
    expect(seen.size).toBe(ids.length ** 2);
  });

  it("does not show room r42's messages to room r42-user-alice, nor the reverse [claim:httpchat-escaping]", async () => {
    const { runtime, model, memory } = await boot(
      [PLAN, 'One', PLAN, 'Two', PLAN, 'Three'],
      new ChatPlugin({ trustClientUser: true, roomHistory: 'shared', authorizeRoom: () => true }),
    );
    await post(runtime, { room: 'r42', user: 'alice', message: 'secret of room r42' });
    await post(runtime, {
      room: 'r42-user-alice',
      user: 'bob',
      message: 'hello from the other room',
    });
    await post(runtime, { room: 'r42', user: 'carol', message: 'back in r42' });
    // Each task asks for its plan, then its reply: planning prompts are requests 0, 2 and 4.
    const otherRoomPlanning = model.requests[2]?.at(-1)?.content ?? '';
    expect(otherRoomPlanning).toContain('hello from the other room');
    expect(otherRoomPlanning).not.toContain('secret of room r42');
    const backInRoom = model.requests[4]?.at(-1)?.content ?? '';
    expect(backInRoom).toContain('secret of room r42');
    expect(backInRoom).not.toContain('hello from the other room');
    // The two senders that could have collided as chat-room-r42-user-alice... are apart.
    const spaces = new Set((await memory.query({})).map((entry) => entry.space));
    expect(spaces).toEqual(
      new Set([
        'chat-room-r42-user-alice',
        'chat-room-r42_2duser_2dalice-user-bob',
        'chat-room-r42-user-carol',
      ]),
    );
  });

  it.each([
    [{ room: 'r*', user: 'ada' }, /"room" must be a room id/],
    [{ room: 'r42', user: 'ad*' }, /"user" must be a user id/],
    [{ room: 'café', user: 'ada' }, /"room" must be a room id/],
    [{ room: 'r42', user: 'a b' }, /"user" must be a user id/],
    [{ room: 'r'.repeat(65), user: 'ada' }, /"room" must be at most 64 characters/],
    [
      { room: `r${'-'.repeat(63)}`, user: `u${'_'.repeat(63)}` },
      /"room" and "user" are too long together/,
    ],
  ])(
    'answers a clear 400 for adversarial ids %j [claim:httpchat-ids] [claim:httpchat-400] [claim:httpchat-too-long-together] [claim:chat-fields] [claim:errors-chat-invalid-request-together]',
    async (ids, problem) => {
      const { runtime, model } = await boot([]);
      const { status, json } = await post(runtime, { ...ids, message: 'hi' });
      expect(status).toBe(400);
      expect((json.error as { message: string }).message).toMatch(problem);
      expect(model.requests).toHaveLength(0);
    },
  );

  it('throws a WEFT_CHAT_INVALID_OPTIONS error for a bad path [claim:httpchat-path-option] [claim:chat-bad-options]', () => {
    let caught: unknown;
    try {
      new ChatPlugin({ path: 'chat' });
    } catch (error) {
      caught = error;
    }
    expect(WeftError.is(caught, 'WEFT_CHAT_INVALID_OPTIONS')).toBe(true);
  });
});

describe('ChatPlugin option names', () => {
  it('refuses an option name it does not know, naming it and listing the options [claim:chat-unknown-option]', () => {
    let caught: unknown;
    try {
      new ChatPlugin({ maxInflightPerUser: 2 } as never);
    } catch (error) {
      caught = error;
    }
    expect(WeftError.is(caught, 'WEFT_CHAT_INVALID_OPTIONS')).toBe(true);
    expect((caught as Error).message).toContain(
      'unknown option "maxInflightPerUser"; the options are path, maxInFlight, authenticate, trustClientUser, roomHistory, authorizeRoom, authTimeoutMs, maxInFlightPerUser.',
    );
  });

  it('takes a known option left undefined as its default [claim:chat-unknown-option]', () => {
    const plugin = new ChatPlugin({ path: undefined, maxInFlight: undefined });
    expect(plugin.path).toBe('/chat');
    expect(plugin.maxInFlight).toBe(4);
  });
});

/** The message of the WEFT_CHAT_INVALID_OPTIONS the constructor refuses `path` with. */
function pathRefusal(path: string): string {
  let caught: unknown;
  try {
    new ChatPlugin({ path });
  } catch (error) {
    caught = error;
  }
  expect(WeftError.is(caught, 'WEFT_CHAT_INVALID_OPTIONS')).toBe(true);
  return (caught as Error).message;
}

describe('ChatPlugin path', () => {
  it.each(['/chat/*', '/chat(', '/chat?x', '/chat/:room', '/a b', '/chat/\u00e9'])(
    'refuses %j in the constructor, which express would read as a pattern or not at all [claim:httpchat-path-option] [claim:httpchat-options-bad] [claim:chat-path] [claim:chat-bad-options] [claim:tsdoc-chat-path]',
    (path) => {
      expect(pathRefusal(path)).toMatch(
        /"path" must hold only ASCII letters, digits, "-", ".", "_", "~" and "\/"/,
      );
    },
  );

  it.each(['/api/./chat', '/api/../chat', '/.', '/chat/..'])(
    'refuses %j, whose dot segment fetch and curl resolve away, so no request they send could reach it [claim:chat-path] [claim:tsdoc-chat-path] [claim:httpchat-path-option]',
    (path) => {
      expect(new URL(`http://127.0.0.1${path}`).pathname).not.toBe(path);
      expect(pathRefusal(path)).toContain('option "path" must have no "." or ".." segment');
    },
  );

  it.each(['//chat', '//', '///chat', '//example.com/chat'])(
    'refuses %j, which a browser or fetch reads as a protocol-relative URL naming a host, as @weft/plugin-websocket does [claim:chat-path] [claim:tsdoc-chat-path] [claim:httpchat-path-option]',
    (path) => {
      // Resolved against the server's own address, it names another host, or no URL at all.
      const base = 'http://127.0.0.1';
      expect(URL.canParse(path, base) ? new URL(path, base).host : undefined).not.toBe('127.0.0.1');
      expect(pathRefusal(path)).toContain(
        `ChatPlugin: option "path" must not start with "//", which clients read as a protocol-relative URL naming a host, got ${JSON.stringify(path)}.`,
      );
    },
  );

  it('mounts a literal path of letters, digits, "-", ".", "_", "~" and "/" [claim:httpchat-path-option] [claim:chat-path]', async () => {
    const path = '/api/v1.2/chat_room-x~y/';
    const { runtime } = await boot(
      [PLAN, 'Hello.'],
      new ChatPlugin({ path, trustClientUser: true }),
    );
    const { status, json } = await post(runtime, { room: '42', user: 'ada', message: 'hi' }, path);
    expect(status).toBe(200);
    expect(json.reply).toBe('Hello.');
  });
});

describe('ChatPlugin path matching', () => {
  it('takes a request whatever the case of its path and with or without one trailing slash, as express matches paths [claim:chat-path-case-slash] [claim:httpchat-path-case-slash]', async () => {
    const { runtime, model } = await boot(
      [PLAN, 'One.', PLAN, 'Two.', PLAN, 'Three.'],
      new ChatPlugin({ path: '/api/chat', trustClientUser: true }),
    );
    const statuses: Record<string, number> = {};
    for (const path of ['/API/Chat', '/api/chat/', '/Api/Chat/', '/api/chat//', '/api/chat/x']) {
      statuses[path] = (
        await post(runtime, { room: '42', user: 'ada', message: 'hi' }, path)
      ).status;
    }
    expect(statuses).toEqual({
      '/API/Chat': 200,
      '/api/chat/': 200,
      '/Api/Chat/': 200,
      '/api/chat//': 404,
      '/api/chat/x': 404,
    });
    // The three that reached the route each ran a task: a plan and a reply.
    expect(model.requests).toHaveLength(6);
  });
});

describe('ChatPlugin sender', () => {
  it("checks that room and user fit a space with the user authenticate named, not the body's [claim:httpchat-authenticate] [claim:httpchat-too-long-together] [claim:errors-chat-invalid-request-together]", async () => {
    // Room and body user are too long together; room and the named user fit.
    const room = `r${'-'.repeat(60)}`;
    const body = { room, user: `u${'_'.repeat(63)}`, message: 'hi' };
    expect(parseChatRequest(body)).toMatchObject({ success: false });
    const { runtime, memory } = await boot(
      [PLAN, 'Hello, Ada.'],
      new ChatPlugin({ authenticate: () => ({ user: 'ada' }) }),
    );
    const { status, json } = await post(runtime, body);
    expect(status).toBe(200);
    expect(json.reply).toBe('Hello, Ada.');
    const spaces = new Set((await memory.query({})).map((entry) => entry.space));
    expect(spaces).toEqual(new Set([chatSpace(room, 'ada').id]));
    // Named too, a user that does not fit with the room still gets the 400.
    await runtime.stop();
    const { runtime: second } = await boot(
      [],
      new ChatPlugin({ authenticate: () => ({ user: `u${'_'.repeat(63)}` }) }),
    );
    const refused = await post(second, { room, user: 'ada', message: 'hi' });
    expect(refused.status).toBe(400);
    expect((refused.json.error as { message: string }).message).toMatch(
      /"room" and "user" are too long together/,
    );
  });
});

describe('ChatPlugin request ids', () => {
  it("keeps the answer's X-Request-Id in the task's memories as metadata.requestId [claim:httpchat-request-id] [claim:chat-request-id]", async () => {
    const { memory } = await boot([PLAN, 'Hello, Ada.']);
    const response = await fetch(`${runtime?.server.url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ room: '42', user: 'ada', message: 'hi' }),
    });
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const stored = await memory.query({ space: chatSpace('42', 'ada').id });
    expect(stored.map((entry) => entry.kind).sort()).toEqual(['chain', 'trigger']);
    for (const entry of stored) expect(entry.metadata).toMatchObject({ requestId });
  });
});

describe("ChatPlugin's 503 answers", () => {
  /** A model whose reply waits until `release()` or the task's signal aborts. */
  function heldModel() {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const model = new ScriptedModelProvider({
      fallback: (_messages, request) => {
        if (request.purpose === 'plan') return PLAN;
        if (request.purpose === 'review') return { type: 'stop', reason: 'stopped' };
        return new Promise<string>((resolve, reject) => {
          void released.then(() => resolve('Late reply'));
          request.signal?.addEventListener('abort', () => reject(new Error('aborted')));
        });
      },
    });
    return { model, release };
  }

  async function start(
    model: ScriptedModelProvider,
    options: NonNullable<Parameters<typeof Runtime.init>[0]['options']> = {},
  ): Promise<Runtime> {
    runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [new ChatPlugin({ trustClientUser: true })],
      options: { server: { port: 0 }, logger: pino({ level: 'silent' }), ...options },
    });
    await runtime.start();
    return runtime;
  }

  async function until(what: string, check: () => boolean): Promise<void> {
    const deadline = Date.now() + 5_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error(`${what} did not happen within 5 s`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it('answers 503 WEFT_QUEUE_FULL with Retry-After: 5 when the queue is full, and runs no task [claim:httpchat-row-503] [claim:httpchat-queue-full] [claim:chat-503] [claim:errors-queue-full-retry-after]', async () => {
    const { model, release } = heldModel();
    const target = await start(model, { scheduler: { concurrency: 1, maxQueueSize: 1 } });
    const running = post(target, { room: '1', user: 'ada', message: 'first' });
    await until('the first reply call', () => model.requests.length === 2);
    const queued = post(target, { room: '2', user: 'bob', message: 'second' });
    await until('the second message queued', () => target.scheduler.pending === 1);
    const refused = await post(target, { room: '3', user: 'eve', message: 'third' });
    expect(refused.status).toBe(503);
    expect(refused.retryAfter).toBe('5');
    expect(refused.json).toEqual({
      error: {
        status: 503,
        code: 'WEFT_QUEUE_FULL',
        message: expect.stringMatching(/queue is full/),
        docsUrl: 'https://weft-ai.github.io/docs/reference/errors/#weft_queue_full',
        requestId: expect.any(String),
      },
    });
    release();
    expect((await running).status).toBe(200);
    expect((await queued).status).toBe(200);
    // Two messages, a plan and a reply each: the third ran nothing.
    expect(model.requests).toHaveLength(4);
  });

  it('answers 503 WEFT_SHUTTING_DOWN with Retry-After: 5 to a message sent while the runtime stops, and still answers the running one [claim:httpchat-row-503] [claim:chat-503] [claim:errors-shutting-down-retry-after] [claim:errors-retry-after-429-503]', async () => {
    const { model, release } = heldModel();
    const target = await start(model);
    const running = post(target, { room: '1', user: 'ada', message: 'first' });
    await until('the first reply call', () => model.requests.length === 2);
    const stopped = target.stop();
    const refused = await post(target, { room: '2', user: 'bob', message: 'second' });
    expect(refused.status).toBe(503);
    // Another instance behind the same address, or this one restarted, may take it then.
    expect(refused.retryAfter).toBe('5');
    expect(refused.json).toEqual({
      error: {
        status: 503,
        code: 'WEFT_SHUTTING_DOWN',
        message: expect.stringMatching(/stopping/),
        docsUrl: 'https://weft-ai.github.io/docs/reference/errors/#weft_shutting_down',
        requestId: expect.any(String),
      },
    });
    release();
    expect((await running).json).toMatchObject({ status: 'completed', reply: 'Late reply' });
    await stopped;
    expect(model.requests).toHaveLength(2);
  });

  it('answers 503 WEFT_TASK_CANCELLED with Retry-After: 5 to a message still queued when a stop cancels it, and 502 cancelled to the running one [claim:httpchat-row-503] [claim:chat-503] [claim:errors-503-retry-after]', async () => {
    const { model } = heldModel();
    const target = await start(model, { shutdown: 'cancel' });
    const running = post(target, { room: '1', user: 'ada', message: 'first' });
    await until('the first reply call', () => model.requests.length === 2);
    // The same room and user: it waits behind the first.
    const queued = post(target, { room: '1', user: 'ada', message: 'second' });
    await until('the second message queued', () => target.scheduler.pending === 1);
    await target.stop();
    expect((await running).status).toBe(502);
    expect((await running).json).toMatchObject({
      status: 'cancelled',
      error: { code: 'WEFT_CHAT_NO_REPLY' },
    });
    const dropped = await queued;
    expect(dropped.status).toBe(503);
    expect(dropped.retryAfter).toBe('5');
    expect(dropped.json).toEqual({
      error: {
        status: 503,
        code: 'WEFT_TASK_CANCELLED',
        message: expect.stringMatching(/^Service Unavailable/),
        docsUrl: 'https://weft-ai.github.io/docs/reference/errors/#weft_task_cancelled',
        requestId: expect.any(String),
      },
    });
    expect(model.requests).toHaveLength(2);
  });

  it('answers 503 WEFT_TOO_MANY_CONNECTIONS with Retry-After to a connection past server.maxConnections, and runs no task [claim:httpchat-row-503] [claim:chat-503] [claim:httpchat-max-connections]', async () => {
    const { model } = heldModel();
    const target = await start(model, { server: { port: 0, maxConnections: 1 } });
    const port = Number(new URL(target.server.url as string).port);
    const held = connect(port, '127.0.0.1');
    held.on('error', () => undefined);
    await once(held, 'connect');
    try {
      const refused = connect(port, '127.0.0.1');
      refused.on('error', () => undefined);
      let received = '';
      refused.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
      const closed = once(refused, 'close');
      await once(refused, 'connect');
      const body = JSON.stringify({ room: '1', user: 'ada', message: 'hi' });
      refused.write(
        `POST /chat HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      await Promise.race([
        closed,
        new Promise((_resolve, reject) =>
          setTimeout(() => reject(new Error('the refused connection stayed open 5 s')), 5_000),
        ),
      ]);
      const [head = '', answer = ''] = received.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 503 /);
      expect(head).toMatch(/^retry-after: 1$/im);
      expect(JSON.parse(answer)).toMatchObject({
        error: {
          status: 503,
          code: 'WEFT_TOO_MANY_CONNECTIONS',
          docsUrl: 'https://weft-ai.github.io/docs/reference/errors/#weft_too_many_connections',
        },
      });
      expect(model.requests).toHaveLength(0);
    } finally {
      held.destroy();
    }
  });
});
