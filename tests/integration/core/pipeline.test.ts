import {
  formatZodSchema,
  MemoryManager,
  PipelineSchema,
  Scheduler,
  type ModelRequestTask,
} from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { capturingLogger } from '@weft-internal/test-support/capturing-logger';
import {
  echoPlugin,
  pingerPlugin,
  startedRuntime,
  plan,
  planner,
  recordingExecutor,
  TestPlugin,
} from './fixtures.js';

/** Two plugins: `notes` (save, list) and `mail` (send), with recording executors. */
function toolPlugins() {
  const save = recordingExecutor(
    'save',
    { success: true, data: { saved: 1 }, message: 'saved' },
    'Saves a note for later.',
  );
  const list = recordingExecutor('list', { success: true, data: ['a'] }, 'Lists the saved notes.');
  const send = recordingExecutor(
    'send',
    { success: true, data: { sent: true } },
    'Sends an email to the user.',
  );
  return {
    save,
    list,
    send,
    plugins: [
      new TestPlugin('notes', { executors: [save, list] }),
      new TestPlugin('mail', { executors: [send] }),
    ],
  };
}

describe('dispatch', () => {
  it('creates a task whose chain starts with the trigger item [claim:exec-chain-items] [claim:trig-trigger-item] [claim:task-built-with-trigger-item] [claim:core-readme-trigger-task]', async () => {
    const { runtime } = await startedRuntime({ responses: planner() });
    const task = await runtime.dispatch({
      pluginId: 'echo',
      triggerId: 'message',
      space: 'room-1',
      message: 'hello',
      data: { user: 7 },
      metadata: { requestId: 'r-1' },
    });
    expect(task.id).toMatch(/^[0-9a-f-]{36}$/);
    // Each task gets a fresh id, even for the same event.
    const again = await runtime.dispatch({
      pluginId: 'echo',
      triggerId: 'message',
      space: 'room-1',
    });
    expect(again.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(again.id).not.toBe(task.id);
    expect(task.space).toEqual({ id: 'room-1' });
    expect(task.metadata).toEqual({ requestId: 'r-1' });
    expect(task.createdAt).toBeInstanceOf(Date);
    expect(task.status).toBe('completed');
    expect(task.chain).toHaveLength(1);
    expect(task.chain[0]).toBe(task.trigger);
    expect(task.trigger).toMatchObject({
      type: 'trigger',
      pluginId: 'echo',
      action: 'message',
      message: 'hello',
      data: { user: 7 },
    });
  });

  it('takes a triggerId that names none of the plugin’s triggers as the label of the trigger item, for code that dispatches outside a trigger [claim:trig-trigger-id-label]', async () => {
    // `echo` declares no trigger at all, `pinger` only the route `ping`.
    const { runtime } = await startedRuntime({
      plugins: [echoPlugin(), pingerPlugin()],
      responses: planner(),
      options: { server: { port: 0 } },
    });
    for (const [pluginId, triggerId] of [
      ['echo', 'test'],
      ['pinger', 'nightly-import'],
    ] as const) {
      const task = await runtime.dispatch({ pluginId, triggerId, space: 'labels' });
      expect(task.status).toBe('completed');
      expect(task.trigger).toMatchObject({ type: 'trigger', pluginId, action: triggerId });
    }
  });

  it('keeps a Space object with its related spaces and description', async () => {
    const { runtime, model } = await startedRuntime({ responses: planner() });
    const space = { id: 'room-2', relatedSpaces: ['room-*'], description: 'The second room' };
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space });
    expect(task.space).toBe(space);
    expect(model.requests[0]?.[1]?.content).toContain('Space: room-2 (The second room)');
  });
});

