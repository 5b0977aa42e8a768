import { connect as tcpConnect } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import {
  Plugin,
  Runtime,
  WeftError,
  type AgentTask,
  type Executor,
  type Memory,
  type SpaceCoordinator,
} from '@weft/core';
import { ChatPlugin, chatSpace, NOT_REMEMBERED_WARNING } from '@weft/plugin-chat';
import {
  InMemoryMemoryProvider,
  ScriptedModelProvider,
  type ScriptedResponse,
} from '@weft/testing';
import { IDLE_CLOSE, SHUTDOWN_CLOSE, WebSocketPlugin, type ServerFrame } from '../src/index.js';
import { capturingLogger, type LogLine } from '@weft-internal/test-support/capturing-logger';
import {
  connect,
  echoModel,
  perTest,
  refusedUpgrade,
  type Booted,
  type Client,
} from './support.js';

const { boot, open, stopAfterTest } = perTest();
let booted: Booted | undefined;

const message = (id: string, text: string, room = 'r42', user = 'ada') => ({
  type: 'message',
  id,
  room,
  user,
  message: text,
});

/** Writes `request` as it is to the server at `port` and reads everything until it closes. */
function rawAnswer(port: string, request: string): Promise<string> {
  return new Promise<string>((resolve) => {
    const socket = tcpConnect(Number(port), '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(text));
  });
}

/**
 * Writes the upgrade `request` as it is to the server of `url` and reads its answer: until the
 * server closes the connection, or, for an accepted upgrade, which keeps it open, to the end of
 * the 101's head; fails after 3 s.
 */
async function upgradeAnswer(url: string, request: string): Promise<string> {
  const socket = tcpConnect(Number(new URL(url).port), '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(request);
  let answer = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error(`no answer: ${answer}`)), 3_000);
      const settle = () => {
        clearTimeout(deadline);
        resolve();
      };
      socket.on('close', settle);
      socket.on('data', (chunk: Buffer) => {
        answer += chunk.toString('utf8');
        if (answer.includes('\r\n\r\n') && answer.startsWith('HTTP/1.1 101')) settle();
      });
    });
  } finally {
    socket.destroy();
  }
  return answer;
}

/** Sends `text` as one text message in `count` fragments of about equal length. */
function sendInFragments(client: Client, text: string, count: number): void {
  const size = Math.ceil(text.length / count);
  for (let index = 0; index < count; index += 1) {
    const fin = index === count - 1;
    client.socket.send(text.slice(index * size, fin ? undefined : (index + 1) * size), { fin });
  }
}

describe('WebSocketPlugin conversation', () => {
  it('answers several messages of one connection in order, each with accepted then reply [claim:wsdoc-own-port] [claim:wsdoc-id] [claim:wsdoc-same-space] [claim:wsdoc-frames] [claim:wsdoc-origin] [claim:wsreadme-own-port] [claim:wsreadme-executor] [claim:wsreadme-defaults] [claim:wsreadme-space] [claim:wsreadme-accepted] [claim:tsdoc-ws-message-id] [claim:wp-websocket]', async () => {
    booted = await boot();
    // Only the port is chosen here (0, a free one): the host and path are the defaults.
    expect(booted.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ws$/);
    const client = await open(booted.url);
    for (const [id, text] of [
      ['1', 'Hello'],
      ['2', 'How are you?'],
      ['3', 'Bye'],
    ] as const) {
      client.send(message(id, text));
      const accepted = await client.next();
      expect(accepted).toMatchObject({ type: 'accepted', id });
      const reply = await client.next();
      expect(reply).toEqual({
        type: 'reply',
        id,
        taskId: (accepted as { taskId: string }).taskId,
        status: 'completed',
        reply: `echo: ${text}`,
      });
    }
    // The exchanges are stored in the space plugin-chat's HTTP route uses for the same room
    // and user, so a client may switch transports and keep the conversation.
    const stored = await booted.memory.query({ space: chatSpace('r42', 'ada').id, limit: 50 });
    expect(stored.map((memory) => JSON.stringify(memory.content)).join('\n')).toContain(
      'echo: Bye',
    );
  });

  it('writes the reply knowing the conversation so far: the earlier message and its reply are in the reply prompt [claim:wsreadme-executor-history]', async () => {
    const replyPrompts: string[] = [];
    booted = await boot({}, (messages, request) => {
      if (request.purpose !== 'plan' && request.purpose !== 'review') {
        replyPrompts.push(messages.map((entry) => entry.content).join('\n'));
      }
      return echoModel(messages, request);
    });
    const client = await open(booted.url);
    for (const [id, text] of [
      ['1', 'My name is Ada.'],
      ['2', 'What is my name?'],
    ] as const) {
      client.send(message(id, text));
      expect(await client.next()).toMatchObject({ type: 'accepted', id });
      expect(await client.next()).toMatchObject({ type: 'reply', id, reply: `echo: ${text}` });
    }
    const history = /## The conversation so far\n([\s\S]*?)\n\n## The message\n/.exec(
      replyPrompts[1] ?? '',
    )?.[1];
    expect(history).toContain('My name is Ada.');
    expect(history).toContain('echo: My name is Ada.');
  });

  it('asks the history of its reply prompt to list the replies of every chat plugin in the runtime, ChatPlugin’s included [claim:chat-reply-history-last-item]', async () => {
    const plugin = new WebSocketPlugin({ port: 0 });
    const runtime = await Runtime.init({
      models: [new ScriptedModelProvider({ responses: [] })],
      memory: new InMemoryMemoryProvider(),
      plugins: [plugin, new ChatPlugin({ trustClientUser: true })],
      options: { server: { port: 0 }, logger: capturingLogger('silent').logger },
    });
    stopAfterTest(runtime);
    await runtime.start();
    const asked: unknown[] = [];
    const context = {
      pluginId: 'websocket',
      step: { pluginId: 'websocket', action: 'reply' },
      chain: [],
      signal: new AbortController().signal,
      memory: {
        describeRelated: async (
          _space: unknown,
          _taskId: unknown,
          options: { results?: unknown },
        ) => {
          asked.push(options.results);
          return { memories: [], text: 'None.' };
        },
      },
      render: async () => 'prompt',
      models: { generateText: async () => 'Hello.' },
    };
    const task = {
      id: 't1',
      space: chatSpace('r42', 'ada'),
      trigger: { pluginId: 'websocket', action: 'message', message: 'Hi', data: {} },
    };
    const [executor] = plugin.executors;
    const result = await executor?.execute(
      task as unknown as AgentTask,
      context as unknown as Parameters<NonNullable<typeof executor>['execute']>[1],
    );
    expect(result).toEqual({ success: true, data: { text: 'Hello.' } });
    expect(asked).toEqual([['websocket/reply', 'chat/reply']]);
  });

  it('adds the warning to a reply whose chain could not be stored, without the store error; the message was stored [claim:wsreadme-warning] [claim:wsdoc-warning]', async () => {
    class FailingChainStore extends InMemoryMemoryProvider {
      override async store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
        if (memory.kind === 'chain') throw new Error('SQLITE_BUSY: database is locked');
        return super.store(memory);
      }
    }
    booted = await boot({}, echoModel, {}, new FailingChainStore());
    const client = await open(booted.url);
    client.send(message('1', 'Hello'));
    expect(await client.next()).toMatchObject({ type: 'accepted', id: '1' });
    const reply = await client.next();
    expect(reply).toMatchObject({
      type: 'reply',
      id: '1',
      status: 'completed',
      reply: 'echo: Hello',
      warning: NOT_REMEMBERED_WARNING,
    });
    expect(JSON.stringify(reply)).not.toContain('SQLITE_BUSY');
    // The reply is what is lost: the message was stored as its task started.
    const stored = await booted.memory.query({ space: chatSpace('r42', 'ada').id, limit: 10 });
    expect(stored.map((memory) => [memory.kind, memory.content])).toEqual([
      ['trigger', expect.objectContaining({ message: 'Hello' })],
    ]);
  });

  it('uses the user named by authenticate, not the one the frame claims [claim:wsdoc-auth-user] [claim:wsreadme-auth-user]', async () => {
    booted = await boot({ authenticate: () => ({ user: 'grace' }) });
    const client = await open(booted.url);
    client.send(message('1', 'hi', 'r42', 'mallory'));
    await client.next();
    await client.next();
    expect(
      await booted.memory.query({ space: chatSpace('r42', 'grace').id, limit: 10 }),
    ).not.toEqual([]);
    expect(await booted.memory.query({ space: chatSpace('r42', 'mallory').id, limit: 10 })).toEqual(
      [],
    );
    // Replaced, but not optional: a frame must still carry a valid user.
    client.send({ type: 'message', id: '2', room: 'r42', message: 'hi' });
    expect(await client.next()).toMatchObject({
      type: 'error',
      id: '2',
      code: 'WEFT_WS_INVALID_FRAME',
      message: expect.stringContaining('"user" is required'),
    });
  });

  it("checks that the room fits a space id with the user authenticate named, not with the frame's ignored user [claim:wsdoc-auth-user] [claim:errors-ws-invalid-frame-space-too-long]", async () => {
    // The room and the frame's user are too long together; the room and the named user fit.
    const room = `r${'-'.repeat(60)}`;
    const long = `u${'_'.repeat(63)}`;
    booted = await boot({ authenticate: () => ({ user: 'ada' }) });
    const client = await open(booted.url);
    client.send(message('1', 'hi', room, long));
    expect(await client.next()).toMatchObject({ type: 'accepted', id: '1' });
    expect(await client.next()).toMatchObject({ type: 'reply', id: '1', reply: 'echo: hi' });
    const spaces = new Set((await booted.memory.query({})).map((entry) => entry.space));
    expect(spaces).toEqual(new Set([chatSpace(room, 'ada').id]));
    await booted.runtime.stop();
    // Named too, a user that does not fit with the room still gets the frame refused, whatever
    // the frame's own user.
    booted = await boot({ authenticate: () => ({ user: long }) });
    const second = await open(booted.url);
    second.send(message('2', 'hi', room, 'ada'));
    expect(await second.next()).toMatchObject({
      type: 'error',
      id: '2',
      code: 'WEFT_WS_INVALID_FRAME',
      message: expect.stringMatching(/^Invalid frame: "room" is too long for this user/),
    });
  });

  it('keeps the spaces of ids built from user input apart, even when one id contains the separators [claim:wsdoc-same-space] [claim:wsreadme-space]', async () => {
    booted = await boot();
    const client = await open(booted.url);
    // Joined naively with "-", both pairs would read chat-room-a-user-b-user-c.
    client.send(message('1', 'first', 'a-user-b', 'c'));
    await client.next();
    await client.next();
    client.send(message('2', 'second', 'a', 'b-user-c'));
    await client.next();
    await client.next();
    const first = chatSpace('a-user-b', 'c').id;
    const second = chatSpace('a', 'b-user-c').id;
    expect(first).not.toBe(second);
    const inFirst = await booted.memory.query({ space: first, limit: 10 });
    const inSecond = await booted.memory.query({ space: second, limit: 10 });
    expect(inFirst.map((memory) => JSON.stringify(memory.content)).join()).toContain('first');
    expect(inFirst.map((memory) => JSON.stringify(memory.content)).join()).not.toContain('second');
    expect(inSecond.map((memory) => JSON.stringify(memory.content)).join()).toContain('second');
    expect(inSecond.map((memory) => JSON.stringify(memory.content)).join()).not.toContain('first');
  });
});

describe('WebSocketPlugin message order', () => {
  it("runs the messages of one room and user one at a time, while another room's message runs meanwhile [claim:wsdoc-one-space]", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const asked: string[] = [];
    booted = await boot({}, async (messages, request) => {
      const prompt = messages.map((entry) => entry.content).join('\n');
      // A reply prompt also holds the conversation so far: name the request by its own message.
      const own = /## The message\n([\s\S]*?)\n\n## /.exec(prompt)?.[1] ?? prompt;
      const text = /first|second|elsewhere/.exec(own)?.[0] ?? '?';
      asked.push(`${request.purpose ?? 'reply'}:${text}`);
      if (request.purpose !== 'plan' && request.purpose !== 'review' && text === 'first') {
        await gate;
      }
      return echoModel(messages, request);
    });
    const client = await open(booted.url);
    client.send(message('1', 'first'));
    expect(await client.next()).toMatchObject({ type: 'accepted', id: '1' });
    await expect.poll(() => asked.length, { timeout: 3_000 }).toBe(2);
    client.send(message('2', 'second'));
    client.send(message('3', 'elsewhere', 'r7'));
    const frames: ServerFrame[] = [];
    while (!frames.some((frame) => frame.type === 'reply' && frame.id === '3')) {
      frames.push(await client.next());
    }
    // The other room's task ran while the first held its space; the second waits behind it.
    expect(asked.filter((entry) => entry.endsWith(':second'))).toEqual([]);
    release();
    const rest: ServerFrame[] = [];
    while (!rest.some((frame) => frame.type === 'reply' && frame.id === '2')) {
      rest.push(await client.next());
    }
    expect(rest.filter((frame) => frame.type === 'reply').map((frame) => frame.id)).toEqual([
      '1',
      '2',
    ]);
    expect(asked.indexOf('plan:second')).toBeGreaterThan(asked.indexOf('reply:first'));
  });
});

