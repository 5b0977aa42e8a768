/**
 * Who may chat over HTTP, as whom, in which room and how much at once: a client that names a
 * room never reads another user's words through the model unless the room is shared on
 * purpose, a body's `user` is believed only when an option says so, and one user's messages
 * in flight are bounded.
 */
import { request as httpRequest } from 'node:http';
import { connect as tcpConnect, type Socket } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { capturingLogger } from '@weft-internal/test-support/capturing-logger';
import { Runtime, WeftError, type RuntimeOptions } from '@weft/core';
import { serverOf } from '@weft/core/node';
import {
  InMemoryMemoryProvider,
  ScriptedModelProvider,
  type ScriptedResponse,
} from '@weft/testing';
import { ChatPlugin, chatSpace, type ChatPluginOptions } from '../src/index.js';

let runtime: Runtime | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await runtime?.stop();
  runtime = undefined;
});

/** A chat POST as raw HTTP/1.1 text, for a connection that pipelines several. */
function rawPost(url: string, user: string): string {
  const { host } = new URL(url);
  const body = JSON.stringify({ room: `r-${user}`, user, message: 'hi' });
  return `POST /chat HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** Reads the HTTP answers arriving on a socket, in order. */
function answersOf(socket: Socket) {
  let buffered = '';
  const parsed: { status: number; head: string; body: string }[] = [];
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    for (;;) {
      const end = buffered.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = buffered.slice(0, end);
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (buffered.length < end + 4 + length) return;
      parsed.push({
        status: Number(head.slice(9, 12)),
        head,
        body: buffered.slice(end + 4, end + 4 + length),
      });
      buffered = buffered.slice(end + 4 + length);
    }
  });
  return {
    /** The next `count` answers, waiting at most 5 s. */
    async next(count: number) {
      await expect.poll(() => parsed.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(count);
      return parsed.splice(0, count);
    },
  };
}

/** A model that plans one chat/reply step, keeps every planning prompt, and replies "ok". */
function recordingModel(reply: () => string | Promise<string> = () => 'ok') {
  const plans: string[] = [];
  const respond: ScriptedResponse = async (messages, request) => {
    const prompt = messages.map((message) => message.content).join('\n');
    if (request.purpose === 'plan') {
      plans.push(prompt);
      return { steps: [{ pluginId: 'chat', action: 'reply' }] };
    }
    if (request.purpose === 'review') return { type: 'continue' };
    return reply();
  };
  return { plans, model: new ScriptedModelProvider({ fallback: respond }) };
}

/**
 * Starts a runtime with a chat plugin of `options`, a {@link recordingModel} and a capturing
 * log; `server` is the runtime's server options.
 */
async function boot(
  options: ChatPluginOptions,
  reply?: () => string | Promise<string>,
  server: NonNullable<RuntimeOptions['server']> = { port: 0 },
) {
  const { plans, model } = recordingModel(reply);
  const { logger, lines: logs } = capturingLogger('info');
  const plugin = new ChatPlugin(options);
  const started = await Runtime.init({
    models: [model],
    memory: new InMemoryMemoryProvider(),
    plugins: [plugin],
    options: { server, logger },
  });
  runtime = started;
  await started.start();
  return { url: `${started.server.url}/chat`, plans, model, logs, plugin, runtime: started };
}

/** The fields of the route's answers these tests read. */
interface Answer {
  reply?: string;
  error: { status: number; code: string; message: string; docsUrl: string };
}

async function post(
  url: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; json: Answer; retryAfter: string | null }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return {
    status: response.status,
    json: (await response.json()) as Answer,
    retryAfter: response.headers.get('retry-after'),
  };
}

/** A POST of `body` sent as it is, with these headers: a JSON content type unless given. */
function postRaw(
  url: string,
  body: string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<Response> {
  return fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
}

const TOKENS = new Map([
  ['t-ada', 'ada'],
  ['t-eve', 'eve'],
]);

/** The authenticate hook of the docs: a bearer token mapped to its user. */
const bearer: ChatPluginOptions['authenticate'] = (request) => {
  const token = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
  const user = TOKENS.get(token);
  return user === undefined ? false : { user };
};

const PIN = 'my bank PIN is 4242';

describe('ChatPlugin: who the sender is', () => {
  it('refuses every message with 401 WEFT_CHAT_UNAUTHORIZED by default, running no task [claim:chat-readme-trusts-nothing] [claim:httpchat-trusts-nothing] [claim:httpchat-trust-client-user] [claim:httpchat-refused-no-task] [claim:httpchat-row-401] [claim:httpchat-auth-middleware] [claim:prod-chat-sender] [claim:chat-trusts-401] [claim:chat-401] [claim:errors-401-no-user] [claim:tsdoc-chat-trust-default] [claim:tsdoc-chat-user-from-auth] [claim:errors-401-cause] [claim:prod-chat-same-options]', async () => {
    const { url, model, logs } = await boot({});
    const answer = await post(url, { room: 'room-x', user: 'ada', message: PIN });
    expect(answer.status).toBe(401);
    expect(answer.json.error).toMatchObject({
      status: 401,
      code: 'WEFT_CHAT_UNAUTHORIZED',
      docsUrl: 'https://weft-ai.github.io/docs/reference/errors/#weft_chat_unauthorized',
    });
    expect(model.requests).toHaveLength(0);
    expect(logs.some((line) => String(line.msg).includes('trustClientUser is off'))).toBe(true);
    // Who is asking comes first: an invalid body of an unknown sender gets 401, not 400.
    expect((await post(url, { room: 'room x' })).status).toBe(401);
    // The server's own refusals come before the route: malformed JSON gets its 400.
    const malformed = await postRaw(url, '{"room":');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as Answer).error.code).toBe('WEFT_CHAT_INVALID_REQUEST');
    expect(model.requests).toHaveLength(0);
  });

  it('refuses with 401 WEFT_CHAT_UNAUTHORIZED an authenticate that answers anything but true, false or { user }, running no task [claim:errors-chat-unauthorized-answers] [claim:obs-chat-invalid-user]', async () => {
    let answer: unknown;
    const { url, model } = await boot({ authenticate: () => answer as never });
    for (answer of ['yes', null, { user: 42 }, { user: 'not a valid id' }, false]) {
      const refused = await post(url, { room: 'room-x', user: 'ada', message: 'hi' });
      expect(refused.status, JSON.stringify(answer)).toBe(401);
      expect(refused.json.error.code).toBe('WEFT_CHAT_UNAUTHORIZED');
    }
    expect(model.requests).toHaveLength(0);
  });

  it('logs a user id that authenticate named and the plugin refuses, at error with the request id and the id cut to 100 characters [claim:obs-chat-invalid-user]', async () => {
    let answer: unknown;
    const { url, logs } = await boot({ authenticate: () => answer as never });
    // A leading `_` is refused like a space: the message must name the first-character rule.
    const ids = ['_ada', 'not a valid id', 'a'.repeat(65), `x${' '.repeat(200)}`];
    for (const user of ids) {
      answer = { user };
      expect((await post(url, { room: 'room-x', user: 'ada', message: 'hi' })).status).toBe(401);
    }
    const refused = logs.filter((line) =>
      String(line.msg).startsWith('chat: authenticate named a user that is not a valid id'),
    );
    expect(refused.map((line) => [line.level, line.user])).toEqual(
      ids.map((id) => [50, id.slice(0, 100)]),
    );
    expect(refused.every((line) => typeof line.requestId === 'string')).toBe(true);
    expect(String(refused[0]?.msg)).toContain('starting with a letter or digit');
  });

  it('logs every answer of authenticate that is not true, false or { user }, an answer of nothing too, with its type [claim:obs-chat-bad-answer]', async () => {
    let answer: unknown;
    const { url, logs } = await boot({ authenticate: () => answer as never });
    // `undefined` is what a hook that forgot its `return` answers.
    for (answer of [undefined, 'yes', null, { user: 42 }]) {
      expect((await post(url, { room: 'room-x', user: 'ada', message: 'hi' })).status).toBe(401);
    }
    const refused = logs.filter(
      (line) =>
        line.msg === 'chat: authenticate must answer true, false or { user }; client refused',
    );
    expect(refused.map((line) => [line.level, line.answered])).toEqual([
      [50, 'undefined'],
      [50, 'string'],
      [50, 'object'],
      [50, 'object'],
    ]);
    expect(refused.every((line) => typeof line.requestId === 'string')).toBe(true);
  });

  it('with authenticate, eve never sees ada’s words, even when her body claims to be ada [claim:chat-readme-trusts-nothing] [claim:httpchat-room-history] [claim:httpchat-authenticate] [claim:httpchat-private-default] [claim:prod-chat-room] [claim:chat-trusts] [claim:chat-trusts-room] [claim:tsdoc-chat-authenticate-result] [claim:tsdoc-chat-private] [claim:tsdoc-chat-authenticate-when]', async () => {
    const { url, plans } = await boot({ authenticate: bearer });
    expect((await post(url, { room: 'room-x', user: 'ada', message: PIN }, 't-ada')).status).toBe(
      200,
    );
    const eve = await post(url, { room: 'room-x', user: 'ada', message: 'hello' }, 't-eve');
    expect(eve.status).toBe(200);
    const evePlan = plans[1] ?? '';
    expect(evePlan).toContain(`Space: ${chatSpace('room-x', 'eve').id}`);
    expect(evePlan).toContain('hello');
    expect(evePlan).not.toContain(PIN);
    // Ada still sees her own history in the room.
    await post(url, { room: 'room-x', user: 'ada', message: 'again' }, 't-ada');
    expect(plans[2]).toContain('4242');
  });

  it('with authenticate, still refuses a body without a valid user, naming the field [claim:httpchat-authenticate-row] [claim:httpchat-authenticate] [claim:chat-readme-body-user-checked]', async () => {
    const { url, model } = await boot({ authenticate: bearer });
    for (const body of [
      { room: 'room-x', message: 'hello' },
      { room: 'room-x', user: 'not an id', message: 'hello' },
    ]) {
      const answer = await post(url, body, 't-eve');
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.json.error.code).toBe('WEFT_CHAT_INVALID_REQUEST');
      expect(answer.json.error.message).toContain('"user"');
    }
    expect(model.requests).toHaveLength(0);
  });

  it('asks authenticate for a body not sent as JSON too, which then gets 400 naming the content type [claim:httpchat-authenticate-row] [claim:chat-readme-authenticate-after-parser]', async () => {
    const asked: string[] = [];
    const { url, model } = await boot({
      authenticate: (request) => {
        asked.push(String(request.headers['content-type']));
        return { user: 'ada' };
      },
    });
    const response = await postRaw(
      url,
      JSON.stringify({ room: 'room-x', user: 'ada', message: 'hello' }),
      { 'content-type': 'text/plain' },
    );
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as Answer;
    expect(error.code).toBe('WEFT_CHAT_INVALID_REQUEST');
    expect(error.message).toContain('content-type application/json');
    expect(asked).toEqual(['text/plain']);
    // Malformed JSON is refused by the server before the route, so the hook is not asked.
    const malformed = await postRaw(url, '{"room":');
    expect(malformed.status).toBe(400);
    // So is a bare string, which is JSON but not of an object or array.
    const bare = await postRaw(url, '"hello"');
    expect(bare.status).toBe(400);
    expect(((await bare.json()) as Answer).error.code).toBe('WEFT_CHAT_INVALID_REQUEST');
    expect(asked).toHaveLength(1);
    expect(model.requests).toHaveLength(0);
  });

  it('refuses an unknown token, a hook that throws, hangs, names a bad id or answers anything else, with 401 and no internals [claim:httpchat-authenticate] [claim:chat-401] [claim:errors-401-cause] [claim:wp-plugin-auth-hook]', async () => {
    const { url, model, logs } = await boot({
      authTimeoutMs: 200,
      authenticate: (request) => {
        const token = request.headers.authorization ?? '';
        if (token === 'Bearer crash') throw new Error('token service at 10.0.0.7 down');
        if (token === 'Bearer hang') return new Promise<boolean>(() => undefined);
        if (token === 'Bearer odd') return { user: 'ada lovelace' };
        // What a hook written in JavaScript may answer: neither true, false nor { user }.
        if (token === 'Bearer vague') return 'ada' as unknown as boolean;
        // An answer that throws as it is read: a getter, or a Proxy.
        if (token === 'Bearer getter') {
          return {
            get user(): string {
              throw new Error('session store at 10.0.0.7 down');
            },
          };
        }
        return false;
      },
    });
    for (const token of ['nope', 'crash', 'hang', 'odd', 'vague', 'getter']) {
      const started = Date.now();
      const answer = await post(url, { room: 'r', user: 'ada', message: 'hi' }, token);
      expect(answer.status, token).toBe(401);
      expect(answer.json.error.code).toBe('WEFT_CHAT_UNAUTHORIZED');
      expect(JSON.stringify(answer.json)).not.toContain('10.0.0.7');
      expect(Date.now() - started).toBeLessThan(2_000);
    }
    expect(model.requests).toHaveLength(0);
    expect(logs.some((line) => String(line.error).includes('10.0.0.7'))).toBe(true);
  });

  it('refuses an answer that is neither true nor { user } with 401 even with trustClientUser, never taking the body’s user [claim:chat-401]', async () => {
    // With trustClientUser on, an answer taken for "no user named" would run as the body's user.
    const answers: Record<string, unknown> = {
      empty: {},
      number: { user: 42 },
      text: 'ada',
      nothing: null,
      one: 1,
      forgot: undefined,
    };
    const { url, model } = await boot({
      trustClientUser: true,
      authenticate: (request) =>
        answers[request.headers.authorization?.replace(/^Bearer /, '') ?? ''] as boolean,
    });
    for (const token of Object.keys(answers)) {
      const answer = await post(url, { room: 'r', user: 'ada', message: 'hi' }, token);
      expect(answer.status, token).toBe(401);
      expect(answer.json.error.code, token).toBe('WEFT_CHAT_UNAUTHORIZED');
    }
    expect(model.requests).toHaveLength(0);
  });

  it('with trustClientUser and authenticate both, runs eve’s message as eve, whatever user her body names [claim:chat-trusts]', async () => {
    const {
      url,
      plans,
      model,
      runtime: started,
    } = await boot({
      authenticate: bearer,
      trustClientUser: true,
    });
    await post(url, { room: 'room-x', user: 'ada', message: PIN }, 't-ada');
    const eve = await post(url, { room: 'room-x', user: 'ada', message: 'hello' }, 't-eve');
    expect(eve.status).toBe(200);
    expect(plans[1]).toContain(`Space: ${chatSpace('room-x', 'eve').id}`);
    expect(plans[1]).not.toContain(PIN);
    // The task names its sender eve, and the reply's prompt addresses her, not ada.
    const triggers = await started.memory.query({
      space: chatSpace('room-x', 'eve').id,
      kind: 'trigger',
    });
    expect(triggers.map((memory) => (memory.content as { data: unknown }).data)).toEqual([
      { room: 'room-x', user: 'eve' },
    ]);
    const replyPrompt = (model.requests.at(-1) ?? []).map((message) => message.content).join('\n');
    expect(replyPrompt).toContain('hello');
    expect(replyPrompt).toContain('"eve"');
    expect(replyPrompt).not.toContain('"ada"');
  });

  it('with trustClientUser and no authenticate, eve never sees ada’s words in the same room [claim:httpchat-room-history] [claim:httpchat-trust-client-user] [claim:httpchat-private-default] [claim:chat-spaces] [claim:chat-trusts] [claim:tsdoc-chat-room-history-default] [claim:tsdoc-chat-user-from-auth]', async () => {
    const { url, plans } = await boot({ trustClientUser: true });
    await post(url, { room: 'room-x', user: 'ada', message: PIN });
    expect((await post(url, { room: 'room-x', user: 'eve', message: 'hello' })).status).toBe(200);
    expect(plans[1]).toContain(`Space: ${chatSpace('room-x', 'eve').id}`);
    expect(plans[1]).not.toContain(PIN);
  });
});

describe('ChatPlugin: shared rooms', () => {
  it('shows eve ada’s words when roomHistory is shared and authorizeRoom lets both in [claim:httpchat-room-shared] [claim:httpchat-authorize-room] [claim:prod-chat-shared] [claim:chat-trusts-room]', async () => {
    const { url, plans } = await boot({
      authenticate: bearer,
      roomHistory: 'shared',
      authorizeRoom: ({ room }) => room === 'room-x',
    });
    await post(url, { room: 'room-x', user: 'ada', message: PIN }, 't-ada');
    await post(url, { room: 'room-x', user: 'eve', message: 'hello' }, 't-eve');
    expect(plans[1]).toContain('4242');
  });

  it('refuses a room authorizeRoom does not allow, or a hook that throws or hangs, with 403 WEFT_CHAT_ROOM_FORBIDDEN [claim:httpchat-refused-no-task] [claim:httpchat-authorize-room] [claim:httpchat-row-403] [claim:prod-chat-shared] [claim:chat-403] [claim:tsdoc-chat-authorize-room] [claim:tsdoc-chat-private] [claim:errors-403-cause] [claim:errors-chat-room-forbidden-answers]', async () => {
    const asked: string[] = [];
    const { url, model } = await boot({
      authenticate: bearer,
      roomHistory: 'shared',
      authTimeoutMs: 200,
      authorizeRoom: ({ user, room }) => {
        asked.push(`${user}@${room}`);
        if (room === 'crash') throw new Error('membership service down');
        if (room === 'hang') return new Promise<boolean>(() => undefined);
        // A truthy answer that is not true.
        if (room === 'odd') return 'yes' as unknown as boolean;
        return user === 'ada';
      },
    });
    for (const room of ['room-x', 'crash', 'hang', 'odd']) {
      // Eve's body names ada, whom the hook lets in: the hook must be asked about eve.
      const answer = await post(url, { room, user: 'ada', message: 'hello' }, 't-eve');
      expect(answer.status, room).toBe(403);
      expect(answer.json.error).toMatchObject({ code: 'WEFT_CHAT_ROOM_FORBIDDEN' });
    }
    expect(model.requests).toHaveLength(0);
    // The hook is asked with the authenticated user, not the one the body names.
    expect(asked).toEqual(['eve@room-x', 'eve@crash', 'eve@hang', 'eve@odd']);
  });

  it('refuses roomHistory shared without authorizeRoom, naming the option [claim:httpchat-options-bad] [claim:httpchat-shared-needs-hook] [claim:chat-trusts-room] [claim:chat-bad-options-more] [claim:tsdoc-chat-authorize-required] [claim:tsdoc-chat-private]', () => {
    let thrown: unknown;
    try {
      new ChatPlugin({ roomHistory: 'shared' });
    } catch (error) {
      thrown = error;
    }
    expect(WeftError.is(thrown, 'WEFT_CHAT_INVALID_OPTIONS')).toBe(true);
    expect((thrown as Error).message).toContain('option "authorizeRoom" must be a function');
    expect(() => new ChatPlugin({ maxInFlightPerUser: 0 })).toThrow(
      'option "maxInFlightPerUser" must be a positive integer',
    );
  });
});

describe('ChatPlugin: limits', () => {
  it('refuses an authTimeoutMs past the longest Node.js timer, which would refuse every client after 1 ms [claim:tsdoc-chat-auth-timeout-max] [claim:chat-bad-options-more]', () => {
    let thrown: unknown;
    try {
      new ChatPlugin({ authTimeoutMs: 2_147_483_648 });
    } catch (error) {
      thrown = error;
    }
    expect(WeftError.is(thrown, 'WEFT_CHAT_INVALID_OPTIONS')).toBe(true);
    expect((thrown as Error).message).toContain(
      'option "authTimeoutMs" must be at most 2147483647 ms',
    );
    expect(new ChatPlugin({ authTimeoutMs: 2_147_483_647 }).access.authTimeoutMs).toBe(
      2_147_483_647,
    );
  });

  it('refuses a user past maxInFlightPerUser with 429 WEFT_CHAT_TOO_MANY_TASKS, and takes them again once a task ends [claim:httpchat-per-user] [claim:httpchat-per-user-scope] [claim:httpchat-row-429] [claim:prod-chat-caps] [claim:prod-chat-caps-refuse] [claim:chat-429] [claim:chat-option-defaults] [claim:errors-429] [claim:tsdoc-chat-per-user] [claim:tsdoc-chat-per-user-cap] [claim:errors-429-cause] [claim:obs-chat-in-flight] [claim:chat-429-retry-after] [claim:httpchat-429-retry-after] [claim:errors-retry-after-429-503]', async () => {
    let release: () => void = () => undefined;
    let gate = new Promise<void>((resolve) => (release = resolve));
    const { url, plugin, plans, logs } = await boot(
      { authenticate: bearer, maxInFlightPerUser: 2 },
      async () => {
        await gate;
        return 'ok';
      },
    );
    const first = post(url, { room: 'r1', user: 'ada', message: 'one' }, 't-ada');
    const second = post(url, { room: 'r2', user: 'ada', message: 'two' }, 't-ada');
    await expect.poll(() => plugin.access.inFlightOf('ada'), { timeout: 5_000 }).toBe(2);
    // The two wait for their tasks; a third of the same user is refused at once.
    const third = await post(url, { room: 'r3', user: 'ada', message: 'three' }, 't-ada');
    expect(third.status).toBe(429);
    expect(third.json.error).toMatchObject({
      status: 429,
      code: 'WEFT_CHAT_TOO_MANY_TASKS',
      docsUrl: 'https://weft-ai.github.io/docs/reference/errors/#weft_chat_too_many_tasks',
      message:
        'Too many messages of this user (at most 2) waiting for replies; wait for a reply, then send this one again [WEFT_CHAT_TOO_MANY_TASKS]',
    });
    // When to send again: a place frees only when one of the user's tasks ends.
    expect(third.retryAfter).toBe('5');
    // The line says which cap it met: the user's, here.
    expect(
      logs.filter((line) => line.msg === 'chat: too many messages in flight; refused'),
    ).toEqual([
      expect.objectContaining({ level: 30, user: 'ada', limit: 'of this user (at most 2)' }),
    ]);
    // Another user is not held back by ada's count, even when her body names ada: the slot
    // taken is the sender's.
    const eve = post(url, { room: 'r1', user: 'ada', message: 'hi' }, 't-eve');
    release();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    expect((await eve).status).toBe(200);
    gate = Promise.resolve();
    expect(plugin.access.inFlightOf('ada')).toBe(0);
    // The refused message became no task: three were planned, one each for the accepted ones.
    expect(plans).toHaveLength(3);
    expect((await post(url, { room: 'r3', user: 'ada', message: 'three' }, 't-ada')).status).toBe(
      200,
    );
  });

  it('refuses pipelined requests of one connection past maxInFlight with 429 WEFT_CHAT_TOO_MANY_TASKS, and takes the connection’s next once tasks end [claim:httpchat-per-connection] [claim:httpchat-row-429] [claim:prod-chat-caps] [claim:chat-429] [claim:errors-429] [claim:tsdoc-chat-per-user-cap] [claim:errors-429-cause] [claim:obs-chat-in-flight]', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { url, logs } = await boot({ trustClientUser: true, maxInFlight: 2 }, async () => {
      await gate;
      return 'ok';
    });
    const { hostname, port } = new URL(url);
    const socket = tcpConnect(Number(port), hostname);
    sockets.push(socket);
    const answers = answersOf(socket);
    // Four requests of four users, sent at once on one keep-alive connection.
    socket.write(['u1', 'u2', 'u3', 'u4'].map((user) => rawPost(url, user)).join(''));
    const refused = () =>
      logs.filter((line) => line.msg === 'chat: too many messages in flight; refused');
    await expect.poll(() => refused().length, { timeout: 5_000 }).toBe(2);
    expect(refused()[0]).toMatchObject({ limit: 'of this connection (at most 2)' });
    release();
    const first = await answers.next(4);
    expect(first.map((answer) => answer.status)).toEqual([200, 200, 429, 429]);
    expect(JSON.parse(first[2]?.body ?? '{}')).toMatchObject({
      error: { status: 429, code: 'WEFT_CHAT_TOO_MANY_TASKS' },
    });
    expect(first[2]?.head).toMatch(/^retry-after: 5$/im);
    socket.write(rawPost(url, 'u3'));
    expect((await answers.next(1)).map((answer) => answer.status)).toEqual([200]);
  });

  it('has the documented defaults [claim:httpchat-per-user] [claim:httpchat-options-same] [claim:httpchat-per-connection] [claim:wsdoc-same-options] [claim:chat-option-defaults] [claim:wsreadme-same-options] [claim:chat-readme-ws-options] [claim:tsdoc-chat-trust-default-value] [claim:tsdoc-chat-room-history-default] [claim:tsdoc-chat-auth-timeout-default] [claim:tsdoc-chat-per-user-default] [claim:prod-chat-same-options] [claim:httpchat-option-defaults] [claim:prod-chat-caps]', async () => {
    const { access, maxInFlight, path } = new ChatPlugin();
    expect(path).toBe('/chat');
    expect(maxInFlight).toBe(4);
    // Without authorizeRoom every room is open to every user.
    expect(await access.mayUseRoom({ user: 'ada', room: 'any' }, 'request-1', undefined)).toBe(
      true,
    );
    expect({
      trustClientUser: access.trustClientUser,
      roomHistory: access.roomHistory,
      authTimeoutMs: access.authTimeoutMs,
      maxInFlightPerUser: access.maxInFlightPerUser,
      authenticates: access.authenticates,
    }).toEqual({
      trustClientUser: false,
      roomHistory: 'private',
      authTimeoutMs: 5_000,
      maxInFlightPerUser: 8,
      authenticates: false,
    });
  });
});

describe('ChatPlugin behind the server’s Origin check', () => {
  it('refuses a cross-site text/plain form POST to the chat route, running no task [claim:httpchat-host] [claim:httpchat-origin] [claim:chat-trusts-origin]', async () => {
    const { url, model } = await boot({ trustClientUser: true });
    const status = await new Promise<number>((resolve, reject) => {
      const outgoing = httpRequest(
        url,
        {
          method: 'POST',
          headers: { origin: 'https://attacker.example', 'content-type': 'text/plain' },
        },
        (incoming) => {
          incoming.resume();
          resolve(incoming.statusCode ?? 0);
        },
      );
      outgoing.setTimeout(5_000, () => outgoing.destroy(new Error('no answer within 5 s')));
      outgoing.on('error', reject);
      outgoing.end('{"room":"42","user":"ada","message":"hi"}=');
    });
    expect(status).toBe(403);
    expect(model.requests).toHaveLength(0);
  });
});

describe('ChatPlugin: what the runtime’s server answers before the route', () => {
  it('answers 400, 413, 415, 431, 403, 404, 408, 501 and 505 in the error shape with X-Request-Id, never asking authenticate nor running a task [claim:httpchat-row-501] [claim:chat-readme-501-505] [claim:httpchat-row-505] [claim:chat-readme-authenticate-after-parser] [claim:chat-413] [claim:chat-415] [claim:chat-403-server] [claim:chat-readme-404-408] [claim:chat-readme-400-http] [claim:httpchat-server-answers] [claim:httpchat-row-400-server] [claim:httpchat-row-403-server] [claim:httpchat-row-404] [claim:httpchat-row-408] [claim:httpchat-row-413] [claim:httpchat-row-415] [claim:httpchat-row-431] [claim:httpchat-413] [claim:httpchat-authenticate-row] [claim:chat-readme-431]', async () => {
    let asked = 0;
    const { model, runtime } = await boot(
      {
        authenticate: () => {
          asked += 1;
          return { user: 'ada' };
        },
      },
      undefined,
      { port: 0, bodyLimit: 1_000, headersTimeout: 200, requestTimeout: 300 },
    );
    const url = `${runtime.server.url}/chat`;
    const { host, hostname, port } = new URL(url);

    /** Sends raw HTTP/1.1 text on a connection of its own and reads the first answer. */
    async function raw(text: string): Promise<{ status: number; head: string; body: string }> {
      const socket = tcpConnect(Number(port), hostname);
      sockets.push(socket);
      const answers = answersOf(socket);
      socket.write(text);
      const [answer] = await answers.next(1);
      return answer as { status: number; head: string; body: string };
    }
    const post = (headers: string, body: string) =>
      raw(
        `POST /chat HTTP/1.1\r\n${headers}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    const json = 'Content-Type: application/json\r\n';
    const body = (message: string) => JSON.stringify({ room: '42', user: 'ada', message });

    const answers = {
      tooLarge: await post(`Host: ${host}\r\n${json}`, body('x'.repeat(2_000))),
      charset: await post(
        `Host: ${host}\r\nContent-Type: application/json; charset=latin9\r\n`,
        body('hi'),
      ),
      encoding: await post(`Host: ${host}\r\n${json}Content-Encoding: br2\r\n`, body('hi')),
      // Said to be gzip, but plain text: it does not inflate.
      notGzip: await post(`Host: ${host}\r\n${json}Content-Encoding: gzip\r\n`, body('hi')),
      // A chunk extension longer than Node's parser takes (16 KiB).
      chunkExtension: await raw(
        `POST /chat HTTP/1.1\r\nHost: ${host}\r\n${json}Transfer-Encoding: chunked\r\n\r\n2;x=${'a'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`,
      ),
      // Node's parser takes at most 16 KiB of headers.
      bigHeaders: await post(
        `Host: ${host}\r\n${json}X-Big: ${'a'.repeat(20_000)}\r\n`,
        body('hi'),
      ),
      // Node counts the request line, and so the URL, with the headers: a long URL alone is too.
      longUrl: await raw(
        `POST /chat?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: ${host}\r\n${json}Content-Length: 2\r\n\r\n{}`,
      ),
      host: await post(`Host: attacker.example\r\n${json}`, body('hi')),
      origin: await post(
        `Host: ${host}\r\nOrigin: https://attacker.example\r\n${json}`,
        body('hi'),
      ),
      method: await raw(`GET /chat HTTP/1.1\r\nHost: ${host}\r\n\r\n`),
      noHost: await post(json, body('hi')),
      emptyHost: await post(`Host:\r\n${json}`, body('hi')),
      twoHosts: await post(`Host: ${host}\r\nHost: ${host}\r\n${json}`, body('hi')),
      // A request line that names its host itself, with user information.
      userInfo: await raw(
        `POST http://ada@${host}/chat HTTP/1.1\r\nHost: ${host}\r\n${json}Content-Length: 2\r\n\r\n{}`,
      ),
      // A transfer coding the server does not decode, before chunked.
      gzipChunked: await raw(
        `POST /chat HTTP/1.1\r\nHost: ${host}\r\n${json}Transfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
      ),
      // HTTP versions Node.js parses and the server does not speak.
      http2: await raw(
        `POST /chat HTTP/2.0\r\nHost: ${host}\r\n${json}Content-Length: 2\r\n\r\n{}`,
      ),
      http09: await raw(`POST /chat HTTP/0.9\r\nHost: ${host}\r\n\r\n`),
      notHttp: await raw('HELLO /chat\r\n\r\n'),
      // Headers that never end: the blank line after them never comes.
      slowHeaders: await raw(`POST /chat HTTP/1.1\r\nHost: ${host}\r\n${json}`),
      // Headers that promise a body of 100 bytes, and 10 of them: the rest never comes.
      slow: await raw(
        `POST /chat HTTP/1.1\r\nHost: ${host}\r\n${json}Content-Length: 100\r\n\r\n{"room":"4`,
      ),
    };
    const seen = Object.fromEntries(
      Object.entries(answers).map(([name, answer]) => {
        const { error } = JSON.parse(answer.body) as { error: Record<string, unknown> };
        expect(answer.head).toMatch(new RegExp(`^x-request-id: ${String(error.requestId)}$`, 'im'));
        expect(error.docsUrl).toEqual(expect.stringContaining('/reference/errors/#'));
        return [name, [answer.status, error.code]];
      }),
    );
    expect(seen).toEqual({
      tooLarge: [413, 'WEFT_BAD_REQUEST'],
      charset: [415, 'WEFT_BAD_REQUEST'],
      encoding: [415, 'WEFT_BAD_REQUEST'],
      notGzip: [400, 'WEFT_BAD_REQUEST'],
      bigHeaders: [431, 'WEFT_BAD_REQUEST'],
      longUrl: [431, 'WEFT_BAD_REQUEST'],
      chunkExtension: [413, 'WEFT_BAD_REQUEST'],
      host: [403, 'WEFT_HOST_NOT_ALLOWED'],
      origin: [403, 'WEFT_ORIGIN_NOT_ALLOWED'],
      method: [404, 'WEFT_NOT_FOUND'],
      noHost: [400, 'WEFT_BAD_REQUEST'],
      emptyHost: [400, 'WEFT_BAD_REQUEST'],
      twoHosts: [400, 'WEFT_BAD_REQUEST'],
      userInfo: [400, 'WEFT_BAD_REQUEST'],
      gzipChunked: [501, 'WEFT_BAD_REQUEST'],
      http2: [505, 'WEFT_BAD_REQUEST'],
      http09: [505, 'WEFT_BAD_REQUEST'],
      notHttp: [400, 'WEFT_BAD_REQUEST'],
      slowHeaders: [408, 'WEFT_BAD_REQUEST'],
      slow: [408, 'WEFT_BAD_REQUEST'],
    });
    expect(asked).toBe(0);
    expect(model.requests).toHaveLength(0);
  });
});

