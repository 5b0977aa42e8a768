/**
 * A JSON body over `bodyLimit` is answered 413 as soon as that is known, and the connection is
 * closed: the body parser on its own reads a refused body to its end before it answers, so a
 * client sending a large body slowly, or an endless chunked one, waited out `requestTimeout` and
 * got 408 instead.
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { brotliCompressSync, constants, createGzip, deflateSync, gzipSync } from 'node:zlib';
import express from 'express';
import { ServerManager } from '@weft/core/node';
import { afterEach, describe, expect, it } from 'vitest';
import { rawConnectionTo, silentLogger } from './fixtures.js';

let server: ServerManager | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** requestTimeout of the server under test: an answer that waits for it comes after this. */
const REQUEST_TIMEOUT_MS = 6_000;

async function serve(ownParser = false): Promise<{ port: number; ran: string[] }> {
  const ran: string[] = [];
  server = new ServerManager(
    { port: 0, bodyLimit: '1kb', headersTimeout: 2_000, requestTimeout: REQUEST_TIMEOUT_MS },
    silentLogger,
  );
  // A parser of the application's own, with a larger limit, reads the body first.
  if (ownParser) server.app.use(express.json({ limit: '1mb' }));
  server.mount(
    'probe',
    {
      method: 'POST',
      path: '/probe',
      handler: (_request, response) => {
        ran.push('handler');
        response.status(200).json({ ok: true });
      },
    },
    undefined,
  );
  await server.start();
  return { port: Number(new URL(server.url as string).port), ran };
}

/** Writes `head`, then `body` in pieces and never ends it; gives what came back and when. */
async function sendUnfinished(
  port: number,
  head: string,
  piece: string,
): Promise<{ received: string; elapsedMs: number }> {
  const socket: Socket = connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => {});
  const started = Date.now();
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(head);
  // Keeps sending a little every 100 ms, so the body never ends within requestTimeout.
  const drip = setInterval(() => socket.writable && socket.write(piece), 100);
  const answered = new Promise<void>((resolve) => {
    socket.on('data', () => received.includes('\r\n\r\n') && resolve());
  });
  await Promise.race([answered, closed]);
  clearInterval(drip);
  const elapsedMs = Date.now() - started;
  await closed;
  return { received, elapsedMs };
}