describe('planning', () => {
  it('plans through getObject: the schema shown and a bad plan asked again as a getObject call does, in core templates rendered by name from the registry of the plugins [claim:cu-planning-get-object] [claim:cu-core-templates]', async () => {
    const badPlan = { steps: 'all of them' };
    const { runtime, model } = await startedRuntime({
      plugins: [echoPlugin({ templates: { hello: 'Hello {{ name }}' } })],
      responses: { responses: [badPlan, plan(['echo', 'reply'])] },
    });
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    expect(task.status).toBe('completed');
    expect(model.requests).toHaveLength(2);

    // The same schema and answers through getObject itself give the same system and retry messages.
    model.enqueue(badPlan, plan(['echo', 'reply']));
    await runtime.models.getObject({ schema: PipelineSchema, schemaName: 'Pipeline', prompt: 'p' });
    const [planning, planningRetry, direct, directRetry] = model.requests;
    expect(planning?.[0]).toEqual(direct?.[0]);
    expect(planningRetry?.slice(2)).toEqual(directRetry?.slice(2));
    expect(planningRetry?.[3]?.content).toContain(
      'Your previous answer was not valid for the schema Pipeline:\n✖ Invalid input: expected array, received string\n  → at steps',
    );

    // The runtime's own prompts are core/ templates of the registry that holds the plugins' ones,
    // and rendering them by name gives the text the model received.
    expect(runtime.prompts.list()).toEqual(
      expect.arrayContaining(['core/get-object', 'core/pipeline-generation', 'echo/hello']),
    );
    expect(planning?.[0]?.content).toBe(
      await runtime.prompts.render('core/get-object', {
        system: '',
        schemaName: 'Pipeline',
        schema: formatZodSchema(PipelineSchema),
      }),
    );
  });

  it('lets the space a trigger chooses decide which tasks wait for each other and which memories the planner sees [claim:cu-space-decides] [claim:tut-conversations-apart]', async () => {
    const events: string[] = [];
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const work = recordingExecutor('work', async (task) => {
      events.push(`start ${task.trigger.message}`);
      if (task.trigger.message === 'a1') await gate;
      events.push(`end ${task.trigger.message}`);
      return { success: true };
    });
    const { runtime, model } = await startedRuntime({
      plugins: [echoPlugin({ executors: [work] })],
      responses: planner(['echo', 'work']),
    });
    const dispatch = (space: string, message: string) =>
      runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space, message });

    // Released in any case: a test that fails with a1 still held would keep the runtime's stop waiting.
    try {
      const a1 = dispatch('room-a', 'a1');
      await vi.waitFor(() => expect(events).toEqual(['start a1']), { timeout: 5000 });
      const a2 = dispatch('room-a', 'a2');
      const b1 = await dispatch('room-b', 'b1');
      // b1 ran while a1 held room-a; a2, dispatched before b1, still waits for a1.
      expect(b1.status).toBe('completed');
      expect(events).toEqual(['start a1', 'start b1', 'end b1']);
      expect(runtime.scheduler.pending).toBe(1);
      release();
      await Promise.all([a1, a2]);
      expect(events.slice(3)).toEqual(['end a1', 'start a2', 'end a2']);

      const a2Prompt = model.requests.find((messages) =>
        messages[1]?.content.includes('Message: a2'),
      )?.[1]?.content;
      expect(a2Prompt).toContain('space room-a, trigger echo/message: a1');
      expect(a2Prompt).not.toContain('b1');
    } finally {
      release();
    }
  });

  it("tells every model call of a task the task's id and message in request.task [claim:cap-request-task] [claim:gs-routes] [claim:testing-request-task] [claim:tst-task-message] [claim:go-request-task]", async () => {
    const asks = recordingExecutor('ask', async (_task, context) => {
      const text = await context.models.generateText('Say something.');
      return { success: true, message: text };
    });
    const seen: (ModelRequestTask | undefined)[] = [];
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [asks] })],
      responses: {
        fallback: (_messages, request) => {
          seen.push(request.task);
          return request.purpose === 'plan'
            ? plan(['tools', 'ask'])
            : `heard ${request.task?.message ?? 'nothing'}`;
        },
      },
    });
    const task = await runtime.dispatch({
      pluginId: 'tools',
      triggerId: 'message',
      space: 's',
      message: 'what time is it?',
    });
    expect(task.chain.at(-1)?.message).toBe('heard what time is it?');
    expect(seen).toEqual([
      { id: task.id, message: 'what time is it?' },
      { id: task.id, message: 'what time is it?' },
    ]);
    // A call made outside a task carries none.
    await runtime.models.generateText('Outside a task.');
    expect(seen.at(-1)).toBeUndefined();
  });

  it('tells a review call the task too, and a getObject call an executor makes [claim:testing-request-task] [claim:go-request-task] [claim:cap-request-task]', async () => {
    const asks = recordingExecutor('ask', async (_task, context) => {
      await context.getObject({
        schema: z.object({ ok: z.boolean() }),
        schemaName: 'Ok',
        prompt: 'Ok?',
      });
      return { success: true };
    });
    const seen: { purpose: string | undefined; task: ModelRequestTask | undefined }[] = [];
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [asks] })],
      responses: {
        fallback: (_messages, request) => {
          seen.push({ purpose: request.purpose, task: request.task });
          if (request.purpose === 'plan') return plan(['tools', 'ask'], ['tools', 'ask']);
          if (request.purpose === 'review') return { type: 'continue' };
          return { ok: true };
        },
      },
    });
    const task = await runtime.dispatch({
      pluginId: 'tools',
      triggerId: 'message',
      space: 's',
      message: 'check twice',
    });
    expect(task.status).toBe('completed');
    const told = { id: task.id, message: 'check twice' };
    // The default policy reviews after the first of the two steps.
    expect(seen).toEqual([
      { purpose: 'plan', task: told },
      { purpose: 'get-object:Ok', task: told },
      { purpose: 'review', task: told },
      { purpose: 'get-object:Ok', task: told },
    ]);
  });

  it("shows the executors' descriptions and the memories of the space and related spaces [claim:philo-descriptions-in-prompt] [claim:task-plans-with-related-memories] [claim:task-planner-sees-executors-in-order] [claim:sp-planner-memories] [claim:mpm-one-read] [claim:wp-planning-prompt]", async () => {
    const memory = new InMemoryMemoryProvider();
    await memory.store({
      space: 'chat-room-1',
      kind: 'note',
      content: 'room-wide fact',
      metadata: {},
    });
    await memory.store({
      space: 'chat-room-1-user-2',
      kind: 'note',
      content: 'own fact',
      metadata: {},
    });
    await memory.store({
      space: 'chat-room-9',
      kind: 'note',
      content: 'unrelated fact',
      metadata: {},
    });
    const { plugins } = toolPlugins();
    const { runtime, model } = await startedRuntime({ plugins, memory, responses: planner() });
    await runtime.dispatch({
      pluginId: 'notes',
      triggerId: 'message',
      space: { id: 'chat-room-1-user-2', relatedSpaces: ['chat-room-1'] },
      message: 'remember milk',
    });
    const [system, user] = model.requests[0] ?? [];
    expect(system?.content).toContain('(Pipeline)');
    const prompt = user?.content ?? '';
    expect(prompt).toContain('pluginId "notes", action "save": Saves a note for later.');
    expect(prompt).toContain('pluginId "notes", action "list": Lists the saved notes.');
    expect(prompt).toContain('pluginId "mail", action "send": Sends an email to the user.');
    expect(prompt).toContain('Message: remember milk');
    expect(prompt).toContain('space chat-room-1-user-2, note: "own fact"');
    expect(prompt).toContain('space chat-room-1, note: "room-wide fact"');
    expect(prompt).not.toContain('unrelated fact');
    expect(prompt.indexOf('own fact')).toBeLessThan(prompt.indexOf('room-wide fact'));
  });

  it("leaves the task's own trigger out of its related memories [claim:task-planner-sees-earlier-tasks] [claim:sp-planner-memories]", async () => {
    const memory = new InMemoryMemoryProvider();
    await memory.store({ space: 's', kind: 'note', content: 'earlier fact', metadata: {} });
    const { runtime, model } = await startedRuntime({
      memory,
      responses: planner(),
      options: { relatedMemories: 1 },
    });
    await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's', message: 'now' });
    const prompt = model.requests[0]?.[1]?.content ?? '';
    const related = prompt.slice(prompt.indexOf('## Earlier tasks and related memories'));
    expect(related).toContain('earlier fact');
    expect(related).not.toContain('trigger echo/message');
  });

  it('caps the related memories at options.relatedMemories [claim:task-planner-memory-limits] [claim:sp-limits] [claim:liq-related-text] [claim:wp-planning-prompt] [claim:wp-limits-recency] [claim:index-planner-history] [claim:scaling-history-shared]', async () => {
    const memory = new InMemoryMemoryProvider();
    for (const n of [1, 2, 3])
      await memory.store({ space: 's', kind: 'note', content: `fact ${n}`, metadata: {} });
    const { runtime, model } = await startedRuntime({
      memory,
      responses: planner(),
      options: { relatedMemories: 1 },
    });
    await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    const prompt = model.requests[0]?.[1]?.content ?? '';
    expect(prompt.match(/^- .* UTC, space s, /gm)).toHaveLength(1);
    // The one entry shown is the newest, whatever the others hold.
    expect(prompt).toContain('note: "fact 3"');
    expect(prompt).not.toContain('fact 1');
    expect(prompt).not.toContain('fact 2');
  });

  it('takes a plan of { pluginId, action } steps, each with an optional reason the task keeps [claim:index-planner-history] [claim:task-plans-with-related-memories]', async () => {
    const { save, list, plugins } = toolPlugins();
    const { runtime } = await startedRuntime({
      plugins,
      responses: {
        responses: [
          {
            steps: [
              { pluginId: 'notes', action: 'save', reason: 'the user asked to keep it' },
              { pluginId: 'notes', action: 'list' },
            ],
          },
          { type: 'continue' },
        ],
      },
    });
    const task = await runtime.dispatch({ pluginId: 'notes', triggerId: 'message', space: 's' });
    expect(task.status).toBe('completed');
    expect([save.calls.length, list.calls.length]).toEqual([1, 1]);
    expect(task.steps).toEqual([
      { pluginId: 'notes', action: 'save', reason: 'the user asked to keep it' },
      { pluginId: 'notes', action: 'list' },
    ]);
  });
});

