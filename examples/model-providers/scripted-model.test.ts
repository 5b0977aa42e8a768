import { Plugin, Runtime, type Executor } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';

class GreeterPlugin extends Plugin {
  readonly id = 'greeter';
  readonly description = 'Greets people.';
  override readonly executors: Executor[] = [
    {
      action: 'greet',
      description: 'Writes a greeting for the person who wrote.',
      execute: async (task, context) => {
        const text = await context.models.generateText(
          `Greet ${task.trigger.message}`,
          {
            options: { temperature: 0.7 },
          },
        );
        return { success: true, message: text };
      },
    },
  ];
}

describe('ScriptedModelProvider', () => {
  it('answers from a queue, in order, and records every request [claim:testing-scripted-queue] [claim:mpo-scripted-two-requests] [claim:mpo-scripted-queue] [claim:mpo-scripted-members] [claim:mpo-scripted-request-options] [claim:tst-scripted] [claim:wp-scripted-records]', async () => {
    const model = new ScriptedModelProvider({
      responses: [
        { steps: [{ pluginId: 'greeter', action: 'greet' }] }, // the plan (an object is sent as JSON)
        'Hello, Ada!', // the executor's generateText call; no review follows a successful last step
      ],
    });
    const runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [new GreeterPlugin()],
      options: { logger: pino({ level: 'silent' }) },
    });
    await runtime.start();
    const task = await runtime.dispatch({
      pluginId: 'greeter',
      triggerId: 'test',
      space: 'people',
      message: 'Ada',
    });
    await runtime.stop();

    expect(task.chain.at(-1)?.message).toBe('Hello, Ada!');
    expect(model.remaining).toBe(0);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]).toEqual([{ role: 'user', content: 'Greet Ada' }]);
    // The plan asked for JSON; the executor set its own temperature.
    expect(model.requestOptions).toEqual([
      { json: true },
      { temperature: 0.7 },
    ]);
  });

  it('computes an answer with a function, and fails clearly when the queue is empty [claim:testing-scripted-response-kinds] [claim:mpo-scripted-fallback] [claim:mpo-scripted-members]', async () => {
    const model = new ScriptedModelProvider({
      responses: [(messages) => messages.at(-1)!.content.toUpperCase()],
    });
    const [generate] = model.capabilities;
    expect(
      await generate!.run(
        { messages: [{ role: 'user', content: 'quiet' }] },
        {},
      ),
    ).toEqual({
      text: 'QUIET',
    });
    await expect(
      generate!.run({ messages: [{ role: 'user', content: 'again' }] }, {}),
    ).rejects.toThrow(
      'ScriptedModelProvider "scripted": no scripted response left for request #2; enqueue more or set a fallback [WEFT_TESTING_SCRIPT_EXHAUSTED]',
    );
    model.enqueue('later');
    expect(
      await generate!.run(
        { messages: [{ role: 'user', content: 'again' }] },
        {},
      ),
    ).toEqual({
      text: 'later',
    });
  });
});
