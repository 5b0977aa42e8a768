import { Runtime } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { AssistantPlugin } from '../getting-started/assistant-plugin.js';

const logger = pino({ level: 'silent' });

async function agentWith(model: ScriptedModelProvider) {
  const runtime = await Runtime.init({
    models: [model],
    memory: new InMemoryMemoryProvider(),
    plugins: [new AssistantPlugin()],
    // The plugin has a route trigger, so the runtime starts its HTTP server:
    // port 0 lets the system pick a free port, and a test never fails because
    // another server holds the default one.
    options: { logger, pipelineReview: 'never', server: { port: 0 } },
  });
  await runtime.start();
  return runtime;
}

const message = (text: string) => ({
  pluginId: 'assistant',
  triggerId: 'message',
  space: 'user-ada',
  message: text,
});

describe('the scripted model', () => {
  it('runs the agent on a free port, not the default 3000 that a dev server may hold [claim:testing-no-network] [claim:testing-port-zero-runtime]', async () => {
    const runtime = await agentWith(new ScriptedModelProvider());
    const { port } = runtime.server;
    await runtime.stop();
    expect(port).toBeGreaterThan(0);
    expect(port).not.toBe(3000);
  });

  it('answers from its queue in order, objects as JSON, and records each request [claim:testing-no-network] [claim:testing-scripted-queue] [claim:testing-scripted-response-kinds] [claim:testing-scripted-records] [claim:tst-scripted]', async () => {
    const model = new ScriptedModelProvider({
      responses: [
        { steps: [{ pluginId: 'assistant', action: 'reply' }] },
        'Hello, Ada.',
      ],
    });
    const runtime = await agentWith(model);

    const task = await runtime.dispatch(message('Hi'));
    await runtime.stop();

    expect(task.chain.at(-1)?.message).toBe('Hello, Ada.');
    expect(model.remaining).toBe(0);
    expect(model.requests).toHaveLength(2);
    // The plan asks for JSON; the executor's call carries its own options.
    expect(model.requestOptions[0]).toEqual({ json: true });
    expect(model.requestOptions[1]).toEqual({ temperature: 0.3 });
    expect(model.requests[1]?.at(-1)).toEqual({ role: 'user', content: 'Hi' });
  });

  it('fails the task, not the test, when the queue runs dry and there is no fallback [claim:testing-scripted-exhausted] [claim:trouble-script-exhausted] [claim:tst-fallback] [claim:tst-errors] [claim:testing-scripted-exhausted-code] [claim:testing-scripted-exhausted-failure]', async () => {
    const model = new ScriptedModelProvider({
      responses: [{ steps: [{ pluginId: 'assistant', action: 'reply' }] }],
    });
    const runtime = await agentWith(model);

    const task = await runtime.dispatch(message('Hi'));
    await runtime.stop();

    expect(task.status).toBe('failed');
    // The step's model call was the second request: the plan was the first.
    expect(task.chain.at(-1)?.error).toContain(
      'ScriptedModelProvider "scripted": no scripted response left for request #2; enqueue more or set a fallback [WEFT_TESTING_SCRIPT_EXHAUSTED]',
    );
  });

  it('uses a fallback function once the queue is empty, choosing by what was asked [claim:testing-scripted-fallback] [claim:testing-purpose] [claim:tst-fallback]', async () => {
    const model = new ScriptedModelProvider({
      fallback: (messages, request) =>
        request.purpose === 'plan'
          ? { steps: [{ pluginId: 'assistant', action: 'reply' }] }
          : `echo: ${messages.at(-1)?.content}`,
    });
    model.enqueue({ steps: [] });
    const runtime = await agentWith(model);

    const idle = await runtime.dispatch(message('Nothing to do'));
    const busy = await runtime.dispatch(message('Say hi'));
    await runtime.stop();

    expect(idle.steps).toEqual([]);
    expect(busy.chain.at(-1)?.message).toBe('echo: Say hi');
  });
});
