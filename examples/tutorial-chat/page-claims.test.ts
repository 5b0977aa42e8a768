/**
 * Claims of docs/tutorials/chat-assistant.md that agent.test.ts does not pin down; each test's
 * title carries the claim ids of the sentences it guards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spaceId, type Runtime } from '@weft/core';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createChatAgent } from './agent.js';
import {
  startFakeChatServer,
  type FakeChatServer,
} from './fake-chat-server.js';
import { readChatSettings } from './settings.js';

describe('docs/tutorials/chat-assistant.md#point-it-at-a-real-model', () => {
  it('defaults every variable of the table to a local Ollama [claim:tut-run-from-clone] [claim:tut-env-defaults]', () => {
    expect(readChatSettings({})).toEqual({
      baseUrl: 'http://localhost:11434/v1',
      apiKey: '',
      plannerModel: 'llama3.2:3b',
      writerModel: 'llama3.1:8b',
      databasePath: './chat-memory.db',
      port: 8787,
    });
  });

  it('takes an empty variable for an unset one, and names CHAT_PORT when it is no port [claim:tut-bad-port] [claim:tut-env-defaults]', () => {
    expect(
      readChatSettings({ CHAT_PORT: '', CHAT_BASE_URL: ' ', CHAT_DB: '' }),
    ).toMatchObject({
      port: 8787,
      baseUrl: 'http://localhost:11434/v1',
      databasePath: './chat-memory.db',
    });
    expect(readChatSettings({ CHAT_PORT: '0' }).port).toBe(0);
    for (const bad of ['eighty', '-1', '1.5', '65536']) {
      expect(() => readChatSettings({ CHAT_PORT: bad })).toThrow(
        `CHAT_PORT: expected an integer from 0 to 65535, got "${bad}"; unset it to use 8787.`,
      );
    }
  });
});

describe('docs/tutorials/chat-assistant.md#what-you-build', () => {
  it('gives each conversation id its own space, escaping a "-" inside an id [claim:tut-space-per-conversation]', () => {
    expect(spaceId('conversation', 'trip')).toBe('conversation-trip');
    expect(spaceId('conversation', 'a-b')).not.toBe(
      spaceId('conversation-a', 'b'),
    );
  });
});

describe('docs/tutorials/chat-assistant.md#the-plugin', () => {
  let server: FakeChatServer | undefined;
  let runtime: Runtime | undefined;
  let directory: string | undefined;
  afterEach(async () => {
    await runtime?.stop();
    await server?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  it('answers 400 naming the conversation id or the text, and asks no model [claim:prod-tutorial-validates] [claim:tut-400-field]', async () => {
    server = await startFakeChatServer();
    directory = mkdtempSync(join(tmpdir(), 'weft-chat-claims-'));
    runtime = await createChatAgent(
      readChatSettings({
        CHAT_BASE_URL: server.baseUrl,
        CHAT_DB: join(directory, 'chat.db'),
        CHAT_PORT: '0',
      }),
      pino({ level: 'silent' }),
    );
    await runtime.start();
    const post = async (conversation: string, body: unknown) => {
      const response = await fetch(
        `${runtime?.server.url}/conversations/${conversation}/messages`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        },
      );
      const json = (await response.json()) as { error: { message: string } };
      return { status: response.status, message: json.error.message };
    };

    const badId = await post('x'.repeat(65), { text: 'hi' });
    expect(badId).toMatchObject({ status: 400 });
    expect(badId.message).toMatch(/^conversation id:/);
    const tooLong = await post('c1', { text: 'x'.repeat(4001) });
    expect(tooLong).toMatchObject({ status: 400 });
    expect(tooLong.message).toMatch(/^text:/);
    expect((await post('c1', {})).status).toBe(400);
    expect(server.requests).toHaveLength(0);
  });
});
