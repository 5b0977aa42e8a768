/**
 * Who a websocket client chats as, which rooms it reads through the model, and how many of one
 * user's messages may wait: a client that names a room never sees another user's words unless
 * the room is shared on purpose, and a frame's `user` is believed only when an option says so.
 */
import { describe, expect, it } from 'vitest';
import { chatSpace } from '@weft/plugin-chat';
import type { ScriptedResponse } from '@weft/testing';
import { WebSocketPlugin } from '../src/index.js';
import {
  byToken,
  echoModel,
  perTest,
  refusedUpgrade,
  type Booted,
  type Client,
} from './support.js';

const { boot, open } = perTest();
let booted: Booted | undefined;

/** The echo model, keeping every planning prompt. */
function recording(): { plans: string[]; model: ScriptedResponse } {
  const plans: string[] = [];
  return {
    plans,
    model: (messages, request) => {
      if (request.purpose === 'plan') {
        plans.push(messages.map((message) => message.content).join('\n'));
      }
      return echoModel(messages, request);
    },
  };
}

/** Sends one message and waits for its accepted and reply frames. */
async function say(client: Client, id: string, room: string, user: string, text: string) {
  client.send({ type: 'message', id, room, user, message: text });
  const accepted = await client.next();
  expect(accepted).toMatchObject({ type: 'accepted', id });
  return client.next();
}

const PIN = 'my bank PIN is 4242';

describe('WebSocketPlugin: who the sender is', () => {
  it('refuses the upgrade with 401 WEFT_WS_UNAUTHORIZED by default: no hook names a user and frames are not believed [claim:wsdoc-no-user] [claim:prod-chat-sender] [claim:errors-401-no-user] [claim:tsdoc-ws-options-no-user] [claim:errors-401-cause] [claim:prod-chat-same-options]', async () => {
    booted = await boot({ trustClientUser: false });
    const refused = await refusedUpgrade(booted.url);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 'WEFT_WS_UNAUTHORIZED' });
    expect(booted.plugin.connectionCount).toBe(0);
    expect(booted.logs.some((line) => String(line.msg).includes('trustClientUser is off'))).toBe(
      true,
    );
  });

  it('with authenticate, eve never sees ada’s words in the room, even when her frames claim to be ada [claim:wsdoc-auth-user] [claim:wsdoc-private] [claim:prod-chat-room] [claim:wsreadme-auth-user] [claim:wsreadme-room-private] [claim:wsreadme-room-history-option]', async () => {
    const { plans, model } = recording();
    booted = await boot({ trustClientUser: false, authenticate: byToken }, model);
    const ada = await open(`${booted.url}?token=t-ada`);
    expect(await say(ada, '1', 'room-x', 'ada', PIN)).toMatchObject({ type: 'reply' });
    const eve = await open(`${booted.url}?token=t-eve`);
    expect(await say(eve, '1', 'room-x', 'ada', 'hello')).toMatchObject({ type: 'reply' });
    const evePlan = plans[1] ?? '';
    expect(evePlan).toContain(`Space: ${chatSpace('room-x', 'eve').id}`);
    expect(evePlan).not.toContain(PIN);
    // Ada's own history in the room is still hers.
    await say(ada, '2', 'room-x', 'ada', 'again');
    expect(plans[2]).toContain('4242');
  });

  it('with trustClientUser and no authenticate, eve never sees ada’s words in the same room [claim:wsdoc-private] [claim:wsreadme-trust-client]', async () => {
    const { plans, model } = recording();
    booted = await boot({ trustClientUser: true }, model);
    const client = await open(booted.url);
    await say(client, '1', 'room-x', 'ada', PIN);
    await say(client, '2', 'room-x', 'eve', 'hello');
    expect(plans[1]).toContain(`Space: ${chatSpace('room-x', 'eve').id}`);
    expect(plans[1]).not.toContain(PIN);
  });
});

describe('WebSocketPlugin: trusting the frames', () => {
  it('with trustClientUser and no authenticate, a client that names ada writes as ada and reads through the model what ada wrote [claim:wsreadme-trust-client] [claim:wsdoc-no-user]', async () => {
    const { plans, model } = recording();
    booted = await boot({ trustClientUser: true }, model);
    await say(await open(booted.url), '1', 'room-x', 'ada', PIN);
    const impostor = await open(booted.url);
    await say(impostor, '1', 'room-x', 'ada', 'what did I tell you?');
    expect(plans[1]).toContain(`Space: ${chatSpace('room-x', 'ada').id}`);
    expect(plans[1]).toContain('4242');
  });
});

