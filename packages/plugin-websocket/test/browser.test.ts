/**
 * A real browser as the client: Chromium, driven by Playwright, opens `new WebSocket(...)` from
 * a page, as a web chat client does, and always sends its page's Origin.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumPath } from '@weft-internal/test-support/chromium';
import { boot, type Booted } from './support.js';

let browser: Browser;
let pages: Server;
let pageOrigin: string;
let booted: Booted;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  // An empty page on its own origin, standing in for the web chat client.
  pages = createServer((_request, response) => {
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>chat</title>');
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  booted = await boot({ allowedOrigins: [pageOrigin] });
}, 60_000);

afterAll(async () => {
  await booted?.runtime.stop();
  await browser?.close();
  await new Promise((resolve) => pages?.close(resolve));
});

/** In the page: connects, sends one message, and resolves with the frames or the close code. */
async function chatFromPage(origin: string, url: string): Promise<unknown> {
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/`);
    return await page.evaluate(
      (wsUrl) =>
        new Promise((resolve) => {
          const frames: unknown[] = [];
          const socket = new WebSocket(wsUrl);
          socket.onopen = () =>
            socket.send(
              JSON.stringify({
                type: 'message',
                id: 'b1',
                room: 'web',
                user: 'ada',
                message: 'from the browser',
              }),
            );
          socket.onmessage = (event) => {
            frames.push(JSON.parse(String(event.data)));
            if (frames.length === 2) resolve({ frames });
          };
          socket.onclose = (event) => resolve({ closed: event.code, frames });
        }),
      url,
    );
  } finally {
    await page.close();
  }
}

describe('WebSocketPlugin with Chromium as the client', () => {
  it('chats with a page of an allowed origin [claim:wsdoc-origin]', async () => {
    const result = (await chatFromPage(pageOrigin, booted.url)) as {
      frames: Record<string, unknown>[];
    };
    expect(result.frames).toEqual([
      expect.objectContaining({ type: 'accepted', id: 'b1' }),
      expect.objectContaining({ type: 'reply', id: 'b1', reply: 'echo: from the browser' }),
    ]);
  });

  it('refuses the same page when its origin is not allowed: the socket never opens [claim:wsdoc-origin]', async () => {
    // The same page served under another name (localhost instead of 127.0.0.1) is another origin.
    const otherOrigin = pageOrigin.replace('127.0.0.1', 'localhost');
    const result = (await chatFromPage(otherOrigin, booted.url)) as {
      closed: number;
      frames: unknown[];
    };
    expect(result).toEqual({ closed: 1006, frames: [] });
    expect(booted.logs.some((line) => line.code === 'WEFT_WS_ORIGIN_NOT_ALLOWED')).toBe(true);
  });
});
