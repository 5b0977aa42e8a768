/**
 * The steps of a task: how many may run, counting those a review added, and what a step that
 * fails or returns no PluginResult leaves in the chain.
 */
import {
  MAX_MEMORY_JSON_DEPTH,
  MAX_MEMORY_JSON_LENGTH,
  type MemoryProvider,
  type ModelRequestConfig,
  type PluginResult,
  WeftError,
} from '@weft/core';
import { describe, expect, it } from 'vitest';
import { capturingLogger } from '@weft-internal/test-support/capturing-logger';
import { plan, planner, recordingExecutor, startedRuntime, TestPlugin } from './fixtures.js';

describe('the step limit', () => {
  it('counts steps a review added against maxSteps, which defaults to 10, so a model that keeps replacing the plan is stopped [claim:task-max-steps] [claim:task-max-steps-stops-replacing] [claim:prod-max-steps] [claim:wp-step-limit] [claim:cfg-max-steps]', async () => {
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('work', { executors: [recordingExecutor('again')] })],
      // Every review replaces the plan with two more steps, so only the limit ends the task.
      responses: {
        fallback: (_messages, request) =>
          request.purpose === 'review'
            ? { type: 'replace', ...plan(['work', 'again'], ['work', 'again']) }
            : plan(['work', 'again'], ['work', 'again']),
      },
    });
    const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'limit' });
    expect(task.steps).toHaveLength(10);
    expect(task.status).toBe('failed');
    expect(task.chain.at(-1)).toMatchObject({
      type: 'error',
      pluginId: 'core',
      action: 'max-steps',
    });
  });
});

describe('the status of a task whose steps all succeeded', () => {
  it('is completed only when no planned step was left over at maxSteps and the deadline did not pass [claim:task-status-completed]', async () => {
    const statusOf = async (options: { maxSteps?: number; taskTimeoutMs?: number }) => {
      const { runtime } = await startedRuntime({
        plugins: [new TestPlugin('work', { executors: [recordingExecutor('ok')] })],
        responses: {
          fallback: async (_messages, request: ModelRequestConfig) => {
            if (request.purpose !== 'review') return plan(['work', 'ok'], ['work', 'ok']);
            // With a short deadline, the review after the first step outlasts it.
            if (options.taskTimeoutMs !== undefined) {
              await new Promise((resolve) => setTimeout(resolve, options.taskTimeoutMs! * 4));
            }
            return { type: 'continue' };
          },
        },
        options,
      });
      const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'st' });
      const results = task.chain.filter((item) => item.type === 'result').length;
      const errors = task.chain.filter((item) => item.type === 'error').map((item) => item.action);
      return { status: task.status, results, errors };
    };
    expect(await statusOf({})).toEqual({ status: 'completed', results: 2, errors: [] });
    // The plan was made and every step that ran succeeded, but a planned step was left over.
    expect(await statusOf({ maxSteps: 1 })).toEqual({
      status: 'failed',
      results: 1,
      errors: ['max-steps'],
    });
    // The same, but the deadline passed during the review after the first step.
    expect(await statusOf({ taskTimeoutMs: 100 })).toEqual({
      status: 'failed',
      results: 1,
      errors: ['timeout'],
    });
  });
});

