/**
 * The run behind the Run panel of docs/building-plugins/http-chat.md
 * (src/components/RunPanel/examples/http-chat/run.ts): the page's agent's `ChatPlugin`, called through
 * its own route handler, with the scripted model and a memory that lasts between runs. The
 * browser test (tests/e2e/run-panel-http-chat.spec.ts) drives the same run through the panel.
 */
import type { Runtime, TriggerRoute } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { CHAT_PATH } from '../../examples/building-plugins/http-chat/chat-agent';
import {
  MODEL_FAILURE,
  definition,
  scriptedReply,
} from '../../src/components/RunPanel/examples/http-chat/run';
import { callRoute } from '../../src/components/RunPanel/run/route-call';
import { checkAnswers } from '../../src/components/RunPanel/run/answers';
import type { RunEvent, RunInput, RunSession } from '../../src/components/RunPanel/run/definition';

async function run(
  preset: string,
  change: (input: RunInput) => RunInput = (input) => input,
  session: RunSession | undefined = definition.newSession?.(),
) {
  const events: RunEvent[] = [];
  const input = change(await definition.initialInput(preset));
  expect(definition.checkInput?.(input)).toEqual([]);
  expect(checkAnswers(definition.answerFields, input)).toEqual([]);
  const task = await definition.run(input, (event) => events.push(event), session);
  return { task, events, kinds: events.map((event) => event.kind) };
}

function responseOf(events: RunEvent[]): { status: number; body: Record<string, unknown> } {
  const response = events.find((event) => event.kind === 'response');
  if (response?.kind !== 'response') throw new Error('no response event');
  return { status: response.status, body: JSON.parse(response.body) as Record<string, unknown> };
}

const withFields = (fields: Record<string, string>) => (input: RunInput) => ({
  ...input,
  fields: { ...input.fields, ...fields },
});

