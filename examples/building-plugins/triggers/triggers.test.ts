import { request as httpRequest } from 'node:http';
import { Plugin, Runtime, type Trigger } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { HeartbeatPlugin } from './heartbeat-plugin.js';
import { IssuesPlugin } from './issues-plugin.js';

const logger = pino({ level: 'silent' });
// Each error answer points to its code's section of the errors reference.
const ERRORS = 'https://weft-ai.github.io/docs/reference/errors/';
const labelPlan = { steps: [{ pluginId: 'issues', action: 'label' }] };

async function post(
  url: string,
  body: string,
  headers: Record<string, string> = {},
) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body,
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** Posts with a Host header of its own, which fetch does not let a caller set. */
function postWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { host, 'content-type': 'application/json' } },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end('{}');
  });
}

/** Resolves once a condition holds, checking every few milliseconds. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('a route trigger', () => {
  it('dispatches a task per request and answers with its outcome [claim:trig-dispatch-resolves] [claim:trig-4xx-own] [claim:trig-test-covers] [claim:triggers-error-body-docs-url] [claim:trig-dispatch-resolves-run] [claim:trig-json-parsed] [claim:trig-metadata] [claim:trig-space-400-row] [claim:trig-unparsed-body] [claim:wp-no-auth]', async () => {
    const memory = new InMemoryMemoryProvider();
    const runtime = await Runtime.init({
      models: [new ScriptedModelProvider({ fallback: labelPlan })],
      memory,
      plugins: [new IssuesPlugin()],
      options: {
        logger,
        pipelineReview: 'never',
        server: { port: 0, bodyLimit: '2kb' },
      },
    });
    await runtime.start();
    const url = `${runtime.server.url}/webhooks/issues`;
    try {
      const event = {
        repository: 'weft',
        issue: { number: 7, title: 'Crash on start' },
      };
      const ok = await post(url, JSON.stringify(event), {
        'x-delivery-id': 'd-1',
      });
      expect(ok).toMatchObject({
        status: 202,
        body: { status: 'completed', label: { label: 'bug' } },
      });
      const [trigger] = await memory.query({
        space: 'repo-weft',
        kind: 'trigger',
      });
      expect(trigger?.metadata).toEqual({ deliveryId: 'd-1' });

      expect(await post(url, '{"repository":')).toMatchObject({ status: 400 });
      const deep = '['.repeat(100) + ']'.repeat(100); // deeper than maxJsonDepth
      expect(await post(url, deep)).toMatchObject({
        status: 400,
        body: { error: { code: 'WEFT_BAD_REQUEST' } },
      });
      // An empty repository makes spaceId throw WEFT_INVALID_SPACE, answered 400.
      const noRepository = { repository: '', issue: { number: 8, title: 'x' } };
      expect(await post(url, JSON.stringify(noRepository))).toMatchObject({
        status: 400,
        body: { error: { code: 'WEFT_INVALID_SPACE' } },
      });
      // A body that is not sent as JSON is not parsed: the handler gets none.
      expect(
        await post(url, JSON.stringify(event), {
          'Content-Type': 'text/plain',
        }),
      ).toMatchObject({ status: 422 });
      // The handler checks every field it uses: an issue without a title is
      // refused too, rather than labelled from nothing.
      const untitled = { repository: 'weft', issue: { number: 9 } };
      expect(await post(url, JSON.stringify(untitled))).toMatchObject({
        status: 422,
        body: { error: { code: 'WEFT_BAD_REQUEST' } },
      });
      expect(await postWithHost(url, 'agent.example.com')).toBe(403);
      expect(
        await post(url, JSON.stringify(event), {
          Origin: 'https://elsewhere.example',
        }),
      ).toMatchObject({
        status: 403,
        body: { error: { code: 'WEFT_ORIGIN_NOT_ALLOWED' } },
      });
      expect(
        await post(url, JSON.stringify({ pad: 'x'.repeat(4096) })),
      ).toMatchObject({
        status: 413,
      });
      expect(
        await post(`${runtime.server.url}/webhooks/unknown`, '{}'),
      ).toEqual({
        status: 404,
        body: {
          error: {
            status: 404,
            code: 'WEFT_NOT_FOUND',
            docsUrl: `${ERRORS}#weft_not_found`,
            message: 'No route for POST /webhooks/unknown',
            requestId: expect.any(String),
          },
        },
      });
      expect(await post(url, '{}')).toEqual({
        status: 422,
        body: {
          error: {
            status: 422,
            code: 'WEFT_BAD_REQUEST',
            docsUrl: `${ERRORS}#weft_bad_request`,
            message: 'expected { repository, issue: { number, title } }',
            requestId: expect.any(String),
          },
        },
      });
    } finally {
      await runtime.stop();
    }
  });

  it('answers 500 without details when a handler throws an error with no status [claim:trig-500-hidden] [claim:trig-test-covers]', async () => {
    class BrokenPlugin extends Plugin {
      readonly id = 'broken';
      readonly description = 'A route whose handler fails.';
      override readonly triggers: Trigger[] = [
        {
          type: 'route',
          id: 'fail',
          method: 'GET',
          path: '/broken',
          handler: () => {
            throw new Error(
              'connection string postgres://admin:secret@db leaked?',
            );
          },
        },
      ];
    }
    const runtime = await Runtime.init({
      models: [new ScriptedModelProvider()],
      memory: new InMemoryMemoryProvider(),
      plugins: [new BrokenPlugin()],
      options: { logger, server: { port: 0 } },
    });
    await runtime.start();
    try {
      const response = await fetch(`${runtime.server.url}/broken`);
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({
        error: {
          status: 500,
          code: 'WEFT_INTERNAL',
          docsUrl: `${ERRORS}#weft_internal`,
          message:
            'Internal Server Error; the server log has the details under this requestId',
          requestId: response.headers.get('x-request-id'),
        },
      });
    } finally {
      await runtime.stop();
    }
  });

  it('answers 503 when the queue is full [claim:trig-503] [claim:trig-test-covers] [claim:prod-queue-full] [claim:wp-queue-bounded] [claim:wp-resource-limits]', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const model = new ScriptedModelProvider({
      // Planning waits at the gate, so the first task holds the only worker.
      fallback: async () => {
        await gate;
        return labelPlan;
      },
    });
    const runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [new IssuesPlugin()],
      options: {
        logger,
        pipelineReview: 'never',
        scheduler: { concurrency: 1, maxQueueSize: 1 },
        server: { port: 0 },
      },
    });
    await runtime.start();
    const url = `${runtime.server.url}/webhooks/issues`;
    const event = (n: number) =>
      JSON.stringify({
        repository: 'weft',
        issue: { number: n, title: 'Question' },
      });
    try {
      const first = post(url, event(1));
      await until(() => runtime.scheduler.running === 1);
      const second = post(url, event(2));
      await until(() => runtime.scheduler.pending === 1);
      const third = await post(url, event(3));
      expect(third.status).toBe(503);
      expect(third.body).toMatchObject({
        error: {
          code: 'WEFT_QUEUE_FULL',
          message: expect.stringContaining('queue is full'),
        },
      });
      release();
      expect((await first).status).toBe(202);
      expect((await second).status).toBe(202);
    } finally {
      release();
      await runtime.stop();
    }
  });
});

describe('a start trigger', () => {
  it('dispatches tasks until the runtime stops [claim:trig-start-signal]', async () => {
    const memory = new InMemoryMemoryProvider();
    const runtime = await Runtime.init({
      models: [
        new ScriptedModelProvider({
          fallback: { steps: [{ pluginId: 'heartbeat', action: 'tick' }] },
        }),
      ],
      memory,
      plugins: [new HeartbeatPlugin(20)],
      options: { logger, pipelineReview: 'never' },
    });
    await runtime.start();
    expect(runtime.server.url).toBeUndefined(); // no route trigger, so no HTTP server
    const finished = () => memory.query({ space: 'heartbeat', kind: 'chain' });
    while ((await finished()).length < 2)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await runtime.stop();

    const chains = await finished();
    expect(chains.length).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(
      await memory.query({ space: 'heartbeat', kind: 'chain' }),
    ).toHaveLength(chains.length);
  });

  // A stop cancels the tasks still waiting in 'cancel' mode at once, and in the
  // default 'drain' mode once shutdownTimeoutMs has run out.
  it.each([
    { mode: 'cancel', stop: { shutdown: 'cancel' as const } },
    { mode: 'drain', stop: { shutdownTimeoutMs: 20 } },
  ])(
    'logs the 503 of a tick whose queued task a $mode stop cancels, leaving no unhandled rejection [claim:trig-tick-503]',
    async ({ stop }) => {
      const lines: { msg: string; error?: string }[] = [];
      const warnings = pino(
        { level: 'warn' },
        { write: (line: string) => lines.push(JSON.parse(line)) },
      );
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      try {
        // Each task plans for 50 ms while the timer ticks every 10 ms, so the
        // space's later tasks wait in the queue.
        const runtime = await Runtime.init({
          models: [
            new ScriptedModelProvider({
              fallback: async () => {
                await new Promise((resolve) => setTimeout(resolve, 50));
                return { steps: [{ pluginId: 'heartbeat', action: 'tick' }] };
              },
            }),
          ],
          memory: new InMemoryMemoryProvider(),
          plugins: [new HeartbeatPlugin(10)],
          options: {
            logger: warnings,
            pipelineReview: 'never',
            ...stop,
          },
        });
        // Keeps each dispatch's promise without handling it: the plugin's own
        // .catch must be what handles a rejection.
        const dispatched: Promise<unknown>[] = [];
        const dispatch = runtime.dispatch.bind(runtime);
        runtime.dispatch = (event) => {
          const done = dispatch(event);
          dispatched.push(done);
          return done;
        };
        await runtime.start();
        const deadline = Date.now() + 5_000;
        while (dispatched.length < 4 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 5));
        expect(dispatched.length).toBeGreaterThanOrEqual(4);
        await runtime.stop();
        await new Promise((resolve) => setTimeout(resolve, 20));

        const rejected = (await Promise.allSettled(dispatched)).flatMap(
          (outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []),
        );
        expect(rejected.length).toBeGreaterThanOrEqual(1);
        for (const reason of rejected) {
          expect(reason).toMatchObject({
            code: 'WEFT_TASK_CANCELLED',
            status: 503,
          });
        }
        const skipped = lines.filter(
          (line) => line.msg === 'heartbeat skipped',
        );
        expect(skipped).toHaveLength(rejected.length);
        expect(skipped[0]?.error).toContain('[WEFT_TASK_CANCELLED]');
        expect(unhandled).toEqual([]);
      } finally {
        process.off('unhandledRejection', onUnhandled);
      }
    },
  );

  it('rejects an interval that is too short when the plugin is created', () => {
    expect(() => new HeartbeatPlugin(1)).toThrow(
      'intervalMs must be an integer of at least 10, got 1',
    );
  });
});