describe('the result of a step', () => {
  async function chainOf(...results: unknown[]) {
    const executors = results.map((result, index) =>
      recordingExecutor(`step-${index}`, () => result as never),
    );
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('work', { executors })],
      responses: {
        fallback: (_messages, request: ModelRequestConfig) =>
          request.purpose === 'review'
            ? { type: 'continue' }
            : plan(...executors.map((executor) => ['work', executor.action] as [string, string])),
      },
    });
    const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'results' });
    return task.chain.slice(1);
  }

  it("records a failed result's error, else its message, else a generic reason [claim:exec-error-fallback]", async () => {
    const chain = await chainOf(
      { success: false, error: 'the error', message: 'the message' },
      { success: false, message: 'only a message' },
      { success: false },
      { success: false, error: '', message: 'an empty error is no reason' },
      { success: false, error: '', message: '' },
    );
    expect(chain.map((item) => [item.type, item.error])).toEqual([
      ['error', 'the error'],
      ['error', 'only a message'],
      ['error', 'the executor reported failure without a reason'],
      ['error', 'an empty error is no reason'],
      ['error', 'the executor reported failure without a reason'],
    ]);
  });

  it("records a caught Error returned as the reason as that step's error item, described like a thrown one and never exposed [claim:go-executor-error-item]", async () => {
    const caught = new WeftError('WEFT_GET_OBJECT_FAILED', 'getObject: no valid answer');
    const chain = await chainOf(
      { success: false, error: caught, expose: true },
      { success: false, message: { why: 'a reason that is not text' } },
    );
    expect(chain.map((item) => [item.type, item.pluginId, item.action, item.error])).toEqual([
      ['error', 'work', 'step-0', 'getObject: no valid answer [WEFT_GET_OBJECT_FAILED]'],
      ['error', 'work', 'step-1', '{"why":"a reason that is not text"}'],
    ]);
    expect(chain[0]?.expose).toBeUndefined();
  });

  it('records a return value that is not a PluginResult as an error item saying so [claim:exec-not-a-result] [claim:wp-error-items]', async () => {
    const chain = await chainOf(undefined, 'done', new Error('no slot'), 'x'.repeat(500));
    expect(chain).toHaveLength(4);
    for (const item of chain) {
      expect(item.type).toBe('error');
      expect(item.error).toContain('instead of a PluginResult');
    }
    // What was returned is quoted, at most 200 characters of it.
    expect(chain.map((item) => item.error?.split(' instead of')[0])).toEqual([
      'the executor returned undefined',
      'the executor returned "done"',
      'the executor returned an Error (no slot)',
      `the executor returned "${'x'.repeat(196)}...`,
    ]);
  });

  it('fails the task whose step returns something that is not a PluginResult, and runs the steps after it [claim:task-step-result-or-error-item] [claim:task-status-failed]', async () => {
    const after = recordingExecutor('after');
    const { runtime } = await startedRuntime({
      plugins: [
        new TestPlugin('work', {
          executors: [recordingExecutor('nothing', () => undefined as never), after],
        }),
      ],
      responses: {
        fallback: (_messages, request: ModelRequestConfig) =>
          request.purpose === 'review'
            ? { type: 'continue' }
            : plan(['work', 'nothing'], ['work', 'after']),
      },
    });
    const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'nothing' });
    expect(task.chain.slice(1).map((item) => [item.type, item.action])).toEqual([
      ['error', 'nothing'],
      ['result', 'after'],
    ]);
    expect(after.calls).toHaveLength(1);
    expect(task.status).toBe('failed');
  });

  it('says so too for a value with no JSON form, a returned Error or a long value, which it quotes at most 200 characters of [claim:exec-not-a-result]', async () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const chain = await chainOf(circular, 10n, new Error('disk full'), 'y'.repeat(10_000));
    expect(chain.map((item) => [item.type, item.error])).toEqual([
      [
        'error',
        'the executor returned an object with no JSON form instead of a PluginResult ({ success: boolean, ... })',
      ],
      ['error', 'the executor returned 10n instead of a PluginResult ({ success: boolean, ... })'],
      [
        'error',
        'the executor returned an Error (disk full) instead of a PluginResult ({ success: boolean, ... })',
      ],
      [
        'error',
        `the executor returned "${'y'.repeat(196)}... instead of a PluginResult ({ success: boolean, ... })`,
      ],
    ]);
  });

  it.each([
    ['a bigint', { seen: 10n }],
    ['an object that contains itself', circularData()],
  ])(
    'keeps a result whose data has no JSON form (%s), but its chain is not stored, and the log says why [claim:exec-data-json] [claim:tsdoc-plugin-result-data]',
    async (_kind, data) => {
      const { task, lines } = await runOneStep('count', { success: true, data }, 'json');
      expect(task.status).toBe('completed');
      expect(task.chain[1]).toMatchObject({ type: 'result' });
      expect(task.chain[1]?.data).toBe(data);
      expect(task.recorded).toEqual({ trigger: true, chain: false });
      expectChainRefused(lines, 'has no JSON form');
    },
  );

  it.each([
    ['a string with a NUL character', { note: 'a\u0000b' }, 'NUL character'],
    ['a key with a lone surrogate', { ['key\uD800']: 1 }, 'lone UTF-16 surrogate'],
    [
      'a string longer than MAX_MEMORY_JSON_LENGTH',
      { text: 'x'.repeat(MAX_MEMORY_JSON_LENGTH) },
      'over the limit',
    ],
    [
      'objects nested 98 levels deep, past MAX_MEMORY_JSON_DEPTH in the chain',
      nestedData(98),
      'deeper than the limit of 100 levels (MAX_MEMORY_JSON_DEPTH): content.chain[1].data.a.a',
    ],
  ])(
    'keeps a result whose data has a JSON form no store keeps (%s), but its chain is not stored, and the log says why [claim:exec-data-storable] [claim:tsdoc-plugin-result-data]',
    async (_kind, data, reason) => {
      const { task, lines } = await runOneStep('keep', { success: true, data }, 'kept');
      expect(task.status).toBe('completed');
      expect(task.chain[1]?.data).toBe(data);
      expect(task.recorded).toEqual({ trigger: true, chain: false });
      expectChainRefused(lines, reason);
    },
  );

  it('stores the chain of a result whose data nests 97 levels deep, the most MAX_MEMORY_JSON_DEPTH leaves it [claim:exec-data-storable]', async () => {
    const { runtime, memory } = await startedRuntime({
      plugins: [
        new TestPlugin('work', {
          executors: [recordingExecutor('keep', { success: true, data: nestedData(97) })],
        }),
      ],
      responses: planner(['work', 'keep']),
      options: { pipelineReview: 'never' },
    });
    expect(MAX_MEMORY_JSON_DEPTH).toBe(100);
    const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'deep' });
    expect(task.recorded).toEqual({ trigger: true, chain: true });
    expect((await storedChain(memory, 'deep'))[1]?.data).toEqual(nestedData(97));
  });

  it('stores the chain of results whose data holds or is a function: the stored chain leaves it out, null in a list, and the review names data that is one [claim:exec-data-json-dropped]', async () => {
    const make = recordingExecutor('make', { success: true, data: { kept: 1, make: () => 1 } });
    const listed = recordingExecutor('list', { success: true, data: { list: [1, () => 2] } });
    const bare = recordingExecutor('bare', { success: true, data: () => 3 });
    const { runtime, memory, model } = await startedRuntime({
      plugins: [new TestPlugin('work', { executors: [make, listed, bare] })],
      responses: planner(['work', 'make'], ['work', 'list'], ['work', 'bare']),
      options: { pipelineReview: 'always', reviewFinalStep: true },
    });
    const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'fn' });
    expect(task.status).toBe('completed');
    expect(task.recorded).toEqual({ trigger: true, chain: true });
    expect(typeof (task.chain[1]?.data as { make?: unknown }).make).toBe('function');
    expect(typeof task.chain[3]?.data).toBe('function');
    const chain = await storedChain(memory, 'fn');
    expect(chain[1]?.data).toEqual({ kept: 1 });
    expect(chain[2]?.data).toEqual({ list: [1, null] });
    expect(chain[3]).toMatchObject({ type: 'result', action: 'bare' });
    expect(chain[3]).not.toHaveProperty('data');
    // The review after the last step reads each step as the model sees it.
    const review = model.requests.at(-1)?.at(-1)?.content ?? '';
    expect(review).toContain(
      '- result from work/make: {"kept":1}\n' +
        '- result from work/list: {"list":[1,null]}\n' +
        '- result from work/bare: data with no JSON form\n',
    );
  });

  it("stores a Map or a Set in a result's data as {}, and the review reads {} too [claim:exec-data-map-set]", async () => {
    const data = { tags: new Set(['a']), index: new Map([['a', 1]]) };
    const keeps = recordingExecutor('keep', { success: true, data });
    const { runtime, memory, model } = await startedRuntime({
      plugins: [new TestPlugin('work', { executors: [keeps] })],
      responses: planner(['work', 'keep']),
      options: { pipelineReview: 'always', reviewFinalStep: true },
    });
    const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'maps' });
    expect(task.recorded).toEqual({ trigger: true, chain: true });
    expect(task.chain[1]?.data).toBe(data);
    const chain = await storedChain(memory, 'maps');
    expect(chain[1]?.data).toEqual({ tags: {}, index: {} });
    const review = model.requests.at(-1)?.at(-1)?.content ?? '';
    expect(review).toContain('- result from work/keep: {"tags":{},"index":{}}\n');
  });

  it.each([
    ['a message with a NUL character', { success: true, message: 'booked\u0000' }, 'NUL character'],
    [
      'an error with a lone surrogate',
      { success: false, error: 'no slot \uDC00' },
      'lone UTF-16 surrogate',
    ],
  ])(
    'does not store the chain of a step whose %s, and the log says why [claim:exec-data-storable]',
    async (_kind, result, reason) => {
      const { task, lines } = await runOneStep('step', result, 'text');
      expect(task.recorded).toEqual({ trigger: true, chain: false });
      expectChainRefused(lines, reason);
    },
  );
});

