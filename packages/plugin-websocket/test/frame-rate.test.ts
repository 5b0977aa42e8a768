import { describe, expect, it } from 'vitest';
import { FLOOD_CLOSE } from '../src/index.js';
import { perTest } from './support.js';

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
    expect(lines).toEqual([expect.objectContaining({ level: 40, limit: 5 })]);
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

  it('allows 20 frames a second unless set [claim:prod-ws-frame-rate]', async () => {
    const booted = await boot();
    const client = await open(booted.url);
    for (let index = 0; index < 21; index += 1) client.send('not json');
    for (let index = 0; index < 20; index += 1) {
      expect(await client.next()).toMatchObject({ type: 'error', code: 'WEFT_WS_INVALID_FRAME' });
    }
    expect((await client.closed).code).toBe(1008);
  });
});
