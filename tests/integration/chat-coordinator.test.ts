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
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  SERVER_START_TIMEOUT_MS,
  usePostgresPerFile,
} from '@weft-internal/test-support/postgres-per-file';

const postgres = usePostgresPerFile('c_', { beforeAll, afterAll });
const runtimes: Runtime[] = [];

// Each test's instances stop before the next test starts (and before the server): the instance
// keys of every schema are drawn from 1, and advisory locks are the database's, so an instance
// left running would hold the key a later test's instance draws.
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.stop()));
}, SERVER_START_TIMEOUT_MS);

/**
 * One chat instance; `reply` writes the reply text from the reply prompt, or hangs until the
 * task's signal ends. The model plans `replySteps` `chat/reply` steps for each message.
 */
async function startInstance(
  schema: string,
  reply: (signal: AbortSignal | undefined, prompt: string) => Promise<string>,
  reconnectDelayMs = 500,
  statementTimeoutMs?: number,
  acquireTimeoutMs?: number,
  replySteps = 1,
  memory: InMemoryMemoryProvider = new InMemoryMemoryProvider(),
): Promise<{ runtime: Runtime; coordinator: PostgresSpaceCoordinator }> {
  const coordinator = new PostgresSpaceCoordinator({
    connectionString: postgres.url(),
    schema,
    sweepIntervalMs: 200,
    reconnectDelayMs,
    reconnectMaxDelayMs: Math.max(reconnectDelayMs, 30_000),
    ...(statementTimeoutMs === undefined ? {} : { statementTimeoutMs }),
    ...(acquireTimeoutMs === undefined ? {} : { acquireTimeoutMs }),
    logger: pino({ level: 'silent' }),
  });
  const model = new ScriptedModelProvider({
    fallback: (_messages, request) =>
      request.purpose === 'plan'
        ? {
            steps: Array.from({ length: replySteps }, () => ({
              pluginId: 'chat',
              action: 'reply',
            })),
          }
        : reply(request.signal, _messages.at(-1)?.content ?? ''),
  });
  const runtime = await Runtime.init({
    models: [model],
    memory,
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

/** Ends the connection that holds an instance's locks, as a network failure would. */
const KILL_LOCK_CONNECTION =
  "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'weft-coordinator' AND pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND ((classid::bigint << 32) | objid::bigint) = $1::bigint)";

async function waitFor(what: string, check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A reply that never comes: it rejects with the reason when the task's signal ends, and after
 * 20 s of its own, so a broken abort cannot hang the test.
 */
function untilAborted(signal: AbortSignal | undefined): Promise<string> {
  return new Promise<string>((_resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('never aborted')), 20_000);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/** Posts `message` from the user ada in `room` to an instance's chat route. */
function postChat(
  runtime: Runtime,
  room: string,
  message: string,
  timeoutMs: number,
): Promise<Response> {
  return fetch(`${runtime.server.url}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ room, user: 'ada', message }),
    signal: AbortSignal.timeout(timeoutMs),
  });
}

describe('the chat route with a PostgreSQL coordinator', () => {
  it('answers 502 cancelled for a message whose task was running when the database connection dropped, and the task runs again elsewhere [claim:httpchat-coordinator-running-cancelled] [claim:chatreadme-coordinator-running-cancelled] [claim:httpchat-coordinator-twice] [claim:chat-readme-coordinator-twice]', async () => {
    const schema = postgres.newSchema();
    let hanging = 0;
    const victim = await startInstance(schema, (signal) => {
      hanging += 1;
      return untilAborted(signal);
    });
    const repliedElsewhere: string[] = [];
    await startInstance(schema, async () => {
      repliedElsewhere.push('from the survivor');
      return 'from the survivor';
    });

    const answer = postChat(victim.runtime, 'r1', 'hello', 30_000);
    await waitFor('the reply step starting', () => hanging === 1, 10_000);
    await postgres.sql(KILL_LOCK_CONNECTION, [victim.coordinator.instance]);

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

  it('answers 200 cancelled with the reply when the reply step had succeeded before the connection dropped, and the task runs again elsewhere [claim:httpchat-coordinator-running-cancelled] [claim:chatreadme-coordinator-running-cancelled]', async () => {
    const schema = postgres.newSchema();
    let replySteps = 0;
    // The plan has two reply steps: the first answers, the second hangs until the drop.
    const victim = await startInstance(
      schema,
      async (signal) => {
        replySteps += 1;
        return replySteps === 1 ? 'the first reply' : untilAborted(signal);
      },
      500,
      undefined,
      undefined,
      2,
    );
    const repliedElsewhere: string[] = [];
    await startInstance(schema, async () => {
      repliedElsewhere.push('from the survivor');
      return 'from the survivor';
    });

    const answer = postChat(victim.runtime, 'r6', 'hello', 30_000);
    await waitFor('the second reply step starting', () => replySteps === 2, 10_000);
    await postgres.sql(KILL_LOCK_CONNECTION, [victim.coordinator.instance]);

    const response = await answer;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'cancelled',
      reply: 'the first reply',
    });
    await waitFor(
      'the task running again on the survivor',
      () => repliedElsewhere.length > 0,
      15_000,
    );
  }, 60_000);

  it('answers 200 completed for a message whose task was storing its chain when the connection dropped, and does not run it again once reconnected [claim:httpchat-coordinator-finished-during-loss] [claim:chatreadme-coordinator-finished-during-loss]', async () => {
    const schema = postgres.newSchema();
    let storing = false;
    let store!: () => void;
    const stored = new Promise<void>((resolve) => (store = resolve));
    /** Holds the chain memory until the test has dropped the connection. */
    class HeldChains extends InMemoryMemoryProvider {
      override async store(memory: Parameters<InMemoryMemoryProvider['store']>[0]) {
        if (memory.kind === 'chain') {
          storing = true;
          await stored;
        }
        return super.store(memory);
      }
    }
    let replies = 0;
    const victim = await startInstance(
      schema,
      async () => {
        replies += 1;
        return 'the reply';
      },
      100,
      undefined,
      undefined,
      1,
      new HeldChains(),
    );
    const before = victim.coordinator.instance;
    const answer = postChat(victim.runtime, 'r7', 'hello', 30_000);
    await waitFor('the chain store starting', () => storing, 10_000);
    await postgres.sql(KILL_LOCK_CONNECTION, [before]);
    const lostBy = Date.now() + 5_000;
    while ((await victim.coordinator.checkHealth()) && Date.now() < lostBy) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    store();
    const response = await answer;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'completed', reply: 'the reply' });
    await waitFor(
      'the instance reconnecting',
      () => victim.coordinator.instance !== before,
      15_000,
    );
    // Several sweeps of the reconnected instance: none takes the task over.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(replies).toBe(1);
    expect(await postgres.sql(`SELECT ticket FROM "${schema}".tasks`)).toEqual([]);
  }, 60_000);

  it('answers 503 with a WEFT_COORDINATOR_* code while the instance has lost its database, and Retry-After: 5, and runs no task [claim:chat-readme-coordinator-503] [claim:httpchat-503-coordinator] [claim:coord-readme-retry-after] [claim:errors-503-retry-after]', async () => {
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
    await postgres.sql(KILL_LOCK_CONNECTION, [lost.coordinator.instance]);
    const deadline = Date.now() + 10_000;
    while ((await lost.coordinator.checkHealth()) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await lost.coordinator.checkHealth()).toBe(false);

    const response = await postChat(lost.runtime, 'r2', 'hello', 10_000);
    const body = (await response.json()) as { error: { status: number; code: string } };
    expect(response.status).toBe(503);
    expect(body.error.status).toBe(503);
    expect(body.error.code).toMatch(/^WEFT_COORDINATOR_/);
    // The runtime's server tells the client when to send it again.
    expect(response.headers.get('retry-after')).toBe('5');
    expect(replies).toBe(0);
  }, 60_000);

  it('answers 503 WEFT_COORDINATOR_CONNECTION_LOST to a message still queued when the connection dropped, and its task runs elsewhere all the same [claim:httpchat-coordinator-queued-503] [claim:chat-readme-coordinator-queued-503] [claim:httpchat-coordinator-twice] [claim:chat-readme-coordinator-twice]', async () => {
    const schema = postgres.newSchema();
    let hanging = 0;
    // A minute before it reconnects, so the queued message's turn comes while it is lost.
    const victim = await startInstance(
      schema,
      (signal) => {
        hanging += 1;
        return untilAborted(signal);
      },
      60_000,
    );
    const repliedElsewhere: string[] = [];
    await startInstance(schema, async (_signal, prompt) => {
      // The reply prompt also holds the conversation so far: read the message it answers.
      const own = /## The message\n([\s\S]*?)\n\n## /.exec(prompt)?.[1] ?? prompt;
      const message = /first message|second message/.exec(own)?.[0] ?? prompt;
      repliedElsewhere.push(message);
      return `answered: ${message}`;
    });
    const post = (message: string) => postChat(victim.runtime, 'r3', message, 30_000);

    const first = post('first message');
    await waitFor('the first reply step starting', () => hanging === 1, 10_000);
    // Same room and user: the second waits in the victim's queue behind the first.
    const second = post('second message');
    const recorded = async () =>
      (await postgres.sql<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}".tasks`))[0]
        ?.n ?? 0;
    const deadline = Date.now() + 10_000;
    while ((await recorded()) < 2) {
      if (Date.now() > deadline) throw new Error('the second message was not recorded in 10 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await postgres.sql(KILL_LOCK_CONNECTION, [victim.coordinator.instance]);

    const running = await first;
    expect(running.status).toBe(502);
    expect(await running.json()).toMatchObject({
      status: 'cancelled',
      error: { code: 'WEFT_CHAT_NO_REPLY' },
    });
    const queued = await second;
    expect(queued.status).toBe(503);
    expect(queued.headers.get('retry-after')).toBe('5');
    expect(await queued.json()).toMatchObject({
      error: { status: 503, code: 'WEFT_COORDINATOR_CONNECTION_LOST' },
    });
    // Both were accepted before the drop, so both run again from their records.
    await waitFor(
      'both messages running on the survivor',
      () => repliedElsewhere.length >= 2,
      15_000,
    );
    expect(repliedElsewhere.sort()).toEqual(['first message', 'second message']);
    expect(hanging).toBe(1);
  }, 60_000);

  it('answers 503 WEFT_COORDINATOR_ADMIT_FAILED to a message whose record came back too late, and runs its task all the same [claim:httpchat-coordinator-admit-failed-twice] [claim:chat-readme-admit-failed-twice]', async () => {
    const schema = postgres.newSchema();
    const replied: string[] = [];
    const { runtime } = await startInstance(
      schema,
      async (_signal, prompt) => {
        replied.push(/late message/.exec(prompt)?.[0] ?? prompt);
        return 'answered';
      },
      500,
      // Long enough for the coordinator's own start on a loaded machine (200 ms failed its init
      // in CI), short enough that the deadline below is well before the slow commit ends.
      1_000,
    );
    // A trigger deferred to the commit holds it for 4 s, past the coordinator's deadline for the
    // insert (statementTimeoutMs + 1 s = 2 s): the row is written after the instance gave up on it.
    await postgres.sql(`CREATE FUNCTION "${schema}".slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_sleep(4); RETURN NULL; END $$`);
    await postgres.sql(`CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON "${schema}".tasks
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "${schema}".slow_commit()`);

    const answer = await postChat(runtime, 'r4', 'late message', 30_000);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(await answer.json()).toMatchObject({
      error: { status: 503, code: 'WEFT_COORDINATOR_ADMIT_FAILED' },
    });
    // The client was told to send it again, yet the record was written: the task runs anyway.
    await waitFor('the recorded task running', () => replied.includes('late message'), 15_000);
  }, 60_000);

  it('answers 503 WEFT_COORDINATOR_ACQUIRE_TIMEOUT to a message whose space another instance held past acquireTimeoutMs, and never runs its task [claim:chat-readme-acquire-timeout] [claim:httpchat-acquire-timeout]', async () => {
    const schema = postgres.newSchema();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let holding = 0;
    const holder = await startInstance(schema, async () => {
      holding += 1;
      await gate;
      return 'first';
    });
    const waited: string[] = [];
    const second = await startInstance(
      schema,
      async (_signal, prompt) => {
        waited.push(prompt);
        return 'second';
      },
      500,
      undefined,
      1_000,
    );

    // ada's task in room r5 runs on the first instance and holds the space.
    const first = postChat(holder.runtime, 'r5', 'first message', 30_000);
    await waitFor('the first reply step starting', () => holding === 1, 10_000);
    const started = Date.now();
    const answer = await postChat(second.runtime, 'r5', 'second message', 30_000);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('5');
    expect(await answer.json()).toMatchObject({
      error: { status: 503, code: 'WEFT_COORDINATOR_ACQUIRE_TIMEOUT' },
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    release();
    expect((await first).status).toBe(200);
    // The refused message's record was removed: no instance runs it once the space is free.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(waited).toEqual([]);
    expect(holding).toBe(1);
  }, 60_000);
});
