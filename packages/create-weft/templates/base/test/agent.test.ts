import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ModelProvider, Runtime } from '@weft/core';
import { ScriptedModelProvider } from '@weft/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '../src/agent.js';
import { createMemory } from '../src/memory.js';
import { createScriptedModel } from '../src/scripted-model.js';

// The agent with its real plugin and memory, and a scripted model so no request leaves the
// machine. Port 0 picks a free port.
describe('the agent', () => {
  let runtime: Runtime | undefined;
  let folder = '';

  afterEach(async () => {
    await runtime?.stop();
    runtime = undefined;
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  async function startAgent(model: ModelProvider = createScriptedModel()): Promise<Runtime> {
    folder = await mkdtemp(path.join(tmpdir(), 'agent-test-'));
    const memory = createMemory({ WEFT_MEMORY_PATH: path.join(folder, 'memory.db') });
    runtime = await createAgent({ model, memory, port: 0 });
    await runtime.start();
    return runtime;
  }

  async function post(agent: Runtime, body: unknown): Promise<Response> {
    return fetch(`${agent.server.url}/messages`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  it('answers a message posted over HTTP and remembers the task', async () => {
    const agent = await startAgent();
    const response = await post(agent, { user: 'ada', text: 'Hello, agent!' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { taskId: string; status: string; reply: string };
    expect(body.status).toBe('completed');
    expect(body.reply).toBe('You said "Hello, agent!". Your Weft agent is listening.');

    const memories = await agent.memory.query({ space: 'user-ada', order: 'asc' });
    expect(memories.map((memory) => memory.kind)).toEqual(['trigger', 'chain']);
    expect(memories.every((memory) => memory.taskId === body.taskId)).toBe(true);
  });

  it('answers 400 when the body has no user', async () => {
    const agent = await startAgent();
    const response = await post(agent, { text: 'Hello' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/^body: needs "user"/);
  });

  it('answers 500 without the error text when the model fails, and names the task', async () => {
    const model = new ScriptedModelProvider({
      fallback: (_messages, request) => {
        if (request.purpose === 'plan') {
          return { steps: [{ pluginId: 'assistant', action: 'reply' }] };
        }
        if (request.purpose === 'review') return { type: 'stop' };
        throw new Error('connect ECONNREFUSED 10.1.2.3:11434');
      },
    });
    const agent = await startAgent(model);
    const response = await post(agent, { user: 'ada', text: 'Hello' });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('ECONNREFUSED');
    expect(JSON.parse(text)).toMatchObject({ status: 'failed', taskId: expect.any(String) });
  });
});
