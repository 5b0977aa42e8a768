/**
 * Every wait on the space coordinator has a deadline: a coordinator whose `admit`, `acquire` or
 * `release` never settles fails the dispatch (or lets the space go) in bounded time, and is used
 * again, without a restart, once it answers.
 */
import { describe, expect, it } from 'vitest';
import {
  WeftError,
  type Runtime,
  type RuntimeOptions,
  type SpaceCoordinator,
  type SpaceGrant,
  type TaskArrival,
} from '@weft/core';
import { ChatPlugin } from '@weft/plugin-chat';
import { capturingLogger } from '@weft-internal/test-support/capturing-logger';
import { optionsSchema } from '../../../packages/core/src/runtime/options-schema';
import { BoundedCoordinator } from '../../../packages/core/src/scheduler/bounded-coordinator';
import { resolveOptions as resolveCoordinator } from '../../../packages/coordinator-postgres/src/options';
import {
  FINISH_ATTEMPTS,
  FINISH_PAUSE_STEP_MS,
} from '../../../packages/coordinator-postgres/src/coordinator';
import {
  deferred,
  errorOf,
  makeRuntime,
  planner,
  recordingExecutor,
  TestPlugin,
  type Deferred,
  waitFor,
} from './fixtures.js';

/** A runtime whose every task runs the one step `tools.work`, and that step's record. */
async function runtimeWith(coordinator: SpaceCoordinator, options: RuntimeOptions) {
  const work = recordingExecutor('work');
  const built = await makeRuntime({
    plugins: [new TestPlugin('tools', { executors: [work] })],
    responses: planner(['tools', 'work']),
    coordinator,
    options,
  });
  await built.runtime.start();
  return { ...built, work };
}

const event = { pluginId: 'tools', triggerId: 't', space: 'room' };

/** A coordinator of one process whose calls hang while `hang` says so. */
class HangingCoordinator implements SpaceCoordinator {
  readonly id = 'stuck-store';
  readonly hang = { admit: false, acquire: false, release: false };
  readonly admitted: string[] = [];
  readonly released: string[] = [];
  /** The calls left hanging, to settle late. */
  readonly heldAdmits: Deferred<number>[] = [];
  readonly heldAcquires: Deferred<SpaceGrant>[] = [];
  private nextTicket = 1;
  private readonly tickets = new Map<string, number[]>();

  init = async (): Promise<void> => undefined;
  shutdown = async (): Promise<void> => undefined;

  admit = async (arrival: TaskArrival): Promise<number> => {
    const ticket = this.nextTicket++;
    this.admitted.push(arrival.taskId);
    if (this.hang.admit) {
      const held = deferred<number>();
      this.heldAdmits.push(held);
      return held.promise;
    }
    const space = arrival.space.id;
    this.tickets.set(space, [...(this.tickets.get(space) ?? []), ticket]);
    return ticket;
  };

  acquire = async (space: string): Promise<SpaceGrant> => {
    if (this.hang.acquire) {
      const held = deferred<SpaceGrant>();
      this.heldAcquires.push(held);
      return held.promise;
    }
    const ticket = this.tickets.get(space)?.[0];
    if (ticket === undefined) throw new Error(`no task of space ${space}`);
    return { ticket, signal: new AbortController().signal };
  };

  release = async (space: string, ticket: number, outcome: string): Promise<void> => {
    this.released.push(`${space}#${ticket} ${outcome}`);
    this.tickets.set(
      space,
      (this.tickets.get(space) ?? []).filter((held) => held !== ticket),
    );
    if (this.hang.release) await new Promise<never>(() => undefined);
  };
}

