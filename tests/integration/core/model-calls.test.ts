/**
 * What one task costs in model calls, as the docs state it ("How Weft runs a task"): one plan,
 * the reviews the policy asks for, whatever executors call, and one more call per answer
 * getObject rejects.
 */
import { Runtime, type RuntimeOptions } from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { AssistantPlugin } from '../../../examples/getting-started/assistant-plugin.js';
import { createScriptedModel } from '../../../examples/getting-started/scripted-model.js';
import { makeRuntime, recordingExecutor, silentLogger, TestPlugin } from './fixtures.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.stop()));
});

type Kind = 'plan' | 'review' | 'executor';

/**
 * Runs one task whose plan is `steps` (each `ok` or `fail`) and counts the model calls by kind.
 * Every executor makes one model call of its own, as the getting-started `reply` does.
 */
async function callsFor(
  steps: ('ok' | 'fail')[],
  options: NonNullable<Parameters<typeof makeRuntime>[0]>['options'],
  badPlans = 0,
  reviewAnswers: Record<string, unknown>[] = [],
): Promise<Record<Kind, number> & { status: string; ran: number }> {
  const counts: Record<Kind, number> = { plan: 0, review: 0, executor: 0 };
  let plansLeftToSpoil = badPlans;
  const step = (action: 'ok' | 'fail') =>
    recordingExecutor(action, async (_task, context) => {
      await context.models.generateText('Do the work.');
      return action === 'ok' ? { success: true } : { success: false, error: 'it broke' };
    });
  const { runtime } = await makeRuntime({
    plugins: [new TestPlugin('work', { executors: [step('ok'), step('fail')] })],
    responses: {
      fallback: (messages) => {
        const system = messages[0]?.content ?? '';
        if (system.includes('JSON Schema (PipelineModification)')) {
          counts.review += 1;
          return reviewAnswers.shift() ?? { type: 'continue' };
        }
        if (system.includes('JSON Schema (Pipeline)')) {
          counts.plan += 1;
          if (plansLeftToSpoil-- > 0) return 'Sure! I would run the ok step first.';
          return { steps: steps.map((action) => ({ pluginId: 'work', action })) };
        }
        counts.executor += 1;
        return 'done';
      },
    },
    options,
  });
  runtimes.push(runtime);
  await runtime.start();
  const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'calls' });
  return { ...counts, status: task.status, ran: task.steps.length };
}

