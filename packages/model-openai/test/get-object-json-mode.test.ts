import { Plugin, Runtime, type Executor } from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OpenAIModelProvider } from '../src/index.js';
import { completion, reply, type Handler } from './chat-server.js';
import { chatServerPerTest } from './support/chat-server-per-test.js';

const server = chatServerPerTest();

async function models(jsonMode?: boolean) {
  const runtime = await Runtime.init({
    models: [
      new OpenAIModelProvider({
        baseUrl: server.baseUrl,
        model: 'test-model',
        ...(jsonMode === undefined ? {} : { jsonMode }),
      }),
    ],
    memory: new InMemoryMemoryProvider(),
    plugins: [],
  });
  return runtime.models;
}

interface SentBody {
  response_format?: unknown;
  messages: { role: string; content: string }[];
}

function shownSchema(body: SentBody): Record<string, unknown> {
  const system = body.messages[0]?.content ?? '';
  return JSON.parse(system.slice(system.indexOf('{'))) as Record<string, unknown>;
}

describe('getObject through OpenAIModelProvider', () => {
  it('sends an object schema in json_object mode, as it is [claim:mpo-envelope]', async () => {
    server.enqueue(completion('{"city":"Lyon"}'));
    const value = await (
      await models()
    ).getObject({ schema: z.object({ city: z.string() }), prompt: 'Where?' });
    expect(value).toEqual({ city: 'Lyon' });
    const body = server.requests[0]?.json as SentBody;
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(shownSchema(body)).toMatchObject({ type: 'object', properties: { city: {} } });
  });

  it('sends an array schema inside a { "value": ... } object, so json_object mode can match it [claim:mpo-json-mode] [claim:mpo-envelope] [claim:mpo-json-word-system]', async () => {
    server.enqueue(completion('{"value":[3,1,2]}'));
    const value = await (
      await models()
    ).getObject({ schema: z.array(z.number()), prompt: 'Three numbers.' });
    expect(value).toEqual([3, 1, 2]);
    const body = server.requests[0]?.json as SentBody;
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(body.messages[0]?.role).toBe('system');
    expect(body.messages[0]?.content).toContain('JSON');
    expect(shownSchema(body)).toMatchObject({
      type: 'object',
      properties: { value: { type: 'array', items: { type: 'number' } } },
      required: ['value'],
    });
  });
  it('leaves response_format out with jsonMode: false, and still checks the answer and asks again [claim:tsdoc-openai-json-mode] [claim:mpo-json-mode-off] [claim:oai-json] [claim:go-json-mode]', async () => {
    server.enqueue(completion('Lyon'), completion('{"city":"Lyon"}'));
    const value = await (
      await models(false)
    ).getObject({ schema: z.object({ city: z.string() }), prompt: 'Where?' });
    expect(value).toEqual({ city: 'Lyon' });
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      expect((request.json as SentBody).response_format).toBeUndefined();
    }
  });

  it('plans tasks on a server that refuses json_object, as LM Studio does, only with jsonMode: false [claim:mpo-json-mode-off] [claim:gs-lm-studio-json-mode] [claim:mpi-openai-servers]', async () => {
    // LM Studio's answer to `response_format: { type: 'json_object' }`.
    const lmStudio: Handler = (request, response) => {
      const refused = (request.json as SentBody).response_format !== undefined;
      (refused
        ? reply(400, { error: "'response_format.type' must be 'json_schema' or 'text'" })
        : completion('{"steps":[{"pluginId":"echo","action":"say","input":{}}]}'))(
        request,
        response,
      );
    };
    class Echo extends Plugin {
      readonly id = 'echo';
      readonly description = 'Says something.';
      override readonly executors: Executor[] = [
        { action: 'say', description: 'Says.', execute: async () => ({ success: true }) },
      ];
    }
    const statusWith = async (jsonMode: boolean) => {
      const runtime = await Runtime.init({
        models: [
          new OpenAIModelProvider({
            baseUrl: server.baseUrl,
            model: 'test-model',
            maxRetries: 0,
            jsonMode,
          }),
        ],
        memory: new InMemoryMemoryProvider(),
        plugins: [new Echo()],
      });
      await runtime.start();
      try {
        server.enqueue(lmStudio);
        const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'test', space: 's' });
        return { status: task.status, chain: JSON.stringify(task.chain) };
      } finally {
        await runtime.stop();
      }
    };
    const refused = await statusWith(true);
    expect(refused.status).toBe('failed');
    expect(refused.chain).toContain("'response_format.type' must be 'json_schema' or 'text'");
    expect(await statusWith(false)).toMatchObject({ status: 'completed' });
  });

  it("fails planning with the server's 400, unretried, on a server that refuses json_object, and plans with jsonMode: false [claim:trouble-json-mode-400] [claim:trouble-json-mode-off]", async () => {
    // LM Studio's answer to `response_format: { type: 'json_object' }`.
    const lmStudio: Handler = (request, response) => {
      const refused = (request.json as SentBody).response_format !== undefined;
      (refused
        ? reply(400, { error: "'response_format.type' must be 'json_schema' or 'text'" })
        : completion('{"steps":[{"pluginId":"echo","action":"say","input":{}}]}'))(
        request,
        response,
      );
    };
    class Echo extends Plugin {
      readonly id = 'echo';
      readonly description = 'Says something.';
      override readonly executors: Executor[] = [
        { action: 'say', description: 'Says.', execute: async () => ({ success: true }) },
      ];
    }
    const run = async (jsonMode?: boolean) => {
      const runtime = await Runtime.init({
        models: [
          new OpenAIModelProvider({
            baseUrl: server.baseUrl,
            model: 'test-model',
            ...(jsonMode === undefined ? {} : { jsonMode }),
          }),
        ],
        memory: new InMemoryMemoryProvider(),
        plugins: [new Echo()],
      });
      await runtime.start();
      try {
        server.enqueue(lmStudio, lmStudio, lmStudio);
        return await runtime.dispatch({ pluginId: 'echo', triggerId: 'test', space: 's' });
      } finally {
        await runtime.stop();
      }
    };
    // The default jsonMode, and the provider's default maxRetries: one request, no step.
    const refused = await run();
    expect(refused.status).toBe('failed');
    expect(refused.steps).toHaveLength(0);
    expect(refused.chain.at(-1)).toMatchObject({
      type: 'error',
      pluginId: 'core',
      action: 'plan',
      error:
        "planning failed: OpenAIModelProvider \"openai\": request failed with 400 Bad Request: 'response_format.type' must be 'json_schema' or 'text' [WEFT_OPENAI_HTTP_STATUS]",
    });
    expect(server.requests).toHaveLength(1);
    const planned = await run(false);
    expect(planned.status).toBe('completed');
    expect(server.requests).toHaveLength(2);
    expect((server.requests[1]?.json as SentBody).response_format).toBeUndefined();
  });
});
