import { Plugin, Runtime, WeftError, type Executor } from '@weft/core';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  InMemoryMemoryProvider,
  ScriptedModelProvider,
  type ScriptedResponse,
} from '../src/index.js';

// Guards the ScriptedModelProvider section of packages/testing/README.md: a queue holds a plan
// and a text per task, and no review after a last step that succeeded.

class GreeterPlugin extends Plugin {
  readonly id = 'greeter';
  readonly description = 'Greets.';
  override readonly executors: Executor[] = [
    {
      action: 'greet',
      description: 'Greets the user.',
      async execute(_task, context) {
        const text = await context.models.generateText('Greet the user.');
        return { success: true, message: text };
      },
    },
  ];
}

const PLAN = { steps: [{ pluginId: 'greeter', action: 'greet' }] };

let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
});

async function runTwoTasks(responses: ScriptedResponse[]) {
  runtime = await Runtime.init({
    models: [new ScriptedModelProvider({ responses })],
    memory: new InMemoryMemoryProvider(),
    plugins: [new GreeterPlugin()],
    options: { logger: pino({ level: 'silent' }) },
  });
  await runtime.start();
  const tasks = [];
  for (const message of ['Hi', 'Hi again']) {
    tasks.push(
      await runtime.dispatch({ pluginId: 'greeter', triggerId: 'test', space: 'ada', message }),
    );
  }
  return tasks.map((task) => ({ status: task.status, last: task.chain.at(-1)?.message }));
}

describe('a scripted queue across tasks', () => {
  it('answers two tasks with a plan and a text each', async () => {
    expect(await runTwoTasks([PLAN, 'Hello, Ada!', PLAN, 'Hello again!'])).toEqual([
      { status: 'completed', last: 'Hello, Ada!' },
      { status: 'completed', last: 'Hello again!' },
    ]);
  });

  it('reads a review queued after the last step as the next task plan [claim:tsdoc-scripted-queue-review]', async () => {
    const [first, second] = await runTwoTasks([PLAN, 'Hello, Ada!', { type: 'stop' }, PLAN]);
    expect(first).toEqual({ status: 'completed', last: 'Hello, Ada!' });
    expect(second?.status).toBe('failed');
  });

  it('a fallback branching on request.purpose plans and reviews every task (TSDoc example of ScriptedModelProvider) [claim:tsdoc-scripted-fallback-purpose]', async () => {
    const purposes: (string | undefined)[] = [];
    const model = new ScriptedModelProvider({
      fallback: (_messages, request) => {
        purposes.push(request.purpose);
        return request.purpose === 'plan'
          ? {
              steps: [
                { pluginId: 'echo', action: 'reply' },
                { pluginId: 'echo', action: 'reply' },
              ],
            }
          : { type: 'continue' };
      },
    });
    class EchoPlugin extends Plugin {
      readonly id = 'echo';
      readonly description = 'Echoes.';
      override readonly executors: Executor[] = [
        { action: 'reply', description: 'Replies.', execute: async () => ({ success: true }) },
      ];
    }
    runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [new EchoPlugin()],
      options: { logger: pino({ level: 'silent' }) },
    });
    await runtime.start();
    for (const message of ['one', 'two']) {
      const task = await runtime.dispatch({
        pluginId: 'echo',
        triggerId: 't',
        space: 's',
        message,
      });
      expect([task.status, task.steps.length]).toEqual(['completed', 2]);
    }
    // Each two-step task: its plan, and one review after the first step (none after the last).
    expect(purposes).toEqual(['plan', 'review', 'plan', 'review']);
    expect(model.remaining).toBe(0);
  });

  it("a fallback plans from the task's message in request.task (README example) [claim:tst-task-message]", async () => {
    const byMessage = new ScriptedModelProvider({
      fallback: (_messages, request) => {
        if (request.purpose !== 'plan') return { type: 'continue' };
        const action = /\btime\b/i.test(request.task?.message ?? '') ? 'tell-time' : 'greet';
        return { steps: [{ pluginId: 'greeter', action }] };
      },
    });
    class ClockGreeter extends Plugin {
      readonly id = 'greeter';
      readonly description = 'Greets, or tells the time.';
      override readonly executors: Executor[] = [
        { action: 'greet', description: 'Greets.', execute: async () => ({ success: true }) },
        { action: 'tell-time', description: 'Tells.', execute: async () => ({ success: true }) },
      ];
    }
    runtime = await Runtime.init({
      models: [byMessage],
      memory: new InMemoryMemoryProvider(),
      plugins: [new ClockGreeter()],
      options: { logger: pino({ level: 'silent' }) },
    });
    await runtime.start();
    const actions = [];
    for (const message of ['Hi there', 'What time is it?']) {
      const task = await runtime.dispatch({
        pluginId: 'greeter',
        triggerId: 't',
        space: 's',
        message,
      });
      actions.push(task.steps.map((step) => step.action));
    }
    expect(actions).toEqual([['greet'], ['tell-time']]);
  });

  it('keeps the remaining steps when a review finds the queue empty, and the task completes [claim:testing-scripted-exhausted-review]', async () => {
    const lines: { msg?: string; code?: string }[] = [];
    const logger = pino(
      { level: 'warn' },
      { write: (line: string) => lines.push(JSON.parse(line) as { msg?: string; code?: string }) },
    );
    class EchoPlugin extends Plugin {
      readonly id = 'echo';
      readonly description = 'Echoes.';
      override readonly executors: Executor[] = [
        { action: 'reply', description: 'Replies.', execute: async () => ({ success: true }) },
      ];
    }
    // A two-step plan and nothing else: the default policy reviews after the first step.
    const model = new ScriptedModelProvider({
      responses: [
        {
          steps: [
            { pluginId: 'echo', action: 'reply' },
            { pluginId: 'echo', action: 'reply' },
          ],
        },
      ],
    });
    runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [new EchoPlugin()],
      options: { logger },
    });
    await runtime.start();
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 't', space: 's' });
    expect(task.status).toBe('completed');
    expect(task.steps).toHaveLength(2);
    expect(model.requests).toHaveLength(2);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'pipeline review failed; keeping the remaining steps',
        code: 'WEFT_TESTING_SCRIPT_EXHAUSTED',
      }),
    );
  });

  it('throws WEFT_TESTING_SCRIPT_EXHAUSTED for a call made when no response is queued and there is no fallback [claim:tst-readme-script-exhausted]', async () => {
    runtime = await Runtime.init({
      models: [new ScriptedModelProvider({ responses: ['only'] })],
      memory: new InMemoryMemoryProvider(),
      plugins: [new GreeterPlugin()],
      options: { logger: pino({ level: 'silent' }) },
    });
    expect(await runtime.models.generateText('first')).toBe('only');
    const error = await runtime.models.generateText('second').catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_TESTING_SCRIPT_EXHAUSTED')).toBe(true);
  });
});