describe('model calls per task', () => {
  it("'always' (the default) reviews after every step but a successful last one [claim:mpo-scripted-order] [claim:task-review-policy-always] [claim:prod-review-policies] [claim:tst-no-final-review] [claim:wp-review-default] [claim:task-review-count-always] [claim:index-review-default] [claim:tut-default-skips-final-review] [claim:testing-call-count-policy] [claim:task-cost-one-plan] [claim:cfg-pipeline-review]", async () => {
    expect(await callsFor(['ok', 'ok', 'ok'], {})).toEqual({
      plan: 1,
      review: 2,
      executor: 3,
      status: 'completed',
      ran: 3,
    });
  });

  it("'always' makes no review for an empty plan, even with reviewFinalStep [claim:task-review-count-always]", async () => {
    expect(await callsFor([], { reviewFinalStep: true })).toEqual({
      plan: 1,
      review: 0,
      executor: 0,
      status: 'completed',
      ran: 0,
    });
  });

  it("'always' also reviews after a last step that failed [claim:mpo-scripted-order] [claim:task-review-after-failure] [claim:tst-no-final-review] [claim:wp-review-default] [claim:task-review-count-always] [claim:index-review-default]", async () => {
    expect(await callsFor(['ok', 'ok', 'fail'], {})).toMatchObject({ plan: 1, review: 3 });
  });

  it("'always' with reviewFinalStep reviews after every step [claim:task-review-policy-always] [claim:task-review-count-always] [claim:prod-review-policies] [claim:tut-default-skips-final-review]", async () => {
    expect(await callsFor(['ok', 'ok', 'ok'], { reviewFinalStep: true })).toMatchObject({
      plan: 1,
      review: 3,
    });
  });

  it("'on-failure' reviews only after the steps that failed, and the task fails [claim:exec-failed-task] [claim:task-failed-step-continues] [claim:task-review-after-failure] [claim:prod-review-policies] [claim:testing-call-count-policy] [claim:tut-on-failure-review] [claim:task-review-count-on-failure] [claim:cfg-pipeline-review]", async () => {
    expect(await callsFor(['ok', 'fail', 'ok'], { pipelineReview: 'on-failure' })).toEqual({
      plan: 1,
      review: 1,
      executor: 3,
      status: 'failed',
      ran: 3,
    });
    // Each failed step, the last one too: a review follows it even with no step left.
    expect(await callsFor(['ok', 'fail'], { pipelineReview: 'on-failure' })).toEqual({
      plan: 1,
      review: 1,
      executor: 2,
      status: 'failed',
      ran: 2,
    });
  });

  it("'never' makes no review, even after a failure [claim:task-review-after-failure] [claim:prod-review-policies] [claim:testing-call-count-policy] [claim:wp-review-default] [claim:task-review-count-never] [claim:cfg-pipeline-review]", async () => {
    expect(await callsFor(['fail', 'ok'], { pipelineReview: 'never' })).toEqual({
      plan: 1,
      review: 0,
      executor: 2,
      status: 'failed',
      ran: 2,
    });
  });

  it("'always' reviews after each step that ran but a successful one with none left: a stop while steps remain follows the last step [claim:task-review-count-ran]", async () => {
    // Three planned, the first review stops: one step ran, and one review followed it.
    expect(await callsFor(['ok', 'ok', 'ok'], {}, 0, [{ type: 'stop' }])).toEqual({
      plan: 1,
      review: 1,
      executor: 1,
      status: 'completed',
      ran: 1,
    });
    // Two planned, the first review replaces the one left with three: four ran, three reviews.
    const three = ['ok', 'ok', 'ok'].map((action) => ({ pluginId: 'work', action }));
    expect(await callsFor(['ok', 'ok'], {}, 0, [{ type: 'replace', steps: three }])).toMatchObject({
      plan: 1,
      review: 3,
      executor: 4,
      ran: 4,
    });
  });

  it("'always' reviews after each step that ran when maxSteps cuts the plan, not n - 1 of the steps planned [claim:task-review-count-ran] [claim:task-review-count-always]", async () => {
    // Five planned, two may run: each step that ran had planned steps after it, so two reviews.
    expect(await callsFor(['ok', 'ok', 'ok', 'ok', 'ok'], { maxSteps: 2 })).toEqual({
      plan: 1,
      review: 2,
      executor: 2,
      status: 'failed',
      ran: 2,
    });
  });

  it("'on-failure' reviews after each step that ran and failed, whatever the reviews changed [claim:task-review-count-ran]", async () => {
    const twoFailing = ['fail', 'fail'].map((action) => ({ pluginId: 'work', action }));
    expect(
      await callsFor(['fail', 'ok'], { pipelineReview: 'on-failure' }, 0, [
        { type: 'replace', steps: twoFailing },
      ]),
    ).toMatchObject({ plan: 1, review: 3, executor: 3, ran: 3, status: 'failed' });
  });

  it('a one-step task like the getting-started message costs two calls [claim:task-cost-getobject-text-generation] [claim:task-getting-started-costs-two] [claim:gs-two-calls] [claim:mpo-scripted-two-requests] [claim:wp-cost] [claim:tut-default-skips-final-review]', async () => {
    const counts = await callsFor(['ok'], {});
    expect(counts.plan + counts.review + counts.executor).toBe(2);
    const reviewed = await callsFor(['ok'], { reviewFinalStep: true });
    expect(reviewed.plan + reviewed.review + reviewed.executor).toBe(3);
  });

  it('the getting-started agent itself costs 2 calls a message under every policy, 3 with reviewFinalStep [claim:task-getting-started-costs-two] [claim:task-review-count-on-failure] [claim:task-review-count-never]', async () => {
    const callsOf = async (options: RuntimeOptions) => {
      const model = createScriptedModel();
      const runtime = await Runtime.init({
        models: [model],
        memory: new InMemoryMemoryProvider(),
        plugins: [new AssistantPlugin()],
        options: { logger: silentLogger, server: { port: 0 }, ...options },
      });
      runtimes.push(runtime);
      await runtime.start();
      const task = await runtime.dispatch({
        pluginId: 'assistant',
        triggerId: 'message',
        space: 'getting-started',
        message: 'Hello',
      });
      expect(task.status).toBe('completed');
      expect(task.steps.map((step) => step.action)).toEqual(['reply']);
      return model.requests.length;
    };
    expect(await callsOf({})).toBe(2);
    expect(await callsOf({ reviewFinalStep: true })).toBe(3);
    expect(await callsOf({ pipelineReview: 'on-failure' })).toBe(2);
    expect(await callsOf({ pipelineReview: 'never' })).toBe(2);
  });

  it('reviewFinalStep reviews once per task, and again after the last of the steps a final review adds [claim:cfg-review-final-step]', async () => {
    expect(await callsFor(['ok'], { reviewFinalStep: true })).toMatchObject({ plan: 1, review: 1 });
    // The final review adds two steps: the first has one left after it, the second is last again.
    const two = ['ok', 'ok'].map((action) => ({ pluginId: 'work', action }));
    expect(
      await callsFor(['ok'], { reviewFinalStep: true }, 0, [{ type: 'replace', steps: two }]),
    ).toEqual({ plan: 1, review: 3, executor: 3, status: 'completed', ran: 3 });
  });

  it("reviewFinalStep is heeded only by 'always': a successful last step gets no review under 'on-failure' or 'never' [claim:mpo-final-review-always-only]", async () => {
    for (const pipelineReview of ['on-failure', 'never'] as const) {
      expect(await callsFor(['ok', 'ok'], { pipelineReview, reviewFinalStep: true })).toMatchObject(
        {
          plan: 1,
          review: 0,
          executor: 2,
          status: 'completed',
        },
      );
    }
    expect(await callsFor(['ok', 'ok'], { reviewFinalStep: true })).toMatchObject({ review: 2 });
  });

  it("a one-step task costs two calls under 'on-failure' and 'never' too [claim:task-review-count-on-failure] [claim:task-review-count-never]", async () => {
    for (const pipelineReview of ['on-failure', 'never'] as const) {
      expect(await callsFor(['ok'], { pipelineReview })).toEqual({
        plan: 1,
        review: 0,
        executor: 1,
        status: 'completed',
        ran: 1,
      });
    }
  });

  it('each answer getObject rejects costs one more call, up to getObjectRetries [claim:task-cost-retries] [claim:trouble-max-retries] [claim:mpi-text-generation-needed] [claim:wp-cost] [claim:testing-plan-retries] [claim:mpo-scripted-plan-retries]', async () => {
    expect(await callsFor(['ok'], {}, 2)).toMatchObject({ plan: 3, status: 'completed' });
    // Two retries by default: a third bad plan fails the task without a fourth call.
    expect(await callsFor(['ok'], {}, 3)).toMatchObject({ plan: 3, executor: 0, status: 'failed' });
    expect(await callsFor(['ok'], { getObjectRetries: 1 }, 2)).toMatchObject({
      plan: 2,
      executor: 0,
      status: 'failed',
    });
  });

  it('a review answer that does not fit costs one more call, up to getObjectRetries; when none fits, the steps left run [claim:testing-review-retries] [claim:wp-cost] [claim:mpo-scripted-review-retries]', async () => {
    const unfit = { type: 'maybe' };
    expect(
      await callsFor(['ok', 'ok'], {}, 0, [unfit, { type: 'stop' }, { type: 'continue' }]),
    ).toEqual({ plan: 1, review: 2, executor: 1, status: 'completed', ran: 1 });
    // Three unfit answers use up the two retries: the review fails and the second step runs.
    expect(await callsFor(['ok', 'ok'], {}, 0, [unfit, unfit, unfit, { type: 'stop' }])).toEqual({
      plan: 1,
      review: 3,
      executor: 2,
      status: 'completed',
      ran: 2,
    });
    // With getObjectRetries 1, the second unfit answer ends the review.
    expect(
      await callsFor(['ok', 'ok'], { getObjectRetries: 1 }, 0, [unfit, unfit, { type: 'stop' }]),
    ).toEqual({ plan: 1, review: 2, executor: 2, status: 'completed', ran: 2 });
  });
});
