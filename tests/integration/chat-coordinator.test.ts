/**
 * The chat route behind a PostgreSQL coordinator, when an instance loses its database while a
 * message's task is running: the route answers 502 `WEFT_CHAT_NO_REPLY` with status
 * `cancelled`, and the task runs again from its record on the other instance.
 */
import { Runtime } from '@weft/core';
import { PostgresSpaceCoordinator } from '@weft/coordinator-postgres';
import { ChatPlugin } from '@weft/plugin-chat';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SERVER_START_TIMEOUT_MS,
  usePostgresPerFile,
} from '@weft-internal/test-support/postgres-per-file';

const postgres = usePostgresPerFile('c_', { beforeAll, afterAll });
const runtimes: Runtime[] = [];

// Registered after the server's own hook, so it runs first: the instances stop before the server.
afterAll(async () => {
  await Promise.all(runtimes.map((runtime) => runtime.stop()));
}, SERVER_START_TIMEOUT_MS);

/** One chat instance; `reply` writes the reply text, or hangs until the task's signal ends. */
async function startInstance(
  schema: string,
  reply: (signal: AbortSignal | undefined) => Promise<string>,
  reconnectDelayMs = 500,
): Promise<{ runtime: Runtime; coordinator: PostgresSpaceCoordinator }> {
  const coordinator = new PostgresSpaceCoordinator({
    connectionString: postgres.url(),
    schema,
    sweepIntervalMs: 200,
    reconnectDelayMs,
    reconnectMaxDelayMs: Math.max(reconnectDelayMs, 30_000),
    logger: pino({ level: 'silent' }),
  });
  const model = new ScriptedModelProvider({
    fallback: (_messages, request) =>
      request.purpose === 'plan'
        ? { steps: [{ pluginId: 'chat', action: 'reply' }] }
        : reply(request.signal),
  });
  const runtime = await Runtime.init({
    models: [model],
    memory: new InMemoryMemoryProvider(),
    plugins: [new ChatPlugin({ trustClientUser: true })],
    coordinator,
    options: {
      server: { port: 0 },
      pipelineReview: 'never',
      reviewFinalStep: false,
      shutdownTimeoutMs: 2_000,
      logger: pino({ level: 'silent' }),
    },
  });
  runtimes.push(runtime);
  await runtime.start();
  return { runtime, coordinator };
}

async function waitFor(what: string, check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the chat route with a PostgreSQL coordinator', () => {
  it('answers 502 cancelled for a message whose task was running when the database connection dropped, and the task runs again elsewhere [claim:httpchat-coordinator-running-cancelled] [claim:chatreadme-coordinator-running-cancelled]', async () => {
    const schema = postgres.newSchema();
    let hanging = 0;
    const victim = await startInstance(schema, (signal) => {
      hanging += 1;
      return new Promise<string>((_resolve, reject) => {
        // A deadline of its own, so a broken abort cannot hang the test.
        const timer = setTimeout(() => reject(new Error('never aborted')), 20_000);
        signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(signal.reason);
        });
      });
    });
    const repliedElsewhere: string[] = [];
    await startInstance(schema, async () => {
      repliedElsewhere.push('from the survivor');
      return 'from the survivor';
    });

    const answer = fetch(`${victim.runtime.server.url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ room: 'r1', user: 'ada', message: 'hello' }),
      signal: AbortSignal.timeout(30_000),
    });
    await waitFor('the reply step starting', () => hanging === 1, 10_000);
    await postgres.sql(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'weft-coordinator' AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND ((classid::bigint << 32) | objid::bigint) = $1::bigint)",
      [victim.coordinator.instance],
    );

    const response = await answer;
    const body = (await response.json()) as { status: string; error: { code: string } };
    expect(response.status).toBe(502);
    expect(body).toMatchObject({ status: 'cancelled', error: { code: 'WEFT_CHAT_NO_REPLY' } });
    await waitFor(
      'the task running again on the survivor',
      () => repliedElsewhere.length > 0,
      15_000,
    );
    expect(repliedElsewhere).toEqual(['from the survivor']);
  }, 60_000);

  it('answers 503 with a WEFT_COORDINATOR_* code while the instance has lost its database, and runs no task [claim:chat-readme-coordinator-503] [claim:httpchat-503-coordinator]', async () => {
    const schema = postgres.newSchema();
    let replies = 0;
    // A minute before it reconnects, so the request below meets the lost connection.
    const lost = await startInstance(
      schema,
      async () => {
        replies += 1;
        return 'should not run';
      },
      60_000,
    );
    await postgres.sql(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'weft-coordinator' AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND ((classid::bigint << 32) | objid::bigint) = $1::bigint)",
      [lost.coordinator.instance],
    );
    const deadline = Date.now() + 10_000;
    while ((await lost.coordinator.checkHealth()) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await lost.coordinator.checkHealth()).toBe(false);

    const response = await fetch(`${lost.runtime.server.url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ room: 'r2', user: 'ada', message: 'hello' }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await response.json()) as { error: { status: number; code: string } };
    expect(response.status).toBe(503);
    expect(body.error.status).toBe(503);
    expect(body.error.code).toMatch(/^WEFT_COORDINATOR_/);
    expect(replies).toBe(0);
  }, 60_000);
});
