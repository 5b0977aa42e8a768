import { spaceId, type Memory, type Runtime } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from './agent.js';
import { createOpenAIModel } from './openai-model.js';
import { createScriptedModel } from './scripted-model.js';

describe('getting started agent', () => {
  let runtime: Runtime | undefined;
  afterEach(async () => {
    await runtime?.stop();
    runtime = undefined;
  });

  async function start(
    options: Partial<Parameters<typeof createAgent>[0]> = {},
  ): Promise<Runtime> {
    runtime = await createAgent({
      model: createScriptedModel(),
      memory: new InMemoryMemoryProvider(),
      port: 0,
      logger: pino({ level: 'silent' }),
      ...options,
    });
    await runtime.start();
    return runtime;
  }

  async function post(agent: Runtime, body: unknown) {
    const response = await fetch(`${agent.server.url}/messages`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.text() };
  }

  it('answers a message over HTTP and remembers the task [claim:gs-reply] [claim:gs-no-stream] [claim:gs-purpose] [claim:gs-what-happened-memories] [claim:gs-what-happened-plan] [claim:testing-port-zero]', async () => {
    const memory = new InMemoryMemoryProvider();
    const agent = await start({ memory });
    const response = await post(agent, { user: 'ada', text: 'Hello, agent!' });
    expect(response.status).toBe(200);
    // One line of JSON, as curl prints it; the page shows it indented.
    expect(response.body).not.toContain('\n');
    const body = JSON.parse(response.body) as {
      taskId: string;
      status: string;
      reply: string;
    };
    expect(body).toEqual({
      taskId: expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      ),
      status: 'completed',
      reply: 'You said "Hello, agent!". Your Weft agent is listening.',
    });

    const memories = await memory.query({ space: 'user-ada', order: 'asc' });
    expect(memories.map((m) => m.kind)).toEqual(['trigger', 'chain']);
    expect(memories.every((m) => m.taskId === body.taskId)).toBe(true);
    // The plan the scripted model answered, kept in the chain memory.
    expect((memories[1]?.content as { steps?: unknown }).steps).toEqual([
      { pluginId: 'assistant', action: 'reply', reason: 'The user wrote.' },
    ]);
  });

  it('answers 400 when the body has no user or text [claim:gs-400]', async () => {
    const agent = await start();
    const response = await post(agent, { text: 'no user' });
    expect(response.status).toBe(400);
    expect(response.body).toMatch(/body: needs \\?"user\\?" and \\?"text\\?"/);
  });

  it('answers 400 naming the problem when no space can hold the user id [claim:gs-user-id-refused]', async () => {
    const agent = await start();
    const refusal = async (user: string) => {
      const response = await post(agent, { user, text: 'Hi' });
      expect(response.status).toBe(400);
      const { error } = JSON.parse(response.body) as {
        error: { code: string; message: string };
      };
      expect(error.code).toBe('WEFT_INVALID_SPACE');
      return error.message;
    };
    // `user-` and 195 letters make 200 characters, the most a space id has.
    expect(
      (await post(agent, { user: 'a'.repeat(195), text: 'Hi' })).status,
    ).toBe(200);
    expect(await refusal('a'.repeat(196))).toMatch(
      /^spaceId: the encoded id is 201 characters, over the limit of 200/,
    );
    // Half of a surrogate pair, as JSON can carry it: no UTF-8 form to encode.
    expect(await refusal('ada\ud800')).toMatch(
      /^spaceId: part 2 holds a UTF-16 surrogate without its pair/,
    );
  });

  it('keeps users apart whatever their ids contain [claim:gs-space-per-user] [claim:gs-test-covers]', async () => {
    const memory = new InMemoryMemoryProvider();
    const agent = await start({ memory });
    // Built by hand as `user-${user}`, the first is not a valid space id and
    // the two would be hard to tell apart; spaceId encodes each.
    for (const user of ['ada lovelace', 'ada_20lovelace']) {
      expect((await post(agent, { user, text: 'Hi' })).status).toBe(200);
    }
    const spaces = [
      spaceId('user', 'ada lovelace'),
      spaceId('user', 'ada_20lovelace'),
    ];
    expect(new Set(spaces).size).toBe(2);
    for (const space of spaces) {
      expect(await memory.query({ space })).toHaveLength(2);
    }
  });

  it('never sends a failed step its error text, and logs it under the task id [claim:gs-500] [claim:gs-500-fixed] [claim:gs-handler-fixed-500] [claim:gs-test-covers] [claim:gs-handler-422] [claim:gs-add-plugin-500] [claim:trouble-500-no-details]', async () => {
    const lines: { taskId?: string; error?: string; msg?: string }[] = [];
    const logger = pino(
      { level: 'warn' },
      { write: (line: string) => lines.push(JSON.parse(line) as never) },
    );
    const model = new ScriptedModelProvider({
      fallback: (_messages, request) => {
        if (request.purpose === 'plan') {
          return { steps: [{ pluginId: 'assistant', action: 'reply' }] };
        }
        if (request.purpose === 'review') return { type: 'stop' };
        throw new Error(
          'connect ECONNREFUSED 10.1.2.3:11434 with key sk-secret',
        );
      },
    });
    const agent = await start({ model, logger });
    const response = await post(agent, { user: 'ada', text: 'Hello' });
    expect(response.status).toBe(500);
    expect(response.body).not.toMatch(/ECONNREFUSED|10\.1\.2\.3|sk-secret/);
    const { taskId, status, error } = JSON.parse(response.body) as Record<
      string,
      string
    >;
    expect(status).toBe('failed');
    expect(error).toBe(
      'The agent could not answer. The server log has the details under this taskId.',
    );
    const logged = lines.find((line) => line.msg === 'step failed');
    expect(logged?.taskId).toBe(taskId);
    expect(logged?.error).toContain('sk-secret');
  });

  it('logs a model server that is down as a failed plan under the task id [claim:gs-500]', async () => {
    const lines: { taskId?: string; error?: string; msg?: string }[] = [];
    const logger = pino(
      { level: 'warn' },
      { write: (line: string) => lines.push(JSON.parse(line) as never) },
    );
    // The plan is the first model call, so a server that is down fails it.
    const model = new ScriptedModelProvider({
      fallback: () => {
        throw new Error('connect ECONNREFUSED 10.1.2.3:11434');
      },
    });
    const agent = await start({ model, logger });
    const response = await post(agent, { user: 'ada', text: 'Hello' });
    expect(response.status).toBe(500);
    expect(response.body).not.toMatch(/ECONNREFUSED|10\.1\.2\.3/);
    const { taskId } = JSON.parse(response.body) as Record<string, string>;
    const logged = lines.find((line) => line.msg === 'task failed');
    expect(logged?.taskId).toBe(taskId);
    expect(logged?.error).toContain('ECONNREFUSED');
    expect(lines.some((line) => line.msg === 'step failed')).toBe(false);
  });

  it('tells the user when the reply could not be stored; later messages still see the message [claim:task-tell-when-unrecorded] [claim:task-chat-warns-unrecorded] [claim:gs-warning] [claim:gs-handler-warning] [claim:gs-test-covers]', async () => {
    // A store that keeps the trigger but fails on the task's chain.
    class FailingChainStore extends InMemoryMemoryProvider {
      override async store(
        memory: Omit<Memory, 'id' | 'createdAt'>,
      ): Promise<Memory> {
        if (memory.kind === 'chain') throw new Error('disk full');
        return super.store(memory);
      }
    }
    const model = createScriptedModel();
    const agent = await start({ model, memory: new FailingChainStore() });
    const response = await post(agent, { user: 'ada', text: 'Hello' });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({
      status: 'completed',
      reply: 'You said "Hello". Your Weft agent is listening.',
      warning:
        'This reply may not have been saved, so the agent may not remember it in later messages.',
    });
    // What the warning says is lost is the reply: the next message's plan is
    // shown the first message, stored when its task started, but not the reply.
    await post(agent, { user: 'ada', text: 'Again' });
    // Each message is one plan and one reply: the third request plans "Again".
    expect(model.requests).toHaveLength(4);
    const nextPlan = JSON.stringify(model.requests[2]);
    expect(nextPlan).toContain('Again');
    expect(nextPlan).toContain('Hello');
    expect(nextPlan).not.toContain('Your Weft agent is listening');
  });

  it('accepts the OpenAI provider in place of the scripted one (no request is sent) [claim:wp-goal-vendors]', async () => {
    runtime = await createAgent({
      model: createOpenAIModel(),
      memory: new InMemoryMemoryProvider(),
      port: 0,
      logger: pino({ level: 'silent' }),
    });
    expect(runtime.models.providers.map((p) => p.id)).toEqual(['openai']);
    expect(runtime.models.canProvide('text-generation')).toBe(true);
  });
});
