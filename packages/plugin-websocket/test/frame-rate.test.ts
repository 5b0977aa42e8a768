import { describe, expect, it } from 'vitest';
import { perTest } from './support.js';

const { boot, open } = perTest();

describe('frame rate', () => {
  it('answers every frame of a burst, each refused one with an error frame, and keeps the connection [claim:wsdoc-no-rate-limit]', async () => {
    const booted = await boot();
    const client = await open(booted.url);
    const burst = 300;
    for (let index = 0; index < burst; index += 1) client.send('not json');
    for (let index = 0; index < burst; index += 1) {
      expect(await client.next()).toMatchObject({
        type: 'error',
        id: null,
        code: 'WEFT_WS_INVALID_FRAME',
      });
    }
    expect(booted.plugin.connectionCount).toBe(1);
  });
});