describe('ServerManager and a JSON body over bodyLimit that is still arriving', () => {
  it('answers 413 at once to a Content-Length over the limit, without waiting for the body, and closes the connection [claim:prod-body-limit-early]', async () => {
    const { port, ran } = await serve();
    const { received, elapsedMs } = await sendUnfinished(
      port,
      'POST /probe HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n',
      'a'.repeat(100),
    );
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received.toLowerCase()).toContain('connection: close');
    expect(elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS / 2);
    expect(ran).toEqual([]);
  });

  it('answers 413 to a chunked body the moment it passes the limit, though it never ends [claim:prod-body-limit-early]', async () => {
    const { port, ran } = await serve();
    const chunk = `200\r\n${' '.repeat(0x200)}\r\n`;
    const { received, elapsedMs } = await sendUnfinished(
      port,
      'POST /probe HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
      chunk,
    );
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toContain('"code":"WEFT_BAD_REQUEST"');
    expect(elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS / 2);
    expect(ran).toEqual([]);
  });

  it('still takes a chunked body within the limit, and keeps the connection', async () => {
    const { port, ran } = await serve();
    const body = JSON.stringify({ text: 'x'.repeat(900) });
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.write(
      `POST /probe HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    );
    await new Promise<void>((resolve) =>
      socket.on('data', () => received.includes('{"ok":true}') && resolve()),
    );
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received.toLowerCase()).toContain('connection: keep-alive');
    expect(ran).toEqual(['handler']);
    socket.destroy();
  });

  it('leaves alone a body a parser of your own on app has read already', async () => {
    const { port, ran } = await serve(true);
    const response = await fetch(`http://127.0.0.1:${port}/probe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'x'.repeat(5_000) }),
    });
    expect(response.status).toBe(200);
    expect(ran).toEqual(['handler']);
  });

  it('answers 413 to an endless gzip body once twice the limit has come as sent, though it never ends [claim:prod-body-limit-early]', async () => {
    const { port, ran } = await serve();
    // Random bytes do not compress: each piece gzip flushes is a little over 512 bytes.
    const gzip = createGzip();
    const pieces: Buffer[] = [];
    gzip.on('data', (piece: Buffer) => pieces.push(piece));
    const piece = async (): Promise<string> => {
      gzip.write(randomBytes(512));
      await new Promise<void>((resolve) => gzip.flush(constants.Z_SYNC_FLUSH, () => resolve()));
      const bytes = Buffer.concat(pieces.splice(0));
      return `${bytes.length.toString(16)}\r\n${bytes.toString('latin1')}\r\n`;
    };
    const chunks: string[] = [];
    for (let index = 0; index < 60; index += 1) chunks.push(await piece());
    const { socket, received, closed } = rawConnectionTo(port);
    const started = Date.now();
    socket.write(
      'POST /probe HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n',
      'latin1',
    );
    // About 2 KB every 100 ms: past twice the limit of 1 KB within the first second.
    let next = 0;
    const drip = setInterval(() => {
      for (let count = 0; count < 4 && next < chunks.length; count += 1) {
        if (socket.writable) socket.write(chunks[next] as string, 'latin1');
        next += 1;
      }
    }, 100);
    await closed;
    clearInterval(drip);
    expect(received()).toMatch(/^HTTP\/1\.1 413 /);
    expect(Date.now() - started).toBeLessThan(REQUEST_TIMEOUT_MS / 2);
    expect(ran).toEqual([]);
  });
  it('refuses a gzip body at once when its Content-Length is over twice the limit, and waits for one of exactly twice [claim:prod-body-limit-early]', async () => {
    const { port, ran } = await serve();
    const head = (length: number): string =>
      `POST /probe HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: ${length}\r\n\r\n`;
    // 1 byte over twice the 1 KB limit, and no byte of the body sent: 413 at once.
    const over = await sendUnfinished(port, head(2 * 1024 + 1), '');
    expect(over.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(over.elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS / 2);
    // Exactly twice the limit: the body may still inflate to less, so nothing is answered yet.
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => {});
    socket.write(head(2 * 1024));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(received).toBe('');
    socket.destroy();
    expect(ran).toEqual([]);
  });

  it('answers 413 to a gzip, deflate or br body under twice the limit as soon as what came inflates past the limit, though the rest never comes [claim:prod-body-limit-early]', async () => {
    const { port, ran } = await serve();
    // 2 MB of spaces in a JSON array compress to about 2 KB: under twice the 1 KB limit.
    const plain = Buffer.from(`[${' '.repeat(2_000_000)}]`);
    for (const [encoding, body] of [
      ['gzip', gzipSync(plain, { level: 9 })],
      ['deflate', deflateSync(plain, { level: 9 })],
      // brotli gives nothing of 2 MB of spaces before its last bytes: random text first.
      [
        'br',
        brotliCompressSync(
          Buffer.concat([Buffer.from(`["${randomBytes(1_200).toString('base64')}"`), plain]),
        ),
      ],
    ] as const) {
      expect(body.length).toBeLessThan(2 * 1024);
      const { socket, received, closed } = rawConnectionTo(port);
      const started = Date.now();
      // Its first 1,000 bytes, which inflate to more than 1 KB; the rest is never sent.
      socket.write(
        Buffer.concat([
          Buffer.from(
            `POST /probe HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Encoding: ${encoding}\r\nContent-Length: ${body.length}\r\n\r\n`,
          ),
          body.subarray(0, 1_000),
        ]),
      );
      await closed;
      expect(received()).toMatch(/^HTTP\/1\.1 413 /);
      expect(received()).toContain('"code":"WEFT_BAD_REQUEST"');
      expect(Date.now() - started).toBeLessThan(REQUEST_TIMEOUT_MS / 2);
    }
    expect(ran).toEqual([]);
  });

  it('still takes a gzip body that inflates to within the limit', async () => {
    const { port, ran } = await serve();
    const response = await fetch(`http://127.0.0.1:${port}/probe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ text: 'x'.repeat(900) })),
    });
    expect(response.status).toBe(200);
    expect(ran).toEqual(['handler']);
  });
});