describe('ChatPlugin: a large body not sent as JSON', () => {
  it('answers a body over server.bodyLimit that is not application/json with the route’s 400, not 413, after asking authenticate [claim:httpchat-413-json-only] [claim:chat-413]', async () => {
    let asked = 0;
    const { model, runtime } = await boot(
      {
        authenticate: () => {
          asked += 1;
          return { user: 'ada' };
        },
      },
      undefined,
      { port: 0, bodyLimit: 1_000 },
    );
    const url = `${runtime.server.url}/chat`;
    const post = (type: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': type },
        body: JSON.stringify({ room: '42', user: 'ada', message: 'x'.repeat(5_000) }),
      });
    const plain = await post('text/plain');
    expect(plain.status).toBe(400);
    expect(await plain.json()).toMatchObject({ error: { code: 'WEFT_CHAT_INVALID_REQUEST' } });
    expect(asked).toBe(1);
    const json = await post('application/json');
    expect(json.status).toBe(413);
    expect(asked).toBe(1);
    expect(model.requests).toHaveLength(0);
  });

  it('answers a body that is not application/json 401, not 400, when authenticate refuses it [claim:httpchat-413-json-only] [claim:chat-413]', async () => {
    const { model, runtime } = await boot({
      authenticate: (request) =>
        request.headers.authorization === 'Bearer t-ada' ? { user: 'ada' } : false,
    });
    const post = (headers: Record<string, string>) =>
      fetch(`${runtime?.server.url}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', ...headers },
        body: JSON.stringify({ room: '42', user: 'ada', message: 'hi' }),
      });
    const refused = await post({});
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: 'WEFT_CHAT_UNAUTHORIZED' } });
    const accepted = await post({ authorization: 'Bearer t-ada' });
    expect(accepted.status).toBe(400);
    expect(await accepted.json()).toMatchObject({ error: { code: 'WEFT_CHAT_INVALID_REQUEST' } });
    expect(model.requests).toHaveLength(0);
  });
});

describe('ChatPlugin: a body not sent as JSON, in a charset or encoding the parser cannot read', () => {
  it('asks authenticate and answers the route’s 400 (401 when refused), not 415 or the parser’s 400, since only an application/json body is read; a JSON body nested too deeply is refused before authenticate [claim:httpchat-authenticate-row] [claim:chat-415] [claim:chat-readme-authenticate-after-parser] [claim:chat-readme-400-http] [claim:httpchat-row-415] [claim:httpchat-row-400-server]', async () => {
    const asked: string[] = [];
    const { model, runtime } = await boot({
      authenticate: (request) => {
        asked.push(String(request.headers['content-encoding'] ?? request.headers['content-type']));
        return request.headers.authorization === 'Bearer t-ada' ? { user: 'ada' } : false;
      },
    });
    const url = `${runtime.server.url}/chat`;
    const body = JSON.stringify({ room: '42', user: 'ada', message: 'hi' });
    const send = async (headers: Record<string, string>) => {
      const response = await postRaw(url, body, headers);
      const { error } = (await response.json()) as Answer;
      return [response.status, error.code];
    };
    const bearer = { authorization: 'Bearer t-ada' };
    const unreadable = {
      charset: { 'content-type': 'text/plain; charset=latin9' },
      encoding: { 'content-type': 'text/plain', 'content-encoding': 'br2' },
      notGzip: { 'content-type': 'text/plain', 'content-encoding': 'gzip' },
    };
    const seen: Record<string, unknown> = {};
    for (const [name, headers] of Object.entries(unreadable)) {
      seen[name] = await send({ ...headers, ...bearer });
      seen[`${name}, refused`] = await send(headers);
    }
    expect(seen).toEqual({
      charset: [400, 'WEFT_CHAT_INVALID_REQUEST'],
      'charset, refused': [401, 'WEFT_CHAT_UNAUTHORIZED'],
      encoding: [400, 'WEFT_CHAT_INVALID_REQUEST'],
      'encoding, refused': [401, 'WEFT_CHAT_UNAUTHORIZED'],
      notGzip: [400, 'WEFT_CHAT_INVALID_REQUEST'],
      'notGzip, refused': [401, 'WEFT_CHAT_UNAUTHORIZED'],
    });
    expect(asked).toHaveLength(6);
    // The same headers with an application/json body: the parser refuses it, the hook unasked.
    expect(
      await send({
        ...unreadable.charset,
        'content-type': 'application/json; charset=latin9',
        ...bearer,
      }),
    ).toEqual([415, 'WEFT_BAD_REQUEST']);
    expect(
      await send({ ...unreadable.encoding, 'content-type': 'application/json', ...bearer }),
    ).toEqual([415, 'WEFT_BAD_REQUEST']);
    expect(
      await send({ ...unreadable.notGzip, 'content-type': 'application/json', ...bearer }),
    ).toEqual([400, 'WEFT_BAD_REQUEST']);
    // JSON nested deeper than server.maxJsonDepth (64) is refused by the parser too.
    const deep = await postRaw(
      url,
      `{"room":"42","user":"ada","message":"hi","x":${'['.repeat(70)}${']'.repeat(70)}}`,
      { 'content-type': 'application/json', ...bearer },
    );
    expect(deep.status).toBe(400);
    expect(((await deep.json()) as Answer).error.code).toBe('WEFT_CHAT_INVALID_REQUEST');
    expect(asked).toHaveLength(6);
    expect(model.requests).toHaveLength(0);
  });
});

describe('ChatPlugin: a slow body not sent as JSON', () => {
  it('answers a body of another type that is still arriving with the route’s 400, not 408, since the parser does not wait for it [claim:chat-readme-404-408] [claim:httpchat-row-408]', async () => {
    const { model, runtime } = await boot({ authenticate: () => ({ user: 'ada' }) }, undefined, {
      port: 0,
      headersTimeout: 200,
      requestTimeout: 300,
    });
    const { host, hostname, port } = new URL(`${runtime.server.url}/chat`);
    const statusOf = async (type: string) => {
      const socket = tcpConnect(Number(port), hostname);
      sockets.push(socket);
      const answers = answersOf(socket);
      // Headers that promise a body of 100 bytes, and 10 of them: the rest never comes.
      socket.write(
        `POST /chat HTTP/1.1\r\nHost: ${host}\r\nContent-Type: ${type}\r\nContent-Length: 100\r\n\r\n{"room":"4`,
      );
      const [answer] = await answers.next(1);
      const { error } = JSON.parse(answer?.body ?? '{}') as Answer;
      return [answer?.status, error.code];
    };
    expect(await statusOf('text/plain')).toEqual([400, 'WEFT_CHAT_INVALID_REQUEST']);
    expect(await statusOf('application/json')).toEqual([408, 'WEFT_BAD_REQUEST']);
    expect(model.requests).toHaveLength(0);
  });
});

