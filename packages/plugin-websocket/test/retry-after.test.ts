/**
 * The `Retry-After` of the plugin's refused upgrades: a 503 asks for the same wait as every 503 the
 * runtime's HTTP server answers for a Weft code; other refusals ask for none. The requests are
 * written by hand, so the answer's raw header lines are read as they were sent.
 */
import { connect as tcpConnect } from 'node:net';
import { weftRetryAfter } from '@weft/core/internal';
import { describe, expect, it } from 'vitest';
import { byToken, perTest } from './support.js';

const { boot, open } = perTest();

/** Sends an upgrade to the plugin's port and returns the answer's head: status line and headers. */
async function upgradeHead(url: string, query = '', host = 'localhost'): Promise<string> {
  const socket = tcpConnect(Number(new URL(url).port), '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(
    `GET /ws${query} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  );
  let answer = '';
  try {
    return await new Promise<string>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error(`no answer: ${answer}`)), 5_000);
      socket.on('data', (chunk: Buffer) => {
        answer += chunk.toString('latin1');
        const end = answer.indexOf('\r\n\r\n');
        if (end !== -1) {
          clearTimeout(deadline);
          resolve(answer.slice(0, end));
        }
      });
    });
  } finally {
    socket.destroy();
  }
}

const retryAfterOf = (head: string): string | undefined =>
  /\r\nRetry-After: ([^\r]*)/i.exec(head)?.[1];

describe('refused upgrades and Retry-After', () => {
  it('answers an upgrade past maxConnections with 503 and the Retry-After of the runtime server [claim:wsdoc-retry-after] [claim:wsreadme-retry-after] [claim:errors-503-retry-after]', async () => {
    const booted = await boot({ maxConnections: 1 });
    await open(booted.url);
    const head = await upgradeHead(booted.url);
    expect(head).toMatch(/^HTTP\/1\.1 503 /);
    // The runtime server's rule, whose figure the docs give.
    expect(weftRetryAfter(503)).toBe('5');
    expect(retryAfterOf(head)).toBe(weftRetryAfter(503));
  });

  it('answers an upgrade past maxConnectionsPerUser with 503 and Retry-After [claim:wsdoc-retry-after] [claim:wsreadme-retry-after]', async () => {
    const booted = await boot({ authenticate: byToken, maxConnectionsPerUser: 1 });
    await open(`${booted.url}?token=t-ada`);
    const head = await upgradeHead(booted.url, '?token=t-ada');
    expect(head).toMatch(/^HTTP\/1\.1 503 /);
    expect(retryAfterOf(head)).toBe('5');
  });

  it('answers an upgrade whose authenticate still runs when the plugin closes with 503 and Retry-After [claim:wsdoc-retry-after] [claim:wsreadme-retry-after]', async () => {
    let asked!: () => void;
    const askedOnce = new Promise<void>((resolve) => (asked = resolve));
    const booted = await boot({
      // The hook never answers, so the upgrade is still being checked when the plugin closes.
      authenticate: () => {
        asked();
        return new Promise(() => undefined);
      },
      authTimeoutMs: 60_000,
    });
    const answer = upgradeHead(booted.url);
    await askedOnce;
    const closed = booted.plugin.close();
    const head = await answer;
    await closed;
    expect(head).toMatch(/^HTTP\/1\.1 503 /);
    expect(retryAfterOf(head)).toBe('5');
  });

  it('sends no Retry-After with a refusal that waiting does not cure (4xx) [claim:wsdoc-retry-after] [claim:wsreadme-retry-after]', async () => {
    const booted = await boot({ authenticate: byToken });
    const unauthorised = await upgradeHead(booted.url, '?token=wrong');
    expect(unauthorised).toMatch(/^HTTP\/1\.1 401 /);
    expect(retryAfterOf(unauthorised)).toBe(undefined);
    const badHost = await upgradeHead(booted.url, '', 'rebound.example');
    expect(badHost).toMatch(/^HTTP\/1\.1 403 /);
    expect(retryAfterOf(badHost)).toBe(undefined);
  });
});