describe('WebSocketPlugin beside ChatPlugin in one runtime', () => {
  it("answers with the reply whichever plugin's reply step the model planned, over both transports, and each sees the other's messages [claim:chat-readme-ws-same-spaces] [claim:wsdoc-same-space] [claim:wsdoc-both-transports] [claim:wsreadme-space] [claim:wsreadme-both-transports] [claim:httpchat-last-reply] [claim:chat-200]", async () => {
    const plans: string[] = [];
    // The planner is offered chat/reply and websocket/reply, which write the same reply: it
    // picks the other transport's step here, for both messages.
    const model = new ScriptedModelProvider({
      fallback: (messages, request) => {
        const prompt = messages.map((entry) => entry.content).join('\n');
        if (request.purpose === 'plan') {
          plans.push(prompt);
          return {
            steps: [
              {
                pluginId: prompt.includes('over the websocket') ? 'chat' : 'websocket',
                action: 'reply',
              },
            ],
          };
        }
        if (request.purpose === 'review') return { type: 'continue' };
        return echoModel(messages, request);
      },
    });
    const plugin = new WebSocketPlugin({ port: 0, trustClientUser: true });
    const runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [new ChatPlugin({ trustClientUser: true }), plugin],
      options: { server: { port: 0 }, logger: capturingLogger('info').logger },
    });
    stopAfterTest(runtime);
    await runtime.start();

    const client = await open(plugin.url as string);
    client.send(message('1', 'over the websocket'));
    expect(await client.next()).toMatchObject({ type: 'accepted', id: '1' });
    expect(await client.next()).toMatchObject({
      type: 'reply',
      id: '1',
      status: 'completed',
      reply: 'echo: over the websocket',
    });

    const response = await fetch(`${runtime.server.url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ room: 'r42', user: 'ada', message: 'then over HTTP' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'completed',
      reply: 'echo: then over HTTP',
    });
    // The same space: the HTTP message's planning saw the websocket one.
    expect(plans[1]).toContain('over the websocket');
  });

  it("refuses to start beside a ChatPlugin of another roomHistory, whose users would read through the model what this plugin's users wrote privately, and starts beside one of the same [claim:wsdoc-same-room-history] [claim:wsreadme-same-room-history]", async () => {
    const models = () => [new ScriptedModelProvider({ fallback: echoModel })];
    const shared = { roomHistory: 'shared', authorizeRoom: () => true } as const;
    for (const [http, socket, expected] of [
      [shared, {}, 'shared'],
      [{}, shared, 'private'],
    ] as const) {
      const runtime = await Runtime.init({
        models: models(),
        memory: new InMemoryMemoryProvider(),
        plugins: [
          new ChatPlugin({ authenticate: () => ({ user: 'ada' }), ...http }),
          new WebSocketPlugin({ port: 0, authenticate: () => ({ user: 'ada' }), ...socket }),
        ],
        options: { server: { port: 0 }, logger: capturingLogger('info').logger },
      });
      stopAfterTest(runtime);
      const failure = await runtime.start().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toMatchObject({ code: 'WEFT_START_FAILED' });
      const { cause } = failure as { cause: { code: string; message: string } };
      expect(cause.code).toBe('WEFT_WS_INVALID_OPTIONS');
      expect(cause.message).toContain(`option "roomHistory" must be '${expected}'`);
      expect(cause.message).toContain('"chat"');
    }
    const runtime = await Runtime.init({
      models: models(),
      memory: new InMemoryMemoryProvider(),
      plugins: [
        new ChatPlugin({ authenticate: () => ({ user: 'ada' }), ...shared }),
        new WebSocketPlugin({ port: 0, authenticate: () => ({ user: 'ada' }), ...shared }),
      ],
      options: { server: { port: 0 }, logger: capturingLogger('info').logger },
    });
    stopAfterTest(runtime);
    await runtime.start();
    expect(runtime.status).toBe('running');
  });

  it('shows, in the reply prompt, the answer given over the other transport even when a later step followed it [claim:wsreadme-executor-history]', async () => {
    /** A step the model plans after the reply. */
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
    const replyPrompts: string[] = [];
    let plans = 0;
    const model = new ScriptedModelProvider({
      fallback: (messages, request) => {
        const prompt = messages.map((entry) => entry.content).join('\n');
        if (request.purpose === 'plan') {
          // Each message is answered by its own transport's step; the first two replies are
          // followed by another step, which hides them from the outcome an earlier task shows.
          plans += 1;
          const pluginId = plans === 2 ? 'chat' : 'websocket';
          const after = plans === 3 ? [] : [{ pluginId: 'after', action: 'note' }];
          return { steps: [{ pluginId, action: 'reply' }, ...after] };
        }
        if (request.purpose === 'review') return { type: 'continue' };
        replyPrompts.push(prompt);
        return echoModel(messages, request);
      },
    });
    const plugin = new WebSocketPlugin({ port: 0, trustClientUser: true });
    const runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [new ChatPlugin({ trustClientUser: true }), plugin, new AfterPlugin()],
      options: { server: { port: 0 }, logger: capturingLogger('info').logger },
    });
    stopAfterTest(runtime);
    await runtime.start();

    const client = await open(plugin.url as string);
    client.send(message('1', 'first over the websocket'));
    expect(await client.next()).toMatchObject({ type: 'accepted', id: '1' });
    expect(await client.next()).toMatchObject({ type: 'reply', id: '1' });
    const response = await fetch(`${runtime.server.url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ room: 'r42', user: 'ada', message: 'then over HTTP' }),
    });
    expect(response.status).toBe(200);
    client.send(message('2', 'last over the websocket'));
    expect(await client.next()).toMatchObject({ type: 'accepted', id: '2' });
    expect(await client.next()).toMatchObject({ type: 'reply', id: '2' });

    // The HTTP reply's prompt shows the websocket answer, and the last one's the HTTP answer.
    expect(replyPrompts[1]).toContain(
      'Result: websocket/reply returned {"text":"echo: first over the websocket"}',
    );
    expect(replyPrompts[2]).toContain(
      'Result: chat/reply returned {"text":"echo: then over HTTP"}',
    );
  });

  it('counts maxInFlightPerUser apart from ChatPlugin, so a user may have that many messages waiting on each [claim:chat-readme-per-user-apart] [claim:wsreadme-per-user-apart] [claim:wsdoc-per-user-apart] [claim:tsdoc-chat-per-user-apart]', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const model = new ScriptedModelProvider({
      fallback: async (messages, request) => {
        if (request.purpose === 'plan') return { steps: [{ pluginId: 'chat', action: 'reply' }] };
        if (request.purpose === 'review') return { type: 'continue' };
        await gate;
        return echoModel(messages, request);
      },
    });
    const plugin = new WebSocketPlugin({ port: 0, trustClientUser: true, maxInFlightPerUser: 1 });
    const chat = new ChatPlugin({ trustClientUser: true, maxInFlightPerUser: 1 });
    const runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [chat, plugin],
      options: { server: { port: 0 }, logger: capturingLogger('info').logger },
    });
    stopAfterTest(runtime);
    await runtime.start();

    const post = (room: string) =>
      fetch(`${runtime.server.url}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ room, user: 'ada', message: `in ${room}` }),
      });
    const waiting = post('r1');
    await expect.poll(() => chat.access.inFlightOf('ada')).toBe(1);
    // HTTP's one slot is taken: a second message over HTTP is refused...
    expect((await post('r2')).status).toBe(429);
    // ...while the websocket plugin still takes one of the same user.
    const client = await open(plugin.url as string);
    client.send(message('1', 'over the websocket', 'r3'));
    expect(await client.next()).toMatchObject({ type: 'accepted', id: '1' });
    expect(plugin.access.inFlightOf('ada')).toBe(1);
    release();
    expect(await client.next()).toMatchObject({ type: 'reply', id: '1', status: 'completed' });
    expect((await waiting).status).toBe(200);
  });
});

describe('WebSocketPlugin bad input', () => {
  it('answers a malformed frame with an error naming what was wrong, and the connection survives [claim:wsreadme-error-id] [claim:wsdoc-id] [claim:wsdoc-same-space] [claim:wsdoc-frames] [claim:wsdoc-bad-frame] [claim:wsreadme-error-codes] [claim:wsreadme-space]', async () => {
    booted = await boot();
    const client = await open(booted.url);
    client.send('{not json');
    expect(await client.next()).toMatchObject({
      type: 'error',
      id: null,
      code: 'WEFT_WS_INVALID_FRAME',
      message: 'Invalid frame: it is not JSON.',
      docsUrl: expect.stringContaining('#weft_ws_invalid_frame'),
    });
    client.send({ type: 'message', id: '7', room: 'r 42', user: 'ada' });
    const error = await client.next();
    expect(error).toMatchObject({ type: 'error', id: '7', code: 'WEFT_WS_INVALID_FRAME' });
    expect((error as { message: string }).message).toContain('"room" must be a room id');
    expect((error as { message: string }).message).toContain('"message" is required');
    client.send({ type: 'hello', id: '8' });
    expect(((await client.next()) as { message: string }).message).toContain(
      '"type" must be "message"',
    );
    client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await client.next()).toMatchObject({ code: 'WEFT_WS_INVALID_FRAME', id: null });
    // A frame whose id is missing, not a string, empty or over 64 characters gets a null id too.
    for (const id of [undefined, 7, '', 'x'.repeat(65)]) {
      client.send({ type: 'message', id, room: 'r42', user: 'ada', message: 'hi' });
      expect(await client.next()).toMatchObject({ code: 'WEFT_WS_INVALID_FRAME', id: null });
    }
    client.send(message('9', 'still here?'));
    expect(await client.next()).toMatchObject({ type: 'accepted', id: '9' });
    expect(await client.next()).toMatchObject({
      type: 'reply',
      id: '9',
      reply: 'echo: still here?',
    });
  });

  it('refuses a message holding a NUL character or a lone surrogate with WEFT_WS_INVALID_FRAME, running no task [claim:wsdoc-message-unstorable] [claim:wsreadme-message-unstorable]', async () => {
    booted = await boot();
    const client = await open(booted.url);
    const frame = (id: string, escaped: string) =>
      `{"type":"message","id":"${id}","room":"r42","user":"ada","message":"${escaped}"}`;
    client.socket.send(frame('1', 'Hi\\u0000there'));
    expect(await client.next()).toMatchObject({
      type: 'error',
      id: '1',
      code: 'WEFT_WS_INVALID_FRAME',
      message: expect.stringContaining('"message" contains a NUL character'),
    });
    client.socket.send(frame('2', 'Hi \\udc00'));
    expect(await client.next()).toMatchObject({
      type: 'error',
      id: '2',
      code: 'WEFT_WS_INVALID_FRAME',
      message: expect.stringContaining('"message" contains a lone UTF-16 surrogate'),
    });
    expect(await booted.memory.query({ limit: 10 })).toEqual([]);
    client.send(message('3', 'still here?'));
    expect(await client.next()).toMatchObject({ type: 'accepted', id: '3' });
    expect(await client.next()).toMatchObject({ type: 'reply', id: '3' });
  });

  it('closes the connection with 1009 on a frame over maxPayloadBytes, without reading it into a task [claim:wsdoc-payload] [claim:wsreadme-payload]', async () => {
    booted = await boot({ maxPayloadBytes: 1024 });
    const client = await open(booted.url);
    client.send(message('1', 'x'.repeat(2000)));
    expect((await client.closed).code).toBe(1009);
    expect(booted.runtime.status).toBe('running');
  });

  it('closes the connection, with no error frame, on a text frame that is not UTF-8 (1007) and on an unmasked frame (1002) [claim:wsreadme-protocol-close] [claim:wsdoc-protocol-close]', async () => {
    booted = await boot();
    const notUtf8 = await open(booted.url);
    const frames: unknown[] = [];
    notUtf8.socket.on('message', (data) => frames.push(data));
    notUtf8.socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    expect((await notUtf8.closed).code).toBe(1007);
    const unmasked = await open(booted.url);
    unmasked.socket.on('message', (data) => frames.push(data));
    // A text frame "{}" whose mask bit is clear, which a client may not send.
    (unmasked.socket as unknown as { _socket: { write(data: Buffer): void } })._socket.write(
      Buffer.from([0x81, 0x02, 0x7b, 0x7d]),
    );
    expect((await unmasked.closed).code).toBe(1002);
    expect(frames).toEqual([]);
    expect(await booted.memory.query({ limit: 10 })).toEqual([]);
  });

  it('counts every frame of a fragmented message against maxPayloadBytes: fragments each under it close the connection with 1009 once their sum passes it [claim:wsreadme-payload] [claim:wsdoc-payload]', async () => {
    booted = await boot({ maxPayloadBytes: 1024 });
    const client = await open(booted.url);
    const text = JSON.stringify(message('1', 'x'.repeat(1200)));
    // Three text fragments of about 420 bytes: each alone is under the limit.
    sendInFragments(client, text, 3);
    expect((await client.closed).code).toBe(1009);
    expect(await booted.memory.query({ limit: 10 })).toEqual([]);
  });

  it('reads a message of exactly maxPayloadBytes, whole or in fragments, and closes with 1009 on one byte more [claim:wsdoc-payload]', async () => {
    booted = await boot({ maxPayloadBytes: 1024 });
    // A message frame padded so its JSON text is `bytes` long (ASCII: one byte a character).
    const ofBytes = (id: string, bytes: number) => {
      const empty = JSON.stringify(message(id, '')).length;
      const text = JSON.stringify(message(id, 'x'.repeat(bytes - empty)));
      expect(Buffer.byteLength(text)).toBe(bytes);
      return text;
    };
    const atLimit = await open(booted.url);
    atLimit.send(ofBytes('1', 1024));
    expect(await atLimit.next()).toMatchObject({ type: 'accepted', id: '1' });
    expect(await atLimit.next()).toMatchObject({ type: 'reply', id: '1' });
    sendInFragments(atLimit, ofBytes('2', 1024), 2);
    expect(await atLimit.next()).toMatchObject({ type: 'accepted', id: '2' });
    expect(await atLimit.next()).toMatchObject({ type: 'reply', id: '2' });
    const whole = await open(booted.url);
    whole.send(ofBytes('3', 1025));
    expect((await whole.closed).code).toBe(1009);
    const fragmented = await open(booted.url);
    sendInFragments(fragmented, ofBytes('4', 1025), 2);
    expect((await fragmented.closed).code).toBe(1009);
  });

  it('closes the connection with 1008, with no error frame, on a message split into more than 16384 fragments, however small [claim:wsreadme-fragments] [claim:wsdoc-fragments]', async () => {
    booted = await boot();
    // 16384 fragments, the most ws takes: the message is read, and answered (not JSON).
    const atCap = await open(booted.url);
    for (let index = 0; index < 16_383; index += 1) atCap.socket.send(' ', { fin: false });
    atCap.socket.send(' ', { fin: true });
    expect(await atCap.next()).toMatchObject({ type: 'error', code: 'WEFT_WS_INVALID_FRAME' });
    expect(booted.plugin.connectionCount).toBe(1);
    const client = await open(booted.url);
    const frames: unknown[] = [];
    client.socket.on('message', (data) => frames.push(data));
    // 16385 fragments of one byte: far under maxPayloadBytes, one fragment over ws's cap.
    for (let index = 0; index < 16_384; index += 1) client.socket.send(' ', { fin: false });
    client.socket.send(' ', { fin: true });
    expect((await client.closed).code).toBe(1008);
    expect(frames).toEqual([]);
    expect(await booted.memory.query({ limit: 10 })).toEqual([]);
  });

  it('takes a message sent in fragments whose sum is within maxPayloadBytes [claim:wsreadme-payload]', async () => {
    booted = await boot({ maxPayloadBytes: 1024 });
    const client = await open(booted.url);
    const text = JSON.stringify(message('1', 'x'.repeat(600)));
    sendInFragments(client, text, 2);
    expect(await client.next()).toMatchObject({ type: 'accepted', id: '1' });
    expect(await client.next()).toMatchObject({ type: 'reply', id: '1' });
  });

  it('refuses a message id already waiting for its reply, and more than maxInFlight messages [claim:wsreadme-max-in-flight] [claim:wsdoc-caps] [claim:prod-chat-caps-refuse] [claim:wsreadme-error-codes] [claim:wsreadme-id] [claim:errors-ws-invalid-frame-id-in-use] [claim:wsdoc-id]', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    booted = await boot({ maxInFlight: 2 }, async (messages, request) => {
      if (request.purpose === 'plan' || request.purpose === 'review')
        return echoModel(messages, request);
      await gate;
      return 'done';
    });
    const client = await open(booted.url);
    client.send(message('a', 'one', 'r1'));
    client.send(message('a', 'again', 'r2'));
    client.send(message('b', 'two', 'r3'));
    client.send(message('c', 'three', 'r4'));
    const frames = [
      await client.next(),
      await client.next(),
      await client.next(),
      await client.next(),
    ];
    expect(
      frames
        .filter((frame) => frame.type === 'accepted')
        .map((frame) => frame.id)
        .sort(),
    ).toEqual(['a', 'b']);
    const errors = frames.filter((frame) => frame.type === 'error');
    expect(errors).toEqual([
      expect.objectContaining({
        id: 'a',
        code: 'WEFT_WS_INVALID_FRAME',
        message: expect.stringContaining('"id" is already used'),
      }),
      expect.objectContaining({ id: 'c', code: 'WEFT_WS_TOO_MANY_TASKS' }),
    ]);
    release();
    const replies = [await client.next(), await client.next()];
    expect(replies.map((frame) => frame.type)).toEqual(['reply', 'reply']);
  });
});

describe('WebSocketPlugin upgrade checks', () => {
  it('refuses an Origin not in allowedOrigins with 403 before upgrading, and accepts a listed one [claim:wsdoc-origin] [claim:wsreadme-order] [claim:wsreadme-plain-http] [claim:wp-websocket] [claim:errors-403-cause]', async () => {
    booted = await boot({ allowedOrigins: ['https://chat.example.com'] });
    const refused = await refusedUpgrade(booted.url, { origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'WEFT_WS_ORIGIN_NOT_ALLOWED', status: 403 });
    expect(booted.plugin.connectionCount).toBe(0);
    const client = await open(booted.url, { origin: 'https://CHAT.example.com:443' });
    expect(client.socket.readyState).toBe(client.socket.OPEN);
  });

  it.each([{}, { allowedHosts: true as const }])(
    'refuses with 400 Bad Request an upgrade whose Host is empty, as the runtime server does, whatever allowedHosts says (%j) [claim:wsdoc-empty-host] [claim:wsreadme-order]',
    async (options) => {
      booted = await boot(options);
      const { port } = new URL(booted.url);
      const answerTo = (hostLine: string) =>
        rawAnswer(
          port,
          `GET /ws HTTP/1.1\r\n${hostLine}Connection: Upgrade\r\nUpgrade: websocket\r\n` +
            'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
        );
      for (const [hostLine, message] of [
        ['Host:\r\n', 'The Host header must name a host; it is empty'],
        ['Host:   \r\n', 'The Host header must name a host; it is empty'],
      ] as const) {
        const answer = await answerTo(hostLine);
        expect(answer, JSON.stringify(hostLine)).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
        expect(JSON.parse(answer.split('\r\n\r\n')[1] ?? '')).toMatchObject({
          error: { status: 400, code: 'WEFT_BAD_REQUEST', message },
        });
      }
      expect(booted.plugin.connectionCount).toBe(0);
    },
  );

  it('refuses with 403 a version 8 handshake whose Sec-WebSocket-Origin is not allowed, and logs that origin [claim:wsdoc-origin]', async () => {
    booted = await boot({ allowedOrigins: ['https://chat.example.com'] });
    const { port } = new URL(booted.url);
    const answer = await rawAnswer(
      port,
      `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\n` +
        'Upgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n' +
        'Sec-WebSocket-Version: 8\r\nSec-WebSocket-Origin: https://evil.example\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(JSON.parse(answer.split('\r\n\r\n')[1] ?? '')).toMatchObject({
      error: { status: 403, code: 'WEFT_WS_ORIGIN_NOT_ALLOWED' },
    });
    expect(booted.plugin.connectionCount).toBe(0);
    expect(booted.logs).toContainEqual(
      expect.objectContaining({
        msg: 'websocket: upgrade refused',
        code: 'WEFT_WS_ORIGIN_NOT_ALLOWED',
        origin: 'https://evil.example',
      }),
    );
  });

  it('takes the origin of a browser extension or an app listed in allowedOrigins, which the URL standard gives no origin of its own, and refuses others of that scheme [claim:wsreadme-origin-schemes]', async () => {
    booted = await boot({
      allowedOrigins: ['chrome-extension://abcdefghijklmnop', 'capacitor://localhost'],
    });
    for (const origin of ['chrome-extension://abcdefghijklmnop', 'capacitor://localhost']) {
      const client = await open(booted.url, { origin });
      expect(client.socket.readyState, origin).toBe(client.socket.OPEN);
    }
    for (const origin of ['chrome-extension://ponmlkjihgfedcba', 'capacitor://evil', 'null']) {
      const refused = await refusedUpgrade(booted.url, { origin });
      expect(refused.body.error, origin).toMatchObject({ code: 'WEFT_WS_ORIGIN_NOT_ALLOWED' });
    }
    expect(() => new WebSocketPlugin({ allowedOrigins: ['chrome-extension://abc/page'] })).toThrow(
      /option "allowedOrigins" must be origins/,
    );
    for (const origin of ['file:///index.html', 'file://server']) {
      expect(() => new WebSocketPlugin({ allowedOrigins: [origin] }), origin).toThrow(
        /option "allowedOrigins" must be origins/,
      );
    }
  });

  it('refuses a Host header that is not allowed, as the runtime server does [claim:wsdoc-host] [claim:wsreadme-order] [claim:errors-host-not-allowed-websocket]', async () => {
    booted = await boot();
    const refused = await refusedUpgrade(booted.url, { headers: { host: 'rebound.example' } });
    expect(refused).toMatchObject({
      status: 403,
      body: { error: { code: 'WEFT_HOST_NOT_ALLOWED' } },
    });
    // Loopback names, IP addresses and the plugin's own allowedHosts pass; the runtime server's
    // allowedHosts is not the plugin's.
    const named = await boot({ allowedHosts: ['chat.example.com'] }, echoModel, {
      server: { allowedHosts: ['runtime.example.com'] },
    });
    for (const host of ['localhost:1', '10.1.2.3:3001', '[::1]:3001', 'chat.example.com:3001']) {
      (await open(named.url, { headers: { host } })).socket.close();
    }
    expect(
      await refusedUpgrade(named.url, { headers: { host: 'runtime.example.com' } }),
    ).toMatchObject({ status: 403, body: { error: { code: 'WEFT_HOST_NOT_ALLOWED' } } });
  });

  it('judges the host a request line in absolute form names, not the Host header, as the runtime server does; one naming no host or user information gets 400 [claim:wsdoc-host-absolute-form] [claim:wsreadme-host-absolute-form] [claim:tsdoc-ws-gate-order] [claim:errors-host-absolute-form] [claim:errors-bad-request-absolute-form]', async () => {
    const handshake =
      'Upgrade: websocket\r\nConnection: Upgrade\r\n' +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n';
    const upgradeTo = (url: string, target: string, host: string): Promise<string> =>
      upgradeAnswer(url, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\n${handshake}`);
    const errorOf = (answer: string) =>
      (JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: unknown }).error;
    booted = await boot({ allowedHosts: ['chat.example.com'] });
    const anyHost = await boot({ allowedHosts: true });
    // An allowed Host does not let through a target that names another host.
    const refused = await upgradeTo(booted.url, 'http://rebound.example/ws', 'localhost');
    expect(refused).toMatch(/^HTTP\/1\.1 403 /);
    expect(errorOf(refused)).toMatchObject({
      code: 'WEFT_HOST_NOT_ALLOWED',
      message: 'Host "rebound.example" is not allowed by this server',
    });
    // A target naming no host, or only a port, is malformed too, not a request for another path.
    for (const target of [
      'http://user@localhost/ws',
      'http://localhost@rebound.example/ws',
      'http:///ws',
      'http://@/ws',
      'http://:3001/ws',
    ]) {
      for (const url of [booted.url, anyHost.url]) {
        const answer = await upgradeTo(url, target, 'localhost');
        expect(answer, `${url} ${target}`).toMatch(/^HTTP\/1\.1 400 /);
        expect(errorOf(answer)).toMatchObject({
          code: 'WEFT_BAD_REQUEST',
          message:
            'A request target in absolute form must name a host, without user information (user@)',
        });
      }
    }
    expect(booted.plugin.connectionCount + anyHost.plugin.connectionCount).toBe(0);
    // A target naming an allowed host opens, whatever Host says.
    expect(await upgradeTo(booted.url, 'ws://chat.example.com:3001/ws', 'rebound.example')).toMatch(
      /^HTTP\/1\.1 101 /,
    );
  });

  it('refuses an upgrade without a Host header with 400 WEFT_BAD_REQUEST whatever allowedHosts says, and any HTTP/1.0 upgrade with 400 WEFT_BAD_REQUEST, Host or not, since RFC 6455 needs HTTP/1.1 [claim:errors-host-missing-websocket] [claim:wsdoc-empty-host] [claim:wsreadme-order] [claim:wsdoc-http10] [claim:errors-bad-request-ws-http10] [claim:errors-400-ws-http10]', async () => {
    // Clients always send Host, so the request is written by hand.
    const upgradeWithoutHost = (url: string, version: '1.0' | '1.1', host = ''): Promise<string> =>
      upgradeAnswer(
        url,
        `GET /ws HTTP/${version}\r\n${host}Upgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      );
    const errorOf = (answer: string) =>
      (JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: unknown }).error;
    booted = await boot();
    const anyHost = await boot({ allowedHosts: true });
    for (const url of [booted.url, anyHost.url]) {
      const answer = await upgradeWithoutHost(url, '1.1');
      expect(answer, url).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(errorOf(answer), url).toMatchObject({
        status: 400,
        code: 'WEFT_BAD_REQUEST',
        message: 'An HTTP/1.1 request must carry a Host header',
      });
    }
    // HTTP/1.0 may leave Host out, but a websocket upgrade needs HTTP/1.1: with Host or without,
    // and whatever allowedHosts says, it is refused before Host is read.
    for (const [url, host] of [
      [booted.url, ''],
      [anyHost.url, ''],
      [booted.url, 'Host: localhost\r\n'],
      [anyHost.url, 'Host: localhost\r\n'],
    ] as const) {
      const http10 = await upgradeWithoutHost(url, '1.0', host);
      expect(http10, `${url} ${host}`).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(errorOf(http10), `${url} ${host}`).toMatchObject({
        status: 400,
        code: 'WEFT_BAD_REQUEST',
        message: 'A websocket upgrade must use HTTP/1.1 or later, not HTTP/1.0',
      });
    }
    expect(booted.plugin.connectionCount).toBe(0);
    expect(anyHost.plugin.connectionCount).toBe(0);
    // The same upgrade over HTTP/1.1 opens.
    expect(await upgradeWithoutHost(anyHost.url, '1.1', 'Host: localhost\r\n')).toMatch(
      /^HTTP\/1\.1 101 /,
    );
  });

  it('refuses an upgrade with two Host headers with 400 WEFT_BAD_REQUEST, as the runtime server does, whichever comes first [claim:wsdoc-duplicate-host] [claim:wsreadme-order]', async () => {
    // Clients send one Host, so the request is written by hand; Node keeps the first in headers.
    const upgradeWithHosts = (url: string, hosts: string[]): Promise<string> =>
      upgradeAnswer(
        url,
        `GET /ws HTTP/1.1\r\n${hosts.map((host) => `Host: ${host}\r\n`).join('')}` +
          'Upgrade: websocket\r\nConnection: Upgrade\r\n' +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      );
    booted = await boot();
    const anyHost = await boot({ allowedHosts: true });
    for (const { url } of [booted, anyHost]) {
      for (const hosts of [
        ['localhost', 'rebound.example'],
        ['rebound.example', 'localhost'],
        ['localhost', 'localhost'],
      ]) {
        const answer = await upgradeWithHosts(url, hosts);
        expect(answer, hosts.join(' ')).toMatch(/^HTTP\/1\.1 400 /);
        const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as {
          error: Record<string, unknown>;
        };
        expect(body.error).toMatchObject({
          status: 400,
          code: 'WEFT_BAD_REQUEST',
          message: 'A request must carry one Host header, not 2',
          docsUrl: expect.stringMatching(/#weft_bad_request$/) as unknown,
        });
      }
    }
    expect(booted.plugin.connectionCount + anyHost.plugin.connectionCount).toBe(0);
    // One Host header still goes through.
    expect(await upgradeWithHosts(booted.url, ['localhost'])).toMatch(/^HTTP\/1\.1 101 /);
  });

  it('answers an upgrade the runtime server would refuse as it reads it the same way: 505 for HTTP/2.0 and HTTP/0.9, 501 for a transfer coding other than chunked, 400 for an unknown method, each in JSON with its X-Request-Id, before the Host check [claim:wsdoc-protocol-refusals] [claim:wsreadme-protocol-refusals] [claim:wsreadme-order] [claim:errors-bad-request-ws-protocol] [claim:errors-501-websocket] [claim:errors-505-websocket] [claim:tsdoc-ws-gate-order]', async () => {
    const handshake =
      'Upgrade: websocket\r\nConnection: Upgrade\r\n' +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n';
    booted = await boot();
    const cases: [string, number, string][] = [
      [`GET /ws HTTP/2.0\r\nHost: localhost\r\n`, 505, 'HTTP/2.0 is not supported'],
      [`GET /ws HTTP/0.9\r\nHost: localhost\r\n`, 505, 'HTTP/0.9 is not supported'],
      // Before the Host check, as every check of the request line and framing.
      [`GET /ws HTTP/2.0\r\nHost: rebound.example\r\n`, 505, 'HTTP/2.0 is not supported'],
      [
        `GET /ws HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip, chunked\r\n`,
        501,
        'Transfer-Encoding "gzip" is not supported',
      ],
      [`FOO /ws HTTP/1.1\r\nHost: localhost\r\n`, 400, 'The request is not valid HTTP/1.1'],
    ];
    for (const [head, status, message] of cases) {
      const answer = await upgradeAnswer(booted.url, `${head}${handshake}\r\n`);
      expect(answer, head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      const requestId = /\r\nX-Request-Id: ([0-9a-f-]{36})\r\n/i.exec(answer)?.[1];
      expect(requestId, head).toBeDefined();
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as {
        error: Record<string, unknown>;
      };
      expect(body.error, head).toEqual({
        status,
        code: 'WEFT_BAD_REQUEST',
        message: expect.stringContaining(message) as unknown,
        docsUrl: expect.stringMatching(/#weft_bad_request$/) as unknown,
        requestId,
      });
    }
    expect(booted.plugin.connectionCount).toBe(0);
    // The same handshake over HTTP/1.1 without a transfer coding opens.
    expect(
      await upgradeAnswer(booted.url, `GET /ws HTTP/1.1\r\nHost: localhost\r\n${handshake}\r\n`),
    ).toMatch(/^HTTP\/1\.1 101 /);
  });

  it('runs authenticate before the upgrade: refused, throwing and hung hooks, and a user id no frame could hold, answer 401 without internals [claim:wsreadme-auth-timeout] [claim:httpchat-options-same] [claim:wsdoc-auth] [claim:wsreadme-order] [claim:wsreadme-plain-http] [claim:wp-websocket] [claim:errors-401-cause] [claim:wsreadme-authenticate-option]', async () => {
    const seen: string[] = [];
    booted = await boot({
      authTimeoutMs: 200,
      authenticate: async (request) => {
        const token = request.headers.authorization ?? '';
        seen.push(token);
        if (token === 'Bearer good') return true;
        if (token === 'Bearer crash')
          throw new Error('auth backend at 10.0.0.7 refused: secret=abc');
        if (token === 'Bearer hang') return new Promise<boolean>(() => undefined);
        // A user id no frame's user could hold.
        if (token === 'Bearer email') return { user: 'ada@example.com' };
        // An answer that is neither true, false nor { user }.
        if (token === 'Bearer odd') return 'yes' as unknown as boolean;
        return false;
      },
    });
    for (const token of [
      'Bearer bad',
      'Bearer crash',
      'Bearer hang',
      'Bearer email',
      'Bearer odd',
    ]) {
      const started = Date.now();
      const refused = await refusedUpgrade(booted.url, { headers: { authorization: token } });
      expect(refused.status, token).toBe(401);
      expect(refused.body.error.code).toBe('WEFT_WS_UNAUTHORIZED');
      expect(JSON.stringify(refused.body)).not.toContain('10.0.0.7');
      expect(Date.now() - started).toBeLessThan(2_000);
    }
    expect(booted.plugin.connectionCount).toBe(0);
    const crashLog = booted.logs.find((line) => String(line.msg).includes('authenticate threw'));
    expect(String(crashLog?.error)).toContain('10.0.0.7');
    const idLog = booted.logs.find((line) => String(line.msg).includes('not a valid id'));
    expect(idLog).toMatchObject({ user: 'ada@example.com' });
    await open(booted.url, { headers: { authorization: 'Bearer good' } });
    expect(seen).toEqual([
      'Bearer bad',
      'Bearer crash',
      'Bearer hang',
      'Bearer email',
      'Bearer odd',
      'Bearer good',
    ]);
    expect(booted.plugin.connectionCount).toBe(1);
  });

  it('refuses connections past maxConnections with 503, and plain HTTP with 426 [claim:wsreadme-max-connections] [claim:errors-503-sources] [claim:wsdoc-caps] [claim:wsreadme-order] [claim:wsreadme-plain-http] [claim:errors-426-cause]', async () => {
    booted = await boot({ maxConnections: 1 });
    await open(booted.url);
    const refused = await refusedUpgrade(booted.url);
    expect(refused).toMatchObject({
      status: 503,
      body: { error: { code: 'WEFT_WS_TOO_MANY_CONNECTIONS' } },
    });
    const plain = await fetch(booted.url.replace('ws://', 'http://'));
    expect(plain.status).toBe(426);
    expect(((await plain.json()) as { error: { code: string } }).error.code).toBe(
      'WEFT_WS_UPGRADE_REQUIRED',
    );
  });

  it('keeps no count per client address: one address takes every slot, with a user of its own on each connection or with none [claim:wsdoc-no-address-cap] [claim:wsreadme-no-address-cap] [claim:wsdoc-address-cap-in-proxy]', async () => {
    // With trustClientUser and no authenticate, no connection counts for a user.
    booted = await boot({ maxConnections: 3 });
    for (let i = 0; i < 3; i += 1) await open(booted.url);
    expect(booted.plugin.connectionCount).toBe(3);
    expect(await refusedUpgrade(booted.url)).toMatchObject({ status: 503 });
    // With authenticate naming the user of each token, only the user's own cap holds.
    const named = await boot({
      maxConnections: 4,
      maxConnectionsPerUser: 2,
      authenticate: (request) => ({
        user: `u${new URL(request.url ?? '/', 'http://localhost').searchParams.get('u') ?? ''}`,
      }),
    });
    for (const user of ['1', '1', '2', '2']) await open(`${named.url}?u=${user}`);
    expect(named.plugin.connectionCount).toBe(4);
    expect(await refusedUpgrade(`${named.url}?u=3`)).toMatchObject({
      status: 503,
      body: { error: { code: 'WEFT_WS_TOO_MANY_CONNECTIONS' } },
    });
    // The plugin serves plain ws://, which a public wss:// address puts behind a TLS proxy.
    expect(named.url.startsWith('ws://')).toBe(true);
  });

  it('does not count a TCP connection that has not sent its upgrade against maxConnections, and cuts it at handshakeTimeoutMs [claim:wsreadme-max-connections-tcp]', async () => {
    booted = await boot({ maxConnections: 1, handshakeTimeoutMs: 300 });
    const { port } = new URL(booted.url);
    const silent = await Promise.all(
      [1, 2, 3].map(async () => {
        const socket = tcpConnect(Number(port), '127.0.0.1');
        socket.on('error', () => undefined);
        await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
        return socket;
      }),
    );
    // Three connections that never send an upgrade, and the one websocket the cap allows opens.
    const client = await open(booted.url);
    expect(booted.plugin.connectionCount).toBe(1);
    expect(await refusedUpgrade(booted.url)).toMatchObject({ status: 503 });
    await Promise.all(
      silent.map((socket) => new Promise<void>((resolve) => socket.once('close', () => resolve()))),
    );
    client.send(message('1', 'still here'));
    expect(await client.next()).toMatchObject({ type: 'accepted', id: '1' });
  });

  it('counts upgrades whose authenticate is still running against maxConnections, so one more is refused with 503 before any connection is open [claim:wsreadme-max-connections] [claim:errors-ws-too-many-connections-checking]', async () => {
    let admit: (() => void) | undefined;
    const asked: string[] = [];
    booted = await boot({
      maxConnections: 1,
      authenticate: (request) => {
        asked.push(request.headers.authorization ?? '');
        return new Promise<boolean>((resolve) => {
          admit = () => resolve(true);
        });
      },
    });
    const first = connect(booted.url, { headers: { authorization: 'first' } });
    await vi.waitFor(() => expect(asked).toEqual(['first']));
    expect(booted.plugin.connectionCount).toBe(0);
    const refused = await refusedUpgrade(booted.url, { headers: { authorization: 'second' } });
    expect(refused).toMatchObject({
      status: 503,
      body: { error: { code: 'WEFT_WS_TOO_MANY_CONNECTIONS' } },
    });
    // The cap refused it before its authenticate ran.
    expect(asked).toEqual(['first']);
    admit?.();
    const client = await first;
    expect(booted.plugin.connectionCount).toBe(1);
    client.socket.terminate();
  });

  it('answers an upgrade that is not a websocket handshake with 426 in JSON, not ws’s plain text, and runs no authenticate but for a malformed subprotocol list, which ws finds last [claim:wsreadme-order] [claim:errors-426-cause] [claim:wsreadme-plain-http] [claim:tsdoc-ws-handshake-problem] [claim:errors-ws-upgrade-required-handshake]', async () => {
    let asked = 0;
    booted = await boot({
      authenticate: () => {
        asked += 1;
        return { user: 'ada' };
      },
    });
    const { port } = new URL(booted.url);
    const handshake =
      `Host: 127.0.0.1:${port}\r\nConnection: Upgrade\r\n` +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';
    const answerTo = (request: string) => rawAnswer(port, request);
    const requests = [
      `GET /ws HTTP/1.1\r\n${handshake}Upgrade: h2c\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      `POST /ws HTTP/1.1\r\n${handshake}Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      `GET /ws HTTP/1.1\r\n${handshake}Upgrade: websocket\r\nSec-WebSocket-Version: 7\r\n\r\n`,
      `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    ];
    for (const request of requests) {
      const answer = await answerTo(request);
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      expect(head, request).toMatch(/^HTTP\/1\.1 426 Upgrade Required\r\n/);
      expect(head).toMatch(/\r\nUpgrade: websocket\r\n/i);
      expect(head).toMatch(/\r\nContent-Type: application\/json/i);
      expect(JSON.parse(body)).toMatchObject({
        error: {
          status: 426,
          code: 'WEFT_WS_UPGRADE_REQUIRED',
          message: expect.stringMatching(/^Not a websocket handshake: /),
        },
      });
    }
    expect(asked).toBe(0);
    // What ws itself still refuses after the gate, a malformed subprotocol list, is answered alike.
    const badProtocol = await answerTo(
      `GET /ws HTTP/1.1\r\n${handshake}Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: a,,b\r\n\r\n`,
    );
    expect(badProtocol).toMatch(/^HTTP\/1\.1 426 Upgrade Required\r\n/);
    expect(JSON.parse(badProtocol.split('\r\n\r\n')[1] ?? '')).toMatchObject({
      error: { code: 'WEFT_WS_UPGRADE_REQUIRED', message: expect.stringContaining('Protocol') },
    });
    // Read last: the same list on an upgrade whose Host is not allowed gets that refusal instead.
    const badProtocolRebound = await answerTo(
      `GET /ws HTTP/1.1\r\nHost: rebound.example\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: a,,b\r\n\r\n`,
    );
    expect(badProtocolRebound).toMatch(/^HTTP\/1\.1 403 /);
    expect(JSON.parse(badProtocolRebound.split('\r\n\r\n')[1] ?? '')).toMatchObject({
      error: { code: 'WEFT_HOST_NOT_ALLOWED' },
    });
    // ws reads the subprotocol list only when the plugin hands it the upgrade, after authenticate.
    expect(asked).toBe(1);
    expect(booted.plugin.connectionCount).toBe(0);
  });

  it('answers every plain HTTP request with 426 in JSON, one without Host or with an Expect other than 100-continue included, where Node would send an empty answer of its own [claim:errors-426-cause] [claim:wsreadme-plain-http]', async () => {
    booted = await boot();
    const { port } = new URL(booted.url);
    const answerTo = (request: string) =>
      new Promise<string>((resolve) => {
        const socket = tcpConnect(Number(port), '127.0.0.1', () => socket.write(request));
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => {
          text += chunk;
          // The answer is whole once its JSON body (sent chunked) has closed; the connection
          // may stay open.
          if (text.endsWith('0\r\n\r\n')) socket.end();
        });
        socket.on('error', () => undefined);
        socket.on('close', () => resolve(text));
      });
    for (const request of [
      'GET /ws HTTP/1.1\r\n\r\n',
      `GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nExpect: something-else\r\n\r\n`,
    ]) {
      const answer = await answerTo(request);
      const [head = ''] = answer.split('\r\n\r\n');
      const body = /\{[\s\S]*\}/.exec(answer)?.[0] ?? '';
      expect(head, request).toMatch(/^HTTP\/1\.1 426 Upgrade Required\r\n/);
      expect(head, request).toMatch(/\r\nX-Request-Id: /i);
      expect(JSON.parse(body), request).toMatchObject({
        error: { status: 426, code: 'WEFT_WS_UPGRADE_REQUIRED' },
      });
    }
  });

  it('drops a client that sends its upgrade headers too slowly, once handshakeTimeoutMs has passed [claim:wsreadme-handshake-timeout] [claim:wsdoc-handshake-timeout]', async () => {
    booted = await boot({ handshakeTimeoutMs: 300 });
    const { port } = new URL(booted.url);
    const socket = tcpConnect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.write('GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n');
    const started = Date.now();
    await new Promise<void>((resolve) => socket.on('close', () => resolve()));
    // Not before the timeout (timers may fire a few ms early), and soon after it.
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(3_000);
    // Cut without an answer: no 408 from the HTTP server.
    expect(received).toBe('');
  });
});