describe('WebSocketPlugin: shared rooms', () => {
  it('shows eve ada’s words when roomHistory is shared and authorizeRoom lets both in [claim:wsdoc-shared] [claim:wsreadme-room-shared] [claim:wsreadme-room-history-option]', async () => {
    const { plans, model } = recording();
    booted = await boot(
      {
        trustClientUser: false,
        authenticate: byToken,
        roomHistory: 'shared',
        authorizeRoom: ({ room }) => room === 'room-x',
      },
      model,
    );
    await say(await open(`${booted.url}?token=t-ada`), '1', 'room-x', 'ada', PIN);
    await say(await open(`${booted.url}?token=t-eve`), '1', 'room-x', 'eve', 'hello');
    expect(plans[1]).toContain('4242');
  });

  it('asks authorizeRoom for every frame, answers WEFT_WS_ROOM_FORBIDDEN to a room it refuses, throws on or does not answer in time, and keeps the connection [claim:wsreadme-auth-timeout] [claim:wsdoc-shared] [claim:prod-chat-shared] [claim:wsreadme-room-shared] [claim:wsreadme-error-codes] [claim:tsdoc-chat-authorize-room] [claim:errors-ws-room-forbidden-answers] [claim:wsreadme-authorize-room-option]', async () => {
    const asked: string[] = [];
    booted = await boot({
      trustClientUser: false,
      authenticate: byToken,
      roomHistory: 'shared',
      authTimeoutMs: 200,
      authorizeRoom: ({ user, room }) => {
        asked.push(`${user}@${room}`);
        if (room === 'hang') return new Promise<boolean>(() => undefined);
        if (room === 'crash') throw new Error('room service at 10.0.0.9 down');
        // A truthy answer that is not true.
        if (room === 'odd') return 'yes' as unknown as boolean;
        return room === 'lobby';
      },
    });
    const eve = await open(`${booted.url}?token=t-eve`);
    for (const room of ['room-x', 'hang', 'crash', 'odd']) {
      eve.send({ type: 'message', id: room, room, user: 'eve', message: 'hello' });
      const refused = await eve.next();
      expect(refused).toMatchObject({
        type: 'error',
        id: room,
        code: 'WEFT_WS_ROOM_FORBIDDEN',
        docsUrl: expect.stringContaining('#weft_ws_room_forbidden'),
      });
      expect(JSON.stringify(refused)).not.toContain('10.0.0.9');
    }
    expect(await say(eve, 'ok', 'lobby', 'eve', 'hi')).toMatchObject({ type: 'reply' });
    await say(eve, 'ok2', 'lobby', 'eve', 'again');
    expect(asked).toEqual([
      'eve@room-x',
      'eve@hang',
      'eve@crash',
      'eve@odd',
      'eve@lobby',
      'eve@lobby',
    ]);
  });

  it('asks authorizeRoom for every frame with private history too, when it is given, and keeps the connection it refuses [claim:wsreadme-room-shared]', async () => {
    const asked: string[] = [];
    booted = await boot({
      trustClientUser: false,
      authenticate: byToken,
      authorizeRoom: ({ user, room }) => {
        asked.push(`${user}@${room}`);
        return room === 'lobby';
      },
    });
    expect(booted.plugin.options.roomHistory).toBe('private');
    const eve = await open(`${booted.url}?token=t-eve`);
    eve.send({ type: 'message', id: '1', room: 'room-x', user: 'eve', message: 'hello' });
    expect(await eve.next()).toMatchObject({
      type: 'error',
      id: '1',
      code: 'WEFT_WS_ROOM_FORBIDDEN',
    });
    expect(await say(eve, '2', 'lobby', 'eve', 'hi')).toMatchObject({ type: 'reply', id: '2' });
    expect(asked).toEqual(['eve@room-x', 'eve@lobby']);
  });

  it('refuses roomHistory shared without authorizeRoom with WEFT_WS_INVALID_OPTIONS [claim:wsdoc-shared] [claim:wsreadme-bad-option] [claim:wsreadme-authorize-room-option]', () => {
    expect(() => new WebSocketPlugin({ roomHistory: 'shared' })).toThrow(
      'option "authorizeRoom" must be a function',
    );
  });
});