describe('a coordinator whose admit never settles', () => {
  it('fails dispatch with WEFT_COORDINATOR_TIMEOUT, 503, after coordinatorTimeoutMs, frees its place in the queue, and runs the next task once admit answers again [claim:cfg-coordinator-timeout] [claim:errors-coordinator-timeout] [claim:tsdoc-runtime-dispatch-coordinator-timeout] [claim:task-dispatch-coordinator-timeout] [claim:scaling-coordinator-deadlines] [claim:index-dispatch-coordinator-timeout] [claim:prod-outage-coordinator-hangs]', async () => {
    const coordinator = new HangingCoordinator();
    coordinator.hang.admit = true;
    const { runtime, work } = await runtimeWith(coordinator, {
      coordinatorTimeoutMs: 50,
      scheduler: { maxQueueSize: 1 },
    });
    const started = performance.now();
    const error = await errorOf(runtime.dispatch(event));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect([error.code, error.status]).toEqual(['WEFT_COORDINATOR_TIMEOUT', 503]);
    expect(error.message).toContain('coordinator "stuck-store"');
    expect(error.message).toContain('coordinatorTimeoutMs (50 ms)');
    expect(error.message).toContain('space "room"');

    // Still hung: refused for the deadline again, not for a queue the first one still holds.
    const again = await errorOf(runtime.dispatch(event));
    expect(again.code).toBe('WEFT_COORDINATOR_TIMEOUT');

    // The coordinator answers again: the same runtime uses it, no restart.
    coordinator.hang.admit = false;
    const task = await runtime.dispatch(event);
    expect(task.status).toBe('completed');
    expect(coordinator.admitted).toHaveLength(3);
    // Only the task admitted in time ran.
    expect(work.calls.map((call) => call.task.id)).toEqual([task.id]);
  });

  it('gives a ticket that admit hands out after its deadline back finished, so that task never runs [claim:errors-coordinator-timeout] [claim:tsdoc-space-coordinator-deadlines] [claim:obs-coordinator-late-admit]', async () => {
    const coordinator = new HangingCoordinator();
    coordinator.hang.admit = true;
    const { logger, lines } = capturingLogger();
    const { runtime, model, work } = await runtimeWith(coordinator, {
      coordinatorTimeoutMs: 50,
      logger,
    });
    const error = await errorOf(runtime.dispatch(event));
    expect(error.code).toBe('WEFT_COORDINATOR_TIMEOUT');
    coordinator.heldAdmits[0]?.resolve(41);
    await waitFor(() => coordinator.released.length === 1);
    expect(coordinator.released).toEqual(['room#41 finished']);
    expect(
      lines.some((line) => String(line.msg).includes('admitted a task after its deadline')),
    ).toBe(true);
    expect(model.requests).toHaveLength(0);
    expect(work.calls).toHaveLength(0);
  });
});

/**
 * Dispatches `event` and stops the runtime while `coordinator` holds the task's admission, which
 * then ends with ticket 5; returns the error the dispatch rejected with, once the stop has ended.
 */
async function stopDuringAdmit(
  runtime: Runtime,
  coordinator: HangingCoordinator,
): Promise<Awaited<ReturnType<typeof errorOf>>> {
  const refused = errorOf(runtime.dispatch(event));
  await waitFor(() => coordinator.heldAdmits.length === 1);
  const stopped = runtime.stop();
  await waitFor(() => runtime.status === 'stopping' || runtime.status === 'stopped');
  // The coordinator records the task after the stop closed the queue.
  coordinator.heldAdmits[0]?.resolve(5);
  const error = await refused;
  await stopped;
  return error;
}

