/**
 * The backlog rule of a connection, driven through a stand-in socket whose `bufferedAmount` the
 * test sets: a frame due is sent while at most `maxBufferedBytes` still wait, however large the
 * frame before it was, and drops the client only past that.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Runtime } from '@weft/core';
import { ChatAccess } from '@weft/plugin-chat';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ChatConnection } from '../src/connection.js';
import { invalid, resolveOptions } from '../src/options.js';

/** A socket as the connection uses it: what it sent, whether it was cut, and its backlog. */
class StandInSocket extends EventEmitter {
  readyState: number = WebSocket.OPEN;
  bufferedAmount = 0;
  readonly sent: string[] = [];
  terminated = false;
  send(text: string): void {
    this.sent.push(text);
  }
  terminate(): void {
    this.terminated = true;
  }
  close(): void {}
  ping(): void {}
}

const quiet = { info() {}, warn() {}, error() {} } as unknown as Runtime['logger'];
let socket: StandInSocket | undefined;

afterEach(() => {
  // Clears the connection's idle timer.
  socket?.emit('close');
  socket = undefined;
});

function connection(maxBufferedBytes: number): StandInSocket {
  const options = resolveOptions({ maxBufferedBytes });
  socket = new StandInSocket();
  new ChatConnection(
    socket as unknown as WebSocket,
    {
      pluginId: 'websocket',
      options,
      access: new ChatAccess(options, invalid),
      runtime: { logger: quiet } as Runtime,
      accepting: () => true,
    },
    {},
    {} as IncomingMessage,
  );
  return socket;
}

describe('the backlog rule', () => {
  it('sends a frame due while the unsent rest of an earlier one is at most maxBufferedBytes, and drops the client past it [claim:wsdoc-backpressure-next-frame] [claim:wsdoc-backpressure] [claim:wsreadme-buffered]', () => {
    const peer = connection(1_000);
    // What is left of a reply far larger than the cap, now down to the cap itself.
    peer.bufferedAmount = 1_000;
    peer.emit('message', Buffer.from('not json'), false);
    expect(peer.terminated).toBe(false);
    expect(JSON.parse(peer.sent[0] as string)).toMatchObject({ code: 'WEFT_WS_INVALID_FRAME' });
    // One byte more still waiting: the next frame due drops the client instead.
    peer.bufferedAmount = 1_001;
    peer.emit('message', Buffer.from('not json'), false);
    expect(peer.terminated).toBe(true);
    expect(peer.sent).toHaveLength(1);
  });
});