describe('running steps', () => {
  it('runs the planned steps in order and appends their results [claim:philo-compose] [claim:wp-graph-bounds] [claim:exec-chain-items] [claim:philo-descriptions-in-prompt] [claim:task-step-result-or-error-item] [claim:task-status-completed] [claim:gs-what-happened-result] [claim:core-readme-steps-in-order] [claim:wp-limits-sequential]', async () => {
    const { save, list, send, plugins } = toolPlugins();
    const order: string[] = [];
    // Start and end of each step, across a wait: steps run side by side would interleave here.
    const spans: string[] = [];
    for (const executor of [save, list, send]) {
      const execute = executor.execute.bind(executor);
      executor.execute = async (task, context) => {
        const name = `${context.pluginId}/${executor.action}`;
        order.push(name);
        spans.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        const result = await execute(task, context);
        spans.push(`end ${name}`);
        return result;
      };
    }
    const { runtime } = await startedRuntime({
      plugins,
      responses: planner(['notes', 'save'], ['mail', 'send'], ['notes', 'list']),
    });
    const task = await runtime.dispatch({ pluginId: 'notes', triggerId: 'message', space: 's' });
    expect(order).toEqual(['notes/save', 'mail/send', 'notes/list']);
    expect(spans).toEqual([
      'start notes/save',
      'end notes/save',
      'start mail/send',
      'end mail/send',
      'start notes/list',
      'end notes/list',
    ]);
    expect(task.status).toBe('completed');
    expect(task.steps.map((step) => `${step.pluginId}/${step.action}`)).toEqual([
      'notes/save',
      'mail/send',
      'notes/list',
    ]);
    expect(task.chain.map((item) => [item.type, item.pluginId, item.action])).toEqual([
      ['trigger', 'notes', 'message'],
      ['result', 'notes', 'save'],
      ['result', 'mail', 'send'],
      ['result', 'notes', 'list'],
    ]);
    expect(task.chain[1]).toMatchObject({ data: { saved: 1 }, message: 'saved' });
    expect(task.chain[2]?.timestamp).toBeInstanceOf(Date);
  });

  it('gives each executor the chain so far and a full ExecutionContext [claim:exec-context-members] [claim:exec-chain-copy] [claim:exec-render-namespace] [claim:philo-failure-item] [claim:mpm-one-provider] [claim:wp-context] [claim:liq-context-render] [claim:cu-executor-parts] [claim:cu-runtime-parts] [claim:errors-template-not-found-names]', async () => {
    const jsonAnswer = { city: 'Lyon' };
    const first = recordingExecutor('first', async (_task, context) => {
      const rendered = await context.render('greeting', { name: 'Ada' });
      const core = await context.render('core/get-object-retry', { schemaName: 'X', error: 'bad' });
      const object = await context.getObject({
        schema: z.object({ city: z.string() }),
        prompt: 'Which city?',
      });
      return { success: true, data: { rendered, coreStart: core.slice(0, 26), object } };
    });
    const second = recordingExecutor('second');
    const plugin = new TestPlugin('tools', {
      executors: [first, second],
      templates: { greeting: 'Hello {{ name }}!' },
    });
    const { runtime, memory } = await startedRuntime({
      plugins: [plugin],
      responses: {
        responses: [plan(['tools', 'first'], ['tools', 'second']), jsonAnswer],
        fallback: { type: 'continue' },
      },
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 's' });

    const firstCall = first.calls[0]!;
    expect(firstCall.task).toBe(task);
    expect(firstCall.task.space.id).toBe('s');
    expect(firstCall.chain.map((item) => item.type)).toEqual(['trigger']);
    expect(firstCall.context).toMatchObject({
      pluginId: 'tools',
      step: { pluginId: 'tools', action: 'first' },
      stepIndex: 0,
    });
    expect(firstCall.context.chain.map((item) => item.type)).toEqual(['trigger']);
    // A view of the runtime's manager that carries the task's signal (see model-manager tests).
    expect(firstCall.context.models.providers).toBe(runtime.models.providers);
    // The task's view of the runtime's memory: the same store, its calls under the bulkhead.
    expect(firstCall.context.memory).toBeInstanceOf(MemoryManager);
    expect(firstCall.context.memory.provider).toBe(runtime.memory.provider);
    // The one store given to Runtime.init, behind the runtime's manager and every step's view.
    expect(runtime.memory).toBeInstanceOf(MemoryManager);
    expect(runtime.memory.provider).toBe(memory);
    expect(firstCall.context.prompts).toBe(runtime.prompts);
    expect(runtime.scheduler).toBeInstanceOf(Scheduler);
    expect(firstCall.context.signal).toBeInstanceOf(AbortSignal);
    expect(typeof firstCall.context.logger.info).toBe('function');
    expect(task.chain[1]?.data).toEqual({
      rendered: 'Hello Ada!',
      coreStart: 'Your previous answer was n',
      object: { city: 'Lyon' },
    });

    const secondCall = second.calls[0]!;
    expect(secondCall.context.stepIndex).toBe(1);
    expect(secondCall.context.memory).toBeInstanceOf(MemoryManager);
    expect(secondCall.context.memory.provider).toBe(memory);
    expect(secondCall.chain.map((item) => `${item.type}:${item.action}`)).toEqual([
      'trigger:message',
      'result:first',
    ]);
  });

  it('records a thrown error or success:false as an error item and carries on [claim:index-dispatch-never-rejects] [claim:exec-result-or-error] [claim:exec-throw-is-error] [claim:philo-throw-same] [claim:philo-failure-item] [claim:trig-dispatch-resolves] [claim:task-step-result-or-error-item] [claim:task-dispatch-never-rejects-inside] [claim:task-failed-step-continues] [claim:wp-error-items] [claim:wp-goal-failure-data] [claim:errors-task-failures-in-chain]', async () => {
    const throws = recordingExecutor('throws', async () => {
      throw new Error('network unreachable');
    });
    const fails = recordingExecutor('fails', {
      success: false,
      error: 'quota exceeded',
      data: { left: 0 },
    });
    const failsWithMessage = recordingExecutor('vague', {
      success: false,
      message: 'could not do it',
    });
    const invalid = recordingExecutor('invalid', (() => 42) as never);
    const works = recordingExecutor('works');
    const plugin = new TestPlugin('tools', {
      executors: [throws, fails, failsWithMessage, invalid, works],
    });
    const { runtime } = await startedRuntime({
      plugins: [plugin],
      responses: planner(
        ['tools', 'throws'],
        ['tools', 'fails'],
        ['tools', 'vague'],
        ['tools', 'invalid'],
        ['tools', 'works'],
      ),
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 's' });
    expect(task.chain.slice(1).map((item) => [item.type, item.action, item.error])).toEqual([
      ['error', 'throws', 'network unreachable'],
      ['error', 'fails', 'quota exceeded'],
      ['error', 'vague', 'could not do it'],
      [
        'error',
        'invalid',
        expect.stringContaining('the executor returned 42 instead of a PluginResult'),
      ],
      ['result', 'works', undefined],
    ]);
    expect(task.chain[2]?.data).toEqual({ left: 0 });
    expect(works.calls).toHaveLength(1);
    // A later step reads the failures before it in its chain.
    expect(works.calls[0]?.context.chain.map((item) => [item.type, item.action])).toEqual([
      ['trigger', 'message'],
      ['error', 'throws'],
      ['error', 'fails'],
      ['error', 'vague'],
      ['error', 'invalid'],
    ]);
    // A later step that works does not hide the failures before it.
    expect(task.status).toBe('failed');
  });

  it('fails only the executors of the plugin whose dependency is down, in that task and the next [claim:philo-fail-independently]', async () => {
    const send = recordingExecutor('send', async () => {
      throw new Error('mail server unreachable');
    });
    const save = recordingExecutor('save', { success: true, message: 'saved' });
    const list = recordingExecutor('list', { success: true, message: 'listed' });
    const plans = [plan(['mail', 'send'], ['notes', 'save']), plan(['notes', 'list'])];
    const { runtime } = await startedRuntime({
      plugins: [
        new TestPlugin('mail', { executors: [send] }),
        new TestPlugin('notes', { executors: [save, list] }),
      ],
      responses: {
        fallback: (_messages, request) =>
          request.purpose === 'review' ? { type: 'continue' } : (plans.shift() ?? plan()),
      },
    });
    const first = await runtime.dispatch({ pluginId: 'notes', triggerId: 'message', space: 's' });
    expect(first.chain.slice(1).map((item) => [item.type, item.pluginId, item.action])).toEqual([
      ['error', 'mail', 'send'],
      ['result', 'notes', 'save'],
    ]);
    expect(first.chain[1]?.error).toBe('mail server unreachable');
    const next = await runtime.dispatch({ pluginId: 'notes', triggerId: 'message', space: 's' });
    expect(next.status).toBe('completed');
    expect(next.chain.slice(1).map((item) => [item.type, item.pluginId, item.action])).toEqual([
      ['result', 'notes', 'list'],
    ]);
    expect([send.calls.length, save.calls.length, list.calls.length]).toEqual([1, 1, 1]);
  });

  it("records a thrown error's cause after its message in the error item, an Error cause only [claim:exec-throw-is-error] [claim:exec-throw-cause-not-error] [claim:philo-throw-same]", async () => {
    const wraps = recordingExecutor('wraps', async () => {
      throw new Error('could not fetch the page', { cause: new Error('socket hang up') });
    });
    // A message that already contains its cause's is not followed by it again.
    const repeats = recordingExecutor('repeats', async () => {
      throw new Error('fetch failed: socket hang up', { cause: new Error('socket hang up') });
    });
    // A cause that is not an Error has no message to quote: it is left out.
    const textCause = recordingExecutor('text-cause', async () => {
      throw new Error('could not read the calendar', { cause: 'EACCES' });
    });
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [wraps, repeats, textCause] })],
      responses: planner(['tools', 'wraps'], ['tools', 'repeats'], ['tools', 'text-cause']),
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 's' });
    expect(task.chain.slice(1).map(({ type, action, error }) => ({ type, action, error }))).toEqual(
      [
        { type: 'error', action: 'wraps', error: 'could not fetch the page (socket hang up)' },
        { type: 'error', action: 'repeats', error: 'fetch failed: socket hang up' },
        { type: 'error', action: 'text-cause', error: 'could not read the calendar' },
      ],
    );
  });

  it('records an Error with an empty message by the errors it aggregates, else its code, else its cause alone [claim:philo-throw-empty-message] [claim:exec-throw-empty-message]', async () => {
    // What Node.js throws when both addresses of localhost refuse a connection: no message.
    const refused = recordingExecutor('refused', async () => {
      throw new AggregateError(
        [
          new Error('connect ECONNREFUSED ::1:5432'),
          new Error('connect ECONNREFUSED 127.0.0.1:5432'),
        ],
        '',
      );
    });
    const coded = recordingExecutor('coded', async () => {
      throw Object.assign(new Error(''), { code: 'ECONNRESET' });
    });
    const wrapped = recordingExecutor('wrapped', async () => {
      throw new Error('', { cause: new Error('socket hang up') });
    });
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [refused, coded, wrapped] })],
      responses: planner(['tools', 'refused'], ['tools', 'coded'], ['tools', 'wrapped']),
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 's' });
    expect(task.chain.slice(1).map(({ type, action, error }) => ({ type, action, error }))).toEqual(
      [
        {
          type: 'error',
          action: 'refused',
          error: 'connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432',
        },
        { type: 'error', action: 'coded', error: 'ECONNRESET' },
        { type: 'error', action: 'wrapped', error: 'socket hang up' },
      ],
    );
  });

  it('records an Error with no message, no code, no errors and no cause by its name and "with no message" [claim:exec-throw-no-message] [claim:philo-throw-empty-message]', async () => {
    const plain = recordingExecutor('plain', async () => {
      throw new Error();
    });
    const typed = recordingExecutor('typed', async () => {
      throw new TypeError('');
    });
    // A cause with nothing to say either adds nothing.
    const empty = recordingExecutor('empty-cause', async () => {
      throw new RangeError('', { cause: new Error('') });
    });
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [plain, typed, empty] })],
      responses: planner(['tools', 'plain'], ['tools', 'typed'], ['tools', 'empty-cause']),
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 's' });
    expect(task.chain.slice(1).map(({ action, error }) => ({ action, error }))).toEqual([
      { action: 'plain', error: 'Error with no message' },
      { action: 'typed', error: 'TypeError with no message' },
      { action: 'empty-cause', error: 'RangeError with no message' },
    ]);
  });

  it("records an Error whose message or cause getter throws as the step's failure, with what can be read [claim:exec-throw-unreadable]", async () => {
    const unreadable = (error: Error, key: 'message' | 'cause'): Error =>
      Object.defineProperty(error, key, {
        get() {
          throw new Error(`no ${key} for you`);
        },
      });
    const message = recordingExecutor('message', async () => {
      throw unreadable(new TypeError('hidden'), 'message');
    });
    const cause = recordingExecutor('cause', async () => {
      throw unreadable(new Error('the calendar is locked'), 'cause');
    });
    const numeric = recordingExecutor('numeric', async () => {
      throw Object.assign(new Error(), { message: 42 });
    });
    const after = recordingExecutor('after');
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [message, cause, numeric, after] })],
      responses: planner(
        ['tools', 'message'],
        ['tools', 'cause'],
        ['tools', 'numeric'],
        ['tools', 'after'],
      ),
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 's' });
    expect(task.status).toBe('failed');
    expect(
      task.chain.slice(1).map(({ type, pluginId, action, error }) => ({
        type,
        pluginId,
        action,
        error,
      })),
    ).toEqual([
      {
        type: 'error',
        pluginId: 'tools',
        action: 'message',
        error: 'TypeError whose message could not be read',
      },
      { type: 'error', pluginId: 'tools', action: 'cause', error: 'the calendar is locked' },
      {
        type: 'error',
        pluginId: 'tools',
        action: 'numeric',
        error: 'Error whose message could not be read',
      },
      { type: 'result', pluginId: 'tools', action: 'after', error: undefined },
    ]);
    expect(task.recorded.chain).toBe(true);
  });

  it('records a thrown value that is not an Error as its text: a string as it is, anything else as JSON, or as String() writes it when it has none [claim:exec-throw-non-error] [claim:philo-throw-non-error]', async () => {
    const text = recordingExecutor('text', async () => {
      throw 'the calendar is read-only';
    });
    const object = recordingExecutor('object', async () => {
      throw { message: 'no slot', code: 7 };
    });
    const nothing = recordingExecutor('nothing', async () => {
      throw undefined;
    });
    // Values with no JSON form, for which JSON.stringify throws: String() writes them instead.
    const big = recordingExecutor('big', async () => {
      throw 10n;
    });
    const circular = recordingExecutor('circular', async () => {
      const loop: Record<string, unknown> = { slot: 'none' };
      loop.self = loop;
      throw loop;
    });
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [text, object, nothing, big, circular] })],
      responses: planner(
        ['tools', 'text'],
        ['tools', 'object'],
        ['tools', 'nothing'],
        ['tools', 'big'],
        ['tools', 'circular'],
      ),
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 's' });
    expect(task.chain.slice(1).map(({ type, action, error }) => ({ type, action, error }))).toEqual(
      [
        { type: 'error', action: 'text', error: 'the calendar is read-only' },
        { type: 'error', action: 'object', error: '{"message":"no slot","code":7}' },
        { type: 'error', action: 'nothing', error: 'undefined' },
        { type: 'error', action: 'big', error: '10' },
        { type: 'error', action: 'circular', error: '[object Object]' },
      ],
    );
  });

  it('cuts a long thrown or returned text between characters, never inside an emoji, so the chain is still stored [claim:philo-throw-non-error]', async () => {
    // An emoji is two UTF-16 code units: a cut after 397 units of the thrown text, or after 197 of
    // the returned one's JSON (a quote and an "a" before the emoji), would fall inside a pair.
    const emoji = '😀'.repeat(300);
    const thrown = recordingExecutor('thrown', async () => {
      throw emoji;
    });
    const returned = recordingExecutor('returned', async () => `a${emoji}` as never);
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [thrown, returned] })],
      responses: planner(['tools', 'thrown'], ['tools', 'returned']),
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 's' });
    const errors = task.chain.slice(1).map((item) => item.error ?? '');
    expect(errors[0]).toBe(`${'😀'.repeat(198)}...`);
    expect(errors[1]).toBe(
      `the executor returned "a${'😀'.repeat(97)}... instead of a PluginResult ({ success: boolean, ... })`,
    );
    // A lone surrogate has no UTF-8 form: the store would refuse the chain memory for it.
    expect(task.recorded.chain).toBe(true);
  });
  it('cuts the error text of an error item to 2,000 characters, thrown or returned, so the chain is still stored [claim:exec-error-text-cut] [claim:philo-error-cut]', async () => {
    // 17 Mi characters: longer than MAX_MEMORY_JSON_LENGTH, so a store refuses a chain quoting it whole.
    const huge = 'x'.repeat(17 * 1024 * 1024);
    const thrown = recordingExecutor('thrown', async () => {
      throw new Error(huge);
    });
    const returned = recordingExecutor('returned', { success: false, error: huge });
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [thrown, returned] })],
      responses: planner(['tools', 'thrown'], ['tools', 'returned']),
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 's' });
    expect(task.chain.slice(1).map((item) => item.error)).toEqual([
      `${'x'.repeat(1_997)}...`,
      `${'x'.repeat(1_997)}...`,
    ]);
    expect(task.recorded.chain).toBe(true);
  });

  it("cuts a failed step's message to 2,000 characters as its error, so the chain is still stored [claim:exec-error-text-cut] [claim:tsdoc-plugin-result-message]", async () => {
    // 17 Mi characters: longer than MAX_MEMORY_JSON_LENGTH, so a store refuses a chain quoting it whole.
    const huge = 'x'.repeat(17 * 1024 * 1024);
    const fallback = recordingExecutor('fallback', { success: false, message: huge });
    const both = recordingExecutor('both', { success: false, error: 'no slot', message: huge });
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [fallback, both] })],
      responses: planner(['tools', 'fallback'], ['tools', 'both']),
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 's' });
    const cut = `${'x'.repeat(1_997)}...`;
    expect(task.chain.slice(1).map((item) => [item.error, item.message])).toEqual([
      [cut, cut],
      ['no slot', cut],
    ]);
    expect(task.recorded.chain).toBe(true);
  });

  it("keeps a successful step's message whole in the chain, for the trigger that answers with it, so a huge one makes the store refuse the chain [claim:exec-message-whole] [claim:tsdoc-plugin-result-message]", async () => {
    const long = 'y'.repeat(5_000);
    const replies = recordingExecutor('replies', { success: true, message: long });
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [replies] })],
      responses: planner(['tools', 'replies']),
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 's' });
    expect(task.chain.at(-1)).toMatchObject({ type: 'result', message: long });
    expect(task.recorded.chain).toBe(true);
    // Kept whole, it counts toward MAX_MEMORY_JSON_LENGTH: 17 Mi characters make the store refuse the chain.
    const huge = 'y'.repeat(17 * 1024 * 1024);
    const floods = recordingExecutor('floods', { success: true, message: huge });
    const flooded = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [floods] })],
      responses: planner(['tools', 'floods']),
    });
    const hugeTask = await flooded.runtime.dispatch({
      pluginId: 'tools',
      triggerId: 'message',
      space: 's',
    });
    expect(hugeTask.chain.at(-1)?.message?.length).toBe(huge.length);
    expect(hugeTask.recorded.chain).toBe(false);
  });

  it('marks a returned failure with expose: true as safe to show, and never a thrown error [claim:exec-expose-field] [claim:exec-expose] [claim:gs-add-plugin-500]', async () => {
    const shown = recordingExecutor('shown', {
      success: false,
      error: 'no free slot on 4 March; pick another day',
      expose: true,
    });
    const hidden = recordingExecutor('hidden', { success: false, error: 'quota exceeded' });
    const throws = recordingExecutor('throws', async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { expose: true });
    });
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [shown, hidden, throws] })],
      responses: planner(['tools', 'shown'], ['tools', 'hidden'], ['tools', 'throws']),
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 's' });
    expect(task.chain.slice(1).map((item) => [item.action, item.expose])).toEqual([
      ['shown', true],
      ['hidden', undefined],
      ['throws', undefined],
    ]);
  });

  it('marks the task failed when a step fails [claim:index-dispatch-never-rejects] [claim:exec-failed-task] [claim:philo-dispatch-never-rejects] [claim:task-status-failed] [claim:wp-status-rule] [claim:wp-dispatch-never-rejects]', async () => {
    const fails = recordingExecutor('fails', { success: false, error: 'nope' });
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [fails] })],
      responses: planner(['tools', 'fails']),
    });
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 's' });
    expect(task.status).toBe('failed');
  });

  it('turns a step naming an unknown plugin or action into an error item [claim:wp-graph-bounds] [claim:wp-security-reach] [claim:task-unknown-executor-error-item] [claim:wp-error-items] [claim:wp-plan-validated]', async () => {
    const { runtime } = await startedRuntime({
      responses: planner(['ghost', 'haunt'], ['echo', 'shout'], ['echo', 'reply']),
    });
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    expect(
      task.chain.slice(1).map((item) => [item.type, item.pluginId, item.action, item.error]),
    ).toEqual([
      ['error', 'ghost', 'haunt', 'unknown step: no plugin "ghost" is registered'],
      ['error', 'echo', 'shout', 'unknown step: plugin "echo" has no action "shout"'],
      ['result', 'echo', 'reply', undefined],
    ]);
    expect(task.status).toBe('failed');
  });

  it("gives a planned core step that no plugin has an error item under pluginId core, not the runtime's own [claim:exec-chain-unknown-step]", async () => {
    const { runtime } = await startedRuntime({
      responses: planner(['core', 'plan'], ['echo', 'reply']),
    });
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    expect(
      task.chain.slice(1).map((item) => [item.type, item.pluginId, item.action, item.error]),
    ).toEqual([
      ['error', 'core', 'plan', 'unknown step: no plugin "core" is registered'],
      ['result', 'echo', 'reply', undefined],
    ]);
    expect(task.steps).toEqual([
      { pluginId: 'core', action: 'plan' },
      { pluginId: 'echo', action: 'reply' },
    ]);
  });

  it('checks a plan only for its form before running it: a step naming no executor fails at its turn, after the steps before it ran [claim:wp-tradeoffs] [claim:wp-error-items]', async () => {
    const reply = recordingExecutor('reply');
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('echo', { executors: [reply] })],
      responses: planner(['echo', 'reply'], ['ghost', 'haunt']),
      options: { pipelineReview: 'never' },
    });
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    expect(reply.calls).toHaveLength(1);
    expect(task.chain.slice(1).map((item) => [item.type, item.pluginId, item.action])).toEqual([
      ['result', 'echo', 'reply'],
      ['error', 'ghost', 'haunt'],
    ]);
    expect(task.status).toBe('failed');
  });

  it('stops at maxSteps and records a max-steps error item [claim:exec-chain-core-items] [claim:tsdoc-task-chain-items] [claim:wp-graph-bounds] [claim:task-status-failed] [claim:task-max-steps] [claim:task-max-steps-error-item] [claim:wp-step-limit] [claim:wp-resource-limits] [claim:cfg-max-steps]', async () => {
    const reply = recordingExecutor('reply');
    const { runtime } = await startedRuntime({
      plugins: [echoPlugin({ executors: [reply] })],
      responses: planner(['echo', 'reply'], ['echo', 'reply'], ['echo', 'reply']),
      options: { maxSteps: 2 },
    });
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    expect(reply.calls).toHaveLength(2);
    expect(task.steps).toHaveLength(2);
    expect(task.chain.at(-1)).toMatchObject({
      type: 'error',
      pluginId: 'core',
      action: 'max-steps',
      error: 'the task reached its limit of 2 steps; 1 planned step(s) did not run',
    });
    expect(task.status).toBe('failed');
  });

  it('logs a task that reached maxSteps at warn, with the limit and how many steps did not run [claim:obs-max-steps-line]', async () => {
    const { logger, lines } = capturingLogger('warn');
    const { runtime } = await startedRuntime({
      plugins: [echoPlugin()],
      responses: planner(['echo', 'reply'], ['echo', 'reply'], ['echo', 'reply']),
      options: { maxSteps: 2, logger },
    });
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    expect(task.status).toBe('failed');
    expect(lines.filter((line) => line.taskId === task.id)).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'task reached maxSteps; the remaining steps did not run',
        component: 'pipeline',
        space: 's',
        maxSteps: 2,
        notRun: 1,
      }),
    ]);
  });

  it('shows maxSteps in the planning prompt [claim:task-max-steps-in-prompts]', async () => {
    const { runtime, model } = await startedRuntime({
      responses: planner(),
      options: { maxSteps: 3 },
    });
    await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    expect(model.requests[0]?.[1]?.content).toContain('Answer with at most 3 steps');
  });
});

