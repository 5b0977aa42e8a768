/**
 * The backlog rule of a connection, driven through a stand-in socket whose `bufferedAmount` the
 * test sets: a frame due is sent while at most `maxBufferedBytes` still wait, however large the
 * frame before it was, and drops the client only past that.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { standInConnection, type StandInSocket } from './support.js';

let socket: StandInSocket | undefined;

afterEach(() => {
  // Clears the connection's idle timer.
  socket?.emit('close');
  socket = undefined;
});

function connection(maxBufferedBytes: number): StandInSocket {
  socket = standInConnection({ maxBufferedBytes });
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
