import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Runtime } from '@weft/core';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createChatAgent } from './agent.js';
import { loadHistory } from './history.js';
import { createChatModels } from './models.js';
import {
  startFakeChatServer,
  type FakeChatServer,
} from './fake-chat-server.js';
import { readChatSettings, type ChatSettings } from './settings.js';

const logger = pino({ level: 'silent' });

describe('tutorial: chat assistant', () => {
  let server: FakeChatServer;
  let directory: string;
  let settings: ChatSettings;
  let runtime: Runtime | undefined;

  beforeEach(async () => {
    server = await startFakeChatServer();
    directory = mkdtempSync(join(tmpdir(), 'weft-chat-'));
    settings = readChatSettings({
      CHAT_BASE_URL: server.baseUrl,
      CHAT_PLANNER_MODEL: 'small-planner',
      CHAT_WRITER_MODEL: 'large-writer',
      CHAT_DB: join(directory, 'chat.db'),
      CHAT_PORT: '0',
    });
  });

  afterEach(async () => {
    await runtime?.stop();
    runtime = undefined;
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  });

  async function send(conversation: string, text: string) {
    const response = await fetch(
      `${runtime?.server.url}/conversations/${conversation}/messages`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ text }),
      },
    );
    return {
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
    };
  }

  it('plans with the planner model and answers with the writer model: two calls per message [claim:trouble-default-provider] [claim:tut-two-calls] [claim:tut-default-providers] [claim:tut-400-field] [claim:tut-on-failure-cost] [claim:tut-run-panel-writer]', async () => {
    runtime = await createChatAgent(settings, logger);
    await runtime.start();

    const { status, body } = await send('c1', 'Hello there');

    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'completed',
      reply: 'You said "Hello there" after 0 earlier message(s).',
    });
    expect(server.requests.map((request) => request.model)).toEqual([
      'small-planner',
      'large-writer',
    ]);
  });

  it('points both providers at one server, differing only in id, model and temperature [claim:tut-providers-differ]', async () => {
    const [planner, writer] = createChatModels({
      ...settings,
      apiKey: 'sk-same',
    });
    expect([planner?.id, writer?.id]).toEqual(['planner', 'writer']);
    runtime = await createChatAgent({ ...settings, apiKey: 'sk-same' }, logger);
    await runtime.start();
    await send('c1', 'Hello there');
    // Both calls reached the one fake server, with the same key.
    expect(
      server.requests.map(({ model, temperature, authorization }) => ({
        model,
        temperature,
        authorization,
      })),
    ).toEqual([
      {
        model: 'small-planner',
        temperature: 0,
        authorization: 'Bearer sk-same',
      },
      {
        model: 'large-writer',
        temperature: 0.7,
        authorization: 'Bearer sk-same',
      },
    ]);
  });

  it('shows the writer the earlier messages of the same conversation only [claim:tut-conversations-apart] [claim:tut-no-chain-yet]', async () => {
    runtime = await createChatAgent(settings, logger);
    await runtime.start();

    await send('c1', 'My name is Ada.');
    await send('c2', 'A different conversation.');
    const { body } = await send('c1', 'What is my name?');

    expect(body.reply).toBe(
      'You said "What is my name?" after 1 earlier message(s).',
    );
    const lastWriterCall = server.requests.at(-1);
    expect(lastWriterCall?.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
    ]);
    expect(lastWriterCall?.messages[1]?.content).toBe('My name is Ada.');
  });

  it('answers two messages of one conversation sent at once one after the other: the second sees the first [claim:tut-conversations-apart]', async () => {
    runtime = await createChatAgent(settings, logger);
    await runtime.start();

    const replies = await Promise.all([
      send('c1', 'First at once.'),
      send('c1', 'Second at once.'),
    ]);

    // Run side by side, both would read the history before either ended and count 0 earlier.
    expect(
      replies.map(({ body }) => String(body.reply).split(' after ')[1]).sort(),
    ).toEqual(['0 earlier message(s).', '1 earlier message(s).']);
    const writerCalls = server.requests.filter(
      (request) => request.model === 'large-writer',
    );
    expect(writerCalls).toHaveLength(2);
    // The later writer call was shown the earlier exchange, question and reply.
    expect(writerCalls[1]?.messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
    ]);
  });

  it('reads back the newest exchanges up to the limit, in reading order [claim:tut-history-newest]', async () => {
    runtime = await createChatAgent(settings, logger);
    await runtime.start();
    for (const text of ['one', 'two', 'three']) await send('c1', text);
    const [stored] = await runtime.memory.query({ kind: 'chain', limit: 1 });
    const turns = await loadHistory(runtime.memory, stored?.space ?? '', 2);
    expect(
      turns.map(
        ({ role, content }) => `${role}: ${content.split(' after')[0]}`,
      ),
    ).toEqual([
      'user: two',
      'assistant: You said "two"',
      'user: three',
      'assistant: You said "three"',
    ]);
  });

  it('leaves out a task that ended without a reply, which still counts towards the limit', async () => {
    runtime = await createChatAgent(settings, logger);
    await runtime.start();
    for (const text of ['one', 'two']) await send('c1', text);
    const [stored] = await runtime.memory.query({ kind: 'chain', limit: 1 });
    const space = stored?.space ?? '';
    // A later task of the conversation that failed before any reply, as the runtime records it.
    await runtime.memory.store({
      space,
      kind: 'chain',
      content: {
        status: 'failed',
        steps: [],
        chain: [
          {
            type: 'trigger',
            pluginId: 'conversation',
            action: 'message',
            message: 'lost',
          },
          {
            type: 'error',
            pluginId: 'core',
            action: 'plan',
            error: 'planning failed',
          },
        ],
      },
      metadata: {},
    });

    const turns = await loadHistory(runtime.memory, space, 2);
    expect(
      turns.map(
        ({ role, content }) => `${role}: ${content.split(' after')[0]}`,
      ),
    ).toEqual(['user: two', 'assistant: You said "two"']);
  });

  it('keeps conversations in SQLite across a restart [claim:tut-survives-restart]', async () => {
    runtime = await createChatAgent(settings, logger);
    await runtime.start();
    await send('c1', 'Remember the number 42.');
    await runtime.stop();

    runtime = await createChatAgent(settings, logger);
    await runtime.start();
    const { body } = await send('c1', 'Which number?');

    expect(body.reply).toBe(
      'You said "Which number?" after 1 earlier message(s).',
    );
  });

  it('sends the API key as a bearer token when one is set, and none otherwise [claim:tut-empty-key-no-header]', async () => {
    runtime = await createChatAgent({ ...settings, apiKey: 'sk-test' }, logger);
    await runtime.start();
    await send('c1', 'Hi');
    await runtime.stop();
    runtime = await createChatAgent(settings, logger);
    await runtime.start();
    await send('c1', 'Hi again');

    expect(server.requests.map((request) => request.authorization)).toEqual([
      'Bearer sk-test',
      'Bearer sk-test',
      undefined,
      undefined,
    ]);
  });

  it('answers 400 for a message without text and 502 without internals when the model is down [claim:tut-502-no-internals] [claim:tut-run-panel-failing]', async () => {
    runtime = await createChatAgent(settings, logger);
    await runtime.start();
    expect((await send('c1', '')).status).toBe(400);

    await server.close();
    const { status, body } = await send('c1', 'Anyone there?');
    expect(status).toBe(502);
    expect(body.status).toBe('failed');
    expect(JSON.stringify(body)).not.toContain('127.0.0.1');
  });

  it('reads Ollama defaults when no variable is set [claim:tut-bad-port] [claim:tut-ollama-default] [claim:tut-default-models]', () => {
    expect(readChatSettings({})).toMatchObject({
      baseUrl: 'http://localhost:11434/v1',
      apiKey: '',
      plannerModel: 'llama3.2:3b',
      writerModel: 'llama3.1:8b',
      port: 8787,
    });
    expect(() => readChatSettings({ CHAT_PORT: 'eighty' })).toThrow(
      /CHAT_PORT/,
    );
  });
});