describe('pipeline review', () => {
  it("lets the model replace the remaining steps with pipelineReview 'always' [claim:index-review-default] [claim:task-review-answers] [claim:gs-purpose] [claim:mpo-scripted-order] [claim:wp-review-answers]", async () => {
    const { save, list, send, plugins } = toolPlugins();
    const { runtime, model } = await startedRuntime({
      plugins,
      responses: {
        responses: [
          plan(['notes', 'save'], ['notes', 'list']),
          {
            type: 'replace',
            steps: [{ pluginId: 'mail', action: 'send' }],
            reason: 'mail instead',
          },
        ],
      },
      options: { pipelineReview: 'always' },
    });
    const task = await runtime.dispatch({ pluginId: 'notes', triggerId: 'message', space: 's' });
    expect(list.calls).toHaveLength(0);
    expect([save.calls.length, send.calls.length]).toEqual([1, 1]);
    expect(task.steps.map((step) => step.action)).toEqual(['save', 'send']);
    const review = model.requests[1]?.[1]?.content ?? '';
    expect(review).toContain('You supervise the pipeline');
    expect(review).toContain('- result from notes/save: {"saved":1}');
    expect(review).toContain('- notes/list');
    expect(model.remaining).toBe(0);
  });

  it('lets the model stop the remaining steps [claim:index-review-default] [claim:task-review-answers] [claim:wp-review-answers]', async () => {
    const { save, list, plugins } = toolPlugins();
    const { runtime } = await startedRuntime({
      plugins,
      responses: {
        responses: [plan(['notes', 'save'], ['notes', 'list']), { type: 'stop', reason: 'done' }],
      },
    });
    const task = await runtime.dispatch({ pluginId: 'notes', triggerId: 'message', space: 's' });
    expect(save.calls).toHaveLength(1);
    expect(list.calls).toHaveLength(0);
    expect(task.status).toBe('completed');
  });

  it('keeps the remaining steps when the review answer is unusable, and logs WEFT_GET_OBJECT_FAILED [claim:task-failed-review-keeps-steps] [claim:wp-review-unparsable] [claim:wp-goal-checked] [claim:errors-review-failure-logged] [claim:errors-get-object-review]', async () => {
    const { save, list, plugins } = toolPlugins();
    const { logger, lines } = capturingLogger('warn');
    const { runtime } = await startedRuntime({
      plugins,
      responses: { responses: [plan(['notes', 'save'], ['notes', 'list'])], fallback: 'no idea' },
      options: { getObjectRetries: 0, logger },
    });
    const task = await runtime.dispatch({ pluginId: 'notes', triggerId: 'message', space: 's' });
    expect([save.calls.length, list.calls.length]).toEqual([1, 1]);
    expect(task.status).toBe('completed');
    expect(task.chain.some((item) => item.type === 'error')).toBe(false);
    expect(
      lines.find((line) => line.msg === 'pipeline review failed; keeping the remaining steps'),
    ).toMatchObject({
      taskId: task.id,
      code: 'WEFT_GET_OBJECT_FAILED',
      docsUrl: 'https://weft-ai.github.io/docs/reference/errors/#weft_get_object_failed',
    });
  });

  it('keeps the remaining steps when the scripted model runs out at a review, and logs the review [claim:trouble-script-exhausted-review] [claim:errors-review-failure-logged] [claim:task-failed-review-keeps-steps]', async () => {
    const { save, list, plugins } = toolPlugins();
    const { logger, lines } = capturingLogger('warn');
    const { runtime } = await startedRuntime({
      plugins,
      // Only the plan is scripted: the review after `save` finds the script empty.
      responses: { responses: [plan(['notes', 'save'], ['notes', 'list'])] },
      options: { logger },
    });
    const task = await runtime.dispatch({ pluginId: 'notes', triggerId: 'message', space: 's' });
    expect([save.calls.length, list.calls.length]).toEqual([1, 1]);
    expect(task.status).toBe('completed');
    expect(
      lines.find((line) => line.msg === 'pipeline review failed; keeping the remaining steps'),
    ).toMatchObject({ taskId: task.id, code: 'WEFT_TESTING_SCRIPT_EXHAUSTED' });
  });

  it("reviews only after failed steps with 'on-failure' and never with 'never' [claim:wp-graph-bounds] [claim:philo-failure-item] [claim:mpo-scripted-order] [claim:wp-tradeoffs]", async () => {
    const fails = recordingExecutor('fails', { success: false, error: 'nope' });
    const works = recordingExecutor('works');
    const plugin = () => new TestPlugin('tools', { executors: [fails, works] });
    const steps: [string, string][] = [
      ['tools', 'works'],
      ['tools', 'fails'],
      ['tools', 'works'],
    ];

    const onFailure = await startedRuntime({
      plugins: [plugin()],
      responses: planner(...steps),
      options: { pipelineReview: 'on-failure' },
    });
    await onFailure.runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 's' });
    expect(onFailure.model.requests).toHaveLength(2); // plan + one review after the failure

    const never = await startedRuntime({
      plugins: [plugin()],
      responses: planner(...steps),
      options: { pipelineReview: 'never' },
    });
    await never.runtime.dispatch({ pluginId: 'tools', triggerId: 'message', space: 's' });
    expect(never.model.requests).toHaveLength(1);
  });
});

