/**
 * The runs behind the Run panels (src/components/RunPanel/examples/<id>/run.ts): each example's plugin from
 * examples/, its answers checked against the schemas they are parsed with, the events reported in
 * order, and the preset whose step fails. The browser tests (tests/e2e/run-panel*.spec.ts) drive
 * the same runs through the panels.
 */
import { describe, expect, it } from 'vitest';
import {
  definition as chat,
  WRITER_FAILURE,
} from '../../src/components/RunPanel/examples/chat/run';
import { definition as executors } from '../../src/components/RunPanel/examples/executors/run';
import {
  PRESET_FAILURE,
  definition as gettingStarted,
} from '../../src/components/RunPanel/examples/getting-started/run';
import { checkAnswers } from '../../src/components/RunPanel/run/answers';
import type {
  RunDefinition,
  RunEvent,
  RunInput,
} from '../../src/components/RunPanel/run/definition';
import {
  HEARTBEAT_INTERVAL_MS,
  definition as triggers,
} from '../../src/components/RunPanel/examples/triggers/run';
import { PLANNER_ID, WRITER_ID } from '../../examples/tutorial-chat/models';
import * as chatRun from '../../src/components/RunPanel/examples/chat/run';

async function run(
  definition: RunDefinition,
  preset: string,
  change: (input: RunInput) => RunInput = (input) => input,
  session = definition.newSession?.(),
) {
  const events: RunEvent[] = [];
  const input = change(await definition.initialInput(preset));
  expect(checkAnswers(definition.answerFields, input)).toEqual([]);
  const task = await definition.run(input, (event) => events.push(event), session);
  return { task, events, kinds: events.map((event) => event.kind) };
}

const purposes = (events: RunEvent[]) =>
  events.flatMap((event) => (event.kind === 'model-call' ? [event.purpose] : []));

function expectTimesInOrder(events: RunEvent[]): void {
  const times = events.map((event) => event.atMs);
  expect([...times].sort((a, b) => a - b)).toEqual(times);
}

describe('the getting-started run', () => {
  const input =
    (overrides: Partial<RunInput> = {}) =>
    async () => ({
      ...(await gettingStarted.initialInput('example')),
      ...overrides,
    });

  it('starts from the answers of examples/getting-started/scripted-model.ts [claim:gs-run-panel-runs]', async () => {
    const start = await input()();
    expect(JSON.parse(start.answers.plan ?? '')).toEqual({
      steps: [{ pluginId: 'assistant', action: 'reply', reason: 'The user wrote.' }],
    });
    expect(JSON.parse(start.answers.review ?? '')).toEqual({
      type: 'stop',
      reason: 'The user has an answer.',
    });
    expect(checkAnswers(gettingStarted.answerFields, start)).toEqual([]);
  });

  it('reports the trigger, plan, model calls, step, memories and status in order [claim:gs-run-panel-events]', async () => {
    const { task, events, kinds } = await run(gettingStarted, 'example');
    expect(task.status).toBe('completed');
    expect(kinds).toEqual([
      'trigger',
      'memory',
      'model-call',
      'plan',
      'model-call',
      'step',
      'memory',
      'status',
    ]);
    expect(events[0]).toMatchObject({
      kind: 'trigger',
      pluginId: 'assistant',
      triggerId: 'message',
      message: 'Hello, agent!',
    });
    expect(events.at(-1)).toMatchObject({
      kind: 'status',
      status: 'completed',
      reply: 'You said "Hello, agent!". Your Weft agent is listening.',
    });
    expect(purposes(events)).toEqual(['plan', 'reply']);
    expectTimesInOrder(events);
  });

  it('answers the edited message [claim:gs-run-panel-edit] [claim:cg-run-panel-reader-edits]', async () => {
    const { events } = await run(gettingStarted, 'example', (start) => ({
      ...start,
      message: 'What is Weft?',
    }));
    expect(events.at(-1)).toMatchObject({
      reply: 'You said "What is Weft?". Your Weft agent is listening.',
    });
  });

  it('with the failing preset, shows the step error and the review, and the task fails [claim:gs-run-panel-edit] [claim:cg-run-panel-reader-edits]', async () => {
    const { task, events } = await run(gettingStarted, gettingStarted.failingPreset);
    expect(task.status).toBe('failed');
    expect(events.find((e) => e.kind === 'step')).toMatchObject({
      success: false,
      text: expect.stringContaining(PRESET_FAILURE) as unknown,
    });
    expect(purposes(events)).toEqual(['plan', 'reply', 'review']);
    expect(events.find((e) => e.kind === 'review')).toMatchObject({ decision: 'stop' });
    expect(events.at(-1)).toEqual({
      atMs: expect.any(Number) as unknown,
      kind: 'status',
      status: 'failed',
    });
  });

  it('names the field of an answer that does not match the schema [claim:cg-run-panel-reader-edits]', async () => {
    const start = await input()();
    expect(
      checkAnswers(gettingStarted.answerFields, {
        ...start,
        answers: { plan: '{"steps": [{"pluginId": "assistant"}]}', review: '{"type": "stop"}' },
      }),
    ).toEqual([
      {
        field: 'plan',
        message: expect.stringMatching(/^plan answer: steps\.0\.action: /) as unknown,
      },
    ]);
    expect(
      checkAnswers(gettingStarted.answerFields, {
        ...start,
        answers: { plan: '{"steps": []}', review: '{"type": "stop"' },
      }),
    ).toEqual([
      {
        field: 'review',
        message: expect.stringMatching(/^review answer: not valid JSON/) as unknown,
      },
    ]);
  });
});

