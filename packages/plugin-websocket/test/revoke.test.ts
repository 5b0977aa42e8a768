/**
 * Revoking a user's access: `closeConnectionsOf` ends every open connection of that user, and
 * nothing their clients send afterwards speaks for them.
 */
import { describe, expect, it, vi } from 'vitest';
import type { AgentTask, TriggerEvent } from '@weft/core';
import type { ScriptedResponse } from '@weft/testing';
import {
  IDLE_CLOSE,
  REVOKED_CLOSE,
  SHUTDOWN_CLOSE,
  type WebSocketPluginOptions,
} from '../src/index.js';
import {
  byToken,
  echoModel,
  perTest,
  refusedUpgrade,
  TOKENS,
  type Booted,
  type Client,
} from './support.js';

const { boot, open } = perTest();

/** Boots the plugin with token authentication and records every task the runtime accepts. */
async function bootRecording(
  options: WebSocketPluginOptions = {},
  model: ScriptedResponse = echoModel,
): Promise<{
  booted: Booted;
  accepted: TriggerEvent[];
  done: Promise<AgentTask>[];
  as: (user: string) => Promise<Client>;
}> {
  const booted = await boot({ trustClientUser: false, authenticate: byToken, ...options }, model);
  const accepted: TriggerEvent[] = [];
  const done: Promise<AgentTask>[] = [];
  const accept = booted.runtime.accept.bind(booted.runtime);
  vi.spyOn(booted.runtime, 'accept').mockImplementation(async (event) => {
    accepted.push(event);
    const result = await accept(event);
    done.push(result.done);
    return result;
  });
  const as = (user: string) => open(`${booted.url}?token=t-${user}`);
  return { booted, accepted, done, as };
}

const message = (id: string, text: string) => ({
  type: 'message',
  id,
  room: 'r1',
  // Ignored: the user is the one authenticate named for the connection.
  user: 'someone',
  message: text,
});

/** Sends one message and returns its reply frame. */
async function say(client: Client, id: string, text: string) {
  client.send(message(id, text));
  expect(await client.next()).toMatchObject({ type: 'accepted', id });
  return client.next();
}

const usersOf = (events: TriggerEvent[]) =>
  events.map((event) => (event.data as { user?: string } | undefined)?.user);