describe('the HTTP chat run (docs/building-plugins/http-chat.md)', () => {
  it("calls the sample's chat route handler and reports the trigger, plan, reply, memories, answer and status in order [claim:httpchat-panel-runs] [claim:httpchat-panel-route]", async () => {
    const { task, events, kinds } = await run('example');
    expect(task.status).toBe('completed');
    expect(kinds).toEqual([
      'trigger',
      'memory',
      'model-call',
      'plan',
      'model-call',
      'step',
      'memory',
      'response',
      'status',
    ]);
    expect(events[0]).toMatchObject({
      pluginId: 'chat',
      triggerId: 'message',
      space: 'chat-room-42-user-ada',
      message: 'My name is Ada.',
    });
    const reply = scriptedReply('42', 'ada', 'My name is Ada.', 0);
    expect(events.find((event) => event.kind === 'step')).toMatchObject({
      pluginId: 'chat',
      action: 'reply',
      success: true,
      text: JSON.stringify({ text: reply }),
    });
    // The reply prompt is the plugin's template, with the room and user of the body.
    const replyCall = events.filter((event) => event.kind === 'model-call')[1];
    expect(replyCall).toMatchObject({ purpose: 'reply' });
    expect(replyCall?.kind === 'model-call' ? replyCall.prompt : '').toContain('chat room "42"');
    expect(responseOf(events)).toEqual({
      status: 200,
      body: { taskId: task.id, status: 'completed', reply },
    });
    expect(events.at(-1)).toMatchObject({ kind: 'status', status: 'completed', reply });
    // The request id the route handler was given is kept with the task, as over HTTP.
    expect(task.metadata.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("keeps the user's conversation in the room between runs, and not other users' nor other rooms' [claim:httpchat-panel-reply] [claim:httpchat-panel-memory] [claim:httpchat-panel-token]", async () => {
    const session = definition.newSession?.();
    expect(session).toBeDefined();
    await run('example', undefined, session);
    const again = await run('example', (input) => ({ ...input, message: 'Still me.' }), session);
    expect(again.events.at(-1)).toMatchObject({
      reply: scriptedReply('42', 'ada', 'Still me.', 1),
    });
    const plan = again.events.find((event) => event.kind === 'model-call');
    expect(plan?.kind === 'model-call' ? plan.prompt : '').toContain('My name is Ada.');

    // Bob, in the same room, does not see Ada's messages: rooms are private unless shared.
    const bob = await run(
      'example',
      (input) => ({ ...withFields({ user: 'bob' })(input), message: 'Who is here?' }),
      session,
    );
    expect(bob.events.at(-1)).toMatchObject({
      reply: scriptedReply('42', 'bob', 'Who is here?', 0),
    });

    // Another room does not see them.
    const elsewhere = await run('example', withFields({ room: '7' }), session);
    expect(elsewhere.events.at(-1)).toMatchObject({
      reply: scriptedReply('7', 'ada', 'My name is Ada.', 0),
    });
  });

  it('counts at most the 10 earlier messages a planning prompt lists by default, however many runs there were [claim:httpchat-panel-memory]', async () => {
    const session = definition.newSession?.();
    const counts: unknown[] = [];
    for (let index = 0; index < 12; index += 1) {
      const message = `Message ${index}.`;
      const { events } = await run('example', (input) => ({ ...input, message }), session);
      counts.push(events.at(-1));
    }
    expect(counts.at(9)).toMatchObject({ reply: scriptedReply('42', 'ada', 'Message 9.', 9) });
    expect(counts.at(10)).toMatchObject({ reply: scriptedReply('42', 'ada', 'Message 10.', 10) });
    expect(counts.at(11)).toMatchObject({ reply: scriptedReply('42', 'ada', 'Message 11.', 10) });
  });

  it('counts fewer than 10 earlier messages when long ones fill the planning prompt’s relatedMemoryChars [claim:httpchat-panel-memory]', async () => {
    const session = definition.newSession?.();
    const seen: number[] = [];
    for (let index = 0; index < 12; index += 1) {
      const message = `Message ${index}: ${'long words '.repeat(90)}`.trim();
      const { events } = await run('example', (input) => ({ ...input, message }), session);
      const reply = (events.at(-1) as { reply?: string } | undefined)?.reply ?? '';
      seen.push(Number(/the plan saw (\d+) earlier/.exec(reply)?.[1]));
    }
    // Each entry cuts the message and the reply at 300 characters: about 750 in all, so the
    // 4000 characters of the history hold 5 of them, not the 10 of relatedMemories.
    expect(seen.slice(0, 5)).toEqual([0, 1, 2, 3, 4]);
    expect(Math.max(...seen)).toBeLessThan(10);
    expect(seen.at(-1)).toBe(seen.at(-2));
  });

  it('with the failing preset, the reply step fails, the review stops, and the route answers 502 without the cause [claim:httpchat-panel-failing]', async () => {
    const { task, events } = await run(definition.failingPreset);
    expect(task.status).toBe('failed');
    expect(events.find((event) => event.kind === 'step')).toMatchObject({
      action: 'reply',
      success: false,
      text: expect.stringContaining(MODEL_FAILURE) as unknown,
    });
    expect(events.flatMap((event) => (event.kind === 'model-call' ? [event.purpose] : []))).toEqual(
      ['plan', 'reply', 'review'],
    );
    expect(events.find((event) => event.kind === 'review')).toMatchObject({ decision: 'stop' });
    const answer = responseOf(events);
    expect(answer).toMatchObject({
      status: 502,
      body: {
        taskId: task.id,
        status: 'failed',
        error: { status: 502, code: 'WEFT_CHAT_NO_REPLY' },
      },
    });
    expect(JSON.stringify(answer.body)).not.toContain(MODEL_FAILURE);
    expect(events.at(-1)).toEqual({ atMs: expect.any(Number), kind: 'status', status: 'failed' });
  });

  it.each([
    [{ user: 'ada lovelace' }, 'user', /"user" must be a user id/],
    [{ room: '' }, 'room', /"room" must not be empty/],
    [{ room: 'r'.repeat(65) }, 'room', /"room" must be at most 64 characters/],
  ])(
    'names the field the route would refuse (%j), with its 400, before a run [claim:httpchat-panel-refused]',
    async (fields, field, problem) => {
      const input = withFields(fields)(await definition.initialInput('example'));
      const [found, ...others] = definition.checkInput?.(input) ?? [];
      expect(others).toEqual([]);
      expect(found?.field).toBe(field);
      expect(found?.message).toMatch(problem);
      expect(found?.message).toContain('400 WEFT_CHAT_INVALID_REQUEST');
    },
  );

  it('names an empty message beside the message field [claim:httpchat-panel-editor-check]', async () => {
    const input = { ...(await definition.initialInput('example')), message: '   ' };
    expect(definition.checkInput?.(input)).toEqual([
      { field: 'message', message: expect.stringMatching(/"message" must not be empty/) },
    ]);
  });

  it('names the field of a plan answer that does not match the schema', async () => {
    const input = await definition.initialInput('example');
    const problems = checkAnswers(definition.answerFields, {
      ...input,
      answers: { ...input.answers, plan: '{"steps": [{"pluginId": "chat"}]}' },
    });
    expect(problems).toEqual([
      { field: 'plan', message: expect.stringMatching(/^plan answer: steps\.0\.action: /) },
    ]);
  });
});

describe('callRoute (src/components/RunPanel/run/route-call.ts)', () => {
  const route = (handler: TriggerRoute['handler']): TriggerRoute => ({
    type: 'route',
    id: 'r',
    method: 'POST',
    path: CHAT_PATH,
    handler,
  });

  it('gives the handler the body and request id, and collects its status and JSON [claim:httpchat-panel-route]', async () => {
    const answer = await callRoute(
      route((request, response) => {
        response.status(201).json({ got: request.body, id: request.requestId });
      }),
      { room: '42' },
      {} as Runtime,
      'request-1',
    );
    expect(answer).toEqual({ status: 201, body: { got: { room: '42' }, id: 'request-1' } });
  });

  it('fails, naming the route, when the handler returns without answering', async () => {
    await expect(
      callRoute(
        route(() => undefined),
        {},
        {} as Runtime,
        'r',
      ),
    ).rejects.toThrow('the handler of POST /chat returned without answering');
  });
});
