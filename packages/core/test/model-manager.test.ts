import {
  AnalyticsManager,
  CapabilityRegistry,
  defineCapability,
  ModelManager,
  PromptRegistry,
  type CapabilityTransformEntry,
  type ModelCapability,
  ModelProvider,
  WeftError,
} from '@weft/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pino, type Logger } from 'pino';
import { Bulkhead, type CallGuard } from '../src/bulkhead/bulkhead.js';
import { deferred, errorOf, sentimentCapability, TestModelProvider } from './fixtures.js';

const summarise = defineCapability({
  id: 'summarise',
  description: 'Summarises a text.',
  input: z.object({ text: z.string().min(1) }),
  output: z.object({ summary: z.string() }),
});

/** A text-generation capability that records its inputs and options and echoes the last message. */
function echoText(tag: string, seen: { input: unknown; options: unknown }[] = []): ModelCapability {
  return {
    id: 'text-generation',
    run: async (input, request) => {
      seen.push({ input, options: request.options });
      const { messages } = input as { messages: { content: string }[] };
      return { text: `${tag}:${messages.at(-1)?.content ?? ''}` };
    },
  };
}

/** A capability `chat` that takes a list of messages and answers text. */
const chat = defineCapability({
  id: 'chat',
  description: 'Chat.',
  input: z.object({
    messages: z.array(z.object({ role: z.enum(['user']), content: z.string() })),
  }),
  output: z.object({ text: z.string() }),
});

/** Registers `chat` as an alias of `text-generation`. */
function chatAliasOfText(registry: CapabilityRegistry): void {
  registry.register(chat);
  registry.addAliasGroup(['chat', 'text-generation']);
}

function manager(
  providers: ModelProvider[],
  setup: (registry: CapabilityRegistry) => void = () => undefined,
  analytics?: AnalyticsManager,
): ModelManager {
  const registry = new CapabilityRegistry();
  registry.register(sentimentCapability);
  registry.register(summarise);
  setup(registry);
  return new ModelManager({ registry, providers, prompts: new PromptRegistry(), analytics });
}

const hello = { messages: [{ role: 'user' as const, content: 'hello' }] };

/**
 * A manager whose one provider, `alpha`, offers `text-generation` through {@link echoText} and
 * serves `summarise` through it by a transform: the text goes as one user message after
 * "Summarise: ", the answer's text comes back as the summary. `members` adds an options function
 * or replaces the input or output function.
 */
function summariseThroughText(
  members: Partial<Pick<CapabilityTransformEntry, 'input' | 'options' | 'output'>> = {},
): { models: ModelManager; seen: { input: unknown; options: unknown }[] } {
  const seen: { input: unknown; options: unknown }[] = [];
  const models = manager(
    [new TestModelProvider('alpha', { capabilities: [echoText('alpha', seen)] })],
    (registry) => {
      registry.addAliasGroup(['summarise', 'text-generation']);
      registry.addTransform({
        from: 'summarise',
        to: 'text-generation',
        input: (input) => ({
          messages: [{ role: 'user', content: `Summarise: ${(input as { text: string }).text}` }],
        }),
        output: (output) => ({ summary: (output as { text: string }).text }),
        ...members,
      });
    },
  );
  return { models, seen };
}

