/**
 * What a task shows the model: the trigger and the executors in the planning prompt, the chain
 * and the remaining steps in the review prompt, from the core templates no plugin can replace.
 */
import { type Runtime } from '@weft/core';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRuntime, plan, recordingExecutor, startedRuntime, TestPlugin } from './fixtures.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.stop()));
});

describe('the planning prompt', () => {
  it('shows the space id and description, the trigger, its message and its data as JSON [claim:task-planner-sees-trigger] [claim:wp-planning-prompt] [claim:trig-dispatch-message]', async () => {
    const { runtime, model } = await startedRuntime({
      responses: { fallback: { steps: [] } },
    });
    await runtime.dispatch({
      pluginId: 'echo',
      triggerId: 'incoming',
      space: { id: 'desk-7', description: 'the help desk' },
      message: 'printer on fire',
      data: { floor: 3, urgent: true },
    });
    const prompt = model.requests[0]?.map((message) => message.content).join('\n') ?? '';
    expect(prompt).toContain('Space: desk-7 (the help desk)');
    expect(prompt).toContain('Trigger: echo/incoming');
    expect(prompt).toContain('Message: printer on fire');
    expect(prompt).toContain('Data: {"floor":3,"urgent":true}');
  });

  it('shows the trigger data as JSON, and dispatch refuses data with no JSON form before any planning [claim:task-planner-sees-trigger] [claim:task-cost-one-plan]', async () => {
    const { runtime, model } = await startedRuntime({
      responses: { fallback: { steps: [] } },
    });
    const task = await runtime.dispatch({
      pluginId: 'echo',
      triggerId: 'incoming',
      space: 'desk-8',
      message: 'count this',
      data: { count: 12 },
    });
    expect(model.requests).toHaveLength(1);
    const prompt = model.requests[0]?.map((message) => message.content).join('\n') ?? '';
    expect(prompt).toContain('Message: count this');
    expect(prompt).toContain('"count":12');
    expect(task.status).toBe('completed');
    await expect(
      runtime.dispatch({
        pluginId: 'echo',
        triggerId: 'incoming',
        space: 'desk-8',
        data: () => 12,
      }),
    ).rejects.toMatchObject({ code: 'WEFT_INVALID_EVENT' });
    expect(model.requests).toHaveLength(1);
  });

  it("shows the step limit, and a pipeline's JSON Schema in getObject's system prompt [claim:task-planner-sees-limit-schema]", async () => {
    const { runtime, model } = await startedRuntime({
      responses: { fallback: { steps: [] } },
      options: { maxSteps: 4 },
    });
    await runtime.dispatch({ pluginId: 'echo', triggerId: 'test', space: 'schema' });
    const [system, prompt] = model.requests[0] ?? [];
    expect(system?.role).toBe('system');
    expect(system?.content).toContain('It must match this JSON Schema (Pipeline):');
    const schema = JSON.parse(system?.content.split('(Pipeline):\n')[1] ?? '{}') as {
      properties?: { steps?: { items?: { required?: string[] } } };
    };
    expect(schema.properties?.steps?.items?.required).toEqual(['pluginId', 'action']);
    expect(prompt?.content).toContain('Answer with at most 4 steps');
  });

  it('lists every executor in the order the plugins were configured [claim:philo-compose] [claim:task-planner-sees-executors-in-order] [claim:task-every-executor-offered] [claim:prod-every-executor-offered] [claim:prod-no-executor-limit] [claim:prod-only-given-plugins] [claim:core-readme-plugins-order] [claim:wp-planning-prompt] [claim:wp-limits-design]', async () => {
    const { runtime, model } = await startedRuntime({
      plugins: [
        new TestPlugin('zeta', { executors: [recordingExecutor('last-letter')] }),
        new TestPlugin('alpha', {
          executors: [recordingExecutor('first-letter'), recordingExecutor('second')],
        }),
      ],
      responses: { fallback: { steps: [] } },
    });
    await runtime.dispatch({ pluginId: 'alpha', triggerId: 'test', space: 'order' });
    const prompt = model.requests[0]?.map((message) => message.content).join('\n') ?? '';
    const positions = [
      'pluginId "zeta", action "last-letter"',
      'pluginId "alpha", action "first-letter"',
      'pluginId "alpha", action "second"',
    ].map((line) => prompt.indexOf(line));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });
});