/**
 * Runs one task, in `space`, whose plan is the one step `work.<action>` that returns `result`,
 * with no review; gives the task and the error lines logged meanwhile.
 */
async function runOneStep(action: string, result: PluginResult, space: string) {
  const { logger, lines } = capturingLogger('error');
  const { runtime } = await startedRuntime({
    plugins: [new TestPlugin('work', { executors: [recordingExecutor(action, result)] })],
    responses: planner(['work', action]),
    options: { logger, pipelineReview: 'never' },
  });
  const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space });
  return { task, lines };
}

/** Checks that the log says the task's chain was not stored, for a reason containing `reason`. */
function expectChainRefused(lines: readonly unknown[], reason: string): void {
  expect(lines).toContainEqual(
    expect.objectContaining({
      msg: 'could not store memory',
      kind: 'chain',
      code: 'WEFT_MEMORY_INVALID',
      error: expect.stringContaining(reason) as unknown,
    }),
  );
}

/** The chain items stored for the one task of `space`. */
async function storedChain(memory: MemoryProvider, space: string) {
  const [stored] = await memory.query({ space, kind: 'chain' });
  return (stored?.content as { chain: Record<string, unknown>[] }).chain;
}

/** `levels` objects, one inside the other, around a number. */
function nestedData(levels: number): Record<string, unknown> {
  let data: Record<string, unknown> = { leaf: 1 };
  for (let level = 1; level < levels; level += 1) data = { a: data };
  return data;
}

/** An object that contains itself, which `JSON.stringify` cannot write. */
function circularData(): Record<string, unknown> {
  const data: Record<string, unknown> = { seen: 1 };
  data.self = data;
  return data;
}
