/**
 * Behaviour the "How Weft runs a task" page states that no other test pins down: what the
 * review prompt tells the model, and what a space holds while a task is still running (which
 * is what a crash would leave behind).
 */
import { type Runtime } from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { deferred, makeRuntime, plan, recordingExecutor, TestPlugin, waitFor } from './fixtures.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.stop()));
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
  it("shows the model the step's error, and its stop or replace acts on the remaining steps [claim:exec-review-after-failure]", async () => {
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
  });
});

describe('a task that has not finished', () => {
  it('has stored its trigger memory but no chain memory yet [claim:task-records-trigger] [claim:task-crash-leaves-trigger-memory] [claim:tut-no-chain-yet]', async () => {
    const release = deferred();
    const memory = new InMemoryMemoryProvider();
    const slow = recordingExecutor('slow', async () => {
      await release.promise;
      return { success: true };
    });
    const { runtime } = await makeRuntime({
      plugins: [new TestPlugin('work', { executors: [slow] })],
      responses: { fallback: plan(['work', 'slow']) },
      memory,
    });
    runtimes.push(runtime);
    await runtime.start();
    const finished = runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'unfinished' });
    await waitFor(() => slow.calls.length === 1);

    const during = await memory.query({ space: 'unfinished' });
    expect(during.map((stored) => stored.kind)).toEqual(['trigger']);

    release.resolve();
    await finished;
    const after = await memory.query({ space: 'unfinished', order: 'asc' });
    expect(after.map((stored) => stored.kind)).toEqual(['trigger', 'chain']);
  });
});
