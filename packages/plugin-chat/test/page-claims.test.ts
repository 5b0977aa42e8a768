/**
 * Claims of the plugin-chat README that chat-plugin.test.ts does not pin down; each test's title
 * carries the claim ids of the sentences it guards.
 */
import { Runtime } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatPlugin, chatSpace } from '../src/index.js';

let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
});

describe('packages/plugin-chat/README.md#responses', () => {
  it("keeps the answer's X-Request-Id in the task's memories as metadata.requestId [claim:httpchat-request-id] [claim:chat-request-id]", async () => {
    const memory = new InMemoryMemoryProvider();
    runtime = await Runtime.init({
      models: [
        new ScriptedModelProvider({
          responses: [{ steps: [{ pluginId: 'chat', action: 'reply' }] }, 'Hello, Ada.'],
        }),
      ],
      memory,
      plugins: [new ChatPlugin({ trustClientUser: true })],
      options: { server: { port: 0 }, logger: pino({ level: 'silent' }) },
    });
    await runtime.start();
    const response = await fetch(`${runtime.server.url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ room: '42', user: 'ada', message: 'hi' }),
    });
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const stored = await memory.query({ space: chatSpace('42', 'ada').id });
    expect(stored.map((entry) => entry.kind).sort()).toEqual(['chain', 'trigger']);
    for (const entry of stored) expect(entry.metadata).toMatchObject({ requestId });
  });
});
