/**
 * The run behind Getting started's Run panel (src/components/RunPanel/run-getting-started.ts):
 * the example's plugin and scripted model, the reader's answers checked against the runtime's
 * schemas, and the failing preset. The browser tests (tests/e2e/run-panel.spec.ts) drive the
 * same run through the panel.
 */
import { describe, expect, it } from 'vitest';
import {
  PRESET_FAILURE,
  checkAnswers,
  defaultAnswers,
  runGettingStarted,
  type RunEvent,
  type RunInput,
} from '../../src/components/RunPanel/run-getting-started';

async function input(overrides: Partial<RunInput> = {}): Promise<RunInput> {
  return {
    user: 'ada',
    message: 'Hello, agent!',
    failReply: false,
    ...(await defaultAnswers()),
    ...overrides,
  };
}

describe('the getting-started run', () => {
  it('starts from the answers of examples/getting-started/scripted-model.ts', async () => {
    const answers = await defaultAnswers();
    expect(JSON.parse(answers.planAnswer)).toEqual({
      steps: [{ pluginId: 'assistant', action: 'reply', reason: 'The user wrote.' }],
    });
    expect(JSON.parse(answers.reviewAnswer)).toEqual({
      type: 'stop',
      reason: 'The user has an answer.',
    });
    expect(checkAnswers(answers)).toEqual([]);
  });

  it('reports the trigger, plan, model calls, step, memories and status in order', async () => {
    const events: RunEvent[] = [];
    const task = await runGettingStarted(await input(), (event) => events.push(event));
    expect(task.status).toBe('completed');
    expect(events.map((event) => event.kind)).toEqual([
      'trigger',
      'memory',
      'model-call',
      'plan',
      'model-call',
      'step',
      'memory',
      'status',
    ]);
    expect(events.at(-1)).toMatchObject({
      kind: 'status',
      status: 'completed',
      reply: 'You said "Hello, agent!". Your Weft agent is listening.',
    });
    expect(events.filter((e) => e.kind === 'model-call').map((e) => e.purpose)).toEqual([
      'plan',
      'reply',
    ]);
    const times = events.map((event) => event.atMs);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('answers the edited message', async () => {
    const events: RunEvent[] = [];
    await runGettingStarted(await input({ message: 'What is Weft?' }), (e) => events.push(e));
    expect(events.at(-1)).toMatchObject({
      reply: 'You said "What is Weft?". Your Weft agent is listening.',
    });
  });

  it('with the failing preset, shows the step error and the review, and the task fails', async () => {
    const events: RunEvent[] = [];
    const task = await runGettingStarted(await input({ failReply: true }), (e) => events.push(e));
    expect(task.status).toBe('failed');
    expect(events.find((e) => e.kind === 'step')).toMatchObject({
      success: false,
      text: expect.stringContaining(PRESET_FAILURE) as unknown,
    });
    const purposes = events.filter((e) => e.kind === 'model-call').map((e) => e.purpose);
    expect(purposes).toEqual(['plan', 'reply', 'review']);
    expect(events.at(-1)).toEqual({
      atMs: expect.any(Number) as unknown,
      kind: 'status',
      status: 'failed',
    });
  });

  it('names the field of an answer that does not match the schema', () => {
    expect(
      checkAnswers({
        planAnswer: '{"steps": [{"pluginId": "assistant"}]}',
        reviewAnswer: '{"type": "stop"}',
      }),
    ).toEqual([
      {
        field: 'planAnswer',
        message: expect.stringMatching(/^plan answer: steps\.0\.action: /) as unknown,
      },
    ]);
    expect(checkAnswers({ planAnswer: '{"steps": []}', reviewAnswer: '{"type": "stop"' })).toEqual([
      {
        field: 'reviewAnswer',
        message: expect.stringMatching(/^review answer: not valid JSON/) as unknown,
      },
    ]);
  });
});