describe('planning failures', () => {
  it('fails the task with a core/plan item when the model never gives a valid pipeline, then serves the next task [claim:exec-chain-core-items] [claim:tsdoc-task-chain-items] [claim:wp-plan-typed-value] [claim:task-status-failed] [claim:go-plan-fails] [claim:gs-retry-plan] [claim:trouble-plan-fails-first] [claim:core-readme-plan-zod] [claim:wp-status-rule] [claim:wp-fail-own-record] [claim:wp-plan-validated] [claim:wp-tradeoffs] [claim:wp-limits-model-quality] [claim:errors-task-failures-in-chain]', async () => {
    const reply = recordingExecutor('reply');
    const { runtime, model } = await startedRuntime({
      plugins: [echoPlugin({ executors: [reply] })],
      responses: {
        responses: ['I would rather chat', { steps: 'all of them' }, '```json\n{"nope": 1}\n```'],
      },
      options: { getObjectRetries: 2 },
    });
    const failed = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    expect(failed.status).toBe('failed');
    // No step ran: the chain is the trigger and the runtime's own error item.
    expect(failed.steps).toHaveLength(0);
    expect(failed.chain.map((item) => `${item.type}:${item.pluginId}/${item.action}`)).toEqual([
      'trigger:echo/message',
      'error:core/plan',
    ]);
    expect(failed.chain.at(-1)?.error).toContain('planning failed: getObject');
    expect(failed.chain.at(-1)?.error).toContain('"Pipeline" after 3 attempt(s)');
    expect(reply.calls).toHaveLength(0);

    model.enqueue(plan(['echo', 'reply']));
    const next = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    expect(next.status).toBe('completed');
    expect(reply.calls).toHaveLength(1);
  });

  it('fails the task when the model provider throws while planning [claim:philo-dispatch-never-rejects] [claim:task-dispatch-never-rejects-inside] [claim:task-status-failed] [claim:trouble-script-exhausted] [claim:wp-dispatch-never-rejects] [claim:errors-task-failures-in-chain] [claim:prod-readiness-not-model] [claim:testing-scripted-exhausted-failure]', async () => {
    const { runtime } = await startedRuntime({ responses: { responses: [] } });
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    expect(task.status).toBe('failed');
    // The scripted provider's own coded error reaches the task as it is, not wrapped.
    expect(task.chain.at(-1)?.error).toContain(
      'ScriptedModelProvider "scripted": no scripted response left for request #1',
    );
  });
});

