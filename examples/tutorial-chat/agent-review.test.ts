/**
 * The tutorial agent's review policy, `on-failure`: with a model server whose planner plans two
 * `answer` steps for one message, the agent asks for no review between them, where the default
 * policy would ask once.
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

/** A chat-completions server that plans two `answer` steps and counts the calls by purpose. */
async function startTwoStepServer(): Promise<{
  baseUrl: string;
  calls: Purpose[];
  server: Server;
}> {
  const calls: Purpose[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        messages: { content: string }[];
      };
      const system = body.messages[0]?.content ?? '';
      let text = 'A short reply.';
      if (system.includes('JSON Schema (PipelineModification)')) {
        calls.push('review');
        text = JSON.stringify({ type: 'continue' });
      } else if (system.includes('JSON Schema (Pipeline)')) {
        calls.push('plan');
        const step = { pluginId: 'conversation', action: 'answer' };
        text = JSON.stringify({ steps: [step, step] });
      } else {
        calls.push('reply');
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
  return { baseUrl: `http://127.0.0.1:${port}/v1`, calls, server };
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

  it('asks for no review between two answer steps that worked [claim:tut-on-failure-review]', async () => {
    const model = await startTwoStepServer();
    server = model.server;
    directory = mkdtempSync(join(tmpdir(), 'weft-chat-review-'));
    runtime = await createChatAgent(
      readChatSettings({
        CHAT_BASE_URL: model.baseUrl,
        CHAT_DB: join(directory, 'chat.db'),
        CHAT_PORT: '0',
      }),
      pino({ level: 'silent' }),
    );
    await runtime.start();

    const response = await fetch(
      `${runtime.server.url}/conversations/c1/messages`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ text: 'Hello' }),
      },
    );

    expect(response.status).toBe(200);
    // Under the default policy, 'always', a review would sit between the two replies.
    expect(model.calls).toEqual(['plan', 'reply', 'reply']);
  });
});