describe('the executors run (docs/building-plugins/executors.md, docs/concepts/how-a-task-runs.md)', () => {
  it('plans find-slot and book, asks getObject for the slot, reviews after find-slot, and books 10:30 [claim:exec-run-panel-runs] [claim:exec-run-panel-events] [claim:exec-run-panel-booked] [claim:task-run-panel-other]', async () => {
    const { task, events, kinds } = await run(executors, 'example');
    expect(task.status).toBe('completed');
    expect(purposes(events)).toEqual(['plan', 'get-object:SlotRequest', 'review']);
    expect(kinds).toEqual([
      'trigger',
      'memory',
      'model-call',
      'plan',
      'model-call',
      'step',
      'model-call',
      'review',
      'step',
      'memory',
      'status',
    ]);
    expect(events.filter((e) => e.kind === 'step')).toMatchObject([
      { action: 'find-slot', success: true, text: 'Free at 10:30 on 2025-03-04' },
      { action: 'book', success: true },
    ]);
    // Each model call carries the prompt the model was sent and the answer it gave.
    const start = await executors.initialInput('example');
    expect(events.filter((e) => e.kind === 'model-call')).toMatchObject([
      {
        prompt: expect.stringContaining('Message: Book 60 minutes with Grace') as unknown,
        answer: start.answers.plan,
      },
      {
        prompt: expect.stringContaining('Which day, for how long') as unknown,
        answer: start.answers.slot,
      },
      {
        prompt: expect.stringContaining('- result from calendar/find-slot: {"date"') as unknown,
        answer: start.answers.review,
      },
    ]);
    expect(events.at(-1)).toMatchObject({
      status: 'completed',
      reply: 'Booked "Release planning" on 2025-03-04 at 10:30',
    });
    expectTimesInOrder(events);
  });

  it('with the full day, find-slot records an error and the review stops the plan before book [claim:exec-run-panel-full-day] [claim:task-run-panel-runs]', async () => {
    const { task, events } = await run(executors, executors.failingPreset);
    expect(task.status).toBe('failed');
    // The model planned both steps; the review after find-slot kept book from running.
    expect(events.find((e) => e.kind === 'plan')).toMatchObject({
      steps: [
        { pluginId: 'calendar', action: 'find-slot' },
        { pluginId: 'calendar', action: 'book' },
      ],
    });
    expect(events.filter((e) => e.kind === 'step')).toEqual([
      expect.objectContaining({
        action: 'find-slot',
        success: false,
        text: 'no free 60-minute slot on 2025-03-04',
      }),
    ]);
    expect(events.find((e) => e.kind === 'review')).toMatchObject({ decision: 'stop' });
    expect(events.at(-1)).toMatchObject({ kind: 'status', status: 'failed' });
  });

  it('with the full day and a review that continues, book runs and fails too [claim:exec-run-panel-continue]', async () => {
    const { task, events } = await run(executors, executors.failingPreset, (start) => ({
      ...start,
      answers: { ...start.answers, review: '{"type": "continue"}' },
    }));
    expect(task.status).toBe('failed');
    expect(events.filter((e) => e.kind === 'step')).toMatchObject([
      { action: 'find-slot', success: false },
      { action: 'book', success: false, text: 'no slot to book: run "find-slot" first' },
    ]);
  });

  it("names the field of a slot answer that does not match the example's SlotRequest [claim:exec-run-panel-bad-slot]", async () => {
    const start = await executors.initialInput('example');
    expect(
      checkAnswers(executors.answerFields, {
        ...start,
        answers: { ...start.answers, slot: '{"date": "next Tuesday", "minutes": 60}' },
      }),
    ).toEqual([
      { field: 'slot', message: expect.stringMatching(/^slot answer: date: /) as unknown },
    ]);
  });
});

