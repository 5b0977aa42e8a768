import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Runtime } from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAgent } from './agent.js';
import { createRealModel } from './real-model.js';

/** What the stand-in server saw of each request. */
const seen: { authorization?: string; model: string; stream?: unknown }[] = [];
let server: Server;
let baseUrl: string;
/** A model the stand-in server does not have, as when it was not pulled. */
const NOT_PULLED = 'not-pulled:1b';

// A stand-in for a chat-completions server on 127.0.0.1. It lists its models, which is how the
// provider's health check reaches it, and answers the plan, the reply and the review by the
// prompt, as a real model would (over HTTP the runtime's `purpose` is not sent).
beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/v1/models') {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end('{"object": "list", "data": []}');
      return;
    }
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      const body = JSON.parse(raw) as {
        model: string;
        messages: { content: string }[];
        stream?: unknown;
      };
      seen.push({
        authorization: request.headers.authorization,
        model: body.model,
        stream: body.stream,
      });
      // As Ollama answers for a model that was never pulled.
      if (body.model === NOT_PULLED) {
        response.writeHead(404, { 'Content-Type': 'application/json' });
        response.end(
          JSON.stringify({
            error: {
              message: `model "${NOT_PULLED}" not found, try pulling it first`,
            },
          }),
        );
        return;
      }
      const prompt = body.messages.map((message) => message.content).join('\n');
      const content = prompt.includes('(PipelineModification)')
        ? '{"type": "stop"}'
        : prompt.includes('(Pipeline)')
          ? '{"steps": [{"pluginId": "assistant", "action": "reply"}]}'
          : 'Hello from a real model.';
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(
        JSON.stringify({
          choices: [{ message: { role: 'assistant', content } }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('switching the getting-started agent to a real model', () => {
  let runtime: Runtime | undefined;
  afterEach(async () => {
    await runtime?.stop();
    runtime = undefined;
    seen.length = 0;
  });

  async function ask(env: NodeJS.ProcessEnv) {
    runtime = await createAgent({
      model: createRealModel(env),
      memory: new InMemoryMemoryProvider(),
      port: 0,
      checkHealthOnStart: true,
      logger: pino({ level: 'silent' }),
    });
    await runtime.start();
    const response = await fetch(`${runtime.server.url}/messages`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ user: 'ada', text: 'Hello' }),
    });
    return (await response.json()) as { status: string; reply: string };
  }

  it('uses OpenAI with the key from OPENAI_API_KEY [claim:gs-real-model] [claim:gs-key-header]', async () => {
    const body = await ask({
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: baseUrl,
    });
    expect(body).toMatchObject({
      status: 'completed',
      reply: 'Hello from a real model.',
    });
    expect(runtime?.models.providers.map((provider) => provider.id)).toEqual([
      'openai',
    ]);
    // Two model calls: the plan and the reply (no review follows a successful last step).
    // The health check's GET /models is not among them.
    expect(seen).toHaveLength(2);
    expect(
      seen.every((request) => request.authorization === 'Bearer sk-test'),
    ).toBe(true);
    expect(seen.every((request) => request.model === 'gpt-4o-mini')).toBe(true);
    // Replies are not streamed (docs/guides/troubleshooting.md): no request asks for it.
    expect(seen.every((request) => request.stream === undefined)).toBe(true);
  });

  it('uses a local Ollama, with no key, when OPENAI_API_KEY is not set [claim:gs-real-model] [claim:gs-key-header] [claim:trouble-real-model-ollama]', async () => {
    const body = await ask({
      OLLAMA_BASE_URL: baseUrl,
      OLLAMA_MODEL: 'llama3.2',
    });
    expect(body).toMatchObject({
      status: 'completed',
      reply: 'Hello from a real model.',
    });
    expect(runtime?.models.providers.map((provider) => provider.id)).toEqual([
      'ollama',
    ]);
    expect(seen.every((request) => request.authorization === undefined)).toBe(
      true,
    );
    expect(seen.every((request) => request.model === 'llama3.2')).toBe(true);
  });

  it('stops the start, naming the provider, when no model server answers [claim:gs-missing-key] [claim:gs-health-on-start] [claim:trouble-real-model-ollama]', async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    await expect(
      ask({ OLLAMA_BASE_URL: `http://127.0.0.1:${port}/v1` }),
    ).rejects.toThrow(
      /^Runtime\.start: model provider "ollama" is not healthy: checkHealth\(\) answered false/,
    );
  });

  it('starts when the server answers but its model was not pulled, and the first message fails [claim:gs-env-first]', async () => {
    runtime = await createAgent({
      model: createRealModel({
        OLLAMA_BASE_URL: baseUrl,
        OLLAMA_MODEL: NOT_PULLED,
      }),
      memory: new InMemoryMemoryProvider(),
      port: 0,
      checkHealthOnStart: true,
      logger: pino({ level: 'silent' }),
    });
    // The health check only asks the server for its models, so the start succeeds.
    await runtime.start();
    const response = await fetch(`${runtime.server.url}/messages`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ user: 'ada', text: 'Hello' }),
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ status: 'failed' });
    expect(seen.map((request) => request.model)).toContain(NOT_PULLED);
  });

  it('picks OpenAI when a key is set and Ollama otherwise [claim:gs-real-model]', () => {
    expect(createRealModel({ OPENAI_API_KEY: 'sk-test' }).id).toBe('openai');
    expect(createRealModel({}).id).toBe('ollama');
  });
});
