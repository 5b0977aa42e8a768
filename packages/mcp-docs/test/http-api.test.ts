/**
 * `startHttpServer` as a program embedding the server calls it: the defaults and failures its
 * TSDoc states (port 0 by default, the endpoint path, other paths and methods refused, a taken
 * port rejected). None of these reach the documentation, so an empty bundle stands in for it;
 * http-and-cli.test.ts, beside this file, drives the real command with a real bundle.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../src/http.js';
import {
  MCP_HTTP_PATH,
  startHttpServer,
  type DocsBundle,
  type RunningHttpServer,
} from '../src/index.js';
import { PING, SMALL_BUNDLE } from './support.js';

const started: RunningHttpServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

const noDocs = {} as DocsBundle;

async function start(
  port?: number,
  log: (line: string) => void = () => undefined,
): Promise<RunningHttpServer> {
  const server = await startHttpServer(noDocs, { port, log });
  started.push(server);
  return server;
}

describe('startHttpServer (TSDoc of HttpOptions and RunningHttpServer)', () => {
  it('listens on a free port of 127.0.0.1 by default, at the MCP endpoint path [claim:tsdoc-docs-http-port] [claim:tsdoc-docs-http-host]', async () => {
    const url = new URL((await start()).url);
    expect(url.hostname).toBe('127.0.0.1');
    expect(Number(url.port)).toBeGreaterThan(0);
    expect(url.pathname).toBe(MCP_HTTP_PATH);
  });

  it('answers 404 on another path and 405 to a GET of the endpoint [claim:tsdoc-docs-http-path]', async () => {
    const url = new URL((await start()).url);
    expect((await fetch(new URL('/other', url), { method: 'POST' })).status).toBe(404);
    const get = await fetch(url);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
  });

  it('answers a request still arriving slowly at its deadline 408 with no body, and cuts one whose client fell silent, with no body and possibly no answer [claim:errors-mcp-docs-http-late]', async () => {
    const server = await startHttpServer(noDocs, { log: () => undefined, requestTimeoutMs: 1_000 });
    started.push(server);
    const url = new URL(server.url);
    /** Sends the start of a request, then `drip` bytes every 200 ms or nothing; what came back. */
    const late = (drip: boolean) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname, () =>
          socket.write('POST /mcp HTTP/1.1\r\nHost: localhost\r\n'),
        );
        let text = '';
        const dripping = drip
          ? setInterval(() => {
              if (!socket.destroyed) socket.write('X-Slow: 1\r\n');
            }, 200)
          : undefined;
        const timer = setTimeout(() => reject(new Error(`not closed: ${text}`)), 8_000);
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (text += chunk));
        socket.on('error', () => undefined);
        socket.on('close', () => {
          clearInterval(dripping);
          clearTimeout(timer);
          resolve(text);
        });
      });
    const slow = await late(true);
    expect(slow).toMatch(/^HTTP\/1\.1 408 /);
    expect(slow.split('\r\n\r\n')[1]).toBe('');
    // Silent: the idle cut and Node's 408 check fall due at the same deadline; whichever runs
    // first, no body is sent (on an idle machine, no answer at all).
    expect(await late(false)).toMatch(/^(HTTP\/1\.1 408 [^]*\r\n\r\n)?$/);
  });

  it('answers its refusals with a JSON-RPC error body, not the runtime server’s Weft error body [claim:errors-mcp-docs-http-own]', async () => {
    const url = new URL((await start()).url);
    const get = await fetch(url);
    expect(get.status).toBe(405);
    const body = (await get.json()) as Record<string, unknown>;
    expect(body).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringContaining('POST') as unknown },
      id: null,
    });
    // What Node.js refuses itself, such as bytes that are not HTTP, is answered with no body.
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(Number(url.port), url.hostname, () =>
        socket.write('NOT HTTP\r\n\r\n'),
      );
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(text));
    });
    expect(refused).toMatch(/^HTTP\/1\.1 400 /);
    expect(refused.split('\r\n\r\n')[1]).toBe('');
    // The MCP transport's own refusals carry other JSON-RPC codes: a JSON body that is no
    // JSON-RPC message gets -32700. A bundle with pages is needed for the request to reach it.
    const withDocs = await startHttpServer(SMALL_BUNDLE, { log: () => undefined });
    started.push(withDocs);
    const notRpc = await fetch(withDocs.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ question: 'not a JSON-RPC message' }),
    });
    expect(notRpc.status).toBe(400);
    expect(await notRpc.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: expect.any(String) as unknown },
      id: null,
    });
  });

  it('rejects with the listening error when the port is taken [claim:tsdoc-docs-http-listen]', async () => {
    const port = Number(new URL((await start()).url).port);
    await expect(start(port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it('refuses a body over MAX_BODY_BYTES with 413, and one that is not JSON with 400 [claim:mcp-docs-readme-body-bound] [claim:tsdoc-docs-http-max-body]', async () => {
    const url = (await start()).url;
    const post = (body: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body,
      });
    const large = await post(`"${'x'.repeat(MAX_BODY_BYTES)}"`);
    expect(large.status).toBe(413);
    expect(await large.text()).toContain(`the body is larger than ${MAX_BODY_BYTES} bytes`);
    expect((await post('{"jsonrpc": ')).status).toBe(400);
  });

  it('answers a failure 500 with an id, and writes the details under that id to log [claim:tsdoc-docs-http-log]', async () => {
    const lines: string[] = [];
    // The empty bundle has no pages, so building the MCP server for the request throws.
    const url = (await start(undefined, (line) => lines.push(line))).url;
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(500);
    const text = await response.text();
    const id = /the server's log has id ([0-9a-f-]{36})/.exec(text)?.[1];
    expect(id).toBeDefined();
    expect(text).not.toContain('TypeError');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`(error id ${id})`);
    expect(lines[0]).toContain('TypeError');
  });

  it('close() ends a request still sending its body, and stops listening [claim:tsdoc-docs-http-close]', async () => {
    const server = await startHttpServer(noDocs, { log: () => undefined });
    const url = new URL(server.url);
    const pending = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '1000' },
    });
    const ended = new Promise<string>((resolve) => {
      pending.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      pending.on('response', (response) => resolve(`answered ${response.statusCode}`));
    });
    pending.write('{"jsonrpc": "2.0",');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await server.close();
    expect(await ended).toBe('ECONNRESET');
    await expect(fetch(url, { method: 'POST' })).rejects.toThrow();
  });
});