describe('the triggers run (docs/building-plugins/triggers.md)', () => {
  it("dispatches the webhook's issue as the route handler does, and labels a crash a bug [claim:trig-run-panel-runs] [claim:trig-run-panel-route]", async () => {
    const { task, events } = await run(triggers, 'issue');
    expect(task.status).toBe('completed');
    expect(task.space).toEqual({ id: 'repo-weft', description: 'Issues of weft' });
    // No request, so no X-Delivery-Id header: the run gives the delivery id of its own.
    expect(task.metadata).toEqual({ deliveryId: 'run-panel' });
    expect(task.trigger.data).toEqual({
      repository: 'weft',
      issue: { number: 7, title: 'Crash on start' },
    });
    expect(events[0]).toMatchObject({
      kind: 'trigger',
      pluginId: 'issues',
      triggerId: 'issue-opened',
      message: 'Crash on start',
    });
    expect(events.at(-1)).toMatchObject({ status: 'completed', reply: '#7: bug' });
  });

  it('labels an edited title that names no failure a question [claim:trig-run-panel-label]', async () => {
    const { events } = await run(triggers, 'issue', (start) => ({
      ...start,
      message: 'How do I add a trigger?',
    }));
    expect(events.at(-1)).toMatchObject({ reply: '#7: question' });
  });

  it('with the failing preset, the unknown step is an error item and the review replaces it with label [claim:trig-run-panel-failing]', async () => {
    const { task, events } = await run(triggers, triggers.failingPreset);
    expect(task.status).toBe('failed');
    expect(events.filter((e) => e.kind === 'step')).toMatchObject([
      {
        action: 'close',
        success: false,
        text: 'unknown step: plugin "issues" has no action "close"',
      },
      { action: 'label', success: true, text: '#7: bug' },
    ]);
    expect(events.find((e) => e.kind === 'review')).toMatchObject({
      decision: 'replace',
      steps: [{ pluginId: 'issues', action: 'label' }],
    });
    expect(task.chain[1]).toMatchObject({
      type: 'error',
      error: 'unknown step: plugin "issues" has no action "close"',
    });
  });

  it("runs the heartbeat's start trigger: its timer dispatches one task, reported alone [claim:trig-run-panel-heartbeat]", async () => {
    const { task, events, kinds } = await run(triggers, 'heartbeat');
    expect(task.status).toBe('completed');
    expect(events[0]).toEqual({
      atMs: expect.any(Number) as unknown,
      kind: 'trigger',
      pluginId: 'heartbeat',
      triggerId: 'interval',
      space: 'heartbeat',
    });
    expect(kinds.filter((kind) => kind === 'trigger')).toHaveLength(1);
    // The timer, not the run, dispatched it: the task starts once the interval has passed.
    expect(HEARTBEAT_INTERVAL_MS).toBe(100);
    expect(events[0]?.atMs).toBeGreaterThanOrEqual(HEARTBEAT_INTERVAL_MS - 1);
    expect(events.filter((e) => e.kind === 'step')).toMatchObject([
      { action: 'tick', success: true },
    ]);
    expect(kinds.at(-1)).toBe('status');
  });
});

describe('the chat run (docs/tutorials/chat-assistant.md)', () => {
  it('uses the provider ids of examples/tutorial-chat/models.ts [claim:tut-run-panel-runs]', () => {
    expect([chatRun.PLANNER_ID, chatRun.WRITER_ID]).toEqual([PLANNER_ID, WRITER_ID]);
  });

  it('plans with the planner, answers with the writer, and remembers the conversation between runs [claim:tut-run-panel-runs] [claim:tut-run-panel-writer] [claim:tut-run-panel-conversation]', async () => {
    const session = chat.newSession?.();
    expect(session).toBeDefined();
    const first = await run(chat, 'example', undefined, session);
    expect(first.task.status).toBe('completed');
    expect(
      first.events.flatMap((e) => (e.kind === 'model-call' ? [`${e.provider}:${e.purpose}`] : [])),
    ).toEqual(['planner:plan', 'writer:reply']);
    expect(first.events.at(-1)).toMatchObject({
      reply: 'You said "My name is Ada." after 0 earlier message(s).',
    });

    const second = await run(
      chat,
      'example',
      (start) => ({ ...start, message: 'What is my name?' }),
      session,
    );
    expect(second.events.at(-1)).toMatchObject({
      reply: 'You said "What is my name?" after 1 earlier message(s).',
    });
  });

  it('with the writer down, the answer step fails, the planner reviews, and the task fails [claim:tut-run-panel-failing]', async () => {
    const { task, events } = await run(chat, chat.failingPreset);
    expect(task.status).toBe('failed');
    expect(events.find((e) => e.kind === 'step')).toMatchObject({
      action: 'answer',
      success: false,
      text: expect.stringContaining(WRITER_FAILURE) as unknown,
    });
    expect(
      events.flatMap((e) => (e.kind === 'model-call' ? [`${e.provider}:${e.purpose}`] : [])),
    ).toEqual(['planner:plan', 'writer:reply', 'planner:review']);
    expect(events.find((e) => e.kind === 'review')).toMatchObject({ decision: 'stop' });
  });
});