describe('ModelManager.call', () => {
  it('calls the provider with the validated input and returns its output [claim:cap-request-fields]', async () => {
    const seen: { input: unknown; options: unknown }[] = [];
    const models = manager([
      new TestModelProvider('alpha', { capabilities: [echoText('alpha', seen)] }),
    ]);
    expect(await models.call('text-generation', hello, { options: { temperature: 0.5 } })).toEqual({
      text: 'alpha:hello',
    });
    expect(seen).toEqual([{ input: hello, options: { temperature: 0.5 } }]);
  });

  it('generateText sends a string as one user message and a list of messages as it is, and gives back the text [claim:cap-generate-text]', async () => {
    const seen: { input: unknown; options: unknown }[] = [];
    const models = manager([
      new TestModelProvider('alpha', { capabilities: [echoText('alpha', seen)] }),
    ]);
    expect(await models.generateText('hi there')).toBe('alpha:hi there');
    const messages = [
      { role: 'system' as const, content: 'Be brief.' },
      { role: 'user' as const, content: 'hi again' },
    ];
    expect(await models.generateText(messages, { options: { temperature: 0 } })).toBe(
      'alpha:hi again',
    );
    expect(seen).toEqual([
      { input: { messages: [{ role: 'user', content: 'hi there' }] }, options: {} },
      { input: { messages }, options: { temperature: 0 } },
    ]);
  });

  it('callDynamic checks the input and the output against the registered schemas, as call does [claim:cap-call-dynamic]', async () => {
    let score: unknown = 0.5;
    let runs = 0;
    const models = manager([
      new TestModelProvider('moody', {
        capabilities: [
          {
            id: 'sentiment',
            run: async () => {
              runs += 1;
              return { score };
            },
          },
        ],
      }),
    ]);
    const id: string = 'sentiment';
    const answer: unknown = await models.callDynamic(id, { text: 'fine' });
    expect(answer).toEqual({ score: 0.5 });
    const badInput = await errorOf(models.callDynamic(id, { body: 'fine' }));
    expect(badInput.code).toBe('WEFT_VALIDATION_FAILED');
    expect(badInput.message).toContain(
      'ModelManager: input for capability "sentiment" is invalid:',
    );
    expect(runs).toBe(1);
    score = 3;
    const badOutput = await errorOf(models.callDynamic(id, { text: 'fine' }));
    expect(badOutput.code).toBe('WEFT_VALIDATION_FAILED');
    expect(badOutput.message).toContain(
      'ModelManager: provider "moody" returned invalid output for capability "sentiment":',
    );
    expect(runs).toBe(2);
  });

  it('works without per-call options', async () => {
    const models = manager([new TestModelProvider('alpha', { capabilities: [echoText('alpha')] })]);
    expect(await models.call('text-generation', hello)).toEqual({ text: 'alpha:hello' });
    expect(await models.generateText('hi there')).toBe('alpha:hi there');
  });

  it('rejects invalid input, naming the capability, before the provider sees it [claim:cap-input-at-least-one] [claim:cap-validates-both-ways] [claim:cap-error-messages] [claim:tr-codes] [claim:mpo-validated-around-run] [claim:wp-validated-boundary] [claim:wp-goal-checked]', async () => {
    const seen: { input: unknown; options: unknown }[] = [];
    const models = manager([
      new TestModelProvider('alpha', { capabilities: [echoText('alpha', seen)] }),
    ]);
    const error = await errorOf(models.call('text-generation', { messages: [] }));
    expect(error.code).toBe('WEFT_VALIDATION_FAILED');
    expect(error.message).toMatch(
      /^ModelManager: input for capability "text-generation" is invalid: /,
    );
    expect(error.message).toContain('at least one message is required');
    // The code leads to its entry in the errors reference, which gives the fix.
    expect(error).toMatchObject({
      docsUrl: 'https://weft-ai.github.io/docs/reference/errors/#weft_validation_failed',
    });
    expect(seen).toHaveLength(0);
  });

  it('rejects invalid options, naming the capability [claim:cap-request-fields] [claim:cap-error-messages] [claim:tr-codes] [claim:mpo-validated-around-run]', async () => {
    const models = manager([new TestModelProvider('alpha', { capabilities: [echoText('alpha')] })]);
    const error = await errorOf(
      models.call('text-generation', hello, { options: { temperature: 9 } }),
    );
    expect(error.code).toBe('WEFT_VALIDATION_FAILED');
    expect(error.message).toMatch(
      /^ModelManager: options for capability "text-generation" are invalid: /,
    );
    expect(error.message).toContain('temperature');
  });

  it('checks options only against a config schema: a capability without one gets them as given [claim:cap-options-without-config]', async () => {
    const received: unknown[] = [];
    const scorer: ModelCapability = {
      id: 'sentiment',
      run: async (_input, request) => {
        received.push(request.options);
        return { score: 0 };
      },
    };
    const models = manager([new TestModelProvider('scorer', { capabilities: [scorer] })]);
    // `sentiment` has no config schema, so nothing checks these options.
    const unchecked = { temperature: 9, anything: 'goes' } as unknown as undefined;
    await models.call('sentiment', { text: 'fine' }, { options: unchecked });
    expect(received).toEqual([{ temperature: 9, anything: 'goes' }]);
  });

  it('takes text-generation options within their bounds: temperature 0 to 2, maxTokens a positive integer [claim:cap-text-generation-options]', async () => {
    const seen: { input: unknown; options: unknown }[] = [];
    const models = manager([
      new TestModelProvider('alpha', { capabilities: [echoText('alpha', seen)] }),
    ]);
    for (const options of [
      { temperature: 0, maxTokens: 1 },
      { temperature: 2, json: true },
    ]) {
      await models.call('text-generation', hello, { options });
    }
    expect(seen.map((call) => call.options)).toEqual([
      { temperature: 0, maxTokens: 1 },
      { temperature: 2, json: true },
    ]);
    for (const options of [
      { temperature: -0.1 },
      { temperature: 2.1 },
      { maxTokens: 0 },
      { maxTokens: 1.5 },
    ]) {
      const error = await errorOf(models.call('text-generation', hello, { options }));
      expect(error.code, JSON.stringify(options)).toBe('WEFT_VALIDATION_FAILED');
    }
    expect(seen).toHaveLength(2);
  });

  it('drops a text-generation option it does not declare, with no error [claim:cap-text-generation-options-unknown]', async () => {
    const seen: { input: unknown; options: unknown }[] = [];
    const models = manager([
      new TestModelProvider('alpha', { capabilities: [echoText('alpha', seen)] }),
    ]);
    const options = { temperature: 1, max_tokens: 5, topP: 0.5 } as { temperature: number };
    await expect(models.call('text-generation', hello, { options })).resolves.toEqual({
      text: 'alpha:hello',
    });
    expect(seen.map((call) => call.options)).toEqual([{ temperature: 1 }]);
  });

  it('takes text-generation token counts only as whole numbers, 0 or more [claim:cap-text-generation-usage]', async () => {
    const answering = (usage: unknown): ModelCapability => ({
      id: 'text-generation',
      run: async () => ({ text: 'ok', usage }),
    });
    const counted = manager([
      new TestModelProvider('alpha', {
        capabilities: [answering({ inputTokens: 0, outputTokens: 12 })],
      }),
    ]);
    expect(await counted.call('text-generation', hello)).toEqual({
      text: 'ok',
      usage: { inputTokens: 0, outputTokens: 12 },
    });
    // Each count on its own, so that a check dropped from either one is seen.
    for (const usage of [
      { inputTokens: -1, outputTokens: 1 },
      { inputTokens: 1, outputTokens: -1 },
      { inputTokens: 1.5, outputTokens: 1 },
      { inputTokens: 1, outputTokens: 1.5 },
    ]) {
      const models = manager([
        new TestModelProvider('alpha', { capabilities: [answering(usage)] }),
      ]);
      const error = await errorOf(models.call('text-generation', hello));
      expect(error.code, JSON.stringify(usage)).toBe('WEFT_VALIDATION_FAILED');
      expect(error.message).toContain(
        'provider "alpha" returned invalid output for capability "text-generation"',
      );
    }
  });

  it('rejects invalid provider output, naming the provider and the capability [claim:cap-validates-both-ways] [claim:cap-run-validated] [claim:cap-error-messages] [claim:tr-codes] [claim:testing-provider-validated] [claim:mpo-validated-around-run] [claim:wp-validated-boundary]', async () => {
    const sloppy: ModelCapability = { id: 'sentiment', run: async () => ({ score: 3 }) };
    const models = manager([new TestModelProvider('sloppy', { capabilities: [sloppy] })]);
    const error = await errorOf(models.call('sentiment', { text: 'great' }));
    expect(error.code).toBe('WEFT_VALIDATION_FAILED');
    expect(error.message).toMatch(
      /^ModelManager: provider "sloppy" returned invalid output for capability "sentiment": /,
    );
  });

  it('checks schemas with async refinements like any other, failing with WEFT_VALIDATION_FAILED [claim:cap-async-schemas] [claim:cap-error-messages] [claim:cap-validates-both-ways]', async () => {
    const known = new Set(['en', 'fr']);
    const lookUp = async (code: string) => {
      await Promise.resolve();
      return known.has(code);
    };
    const translate = defineCapability({
      id: 'translate',
      description: 'Translates a text into a known language.',
      input: z.object({ text: z.string(), to: z.string().refine(lookUp, 'unknown language') }),
      output: z.object({ text: z.string().refine(async (text) => text !== '', 'empty answer') }),
      config: z.object({
        tone: z
          .string()
          .refine(async (tone) => tone !== 'rude')
          .optional(),
      }),
    });
    const calls: unknown[] = [];
    const models = manager(
      [
        new TestModelProvider('translator', {
          capabilities: [
            {
              id: 'translate',
              run: async (input) => {
                calls.push(input);
                return { text: (input as { text: string }).text === 'blank' ? '' : 'bonjour' };
              },
            },
          ],
        }),
      ],
      (registry) => registry.register(translate),
    );
    expect(await models.callDynamic('translate', { text: 'hello', to: 'fr' })).toEqual({
      text: 'bonjour',
    });
    const cases = [
      [
        { text: 'hello', to: 'xx' },
        {},
        'input for capability "translate" is invalid: ✖ unknown language',
      ],
      [
        { text: 'hello', to: 'fr' },
        { options: { tone: 'rude' } },
        'options for capability "translate" are invalid',
      ],
      [
        { text: 'blank', to: 'fr' },
        {},
        'returned invalid output for capability "translate": ✖ empty answer',
      ],
    ] as const;
    for (const [input, request, message] of cases) {
      const error = await errorOf(models.callDynamic('translate', input, request));
      expect(error.code, message).toBe('WEFT_VALIDATION_FAILED');
      expect(error.message).toContain(message);
    }
    // Only the valid call and the one with a bad answer reached the provider.
    expect(calls).toHaveLength(2);
  });

  it('passes on as it is the error of a refinement that throws, without calling the provider for an input [claim:cap-schema-throws]', async () => {
    const down = new Error('look-up service down');
    const answerDown = new Error('answer check down');
    const lookUp = defineCapability({
      id: 'look-up',
      description: 'Checks its input and its answer with a look-up.',
      input: z.object({
        to: z.string().refine(async (to) => {
          if (to === 'unreachable') throw down;
          return true;
        }),
      }),
      output: z.object({
        text: z.string().refine(async (text) => {
          if (text === 'unchecked') throw answerDown;
          return true;
        }),
      }),
    });
    const calls: unknown[] = [];
    const models = manager(
      [
        new TestModelProvider('looker', {
          capabilities: [
            {
              id: 'look-up',
              run: async (input) => {
                calls.push(input);
                return { text: (input as { to: string }).to === 'fr' ? 'unchecked' : 'ok' };
              },
            },
          ],
        }),
      ],
      (registry) => registry.register(lookUp),
    );
    // The input's look-up throws: its error as it is, no code added, and no provider call.
    await expect(models.callDynamic('look-up', { to: 'unreachable' })).rejects.toBe(down);
    expect(calls).toEqual([]);
    // The answer's look-up throws: its error as it is too.
    await expect(models.callDynamic('look-up', { to: 'fr' })).rejects.toBe(answerDown);
    expect(calls).toEqual([{ to: 'fr' }]);
  });

  it('wraps a provider failure, naming the provider and keeping the cause [claim:mpo-id-selects] [claim:cap-provider-failed-code] [claim:cap-provider-failed-message] [claim:cap-provider-throws]', async () => {
    const cause = new Error('HTTP 429 Too Many Requests');
    const failing: ModelCapability = {
      id: 'text-generation',
      run: async () => {
        throw cause;
      },
    };
    const models = manager([new TestModelProvider('remote', { capabilities: [failing] })]);
    const error = await errorOf(models.call('text-generation', hello));
    expect(error.code).toBe('WEFT_PROVIDER_FAILED');
    expect(error.message).toBe(
      'ModelManager: provider "remote" failed on capability "text-generation": HTTP 429 Too Many Requests [WEFT_PROVIDER_FAILED]',
    );
    expect(error.cause).toBe(cause);
  });

  it('withSignal gives a view whose calls carry the signal unless a call passes its own [claim:exec-models-signal] [claim:task-signal-reaches-model-calls] [claim:cap-request-signal]', async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const recording: ModelCapability = {
      id: 'text-generation',
      run: async (_input, request) => {
        signals.push(request.signal);
        return { text: 'ok' };
      },
    };
    const models = manager([new TestModelProvider('alpha', { capabilities: [recording] })]);
    const task = new AbortController().signal;
    const own = new AbortController().signal;
    const view = models.withSignal(task);

    await view.call('text-generation', hello);
    await view.generateText('hi');
    await view.call('text-generation', hello, { signal: own });
    await models.call('text-generation', hello);

    // Identity, not deep equality: two fresh AbortSignals compare equal with toEqual.
    expect(signals).toHaveLength(4);
    expect(signals[0]).toBe(task);
    expect(signals[1]).toBe(task);
    expect(signals[2]).toBe(own);
    expect(signals[3]).toBeUndefined();
    expect(view.providers).toBe(models.providers);
  });

  it("getObject on a withSignal view carries the view's signal unless its request passes its own [claim:exec-getobject-signal]", async () => {
    const signals: (AbortSignal | undefined)[] = [];
    const models = managerOf(
      textModel('alpha', async (_input, request) => {
        signals.push(request.signal);
        return { text: '{"ok": true}' };
      }),
    );
    const task = new AbortController().signal;
    const own = new AbortController().signal;
    const view = models.withSignal(task);
    const schema = z.object({ ok: z.boolean() });

    await view.getObject({ schema, prompt: 'ok?' });
    await view.getObject({ schema, prompt: 'ok?', request: { signal: own } });

    expect(signals).toHaveLength(2);
    expect(signals[0]).toBe(task);
    expect(signals[1]).toBe(own);
  });

  it("does not call the provider when the call's signal has aborted already, and throws its reason [claim:tsdoc-models-aborted-not-called] [claim:task-aborted-call-not-sent] [claim:cap-request-signal-aborted]", async () => {
    let runs = 0;
    const models = managerOf(
      textModel('alpha', async () => {
        runs += 1;
        return { text: '{"ok": true}' };
      }),
    );
    const ended = new AbortController();
    const reason = new WeftError('WEFT_TASK_TIMEOUT', 'the task ran past its time limit');
    ended.abort(reason);
    const view = models.withSignal(ended.signal);

    await expect(view.call('text-generation', hello)).rejects.toBe(reason);
    await expect(
      view.getObject({ schema: z.object({ ok: z.boolean() }), prompt: 'ok?' }),
    ).rejects.toBe(reason);
    // Nothing of a getObject is checked either: its reason comes first, as for a call.
    await expect(
      view.getObject({ schema: z.object({ ok: z.boolean() }), prompt: 'ok?', maxRetries: -1 }),
    ).rejects.toBe(reason);
    await expect(view.getObject({ schema: {} as z.ZodType, prompt: 'ok?' })).rejects.toBe(reason);
    await expect(
      models.call('text-generation', hello, { signal: AbortSignal.abort(reason) }),
    ).rejects.toBe(reason);
    expect(runs).toBe(0);
    // A live signal still reaches the provider.
    await expect(models.generateText('hi', { signal: new AbortController().signal })).resolves.toBe(
      '{"ok": true}',
    );
    expect(runs).toBe(1);
  });

  it('rejects with the reason within a few ms when the signal fires during a run the provider ignores, drops the late answer and warns [claim:cap-request-signal-provider] [claim:tsdoc-models-aborted-during-run] [claim:obs-provider-outlived-call]', async () => {
    const controller = new AbortController();
    const answer = deferred<{ text: string }>();
    const warnings: Record<string, unknown>[] = [];
    const models = managerOf(textModel('deaf', () => answer.promise)).forTask(
      controller.signal,
      undefined,
      { request: { id: 'task-7' } },
    );
    Object.assign(models, { logger: recordingLogger(warnings) });
    const call = errorOf(models.generateText('hi'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    const reason = new WeftError('WEFT_TASK_TIMEOUT', 'the task ran past its time limit');
    const aborted = performance.now();
    controller.abort(reason);
    expect(await call).toBe(reason);
    expect(performance.now() - aborted).toBeLessThan(200);
    expect(warnings).toEqual([
      expect.objectContaining({
        providerId: 'deaf',
        capability: 'text-generation',
        requestId: 'task-7',
      }),
    ]);
    // The answer that comes later reaches nobody.
    answer.resolve({ text: 'late answer' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(warnings).toHaveLength(1);
  });

  it('gives the warning about a provider that outlived its call the task’s fields only when the call was made for a task [claim:obs-provider-outlived-call]', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino(
      { level: 'warn' },
      { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    );
    const base = new ModelManager({
      registry: new CapabilityRegistry(),
      providers: [textModel('deaf', () => new Promise(() => undefined))],
      prompts: new PromptRegistry(),
      logger,
    });
    const outlived = async (call: (signal: AbortSignal) => Promise<unknown>) => {
      const controller = new AbortController();
      const failed = errorOf(call(controller.signal));
      await new Promise((resolve) => setTimeout(resolve, 0));
      controller.abort(new Error('given up'));
      await failed;
      return lines.at(-1);
    };
    const inTask = await outlived((signal) =>
      base
        .forTask(signal, undefined, {
          fields: { taskId: 'task-7', space: 'user-ada' },
          request: { id: 'task-7' },
        })
        .generateText('hi'),
    );
    expect(inTask).toMatchObject({
      level: 40,
      msg: 'model provider still running after its call was aborted; the caller was released',
      taskId: 'task-7',
      space: 'user-ada',
      requestId: 'task-7',
      providerId: 'deaf',
      capability: 'text-generation',
    });
    const outside = await outlived((signal) => base.generateText('hi', { signal }));
    expect(outside).toMatchObject({
      msg: 'model provider still running after its call was aborted; the caller was released',
      providerId: 'deaf',
      capability: 'text-generation',
    });
    expect(outside).not.toHaveProperty('taskId');
    expect(outside).not.toHaveProperty('space');
    expect(outside).not.toHaveProperty('requestId');
    expect(lines).toHaveLength(2);
  });

  it('releases the caller of a provider that ignores the signal while its bulkhead slot stays taken until the provider answers [claim:cap-request-signal-provider] [claim:prod-bulkhead-slot-back]', async () => {
    const controller = new AbortController();
    const answer = deferred<{ text: string }>();
    const bulkhead = new Bulkhead('model:deaf', 1, 5_000, 'options.bulkhead.maxConcurrent', 60_000);
    const guard: CallGuard = (_dependency, work) =>
      bulkhead.run(work, { signal: controller.signal });
    const models = managerOf(textModel('deaf', () => answer.promise)).forTask(
      controller.signal,
      guard,
    );
    const call = errorOf(models.generateText('hi'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    const reason = new Error('task timed out');
    controller.abort(reason);
    expect(await call).toBe(reason);
    expect(bulkhead.running).toBe(1);
    answer.resolve({ text: 'late answer' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(bulkhead.running).toBe(0);
  });

  it('rejects with a plain Error reason unwrapped, and a provider that never settles cannot hold the caller [claim:cap-request-signal-provider]', async () => {
    const controller = new AbortController();
    const models = managerOf(textModel('hung', () => new Promise(() => undefined)));
    const call = errorOf(models.generateText('hi', { signal: controller.signal }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    const reason = new Error('the caller gave up');
    controller.abort(reason);
    expect(await call).toBe(reason);
  });

  it('passes on the error of a provider that honours the signal, as before, without a warning [claim:cap-request-signal-provider]', async () => {
    const controller = new AbortController();
    const own = new WeftError('WEFT_QUEUE_FULL', 'Provider: stopped as asked.');
    const warnings: Record<string, unknown>[] = [];
    const models = managerOf(politeModel(own));
    Object.assign(models, { logger: recordingLogger(warnings) });
    const call = errorOf(models.generateText('hi', { signal: controller.signal }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort(new Error('the caller gave up'));
    expect(await call).toBe(own);
    expect(warnings).toEqual([]);
  });

  it('wraps a plain error a provider throws within the grace in WEFT_PROVIDER_FAILED, as any provider failure [claim:cap-request-signal-provider] [claim:tsdoc-models-aborted-during-run]', async () => {
    const controller = new AbortController();
    const own = new Error('stopped as asked');
    const models = managerOf(politeModel(own));
    const call = errorOf(models.generateText('hi', { signal: controller.signal }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.abort(new Error('the caller gave up'));
    const error = await call;
    expect(error.code).toBe('WEFT_PROVIDER_FAILED');
    expect(error.message).toBe(
      'ModelManager: provider "polite" failed on capability "text-generation": stopped as asked [WEFT_PROVIDER_FAILED]',
    );
    expect(error.cause).toBe(own);
  });

  it('waits the 10 ms grace for a provider that ignores the signal before rejecting, and names the line in full [claim:cap-request-signal-provider]', async () => {
    const controller = new AbortController();
    const lines: { fields: Record<string, unknown>; message: string }[] = [];
    const logger = {
      warn: (fields: Record<string, unknown>, message: string) => lines.push({ fields, message }),
      debug: () => undefined,
      child: () => logger,
    };
    const models = managerOf(textModel('deaf', () => new Promise(() => undefined)));
    Object.assign(models, { logger });
    const call = errorOf(models.generateText('hi', { signal: controller.signal }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    const reason = new Error('the caller gave up');
    const aborted = performance.now();
    controller.abort(reason);
    expect(await call).toBe(reason);
    // Not at once: the provider is given its grace (timers may fire a fraction of a ms early).
    expect(performance.now() - aborted).toBeGreaterThanOrEqual(9);
    expect(lines).toEqual([
      {
        fields: { providerId: 'deaf', capability: 'text-generation', requestId: undefined },
        message: 'model provider still running after its call was aborted; the caller was released',
      },
    ]);
  });

  it('bounds the grace at 10 ms: a provider failing 5 ms after the abort fails the call, one failing 25 ms after is too late [claim:cap-request-signal-provider]', async () => {
    // Each provider starts its timer when the signal fires, in the same turn as the call starts
    // its grace, so the timers fire in the order of their delays however busy the machine is.
    const failingAfter = (ms: number) =>
      textModel(
        'slow-to-stop',
        (_input, request) =>
          new Promise((_resolve, reject) => {
            request.signal?.addEventListener(
              'abort',
              () => setTimeout(() => reject(new Error(`stopped after ${ms} ms`)), ms),
              { once: true },
            );
          }),
      );
    const outcome = async (ms: number) => {
      const controller = new AbortController();
      const call = errorOf(
        managerOf(failingAfter(ms)).generateText('hi', { signal: controller.signal }),
      );
      await new Promise((resolve) => setTimeout(resolve, 0));
      const reason = new Error('the caller gave up');
      controller.abort(reason);
      const error = await call;
      return error === reason ? 'reason' : `${error.code}: ${error.message}`;
    };
    expect(await outcome(5)).toBe(
      'WEFT_PROVIDER_FAILED: ModelManager: provider "slow-to-stop" failed on capability "text-generation": stopped after 5 ms [WEFT_PROVIDER_FAILED]',
    );
    expect(await outcome(25)).toBe('reason');
  });

  it('validates the answer of a provider whose run answers synchronously, with a signal too [claim:cap-run-validated]', async () => {
    const syncRun = (() => ({ text: 'sync answer' })) as unknown as ModelCapability['run'];
    const models = managerOf(textModel('sync', syncRun));
    expect(await models.generateText('hi')).toBe('sync answer');
    expect(await models.generateText('hi', { signal: new AbortController().signal })).toBe(
      'sync answer',
    );
    const invalid = (() => ({ text: 42 })) as unknown as ModelCapability['run'];
    const error = await errorOf(
      managerOf(textModel('sync', invalid)).generateText('hi', {
        signal: new AbortController().signal,
      }),
    );
    expect(error.code).toBe('WEFT_VALIDATION_FAILED');
  });

  it('stops getObject at once when the signal fires during an attempt: no retry, the reason thrown [claim:cap-request-signal-provider]', async () => {
    const controller = new AbortController();
    let runs = 0;
    let running: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      running = resolve;
    });
    const models = managerOf(
      textModel('deaf', () => {
        runs += 1;
        running();
        // Not JSON, so a retry would follow if the call went on.
        return new Promise((resolve) => setTimeout(() => resolve({ text: 'not json' }), 300));
      }),
    );
    const call = errorOf(
      models.getObject({
        schema: z.object({ ok: z.boolean() }),
        prompt: 'ok?',
        maxRetries: 3,
        request: { signal: controller.signal },
      }),
    );
    // Abort during the attempt: once the provider runs, however long the prompt took to render
    // (the first getObject of a process renders its template cold, so a fixed wait may be short).
    await started;
    const reason = new Error('cancelled');
    const aborted = performance.now();
    controller.abort(reason);
    expect(await call).toBe(reason);
    // Released long before the 300 ms answer, which starts no second attempt when it comes.
    expect(performance.now() - aborted).toBeLessThan(200);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(runs).toBe(1);
  });

  it("throws an aborted call's reason before checking its id, its values or its transform [claim:cap-request-signal-aborted] [claim:tr-signal-first]", async () => {
    const transformed: string[] = [];
    const { models, seen } = summariseThroughText({
      input: (input) => {
        transformed.push('input');
        return { messages: [{ role: 'user', content: (input as { text: string }).text }] };
      },
    });
    const reason = new Error('the caller gave up');
    const signal = AbortSignal.abort(reason);

    // An invalid input, an unknown id and an id no provider offers: the reason all the same.
    await expect(models.callDynamic('summarise', { text: '' }, { signal })).rejects.toBe(reason);
    await expect(models.callDynamic('summarize', { text: 'x' }, { signal })).rejects.toBe(reason);
    await expect(models.call('sentiment', { text: 'x' }, { signal })).rejects.toBe(reason);
    await expect(models.callDynamic('summarise', { text: 'x' }, { signal })).rejects.toBe(reason);
    expect(transformed).toEqual([]);
    expect(seen).toEqual([]);

    // A signal that fires while an async schema checks the input stops the call there too.
    const late = new AbortController();
    const slow = defineCapability({
      id: 'slow-check',
      description: 'Checks its input with a look-up.',
      input: z.object({ text: z.string() }).refine(async () => {
        late.abort(reason);
        return true;
      }),
      output: z.object({ text: z.string() }),
    });
    let runs = 0;
    const checked = manager(
      [
        new TestModelProvider('alpha', {
          capabilities: [
            {
              id: 'slow-check',
              run: async () => {
                runs += 1;
                return { text: 'ran' };
              },
            },
          ],
        }),
      ],
      (registry) => registry.register(slow),
    );
    await expect(
      checked.callDynamic('slow-check', { text: 'x' }, { signal: late.signal }),
    ).rejects.toBe(reason);
    expect(runs).toBe(0);
  });

  it('throws naming the capability when no provider offers it [claim:cap-no-provider] [claim:tsdoc-models-unknown]', async () => {
    const models = manager([new TestModelProvider('alpha', { capabilities: [echoText('alpha')] })]);
    const error = await errorOf(models.call('sentiment', { text: 'x' }));
    expect(error.code).toBe('WEFT_CAPABILITY_UNAVAILABLE');
    expect(error.message).toMatch(/^ModelManager: cannot call capability "sentiment": /);
    expect(error.message).toContain('(providers: "alpha")');
    expect(models.canProvide('sentiment')).toBe(false);
    expect(models.canProvide('text-generation')).toBe(true);
  });

  it('gives a misspelt capability id WEFT_CAPABILITY_UNKNOWN, not UNAVAILABLE (errors reference) [claim:tsdoc-models-unknown] [claim:cap-unknown-id]', async () => {
    const models = manager([new TestModelProvider('alpha', { capabilities: [echoText('alpha')] })]);
    const error = await errorOf(models.callDynamic('sentimnet', { text: 'x' }));
    expect(error.code).toBe('WEFT_CAPABILITY_UNKNOWN');
    expect(error.message).toContain('capability "sentimnet" is not registered');
    expect((error as { docsUrl?: string }).docsUrl).toBe(
      'https://weft-ai.github.io/docs/reference/errors/#weft_capability_unknown',
    );
  });

  it('throws naming a capability that a provider offers but nobody defined', async () => {
    const models = manager([
      new TestModelProvider('alpha', { capabilities: [{ id: 'ocr', run: async () => ({}) }] }),
    ]);
    const error = await errorOf(models.callDynamic('ocr', {}));
    expect(error.code).toBe('WEFT_CAPABILITY_UNKNOWN');
    expect(error.message).toContain('capability "ocr" is not registered');
  });

  it('serves a capability through an alias without a transform [claim:mpi-alias] [claim:tr-alias-order] [claim:tr-alias-validated-twice] [claim:core-readme-aliases] [claim:cap-alias-checked-both] [claim:wp-alias-transform]', async () => {
    const models = manager(
      [new TestModelProvider('alpha', { capabilities: [echoText('alpha')] })],
      chatAliasOfText,
    );
    expect(models.canProvide('chat')).toBe(true);
    expect(await models.callDynamic('chat', hello)).toEqual({ text: 'alpha:hello' });
    // The input is checked against the requested schema (chat takes only user messages)...
    const requested = await errorOf(
      models.callDynamic('chat', { messages: [{ role: 'system', content: 'x' }] }),
    );
    expect(requested.message).toContain('input for capability "chat" is invalid');
    // ...and again against the serving one (text-generation needs at least one message).
    const serving = await errorOf(models.callDynamic('chat', { messages: [] }));
    expect(serving.code).toBe('WEFT_VALIDATION_FAILED');
    expect(serving.message).toContain(
      'input for capability "text-generation" (serving "chat") is invalid',
    );
    // The answer is checked against the serving capability's output schema first.
    const wrongText: ModelCapability = { id: 'text-generation', run: async () => ({ text: 42 }) };
    const sloppy = manager(
      [new TestModelProvider('sloppy', { capabilities: [wrongText] })],
      chatAliasOfText,
    );
    const answer = await errorOf(sloppy.callDynamic('chat', hello));
    expect(answer.code).toBe('WEFT_VALIDATION_FAILED');
    expect(answer.message).toContain(
      'provider "sloppy" returned invalid output for capability "text-generation"',
    );
  });

  it('serves the requested id with its own provider, even one listed after a provider of an alias, unless the call names the alias provider [claim:tr-alias-order] [claim:wp-alias-fallback]', async () => {
    const direct = { ...echoText('direct'), id: 'chat' };
    const models = manager(
      [
        new TestModelProvider('alias', { capabilities: [echoText('alias')] }),
        new TestModelProvider('direct', { capabilities: [direct] }),
      ],
      chatAliasOfText,
    );
    expect(await models.callDynamic('chat', hello)).toEqual({ text: 'direct:hello' });
    // The other way round, text-generation is served by its own provider too.
    expect(await models.generateText('hello')).toBe('alias:hello');
    // A named provider is the only one considered, so it serves through the alias.
    expect(await models.callDynamic('chat', hello, { provider: 'alias' })).toEqual({
      text: 'alias:hello',
    });
  });

  it('tries the aliases in the order of the groups, and within a group in its order, whatever the order of the providers [claim:tr-alias-order]', async () => {
    const dialogue = defineCapability({ ...chat, id: 'dialogue' });
    const talk = defineCapability({ ...chat, id: 'talk' });
    // The provider of `talk` is listed first, so only the order of the ids can pick `dialogue`.
    const providers = () => [
      new TestModelProvider('talker', { capabilities: [{ ...echoText('talk'), id: 'talk' }] }),
      new TestModelProvider('speaker', {
        capabilities: [{ ...echoText('dialogue'), id: 'dialogue' }],
      }),
    ];
    const withGroups = (...groups: string[][]) =>
      manager(providers(), (registry) => {
        registry.register(chat);
        registry.register(dialogue);
        registry.register(talk);
        for (const group of groups) registry.addAliasGroup(group);
      });
    const served = async (models: ModelManager) =>
      ((await models.callDynamic('chat', hello)) as { text: string }).text;
    expect(await served(withGroups(['chat', 'dialogue', 'talk']))).toBe('dialogue:hello');
    expect(await served(withGroups(['talk', 'chat', 'dialogue']))).toBe('talk:hello');
    expect(await served(withGroups(['chat', 'dialogue'], ['talk', 'chat']))).toBe('dialogue:hello');
    expect(await served(withGroups(['talk', 'chat'], ['chat', 'dialogue']))).toBe('talk:hello');
  });

  it("checks an alias's answer against the requested capability's output schema too [claim:cap-validates-both-ways] [claim:tr-alias-validated-twice] [claim:cap-alias-checked-both]", async () => {
    const moodyChat = defineCapability({
      id: 'moody-chat',
      description: 'Chat that also reports a mood.',
      input: z.object({
        messages: z.array(z.object({ role: z.enum(['user']), content: z.string() })),
      }),
      output: z.object({ text: z.string(), mood: z.string() }),
    });
    const models = manager(
      [new TestModelProvider('alpha', { capabilities: [echoText('alpha')] })],
      (registry) => {
        registry.register(moodyChat);
        registry.addAliasGroup(['moody-chat', 'text-generation']);
      },
    );
    const error = await errorOf(models.callDynamic('moody-chat', hello));
    expect(error.code).toBe('WEFT_VALIDATION_FAILED');
    expect(error.message).toContain(
      'ModelManager: output of capability "text-generation" (serving "moody-chat") is invalid',
    );
    expect(error.message).toContain('mood');
  });

  it('applies transforms both ways when serving through an alias [claim:tr-alias-validated-twice] [claim:tr-members] [claim:mpi-alias] [claim:wp-alias-transform]', async () => {
    const { models, seen } = summariseThroughText();
    expect(await models.callDynamic('summarise', { text: 'a long story' })).toEqual({
      summary: 'alpha:Summarise: a long story',
    });
    expect(seen[0]?.input).toEqual({
      messages: [{ role: 'user', content: 'Summarise: a long story' }],
    });
  });

  it("gives the transform's input function the caller's input validated against from's schema, defaults applied, and validates its result against to's schema [claim:tr-input-row]", async () => {
    const brief = defineCapability({
      id: 'brief',
      description: 'Summarises a text in a style.',
      input: z.object({ text: z.string().min(1), style: z.string().default('plain') }),
      output: z.object({ summary: z.string() }),
    });
    const received: unknown[] = [];
    const seen: { input: unknown; options: unknown }[] = [];
    const models = manager(
      [new TestModelProvider('alpha', { capabilities: [echoText('alpha', seen)] })],
      (registry) => {
        registry.register(brief);
        registry.addAliasGroup(['brief', 'text-generation']);
        registry.addTransform({
          from: 'brief',
          to: 'text-generation',
          input: (input) => {
            received.push(input);
            const { text } = input as { text: string };
            // An empty text makes an input text-generation refuses: no message at all.
            return { messages: text === 'nothing' ? [] : [{ role: 'user', content: text }] };
          },
          output: (output) => ({ summary: (output as { text: string }).text }),
        });
      },
    );
    await models.callDynamic('brief', { text: 'story' });
    expect(received).toEqual([{ text: 'story', style: 'plain' }]);

    const refusedBefore = await errorOf(models.callDynamic('brief', { text: '' }));
    expect(refusedBefore.code).toBe('WEFT_VALIDATION_FAILED');
    expect(received).toHaveLength(1);

    const refusedAfter = await errorOf(models.callDynamic('brief', { text: 'nothing' }));
    expect(refusedAfter.code).toBe('WEFT_VALIDATION_FAILED');
    expect(refusedAfter.message).toContain('"text-generation"');
    expect(received).toHaveLength(2);
    expect(seen).toHaveLength(1);
  });

  it("maps the caller's options with the transform's options function [claim:tr-members] [claim:tr-options-unchanged] [claim:wp-alias-transform]", async () => {
    const { models, seen } = summariseThroughText({
      options: (options) => ({ maxTokens: (options as { words?: number }).words ?? 50 }),
    });
    await models.callDynamic('summarise', { text: 'story' }, { options: { words: 20 } });
    expect(seen[0]?.options).toEqual({ maxTokens: 20 });
  });

  it("passes the caller's options unchanged through a transform without an options function, checked against the serving config [claim:tr-options-unchanged]", async () => {
    const { models, seen } = summariseThroughText();
    await models.callDynamic('summarise', { text: 'story' }, { options: { temperature: 0.3 } });
    expect(seen[0]?.options).toEqual({ temperature: 0.3 });
    const error = await errorOf(
      models.callDynamic('summarise', { text: 'story' }, { options: { temperature: 5 } }),
    );
    expect(error.code).toBe('WEFT_VALIDATION_FAILED');
    expect(error.message).toContain('options for capability "text-generation" are invalid');
    expect(seen).toHaveLength(1);
  });

  it("hands the provider what from's config schema returned when the serving capability has no config schema and the transform no options function [claim:tr-options-unchanged]", async () => {
    const styled = defineCapability({
      id: 'styled-chat',
      description: 'Chat in a style.',
      input: z.object({ text: z.string() }),
      output: z.object({ text: z.string() }),
      config: z.object({ style: z.enum(['exact', 'free']).default('exact') }),
    });
    const chatSeen: unknown[] = [];
    const models = manager(
      [
        new TestModelProvider('talker', {
          capabilities: [
            {
              id: 'chat',
              run: async (_input, request) => {
                chatSeen.push(request.options);
                return { text: 'ok' };
              },
            },
          ],
        }),
      ],
      (registry) => {
        registry.register(chat);
        registry.register(styled);
        registry.addAliasGroup(['styled-chat', 'chat']);
        registry.addTransform({
          from: 'styled-chat',
          to: 'chat',
          input: (input) => ({
            messages: [{ role: 'user', content: (input as { text: string }).text }],
          }),
          output: (output) => output,
        });
      },
    );
    await models.callDynamic('styled-chat', { text: 'hi' });
    await models.callDynamic('styled-chat', { text: 'hi' }, { options: { style: 'free', x: 1 } });
    // chat has no config schema: its provider gets styled-chat's parsed options, defaults filled in.
    expect(chatSeen).toEqual([{ style: 'exact' }, { style: 'free' }]);
  });

  it('rejects a transform that produces invalid output, naming it [claim:tr-invalid-output]', async () => {
    const { models } = summariseThroughText({ output: () => ({ wrong: true }) });
    const error = await errorOf(models.callDynamic('summarise', { text: 'x' }));
    expect(error.code).toBe('WEFT_VALIDATION_FAILED');
    expect(error.message).toMatch(
      /^ModelManager: transform "summarise" -> "text-generation" produced invalid output: .*summary/s,
    );
  });

  it("gives the options function the caller's options validated against from's config, defaults filled in, and checks its result against to's config only when to has one [claim:tr-options-row] [claim:tsdoc-transform-options]", async () => {
    // summarise has no config schema: the function receives {} when the caller gives none.
    const received: unknown[] = [];
    const { models, seen } = summariseThroughText({
      options: (options) => {
        received.push(options);
        return 'bad' in (options as object) ? { maxTokens: 0 } : { temperature: 0.2 };
      },
    });
    await models.callDynamic('summarise', { text: 'story' });
    expect(received).toEqual([{}]);
    expect(seen[0]?.options).toEqual({ temperature: 0.2 });
    // Its result is validated against text-generation's config before the provider is called.
    const invalid = await errorOf(
      models.callDynamic('summarise', { text: 'story' }, { options: { bad: true } }),
    );
    expect(invalid.code).toBe('WEFT_VALIDATION_FAILED');
    expect(invalid.message).toContain('options for capability "text-generation" are invalid');
    expect(seen).toHaveLength(1);

    // from with a config schema: its defaults are filled in, and a bad value stops the call
    // before the function; to (chat) has none, so the function's result reaches the provider as is.
    const styled = defineCapability({
      id: 'styled-chat',
      description: 'Chat in a style.',
      input: z.object({ text: z.string() }),
      output: z.object({ text: z.string() }),
      config: z.object({ style: z.enum(['exact', 'free']).default('exact') }),
    });
    const styledReceived: unknown[] = [];
    const chatSeen: unknown[] = [];
    const chatting = manager(
      [
        new TestModelProvider('talker', {
          capabilities: [
            {
              id: 'chat',
              run: async (_input, request) => {
                chatSeen.push(request.options);
                return { text: 'ok' };
              },
            },
          ],
        }),
      ],
      (registry) => {
        registry.register(chat);
        registry.register(styled);
        registry.addAliasGroup(['styled-chat', 'chat']);
        registry.addTransform({
          from: 'styled-chat',
          to: 'chat',
          input: (input) => ({
            messages: [{ role: 'user', content: (input as { text: string }).text }],
          }),
          options: (options) => {
            styledReceived.push(options);
            return { tone: (options as { style: string }).style, undeclared: true };
          },
          output: (output) => output,
        });
      },
    );
    await chatting.callDynamic('styled-chat', { text: 'hi' });
    expect(styledReceived).toEqual([{ style: 'exact' }]);
    expect(chatSeen).toEqual([{ tone: 'exact', undeclared: true }]);
    const refused = await errorOf(
      chatting.callDynamic('styled-chat', { text: 'hi' }, { options: { style: 'loud' } }),
    );
    expect(refused.code).toBe('WEFT_VALIDATION_FAILED');
    expect(refused.message).toContain('options for capability "styled-chat" are invalid');
    expect(styledReceived).toHaveLength(1);
  });

  it("without an options function, drops the options keys that from's or to's config schema does not declare, with no error [claim:tr-options-dropped] [claim:tsdoc-transform-options]", async () => {
    // The summarise of the transforms page: a config with a style, served by text-generation.
    const styledSummary = defineCapability({
      id: 'styled-summary',
      description: 'Summarises a text in a style.',
      input: z.object({ text: z.string().min(1) }),
      output: z.object({ summary: z.string() }),
      config: z.object({ style: z.enum(['exact', 'free']).default('exact') }),
    });
    const seen: { input: unknown; options: unknown }[] = [];
    const models = manager(
      [new TestModelProvider('alpha', { capabilities: [echoText('alpha', seen)] })],
      (registry) => {
        registry.register(styledSummary);
        registry.addAliasGroup(['styled-summary', 'text-generation']);
        registry.addTransform({
          from: 'styled-summary',
          to: 'text-generation',
          input: (input) => ({
            messages: [{ role: 'user', content: (input as { text: string }).text }],
          }),
          output: (output) => ({ summary: (output as { text: string }).text }),
        });
      },
    );
    await models.callDynamic(
      'styled-summary',
      { text: 'story' },
      { options: { style: 'free', temperature: 0.3 } },
    );
    // A temperature out of text-generation's range is dropped by from's schema before to's sees it.
    await models.callDynamic('styled-summary', { text: 'story' }, { options: { temperature: 5 } });
    expect(seen.map((call) => call.options)).toEqual([{}, {}]);
  });

  it.each(['input', 'options', 'output'] as const)(
    "lets an exception thrown by the transform's %s function reach the caller unwrapped [claim:tr-transform-throws]",
    async (member) => {
      const thrown = new TypeError(`the ${member} function broke`);
      const { models, seen } = summariseThroughText({
        [member]: () => {
          throw thrown;
        },
      });
      const error = await errorOf(models.callDynamic('summarise', { text: 'story' }));
      expect(error).toBe(thrown);
      expect(WeftError.is(error)).toBe(false);
      // The provider runs only when the input and the options were converted.
      expect(seen).toHaveLength(member === 'output' ? 1 : 0);
    },
  );

  it('awaits async transform functions, and a rejection reaches the caller as it was thrown [claim:tr-async-functions] [claim:tr-transform-throws]', async () => {
    const { models, seen } = summariseThroughText({
      input: async (input) => ({
        messages: [{ role: 'user', content: `Summarise: ${(input as { text: string }).text}` }],
      }),
      options: async () => ({ temperature: 0.4 }),
      output: async (output) => ({ summary: (output as { text: string }).text }),
    });
    expect(await models.callDynamic('summarise', { text: 'story' })).toEqual({
      summary: 'alpha:Summarise: story',
    });
    expect(seen).toEqual([
      {
        input: { messages: [{ role: 'user', content: 'Summarise: story' }] },
        options: { temperature: 0.4 },
      },
    ]);
    for (const member of ['input', 'options', 'output'] as const) {
      const thrown = new TypeError(`the async ${member} function broke`);
      const failing = summariseThroughText({ [member]: async () => Promise.reject(thrown) });
      expect(await errorOf(failing.models.callDynamic('summarise', { text: 'story' }))).toBe(
        thrown,
      );
      expect(failing.seen).toHaveLength(member === 'output' ? 1 : 0);
    }
  });

  it.each(['input', 'options', 'output'] as const)(
    'releases the caller with the signal’s reason when its %s transform never settles, the provider called only for output [claim:tr-transform-signal]',
    async (member) => {
      const entered = deferred();
      const { models, seen } = summariseThroughText({
        [member]: () => {
          entered.resolve();
          return new Promise(() => undefined);
        },
      });
      const controller = new AbortController();
      const reason = new Error('the caller gave up');
      const call = errorOf(
        models.callDynamic('summarise', { text: 'story' }, { signal: controller.signal }),
      );
      await entered.promise;
      controller.abort(reason);
      expect(await call).toBe(reason);
      expect(seen).toHaveLength(member === 'output' ? 1 : 0);
    },
  );

  it.each(['input', 'options', 'output'] as const)(
    'releases the caller with the signal’s reason when an async refinement of its %s schema never settles, the provider called only for output [claim:cap-async-schema-signal]',
    async (member) => {
      const entered = deferred();
      const hang = z.unknown().refine(() => {
        entered.resolve();
        return new Promise<boolean>(() => undefined);
      });
      const stuck = defineCapability({
        id: 'stuck-check',
        description: 'Checks one of its values with a look-up that never answers.',
        input: member === 'input' ? hang : z.object({ text: z.string() }),
        output: member === 'output' ? hang : z.object({ text: z.string() }),
        ...(member === 'options' ? { config: hang } : {}),
      });
      let runs = 0;
      const models = manager(
        [
          new TestModelProvider('alpha', {
            capabilities: [
              {
                id: 'stuck-check',
                run: async () => {
                  runs += 1;
                  return { text: 'ran' };
                },
              },
            ],
          }),
        ],
        (registry) => registry.register(stuck),
      );
      const controller = new AbortController();
      const reason = new Error('the caller gave up');
      const call = errorOf(
        models.callDynamic('stuck-check', { text: 'x' }, { signal: controller.signal }),
      );
      await entered.promise;
      const aborted = performance.now();
      controller.abort(reason);
      expect(await call).toBe(reason);
      // The check gets the grace a provider gets: the caller waits for it, up to 10 ms.
      expect(performance.now() - aborted).toBeGreaterThanOrEqual(9);
      expect(runs).toBe(member === 'output' ? 1 : 0);
    },
  );

  it.each([
    ['input', 'throws'],
    ['options', 'throws'],
    ['output', 'throws'],
    ['input', 'answers'],
    ['output', 'answers'],
  ] as const)(
    'gives the caller what an async refinement of its %s schema that %s within the 10 ms after the abort leads to: its error, or else the signal’s reason [claim:cap-async-schema-signal]',
    async (member, outcome) => {
      const controller = new AbortController();
      const entered = deferred();
      const lookupDown = new Error('the look-up stopped with the caller');
      // A look-up that gives up when the caller does: it rejects on the abort itself, well
      // within the grace, so the timing of the test does not depend on the machine's load.
      const stopping = z.unknown().refine(() => {
        entered.resolve();
        return new Promise<boolean>((resolve, reject) => {
          controller.signal.addEventListener(
            'abort',
            () => (outcome === 'throws' ? reject(lookupDown) : resolve(false)),
            { once: true },
          );
        });
      });
      const stops = defineCapability({
        id: 'stopping-check',
        description: 'Checks one of its values with a look-up that stops on abort.',
        input: member === 'input' ? stopping : z.object({ text: z.string() }),
        output: member === 'output' ? stopping : z.object({ text: z.string() }),
        ...(member === 'options' ? { config: stopping } : {}),
      });
      let runs = 0;
      const models = manager(
        [
          new TestModelProvider('alpha', {
            capabilities: [
              {
                id: 'stopping-check',
                run: async () => {
                  runs += 1;
                  return { text: 'ran' };
                },
              },
            ],
          }),
        ],
        (registry) => registry.register(stops),
      );
      const call = errorOf(
        models.callDynamic('stopping-check', { text: 'x' }, { signal: controller.signal }),
      );
      await entered.promise;
      const reason = new Error('the caller gave up');
      controller.abort(reason);
      // An answer after the abort is dropped, a failing one too: only a throw is passed on.
      expect(await call).toBe(outcome === 'throws' ? lookupDown : reason);
      expect(runs).toBe(member === 'output' ? 1 : 0);
    },
  );

  it('uses the first provider by default, the default provider when set, and request.provider above both [claim:tr-named-provider-only] [claim:cap-request-provider] [claim:cap-choose-provider] [claim:cap-call-picks-provider] [claim:tr-provider-choice] [claim:trouble-default-provider] [claim:mpi-selection-order] [claim:mpo-id-selects] [claim:tut-default-providers] [claim:tut-first-provider] [claim:wp-routing]', async () => {
    const models = manager([
      new TestModelProvider('alpha', { capabilities: [echoText('alpha')] }),
      new TestModelProvider('beta', { capabilities: [echoText('beta')] }),
    ]);
    expect(await models.generateText('x')).toBe('alpha:x');
    models.setDefaultProvider('text-generation', 'beta');
    expect(await models.generateText('x')).toBe('beta:x');
    expect(await models.generateText('x', { provider: 'alpha' })).toBe('alpha:x');
  });

  it('names the provider that request.provider asks for when it cannot serve, and tries no other [claim:tr-named-provider-only] [claim:tr-provider-choice] [claim:mpi-selection-order] [claim:wp-routing] [claim:cap-request-provider]', async () => {
    const models = manager([
      new TestModelProvider('alpha', { capabilities: [echoText('alpha')] }),
      new TestModelProvider('scorer', {
        capabilities: [{ id: 'sentiment', run: async () => ({ score: 0 }) }],
      }),
    ]);
    // An id no provider has, a provider that offers other capabilities only, and an empty id,
    // which names no provider rather than leaving the choice to the defaults.
    for (const provider of ['gamma', 'scorer', '']) {
      const error = await errorOf(models.generateText('x', { provider }));
      expect(error.code).toBe('WEFT_CAPABILITY_UNAVAILABLE');
      expect(error.message).toContain(`provider "${provider}" does not offer it`);
    }
  });

  it('rejects a default provider that does not exist or does not offer the capability [claim:cap-default-checked] [claim:tsdoc-models-default-provider]', () => {
    const models = manager([new TestModelProvider('alpha', { capabilities: [echoText('alpha')] })]);
    expect(() => models.setDefaultProvider('text-generation', 'ghost')).toThrow(
      'cannot make "ghost" the default for "text-generation": no provider has that id (known: "alpha")',
    );
    expect(() => models.setDefaultProvider('sentiment', 'alpha')).toThrow(
      'provider "alpha" does not offer capability "sentiment"',
    );
  });

  it('refuses as a default a provider that serves the capability only through an alias [claim:errors-capability-default-direct] [claim:cap-default-checked]', async () => {
    const models = manager(
      [new TestModelProvider('alpha', { capabilities: [echoText('alpha')] })],
      chatAliasOfText,
    );
    // Calls reach it through the alias, but it cannot be the default of the alias's id.
    expect(await models.callDynamic('chat', hello, { provider: 'alpha' })).toEqual({
      text: 'alpha:hello',
    });
    const error = await errorOf(() => models.setDefaultProvider('chat', 'alpha'));
    expect(error.code).toBe('WEFT_CAPABILITY_UNAVAILABLE');
  });

  it('reports each call to analytics, with the provider id and token usage when the output has it, a call its bulkhead refuses as failed, and not a call refused before it reached one [claim:mpo-id-selects] [claim:tsdoc-models-analytics]', async () => {
    const providers: string[] = [];
    const analytics = new AnalyticsManager({
      enabled: true,
      trackers: [{ onModelCall: (call) => providers.push(call.providerId) }],
    });
    const withUsage: ModelCapability = {
      id: 'text-generation',
      run: async () => ({ text: 'ok', usage: { inputTokens: 12, outputTokens: 5 } }),
    };
    const models = manager(
      [new TestModelProvider('alpha', { capabilities: [withUsage] })],
      undefined,
      analytics,
    );
    await models.generateText('x');
    await errorOf(models.call('text-generation', { messages: [] }));
    await errorOf(models.generateText('x', { signal: AbortSignal.abort() }));
    const data = analytics.snapshot();
    expect(data.modelCalls.total).toBe(1);
    expect(data.modelCalls.byCapability['text-generation']?.calls).toBe(1);
    expect(data.tokens).toEqual({ input: 12, output: 5 });
    // The call refused before it reached a provider is not reported.
    expect(providers).toEqual(['alpha']);
    // One its provider's bulkhead refuses went past those checks: it counts, as a failed call.
    const full: CallGuard = () =>
      Promise.reject(new WeftError('WEFT_QUEUE_FULL', 'Bulkhead: model:alpha is full.'));
    await errorOf(models.forTask(new AbortController().signal, full).generateText('x'));
    expect(analytics.snapshot().modelCalls).toMatchObject({ total: 2, failed: 1 });
    expect(providers).toEqual(['alpha', 'alpha']);
  });

  it('lists its providers in configuration order', () => {
    const alpha = new TestModelProvider('alpha', { capabilities: [echoText('alpha')] });
    const beta = new TestModelProvider('beta');
    expect(manager([alpha, beta]).providers).toEqual([alpha, beta]);
  });
});

function textModel(id: string, run: ModelCapability['run']): TestModelProvider {
  return new TestModelProvider(id, { capabilities: [{ id: 'text-generation', run }] });
}

/** A text model "polite" whose call honours the signal: it rejects with `own` once aborted. */
function politeModel(own: Error): TestModelProvider {
  return textModel(
    'polite',
    (_input, request) =>
      new Promise((_resolve, reject) => {
        request.signal?.addEventListener('abort', () => reject(own), { once: true });
      }),
  );
}

/** A manager over the given providers with the two templates getObject renders. */
function managerOf(...providers: TestModelProvider[]): ModelManager {
  const prompts = new PromptRegistry();
  prompts.register('core', 'get-object', '{{ system }} {{ schemaName }} {{ schema }}');
  prompts.register('core', 'get-object-retry', '{{ schemaName }} {{ error }}');
  return new ModelManager({ registry: new CapabilityRegistry(), providers, prompts });
}

/** A manager whose one text model always answers `text`, and how many times it was called. */
function countingModels(text: string): { models: ModelManager; calls: () => number } {
  let calls = 0;
  const models = managerOf(
    textModel('counting', async () => {
      calls += 1;
      return { text };
    }),
  );
  return { models, calls: () => calls };
}

describe('ModelManager errors', () => {
  it("rethrows a provider's own WeftError as it is, and wraps anything else in WEFT_PROVIDER_FAILED [claim:tsdoc-models-provider-error]", async () => {
    const own = new WeftError('WEFT_QUEUE_FULL', 'Provider: its own error.', { status: 503 });
    const passing = managerOf(
      textModel('own', async () => {
        throw own;
      }),
    );
    expect(await errorOf(passing.callDynamic('text-generation', hello))).toBe(own);
    const wrapping = managerOf(
      textModel('plain', async () => {
        throw new TypeError('boom');
      }),
    );
    const wrapped = await errorOf(wrapping.callDynamic('text-generation', hello));
    expect(wrapped.code).toBe('WEFT_PROVIDER_FAILED');
    expect(wrapped.message).toContain('"plain"');
  });

  it('releases a getObject caller with the signal’s reason when an async refinement of its schema never settles [claim:go-schema-signal]', async () => {
    const { models, calls } = countingModels('{"a": "x"}');
    const entered = deferred();
    const schema = z.object({ a: z.string() }).refine(() => {
      entered.resolve();
      return new Promise<boolean>(() => undefined);
    });
    const controller = new AbortController();
    const reason = new Error('the caller gave up');
    const call = errorOf(
      models.getObject({ schema, prompt: 'x', request: { signal: controller.signal } }),
    );
    await entered.promise;
    controller.abort(reason);
    expect(await call).toBe(reason);
    expect(calls()).toBe(1);
  });

  it('refuses a negative getObject maxRetries with WEFT_INVALID_ARGUMENT, before any model call [claim:tsdoc-models-get-object-retries]', async () => {
    const { models, calls } = countingModels('{}');
    const error = await errorOf(
      models.getObject({ schema: z.object({ a: z.string() }), prompt: 'x', maxRetries: -1 }),
    );
    expect(error.code).toBe('WEFT_INVALID_ARGUMENT');
    expect(calls()).toBe(0);
  });

  it('fails getObject with WEFT_GET_OBJECT_FAILED naming the schema after 1 + maxRetries attempts [claim:tsdoc-models-get-object-failed]', async () => {
    const { models, calls } = countingModels('{"a": 1}');
    const error = await errorOf(
      models.getObject({
        schema: z.object({ a: z.string() }),
        schemaName: 'Thing',
        prompt: 'x',
        maxRetries: 1,
      }),
    );
    expect(error.code).toBe('WEFT_GET_OBJECT_FAILED');
    expect(error.message).toContain('"Thing"');
    expect(calls()).toBe(2);
  });
});

/** A logger that keeps the fields of its warnings; everything else is dropped. */
function recordingLogger(warnings: Record<string, unknown>[]): Logger {
  const logger = {
    warn: (fields: Record<string, unknown>) => warnings.push(fields),
    debug: () => undefined,
    child: () => logger,
  };
  return logger as unknown as Logger;
}

describe('ModelProvider.resolve', () => {
  it('reads a value, a function returning it, or an async function [claim:mpo-resolve]', async () => {
    class Reader extends ModelProvider {
      readonly id = 'reader';
      readonly capabilities = [];
      read<T>(value: T | (() => T | Promise<T>)): Promise<T> {
        return this.resolve(value);
      }
    }
    const reader = new Reader();
    expect(await reader.read('sk-plain')).toBe('sk-plain');
    expect(await reader.read(() => 'sk-sync')).toBe('sk-sync');
    expect(await reader.read(async () => 'sk-async')).toBe('sk-async');
  });
});