describe('a stop that begins while the coordinator records a task', () => {
  it('refuses the task 503 WEFT_SHUTTING_DOWN and gives it back finished, so that no instance runs it [claim:task-dispatch-stop-during-admit]', async () => {
    const coordinator = new HangingCoordinator();
    coordinator.hang.admit = true;
    const { runtime, model, work } = await runtimeWith(coordinator, {});
    const error = await stopDuringAdmit(runtime, coordinator);
    expect([error.code, error.status]).toEqual(['WEFT_SHUTTING_DOWN', 503]);
    // Given back before the caller heard of it: a coordinator would otherwise keep it
    // unfinished, for another instance to run.
    expect(coordinator.released).toEqual(['room#5 finished']);
    expect(model.requests).toHaveLength(0);
    expect(work.calls).toHaveLength(0);
  });

  it('refuses it the same way when the stop comes while the runtime is still starting [claim:task-dispatch-stop-during-admit]', async () => {
    const coordinator = new HangingCoordinator();
    coordinator.hang.admit = true;
    const initHeld = deferred();
    const holder: { runtime?: Runtime; refused?: ReturnType<typeof errorOf> } = {};
    const work = recordingExecutor('work');
    // A plugin whose init dispatches a task, then waits: the start is still running when the
    // coordinator records the task and when stop() is called.
    const { runtime, model } = await makeRuntime({
      plugins: [
        new TestPlugin('tools', {
          executors: [work],
          init: async () => {
            holder.refused = errorOf((holder.runtime as Runtime).dispatch(event));
            await initHeld.promise;
          },
        }),
      ],
      responses: planner(['tools', 'work']),
      coordinator,
    });
    holder.runtime = runtime;
    const starting = runtime.start().catch((error: unknown) => error);
    await waitFor(() => coordinator.heldAdmits.length === 1);
    const stopped = runtime.stop();
    coordinator.heldAdmits[0]?.resolve(5);
    const error = await (holder.refused as ReturnType<typeof errorOf>);
    initHeld.resolve();
    await stopped;
    expect(WeftError.is(await starting, 'WEFT_RUNTIME_STOPPED')).toBe(true);
    expect([error.code, error.status]).toEqual(['WEFT_SHUTTING_DOWN', 503]);
    expect(coordinator.released).toEqual(['room#5 finished']);
    expect(model.requests).toHaveLength(0);
    expect(work.calls).toHaveLength(0);
  });

  it('refuses it all the same, logging a warning, when the coordinator fails to forget it or does not answer in time [claim:task-dispatch-stop-during-admit-release-fails]', async () => {
    for (const failure of ['throws', 'hangs'] as const) {
      const coordinator = new HangingCoordinator();
      coordinator.hang.admit = true;
      // A release that does not take: the coordinator still holds the task as unfinished.
      const tried: string[] = [];
      coordinator.release = async (space, ticket, outcome) => {
        tried.push(`${space}#${ticket} ${outcome}`);
        if (failure === 'hangs') await new Promise<never>(() => undefined);
        throw new Error('connection terminated');
      };
      const { logger, lines } = capturingLogger();
      const { runtime, model, work } = await runtimeWith(coordinator, {
        coordinatorTimeoutMs: 50,
        logger,
      });
      const error = await stopDuringAdmit(runtime, coordinator);
      expect([error.code, error.status]).toEqual(['WEFT_SHUTTING_DOWN', 503]);
      expect(tried).toEqual(['room#5 finished']);
      const expected =
        failure === 'throws'
          ? 'coordinator release failed'
          : 'coordinator release did not end within coordinatorTimeoutMs; going on without it';
      expect(lines).toContainEqual(
        expect.objectContaining({ msg: expected, space: 'room', ticket: 5, outcome: 'finished' }),
      );
      expect(model.requests).toHaveLength(0);
      expect(work.calls).toHaveLength(0);
    }
  });
});

describe('an HTTP trigger in front of a coordinator that hangs', () => {
  it('answers the chat request 503 WEFT_COORDINATOR_TIMEOUT, without the message, once coordinatorTimeoutMs has passed [claim:errors-coordinator-timeout] [claim:cfg-coordinator-timeout] [claim:errors-503-sources]', async () => {
    const coordinator = new HangingCoordinator();
    coordinator.hang.admit = true;
    const { runtime } = await makeRuntime({
      plugins: [new ChatPlugin({ trustClientUser: true })],
      coordinator,
      options: { coordinatorTimeoutMs: 50, server: { port: 0 } },
    });
    await runtime.start();
    const response = await fetch(`${runtime.server.url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ room: 'r1', user: 'ada', message: 'hello' }),
      signal: AbortSignal.timeout(5_000),
    });
    expect(response.status).toBe(503);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('WEFT_COORDINATOR_TIMEOUT');
    expect(body.error.message).not.toContain('stuck-store');
  });

  it("answers a chat request whose space the coordinator does not grant within coordinatorAcquireTimeoutMs with the generic 503 message, unlike coordinator-postgres's own acquire timeout, and logs the full error [claim:obs-request-failed-generic]", async () => {
    const coordinator = new HangingCoordinator();
    coordinator.hang.acquire = true;
    const { logger, lines } = capturingLogger();
    const { runtime } = await makeRuntime({
      plugins: [new ChatPlugin({ trustClientUser: true })],
      coordinator,
      options: { logger, coordinatorAcquireTimeoutMs: 50, server: { port: 0 } },
    });
    await runtime.start();
    const response = await fetch(`${runtime.server.url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ room: 'r1', user: 'ada', message: 'hello' }),
      signal: AbortSignal.timeout(5_000),
    });
    expect(response.status).toBe(503);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error).toMatchObject({
      code: 'WEFT_COORDINATOR_TIMEOUT',
      message: 'Service Unavailable; the server log has the details under this requestId',
    });
    const failed = lines.find((line) => line.msg === 'request failed');
    expect(failed).toMatchObject({ status: 503, code: 'WEFT_COORDINATOR_TIMEOUT' });
    expect(String(failed?.error)).toContain('coordinatorAcquireTimeoutMs (50 ms)');
    coordinator.hang.acquire = false;
    coordinator.heldAcquires[0]?.resolve({ ticket: 1, signal: new AbortController().signal });
  });
});

