import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Plugin, Runtime, type Executor } from '@weft/core';
import { OpenAIModelProvider } from '@weft/model-openai';
import { InMemoryMemoryProvider } from '@weft/testing';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { summarise } from './openai-error-handling.js';

class SummaryPlugin extends Plugin {
  readonly id = 'summary';
  readonly description = 'Summarises messages.';
  override readonly executors: Executor[] = [summarise];
}

describe("the model-openai README's error handling", () => {
  it('sees httpStatus 401 in an executor, through a runtime [claim:cap-provider-throws] [claim:mpo-unwrapped] [claim:oai-unwrapped] [claim:oai-example-run] [claim:wp-provider-errors-unwrapped]', async () => {
    // A chat-completions server that plans one step, then refuses the key.
    let calls = 0;
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        calls += 1;
        if (calls === 1) {
          const plan = {
            steps: [{ pluginId: 'summary', action: 'summarise' }],
          };
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(
            JSON.stringify({
              choices: [{ message: { content: JSON.stringify(plan) } }],
            }),
          );
          return;
        }
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ error: { message: 'Incorrect API key provided' } }),
        );
      });
    });
    await new Promise<void>((resolve) =>
      server.listen(0, '127.0.0.1', resolve),
    );
    const { port } = server.address() as AddressInfo;
    const runtime = await Runtime.init({
      models: [
        new OpenAIModelProvider({
          baseUrl: `http://127.0.0.1:${port}/v1`,
          apiKey: 'sk-wrong',
          model: 'test-model',
        }),
      ],
      memory: new InMemoryMemoryProvider(),
      plugins: [new SummaryPlugin()],
      options: { logger: pino({ level: 'silent' }), pipelineReview: 'never' },
    });
    await runtime.start();
    try {
      const task = await runtime.dispatch({
        pluginId: 'summary',
        triggerId: 'manual',
        space: 'docs',
        message: 'A weft is the thread woven across the warp.',
      });
      expect(task.chain.at(-1)).toMatchObject({
        type: 'error',
        pluginId: 'summary',
        action: 'summarise',
        error: expect.stringContaining(
          'the model API refused the key; check OPENAI_API_KEY',
        ),
      });
      expect(calls).toBe(2);
    } finally {
      await runtime.stop();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('is the code block the README shows [claim:oai-example-run]', async () => {
    const readme = await readFile(
      new URL('../../packages/model-openai/README.md', import.meta.url),
      'utf8',
    );
    const sample = await readFile(
      new URL('./openai-error-handling.ts', import.meta.url),
      'utf8',
    );
    // Prettier wraps the README at another width, so compare the code without its layout
    // (whitespace, and the trailing commas that come with line breaks).
    const code = (text: string) =>
      text.replace(/\s+/g, '').replace(/,([\]})])/g, '$1');
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) =>
      code(match[1] ?? ''),
    );
    expect(blocks).toContain(code(sample));
  });
});
