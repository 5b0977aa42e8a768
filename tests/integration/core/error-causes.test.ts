/**
 * docs/reference/errors.md, "How errors look": an error of the core that wraps another keeps it
 * as `cause`, whatever part raised it.
 */
import { createServer } from 'node:net';
import { PromptRegistry, Runtime, WeftError } from '@weft/core';
import { ServerManager } from '@weft/core/node';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { describe, expect, it } from 'vitest';
import { silentLogger, stopAfterTest, TestPlugin } from './fixtures.js';

/** What `promise` rejects with; fails the test when it resolves. */
async function rejectionOf(promise: Promise<unknown>): Promise<WeftError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(WeftError.is(outcome), String(outcome)).toBe(true);
  return outcome as WeftError;
}

describe('docs/reference/errors.md#how-errors-look, causes', () => {
  it('keeps the wrapped error as cause in WEFT_START_FAILED, WEFT_PROVIDER_FAILED, WEFT_TEMPLATE_RENDER_FAILED and WEFT_LISTEN_FAILED [claim:errors-core-cause]', async () => {
    const refused = new Error('connection refused');
    const starting = await Runtime.init({
      models: [new ScriptedModelProvider()],
      memory: new InMemoryMemoryProvider(),
      plugins: [
        new TestPlugin('work', {
          init: () => {
            throw refused;
          },
        }),
      ],
      options: { logger: silentLogger },
    });
    const start = await rejectionOf(starting.start());
    expect([start.code, start.cause]).toEqual(['WEFT_START_FAILED', refused]);

    const hangUp = new Error('socket hang up');
    const running = stopAfterTest(
      await Runtime.init({
        models: [
          new ScriptedModelProvider({
            fallback: () => {
              throw hangUp;
            },
          }),
        ],
        memory: new InMemoryMemoryProvider(),
        plugins: [new TestPlugin('work')],
        options: { logger: silentLogger },
      }),
    );
    const call = await rejectionOf(running.models.generateText('hi'));
    expect([call.code, call.cause]).toEqual(['WEFT_PROVIDER_FAILED', hangUp]);

    const noSubject = new Error('no subject');
    const prompts = new PromptRegistry();
    prompts.register('mail', 'throws', () => {
      throw noSubject;
    });
    const render = await rejectionOf(prompts.render('mail/throws'));
    expect([render.code, render.cause]).toEqual(['WEFT_TEMPLATE_RENDER_FAILED', noSubject]);

    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = blocker.address() as { port: number };
      const listen = await rejectionOf(
        new ServerManager({ host: '127.0.0.1', port }, silentLogger).start(),
      );
      expect(listen.code).toBe('WEFT_LISTEN_FAILED');
      expect(listen.cause).toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
