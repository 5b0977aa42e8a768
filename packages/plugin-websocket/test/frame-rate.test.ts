import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect as connectTcp } from 'node:net';
import type { Runtime, TriggerEvent } from '@weft/core';
import { describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { FLOOD_CLOSE, type ServerFrame } from '../src/index.js';
import { byToken, echoModel, perTest, standInConnection, type StandInSocket } from './support.js';

const { boot, open } = perTest();

describe('frame rate', () => {
  it('answers the frames of a second up to maxFramesPerSecond, then closes a flooding connection with 1008 and logs it [claim:wsdoc-frame-rate] [claim:wsreadme-max-frames] [claim:tsdoc-ws-max-frames-per-second] [claim:tsdoc-ws-flood-close] [claim:obs-ws-too-many-frames]', async () => {
    const booted = await boot({ maxFramesPerSecond: 5 });
    const client = await open(booted.url);
    for (let index = 0; index < 300; index += 1) client.send('not json');
    // The five frames of the window are each answered, and then the connection ends.
    for (let index = 0; index < 5; index += 1) {
      expect(await client.next()).toMatchObject({
        type: 'error',
        id: null,
        code: 'WEFT_WS_INVALID_FRAME',
      });
    }
    expect(await client.closed).toEqual({ code: FLOOD_CLOSE.code, reason: FLOOD_CLOSE.reason });
    expect(FLOOD_CLOSE.code).toBe(1008);
    const lines = booted.logs.filter(
      (line) => line.msg === 'websocket: too many frames; connection closed',
    );
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, limit: 5, connectionId: expect.any(String) }),
    ]);
    // authenticate named no user (the frames may name theirs): the line has none.
    expect(lines[0]).not.toHaveProperty('user');
  });

  it('names in the flood line the user authenticate named for the connection [claim:obs-ws-too-many-frames]', async () => {
    const booted = await boot({ maxFramesPerSecond: 3, authenticate: byToken });
    const client = await open(`${booted.url}?token=t-ada`);
    for (let index = 0; index < 50; index += 1) client.send('not json');
    expect((await client.closed).code).toBe(1008);
    const lines = booted.logs.filter(
      (line) => line.msg === 'websocket: too many frames; connection closed',
    );
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        limit: 3,
        user: 'ada',
        connectionId: expect.any(String),
      }),
    ]);
  });

  it('keeps a connection that sends at most maxFramesPerSecond frames in each second', async () => {
    const booted = await boot({ maxFramesPerSecond: 5 });
    const client = await open(booted.url);
    for (let second = 0; second < 2; second += 1) {
      for (let index = 0; index < 5; index += 1) client.send('not json');
      for (let index = 0; index < 5; index += 1) {
        expect(await client.next()).toMatchObject({ type: 'error', code: 'WEFT_WS_INVALID_FRAME' });
      }
      await new Promise((resolve) => setTimeout(resolve, 1_050));
    }
    expect(booted.plugin.connectionCount).toBe(1);
  });

  it('counts the frames of any one second, not of fixed windows, so a burst across two seconds is closed too [claim:wsdoc-frame-rate] [claim:wsreadme-max-frames] [claim:tsdoc-ws-max-frames-per-second]', async () => {
    const booted = await boot({ maxFramesPerSecond: 5 });
    const client = await open(booted.url);
    const answered = async (count: number): Promise<void> => {
      for (let index = 0; index < count; index += 1) {
        expect(await client.next()).toMatchObject({ type: 'error', code: 'WEFT_WS_INVALID_FRAME' });
      }
    };
    // One frame, then four near the end of its second and five just after it: nine within one
    // second, though no second counted from the first frame holds more than five.
    client.send('not json');
    await answered(1);
    await new Promise((resolve) => setTimeout(resolve, 950));
    for (let index = 0; index < 4; index += 1) client.send('not json');
    await answered(4);
    await new Promise((resolve) => setTimeout(resolve, 150));
    for (let index = 0; index < 5; index += 1) client.send('not json');
    // The first of them makes five in the last second; the second, six.
    await answered(1);
    expect(await client.closed).toEqual({ code: FLOOD_CLOSE.code, reason: FLOOD_CLOSE.reason });
  });

  it('closes on a frame less than a whole second after the frame maxFramesPerSecond before it, and not on one a whole second after [claim:wsdoc-frame-rate] [claim:wsreadme-max-frames] [claim:tsdoc-ws-max-frames-per-second]', () => {
    // The clock is the test's, so the figures are exact however loaded the machine is.
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
    const sockets: StandInSocket[] = [];
    const connection = (): StandInSocket => {
      const socket = standInConnection({ maxFramesPerSecond: 3 });
      sockets.push(socket);
      return socket;
    };
    const frameAt = (socket: StandInSocket, at: number): void => {
      now = at;
      socket.emit('message', Buffer.from('not json'), false);
    };
    try {
      // Three frames spread over most of a second, then a fourth 999 ms after the first.
      const flooding = connection();
      for (const at of [0, 400, 800]) frameAt(flooding, at);
      expect(flooding.closes).toEqual([]);
      frameAt(flooding, 999);
      expect(flooding.closes).toEqual([FLOOD_CLOSE.code]);
      expect(flooding.sent).toHaveLength(3);
      // The same, but the fourth comes a whole second after the first: it is answered.
      const steady = connection();
      for (const at of [0, 400, 800, 1_000]) frameAt(steady, at);
      expect(steady.closes).toEqual([]);
      expect(steady.sent).toHaveLength(4);
    } finally {
      clock.mockRestore();
      // Clears the connections' idle timers.
      for (const socket of sockets) socket.emit('close');
    }
  });

  it('allows 20 frames a second unless set [claim:prod-ws-frame-rate] [claim:wsdoc-frame-rate]', async () => {
    const booted = await boot();
    const client = await open(booted.url);
    for (let index = 0; index < 21; index += 1) client.send('not json');
    for (let index = 0; index < 20; index += 1) {
      expect(await client.next()).toMatchObject({ type: 'error', code: 'WEFT_WS_INVALID_FRAME' });
    }
    expect((await client.closed).code).toBe(1008);
  });

  it('runs on, without sending its reply, the task of a message already queued when a flood closes the connection [claim:wsdoc-frame-rate-pending] [claim:wsreadme-max-frames-pending]', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let replyWritten = false;
    const booted = await boot({ maxFramesPerSecond: 3 }, async (messages, request) => {
      if (request.purpose === 'plan' || request.purpose === 'review')
        return echoModel(messages, request);
      await gate;
      replyWritten = true;
      return 'too late';
    });
    const client = await open(booted.url);
    const received: ServerFrame[] = [];
    client.socket.on('message', (data) => received.push(JSON.parse(String(data)) as ServerFrame));
    client.send({ type: 'message', id: 'm1', room: 'lobby', user: 'ada', message: 'Hello!' });
    await expect.poll(() => received.map((frame) => frame.type)).toEqual(['accepted']);
    // Frames 2 and 3 of the second are answered; the fourth closes the connection.
    for (let index = 0; index < 3; index += 1) client.send('not json');
    expect(await client.closed).toEqual({ code: FLOOD_CLOSE.code, reason: FLOOD_CLOSE.reason });
    release();
    await expect.poll(() => replyWritten, { timeout: 3_000 }).toBe(true);
    expect(received.map((frame) => frame.type)).toEqual(['accepted', 'error', 'error']);
  });

  it('queues no task for a message whose room check was still running when a flood closed the connection [claim:wsdoc-frame-rate-pending] [claim:wsreadme-max-frames-pending]', async () => {
    let allow: (yes: boolean) => void = () => undefined;
    const asked: string[] = [];
    const booted = await boot({
      maxFramesPerSecond: 2,
      authorizeRoom: ({ user }) => {
        asked.push(user);
        return new Promise<boolean>((resolve) => (allow = resolve));
      },
    });
    const accepted: TriggerEvent[] = [];
    const accept = booted.runtime.accept.bind(booted.runtime);
    vi.spyOn(booted.runtime, 'accept').mockImplementation(async (event) => {
      accepted.push(event);
      return accept(event);
    });
    const client = await open(booted.url);
    client.send({ type: 'message', id: 'm1', room: 'lobby', user: 'ada', message: 'Hello!' });
    await expect.poll(() => asked, { timeout: 3_000 }).toEqual(['ada']);
    client.send('not json');
    client.send('not json');
    expect((await client.closed).code).toBe(FLOOD_CLOSE.code);
    allow(true);
    // Eve's message is checked after ada's was answered, so ada's has had its turn to be queued.
    const eve = await open(booted.url);
    eve.send({ type: 'message', id: 'e1', room: 'lobby', user: 'eve', message: 'Hi' });
    await expect.poll(() => asked, { timeout: 3_000 }).toEqual(['ada', 'eve']);
    allow(true);
    expect(await eve.next()).toMatchObject({ type: 'accepted', id: 'e1' });
    expect(accepted.map((event) => (event.data as { user?: string }).user)).toEqual(['eve']);
  });

  it('runs on, without sending its reply, the task of a message the runtime was still taking (as a coordinator records it) when a flood closed the connection [claim:wsdoc-frame-rate-pending] [claim:wsreadme-max-frames-pending]', async () => {
    let admit: () => void = () => undefined;
    const booted = await boot({ maxFramesPerSecond: 3 });
    const accept = booted.runtime.accept.bind(booted.runtime);
    const tasks: Promise<{ status: string }>[] = [];
    // The runtime takes the message only once released, as it does while a coordinator records it.
    vi.spyOn(booted.runtime, 'accept').mockImplementation(async (event) => {
      await new Promise<void>((resolve) => (admit = resolve));
      const accepted = await accept(event);
      tasks.push(accepted.done);
      return accepted;
    });
    const client = await open(booted.url);
    const received: ServerFrame[] = [];
    client.socket.on('message', (data) => received.push(JSON.parse(String(data)) as ServerFrame));
    client.send({ type: 'message', id: 'm1', room: 'lobby', user: 'ada', message: 'Hello!' });
    await expect.poll(() => vi.mocked(booted.runtime.accept).mock.calls.length).toBe(1);
    for (let index = 0; index < 3; index += 1) client.send('not json');
    expect((await client.closed).code).toBe(FLOOD_CLOSE.code);
    admit();
    await expect.poll(() => tasks.length, { timeout: 3_000 }).toBe(1);
    expect(await tasks[0]).toMatchObject({ status: 'completed' });
    expect(received.map((frame) => frame.type)).toEqual(['error', 'error']);
  });

  it('counts a message sent in fragments once, and pings and pongs not at all [claim:wsdoc-frame-rate-counting] [claim:wsreadme-max-frames-counting]', async () => {
    const booted = await boot({ maxFramesPerSecond: 2 });
    const client = await open(booted.url);
    for (let index = 0; index < 10; index += 1) {
      client.socket.ping();
      client.socket.pong();
    }
    const parts = ['not', ' ', 'json', '!'];
    parts.forEach((part, index) => client.socket.send(part, { fin: index === parts.length - 1 }));
    expect(await client.next()).toMatchObject({ type: 'error', code: 'WEFT_WS_INVALID_FRAME' });
    client.send('not json');
    expect(await client.next()).toMatchObject({ type: 'error', code: 'WEFT_WS_INVALID_FRAME' });
    expect(booted.plugin.connectionCount).toBe(1);
    // The third message of the second is one past the limit.
    client.send('not json');
    expect((await client.closed).code).toBe(FLOOD_CLOSE.code);
  });

  it('answers each of the pings a client sends within a second with a pong, past maxFramesPerSecond, and keeps the connection [claim:wsdoc-frame-rate-pings]', async () => {
    const booted = await boot({ maxFramesPerSecond: 2 });
    const client = await open(booted.url);
    const pongs: string[] = [];
    client.socket.on('pong', (data: Buffer) => pongs.push(data.toString('utf8')));
    const sent = Array.from({ length: 40 }, (_, index) => `ping ${index}`);
    for (const data of sent) client.socket.ping(data);
    await vi.waitFor(() => expect(pongs).toHaveLength(sent.length), { timeout: 900 });
    expect(pongs).toEqual(sent);
    expect(booted.plugin.connectionCount).toBe(1);
    client.send('not json');
    expect(await client.next()).toMatchObject({ type: 'error', code: 'WEFT_WS_INVALID_FRAME' });
  });

  it('answers at most 60 pings waiting for their pongs: ws cuts a client one past that, without a close frame [claim:wsdoc-frame-rate-pings] [claim:wsreadme-ping-burst]', async () => {
    const booted = await boot();
    // A raw client, so that each burst arrives in one write and ws reads it in one go.
    async function burstOfPings(count: number) {
      const url = new URL(booted.url);
      const socket = connectTcp(Number(url.port), url.hostname);
      await once(socket, 'connect');
      socket.write(
        'GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
      const [head] = (await once(socket, 'data')) as [Buffer];
      expect(head.toString('latin1')).toMatch(/^HTTP\/1\.1 101 /);
      let received = 0;
      socket.on('data', (data: Buffer) => {
        received += data.length;
      });
      const closed = once(socket, 'close');
      // A masked ping with 4 bytes of data, answered by a 6-byte pong.
      const mask = randomBytes(4);
      const ping = Buffer.concat([
        Buffer.from([0x89, 0x84]),
        mask,
        Buffer.from([1, 2, 3, 4].map((byte, index) => byte ^ mask[index]!)),
      ]);
      socket.write(Buffer.concat(Array.from({ length: count }, () => ping)));
      return { socket, closed, received: () => received };
    }
    const kept = await burstOfPings(60);
    await vi.waitFor(() => expect(kept.received()).toBe(60 * 6));
    expect(booted.plugin.connectionCount).toBe(1);
    kept.socket.destroy();
    await kept.closed;
    const cut = await burstOfPings(61);
    await cut.closed;
    // 60 pongs and nothing else: no 61st pong and no close frame.
    expect(cut.received()).toBe(60 * 6);
    await vi.waitFor(() => expect(booted.plugin.connectionCount).toBe(0));
  });

  it('logs a flood on a connection already closing, which keeps the code it was sent [claim:obs-ws-too-many-frames]', () => {
    // A stand-in socket that the plugin's shutdown or an idle close has begun closing: ws still
    // hands on the frames the client sent before it saw the close frame.
    const lines: { fields: unknown; message: string }[] = [];
    const logger = {
      info() {},
      error() {},
      warn(fields: unknown, message: string) {
        lines.push({ fields, message });
      },
    } as unknown as Runtime['logger'];
    const socket = standInConnection(
      { maxFramesPerSecond: 3 },
      { logger, identity: { user: 'ada' } },
    );
    socket.readyState = WebSocket.CLOSING;
    try {
      for (let index = 0; index < 6; index += 1) socket.emit('message', Buffer.from('x'), false);
      expect(lines).toEqual([
        {
          fields: expect.objectContaining({ user: 'ada', limit: 3 }),
          message: 'websocket: too many frames; connection closed',
        },
      ]);
      expect(socket.closes).toEqual([]);
    } finally {
      // Clears the connection's idle timer.
      socket.emit('close');
    }
  });
});
