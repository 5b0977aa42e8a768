/**
 * `startHttpServer` as a program embedding the server calls it: the defaults and failures its
 * TSDoc states (port 0 by default, the endpoint path, other paths and methods refused, a taken
 * port rejected). None of these reach the documentation, so an empty bundle stands in for it;
 * http-and-cli.test.ts, beside this file, drives the real command with a real bundle.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  MCP_HTTP_PATH,
  startHttpServer,
  type DocsBundle,
  type RunningHttpServer,
} from '../src/index.js';

const started: RunningHttpServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

const noDocs = {} as DocsBundle;

async function start(port?: number): Promise<RunningHttpServer> {
  const server = await startHttpServer(noDocs, { port, log: () => undefined });
  started.push(server);
  return server;
}

describe('startHttpServer (TSDoc of HttpOptions and RunningHttpServer)', () => {
  it('listens on a free port of 127.0.0.1 by default, at the MCP endpoint path', async () => {
    const url = new URL((await start()).url);
    expect(url.hostname).toBe('127.0.0.1');
    expect(Number(url.port)).toBeGreaterThan(0);
    expect(url.pathname).toBe(MCP_HTTP_PATH);
  });

  it('answers 404 on another path and 405 to a GET of the endpoint', async () => {
    const url = new URL((await start()).url);
    expect((await fetch(new URL('/other', url), { method: 'POST' })).status).toBe(404);
    const get = await fetch(url);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
  });

  it('rejects with the listening error when the port is taken', async () => {
    const port = Number(new URL((await start()).url).port);
    await expect(start(port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});
