/**
 * The tutorial agent's review policy, `on-failure`: with a model server whose planner plans two
 * `answer` steps for one message, the agent asks for no review between them, where the default
 * policy would ask once; when the writer fails, the planner is asked for a review.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Runtime } from '@weft/core';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createChatAgent } from './agent.js';
import { readChatSettings } from './settings.js';

type Purpose = 'plan' | 'review' | 'reply';

/**
 * A chat-completions server that plans `plannedSteps` `answer` steps and records each call's
 * purpose and model; with `writerFails`, it refuses every reply with `400`, which the provider
 * does not retry.
 */
async function startModelServer({
  plannedSteps,
  writerFails = false,
}: {
  plannedSteps: number;
  writerFails?: boolean;
}): Promise<{
  baseUrl: string;
  calls: Purpose[];
  models: string[];
  server: Server;
}> {
  const calls: Purpose[] = [];
  const models: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        model: string;
        messages: { content: string }[];
      };
      models.push(body.model);
      const system = body.messages[0]?.content ?? '';
      let text = 'A short reply.';
      if (system.includes('JSON Schema (PipelineModification)')) {
        calls.push('review');
        text = JSON.stringify({ type: writerFails ? 'stop' : 'continue' });
      } else if (system.includes('JSON Schema (Pipeline)')) {
        calls.push('plan');
        const step = { pluginId: 'conversation', action: 'answer' };
        text = JSON.stringify({
          steps: Array.from({ length: plannedSteps }, () => step),
        });
      } else {
        calls.push('reply');
        if (writerFails) {
          response.writeHead(400, { 'Content-Type': 'application/json' });
          response.end(
            JSON.stringify({ error: { message: 'the writer is down' } }),
          );
          return;
        }
      }
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(
        JSON.stringify({
          choices: [{ message: { role: 'assistant', content: text } }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, calls, models, server };
}

describe('the tutorial agent’s review policy', () => {
  let runtime: Runtime | undefined;
  let server: Server | undefined;
  let directory: string | undefined;
  afterEach(async () => {
    await runtime?.stop();
    server?.closeAllConnections();
    await new Promise(
      (resolve) => server?.close(resolve) ?? resolve(undefined),
    );
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  /** Starts the tutorial agent on `model`'s server and posts one message to it. */
  async function sendOneMessage(
    model: Awaited<ReturnType<typeof startModelServer>>,
  ): Promise<{
    settings: ReturnType<typeof readChatSettings>;
    response: Response;
  }> {
    server = model.server;
    directory = mkdtempSync(join(tmpdir(), 'weft-chat-review-'));
    const settings = readChatSettings({
      CHAT_BASE_URL: model.baseUrl,
      CHAT_DB: join(directory, 'chat.db'),
      CHAT_PORT: '0',
    });
    runtime = await createChatAgent(settings, pino({ level: 'silent' }));
    await runtime.start();
    const response = await fetch(
      `${runtime.server.url}/conversations/c1/messages`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ text: 'Hello' }),
      },
    );
    return { settings, response };
  }

  it('asks for no review between two answer steps that worked [claim:tut-on-failure-review]', async () => {
    const model = await startModelServer({ plannedSteps: 2 });
    const { response } = await sendOneMessage(model);

    expect(response.status).toBe(200);
    // Under the default policy, 'always', a review would sit between the two replies.
    expect(model.calls).toEqual(['plan', 'reply', 'reply']);
  });

  it('asks the planner for a review when the writer fails: one call more than a message that works [claim:tut-on-failure-cost]', async () => {
    const model = await startModelServer({
      plannedSteps: 1,
      writerFails: true,
    });
    const { settings, response } = await sendOneMessage(model);

    expect(response.status).toBe(502);
    expect(model.calls).toEqual(['plan', 'reply', 'review']);
    expect(model.models).toEqual([
      settings.plannerModel,
      settings.writerModel,
      settings.plannerModel,
    ]);
  });
});
