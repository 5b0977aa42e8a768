import { Runtime } from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OpenAIModelProvider } from '../src/index.js';
import { completion } from './chat-server.js';
import { chatServerPerTest } from './support/chat-server-per-test.js';

const server = chatServerPerTest();

async function models() {
  const runtime = await Runtime.init({
    models: [new OpenAIModelProvider({ baseUrl: server.baseUrl, model: 'test-model' })],
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
});