describe('a coordinator whose acquire never settles', () => {
  it('fails the waiting dispatch with WEFT_COORDINATOR_TIMEOUT after coordinatorAcquireTimeoutMs, gives a late grant back, and runs the next task once acquire answers [claim:cfg-coordinator-acquire-timeout] [claim:index-dispatch-coordinator-timeout] [claim:tsdoc-space-coordinator-deadlines] [claim:errors-coordinator-timeout] [claim:tsdoc-runtime-dispatch-coordinator-timeout] [claim:scaling-coordinator-deadlines] [claim:task-coordinator-acquire-timeout] [claim:errors-503-sources]', async () => {
    const coordinator = new HangingCoordinator();
    coordinator.hang.acquire = true;
    const { runtime, model, work } = await runtimeWith(coordinator, {
      coordinatorAcquireTimeoutMs: 50,
    });
    const error = await errorOf(runtime.dispatch(event));
    expect([error.code, error.status]).toEqual(['WEFT_COORDINATOR_TIMEOUT', 503]);
    expect(error.message).toContain('coordinator "stuck-store"');
    expect(error.message).toContain('coordinatorAcquireTimeoutMs (50 ms)');
    expect(model.requests).toHaveLength(0);
    expect(work.calls).toHaveLength(0);
    // The caller has the error: its ticket is given back finished, for no instance to run.
    await waitFor(() => coordinator.released.includes('room#1 finished'));

    // The hung acquire grants after all: the space is let go again.
    coordinator.heldAcquires[0]?.resolve({ ticket: 1, signal: new AbortController().signal });
    await waitFor(() => coordinator.released.includes('room#1 abandoned'));

    coordinator.hang.acquire = false;
    const task = await runtime.dispatch(event);
    expect(task.status).toBe('completed');
    expect(work.calls.map((call) => call.task.id)).toEqual([task.id]);
  });
});

describe('a coordinator that refuses a space', () => {
  it('rejects the waiting dispatch with its error, and runs nothing of the task [claim:task-coordinator-acquire-timeout]', async () => {
    const coordinator = new HangingCoordinator();
    const refusal = new Error('the space is held elsewhere');
    coordinator.acquire = async () => {
      throw refusal;
    };
    const { runtime, model, work } = await runtimeWith(coordinator, {});
    expect(await errorOf(runtime.dispatch(event))).toBe(refusal);
    expect(model.requests).toHaveLength(0);
    expect(work.calls).toHaveLength(0);
    await waitFor(() => coordinator.released.includes('room#1 finished'));
  });
});

describe('a hung acquire when the runtime stops', () => {
  it('ends the wait at the abort, though the coordinator ignores its signal, and gives a later grant back', async () => {
    const coordinator = new HangingCoordinator();
    coordinator.hang.acquire = true;
    const { logger } = capturingLogger();
    const bounded = new BoundedCoordinator(coordinator, { callMs: 50, acquireMs: 60_000 }, logger);
    const controller = new AbortController();
    const waiting = errorOf(bounded.acquire('room', controller.signal));
    const reason = new Error('stopped');
    controller.abort(reason);
    // Not 60 s later: no deadline timer outlives the stop.
    expect(await waiting).toBe(reason);
    coordinator.heldAcquires[0]?.resolve({ ticket: 3, signal: new AbortController().signal });
    await waitFor(() => coordinator.released.length === 1);
    expect(coordinator.released).toEqual(['room#3 abandoned']);
  });
});

