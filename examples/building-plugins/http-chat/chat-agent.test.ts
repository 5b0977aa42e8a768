import { Runtime } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startChatAgent } from './chat-agent.js';
import { sendChatMessage } from './send-chat-message.js';

let runtime: Runtime | undefined;

/** The users' tokens, as the agent's token store would hold them. */
const TOKENS = new Map([
  ['t-ada', 'ada'],
  ['t-bob', 'bob'],
]);
afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
});

// Plans one chat.reply step for every message; `answer` writes the reply from its prompt, and
// any review stops.
function scriptedModel(answer: (prompt: string) => string | Promise<string>) {
  return new ScriptedModelProvider({
    fallback: (messages, request) => {
      if (request.purpose === 'plan')
        return { steps: [{ pluginId: 'chat', action: 'reply' }] };
      if (request.purpose === 'review')
        return { type: 'stop', reason: 'the reply failed' };
      return answer(messages.at(-1)?.content ?? '');
    },
  });
}

async function start(
  model: ScriptedModelProvider,
  options: { taskTimeoutMs?: number } = {},
) {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => lines.push(JSON.parse(line)) },
  );
  runtime = await startChatAgent(model, new InMemoryMemoryProvider(), TOKENS, {
    port: 0,
    logger,
    ...options,
  });
  return { url: runtime.server.url as string, lines };
}

