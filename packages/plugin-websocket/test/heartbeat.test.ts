import { describe, expect, it } from 'vitest';
import { perTest, type Booted } from './support.js';

const { boot, open } = perTest();

describe('heartbeat', () => {
  let booted: Booted | undefined;

  it('drops a peer that never reads the pings even when it sends pongs of its own [claim:wsdoc-ping] [claim:wsreadme-heartbeat]', async () => {
    booted = await boot({ heartbeatIntervalMs: 100 });
    const client = await open(booted.url, { autoPong: false });
    // Unsolicited pongs, with no ping's data in them: they answer nothing the server asked.
    const forged = setInterval(() => client.socket.pong(Buffer.from('alive')), 20);
    try {
      await expect.poll(() => booted!.plugin.connectionCount, { timeout: 3_000 }).toBe(0);
      expect((await client.closed).code).toBe(1006);
    } finally {
      clearInterval(forged);
    }
  });

  it('keeps a peer that answers each ping with its data [claim:wsdoc-ping] [claim:wsreadme-heartbeat]', async () => {
    booted = await boot({ heartbeatIntervalMs: 100 });
    const client = await open(booted.url);
    let pings = 0;
    client.socket.on('ping', () => (pings += 1));
    await expect.poll(() => pings, { timeout: 3_000 }).toBeGreaterThanOrEqual(5);
    expect(booted.plugin.connectionCount).toBe(1);
  });
});