describe('WebSocketPlugin.closeConnectionsOf', () => {
  it("closes every connection of the user with 4001 and the reason, returns how many, and leaves other users' connections answering [claim:wsdoc-revoke] [claim:wsreadme-revoke] [claim:prod-ws-revoke] [claim:tsdoc-ws-close-connections-of] [claim:tsdoc-ws-revoked-close]", async () => {
    const { booted, as } = await bootRecording();
    const [phone, laptop, eve] = [await as('ada'), await as('ada'), await as('eve')];
    expect(REVOKED_CLOSE.code).toBeGreaterThanOrEqual(4000);
    expect(REVOKED_CLOSE.code).toBeLessThan(5000);
    expect(REVOKED_CLOSE.code).not.toBe(IDLE_CLOSE.code);
    expect(REVOKED_CLOSE.code).not.toBe(SHUTDOWN_CLOSE.code);

    expect(booted.plugin.closeConnectionsOf('ada', 'signed out')).toBe(2);

    for (const client of [phone, laptop]) {
      expect(await client.closed).toEqual({ code: REVOKED_CLOSE.code, reason: 'signed out' });
    }
    await expect.poll(() => booted.plugin.connectionCount, { timeout: 3_000 }).toBe(1);
    expect(await say(eve, '1', 'still here?')).toMatchObject({
      type: 'reply',
      id: '1',
      reply: 'echo: still here?',
    });
    // Nothing is left to close, for her or for a user who never connected.
    expect(booted.plugin.closeConnectionsOf('ada')).toBe(0);
    expect(booted.plugin.closeConnectionsOf('nobody')).toBe(0);
  });

  it('does not count a connection that was closing already, which keeps the close code it was sent [claim:wsdoc-revoke] [claim:wsreadme-revoke]', async () => {
    const { booted, as } = await bootRecording();
    const ada = await as('ada');
    // The plugin's close sends every client 1001 at once and then waits for their answers.
    const closing = booted.plugin.close();
    expect(booted.plugin.connectionCount).toBe(1);
    expect(booted.plugin.closeConnectionsOf('ada')).toBe(0);
    expect((await ada.closed).code).toBe(SHUTDOWN_CLOSE.code);
    await closing;
  });

  it('leaves open a connection admitted through trustClientUser, whose frames name the user [claim:wsdoc-revoke-trusted]', async () => {
    const { booted } = await bootRecording({ trustClientUser: true, authenticate: () => true });
    const trusted = await open(booted.url);
    trusted.send({ ...message('1', 'as ada'), user: 'ada' });
    expect(await trusted.next()).toMatchObject({ type: 'accepted', id: '1' });
    expect(await trusted.next()).toMatchObject({ type: 'reply', id: '1' });
    expect(booted.plugin.closeConnectionsOf('ada')).toBe(0);
    const again = { ...message('2', 'still ada'), user: 'ada' };
    trusted.send(again);
    expect(await trusted.next()).toMatchObject({ type: 'accepted', id: '2' });
    expect(await trusted.next()).toMatchObject({ type: 'reply', id: '2' });
    expect(trusted.socket.readyState).toBe(trusted.socket.OPEN);
  });

  it('sends the default reason, and cuts a long one to the 123 bytes websocket allows [claim:wsreadme-revoke-reason]', async () => {
    const { booted, as } = await bootRecording();
    const ada = await as('ada');
    const eve = await as('eve');
    booted.plugin.closeConnectionsOf('ada');
    expect(await ada.closed).toEqual({ code: REVOKED_CLOSE.code, reason: 'access revoked' });
    booted.plugin.closeConnectionsOf('eve', 'é'.repeat(100));
    const closed = await eve.closed;
    expect(closed.code).toBe(REVOKED_CLOSE.code);
    expect(closed.reason).toBe('é'.repeat(61));
  });

  it('turns no frame the client sends after the call into a task [claim:wsdoc-revoke-frames] [claim:wsreadme-revoke]', async () => {
    const { booted, accepted, as } = await bootRecording();
    const ada = await as('ada');
    const eve = await as('eve');
    expect(await say(ada, '1', 'before')).toMatchObject({ type: 'reply', id: '1' });
    expect(booted.plugin.closeConnectionsOf('ada')).toBe(1);
    // Sent in the same turn, before the client can have read the close frame: the server still
    // receives it.
    expect(ada.socket.readyState).toBe(ada.socket.OPEN);
    ada.send(message('2', 'after the revocation'));
    expect((await ada.closed).code).toBe(REVOKED_CLOSE.code);
    // The client answered the close frame after its message, so the server has read that
    // message by the time the connection is gone; a later exchange of another user gives a
    // task made of it the time to appear.
    await expect.poll(() => booted.plugin.connectionCount, { timeout: 3_000 }).toBe(1);
    await say(eve, '3', 'and me?');
    expect(usersOf(accepted)).toEqual(['ada', 'eve']);
    expect(JSON.stringify(accepted)).not.toContain('after the revocation');
  });

  it('turns no frame into a task whose room check was still running at the call [claim:wsdoc-revoke-frames]', async () => {
    let allow: (yes: boolean) => void = () => undefined;
    const asked: string[] = [];
    const { booted, accepted, as } = await bootRecording({
      authorizeRoom: ({ user }) => {
        asked.push(user);
        return new Promise<boolean>((resolve) => (allow = resolve));
      },
    });
    const ada = await as('ada');
    ada.send(message('1', 'checked slowly'));
    await expect.poll(() => asked, { timeout: 3_000 }).toEqual(['ada']);
    expect(booted.plugin.closeConnectionsOf('ada')).toBe(1);
    allow(true);
    expect((await ada.closed).code).toBe(REVOKED_CLOSE.code);
    // Ada's room check was answered first, so by the time eve's message is accepted, ada's has
    // had its turn to become a task.
    const eve = await as('eve');
    eve.send(message('2', 'mine'));
    await expect.poll(() => asked, { timeout: 3_000 }).toEqual(['ada', 'eve']);
    allow(true);
    expect(await eve.next()).toMatchObject({ type: 'accepted', id: '2' });
    expect(usersOf(accepted)).toEqual(['eve']);
  });

  it("refuses with 401 an upgrade of the user whose authenticate was still running at the call, and lets other users' through [claim:wsreadme-revoke-pending] [claim:wsdoc-revoke-pending] [claim:tsdoc-ws-close-connections-of] [claim:errors-401-cause]", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const seen: string[] = [];
    const { booted, as } = await bootRecording({
      // The slow tokens stand for a session store that read the session before it was revoked.
      authenticate: async (request) => {
        const token = new URL(request.url ?? '/', 'http://localhost').searchParams.get('token');
        seen.push(token ?? '');
        if (token === 't-slow-ada' || token === 't-slow-eve') {
          await held;
          return { user: token === 't-slow-ada' ? 'ada' : 'eve' };
        }
        const user = token === null ? undefined : TOKENS.get(token);
        return user === undefined ? false : { user };
      },
    });
    const adaRefused = refusedUpgrade(`${booted.url}?token=t-slow-ada`);
    const eveOpened = open(`${booted.url}?token=t-slow-eve`);
    await expect
      .poll(() => [...seen].sort(), { timeout: 3_000 })
      .toEqual(['t-slow-ada', 't-slow-eve']);

    expect(booted.plugin.closeConnectionsOf('ada')).toBe(0);
    release();

    const refused = await adaRefused;
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 'WEFT_WS_UNAUTHORIZED' });
    const eve = await eveOpened;
    expect(await say(eve, '1', 'still here?')).toMatchObject({ type: 'reply', id: '1' });
    expect(booted.plugin.connectionCount).toBe(1);
    // The call ends what was open or opening then; ada may sign in again afterwards.
    const again = await as('ada');
    expect(await say(again, '2', 'back')).toMatchObject({ type: 'reply', id: '2' });
  });

  it('lets a running task of the user finish without sending its reply [claim:wsdoc-revoke-frames] [claim:wsreadme-revoke]', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { booted, accepted, done, as } = await bootRecording({}, async (messages, request) => {
      if (request.purpose === 'plan' || request.purpose === 'review')
        return echoModel(messages, request);
      await gate;
      return 'too late';
    });
    const ada = await as('ada');
    ada.send(message('1', 'slow one'));
    expect(await ada.next()).toMatchObject({ type: 'accepted', id: '1' });
    booted.plugin.closeConnectionsOf('ada');
    expect((await ada.closed).code).toBe(REVOKED_CLOSE.code);
    release();
    expect((await done[0]!).status).toBe('completed');
    expect(usersOf(accepted)).toEqual(['ada']);
    await expect(ada.next(200)).rejects.toThrow('no frame');
  });

  it('cuts a client that never answers the close frame after closeTimeoutMs [claim:wsreadme-revoke]', async () => {
    // Longer than the default 1000 ms, so that a cut at the default shows, and with margins a
    // loaded machine's late timers cannot cross.
    const { booted, as } = await bootRecording({ closeTimeoutMs: 2_000 });
    const deaf = await as('ada');
    deaf.socket.pause(); // It never reads the close frame, so never answers it.
    const started = Date.now();
    expect(booted.plugin.closeConnectionsOf('ada')).toBe(1);
    // Held for closeTimeoutMs, then cut: not at once, not at the default 1000 ms, and not after
    // the 30 s ws would wait on its own.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(booted.plugin.connectionCount).toBe(1);
    await expect
      .poll(() => booted.plugin.connectionCount, { timeout: 5_000, interval: 20 })
      .toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_950);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('WebSocketPlugin reauthenticateMs', () => {
  /** Tokens the test revokes while clients are connected, each mapped to a user or a failure. */
  function sessions(): {
    tokens: Map<string, string | 'throw' | 'hang' | 'none'>;
    seen: string[];
    authenticate: NonNullable<WebSocketPluginOptions['authenticate']>;
  } {
    const tokens = new Map<string, string | 'throw' | 'hang' | 'none'>([...TOKENS]);
    const seen: string[] = [];
    return {
      tokens,
      seen,
      authenticate: (request) => {
        const token = new URL(request.url ?? '/', 'http://localhost').searchParams.get('token');
        seen.push(token ?? '');
        const user = token === null ? undefined : tokens.get(token);
        if (user === 'throw') throw new Error('session store down');
        if (user === 'hang') return new Promise<boolean>(() => undefined);
        // Admitted, but as no one.
        if (user === 'none') return true;
        return user === undefined ? false : { user };
      },
    };
  }

  it('runs authenticate again on the first request and closes with 4001 a connection whose token was revoked, leaving the others [claim:wsreadme-reauth-option] [claim:wsdoc-reauthenticate] [claim:wsreadme-reauthenticate] [claim:tsdoc-ws-options-reauthenticate] [claim:tsdoc-chat-authenticate-when] [claim:prod-ws-revoke] [claim:httpchat-options-same]', async () => {
    const { tokens, seen, authenticate } = sessions();
    const { booted, as } = await bootRecording({ authenticate, reauthenticateMs: 100 });
    const ada = await as('ada');
    const eve = await as('eve');
    await expect.poll(() => seen.length, { timeout: 3_000 }).toBeGreaterThanOrEqual(4);
    expect(new Set(seen)).toEqual(new Set(['t-ada', 't-eve']));
    expect(booted.plugin.connectionCount).toBe(2);
    tokens.delete('t-ada');
    expect(await ada.closed).toEqual({ code: REVOKED_CLOSE.code, reason: REVOKED_CLOSE.reason });
    expect(await say(eve, '1', 'still here?')).toMatchObject({ type: 'reply', id: '1' });
    await expect.poll(() => booted.plugin.connectionCount, { timeout: 3_000 }).toBe(1);
  });

  it.each([
    ['throws', 'throw'],
    ['hangs past authTimeoutMs', 'hang'],
    ['names another user', 'eve'],
    ['names no user', 'none'],
  ])(
    'closes the connection with 4001 when the hook now %s [claim:wsdoc-reauthenticate] [claim:wsreadme-reauthenticate]',
    async (_what, now) => {
      const { tokens, authenticate } = sessions();
      const { as } = await bootRecording({
        authenticate,
        reauthenticateMs: 100,
        authTimeoutMs: 200,
      });
      const ada = await as('ada');
      tokens.set('t-ada', now);
      const started = Date.now();
      expect((await ada.closed).code).toBe(REVOKED_CLOSE.code);
      expect(Date.now() - started).toBeLessThan(2_000);
    },
  );

  it.each([
    ['throws', 'throw', 'chat: authenticate threw; refused'],
    ['hangs past authTimeoutMs', 'hang', 'chat: authenticate did not answer in time; refused'],
  ])(
    'logs a recheck whose hook %s with its chat: line, then as no longer admitting the connection, not as a failed check [claim:obs-ws-recheck-hook-fails]',
    async (_what, now, hookLine) => {
      const { tokens, authenticate } = sessions();
      const { booted, as } = await bootRecording({
        authenticate,
        reauthenticateMs: 100,
        authTimeoutMs: 200,
      });
      const ada = await as('ada');
      tokens.set('t-ada', now);
      expect((await ada.closed).code).toBe(REVOKED_CLOSE.code);
      const messages = booted.logs.map((line) => line.msg);
      const hook = messages.indexOf(hookLine);
      const closed = messages.indexOf(
        'websocket: authenticate no longer admits the connection; closed',
      );
      expect(hook).toBeGreaterThanOrEqual(0);
      expect(closed).toBeGreaterThan(hook);
      expect(messages).not.toContain('websocket: checking the connection again failed; closed');
    },
  );

  it('keeps a connection the hook first admitted as no one (trustClientUser) while it still names no one, and closes it with 4001 once it names a user [claim:wsreadme-reauthenticate] [claim:wsdoc-reauthenticate]', async () => {
    const { tokens, seen, authenticate } = sessions();
    tokens.set('t-kiosk', 'none');
    const { booted } = await bootRecording({
      authenticate,
      trustClientUser: true,
      reauthenticateMs: 100,
    });
    const kiosk = await open(`${booted.url}?token=t-kiosk`);
    await expect.poll(() => seen.length, { timeout: 3_000 }).toBeGreaterThanOrEqual(4);
    // Still admitted as no one: the same answer as at the upgrade.
    expect(booted.plugin.connectionCount).toBe(1);
    expect(await say(kiosk, '1', 'still here?')).toMatchObject({ type: 'reply', id: '1' });
    tokens.set('t-kiosk', 'ada');
    expect((await kiosk.closed).code).toBe(REVOKED_CLOSE.code);
  });
});