describe('docs/building-plugins/http-chat.md', () => {
  it('answers with the reply, and plans the next message of the room with the same user’s first, not with other users’ [claim:httpchat-what] [claim:httpchat-sample] [claim:httpchat-client] [claim:httpchat-room-history] [claim:httpchat-test-port] [claim:httpchat-test-fallback]', async () => {
    const model = scriptedModel(() => 'Hello, Ada.');
    const { url } = await start(model);
    const first = await sendChatMessage(url, 't-ada', {
      room: 'lobby',
      user: 'ada',
      message: 'Hi!',
    });
    expect(first).toEqual({
      ok: true,
      taskId: expect.any(String),
      status: 'completed',
      reply: 'Hello, Ada.',
    });
    await sendChatMessage(url, 't-bob', {
      room: 'lobby',
      user: 'bob',
      message: 'Who is here?',
    });
    await sendChatMessage(url, 't-ada', {
      room: 'lobby',
      user: 'ada',
      message: 'Still me.',
    });
    // Each message is a plan and a reply: 2 is Bob's plan, 4 is Ada's second.
    expect(model.requests[2]?.at(-1)?.content).not.toContain('Hi!');
    expect(model.requests[4]?.at(-1)?.content).toContain(
      'chat-room-lobby-user-ada',
    );
    expect(model.requests[4]?.at(-1)?.content).toContain('Hi!');
  });

  it('runs as the user the token names, and answers 401 to an unknown token [claim:httpchat-sample] [claim:httpchat-body]', async () => {
    const model = scriptedModel(() => 'Hello.');
    const { url } = await start(model);
    const refused = await sendChatMessage(url, 'stolen', {
      room: 'lobby',
      user: 'ada',
      message: 'Hi',
    });
    expect(refused).toMatchObject({
      ok: false,
      httpStatus: 401,
      code: 'WEFT_CHAT_UNAUTHORIZED',
    });
    expect(model.requests).toHaveLength(0);
    // Bob's token with a body that says ada: the task is Bob's.
    await sendChatMessage(url, 't-bob', {
      room: 'lobby',
      user: 'ada',
      message: 'Hi',
    });
    expect(model.requests[0]?.at(-1)?.content).toContain(
      'Space: chat-room-lobby-user-bob',
    );
  });

  it('answers 400 naming the field, and runs no task [claim:httpchat-checked-first] [claim:httpchat-400] [claim:httpchat-client] [claim:httpchat-test-port]', async () => {
    const model = scriptedModel(() => 'unused');
    const { url } = await start(model);
    const answer = await sendChatMessage(url, 't-ada', {
      room: 'lobby',
      user: 'ada lovelace',
      message: 'Hi',
    });
    expect(answer).toMatchObject({
      ok: false,
      httpStatus: 400,
      code: 'WEFT_CHAT_INVALID_REQUEST',
      message: expect.stringMatching(/"user" must be a user id/),
    });
    expect(model.requests).toHaveLength(0);
  });

  it('answers 502 with the task id when the model fails, and logs the cause under it [claim:httpchat-502-generic] [claim:httpchat-502-log] [claim:httpchat-client]', async () => {
    const model = scriptedModel(() => {
      throw new Error('upstream 401: key sk-live-123 revoked');
    });
    const { url, lines } = await start(model);
    const answer = await sendChatMessage(url, 't-ada', {
      room: 'lobby',
      user: 'ada',
      message: 'Hi',
    });
    expect(answer).toMatchObject({
      ok: false,
      httpStatus: 502,
      code: 'WEFT_CHAT_NO_REPLY',
    });
    expect(JSON.stringify(answer)).not.toContain('sk-live-123');
    const taskId = (answer as { taskId: string }).taskId;
    const logged = lines.find(
      (line) => line.msg === 'chat: task ended without a reply',
    );
    expect(logged).toMatchObject({
      taskId,
      error: expect.stringContaining('sk-live-123'),
    });
  });

  it('answers 502 when the task runs past taskTimeoutMs [claim:httpchat-sample] [claim:httpchat-task-timeout] [claim:httpchat-task-timeout-502]', async () => {
    // A model that never answers: the task's deadline ends the wait, not the client's.
    const model = scriptedModel(() => new Promise<string>(() => undefined));
    const { url } = await start(model, { taskTimeoutMs: 200 });
    const answer = await sendChatMessage(url, 't-ada', {
      room: 'lobby',
      user: 'ada',
      message: 'Hi',
    });
    expect(answer).toMatchObject({
      ok: false,
      httpStatus: 502,
      code: 'WEFT_CHAT_NO_REPLY',
      message: expect.stringContaining('failed'),
    });
  });

  it('counts taskTimeoutMs from when a task leaves the queue: a message that waited is still answered [claim:httpchat-queue-wait] [claim:trouble-client-waits-queue] [claim:prod-client-waits-queue]', async () => {
    // The first message's reply never comes; the second, of the same room and user, waits
    // behind it (a space's tasks run one at a time), then takes 600 ms of its own: queued
    // and running together it outlasts the 1.5 s deadline, which it would not survive if
    // the deadline counted its time in the queue. Its own run stays well within the deadline
    // (600 ms of 1.5 s), so a loaded machine does not fail it.
    // The second reply's prompt holds the first message among the conversation so far: the
    // reply it answers is the one under "## The message".
    const model = scriptedModel((prompt) =>
      prompt.includes('## The message\nfirst\n')
        ? new Promise<string>(() => undefined)
        : new Promise<string>((resolve) =>
            setTimeout(() => resolve('Here now.'), 600),
          ),
    );
    const { url } = await start(model, { taskTimeoutMs: 1_500 });
    const body = { room: 'lobby', user: 'ada' };
    const first = sendChatMessage(url, 't-ada', { ...body, message: 'first' });
    await vi.waitFor(() => expect(model.requests.length).toBeGreaterThan(0));
    const sent = Date.now();
    const second = await sendChatMessage(url, 't-ada', {
      ...body,
      message: 'second',
    });
    // It waited for the first message's deadline: at least 1.5 s after the first began.
    expect(Date.now() - sent).toBeGreaterThan(1_000);
    expect(second).toMatchObject({ ok: true, reply: 'Here now.' });
    expect(await first).toMatchObject({ ok: false, httpStatus: 502 });
  });

  it('listens on port 3000 with a one-minute task deadline, and the client waits 65 seconds, unless told otherwise [claim:httpchat-sample] [claim:httpchat-client-deadline]', async () => {
    // Stop at Runtime.init: the test reads the options without taking port 3000.
    let given: Parameters<typeof Runtime.init>[0] | undefined;
    const init = vi
      .spyOn(Runtime, 'init')
      .mockImplementationOnce(async (config) => {
        given = config;
        throw new Error('options read');
      });
    try {
      await expect(
        startChatAgent(
          scriptedModel(() => 'unused'),
          new InMemoryMemoryProvider(),
          TOKENS,
        ),
      ).rejects.toThrow('options read');
    } finally {
      init.mockRestore();
    }
    expect(given?.options).toMatchObject({
      server: { port: 3000 },
      taskTimeoutMs: 60_000,
    });

    const { url } = await start(scriptedModel(() => 'Hello.'));
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    try {
      await sendChatMessage(url, 't-ada', {
        room: 'lobby',
        user: 'ada',
        message: 'Hi',
      });
      expect(timeout).toHaveBeenCalledWith(65_000);
    } finally {
      timeout.mockRestore();
    }
  });

  it("gives up after the client's own deadline when no answer comes [claim:httpchat-client-deadline] [claim:httpchat-client-timeout]", async () => {
    const model = scriptedModel(() => new Promise<string>(() => undefined));
    const { url } = await start(model, { taskTimeoutMs: 1_000 });
    await expect(
      sendChatMessage(
        url,
        't-ada',
        { room: 'lobby', user: 'ada', message: 'Hi' },
        100,
      ),
    ).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});