describe('a coordinator whose release never settles', () => {
  it("asks for the space's next task after coordinatorTimeoutMs, and logs the release that did not end [claim:cfg-coordinator-timeout] [claim:scaling-coordinator-deadlines]", async () => {
    const coordinator = new HangingCoordinator();
    coordinator.hang.release = true;
    const { logger, lines } = capturingLogger();
    const { runtime, work } = await runtimeWith(coordinator, { coordinatorTimeoutMs: 50, logger });
    const first = await runtime.dispatch(event);
    expect(first.status).toBe('completed');
    // Without the deadline the space stays held by the first task's release, forever.
    const second = await runtime.dispatch(event);
    expect(second.status).toBe('completed');
    expect(work.calls).toHaveLength(2);
    expect(coordinator.released).toEqual(['room#1 finished', 'room#2 finished']);
    expect(
      lines.find((line) =>
        String(line.msg).includes('release did not end within coordinatorTimeoutMs'),
      ),
    ).toMatchObject({ space: 'room', ticket: 1, outcome: 'finished', timeoutMs: 50 });
  });
});

describe('the deadlines beside @weft/coordinator-postgres', () => {
  it('come after the longest its admit and acquire take with its defaults, so its own errors answer first [claim:scaling-coordinator-deadlines-after-own] [claim:cfg-coordinator-timeout-after-own] [claim:cfg-coordinator-acquire-timeout-after-own] [claim:task-coordinator-acquire-timeout] [claim:task-dispatch-coordinator-timeout] [claim:scaling-coordinator-deadline-values] [claim:coord-readme-runtime-deadline-values] [claim:index-dispatch-coordinator-timeout]', () => {
    const core = optionsSchema.parse({});
    const postgres = resolveCoordinator({
      connectionString: 'postgres://weft@localhost:5432/weft',
    });
    // A statement waits for a pool connection (connectTimeoutMs), then for its answer: the
    // server's statement_timeout, and the client's own deadline a second later.
    const longestStatement = postgres.connectTimeoutMs + postgres.statementTimeoutMs + 1_000;
    expect(longestStatement).toBe(11_000);
    expect(core.coordinatorTimeoutMs).toBeGreaterThan(longestStatement);
    // acquire checks its deadline before each look at the space, and a look may still run a
    // few statements after it (the space's oldest task, its lock, marking the task running, a
    // release when that fails): the margin holds ten of them.
    expect(core.coordinatorAcquireTimeoutMs - postgres.acquireTimeoutMs).toBeGreaterThan(
      10 * longestStatement,
    );
    expect([core.coordinatorTimeoutMs, core.coordinatorAcquireTimeoutMs]).toEqual([
      15_000, 900_000,
    ]);
    // The pages name the coordinator's own acquireTimeoutMs: 10 minutes.
    expect(postgres.acquireTimeoutMs).toBe(600_000);
  });

  it('come before the longest its release of a finished task takes with its defaults: three tries, each up to statementTimeoutMs, reach coordinatorTimeoutMs, and 40 s covers them with their waits for a connection and the unlock [claim:scaling-release-outlasts-deadline] [claim:coord-readme-release-outlasts-deadline] [claim:scaling-release-deadline-40s] [claim:coord-readme-release-deadline-40s]', () => {
    const core = optionsSchema.parse({});
    const postgres = resolveCoordinator({
      connectionString: 'postgres://weft@localhost:5432/weft',
    });
    // The pages say three tries; the package's test "tries three times to record a finished
    // task" counts the deletes it sends.
    expect(FINISH_ATTEMPTS).toBe(3);
    expect(FINISH_ATTEMPTS * postgres.statementTimeoutMs).toBeGreaterThanOrEqual(
      core.coordinatorTimeoutMs,
    );
    const longestStatement = postgres.connectTimeoutMs + postgres.statementTimeoutMs + 1_000;
    // The deletes, the pause after each failed one (0.1 s, 0.2 s, then 0.3 s before it gives
    // up) and the unlock on the lock connection (no wait for a connection there) stay under 40 s.
    let pauses = 0;
    for (let attempt = 1; attempt <= FINISH_ATTEMPTS; attempt += 1) {
      pauses += FINISH_PAUSE_STEP_MS * attempt;
    }
    expect(pauses).toBe(600);
    const unlock = postgres.statementTimeoutMs + 1_000;
    expect(FINISH_ATTEMPTS * longestStatement + pauses + unlock).toBeLessThan(40_000);
  });
});
