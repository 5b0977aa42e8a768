/** A runtime with the websocket plugin and a scripted model, and a real `ws` client for it. */
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { Runtime, type RuntimeOptions } from '@weft/core';
import { ChatAccess } from '@weft/plugin-chat';
import {
  InMemoryMemoryProvider,
  ScriptedModelProvider,
  type ScriptedResponse,
} from '@weft/testing';
import { afterEach } from 'vitest';
import { WebSocket, type ClientOptions } from 'ws';
import { ChatConnection } from '../src/connection.js';
import { WebSocketPlugin, type ServerFrame, type WebSocketPluginOptions } from '../src/index.js';
import { invalid, resolveOptions } from '../src/options.js';
import type { Admission } from '../src/upgrade-gate.js';
import { capturingLogger } from '@weft-internal/test-support/capturing-logger';

/** Writes the reply to each message: `echo: <message>`. Plans and reviews as a chat task needs. */
export const echoModel = (
  messages: Parameters<Extract<ScriptedResponse, (...args: never[]) => unknown>>[0],
  request: Parameters<Extract<ScriptedResponse, (...args: never[]) => unknown>>[1],
): string | Record<string, unknown> => {
  if (request.purpose === 'plan') return { steps: [{ pluginId: 'websocket', action: 'reply' }] };
  if (request.purpose === 'review') return { type: 'continue' };
  const prompt = messages.map((message) => message.content).join('\n');
  const message = /## The message\n([\s\S]*?)\n\n## What was done/.exec(prompt)?.[1] ?? '';
  return `echo: ${message}`;
};

/** The session tokens the token-authenticated tests connect with, mapped to their users. */
export const TOKENS: ReadonlyMap<string, string> = new Map([
  ['t-ada', 'ada'],
  ['t-eve', 'eve'],
]);

/** The authenticate hook of the docs: the session token in the URL, mapped to its user. */
export const byToken: WebSocketPluginOptions['authenticate'] = (request) => {
  const token = new URL(request.url ?? '/', 'http://localhost').searchParams.get('token');
  const user = token === null ? undefined : TOKENS.get(token);
  return user === undefined ? false : { user };
};

export interface Booted {
  runtime: Runtime;
  plugin: WebSocketPlugin;
  memory: InMemoryMemoryProvider;
  logs: Record<string, unknown>[];
  url: string;
}

export async function boot(
  pluginOptions: WebSocketPluginOptions = {},
  model: ScriptedResponse = echoModel,
  runtimeOptions: RuntimeOptions = {},
  memory: InMemoryMemoryProvider = new InMemoryMemoryProvider(),
): Promise<Booted> {
  const { logger, lines: logs } = capturingLogger('info');
  // Most tests are about the protocol, not about who the sender is (rooms.test.ts): they let
  // the frame name its user unless they say otherwise.
  const plugin = new WebSocketPlugin({ port: 0, trustClientUser: true, ...pluginOptions });
  const runtime = await Runtime.init({
    models: [new ScriptedModelProvider({ fallback: model })],
    memory,
    plugins: [plugin],
    options: { logger, ...runtimeOptions },
  });
  await runtime.start();
  return { runtime, plugin, memory, logs, url: plugin.url as string };
}

/** A connected client that queues the frames it receives. */
export interface Client {
  socket: WebSocket;
  /** The next frame received, waiting at most `ms`. */
  next(ms?: number): Promise<ServerFrame>;
  send(frame: unknown): void;
  /** Resolves with the close code and reason when the connection ends. */
  closed: Promise<{ code: number; reason: string }>;
}

export async function connect(url: string, options: ClientOptions = {}): Promise<Client> {
  const socket = new WebSocket(url, options);
  const frames: ServerFrame[] = [];
  const waiters: ((frame: ServerFrame) => void)[] = [];
  socket.on('message', (data) => {
    const frame = JSON.parse(String(data)) as ServerFrame;
    const waiter = waiters.shift();
    if (waiter) waiter(frame);
    else frames.push(frame);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    closed,
    send: (frame) => socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame)),
    next: (ms = 5_000) => {
      const queued = frames.shift();
      if (queued) return Promise.resolve(queued);
      return new Promise<ServerFrame>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no frame within ${ms} ms`)), ms);
        waiters.push((frame) => {
          clearTimeout(timer);
          resolve(frame);
        });
      });
    },
  };
}

/** What the server answered an upgrade it refused: status and JSON body. */
export async function refusedUpgrade(
  url: string,
  options: ClientOptions = {},
): Promise<{ status: number; body: { error: Record<string, unknown> } }> {
  const socket = new WebSocket(url, options);
  return new Promise((resolve, reject) => {
    socket.once('open', () => reject(new Error('the upgrade was accepted')));
    socket.once('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body: JSON.parse(text) as { error: Record<string, unknown> },
        }),
      );
    });
    socket.once('error', () => undefined);
  });
}

/**
 * {@link boot} and {@link connect} for the calling test file, with every runtime booted and every
 * client opened during a test closed after it, so a failing test leaves nothing running.
 * `stopAfterTest` hands over a runtime the test built by hand.
 */
export function perTest(): {
  boot: typeof boot;
  open: typeof connect;
  stopAfterTest: (runtime: Runtime) => void;
} {
  const runtimes: Runtime[] = [];
  const clients: Client[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.socket.terminate();
    await Promise.all(runtimes.splice(0).map((runtime) => runtime.stop()));
  });
  return {
    boot: async (...args) => {
      const booted = await boot(...args);
      runtimes.push(booted.runtime);
      return booted;
    },
    open: async (url, options) => {
      const client = await connect(url, options);
      clients.push(client);
      return client;
    },
    stopAfterTest: (runtime) => {
      runtimes.push(runtime);
    },
  };
}

/**
 * A socket as a connection uses it, for tests that drive one without a server: what it sent, the
 * codes it was closed with, whether it was cut, and its backlog, which the test sets.
 */
export class StandInSocket extends EventEmitter {
  readyState: number = WebSocket.OPEN;
  bufferedAmount = 0;
  readonly sent: string[] = [];
  readonly closes: number[] = [];
  terminated = false;
  send(text: string): void {
    this.sent.push(text);
  }
  close(code: number): void {
    this.closes.push(code);
    this.readyState = WebSocket.CLOSING;
  }
  terminate(): void {
    this.terminated = true;
  }
  ping(): void {}
}

/**
 * A connection of the plugin with `pluginOptions` on a new stand-in socket, logging to `logger`
 * (nothing unless given), for the sender `identity` (none unless given); returns the socket.
 * Emit `close` on it after the test to clear the connection's idle timer.
 */
export function standInConnection(
  pluginOptions: WebSocketPluginOptions,
  {
    logger = { info() {}, warn() {}, error() {} } as unknown as Runtime['logger'],
    identity = {},
  }: { logger?: Runtime['logger']; identity?: Admission } = {},
): StandInSocket {
  const options = resolveOptions(pluginOptions);
  const socket = new StandInSocket();
  new ChatConnection(
    socket as unknown as WebSocket,
    {
      pluginId: 'websocket',
      options,
      access: new ChatAccess(options, invalid),
      runtime: { logger } as Runtime,
      accepting: () => true,
    },
    identity,
    {} as IncomingMessage,
  );
  return socket;
}