describe('startHttpServer and the Host and Origin a request names', () => {
  /** The status of a POST to a path other than the endpoint: 404 once Host and Origin pass, else 403. */
  async function statusFor(
    options: { allowedHosts?: string[] },
    headers: { host?: string; origin?: string },
  ): Promise<number> {
    const server = await startHttpServer(noDocs, { log: () => undefined, ...options });
    started.push(server);
    const url = new URL('/other', server.url);
    return new Promise((resolve, reject) => {
      const outgoing = request(
        url,
        { method: 'POST', headers: { host: url.host, ...headers }, timeout: 10_000 },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error('no answer in 10 s')));
      outgoing.on('error', reject);
      outgoing.end();
    });
  }

  it('takes any IP address as Host, and a name only when it is loopback or listed in allowedHosts [claim:mcp-docs-http-host-check] [claim:mcp-docs-http-allowed-host] [claim:mcp-docs-readme-http]', async () => {
    expect(await statusFor({}, { host: '192.0.2.5:3920' })).toBe(404);
    expect(await statusFor({}, { host: 'localhost:3920' })).toBe(404);
    expect(await statusFor({}, { host: 'docs.example.test:3920' })).toBe(403);
    const listed = { allowedHosts: ['docs.example.test'] };
    expect(await statusFor(listed, { host: 'docs.example.test:3920' })).toBe(404);
    expect(await statusFor(listed, { host: 'other.example.test:3920' })).toBe(403);
  });

  it('judges the host a request line in absolute form names, not the Host header, as the runtime’s server does [claim:mcp-docs-http-absolute-form]', async () => {
    const server = await startHttpServer(SMALL_BUNDLE, { log: () => undefined });
    started.push(server);
    const url = new URL(server.url);
    const answer = (target: string, host: string): Promise<{ status: number; body: string }> =>
      new Promise((resolve, reject) => {
        const outgoing = request(
          {
            host: url.hostname,
            port: url.port,
            path: target,
            method: 'POST',
            headers: {
              host,
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
            },
            timeout: 10_000,
          },
          (response) => {
            let body = '';
            response.on('data', (chunk: Buffer) => (body += chunk.toString()));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
          },
        );
        outgoing.on('timeout', () => outgoing.destroy(new Error('no answer in 10 s')));
        outgoing.on('error', reject);
        outgoing.end(PING);
      });
    const own = url.host;
    const named = await answer(`http://attacker.example${MCP_HTTP_PATH}`, own);
    expect(named.status).toBe(403);
    expect(named.body).toContain('Host \\"attacker.example\\" is not allowed by this server');
    // The endpoint is found through the target's path, and the Host header's name is not read.
    const served = await answer(`http://${own}${MCP_HTTP_PATH}`, 'attacker.example');
    expect(served.status).toBe(200);
    expect(served.body).toContain('"result"');
    const userinfo = await answer(`http://user@${own}${MCP_HTTP_PATH}`, own);
    expect(userinfo.status).toBe(400);
    expect(userinfo.body).toContain('without user information');
  });

  it('takes an Origin on a listed name, but not an unlisted one [claim:mcp-docs-http-allowed-host] [claim:mcp-docs-readme-http]', async () => {
    const origin = 'http://docs.example.test:3920';
    expect(await statusFor({}, { origin })).toBe(403);
    expect(await statusFor({ allowedHosts: ['docs.example.test'] }, { origin })).toBe(404);
  });
});
