import { InMemoryMemoryProvider } from '@weft/testing';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from '@weft/core';
import { createAgent } from './agent.js';
import { createOpenAIModel } from './openai-model.js';
import { createScriptedModel } from './scripted-model.js';

const logger = pino({ level: 'silent' });

describe('getting started agent', () => {
  let runtime: Runtime | undefined;
  afterEach(async () => {
    await runtime?.stop();
    runtime = undefined;
  });

  it('answers a message over HTTP and remembers the task', async () => {
    const memory = new InMemoryMemoryProvider();
    runtime = await createAgent({
      model: createScriptedModel(),
      memory,
      port: 0,
      logger,
    });
    await runtime.start();

    const response = await fetch(`${runtime.server.url}/messages`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ user: 'ada', text: 'Hello, agent!' }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      taskId: string;
      status: string;
      reply: string;
    };
    expect(body.status).toBe('completed');
    expect(body.reply).toBe('You said "Hello, agent!". Weft is listening.');

    const memories = await memory.query({ space: 'user-ada', order: 'asc' });
    expect(memories.map((m) => m.kind)).toEqual(['trigger', 'chain']);
    expect(memories.every((m) => m.taskId === body.taskId)).toBe(true);
  });

  it('answers 400 when the body has no user or text', async () => {
    runtime = await createAgent({
      model: createScriptedModel(),
      port: 0,
      logger,
    });
    await runtime.start();
    const response = await fetch(`${runtime.server.url}/messages`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'no user' }),
    });
    expect(response.status).toBe(400);
  });

  it('accepts the OpenAI provider in place of the scripted one (no request is sent)', async () => {
    runtime = await createAgent({
      model: createOpenAIModel(),
      port: 0,
      logger,
    });
    expect(runtime.models.providers.map((p) => p.id)).toEqual(['openai']);
    expect(runtime.models.canProvide('text-generation')).toBe(true);
  });
});
