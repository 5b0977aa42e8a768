/**
 * The plugin listens on a port of its own, so the runtime server's connection caps
 * (`server.maxConnections`) do not count its connections; its own `maxConnections` does.
 */
import { once } from 'node:events';
import { connect as tcpConnect, type Socket } from 'node:net';
import { type Plugin, Runtime } from '@weft/core';
import { pluginOf } from '@weft-internal/test-support/agent-parts';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketPlugin } from '../src/index.js';
import { connect, echoModel, refusedUpgrade, type Client } from './support.js';

/** A plugin with one route, so that the runtime's own HTTP server starts. */
const pingPlugin = (): Plugin =>
  pluginOf({
    id: 'ping',
    description: 'Answers pong.',
    triggers: [
      {
        type: 'route',
        id: 'ping',
        method: 'GET',
        path: '/ping',
        handler: (_request, response) => {
          response.json({ pong: true });
        },
      },
    ],
  });

const runtimes: Runtime[] = [];
const clients: Client[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.socket.terminate();
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.stop()));
});

describe('WebSocketPlugin beside the runtime server', () => {
  it("is not counted by the runtime server's maxConnections, and has its own cap [claim:prod-ws-own-caps]", async () => {
    const plugin = new WebSocketPlugin({ port: 0, trustClientUser: true, maxConnections: 2 });
    const runtime = await Runtime.init({
      models: [new ScriptedModelProvider({ fallback: echoModel })],
      memory: new InMemoryMemoryProvider(),
      plugins: [pingPlugin(), plugin],
      options: { server: { port: 0, maxConnections: 1 }, logger: pino({ level: 'silent' }) },
    });
    runtimes.push(runtime);
    await runtime.start();
    expect(plugin.url).not.toBe(undefined);
    expect(new URL(plugin.url as string).port).not.toBe(String(runtime.server.port));

    // The runtime server's one connection is taken ...
    const held = tcpConnect(runtime.server.port as number, '127.0.0.1');
    sockets.push(held);
    held.on('error', () => undefined);
    await once(held, 'connect');
    // ... and the plugin still takes websockets up to its own cap, then refuses with 503.
    clients.push(await connect(plugin.url as string), await connect(plugin.url as string));
    expect(plugin.connectionCount).toBe(2);
    expect(await refusedUpgrade(plugin.url as string)).toMatchObject({
      status: 503,
      body: { error: { code: 'WEFT_WS_TOO_MANY_CONNECTIONS' } },
    });

    // The runtime server's cap holds meanwhile: a second connection to it is refused.
    const refused = await fetch(`${runtime.server.url}/ping`).then(
      (response) => response.status,
      () => 'closed',
    );
    expect(refused).toBe(503);
  });
});