describe('task memories', () => {
  it('records a trigger memory and a chain memory per task [claim:task-records-trigger] [claim:task-records-chain] [claim:gs-what-happened-memories] [claim:mpm-two-writes] [claim:core-readme-steps-in-order] [claim:tut-two-memories] [claim:wp-two-memories] [claim:index-trigger-memory] [claim:index-chain-memory] [claim:sp-stored] [claim:wp-chain-memory]', async () => {
    const { runtime, memory } = await startedRuntime({ responses: planner(['echo', 'reply']) });
    const task = await runtime.dispatch({
      pluginId: 'echo',
      triggerId: 'message',
      space: 'mem-space',
      message: 'hi',
      metadata: { requestId: 'r-9' },
    });
    const memories = await memory.query({ taskId: task.id, order: 'asc' });
    expect(memories.map((stored) => stored.kind)).toEqual(['trigger', 'chain']);
    expect(memories[0]).toMatchObject({
      space: 'mem-space',
      taskId: task.id,
      metadata: { requestId: 'r-9' },
      content: { pluginId: 'echo', action: 'message', message: 'hi' },
    });
    expect(memories[1]).toMatchObject({
      space: 'mem-space',
      taskId: task.id,
      metadata: { requestId: 'r-9' },
    });
    expect(memories[1]?.content).toMatchObject({
      status: 'completed',
      steps: [{ pluginId: 'echo', action: 'reply' }],
      chain: [{ type: 'trigger' }, { type: 'result', action: 'reply' }],
    });
    // dispatch resolves with the task the chain memory records, finished.
    expect(task.status).toBe('completed');
    expect(memories[1]?.content).toMatchObject({ status: task.status, steps: task.steps });
  });

  it("keeps a task id only where the writer gives one: the runtime's own memories, not an executor's unless it sets taskId [claim:mpm-memory-task-id] [claim:wp-two-memories] [claim:wp-memory-task]", async () => {
    const note = recordingExecutor('note', async (task, context) => {
      await context.memory.store({ space: task.space.id, kind: 'loose', content: 1, metadata: {} });
      await context.memory.store({
        space: task.space.id,
        kind: 'tagged',
        content: 2,
        taskId: task.id,
        metadata: {},
      });
      return { success: true };
    });
    const { runtime, memory } = await startedRuntime({
      plugins: [echoPlugin({ executors: [note] })],
      responses: planner(['echo', 'note']),
    });
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    expect(task.status).toBe('completed');
    const [loose] = await memory.query({ kind: 'loose' });
    expect(loose).toBeDefined();
    expect(loose).not.toHaveProperty('taskId');
    const ofTask = await memory.query({ taskId: task.id, order: 'asc' });
    expect(ofTask.map((stored) => stored.kind)).toEqual(['trigger', 'tagged', 'chain']);
  });

  it('reads the store once per task, before the planning request and not at review, and not at all with relatedMemories 0 [claim:mpm-one-read]', async () => {
    const events: string[] = [];
    const countingStore = () => {
      const memory = new InMemoryMemoryProvider();
      const query = memory.query.bind(memory);
      memory.query = (options) => {
        events.push('query');
        return query(options);
      };
      return memory;
    };
    const responses = {
      fallback: (_messages: readonly unknown[], request: { purpose?: string }) => {
        events.push(request.purpose ?? 'other');
        return request.purpose === 'review'
          ? { type: 'continue' }
          : plan(['echo', 'reply'], ['echo', 'reply']);
      },
    };
    const { runtime } = await startedRuntime({
      memory: countingStore(),
      responses,
      options: { pipelineReview: 'always' },
    });
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    expect(task.steps).toHaveLength(2);
    expect(events).toEqual(['query', 'plan', 'review']);

    events.length = 0;
    const { runtime: none } = await startedRuntime({
      memory: countingStore(),
      responses,
      options: { pipelineReview: 'always', relatedMemories: 0 },
    });
    await none.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    expect(events).toEqual(['plan', 'review']);
  });

  /**
   * Runs one task in space `s` whose plan is the one step `echo.reply`, on `memory`, logging at
   * `level` and above; gives the task, the step's executor, the log lines and the model.
   */
  async function replyOnce(memory: InMemoryMemoryProvider, level: 'warn' | 'error') {
    const reply = recordingExecutor('reply');
    const { logger, lines } = capturingLogger(level);
    const { runtime, model } = await startedRuntime({
      memory,
      plugins: [echoPlugin({ executors: [reply] })],
      responses: planner(['echo', 'reply']),
      options: { logger },
    });
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    return { task, reply, lines, model };
  }

  it('does not lose the task when the memory store throws, and logs each record it could not store [claim:task-dispatch-never-rejects-inside] [claim:sp-store-failure] [claim:prod-outage-memory-write] [claim:mpm-failed-write] [claim:sp-failing-store-answers] [claim:index-memory-store-fails]', async () => {
    class BrokenStore extends InMemoryMemoryProvider {
      override async store(): Promise<never> {
        throw new Error('database is locked');
      }
    }
    const { task, reply, lines } = await replyOnce(new BrokenStore(), 'error');
    expect(task.status).toBe('completed');
    expect(reply.calls).toHaveLength(1);
    const failedWrites = lines.filter((line) => line.msg === 'could not store memory');
    expect(failedWrites).toEqual([
      expect.objectContaining({ level: 50, taskId: task.id, space: 's', kind: 'trigger' }),
      expect.objectContaining({ level: 50, taskId: task.id, space: 's', kind: 'chain' }),
    ]);
    expect(String(failedWrites[0]?.error)).toContain('database is locked');
    expect(task.recorded).toEqual({ trigger: false, chain: false });
  });

  it('plans without the history when the memory store cannot be read, flags the task and logs a warning with its id and an error id [claim:task-history-unavailable] [claim:task-history-unreadable-not-fatal] [claim:task-planner-history-unavailable] [claim:sp-read-failure] [claim:prod-outage-memory-read] [claim:mpm-failed-read] [claim:tsdoc-task-history-unavailable] [claim:sp-failing-store-answers]', async () => {
    /** The in-memory store, whose reads fail as a store that lost its disk or its server would. */
    class UnreadableStore extends InMemoryMemoryProvider {
      override async query(): Promise<never> {
        throw new Error('SQLITE_CANTOPEN: unable to open database file');
      }
    }
    const memory = new UnreadableStore();
    await memory.store({ space: 's', kind: 'note', content: 'earlier fact', metadata: {} });
    const { task, reply, lines, model } = await replyOnce(memory, 'warn');

    expect(task.status).toBe('completed');
    expect(reply.calls).toHaveLength(1);
    expect(task.chain.filter((item) => item.type === 'error')).toEqual([]);
    const errorId = task.historyUnavailable?.errorId;
    expect(errorId).toMatch(/^[0-9a-f-]{36}$/);
    const warning = lines.find((line) => line.errorId === errorId);
    expect(warning).toMatchObject({ level: 40, taskId: task.id, space: 's' });
    expect(String(warning?.error)).toContain('SQLITE_CANTOPEN');
    // The model is told the history is missing rather than shown an empty one.
    const prompt = model.requests[0]?.[1]?.content ?? '';
    expect(prompt).toContain('Unavailable: the memory store could not be read');
    expect(prompt).not.toContain('None.');

    // A store that can be read leaves the flag unset.
    const { runtime: healthy } = await startedRuntime({ responses: planner(['echo', 'reply']) });
    const fine = await healthy.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    expect(fine.historyUnavailable).toBeUndefined();
  });

  it("fails the step of an executor whose own memory query meets the store's error, as a thrown error does [claim:task-plugin-memory-errors]", async () => {
    /** The in-memory store, whose reads fail as a store that lost its disk would. */
    class UnreadableStore extends InMemoryMemoryProvider {
      override async query(): Promise<never> {
        throw new Error('SQLITE_CANTOPEN: unable to open database file');
      }
    }
    const lookup = recordingExecutor('lookup', async (_task, context) => {
      const notes = await context.memory.query({ kind: 'note' });
      return { success: true, data: { notes: notes.length } };
    });
    const after = recordingExecutor('after');
    const { runtime } = await startedRuntime({
      memory: new UnreadableStore(),
      plugins: [echoPlugin({ executors: [lookup, after] })],
      responses: planner(['echo', 'lookup'], ['echo', 'after']),
      options: { pipelineReview: 'never' },
    });
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });

    expect(lookup.calls).toHaveLength(1);
    // The store's own error becomes the step's error item; the next step still runs.
    expect(task.chain.slice(1).map((item) => [item.type, item.action, item.error])).toEqual([
      ['error', 'lookup', expect.stringContaining('SQLITE_CANTOPEN: unable to open database file')],
      ['result', 'after', undefined],
    ]);
    expect(task.status).toBe('failed');
  });

  it('fails the task at its deadline when the memory store does not answer its history read [claim:task-hung-store-times-out] [claim:task-cost-one-plan] [claim:mpm-hung-store]', async () => {
    /** The in-memory store, whose reads never answer, as a store behind a hung connection. */
    class HungReads extends InMemoryMemoryProvider {
      override async query(): Promise<never> {
        return new Promise<never>(() => undefined);
      }
    }
    const reply = recordingExecutor('reply');
    const { runtime, model } = await startedRuntime({
      memory: new HungReads(),
      plugins: [echoPlugin({ executors: [reply] })],
      responses: planner(['echo', 'reply']),
      options: { taskTimeoutMs: 100 },
    });
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });

    expect(task.status).toBe('failed');
    // Not a failed read: the task was not planned without its history, it was not planned.
    expect(task.historyUnavailable).toBeUndefined();
    const last = task.chain.at(-1);
    expect(last).toMatchObject({ type: 'error', pluginId: 'core', action: 'timeout' });
    expect(last?.error).toContain('[WEFT_TASK_TIMEOUT]');
    expect(last?.error).toContain('during planning');
    expect(model.requests).toHaveLength(0);
    expect(reply.calls).toHaveLength(0);
  });

  it('plans without the history when a space names more related patterns than a query may hold [claim:tsdoc-core-related-spaces-max] [claim:sp-related-max]', async () => {
    const reply = recordingExecutor('reply');
    const { runtime, model } = await startedRuntime({
      plugins: [echoPlugin({ executors: [reply] })],
      responses: planner(['echo', 'reply']),
    });
    // The page's figure, not the constant: a changed limit must fail this test.
    const relatedSpaces = Array.from({ length: 101 }, (_, index) => `room-${index}-*`);
    // An earlier task of the space itself, which the planner is not shown either.
    await runtime.dispatch({
      pluginId: 'echo',
      triggerId: 'message',
      space: 's',
      message: 'first visit',
    });
    const task = await runtime.dispatch({
      pluginId: 'echo',
      triggerId: 'message',
      space: { id: 's', relatedSpaces },
    });
    expect(task.status).toBe('completed');
    expect(reply.calls).toHaveLength(2);
    expect(task.historyUnavailable?.errorId).toMatch(/^[0-9a-f-]{36}$/);
    const prompt = String(model.requests.at(-1)?.at(-1)?.content);
    expect(prompt).toContain('the memory store could not be read');
    expect(prompt).not.toContain('first visit');

    const fewer = await runtime.dispatch({
      pluginId: 'echo',
      triggerId: 'message',
      space: { id: 's', relatedSpaces: relatedSpaces.slice(1) },
    });
    expect(fewer.historyUnavailable).toBeUndefined();
    expect(String(model.requests.at(-1)?.at(-1)?.content)).toContain(': first visit');
  });
});
