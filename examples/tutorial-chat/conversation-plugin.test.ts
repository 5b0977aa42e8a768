/** The tutorial's conversation plugin: one space per conversation, and the checks of its route. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Runtime, spaceId } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { OpenAIModelProvider } from '@weft/model-openai';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createChatAgent } from './agent.js';
import { ConversationPlugin } from './conversation-plugin.js';
import { PLANNER_ID, WRITER_ID } from './models.js';
import {
  startFakeChatServer,
  type FakeChatServer,
} from './fake-chat-server.js';
import { readChatSettings } from './settings.js';

describe('the conversation spaces', () => {
  it('gives each conversation id its own space, escaping a "-" inside an id [claim:tut-space-per-conversation]', () => {
    expect(spaceId('conversation', 'trip')).toBe('conversation-trip');
    expect(spaceId('conversation', 'a-b')).not.toBe(
      spaceId('conversation-a', 'b'),
    );
  });
});

describe('the conversation route', () => {
  let server: FakeChatServer | undefined;
  let runtime: Runtime | undefined;
  let directory: string | undefined;
  afterEach(async () => {
    await runtime?.stop();
    await server?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  /** Starts the tutorial's agent on a free port, its database in a temporary folder. */
  async function startAgent(
    modelUrl: string,
    logger = pino({ level: 'silent' }),
  ): Promise<Runtime> {
    directory = mkdtempSync(join(tmpdir(), 'weft-chat-claims-'));
    const agent = await createChatAgent(
      readChatSettings({
        CHAT_BASE_URL: modelUrl,
        CHAT_DB: join(directory, 'chat.db'),
        CHAT_PORT: '0',
      }),
      logger,
    );
    await agent.start();
    return agent;
  }

  /** Posts a body, as it is written, to a conversation's messages. */
  const postBody = (agent: Runtime, conversation: string, body: string) =>
    fetch(`${agent.server.url}/conversations/${conversation}/messages`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
    });

  it('answers 400 naming the conversation id or the text, and asks no model [claim:prod-tutorial-validates] [claim:tut-400-field]', async () => {
    server = await startFakeChatServer();
    runtime = await startAgent(server.baseUrl);
    const agent = runtime;
    const post = async (conversation: string, body: unknown) => {
      const response = await postBody(
        agent,
        conversation,
        JSON.stringify(body),
      );
      const json = (await response.json()) as { error?: { message: string } };
      return { status: response.status, message: json.error?.message };
    };

    // An id one character longer than its space can hold is refused by the plugin's own check,
    // which names the field, rather than by spaceId.
    for (const id of ['x'.repeat(63), '-'.repeat(63), '_'.repeat(64)]) {
      const badId = await post(id, { text: 'hi' });
      expect(badId).toMatchObject({ status: 400 });
      expect(badId.message).toMatch(/^conversation id:/);
    }
    const tooLong = await post('c1', { text: 'x'.repeat(4001) });
    expect(tooLong).toMatchObject({ status: 400 });
    expect(tooLong.message).toMatch(/^text:/);
    expect((await post('c1', {})).status).toBe(400);
    expect(server.requests).toHaveLength(0);
    // The longest id, escaped "-" and all, still makes a space, and is answered.
    expect((await post('-'.repeat(62), { text: 'hi' })).status).toBe(200);
  });

  it('counts the text in characters, as its 400 says: 4000 emoji are taken, 4001 are not', async () => {
    server = await startFakeChatServer();
    runtime = await startAgent(server.baseUrl);
    const send = (text: string) =>
      postBody(runtime as Runtime, 'c1', JSON.stringify({ text }));

    const over = await send('😀'.repeat(4001));
    const body = (await over.json()) as { error: { message: string } };
    expect(over.status).toBe(400);
    expect(body.error.message).toBe(
      'text: send a JSON body {"text": "..."} of 1 to 4000 characters',
    );
    expect(server.requests).toHaveLength(0);
    // 4000 characters, 8000 UTF-16 units: within the limit the answer gives.
    expect((await send('😀'.repeat(4000))).status).toBe(200);
  });

  it('refuses a text that no memory store can hold with 400 naming text, which dispatch would refuse too, with WEFT_INVALID_EVENT [claim:tut-400-unstorable]', async () => {
    server = await startFakeChatServer();
    runtime = await startAgent(server.baseUrl);
    const agent = runtime;

    // A NUL character, a lone high surrogate and a lone low surrogate, as JSON escapes them.
    for (const text of ['a \\u0000 b', '\\ud800 hi', 'hi \\udc00']) {
      const response = await postBody(agent, 'c1', `{"text": "${text}"}`);
      const body = (await response.json()) as { error: { message: string } };
      expect({ text, status: response.status }).toEqual({ text, status: 400 });
      expect(body.error.message).toMatch(/^text: .*no memory store can hold/);
      // Without the route's check, the runtime refuses such a message itself, before any model call.
      const message = JSON.parse(`"${text}"`) as string;
      await expect(
        agent.dispatch({
          pluginId: 'conversation',
          triggerId: 'message',
          space: spaceId('conversation', 'c1'),
          message,
        }),
      ).rejects.toMatchObject({ code: 'WEFT_INVALID_EVENT', status: 400 });
    }
    expect(server.requests).toHaveLength(0);
    expect(await agent.memory.query({})).toEqual([]);

    // A surrogate pair is a character like any other: answered and remembered.
    const emoji = await postBody(
      agent,
      'c1',
      JSON.stringify({ text: 'hi 😀' }),
    );
    expect(emoji.status).toBe(200);
    expect(
      (await agent.memory.query({ kind: 'chain' })).map(
        (stored) =>
          (stored.content as { chain: { message?: string }[] }).chain[0]
            ?.message,
      ),
    ).toEqual(['hi 😀']);
  });

  it('leaves a body that is not JSON of an object or array to the server, which answers 400 WEFT_BAD_REQUEST before the trigger runs [claim:tut-400-not-json]', async () => {
    server = await startFakeChatServer();
    runtime = await startAgent(server.baseUrl);

    // One that does not parse, and JSON that is a bare string, number, boolean or null.
    for (const sent of [
      '{"text": "no closing brace"',
      '"hello"',
      '42',
      'true',
      'false',
      'null',
    ]) {
      const response = await postBody(runtime, 'c1', sent);
      const body = (await response.json()) as {
        error: { code?: string; message: string };
      };

      expect({ sent, status: response.status }).toEqual({ sent, status: 400 });
      expect(body.error.code).toBe('WEFT_BAD_REQUEST');
      // Not the trigger's own answer, which names a field and carries no code.
      expect(body.error.message).not.toMatch(/^(text|conversation id):/);
    }
    expect(server.requests).toHaveLength(0);
    expect(await runtime.memory.query({})).toEqual([]);
  });

  it("leaves an object nested deeper than the server's 64 levels to the server, which answers 400 WEFT_BAD_REQUEST before the trigger runs [claim:tut-400-too-deep]", async () => {
    server = await startFakeChatServer();
    runtime = await startAgent(server.baseUrl);
    // A valid text beside a value of 64 or 65 levels in all, the body's own object included.
    const nested = (levels: number) =>
      `{"text": "hello", "extra": ${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;

    const deep = await postBody(runtime, 'c1', nested(65));
    const body = (await deep.json()) as {
      error: { code?: string; message: string };
    };
    expect(deep.status).toBe(400);
    expect(body.error.code).toBe('WEFT_BAD_REQUEST');
    expect(body.error.message).toMatch(/64 levels/);
    expect(server.requests).toHaveLength(0);
    expect(await runtime.memory.query({})).toEqual([]);

    // At the limit, the body reaches the trigger, which answers it.
    const atLimit = await postBody(runtime, 'c1', nested(64));
    expect(atLimit.status).toBe(200);
  });

  it('leaves a body in a charset the server does not decode to the server, which answers 415 WEFT_BAD_REQUEST before the trigger runs [claim:tut-415-charset]', async () => {
    server = await startFakeChatServer();
    runtime = await startAgent(server.baseUrl);

    const response = await fetch(
      `${runtime.server.url}/conversations/c1/messages`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json; charset=latin1' },
        body: '{"text": "hello"}',
      },
    );
    const body = (await response.json()) as { error: { code?: string } };
    expect(response.status).toBe(415);
    expect(body.error.code).toBe('WEFT_BAD_REQUEST');
    expect(server.requests).toHaveLength(0);
    expect(await runtime.memory.query({})).toEqual([]);
  });

  it("leaves a body over the server's 1mb limit to the server, which answers 413 WEFT_BAD_REQUEST before the trigger runs [claim:tut-413-body-limit]", async () => {
    server = await startFakeChatServer();
    runtime = await startAgent(server.baseUrl);
    const mb = 1024 * 1024;
    const bodyOf = (bytes: number) =>
      JSON.stringify({ text: 'x'.repeat(bytes - '{"text":""}'.length) });

    const over = await postBody(runtime, 'c1', bodyOf(mb + 1));
    const answer = (await over.json()) as { error: { code?: string } };
    expect(over.status).toBe(413);
    expect(answer.error.code).toBe('WEFT_BAD_REQUEST');
    // At the limit, the body reaches the trigger, which refuses the text's length.
    const at = await postBody(runtime, 'c1', bodyOf(mb));
    expect(at.status).toBe(400);
    expect(
      ((await at.json()) as { error: { message: string } }).error.message,
    ).toMatch(/^text:/);
    expect(server.requests).toHaveLength(0);
  });

  it('leaves a body of another type unread, whatever its size, and takes an empty JSON body for {}: the trigger finds no text and answers 400 naming it [claim:tut-400-no-json-body]', async () => {
    server = await startFakeChatServer();
    runtime = await startAgent(server.baseUrl);
    const url = `${runtime.server.url}/conversations/c1/messages`;
    // Twice the JSON body limit: sent as JSON it would get 413 before the trigger.
    const overLimit = 'x'.repeat(2 * 1024 * 1024);

    for (const [type, body] of [
      // What `curl -d '{"text": "hi"}'` sends without -H: valid JSON, typed as a form.
      ['application/x-www-form-urlencoded', '{"text": "hi"}'],
      ['text/plain', 'hi'],
      ['text/plain', overLimit],
      [undefined, 'hi'],
      [undefined, overLimit],
      ['application/json', ''],
    ] as const) {
      const response = await fetch(url, {
        method: 'POST',
        headers: type === undefined ? {} : { 'Content-Type': type },
        body,
      });
      const answer = (await response.json()) as {
        error: { code?: string; message: string };
      };
      expect({ type, size: body.length, status: response.status }).toEqual({
        type,
        size: body.length,
        status: 400,
      });
      // The trigger's own answer: it names the field and carries no code.
      expect(answer.error.message).toMatch(/^text:/);
      expect(answer.error.code).toBeUndefined();
    }
    expect(server.requests).toHaveLength(0);
  });

  it('keeps each conversation in the space spaceId("conversation", id) builds [claim:tut-space-per-conversation]', async () => {
    server = await startFakeChatServer();
    runtime = await startAgent(server.baseUrl);

    for (const id of ['trip', 'a-b', 'trip-2027']) {
      const response = await postBody(
        runtime,
        id,
        JSON.stringify({ text: 'hi' }),
      );
      expect(response.status).toBe(200);
    }

    const spaces = new Set(
      (await runtime.memory.query({})).map((stored) => stored.space),
    );
    expect(spaces).toEqual(
      new Set([
        'conversation-trip',
        'conversation-a_2db',
        // The route's :id took the whole "trip-2027".
        'conversation-trip_2d2027',
      ]),
    );
  });

  it('answers 502 with a short message, the task id and status when the model is down, and writes the details to the log, without a code [claim:tut-502-no-internals] [claim:errors-502-cause] [claim:errors-502-code]', async () => {
    server = await startFakeChatServer();
    const modelUrl = server.baseUrl;
    await server.close();
    const lines: string[] = [];
    const logger = pino(
      { level: 'warn' },
      { write: (line: string) => void lines.push(line) },
    );
    runtime = await startAgent(modelUrl, logger);

    const response = await postBody(
      runtime,
      'c1',
      JSON.stringify({ text: 'Anyone there?' }),
    );
    const body = (await response.json()) as {
      taskId: string;
      status: string;
      error: { message: string };
    };

    expect(response.status).toBe(502);
    expect(body).toMatchObject({
      taskId: expect.any(String),
      status: 'failed',
    });
    expect(body.error.message).toBe(
      'The assistant could not answer; try again.',
    );
    expect(body.error).not.toHaveProperty('code');
    const host = new URL(modelUrl).host;
    expect(JSON.stringify(body)).not.toContain(host);
    const noReply = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((entry) => entry.msg === 'conversation: no reply');
    expect(noReply).toMatchObject({ taskId: body.taskId, status: 'failed' });
    // The log keeps what the client is not told: the model server's address.
    expect(JSON.stringify(noReply)).toContain(host);
  });

  it("stores the task's status, steps and chain: the user's message first, the reply in the answer result [claim:tut-chain-memory-content]", async () => {
    server = await startFakeChatServer();
    runtime = await startAgent(server.baseUrl);
    const response = await postBody(
      runtime,
      'c1',
      JSON.stringify({ text: 'Hello there' }),
    );
    const body = (await response.json()) as { taskId: string; reply: string };

    const [stored] = await runtime.memory.query({ kind: 'chain' });
    const content = stored?.content as {
      status: string;
      steps: { pluginId: string; action: string }[];
      chain: { type: string; action: string; message?: string }[];
    };
    expect(stored?.taskId).toBe(body.taskId);
    expect(content.status).toBe('completed');
    expect(content.steps).toMatchObject([
      { pluginId: 'conversation', action: 'answer' },
    ]);
    expect(content.chain[0]).toMatchObject({
      type: 'trigger',
      message: 'Hello there',
    });
    expect(
      content.chain.find(
        (item) => item.type === 'result' && item.action === 'answer',
      )?.message,
    ).toBe(body.reply);
  });

  it("shows the planner the answer executor's description each time it plans, as it is then [claim:tut-description-every-plan]", async () => {
    server = await startFakeChatServer();
    const model = server;
    runtime = await startAgent(model.baseUrl);
    const agent = runtime;
    const send = (text: string) =>
      postBody(agent, 'c1', JSON.stringify({ text }));
    // The planning request of the latest message: the planner model's latest call.
    const planningPrompt = () =>
      model.requests
        .filter((request) => request.model === 'llama3.2:3b')
        .at(-1)
        ?.messages.map((message) => message.content)
        .join('\n');

    expect((await send('First')).status).toBe(200);
    expect(planningPrompt()).toContain(
      'Use it as the only step for every message.',
    );
    // Changed between two messages: the next plan reads the new text.
    const executor = agent.plugins.getExecutor('conversation', 'answer');
    (executor as { description: string }).description =
      'Replies to the user. Plan it once per message.';
    expect((await send('Second')).status).toBe(200);
    expect(planningPrompt()).toContain('Plan it once per message.');
    expect(planningPrompt()).not.toContain('Use it as the only step');
  });
});

describe('the answer step when the memory store hangs', () => {
  let runtime: Runtime | undefined;
  afterEach(async () => {
    await runtime?.stop();
    runtime = undefined;
  });

  it("fails, since it reads the conversation's history itself, when a hung store holds the memory's slots [claim:prod-shared-memory-step]", async () => {
    class HungMemory extends InMemoryMemoryProvider {
      override store(memory: Parameters<InMemoryMemoryProvider['store']>[0]) {
        return memory.space === spaceId('conversation', 'stuck')
          ? new Promise<never>(() => undefined)
          : super.store(memory);
      }
    }
    const started = await Runtime.init({
      models: [
        new ScriptedModelProvider({
          fallback: { steps: [{ pluginId: 'conversation', action: 'answer' }] },
        }),
      ],
      memory: new HungMemory(),
      plugins: [new ConversationPlugin({ writerProvider: 'scripted' })],
      options: {
        logger: pino({ level: 'silent' }),
        shutdown: 'cancel',
        pipelineReview: 'never',
        bulkhead: { limits: { 'memory:in-memory': 1 }, maxWaitMs: 100 },
      },
    });
    runtime = started;
    await started.start();
    const message = (id: string) =>
      started.dispatch({
        pluginId: 'conversation',
        triggerId: 'message',
        space: spaceId('conversation', id),
        message: 'Hello',
      });
    // Its trigger's write never returns, and holds the memory's only slot.
    message('stuck').catch(() => undefined);
    const task = await message('c1');
    expect(task.status).toBe('failed');
    const failed = task.chain.find((item) => item.type === 'error');
    expect(failed).toMatchObject({
      pluginId: 'conversation',
      action: 'answer',
    });
    expect(failed?.error).toContain('[WEFT_BULKHEAD_FULL]');
  });
});

describe("the agent's database", () => {
  let runtime: Runtime | undefined;
  let server: FakeChatServer | undefined;
  let directory: string | undefined;
  afterEach(async () => {
    await runtime?.stop();
    await server?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  it("takes another program's SQLite file that has no memories table and no schema version, adding its table beside the program's [claim:tut-db-other-program-adopted]", async () => {
    server = await startFakeChatServer();
    directory = mkdtempSync(join(tmpdir(), 'weft-chat-shared-db-'));
    const file = join(directory, 'app.db');
    const app = new Database(file);
    app.exec(
      "CREATE TABLE users (name TEXT); INSERT INTO users VALUES ('ada')",
    );
    app.close();

    runtime = await createChatAgent(
      readChatSettings({
        CHAT_BASE_URL: server.baseUrl,
        CHAT_DB: file,
        CHAT_PORT: '0',
      }),
      pino({ level: 'silent' }),
    );
    await runtime.start();
    const response = await fetch(
      `${runtime.server.url}/conversations/c1/messages`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ text: 'Hello' }),
      },
    );
    expect(response.status).toBe(200);
    await runtime.stop();
    runtime = undefined;

    const shared = new Database(file, { readonly: true });
    try {
      const tables = shared
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .pluck()
        .all();
      expect(tables).toEqual(expect.arrayContaining(['users', 'memories']));
      expect(shared.prepare('SELECT name FROM users').pluck().all()).toEqual([
        'ada',
      ]);
    } finally {
      shared.close();
    }
  });
});

describe('a server that refuses response_format, as LM Studio does', () => {
  let runtime: Runtime | undefined;
  let server: FakeChatServer | undefined;
  let refusing: Server | undefined;
  let directory: string | undefined;
  afterEach(async () => {
    await runtime?.stop();
    await server?.close();
    const held = refusing;
    refusing = undefined;
    if (held) {
      held.closeAllConnections();
      await new Promise((resolve) => held.close(resolve));
    }
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  it("gets a planning request it refuses, so every message is answered 502, until jsonMode: false joins models.ts's shared options [claim:tut-lm-studio-json-mode]", async () => {
    const fake = await startFakeChatServer();
    server = fake;
    // 400 to response_format json_object, as docs/model-providers/overview.md says LM Studio
    // answers; any other request goes on to the stand-in.
    const formats: unknown[] = [];
    const lmStudio = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const format = (JSON.parse(body) as { response_format?: unknown })
          .response_format;
        formats.push(format);
        if (
          (format as { type?: unknown } | undefined)?.type === 'json_object'
        ) {
          response.writeHead(400, { 'Content-Type': 'application/json' });
          response.end(
            JSON.stringify({
              error: "'response_format.type' must be 'json_schema' or 'text'",
            }),
          );
          return;
        }
        void fetch(`${fake.baseUrl}/chat/completions`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body,
        }).then(async (answer) => {
          response.writeHead(answer.status, {
            'Content-Type': 'application/json',
          });
          response.end(await answer.text());
        });
      });
    });
    refusing = lmStudio;
    await new Promise<void>((resolve) =>
      lmStudio.listen(0, '127.0.0.1', resolve),
    );
    const baseUrl = `http://127.0.0.1:${(lmStudio.address() as AddressInfo).port}/v1`;
    const send = async (agent: Runtime) =>
      (
        await fetch(`${agent.server.url}/conversations/c1/messages`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ text: 'Hello' }),
        })
      ).status;

    // The tutorial's agent as it is: the planner's request carries the field, and is refused.
    directory = mkdtempSync(join(tmpdir(), 'weft-chat-lm-studio-'));
    runtime = await createChatAgent(
      readChatSettings({
        CHAT_BASE_URL: baseUrl,
        CHAT_DB: join(directory, 'chat.db'),
        CHAT_PORT: '0',
      }),
      pino({ level: 'silent' }),
    );
    await runtime.start();
    expect(await send(runtime)).toBe(502);
    expect(formats[0]).toEqual({ type: 'json_object' });
    expect(fake.requests).toHaveLength(0);
    await runtime.stop();

    // models.ts's providers with jsonMode: false in their shared options: answered.
    expect(
      readFileSync(new URL('./models.ts', import.meta.url), 'utf8'),
    ).toMatch(/const shared = \{\n\s+baseUrl: settings\.baseUrl,/);
    const shared = { baseUrl, jsonMode: false };
    runtime = await Runtime.init({
      models: [
        new OpenAIModelProvider({
          ...shared,
          id: PLANNER_ID,
          model: 'llama3.2:3b',
          defaultTemperature: 0,
        }),
        new OpenAIModelProvider({
          ...shared,
          id: WRITER_ID,
          model: 'llama3.1:8b',
          defaultTemperature: 0.7,
        }),
      ],
      memory: new InMemoryMemoryProvider(),
      plugins: [new ConversationPlugin({ writerProvider: WRITER_ID })],
      options: {
        defaultProviders: { 'text-generation': PLANNER_ID },
        pipelineReview: 'on-failure',
        server: { port: 0 },
        logger: pino({ level: 'silent' }),
      },
    });
    await runtime.start();
    expect(await send(runtime)).toBe(200);
    expect(fake.requests.map((request) => request.model)).toEqual([
      'llama3.2:3b',
      'llama3.1:8b',
    ]);
  });
});