describe('WebSocketPlugin deadlines and limits', () => {
  it('cuts a client that connects and sends nothing, without an answer, from handshakeTimeoutMs up to 1 s after it [claim:wsreadme-handshake-timeout] [claim:wsdoc-handshake-timeout]', async () => {
    booted = await boot({ handshakeTimeoutMs: 1_500 });
    const { port } = new URL(booted.url);
    const socket = tcpConnect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    const started = Date.now();
    await new Promise<void>((resolve) => socket.on('close', () => resolve()));
    const took = Date.now() - started;
    // The HTTP server looks at its connections once a second, so the cut comes late by up to that.
    expect(took).toBeGreaterThanOrEqual(1_450);
    expect(took).toBeLessThan(2_800);
    expect(received).toBe('');
  });

  it('counts handshakeTimeoutMs from connecting, not from the first byte: a client that starts its request just before the deadline gets no second one [claim:wsreadme-handshake-timeout] [claim:wsdoc-handshake-timeout]', async () => {
    booted = await boot({ handshakeTimeoutMs: 2_000 });
    // A client that upgraded in time is no longer held to the deadline.
    const upgraded = await open(booted.url);
    const { port } = new URL(booted.url);
    const socket = tcpConnect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    const started = Date.now();
    // The HTTP server's own deadline starts again at the first byte: alone, it would cut this
    // client no sooner than 3.9 s after it connected.
    const trickle: NodeJS.Timeout[] = [
      setTimeout(() => socket.write('GET /ws HTTP/1.1\r\n'), 1_900),
      setTimeout(() => {
        trickle.push(setInterval(() => socket.write('X-Slow: 1\r\n'), 200));
      }, 2_000),
    ];
    await new Promise<void>((resolve) => socket.on('close', () => resolve()));
    for (const timer of trickle) clearTimeout(timer);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(1_950);
    expect(took).toBeLessThan(3_600);
    expect(received).toBe('');
    upgraded.send(message('1', 'still here'));
    expect(await upgraded.next()).toMatchObject({ type: 'accepted', id: '1' });
    expect(await upgraded.next()).toMatchObject({ type: 'reply', reply: 'echo: still here' });
  });

  it('counts taskTimeoutMs from the accepted frame: a slow authorizeRoom before it does not use it up [claim:wsreadme-task-timeout-slot] [claim:wsdoc-timeout]', async () => {
    booted = await boot({
      taskTimeoutMs: 300,
      authorizeRoom: () => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 500)),
    });
    const client = await open(booted.url);
    const sent = Date.now();
    client.send(message('1', 'slow door'));
    expect(await client.next()).toMatchObject({ type: 'accepted', id: '1' });
    expect(Date.now() - sent).toBeGreaterThanOrEqual(450);
    expect(await client.next()).toMatchObject({ type: 'reply', id: '1', reply: 'echo: slow door' });
  });

  it('answers WEFT_WS_TASK_TIMEOUT with the task id when the model hangs, and the connection goes on [claim:wsdoc-timeout] [claim:wsreadme-error-codes] [claim:wp-websocket]', async () => {
    let hung = true;
    booted = await boot(
      { taskTimeoutMs: 300 },
      (messages, request) => {
        if (request.purpose === 'plan' || request.purpose === 'review')
          return echoModel(messages, request);
        if (hung) return new Promise<string>(() => undefined);
        return 'awake';
      },
      { taskTimeoutMs: 1_000 },
    );
    const done: Promise<AgentTask>[] = [];
    const accept = booted.runtime.accept.bind(booted.runtime);
    vi.spyOn(booted.runtime, 'accept').mockImplementation(async (event) => {
      const result = await accept(event);
      done.push(result.done);
      return result;
    });
    const client = await open(booted.url);
    client.send(message('1', 'are you there?'));
    const accepted = (await client.next()) as { taskId: string };
    const started = Date.now();
    const timeout = await client.next();
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(timeout).toMatchObject({
      type: 'error',
      id: '1',
      code: 'WEFT_WS_TASK_TIMEOUT',
      taskId: accepted.taskId,
    });
    // The runtime's own taskTimeoutMs (1000 here) ends the hung task.
    const ended = await done[0]!;
    expect(ended.status).toBe('failed');
    expect(Date.now() - started).toBeLessThan(2_500);
    hung = false;
    // Another room: tasks of one space run one at a time, so this one would queue behind the
    // hung task until the runtime's own taskTimeoutMs ends it.
    client.send(message('2', 'now?', 'r43'));
    await client.next();
    expect(await client.next()).toMatchObject({ type: 'reply', id: '2', reply: 'awake' });
  });

  it('answers WEFT_QUEUE_FULL to a message the full queue refuses, and the connection goes on [claim:wsreadme-error-codes] [claim:errors-ws-internal] [claim:errors-queue-full-websocket]', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    booted = await boot(
      {},
      async (messages, request) => {
        if (request.purpose === 'plan' || request.purpose === 'review')
          return echoModel(messages, request);
        await gate;
        return 'done';
      },
      { scheduler: { concurrency: 1, maxQueueSize: 1 } },
    );
    const client = await open(booted.url);
    client.send(message('1', 'runs', 'r1'));
    expect(await client.next()).toMatchObject({ type: 'accepted', id: '1' });
    client.send(message('2', 'waits', 'r2'));
    expect(await client.next()).toMatchObject({ type: 'accepted', id: '2' });
    client.send(message('3', 'refused', 'r3'));
    expect(await client.next()).toMatchObject({ type: 'error', id: '3', code: 'WEFT_QUEUE_FULL' });
    release();
    const replies = [await client.next(), await client.next()];
    expect(replies.map((frame) => [frame.type, (frame as { id: string }).id])).toEqual([
      ['reply', '1'],
      ['reply', '2'],
    ]);
  });

  it('answers WEFT_WS_NO_REPLY without the model error, which goes to the log [claim:errors-ws-no-reply-frame] [claim:wsdoc-no-internals] [claim:wsdoc-frames] [claim:wsreadme-error-codes] [claim:wsreadme-errors] [claim:obs-chat-ws-logger]', async () => {
    booted = await boot({}, (messages, request) => {
      if (request.purpose === 'plan' || request.purpose === 'review')
        return echoModel(messages, request);
      throw new Error('upstream https://internal.example/v1 said 500 for key sk-123');
    });
    const client = await open(booted.url);
    client.send(message('1', 'hi'));
    const { taskId } = (await client.next()) as { taskId: string };
    const error = await client.next();
    expect(error).toMatchObject({ type: 'error', id: '1', code: 'WEFT_WS_NO_REPLY', taskId });
    // The task's status is in the message, not a field of its own.
    expect(Object.keys(error as object).sort()).toEqual(
      ['code', 'docsUrl', 'id', 'message', 'requestId', 'taskId', 'type'].sort(),
    );
    expect((error as { message: string }).message).toMatch(/the task failed without one/);
    expect(JSON.stringify(error)).not.toContain('sk-123');
    const logged = booted.logs.find((line) => line.msg === 'websocket: task ended without a reply');
    expect(logged).toMatchObject({ taskId });
    // The plugin logs through the runtime's logger, which binds no component.
    expect(logged).not.toHaveProperty('component');
  });

  it('drops a client that stops reading once its backlog passes maxBufferedBytes [claim:wsdoc-backpressure] [claim:wsreadme-buffered] [claim:wp-websocket] [claim:obs-ws-not-reading]', async () => {
    const big = 'y'.repeat(1_000_000);
    booted = await boot(
      { maxBufferedBytes: 256 * 1024, maxInFlight: 16, maxInFlightPerUser: 16 },
      (messages, request) => {
        if (request.purpose === 'plan' || request.purpose === 'review')
          return echoModel(messages, request);
        return big;
      },
    );
    const client = await open(booted.url);
    client.socket.pause();
    for (let index = 0; index < 16; index += 1)
      client.send(message(String(index), 'flood', `r${index}`));
    await expect.poll(() => booted!.plugin.connectionCount, { timeout: 10_000 }).toBe(0);
    const dropped = booted.logs.find(
      (line) => line.msg === 'websocket: client is not reading; connection dropped',
    );
    // `limit` is maxBufferedBytes, and more than that was still unsent.
    expect(dropped).toMatchObject({ level: 40, limit: 256 * 1024 });
    expect(Number(dropped?.bufferedBytes)).toBeGreaterThan(256 * 1024);
    expect(typeof dropped?.connectionId).toBe('string');
  });

  it('sends one reply larger than maxBufferedBytes whole to a client that reads [claim:wsdoc-backpressure] [claim:wsreadme-buffered]', async () => {
    // Larger than what loopback's socket buffers take at once: most of it waits in the plugin
    // right after the send, as a reply of any size does over a slow network.
    const big = 'z'.repeat(16_000_000);
    booted = await boot({ maxBufferedBytes: 256 * 1024 }, (messages, request) => {
      if (request.purpose === 'plan' || request.purpose === 'review')
        return echoModel(messages, request);
      return big;
    });
    const client = await open(booted.url);
    client.send(message('1', 'one long answer, please'));
    expect(await client.next()).toMatchObject({ type: 'accepted', id: '1' });
    const dropped = client.closed.then(({ code }) => {
      throw new Error(`the connection closed with ${code} before the reply`);
    });
    // The connection closes after the test too; only a close before the reply fails it.
    dropped.catch(() => undefined);
    expect(await Promise.race([client.next(15_000), dropped])).toMatchObject({
      type: 'reply',
      id: '1',
      reply: big,
    });
    expect(booted.plugin.connectionCount).toBe(1);
    expect(
      booted.logs.some(
        (line) => line.msg === 'websocket: client is not reading; connection dropped',
      ),
    ).toBe(false);
  });

  it('drops a client that reads, when a second frame is due while a reply larger than maxBufferedBytes is still being sent [claim:wsdoc-backpressure-next-frame] [claim:wsreadme-buffered]', async () => {
    const big = 'z'.repeat(16_000_000);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let waiting = 0;
    booted = await boot({ maxBufferedBytes: 256 * 1024 }, async (messages, request) => {
      if (request.purpose === 'plan' || request.purpose === 'review')
        return echoModel(messages, request);
      waiting += 1;
      await gate;
      return big;
    });
    const client = await open(booted.url);
    // Two rooms: their tasks run side by side, and both replies come due together.
    client.send(message('1', 'one long answer, please', 'r1'));
    client.send(message('2', 'and another', 'r2'));
    await expect.poll(() => waiting, { timeout: 5_000 }).toBe(2);
    release();
    // The client reads all along, yet the first reply's backlog drops it when the second is due.
    expect((await client.closed).code).toBe(1006);
    expect(booted.logs).toContainEqual(
      expect.objectContaining({ msg: 'websocket: client is not reading; connection dropped' }),
    );
  });

  it('drops a peer that stops answering pings [claim:wsdoc-ping] [claim:wsreadme-heartbeat]', async () => {
    booted = await boot({ heartbeatIntervalMs: 100 });
    const client = await open(booted.url, { autoPong: false });
    await expect.poll(() => booted!.plugin.connectionCount, { timeout: 3_000 }).toBe(0);
    expect((await client.closed).code).toBe(1006);
  });

  it('closes an idle connection with 1000 [claim:wsreadme-idle] [claim:wsdoc-idle]', async () => {
    booted = await boot({ idleTimeoutMs: 200 });
    const client = await open(booted.url);
    expect(await client.closed).toEqual({ code: IDLE_CLOSE.code, reason: IDLE_CLOSE.reason });
  });

  it('counts any frame the client sends, an invalid one too, as activity that restarts the idle time [claim:wsreadme-idle]', async () => {
    booted = await boot({ idleTimeoutMs: 1_500 });
    const client = await open(booted.url);
    let closedAt: number | undefined;
    void client.closed.then(() => (closedAt = Date.now()));
    // Junk every 500 ms for 3 s, twice idleTimeoutMs: each gets an error frame, and keeps the
    // connection from idling.
    for (let sent = 0; sent < 6; sent += 1) {
      client.send('not json');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(closedAt).toBeUndefined();
    expect(await client.next()).toMatchObject({ type: 'error', code: 'WEFT_WS_INVALID_FRAME' });
    const quietFrom = Date.now();
    expect(await client.closed).toEqual({ code: IDLE_CLOSE.code, reason: IDLE_CLOSE.reason });
    expect(Date.now() - quietFrom).toBeLessThan(10_000);
  });

  it('cuts an idle client that never answers the close frame after closeTimeoutMs [claim:wsdoc-idle-cut] [claim:wsreadme-close-timeout-default]', async () => {
    // Longer than the default 1000 ms, so that a cut at the default shows, and with margins a
    // loaded machine's late timers cannot cross.
    booted = await boot({ idleTimeoutMs: 200, closeTimeoutMs: 2_000 });
    const deaf = await open(booted.url);
    deaf.socket.pause(); // It never reads the close frame, so never answers it.
    await expect
      .poll(() => booted!.logs.some((line) => line.msg === 'websocket: idle connection closed'), {
        interval: 10,
      })
      .toBe(true);
    const closedAt = Date.now();
    // Held for closeTimeoutMs, then cut: not at once, not at the default 1000 ms, and not after
    // the 30 s ws would wait on its own.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(booted.plugin.connectionCount).toBe(1);
    await expect
      .poll(() => booted!.plugin.connectionCount, { timeout: 5_000, interval: 20 })
      .toBe(0);
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(1_950);
    expect(Date.now() - closedAt).toBeLessThan(5_000);
  });

  it('runs no task for a frame that arrives once the idle close is under way [claim:wsdoc-idle-cut]', async () => {
    booted = await boot({ idleTimeoutMs: 200, closeTimeoutMs: 2_000 });
    const accept = vi.spyOn(booted.runtime, 'accept');
    const client = await open(booted.url);
    client.socket.pause(); // It has not read the close frame, so its socket is still open.
    await expect
      .poll(() => booted!.logs.some((line) => line.msg === 'websocket: idle connection closed'))
      .toBe(true);
    client.send({ type: 'message', id: 'late', room: 'lobby', user: 'ada', message: 'hi' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(accept).not.toHaveBeenCalled();
  });

  it('keeps a connection whose message waits for its reply open, and counts the idle time again from the reply [claim:wsdoc-idle-in-flight] [claim:wsreadme-idle]', async () => {
    // The reply takes 1.5 s, five times the idle time: the connection is not idle meanwhile.
    booted = await boot({ idleTimeoutMs: 300 }, async (messages, request) => {
      if (request.purpose !== 'plan' && request.purpose !== 'review') {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
      }
      return echoModel(messages, request);
    });
    const client = await open(booted.url);
    client.send(message('1', 'take your time'));
    expect(await client.next()).toMatchObject({ type: 'accepted', id: '1' });
    expect(await client.next(5_000)).toMatchObject({ type: 'reply', id: '1' });
    const replied = Date.now();
    expect(await client.closed).toEqual({ code: IDLE_CLOSE.code, reason: IDLE_CLOSE.reason });
    // Timers never fire early: the idle time ran again, whole, from the reply.
    expect(Date.now() - replied).toBeGreaterThanOrEqual(250);
  });

  it('closes a connection whose task never ends once taskTimeoutMs has freed its message and the idle time has passed [claim:wsdoc-idle-in-flight]', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    booted = await boot({ idleTimeoutMs: 300, taskTimeoutMs: 1_000 }, async (messages, request) => {
      if (request.purpose !== 'plan' && request.purpose !== 'review') await gate;
      return echoModel(messages, request);
    });
    try {
      const client = await open(booted.url);
      client.send(message('1', 'never answered'));
      expect(await client.next()).toMatchObject({ type: 'accepted', id: '1' });
      expect(await client.next(5_000)).toMatchObject({
        type: 'error',
        id: '1',
        code: 'WEFT_WS_TASK_TIMEOUT',
      });
      // The task still runs, but the connection no longer waits for it.
      expect(await client.closed).toEqual({ code: IDLE_CLOSE.code, reason: IDLE_CLOSE.reason });
    } finally {
      release();
    }
  });

  it('counts a binary frame as activity but not the pongs of the heartbeat [claim:wsdoc-idle]', async () => {
    // A heartbeat slow enough that a loaded machine's late pong is not taken for a dead client.
    booted = await boot({ idleTimeoutMs: 1200, heartbeatIntervalMs: 200 });
    const client = await open(booted.url);
    let pongs = 0;
    client.socket.on('ping', () => (pongs += 1));
    await new Promise((resolve) => setTimeout(resolve, 800));
    client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    const sent = Date.now();
    expect(await client.next()).toMatchObject({ code: 'WEFT_WS_INVALID_FRAME', id: null });
    expect(await client.closed).toEqual({ code: IDLE_CLOSE.code, reason: IDLE_CLOSE.reason });
    // The binary frame restarted the idle time (the first deadline was 400 ms after it) ...
    expect(Date.now() - sent).toBeGreaterThanOrEqual(1100);
    // ... while the client answered every ping meanwhile, which kept nothing open.
    expect(pongs).toBeGreaterThan(5);
  });
});