describe('ChatPlugin: oversized chunk extensions on a body not sent as JSON', () => {
  it('lets the route answer such a body first, asking authenticate, and sends the 413 after it on the same connection, or in its place when the whole request arrives at once [claim:chat-readme-431] [claim:httpchat-row-413-other-type]', async () => {
    let asked = 0;
    const { model, runtime } = await boot({
      authenticate: () => {
        asked += 1;
        return { user: 'ada' };
      },
    });
    const { host, hostname, port } = new URL(`${runtime.server.url}/chat`);
    const socket = tcpConnect(Number(port), hostname);
    sockets.push(socket);
    const answers = answersOf(socket);
    socket.write(
      `POST /chat HTTP/1.1\r\nHost: ${host}\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    // The route answers before the body: it is not JSON, so nothing waits for it.
    const [first] = await answers.next(1);
    expect(first?.status).toBe(400);
    expect(asked).toBe(1);
    // Then a chunk whose extension is larger than Node.js takes (16 KiB).
    socket.write(`2;a=${'b'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`);
    const [second] = await answers.next(1);
    expect(second?.status).toBe(413);
    expect((JSON.parse(second?.body ?? '{}') as Answer).error.code).toBe('WEFT_BAD_REQUEST');

    // The same request in one write: the route still runs, asking authenticate, but the 413
    // is the one answer.
    const whole = tcpConnect(Number(port), hostname);
    sockets.push(whole);
    const wholeAnswers = answersOf(whole);
    let received = '';
    whole.on('data', (chunk: string) => {
      received += chunk;
    });
    whole.write(
      `POST /chat HTTP/1.1\r\nHost: ${host}\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n2;a=${'b'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`,
    );
    const [only] = await wholeAnswers.next(1);
    expect(only?.status).toBe(413);
    expect((JSON.parse(only?.body ?? '{}') as Answer).error.code).toBe('WEFT_BAD_REQUEST');
    expect(asked).toBe(2);
    // No 400 of the route before or after it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received.match(/^HTTP\/1\.1 \d{3}/gm)).toEqual(['HTTP/1.1 413']);
    expect(model.requests).toHaveLength(0);
  });
});

describe('ChatPlugin: other methods on its path', () => {
  it('answers another method on the chat path with 404, except an OPTIONS preflight, which the cors middleware answers when server.cors is set [claim:httpchat-row-404] [claim:chat-readme-404-408]', async () => {
    const answers: Record<string, [number, number]> = {};
    const settings = {
      plain: false,
      cors: true,
      status200: { optionsSuccessStatus: 200 },
      continued: { preflightContinue: true },
    } as const;
    for (const [name, cors] of Object.entries(settings)) {
      const { model, runtime } = await boot({ authenticate: () => ({ user: 'ada' }) }, undefined, {
        port: 0,
        cors,
      });
      const url = `${runtime.server.url}/chat`;
      const preflight = await fetch(url, {
        method: 'OPTIONS',
        // Without an Origin, so that the origin check lets it through either way.
        headers: { 'access-control-request-method': 'POST' },
      });
      const get = await fetch(url);
      answers[name] = [preflight.status, get.status];
      expect(model.requests).toHaveLength(0);
      await runtime.stop();
    }
    // The middleware answers with its optionsSuccessStatus, or passes on to the 404 with
    // preflightContinue.
    expect(answers).toEqual({
      plain: [404, 404],
      cors: [204, 404],
      status200: [200, 404],
      continued: [404, 404],
    });
  });

  it('answers an OPTIONS request with 204 whatever its origin with a cors origin list, and leaves it to the 404 when a cors origin function refuses its origin or its lack of one [claim:httpchat-row-404] [claim:chat-readme-404-408]', async () => {
    const settings = {
      list: { origin: ['https://a.example'] },
      function: {
        origin: (
          origin: string | undefined,
          callback: (error: Error | null, allow?: boolean) => void,
        ) => callback(null, origin === 'https://a.example'),
      },
    };
    const answers: Record<string, number[]> = {};
    for (const [name, cors] of Object.entries(settings)) {
      // b.example passes the server's origin check without being one cors allows.
      const { model, runtime } = await boot({ authenticate: () => ({ user: 'ada' }) }, undefined, {
        port: 0,
        cors,
        allowedOrigins: ['https://b.example'],
      });
      const port = runtime.server.port as number;
      const preflight = (origin?: string) =>
        new Promise<number>((resolve, reject) => {
          const sent = httpRequest(
            {
              host: '127.0.0.1',
              port,
              method: 'OPTIONS',
              path: '/chat',
              headers: {
                'access-control-request-method': 'POST',
                ...(origin === undefined ? {} : { origin }),
              },
            },
            (response) => {
              response.resume();
              resolve(response.statusCode ?? 0);
            },
          );
          sent.on('error', reject);
          sent.end();
        });
      answers[name] = [
        await preflight('https://a.example'),
        await preflight('https://b.example'),
        await preflight(),
      ];
      expect(model.requests).toHaveLength(0);
      await runtime.stop();
    }
    expect(answers).toEqual({ list: [204, 204, 204], function: [204, 404, 404] });
  });

  it('answers an OPTIONS request from an origin the server’s origin check refuses with 403 WEFT_ORIGIN_NOT_ALLOWED, not the cors middleware’s 204 nor the 404, with a cors origin list or function [claim:chat-readme-404-408] [claim:httpchat-row-404]', async () => {
    const settings = {
      list: { origin: ['https://a.example'] },
      function: {
        origin: (
          origin: string | undefined,
          callback: (error: Error | null, allow?: boolean) => void,
        ) => callback(null, origin === 'https://a.example'),
      },
    };
    const answers: Record<string, [number, string | undefined]> = {};
    for (const [name, cors] of Object.entries(settings)) {
      const { model, runtime } = await boot({ authenticate: () => ({ user: 'ada' }) }, undefined, {
        port: 0,
        cors,
      });
      // b.example is neither the server's origin, nor in allowedOrigins, nor one cors allows.
      const preflight = await fetch(`${runtime.server.url}/chat`, {
        method: 'OPTIONS',
        headers: { origin: 'https://b.example', 'access-control-request-method': 'POST' },
      });
      const body = (await preflight.json()) as Answer;
      answers[name] = [preflight.status, body.error?.code];
      expect(model.requests).toHaveLength(0);
      await runtime.stop();
    }
    expect(answers).toEqual({
      list: [403, 'WEFT_ORIGIN_NOT_ALLOWED'],
      function: [403, 'WEFT_ORIGIN_NOT_ALLOWED'],
    });
  });
});

describe('ChatPlugin: what middleware found', () => {
  it("lets authenticate read what middleware on the runtime's express app put in response.locals [claim:httpchat-auth-middleware-locals] [claim:httpchat-auth-middleware] [claim:trig-route-locals]", async () => {
    const { model } = recordingModel();
    const seen: unknown[] = [];
    runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [
        new ChatPlugin({
          authenticate: (request) => {
            seen.push(request.locals?.user);
            const user = request.locals?.user;
            return typeof user === 'string' ? { user } : false;
          },
        }),
      ],
      options: { server: { port: 0 }, logger: pino({ level: 'silent' }) },
    });
    // A session middleware: the user of a known session cookie, nothing otherwise.
    serverOf(runtime).app.use((request, response, next) => {
      if (request.headers.cookie === 'session=s-1') response.locals.user = 'grace';
      next();
    });
    await runtime.start();
    const send = (cookie?: string) =>
      fetch(`${runtime?.server.url}/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        body: JSON.stringify({ room: 'r', user: 'ada', message: 'hi' }),
        signal: AbortSignal.timeout(10_000),
      });
    const known = await send('session=s-1');
    expect(known.status).toBe(200);
    const unknown = await send();
    expect(unknown.status).toBe(401);
    expect(seen).toEqual(['grace', undefined]);
  });

  it('never runs middleware added after start() ahead of the route, which start() mounted [claim:httpchat-auth-middleware]', async () => {
    const { model } = recordingModel();
    runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [new ChatPlugin({ trustClientUser: true })],
      options: { server: { port: 0 }, logger: pino({ level: 'silent' }) },
    });
    await runtime.start();
    // Added once the routes are mounted: express runs it after them, so the route answers.
    const ran: string[] = [];
    serverOf(runtime).app.use('/chat', (_request, response) => {
      ran.push('after start');
      response.status(401).json({ error: { status: 401, message: 'refused' } });
    });
    const response = await fetch(`${runtime.server.url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ room: 'r', user: 'ada', message: 'hi' }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(response.status).toBe(200);
    expect(ran).toEqual([]);
  });
});

describe('ChatPlugin: the sender, not the body user, must fit the space with the room', () => {
  it('checks room and sender together: a long body user is no matter when authenticate names a short one, and a 400 when it is the sender [claim:chat-fields]', async () => {
    // Each '-' takes three characters of the 200 a space id may have.
    const room = `r${'-'.repeat(40)}`;
    const longUser = `u${'-'.repeat(63)}`;
    const body = { room, user: longUser, message: 'hi' };
    const named = await boot({ authenticate: () => ({ user: 'ada' }) });
    const asAda = await post(named.url, body);
    expect(asAda.status).toBe(200);
    expect(asAda.json.reply).toBe('ok');
    await runtime?.stop();
    runtime = undefined;
    const trusting = await boot({ trustClientUser: true });
    const asBodyUser = await post(trusting.url, body);
    expect(asBodyUser.status).toBe(400);
    expect(asBodyUser.json.error.code).toBe('WEFT_CHAT_INVALID_REQUEST');
    expect(asBodyUser.json.error.message).toContain('too long together');
  });

  it('refuses a bare true, false or null sent as application/json with 400 before asking authenticate [claim:chat-readme-authenticate-after-parser] [claim:chat-400]', async () => {
    let asked = 0;
    const { url } = await boot({
      authenticate: () => {
        asked += 1;
        return { user: 'ada' };
      },
    });
    for (const scalar of [true, false, null, 7, 'hi']) {
      const answer = await post(url, scalar);
      expect(answer.status).toBe(400);
      expect(answer.json.error.code).toBe('WEFT_CHAT_INVALID_REQUEST');
    }
    expect(asked).toBe(0);
  });
});
