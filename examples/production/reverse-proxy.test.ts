/**
 * The production guide's advice on `server.allowedHosts` behind a reverse proxy, with a real proxy
 * in front of the runtime's server: a small Node.js one that forwards each request with the
 * client's headers, `Host` included, as Caddy does by default and nginx with
 * `proxy_set_header Host $host`.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
} from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Runtime } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ConversationPlugin } from '../tutorial-chat/conversation-plugin.js';
import { startFakeChatServer } from '../tutorial-chat/fake-chat-server.js';
import { addHealthRoutes } from './health.js';
import { startService } from './service.js';

const logger = pino({ level: 'silent' });
const PUBLIC_HOST = 'agent.example.com';

/**
 * A reverse proxy to `upstream` that passes the client's `Host` on unchanged, or, given
 * `upstreamHost`, sends that instead, as nginx's default `Host $proxy_host` sends the address of
 * its `proxy_pass` (the connection still goes to `upstream`, where that name would resolve).
 */
async function hostPreservingProxy(
  upstream: URL,
  upstreamHost?: string,
): Promise<Server> {
  const proxy = createServer((incoming, outgoing) => {
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: upstreamHost
          ? { ...incoming.headers, host: upstreamHost }
          : incoming.headers,
        timeout: 5_000,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('timeout', () => forwarded.destroy(new Error('no answer')));
    forwarded.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return proxy;
}

/** A GET through the proxy as a browser of the public site sends it. */
function getThrough(
  proxy: Server,
  path: string,
): Promise<{ status: number; body: string }> {
  const { port } = proxy.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        headers: { host: PUBLIC_HOST },
        timeout: 5_000,
      },
      (answer: IncomingMessage) => {
        let body = '';
        answer.on('data', (chunk: Buffer) => (body += chunk.toString()));
        answer.on('end', () =>
          resolve({ status: answer.statusCode ?? 0, body }),
        );
      },
    );
    outgoing.on('timeout', () =>
      outgoing.destroy(new Error('no answer in 5 s')),
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('behind a reverse proxy that passes Host on', () => {
  const runtimes: Runtime[] = [];
  const proxies: Server[] = [];

  /** Closes the proxies and stops the runtimes the test started. */
  async function closeAll(): Promise<void> {
    for (const proxy of proxies.splice(0)) {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
    for (const runtime of runtimes.splice(0)) await runtime.stop();
  }

  afterEach(closeAll);

  /**
   * Starts the guide's own service on a free port, with a fake model and a database in a new
   * folder named from `prefix`, runs `use` with its runtime, then stops and removes it all.
   */
  async function withGuideService(
    prefix: string,
    use: (runtime: Runtime) => Promise<void>,
  ): Promise<void> {
    const model = await startFakeChatServer();
    const directory = mkdtempSync(join(tmpdir(), prefix));
    try {
      const runtime = await startService(
        {
          CHAT_BASE_URL: model.baseUrl,
          CHAT_DB: join(directory, 'chat.db'),
          CHAT_PORT: '0',
          CHAT_API_TOKEN: 'a'.repeat(64),
        },
        logger,
      );
      runtimes.push(runtime);
      await use(runtime);
    } finally {
      await closeAll();
      await model.close();
      rmSync(directory, { recursive: true, force: true });
    }
  }

  async function agentBehindProxy(
    allowedHosts?: string[],
    upstreamHost?: (port: string) => string,
  ): Promise<Server> {
    const runtime = await Runtime.init({
      models: [new ScriptedModelProvider()],
      memory: new InMemoryMemoryProvider(),
      plugins: [new ConversationPlugin({ writerProvider: 'scripted' })],
      options: {
        logger,
        server: { port: 0, ...(allowedHosts ? { allowedHosts } : {}) },
      },
    });
    runtimes.push(runtime);
    addHealthRoutes(runtime);
    await runtime.start();
    // The loopback default: the proxy is the only way in.
    expect(runtime.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const upstream = new URL(runtime.server.url as string);
    const proxy = await hostPreservingProxy(
      upstream,
      upstreamHost?.(upstream.port),
    );
    proxies.push(proxy);
    return proxy;
  }

  it("refuses the upstream's name that a proxy sends as Host, nginx's default, until allowedHosts lists it, and takes an upstream's IP address unlisted [claim:prod-allowed-hosts-upstream-name] [claim:cfg-allowed-hosts-upstream-name] [claim:trig-allowed-hosts-proxy]", async () => {
    const named = await agentBehindProxy(undefined, (port) => `agent:${port}`);
    const refused = await getThrough(named, '/healthz');
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { code: 'WEFT_HOST_NOT_ALLOWED' },
    });

    const listed = await agentBehindProxy(['agent'], (port) => `agent:${port}`);
    expect((await getThrough(listed, '/healthz')).status).toBe(200);

    const byAddress = await agentBehindProxy(
      undefined,
      (port) => `10.0.0.7:${port}`,
    );
    expect((await getThrough(byAddress, '/healthz')).status).toBe(200);
  });

  it('refuses every forwarded request with 403 WEFT_HOST_NOT_ALLOWED on the loopback until allowedHosts lists the public name [claim:prod-allowed-hosts-behind-proxy] [claim:cfg-allowed-hosts-proxy-public-name] [claim:trig-allowed-hosts-proxy] [claim:prod-allowed-hosts-403] [claim:errors-host-not-allowed-section]', async () => {
    const unlisted = await agentBehindProxy();
    const refused = await getThrough(unlisted, '/healthz');
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { status: 403, code: 'WEFT_HOST_NOT_ALLOWED' },
    });

    const listed = await agentBehindProxy([PUBLIC_HOST]);
    const served = await getThrough(listed, '/healthz');
    expect(served.status).toBe(200);
    expect(JSON.parse(served.body)).toEqual({ status: 'ok' });
  });

  it("refuses them from the guide's own service too, which keeps the tutorial's server options (the port only) [claim:prod-service-allowed-hosts]", async () => {
    await withGuideService('weft-proxy-service-', async (runtime) => {
      const proxy = await hostPreservingProxy(
        new URL(runtime.server.url as string),
      );
      proxies.push(proxy);
      const refused = await getThrough(proxy, '/healthz');
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body)).toMatchObject({
        error: { code: 'WEFT_HOST_NOT_ALLOWED' },
      });
    });
  });
  it("refuses a probe without Host, 403 over HTTP/1.0 and 400 over HTTP/1.1, and takes one that names the agent's address [claim:prod-probe-host]", async () => {
    await withGuideService('weft-probe-host-', async (runtime) => {
      const { port } = new URL(runtime.server.url as string);
      const probe = async (head: string) => {
        const answer = await rawRequest(Number(port), head);
        return {
          status: Number(/^HTTP\/1\.\d (\d{3})/.exec(answer)?.[1]),
          code: /"code":"(\w+)"/.exec(answer)?.[1],
        };
      };
      // HAProxy's `option httpchk` without a Host header of its own.
      expect(await probe('OPTIONS / HTTP/1.0\r\n\r\n')).toEqual({
        status: 403,
        code: 'WEFT_HOST_NOT_ALLOWED',
      });
      expect(await probe('GET /healthz HTTP/1.0\r\n\r\n')).toEqual({
        status: 403,
        code: 'WEFT_HOST_NOT_ALLOWED',
      });
      expect(
        await probe('GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n'),
      ).toEqual({ status: 400, code: 'WEFT_BAD_REQUEST' });
      expect(
        await probe(`GET /healthz HTTP/1.0\r\nHost: 10.0.0.7:${port}\r\n\r\n`),
      ).toEqual({ status: 200, code: undefined });
    });
  });
});

/** Sends `head` as it is on a new connection and reads the answer until the server closes it. */
function rawRequest(port: number, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
  });
}
