/**
 * The route handler of the agent `create-weft` generates (a copy of the getting-started
 * example's plugin): which error of a failed task it shows the client.
 */
import type { AgentTask, Context, Runtime, TriggerRoute } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { AssistantPlugin } from '../../examples/getting-started/assistant-plugin.js';

function errorItem(error: string, expose?: true): Context {
  return {
    type: 'error',
    pluginId: 'clock',
    action: 'time',
    error,
    ...(expose ? { expose } : {}),
    timestamp: new Date(),
  };
}

/** What the handler answers for a task that ended with `chain` after its trigger. */
async function answerFor(chain: Context[]): Promise<{ status: number; body: unknown }> {
  const task = {
    id: 't-1',
    status: 'failed',
    chain: [
      { type: 'trigger', pluginId: 'assistant', action: 'message', timestamp: new Date() },
      ...chain,
    ],
    recorded: { trigger: true, chain: true },
  } as unknown as AgentTask;
  const runtime = { dispatch: () => Promise.resolve(task) } as unknown as Runtime;
  const route = new AssistantPlugin().triggers[0] as TriggerRoute;
  const answer = { status: 200, body: undefined as unknown };
  const response = {
    status(code: number) {
      answer.status = code;
      return response;
    },
    json(body: unknown) {
      answer.body = body;
      return response;
    },
  };
  await route.handler(
    { body: { user: 'ada', text: 'What time is it on Mars?' } } as never,
    response as never,
    runtime,
  );
  return answer;
}

describe('the generated agent’s answer to a failed task', () => {
  it('shows the last error item when its executor marked it, with 422, and answers 500 when the last one is not marked [claim:exec-expose-generated]', async () => {
    const marked = errorItem('"Mars/Olympus" is not a time zone I know', true);
    expect(await answerFor([marked])).toEqual({
      status: 422,
      body: { taskId: 't-1', status: 'failed', error: '"Mars/Olympus" is not a time zone I know' },
    });
    const later = errorItem('connect ECONNREFUSED 10.0.0.5:443');
    const answer = await answerFor([marked, later]);
    expect(answer.status).toBe(500);
    expect(JSON.stringify(answer.body)).not.toContain('Mars');
    expect(JSON.stringify(answer.body)).not.toContain('ECONNREFUSED');
  });
});