describe('WebSocketPlugin close', () => {
  it('closes open connections with 1001 and resolves, also when a client never answers the close frame [claim:wsdoc-close] [claim:wsreadme-close] [claim:wsreadme-close-wait] [claim:tsdoc-ws-close]', async () => {
    booted = await boot({ closeTimeoutMs: 300 });
    const polite = await open(booted.url);
    const deaf = await open(booted.url);
    deaf.socket.pause(); // It never reads the close frame, so never answers it.
    const started = Date.now();
    await booted.plugin.close();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await polite.closed).toEqual({
      code: SHUTDOWN_CLOSE.code,
      reason: SHUTDOWN_CLOSE.reason,
    });
    expect(booted.plugin.connectionCount).toBe(0);
    await expect(connect(booted.url)).rejects.toThrow();
    expect(booted.plugin.url).toBeUndefined();
    // Idempotent, as its TSDoc says: a second close resolves at once.
    await expect(booted.plugin.close()).resolves.toBeUndefined();
  });

  it('closes at once on plugin.close(), without waiting for a running task, whose reply is lost [claim:wsreadme-close]', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let finished = false;
    booted = await boot({}, async (messages, request) => {
      if (request.purpose === 'plan' || request.purpose === 'review')
        return echoModel(messages, request);
      await gate;
      finished = true;
      return 'too late';
    });
    const client = await open(booted.url);
    client.send(message('1', 'slow one'));
    expect(await client.next()).toMatchObject({ type: 'accepted', id: '1' });
    // The task is still held by its model: close() must not wait for it.
    await booted.plugin.close();
    expect(finished).toBe(false);
    expect((await client.closed).code).toBe(SHUTDOWN_CLOSE.code);
    release();
    await expect.poll(() => finished, { timeout: 3_000 }).toBe(true);
    await expect(client.next(200)).rejects.toThrow('no frame');
  });

  it('takes no new connection on its port once plugin.close() has begun, while it still waits for a client to answer the close frame [claim:wsreadme-closed-port]', async () => {
    booted = await boot({ closeTimeoutMs: 2_000 });
    const deaf = await open(booted.url);
    deaf.socket.pause(); // It never answers the close frame, so the close waits for it.
    const closing = booted.plugin.close();
    const { port } = new URL(booted.url);
    const refused = await new Promise<string | undefined>((resolve) => {
      const socket = tcpConnect(Number(port), '127.0.0.1');
      socket.on('connect', () => {
        socket.destroy();
        resolve(undefined);
      });
      socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code));
    });
    expect(refused).toBe('ECONNREFUSED');
    expect(booted.plugin.connectionCount).toBe(1);
    await closing;
  });

  it('refuses new messages and, before any other check, new upgrades while the runtime stops, delivers the replies of a running and a queued task, then closes with 1001 [claim:errors-503-sources] [claim:wsdoc-stop] [claim:wsdoc-close] [claim:wsreadme-stopping-first] [claim:wsreadme-close] [claim:errors-shutting-down-websocket] [claim:wsreadme-error-codes] [claim:errors-ws-internal]', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    booted = await boot({}, async (messages, request) => {
      if (request.purpose === 'plan' || request.purpose === 'review')
        return echoModel(messages, request);
      await gate;
      return 'late but here';
    });
    const client = await open(booted.url);
    client.send(message('1', 'slow one'));
    await client.next();
    // Same room and user: its task waits in the queue behind the first.
    client.send(message('queued', 'queued one'));
    expect(await client.next()).toMatchObject({ type: 'accepted', id: 'queued' });
    const stopping = booted.runtime.stop();
    client.send(message('2', 'one more', 'r2'));
    expect(await client.next()).toMatchObject({
      type: 'error',
      id: '2',
      code: 'WEFT_SHUTTING_DOWN',
    });
    // Another path would get 404 while running: the stopping refusal comes before every check.
    for (const url of [booted.url, booted.url.replace(/\/[^/]*$/, '/elsewhere')]) {
      expect(await refusedUpgrade(url)).toMatchObject({
        status: 503,
        body: { error: { code: 'WEFT_WS_TOO_MANY_CONNECTIONS' } },
      });
    }
    release();
    expect(await client.next()).toMatchObject({ type: 'reply', id: '1', reply: 'late but here' });
    // The drain runs the queued task too, and its reply reaches the client before the close.
    expect(await client.next()).toMatchObject({
      type: 'reply',
      id: 'queued',
      reply: 'late but here',
    });
    await stopping;
    expect((await client.closed).code).toBe(SHUTDOWN_CLOSE.code);
  });

  it('refuses with 503 an upgrade whose authenticate was still running when the runtime began to stop [claim:wsreadme-stopping-first]', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    booted = await boot({
      trustClientUser: false,
      authenticate: async () => {
        asked = true;
        await gate;
        return { user: 'ada' };
      },
    });
    const refusal = refusedUpgrade(booted.url);
    await expect.poll(() => asked, { timeout: 3_000 }).toBe(true);
    const stopping = booted.runtime.stop();
    release();
    expect(await refusal).toMatchObject({
      status: 503,
      body: { error: { code: 'WEFT_WS_TOO_MANY_CONNECTIONS' } },
    });
    expect(booted.plugin.connectionCount).toBe(0);
    await stopping;
  });

  it('keeps its own refusal for an upgrade whose authenticate, still running when the runtime began to stop, then refuses it [claim:wsreadme-stopping-first]', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    booted = await boot({
      trustClientUser: false,
      authenticate: async () => {
        asked = true;
        await gate;
        return false;
      },
    });
    const refusal = refusedUpgrade(booted.url);
    await expect.poll(() => asked, { timeout: 3_000 }).toBe(true);
    const stopping = booted.runtime.stop();
    release();
    expect(await refusal).toMatchObject({
      status: 401,
      body: { error: { code: 'WEFT_WS_UNAUTHORIZED' } },
    });
    await stopping;
  });

  it('stops within the runtime’s shutdown grace at the defaults when a client never answers the close frame, and the memory provider is still waited for [claim:wsdoc-close] [claim:wsdoc-close-grace] [claim:wsreadme-close-wait] [claim:wsreadme-close-grace] [claim:wsreadme-close-timeout-default] [claim:tsdoc-ws-close-timeout-grace]', async () => {
    let memoryShutDown = false;
    class SlowToCloseMemory extends InMemoryMemoryProvider {
      override async shutdown(): Promise<void> {
        await new Promise((resolve) => setTimeout(resolve, 300));
        memoryShutDown = true;
        await super.shutdown();
      }
    }
    booted = await boot({}, echoModel, {}, new SlowToCloseMemory());
    const deaf = await open(booted.url);
    deaf.socket.pause(); // It never reads the close frame, so never answers it.
    const started = Date.now();
    await booted.runtime.stop();
    const took = Date.now() - started;
    // The plugin waits its closeTimeoutMs (1000 ms by default) and cuts the client; the memory
    // provider then shuts down inside the same 2 s grace, and the stop waits for it.
    expect(took).toBeGreaterThanOrEqual(1_000);
    expect(took).toBeLessThan(2_000);
    expect(memoryShutDown).toBe(true);
    expect(booted.plugin.connectionCount).toBe(0);
    expect(
      booted.logs.filter((line) => line.msg === 'shutdown timed out; going on without it'),
    ).toEqual([]);
    expect(booted.logs).toContainEqual(
      expect.objectContaining({
        msg: 'websocket: clients did not answer the close frame in time; connections cut',
        timeoutMs: 1_000,
      }),
    );
  });
});