describe('the review prompt', () => {
  it('shows the chain so far, the remaining steps and how many more steps may run [claim:task-review-answers] [claim:task-max-steps-in-prompts] [claim:task-review-prompt-contents]', async () => {
    const { runtime, model } = await makeRuntime({
      plugins: [
        new TestPlugin('work', {
          executors: [
            recordingExecutor('first', { success: true, data: { found: 'slot 9' } }),
            recordingExecutor('second'),
          ],
        }),
      ],
      responses: {
        responses: [plan(['work', 'first'], ['work', 'second']), { type: 'continue' }],
      },
      options: { maxSteps: 4 },
    });
    runtimes.push(runtime);
    await runtime.start();
    await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'review' });

    const review = model.requests[1]?.map((message) => message.content).join('\n') ?? '';
    expect(review).toContain('(PipelineModification)');
    expect(review).toContain('result from work/first: {"found":"slot 9"}');
    expect(review).toMatch(/## Remaining steps\n- work\/second/);
    expect(review).toContain('3 more steps may run');
  });
});

describe('the review after a failed step', () => {
  it("shows the model the step's error, and its stop or replace acts on the remaining steps [claim:exec-review-after-failure] [claim:philo-failure-item] [claim:task-failed-step-continues]", async () => {
    const run = async (review: Record<string, unknown>) => {
      const book = recordingExecutor('book');
      const ask = recordingExecutor('ask-another-day');
      const { runtime, model } = await makeRuntime({
        plugins: [
          new TestPlugin('calendar', {
            executors: [
              recordingExecutor('find-slot', {
                success: false,
                error: 'no free 60-minute slot on 2025-03-04',
              }),
              book,
              ask,
            ],
          }),
        ],
        responses: {
          responses: [plan(['calendar', 'find-slot'], ['calendar', 'book']), review],
        },
      });
      runtimes.push(runtime);
      await runtime.start();
      const task = await runtime.dispatch({ pluginId: 'calendar', triggerId: 'test', space: 'r' });
      const prompt = model.requests[1]?.map((message) => message.content).join('\n') ?? '';
      return { task, prompt, book, ask };
    };

    const stopped = await run({ type: 'stop' });
    expect(stopped.prompt).toContain(
      'error from calendar/find-slot: no free 60-minute slot on 2025-03-04',
    );
    expect(stopped.book.calls).toHaveLength(0);
    expect(stopped.task.steps.map((step) => step.action)).toEqual(['find-slot']);
    expect(stopped.task.status).toBe('failed');

    const replaced = await run({
      type: 'replace',
      steps: [{ pluginId: 'calendar', action: 'ask-another-day' }],
    });
    expect(replaced.book.calls).toHaveLength(0);
    expect(replaced.ask.calls).toHaveLength(1);
    expect(replaced.task.steps.map((step) => step.action)).toEqual([
      'find-slot',
      'ask-another-day',
    ]);
    // The replacement succeeded, and the task still failed: a step of it did.
    expect(replaced.task.status).toBe('failed');
  });

  it("shows the review a successful step's data and a failed step's error, not its data, which later steps read from the chain [claim:exec-data-model-sees] [claim:exec-failure-data-not-reviewed] [claim:tsdoc-plugin-result-data]", async () => {
    const wanted = { date: '2025-03-04', minutes: 60 };
    const seen: unknown[] = [];
    const { runtime, model } = await makeRuntime({
      plugins: [
        new TestPlugin('calendar', {
          executors: [
            recordingExecutor('read', { success: true, data: { calendar: 'work' } }),
            recordingExecutor('find-slot', {
              success: false,
              data: wanted,
              error: 'no free 60-minute slot on 2025-03-04',
            }),
            recordingExecutor('ask-another-day', (_task, context) => {
              seen.push(context.chain.at(-1)?.data);
              return { success: true, message: 'Asked.' };
            }),
          ],
        }),
      ],
      responses: {
        responses: [
          plan(['calendar', 'read'], ['calendar', 'find-slot'], ['calendar', 'ask-another-day']),
          { type: 'continue' },
          { type: 'continue' },
        ],
      },
    });
    runtimes.push(runtime);
    await runtime.start();
    await runtime.dispatch({ pluginId: 'calendar', triggerId: 'test', space: 'data' });
    const review = model.requests[2]?.map((message) => message.content).join('\n') ?? '';
    expect(review).toContain('- result from calendar/read: {"calendar":"work"}\n');
    expect(review).toContain(
      '- error from calendar/find-slot: no free 60-minute slot on 2025-03-04\n',
    );
    expect(review).not.toContain('"minutes":60');
    expect(seen).toEqual([wanted]);
  });
});

describe('the core templates', () => {
  it('registers the four core templates, which a plugin cannot replace [claim:liq-core-four] [claim:liq-core-fixed]', async () => {
    const { runtime } = await startedRuntime();
    expect(runtime.prompts.list().filter((name) => name.startsWith('core/'))).toEqual([
      'core/get-object',
      'core/get-object-retry',
      'core/pipeline-generation',
      'core/pipeline-modification',
    ]);
    expect(() =>
      runtime.prompts.register('core', 'pipeline-generation', 'Plan: {{ task }}'),
    ).toThrow(/already/);
  });
});