describe('WebSocketPlugin: one user’s messages in flight', () => {
  it('refuses a user past maxInFlightPerUser over all their connections with WEFT_WS_TOO_MANY_TASKS, and takes them again once tasks end [claim:wsdoc-per-user] [claim:prod-chat-caps] [claim:wsreadme-per-user-default] [claim:wsreadme-error-codes] [claim:tsdoc-chat-per-user]', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    booted = await boot(
      { trustClientUser: false, authenticate: byToken, maxInFlight: 4, maxInFlightPerUser: 2 },
      async (messages, request) => {
        if (request.purpose === 'plan' || request.purpose === 'review') {
          return echoModel(messages, request);
        }
        await gate;
        return 'done';
      },
    );
    const first = await open(`${booted.url}?token=t-ada`);
    const second = await open(`${booted.url}?token=t-ada`);
    const eve = await open(`${booted.url}?token=t-eve`);
    first.send({ type: 'message', id: 'a', room: 'r1', user: 'ada', message: 'one' });
    first.send({ type: 'message', id: 'b', room: 'r2', user: 'ada', message: 'two' });
    expect((await first.next()).type).toBe('accepted');
    expect((await first.next()).type).toBe('accepted');
    second.send({ type: 'message', id: 'c', room: 'r3', user: 'ada', message: 'three' });
    expect(await second.next()).toMatchObject({
      type: 'error',
      id: 'c',
      code: 'WEFT_WS_TOO_MANY_TASKS',
      docsUrl: expect.stringContaining('#weft_ws_too_many_tasks'),
    });
    // Another user is not held back by ada's count.
    eve.send({ type: 'message', id: 'e', room: 'r1', user: 'eve', message: 'hi' });
    expect(await eve.next()).toMatchObject({ type: 'accepted', id: 'e' });
    release();
    expect((await first.next()).type).toBe('reply');
    expect((await first.next()).type).toBe('reply');
    await expect.poll(() => booted!.plugin.access.inFlightOf('ada'), { timeout: 5_000 }).toBe(0);
    expect(await say(second, 'c', 'r3', 'ada', 'three')).toMatchObject({
      type: 'reply',
      reply: 'done',
    });
  });
});

describe('WebSocketPlugin: one user’s connections', () => {
  it('refuses a user past maxConnectionsPerUser with 503 while other users still connect, and takes them again once one closes [claim:ws-doc-connections-per-user] [claim:wsreadme-order] [claim:wsreadme-connections-per-user] [claim:errors-503-ws-per-user] [claim:obs-ws-per-user-line]', async () => {
    booted = await boot({ authenticate: byToken, maxConnectionsPerUser: 2, maxConnections: 10 });
    const first = await open(`${booted.url}?token=t-eve`);
    await open(`${booted.url}?token=t-eve`);
    const refused = await refusedUpgrade(`${booted.url}?token=t-eve`);
    expect(refused.status).toBe(503);
    expect(refused.body.error).toMatchObject({ code: 'WEFT_WS_TOO_MANY_CONNECTIONS' });
    expect(String(refused.body.error.message)).toContain('of this user (at most 2)');
    expect(
      booted.logs.find(
        (line) =>
          line.msg ===
          'websocket: upgrade refused: the user holds maxConnectionsPerUser connections',
      ),
    ).toMatchObject({ level: 30, limit: 2 });
    const ada = await open(`${booted.url}?token=t-ada`);
    expect(await say(ada, '1', 'room-x', 'ada', 'hello')).toMatchObject({ type: 'reply' });
    const closed = new Promise<void>((resolve) => first.socket.once('close', () => resolve()));
    first.socket.close();
    await closed;
    // The server sees the close a moment after the client; ask again until then, with a deadline.
    const deadline = Date.now() + 3_000;
    let again: Client | undefined;
    while (again === undefined && Date.now() < deadline) {
      again = await open(`${booted.url}?token=t-eve`).catch(() => undefined);
      if (again === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(again).toBeDefined();
    expect(booted.plugin.connectionCount).toBe(3);
  });
});

describe('WebSocketPlugin: a timed-out message’s user slot', () => {
  it('holds a user’s slot until the task ends, after taskTimeoutMs has freed the connection’s [claim:wsdoc-per-user-held] [claim:wsreadme-task-timeout-slot]', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    booted = await boot(
      {
        trustClientUser: false,
        authenticate: byToken,
        taskTimeoutMs: 200,
        maxInFlight: 1,
        maxInFlightPerUser: 1,
      },
      async (messages, request) => {
        if (request.purpose === 'plan' || request.purpose === 'review') {
          return echoModel(messages, request);
        }
        await gate;
        return 'late';
      },
      { taskTimeoutMs: 10_000 },
    );
    const ada = await open(`${booted.url}?token=t-ada`);
    ada.send({ type: 'message', id: 'a', room: 'r1', user: 'ada', message: 'one' });
    expect(await ada.next()).toMatchObject({ type: 'accepted', id: 'a' });
    expect(await ada.next()).toMatchObject({
      type: 'error',
      id: 'a',
      code: 'WEFT_WS_TASK_TIMEOUT',
    });
    // The connection's slot is free again, but the task still runs: the user's is not.
    ada.send({ type: 'message', id: 'b', room: 'r2', user: 'ada', message: 'two' });
    expect(await ada.next()).toMatchObject({
      type: 'error',
      id: 'b',
      code: 'WEFT_WS_TOO_MANY_TASKS',
      message: expect.stringMatching(/of this user/),
    });
    release();
    await expect.poll(() => booted!.plugin.access.inFlightOf('ada'), { timeout: 5_000 }).toBe(0);
    expect(await say(ada, 'c', 'r2', 'ada', 'two')).toMatchObject({ type: 'reply', reply: 'late' });
  });
});