describe('WebSocketPlugin close with upgrades under way', () => {
  it('answers an upgrade whose authenticate still runs with 503 at once when it closes, rather than wait authTimeoutMs, and opens nothing after [claim:wsdoc-close-upgrades] [claim:wsreadme-close-upgrades] [claim:tsdoc-ws-close]', async () => {
    let release: (verdict: { user: string }) => void = () => undefined;
    const verdict = new Promise<{ user: string }>((resolve) => (release = resolve));
    let asked = false;
    booted = await boot({
      trustClientUser: false,
      authTimeoutMs: 5_000,
      authenticate: () => {
        asked = true;
        return verdict;
      },
    });
    const refusal = refusedUpgrade(booted.url);
    await expect.poll(() => asked, { timeout: 3_000 }).toBe(true);
    const started = Date.now();
    await booted.plugin.close();
    // Before the fix the close waited for the hook, up to authTimeoutMs (5 s here).
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await refusal).toMatchObject({
      status: 503,
      body: { error: { code: 'WEFT_WS_TOO_MANY_CONNECTIONS' } },
    });
    expect(booted.logs).toContainEqual(
      expect.objectContaining({
        msg: 'websocket: upgrade refused: the plugin closed while its checks ran',
        code: 'WEFT_WS_TOO_MANY_CONNECTIONS',
      }),
    );
    // The hook's late answer opens no connection.
    release({ user: 'ada' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(booted.plugin.connectionCount).toBe(0);
  });

  it('stops within the runtime’s shutdown grace at the defaults while an authenticate hangs, and the memory provider is still waited for [claim:wsdoc-close-upgrades] [claim:wsdoc-close-grace] [claim:wsreadme-close-upgrades]', async () => {
    let memoryShutDown = false;
    class SlowToCloseMemory extends InMemoryMemoryProvider {
      override async shutdown(): Promise<void> {
        await new Promise((resolve) => setTimeout(resolve, 300));
        memoryShutDown = true;
        await super.shutdown();
      }
    }
    let asked = false;
    booted = await boot(
      {
        trustClientUser: false,
        // Never answers: the default authTimeoutMs (5 s) would end the wait.
        authenticate: () => {
          asked = true;
          return new Promise<boolean>(() => undefined);
        },
      },
      echoModel,
      {},
      new SlowToCloseMemory(),
    );
    const refusal = refusedUpgrade(booted.url);
    await expect.poll(() => asked, { timeout: 3_000 }).toBe(true);
    const started = Date.now();
    await booted.runtime.stop();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(memoryShutDown).toBe(true);
    expect(
      booted.logs.filter((line) => line.msg === 'shutdown timed out; going on without it'),
    ).toEqual([]);
    expect((await refusal).status).toBe(503);
  });

  it('cuts a refused client that never reads its answer once closeTimeoutMs has passed [claim:wsdoc-close-upgrades] [claim:wsreadme-close-upgrades]', async () => {
    booted = await boot({ closeTimeoutMs: 100, allowedOrigins: [] });
    const { port } = new URL(booted.url);
    const socket = tcpConnect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    // Refused (403, its Origin is not allowed); the client never reads the answer.
    socket.pause();
    socket.write(
      'GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://evil.example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    await expect
      .poll(() => booted?.logs.some((line) => line.msg === 'websocket: upgrade refused'), {
        timeout: 3_000,
      })
      .toBe(true);
    const started = Date.now();
    await booted.plugin.close();
    // Without the cut, the close waited for the refusal's own 1 s timer.
    expect(Date.now() - started).toBeLessThan(600);
    socket.destroy();
  });
});

describe('WebSocketPlugin options', () => {
  it.each([
    [{ path: 'ws' }, 'option "path" must be a string starting with "/", got "ws"'],
    [{ maxInFlight: 0 }, 'option "maxInFlight" must be a positive integer, got 0'],
    [{ port: 70_000 }, 'option "port" must be an integer from 0 to 65535'],
    [
      { allowedOrigins: ['https://chat.example.com/app'] },
      'option "allowedOrigins" must be origins',
    ],
    [{ reauthenticateMs: 1_000 }, 'option "reauthenticateMs" must be left out'],
    [
      { reauthenticateMs: 0, authenticate: () => true },
      'option "reauthenticateMs" must be a positive integer, got 0',
    ],
  ])(
    'refuses %j naming the option [claim:wsreadme-path] [claim:wsreadme-bad-option]',
    (options, expected) => {
      let thrown: unknown;
      try {
        new WebSocketPlugin(options as never);
      } catch (error) {
        thrown = error;
      }
      expect(WeftError.is(thrown, 'WEFT_WS_INVALID_OPTIONS')).toBe(true);
      expect((thrown as Error).message).toContain(expected);
    },
  );
});

describe('WebSocketPlugin option names', () => {
  it('refuses an option name it does not know, naming it and listing the options [claim:wsreadme-unknown-option]', () => {
    let thrown: unknown;
    try {
      new WebSocketPlugin({ maxInflightPerUser: 2 } as never);
    } catch (error) {
      thrown = error;
    }
    expect(WeftError.is(thrown, 'WEFT_WS_INVALID_OPTIONS')).toBe(true);
    expect((thrown as Error).message).toMatch(
      /unknown option "maxInflightPerUser"; the options are port, host, path, .*maxInFlightPerUser, .*reauthenticateMs\./,
    );
  });

  it('takes a known option left undefined as its default [claim:wsreadme-unknown-option]', () => {
    const plugin = new WebSocketPlugin({ port: 0, path: undefined, maxInFlightPerUser: undefined });
    expect(plugin.options.path).toBe('/ws');
    expect(plugin.options.maxInFlightPerUser).toBe(8);
  });
});

describe('WebSocketPlugin allowedHosts entries', () => {
  // The gate compares each entry with the name of the Host header, its port left out, so these
  // would match no upgrade and refuse every one meant for the name.
  it.each([
    'https://chat.example.com',
    'chat.example.com:3001',
    'chat.example.com/ws',
    'chat example.com',
    'user@chat.example.com',
    // The wildcard of other tools, which the check would compare as a plain character.
    '*.example.com',
  ])(
    'refuses %j, which no Host header can match, saying a host name is expected [claim:wsreadme-allowed-hosts-names-only] [claim:tsdoc-ws-options-allowed-hosts-names-only]',
    (entry) => {
      let thrown: unknown;
      try {
        new WebSocketPlugin({ allowedHosts: ['chat.example.com', entry] });
      } catch (error) {
        thrown = error;
      }
      expect(WeftError.is(thrown, 'WEFT_WS_INVALID_OPTIONS')).toBe(true);
      expect((thrown as Error).message).toContain(
        `option "allowedHosts" must be a list of host names, each a host name such as 'agent.example.com', or '.example.com' for a name and its subdomains, without a scheme, port or path`,
      );
      expect((thrown as Error).message).toContain(`got ${JSON.stringify(entry)}`);
    },
  );

  it('takes names, names with a leading or final dot, IPv4 and IPv6 addresses, bracketed or not [claim:wsreadme-allowed-hosts-names-only]', () => {
    const allowedHosts = [
      'chat.example.com',
      '.example.com',
      'Chat.Example.COM.',
      '203.0.113.7',
      '::1',
      '[2001:db8::1]',
    ];
    expect(new WebSocketPlugin({ allowedHosts }).options.allowedHosts).toEqual(allowedHosts);
  });
});

describe('WebSocketPlugin timer options', () => {
  const TIMERS = [
    'authTimeoutMs',
    'taskTimeoutMs',
    'heartbeatIntervalMs',
    'idleTimeoutMs',
    'closeTimeoutMs',
    'reauthenticateMs',
  ] as const;

  // Node.js runs a setTimeout or setInterval longer than 2147483647 ms after 1 ms: such an
  // idleTimeoutMs would close every connection at once, a taskTimeoutMs time every message out.
  it.each(TIMERS)(
    'refuses %s over 2147483647 ms, the longest delay a Node.js timer keeps, naming it [claim:wsreadme-timer-max] [claim:tsdoc-ws-options-timer-max]',
    (name) => {
      const options = { authenticate: () => true, [name]: 2_147_483_648 };
      let thrown: unknown;
      try {
        new WebSocketPlugin(options);
      } catch (error) {
        thrown = error;
      }
      expect(WeftError.is(thrown, 'WEFT_WS_INVALID_OPTIONS')).toBe(true);
      expect((thrown as Error).message).toContain(
        `option "${name}" must be at most 2147483647 ms (about 24.8 days), the longest delay a Node.js timer keeps, got 2147483648`,
      );
      expect(
        () => new WebSocketPlugin({ authenticate: () => true, [name]: 2_147_483_647 }),
      ).not.toThrow();
    },
  );

  it('refuses a maxPayloadBytes over 2147483647, which ws would wrap to no cap at all or to a tiny one, naming it [claim:wsreadme-payload-max]', async () => {
    // ws reads its cap as value | 0: these would be no cap (-2147483648, 0) and a 1-byte cap.
    for (const value of [2_147_483_648, 4_294_967_296, 4_294_967_297]) {
      let thrown: unknown;
      try {
        new WebSocketPlugin({ trustClientUser: true, maxPayloadBytes: value });
      } catch (error) {
        thrown = error;
      }
      expect(WeftError.is(thrown, 'WEFT_WS_INVALID_OPTIONS'), String(value)).toBe(true);
      expect((thrown as Error).message).toContain(
        `option "maxPayloadBytes" must be a positive integer of at most 2147483647, got ${value}`,
      );
    }
    // The largest value it takes works as a cap like any other.
    booted = await boot({ maxPayloadBytes: 2_147_483_647 });
    const client = await open(booted.url);
    client.send(message('1', 'fits'));
    expect(await client.next()).toMatchObject({ type: 'accepted', id: '1' });
  });

  it('takes a handshakeTimeoutMs over it, which the HTTP server compares with elapsed time rather than setting a timer [claim:wsreadme-timer-max]', async () => {
    booted = await boot({ handshakeTimeoutMs: 3_000_000_000 });
    const client = await open(booted.url);
    client.send(message('1', 'Hello'));
    expect(await client.next()).toMatchObject({ type: 'accepted', id: '1' });
    expect(await client.next()).toMatchObject({ type: 'reply', id: '1', reply: 'echo: Hello' });
  });

  it('refuses a handshakeTimeoutMs past 9007199254740991, which the HTTP server would only refuse at start, naming it [claim:wsreadme-timer-max]', async () => {
    let thrown: unknown;
    try {
      new WebSocketPlugin({ trustClientUser: true, handshakeTimeoutMs: 2 ** 53 });
    } catch (error) {
      thrown = error;
    }
    expect(WeftError.is(thrown, 'WEFT_WS_INVALID_OPTIONS')).toBe(true);
    expect((thrown as Error).message).toContain(
      'option "handshakeTimeoutMs" must be at most 9007199254740991 ms',
    );
    booted = await boot({ handshakeTimeoutMs: Number.MAX_SAFE_INTEGER });
    expect(booted.plugin.url).toBeDefined();
  });
});

describe('WebSocketPlugin listening', () => {
  it('fails the runtime start, caused by WEFT_LISTEN_FAILED naming the address, when the port is taken [claim:errors-listen-failed-websocket]', async () => {
    booted = await boot();
    const { port } = new URL(booted.url);
    const failed = boot({ port: Number(port) });
    await expect(failed).rejects.toThrow(`cannot listen on 127.0.0.1:${port}`);
    const error = (await failed.catch((thrown: unknown) => thrown)) as Error & { cause?: unknown };
    // The runtime reports a part that fails to start as WEFT_START_FAILED, with the cause.
    expect(WeftError.is(error, 'WEFT_START_FAILED')).toBe(true);
    expect(WeftError.is(error.cause, 'WEFT_LISTEN_FAILED')).toBe(true);
  });
});

describe('WebSocketPlugin defaults', () => {
  it('takes a path holding characters express would read as a pattern, since no express route reads it [claim:httpchat-options-same]', () => {
    expect(new WebSocketPlugin({ path: '/ws/:room*' }).options.path).toBe('/ws/:room*');
    expect(() => new WebSocketPlugin({ path: 'ws' })).toThrow(/"path"/);
  });

  it('refuses a path a URL would write otherwise, which no upgrade could reach, and serves one written as a URL writes it [claim:wsreadme-path] [claim:tsdoc-ws-options-path] [claim:wsreadme-bad-option] [claim:httpchat-options-same]', async () => {
    // Each of these was taken before, and every upgrade, even to plugin.url, was answered 404.
    for (const path of [
      '/chat room',
      '/wś',
      '/ws?v=1',
      '/ws#x',
      '/a/../ws',
      '/a/./ws',
      '//ws',
      '/a\\b',
      // A URL reads these as hosts that cannot be: they are no URL, and were thrown as TypeError.
      '//[x',
      '//a:b',
    ]) {
      let thrown: unknown;
      try {
        new WebSocketPlugin({ trustClientUser: true, path });
      } catch (error) {
        thrown = error;
      }
      expect(WeftError.is(thrown, 'WEFT_WS_INVALID_OPTIONS'), path).toBe(true);
      expect((thrown as Error).message).toContain(
        `option "path" must be a path a URL keeps as it is (percent-encoded where a URL would encode, such as %20 for a space,`,
      );
      expect((thrown as Error).message).toContain(`got ${JSON.stringify(path)}`);
    }
    booted = await boot({ path: '/chat%20w%C5%9B' });
    // A client writes the path either way: its URL encodes it before the request.
    for (const url of [booted.url, booted.url.replace('/chat%20w%C5%9B', '/chat wś')]) {
      const client = await open(url);
      client.send(message('1', 'Hello'));
      expect(await client.next()).toMatchObject({ type: 'accepted', id: '1' });
      expect(await client.next()).toMatchObject({ type: 'reply', reply: 'echo: Hello' });
    }
  });

  it('has the documented defaults [claim:httpchat-options-same] [claim:wsdoc-own-port] [claim:wsdoc-payload] [claim:wsdoc-handshake-timeout] [claim:wsdoc-idle] [claim:ws-doc-connections-per-user] [claim:wsdoc-same-options] [claim:wsdoc-per-user] [claim:prod-chat-caps] [claim:wsreadme-defaults] [claim:wsreadme-path] [claim:wsreadme-same-options] [claim:chat-readme-ws-options] [claim:wsreadme-connections-per-user] [claim:wsreadme-per-user-default] [claim:tsdoc-ws-options-defaults] [claim:prod-chat-same-options]', () => {
    const { authenticate, authorizeRoom, ...options } = new WebSocketPlugin().options;
    expect(authenticate).toBeUndefined();
    expect(authorizeRoom).toBeUndefined();
    expect(options).toEqual({
      port: 3001,
      host: '127.0.0.1',
      path: '/ws',
      allowedHosts: [],
      allowedOrigins: [],
      authTimeoutMs: 5_000,
      trustClientUser: false,
      roomHistory: 'private',
      maxInFlightPerUser: 8,
      handshakeTimeoutMs: 10_000,
      maxPayloadBytes: 65_536,
      maxConnections: 1_000,
      maxConnectionsPerUser: 16,
      maxInFlight: 4,
      maxFramesPerSecond: 20,
      taskTimeoutMs: 120_000,
      heartbeatIntervalMs: 30_000,
      idleTimeoutMs: 600_000,
      maxBufferedBytes: 1_048_576,
      closeTimeoutMs: 1_000,
    });
  });

  it('listens on 127.0.0.1 unless host is set, and on every interface with 0.0.0.0 [claim:wsreadme-host]', async () => {
    // 127.0.0.2 is another address of the machine (Linux routes all of 127/8 to loopback): a
    // listener bound to 127.0.0.1 does not answer there, one on 0.0.0.0 does, as it would a
    // phone that connects to the machine's network address.
    booted = await boot();
    const port = Number(new URL(booted.url).port);
    expect(new URL(booted.url).hostname).toBe('127.0.0.1');
    await expect(connect(`ws://127.0.0.2:${port}/ws`)).rejects.toThrow(/ECONNREFUSED/);
    const everywhere = await boot({ host: '0.0.0.0' });
    const elsewhere = await open(everywhere.url.replace('127.0.0.1', '127.0.0.2'));
    elsewhere.send(message('1', 'hi'));
    expect(await elsewhere.next()).toMatchObject({ type: 'accepted', id: '1' });
    expect(await elsewhere.next()).toMatchObject({ type: 'reply', id: '1', reply: 'echo: hi' });
  });

  it('refuses an upgrade on another path with 404, and names its executor websocket/reply [claim:wsreadme-executor] [claim:wsreadme-path] [claim:wsreadme-order] [claim:errors-404-cause]', async () => {
    booted = await boot({ path: '/chat-socket' });
    expect(booted.url).toMatch(/\/chat-socket$/);
    const refused = await refusedUpgrade(booted.url.replace('/chat-socket', '/other'));
    expect(refused).toMatchObject({
      status: 404,
      body: { error: { code: 'WEFT_WS_UPGRADE_REQUIRED' } },
    });
    expect(
      booted.plugin.executors.map((executor) => `${booted!.plugin.id}/${executor.action}`),
    ).toEqual(['websocket/reply']);
  });

  it('answers 404 in JSON an upgrade whose request target is no URL at all, where it used to cut the socket without an answer and log an error [claim:wsreadme-order] [claim:wsreadme-plain-http]', async () => {
    booted = await boot();
    const { port } = new URL(booted.url);
    const answerTo = (target: string) =>
      rawAnswer(
        port,
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\n` +
          'Upgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n' +
          'Sec-WebSocket-Version: 13\r\n\r\n',
      );
    // A URL reads `//[x` as a host that cannot be: it names no path.
    const answer = await answerTo('//[x');
    expect(answer).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
    expect(JSON.parse(answer.split('\r\n\r\n')[1] ?? '')).toMatchObject({
      error: { status: 404, code: 'WEFT_WS_UPGRADE_REQUIRED' },
    });
    // In absolute form, the path follows the authority, as RFC 9112 reads it: `http://[/ws` asks
    // for the plugin's path, and its host `[` is refused, as the runtime's server refuses it.
    const badHost = await answerTo('http://[/ws');
    expect(badHost).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(JSON.parse(badHost.split('\r\n\r\n')[1] ?? '')).toMatchObject({
      error: { status: 403, code: 'WEFT_HOST_NOT_ALLOWED' },
    });
    expect(booted.logs.filter((line) => line.msg === 'websocket: upgrade failed')).toEqual([]);
    expect(booted.plugin.connectionCount).toBe(0);
  });
});

describe('a coordinator that cannot take work', () => {
  /**
   * Sends one message through a plugin whose coordinator refuses every task with `failure` (or
   * never answers its `admit`, for `'hangs'`), and returns the error frame that answered it, the
   * client and the runtime's log lines.
   */
  async function refusedBy(
    failure: Error | 'hangs',
    deadlines: { coordinatorTimeoutMs?: number } = {},
  ): Promise<{
    refusal: Extract<ServerFrame, { type: 'error' }>;
    client: Client;
    logs: LogLine[];
  }> {
    const coordinator: SpaceCoordinator = {
      id: 'refusing',
      init: () => Promise.resolve(),
      shutdown: () => Promise.resolve(),
      admit: () =>
        failure === 'hangs' ? new Promise<never>(() => undefined) : Promise.reject(failure),
      acquire: () => new Promise<never>(() => undefined),
      release: () => Promise.resolve(),
    };
    const { logger, lines: logs } = capturingLogger('info');
    const plugin = new WebSocketPlugin({ port: 0, trustClientUser: true });
    const runtime = await Runtime.init({
      models: [new ScriptedModelProvider({ fallback: echoModel })],
      memory: new InMemoryMemoryProvider(),
      plugins: [plugin],
      coordinator,
      options: { logger, ...deadlines },
    });
    stopAfterTest(runtime);
    await runtime.start();
    const client = await open(plugin.url as string);
    client.send(message('m1', 'hello'));
    const refusal = await client.next();
    if (refusal.type !== 'error') throw new Error(`expected an error frame, got ${refusal.type}`);
    return { refusal, client, logs };
  }

  it("gives the client the coordinator's 503 code to try again, and keeps its message in the log [claim:wsreadme-error-codes] [claim:errors-ws-internal]", async () => {
    const internals = 'postgres://weft:hunter2@db.internal:5432/weft';
    const { refusal, logs } = await refusedBy(
      new WeftError(
        'WEFT_COORDINATOR_CONNECTION_LOST',
        `lost the lock connection to ${internals}`,
        {
          status: 503,
        },
      ),
    );
    expect(refusal).toMatchObject({
      type: 'error',
      id: 'm1',
      code: 'WEFT_COORDINATOR_CONNECTION_LOST',
    });
    expect(JSON.stringify(refusal)).not.toContain('hunter2');
    expect(refusal.message).toMatch(/try again/);
    const logged = logs.find((line) => line.requestId === refusal.requestId);
    expect(JSON.stringify(logged)).toContain('lost the lock connection');
  });

  it("passes the core's WEFT_COORDINATOR_TIMEOUT on to the client when admit does not answer within coordinatorTimeoutMs, with the log's request id rather than its message [claim:errors-coordinator-timeout-websocket]", async () => {
    const { refusal, logs } = await refusedBy('hangs', { coordinatorTimeoutMs: 200 });
    expect(refusal).toMatchObject({
      type: 'error',
      id: 'm1',
      code: 'WEFT_COORDINATOR_TIMEOUT',
      docsUrl: expect.stringContaining('#weft_coordinator_timeout'),
    });
    expect(refusal.message).not.toContain('coordinatorTimeoutMs');
    expect(refusal.message).toMatch(/try again/);
    const logged = logs.find((line) => line.requestId === refusal.requestId);
    expect(JSON.stringify(logged)).toContain('did not record a task of space');
  });

  it('answers WEFT_WS_INTERNAL with the request id when the coordinator fails with an error of no known code [claim:wsreadme-error-codes] [claim:errors-ws-internal]', async () => {
    const internals = 'connect ECONNREFUSED 10.0.0.5:5432';
    const { refusal, client, logs } = await refusedBy(new Error(internals));
    expect(refusal).toMatchObject({ type: 'error', id: 'm1', code: 'WEFT_WS_INTERNAL' });
    expect(refusal.requestId).toEqual(expect.any(String));
    expect(JSON.stringify(refusal)).not.toContain('10.0.0.5');
    const logged = logs.find((line) => line.requestId === refusal.requestId);
    expect(JSON.stringify(logged)).toContain(internals);
    // The connection stays open for the next message.
    expect(client.socket.readyState).toBe(client.socket.OPEN);
  });

  it('answers WEFT_WS_NO_REPLY, as failed, to an accepted message whose task never got its space [claim:errors-ws-no-reply-never-ran]', async () => {
    const coordinator: SpaceCoordinator = {
      id: 'never-grants',
      init: () => Promise.resolve(),
      shutdown: () => Promise.resolve(),
      admit: () => Promise.resolve(1),
      acquire: () =>
        Promise.reject(
          new WeftError(
            'WEFT_COORDINATOR_ACQUIRE_TIMEOUT',
            'the earlier tasks of the space did not end in time',
            { status: 503, expose: true },
          ),
        ),
      release: () => Promise.resolve(),
    };
    const { logger, lines: logs } = capturingLogger('info');
    const model = new ScriptedModelProvider({ fallback: echoModel });
    const plugin = new WebSocketPlugin({ port: 0, trustClientUser: true });
    const runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [plugin],
      coordinator,
      options: { logger },
    });
    stopAfterTest(runtime);
    await runtime.start();
    const client = await open(plugin.url as string);
    client.send(message('m1', 'hello'));
    const accepted = await client.next();
    expect(accepted).toMatchObject({ type: 'accepted', id: 'm1' });
    const { taskId } = accepted as { taskId: string };
    const error = await client.next();
    expect(error).toMatchObject({ type: 'error', id: 'm1', code: 'WEFT_WS_NO_REPLY', taskId });
    expect((error as { message: string }).message).toMatch(/the task failed without one/);
    // The task never ran: the model was never asked.
    expect(model.requests).toHaveLength(0);
    const logged = logs.find((line) => line.msg === 'websocket: task ended without a reply');
    expect(logged).toMatchObject({ taskId, status: 'failed' });
    expect(JSON.stringify(logged)).toContain('WEFT_COORDINATOR_ACQUIRE_TIMEOUT');
  });

  it('answers WEFT_WS_NO_REPLY, as failed, to an accepted message whose coordinator did not grant its space within coordinatorAcquireTimeoutMs [claim:errors-ws-no-reply-never-ran]', async () => {
    const coordinator: SpaceCoordinator = {
      id: 'hangs',
      init: () => Promise.resolve(),
      shutdown: () => Promise.resolve(),
      admit: () => Promise.resolve(1),
      acquire: () => new Promise(() => undefined),
      release: () => Promise.resolve(),
    };
    const { logger, lines: logs } = capturingLogger('info');
    const model = new ScriptedModelProvider({ fallback: echoModel });
    const plugin = new WebSocketPlugin({ port: 0, trustClientUser: true });
    const runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [plugin],
      coordinator,
      options: { logger, coordinatorAcquireTimeoutMs: 50 },
    });
    stopAfterTest(runtime);
    await runtime.start();
    const client = await open(plugin.url as string);
    client.send(message('m1', 'hello'));
    const accepted = await client.next();
    expect(accepted).toMatchObject({ type: 'accepted', id: 'm1' });
    const { taskId } = accepted as { taskId: string };
    const error = await client.next();
    expect(error).toMatchObject({ type: 'error', id: 'm1', code: 'WEFT_WS_NO_REPLY', taskId });
    expect((error as { message: string }).message).toMatch(/the task failed without one/);
    expect(model.requests).toHaveLength(0);
    const logged = logs.find((line) => line.msg === 'websocket: task ended without a reply');
    expect(logged).toMatchObject({ taskId, status: 'failed' });
    expect(JSON.stringify(logged)).toContain('WEFT_COORDINATOR_TIMEOUT');
  });

  it('answers WEFT_WS_NO_REPLY, as failed, to an accepted message that a stop in cancel mode dropped from the queue [claim:errors-ws-no-reply-never-ran]', async () => {
    // One worker, held by the first message's reply until the stop aborts the task's signal:
    // the second message waits in the queue, where the stop cancels it.
    let holding: (() => void) | undefined;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const hold: ScriptedResponse = (messages, request) => {
      if (request.purpose !== 'plan' && request.purpose !== 'review') {
        holding?.();
        return new Promise<string>((_resolve, reject) => {
          const signal = request.signal as AbortSignal;
          signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        });
      }
      return echoModel(messages, request);
    };
    const { logger, lines: logs } = capturingLogger('info');
    const plugin = new WebSocketPlugin({ port: 0, trustClientUser: true });
    const runtime = await Runtime.init({
      models: [new ScriptedModelProvider({ fallback: hold })],
      memory: new InMemoryMemoryProvider(),
      plugins: [plugin],
      options: { logger, shutdown: 'cancel', scheduler: { concurrency: 1 } },
    });
    stopAfterTest(runtime);
    await runtime.start();
    const client = await open(plugin.url as string);
    client.send(message('m1', 'first', 'r1'));
    expect(await client.next()).toMatchObject({ type: 'accepted', id: 'm1' });
    await held;
    client.send(message('m2', 'second', 'r2'));
    const accepted = await client.next();
    expect(accepted).toMatchObject({ type: 'accepted', id: 'm2' });
    const { taskId } = accepted as { taskId: string };
    const stopped = runtime.stop();
    const frames = [await client.next(), await client.next()];
    await stopped;
    const dropped = frames.find((frame) => frame.id === 'm2');
    expect(dropped).toMatchObject({ type: 'error', code: 'WEFT_WS_NO_REPLY', taskId });
    expect((dropped as { message: string }).message).toMatch(/the task failed without one/);
    const logged = logs.find(
      (line) => line.msg === 'websocket: task ended without a reply' && line.taskId === taskId,
    );
    expect(logged).toMatchObject({ status: 'failed' });
    expect(JSON.stringify(logged)).toContain('WEFT_TASK_CANCELLED');
  });
});
