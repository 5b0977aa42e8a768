import {
  Runtime,
  WeftError,
  type RuntimeOptions,
  type SpaceCoordinator,
  type Trigger,
  type TriggerEvent,
  type TriggerRoute,
} from '@weft/core';
import { createServer } from 'node:net';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  deferred,
  echoPlugin,
  errorOf,
  LoggingMemoryProvider,
  makeRuntime,
  pingRoute,
  planner,
  startedRuntime,
  recordingExecutor,
  silentLogger,
  stopAfterTest,
  TestModelProvider,
  TestPlugin,
  textWithUsage,
  waitFor,
} from './fixtures.js';
import { InMemoryMemoryProvider } from '@weft/testing';
import { capturingLogger } from '@weft-internal/test-support/capturing-logger';

/** A route trigger, POST /ask, that runs a task of plugin `echo` and answers with its status. */
function askRoute(): TriggerRoute {
  return {
    type: 'route',
    id: 'ask',
    method: 'POST',
    path: '/ask',
    handler: async (_request, response, runtime) => {
      const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'ask', space: 'asker' });
      response.json({ status: task.status });
    },
  };
}

/** A runtime whose components log their lifecycle into `events`. */
async function loggingRuntime(
  events: string[],
  parts: {
    plugins?: TestPlugin[];
    models?: TestModelProvider[];
    memoryHooks?: ConstructorParameters<typeof LoggingMemoryProvider>[1];
    options?: RuntimeOptions;
    coordinator?: SpaceCoordinator;
  } = {},
): Promise<Runtime> {
  const runtime = await Runtime.init({
    ...(parts.coordinator ? { coordinator: parts.coordinator } : {}),
    memory: new LoggingMemoryProvider(events, parts.memoryHooks),
    models: parts.models ?? [
      new TestModelProvider('model-a', { capabilities: [textWithUsage('{"steps":[]}')], events }),
      new TestModelProvider('model-b', { capabilities: [textWithUsage('{"steps":[]}')], events }),
    ],
    plugins: parts.plugins ?? [
      new TestPlugin('first', { events }),
      new TestPlugin('second', { events }),
    ],
    options: { logger: silentLogger, ...parts.options },
  });
  return stopAfterTest(runtime);
}

/**
 * A wait that holds until `release` is resolved: `hold` is an `init` or a start that hangs, and
 * `entered` resolves when it begins.
 */
function heldWait() {
  const entered = deferred();
  const release = deferred();
  const hold = async (): Promise<void> => {
    entered.resolve();
    await release.promise;
  };
  return { entered, release, hold };
}

/**
 * A start trigger that waits until `release` is resolved, whatever its signal says; `entered`
 * resolves when it begins, and `signal()` is the signal it was given.
 */
function heldStartTrigger(id: string) {
  const { entered, release, hold } = heldWait();
  let given: AbortSignal | undefined;
  const trigger: Trigger = {
    type: 'start',
    id,
    start: async (_runtime, signal) => {
      given = signal;
      await hold();
    },
  };
  return { trigger, entered, release, signal: () => given };
}

describe('Runtime start', () => {
  it('initialises memory, then models, then plugins, and becomes running [claim:plugin-init-order] [claim:gs-what-happened-init] [claim:mpm-start-first] [claim:mpi-start-order] [claim:mpo-lifecycle] [claim:wp-start-order] [claim:wp-providers-before-plugins] [claim:wp-init-starts-nothing]', async () => {
    const events: string[] = [];
    const runtime = await loggingRuntime(events);
    // Runtime.init only checks and builds: no provider or plugin has been initialised yet.
    expect(events).toEqual([]);
    expect(runtime.status).toBe('ready');
    await runtime.start();
    expect(events).toEqual([
      'init memory',
      'init model model-a',
      'init model model-b',
      'init plugin first',
      'init plugin second',
    ]);
    expect(runtime.status).toBe('running');
  });

  it('starts a space coordinator after the model providers and before the plugins, and stops it in reverse [claim:wp-start-order]', async () => {
    const events: string[] = [];
    const coordinator: SpaceCoordinator = {
      id: 'logging-coordinator',
      init: async () => {
        events.push('init coordinator');
      },
      shutdown: async () => {
        events.push('shutdown coordinator');
      },
      admit: async () => 1,
      acquire: async () => ({ ticket: 1, signal: new AbortController().signal }),
      release: async () => undefined,
    };
    const runtime = await loggingRuntime(events, { coordinator });
    await runtime.start();
    expect(events).toEqual([
      'init memory',
      'init model model-a',
      'init model model-b',
      'init coordinator',
      'init plugin first',
      'init plugin second',
    ]);
    events.length = 0;
    await runtime.stop();
    expect(events).toEqual([
      'shutdown plugin second',
      'shutdown plugin first',
      'shutdown coordinator',
      'shutdown model model-b',
      'shutdown model model-a',
      'shutdown memory',
    ]);
  });

  it('returns the same promise when started twice [claim:tsdoc-runtime-start-same-promise]', async () => {
    const { runtime } = await makeRuntime();
    const first = runtime.start();
    expect(runtime.start()).toBe(first);
    await first;
  });

  it('starts no HTTP server when no plugin has a route [claim:httpchat-server] [claim:trig-server-only-with-routes] [claim:gs-server-only-route] [claim:prod-server-only-routes] [claim:wp-start-order] [claim:plugin-triggers-run]', async () => {
    const { runtime } = await makeRuntime({ options: { server: { port: 0 } } });
    await runtime.start();
    expect(runtime.server.url).toBeUndefined();
  });

  it('mounts route triggers and serves them on the configured port [claim:httpchat-server] [claim:trig-server-only-with-routes] [claim:trig-json-parsed] [claim:gs-what-happened-init]', async () => {
    const route: TriggerRoute = {
      type: 'route',
      id: 'ask',
      method: 'POST',
      path: '/ask',
      handler: async (request, response, runtime) => {
        const task = await runtime.dispatch({
          pluginId: 'echo',
          triggerId: 'ask',
          space: 'http-space',
          message: (request.body as { text: string }).text,
        });
        response.json({ status: task.status, chain: task.chain.map((item) => item.type) });
      },
    };
    const { runtime } = await makeRuntime({
      plugins: [echoPlugin({ triggers: [route] })],
      responses: planner(['echo', 'reply']),
      options: { server: { port: 0 } },
    });
    await runtime.start();
    expect(runtime.server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${runtime.server.url}/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'hello' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'completed', chain: ['trigger', 'result'] });
  });

  it('runs start triggers after every plugin has initialised and the HTTP server listens [claim:trig-start-order] [claim:wp-start-order] [claim:plugin-triggers-run] [claim:plugin-init-order]', async () => {
    const events: string[] = [];
    const first = new TestPlugin('first', {
      events,
      triggers: [
        pingRoute(),
        {
          type: 'start',
          id: 'probe',
          start: async (runtime) => {
            // The server answers already: a start trigger may call its own routes.
            const response = await fetch(`${runtime.server.url}/ping`, {
              signal: AbortSignal.timeout(5_000),
            });
            events.push(`start trigger (ping ${response.status})`);
          },
        },
      ],
    });
    const { runtime } = await makeRuntime({
      // The trigger's plugin comes first, so its start trigger waits for the plugins after it.
      plugins: [first, new TestPlugin('second', { events })],
      options: { server: { port: 0 } },
    });
    await runtime.start();
    expect(events).toEqual(['init plugin first', 'init plugin second', 'start trigger (ping 200)']);
  });

  it('makes a stop() called while a start trigger has not returned abort its signal and wait for it until it returns, logging the rollback with WEFT_RUNTIME_STOPPED [claim:task-stop-during-start] [claim:trig-start-blocks-stop] [claim:obs-rollback-on-stop]', async () => {
    const { trigger, entered, release, signal } = heldStartTrigger('slow-setup');
    const plugin = echoPlugin({ triggers: [trigger] });
    const { logger, lines } = capturingLogger();
    const { runtime } = await makeRuntime({ plugins: [plugin], options: { logger } });
    const started = errorOf(runtime.start());
    await entered.promise;
    let stopped = false;
    const stopping = runtime.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(signal()?.aborted).toBe(true);
    expect(stopped).toBe(false);
    release.resolve();
    await stopping;
    expect(runtime.status).toBe('stopped');
    expect((await started).code).toBe('WEFT_RUNTIME_STOPPED');
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 50,
        msg: 'runtime failed to start; rolling back',
        code: 'WEFT_RUNTIME_STOPPED',
      }),
    );
    expect(lines.filter((line) => line.msg === 'runtime stopped')).toHaveLength(1);
  });

  it('rejects with WEFT_RUNTIME_STOPPED, logged as such, when a start trigger that honours its signal fails because stop() aborted it, with the failure as its cause [claim:errors-runtime-stopped-during-start] [claim:tsdoc-runtime-start-stopped] [claim:obs-rollback-on-stop]', async () => {
    const entered = deferred();
    const plugin = echoPlugin({
      triggers: [
        {
          type: 'start',
          id: 'connect',
          // Gives up as soon as its signal aborts, as a well-behaved start trigger does.
          start: (_runtime, signal) =>
            new Promise<void>((_resolve, reject) => {
              entered.resolve();
              signal.addEventListener('abort', () => reject(new Error('connect aborted')));
            }),
        },
      ],
    });
    const { logger, lines } = capturingLogger();
    const { runtime } = await makeRuntime({ plugins: [plugin], options: { logger } });
    const started = errorOf(runtime.start());
    await entered.promise;
    await runtime.stop();
    const error = await started;
    expect(error.code).toBe('WEFT_RUNTIME_STOPPED');
    expect(error.message).toContain('stop() was called while the runtime was starting');
    expect(error.message).toContain('connect aborted');
    expect(WeftError.is(error.cause, 'WEFT_START_FAILED')).toBe(true);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 50,
        msg: 'runtime failed to start; rolling back',
        code: 'WEFT_RUNTIME_STOPPED',
      }),
    );
    expect(runtime.status).toBe('stopped');
  });

  it('refuses a dispatch with WEFT_SHUTTING_DOWN once stop() was called during a start it still waits for, rather than accepting a task it would cancel [claim:errors-shutting-down-during-start] [claim:tsdoc-runtime-dispatch-503]', async () => {
    const { entered, release, hold } = heldWait();
    const plugin = echoPlugin({
      init: hold,
    });
    const { runtime } = await makeRuntime({ plugins: [plugin] });
    const started = errorOf(runtime.start());
    await entered.promise;
    const stopping = runtime.stop();
    // The start has not rolled back yet: the runtime still says it is starting.
    expect(runtime.status).toBe('starting');
    const refused = await errorOf(
      runtime.dispatch({ pluginId: 'echo', triggerId: 'manual', space: 'late' }),
    );
    expect(refused).toMatchObject({ code: 'WEFT_SHUTTING_DOWN', status: 503 });
    expect(runtime.scheduler.pending).toBe(0);
    release.resolve();
    expect((await started).code).toBe('WEFT_RUNTIME_STOPPED');
    await stopping;
  });

  it('stops what has started 2 s after a stop() that a hung start trigger holds, and the rest when it returns [claim:task-stop-hung-start] [claim:trig-start-blocks-stop] [claim:obs-start-held-at-stop] [claim:obs-rollback-on-stop] [claim:tsdoc-runtime-stop-bounded] [claim:errors-runtime-stopped-held-start]', async () => {
    // Its start ignores the signal, as a hung setup does.
    const { trigger, entered, release } = heldStartTrigger('never-returns');
    const events: string[] = [];
    const plugin = new TestPlugin('hung-start', { events, triggers: [trigger] });
    const { logger, lines } = capturingLogger();
    const { runtime } = await makeRuntime({ plugins: [plugin], options: { logger } });
    const started = errorOf(runtime.start());
    await entered.promise;
    const stopAsked = Date.now();
    const before = performance.now();
    await runtime.stop();
    const tookMs = performance.now() - before;
    expect(tookMs).toBeGreaterThanOrEqual(1_900);
    expect(tookMs).toBeLessThan(8_000);
    expect(runtime.status).toBe('stopped');
    expect(events).toContain('shutdown plugin hung-start');
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 50,
        graceMs: 2_000,
        msg: 'start did not end after stop; stopping what has started',
      }),
    );
    // The hung start is given 2 s, no more, before what has started is shut down.
    const gaveUp = lines.find(
      (line) => line.msg === 'start did not end after stop; stopping what has started',
    );
    expect(Number(gaveUp?.time) - stopAsked).toBeLessThan(2_500);
    const rollback = (line: Record<string, unknown>) =>
      line.msg === 'runtime failed to start; rolling back';
    expect(lines.filter(rollback)).toEqual([]);
    // start() rejects as the stop ends, while the trigger still hangs, with nothing as its cause.
    const abandoned = await started;
    expect(abandoned.code).toBe('WEFT_RUNTIME_STOPPED');
    expect(abandoned.cause).toBeUndefined();
    expect(performance.now() - before).toBeLessThan(tookMs + 500);
    // The start it held gives up when the trigger returns, and says what happened: the trigger
    // ended after the stop, which had rolled the start back already.
    release.resolve();
    const late = (line: Record<string, unknown>) =>
      line.msg ===
      'a part finished after stop() gave up on the start; shutting down what it started';
    await waitFor(() => lines.some(late));
    expect(lines.find(late)).toMatchObject({
      level: 40,
      component: 'start trigger "never-returns" of plugin "hung-start": start()',
    });
    expect(runtime.status).toBe('stopped');
    expect(lines.filter(rollback)).toEqual([]);
    expect(lines.filter((line) => line.msg === 'runtime stopped')).toHaveLength(1);
  });

  it('shuts a plugin whose init returns after stop() stopped waiting down when it returns, after the providers and after stop() resolved [claim:plugin-shutdown-late-init]', async () => {
    const { entered, release, hold } = heldWait();
    const events: string[] = [];
    const runtime = await loggingRuntime(events, {
      plugins: [
        new TestPlugin('first', { events }),
        new TestPlugin('slow', { events, init: hold }),
      ],
    });
    const started = errorOf(runtime.start());
    await entered.promise;
    await runtime.stop();
    // stop() waited 2 s for the init, then shut down what had started, providers included.
    expect(events).not.toContain('shutdown plugin slow');
    expect(events.at(-1)).toBe('shutdown memory');
    expect((await started).code).toBe('WEFT_RUNTIME_STOPPED');
    const afterStop = events.length;
    release.resolve();
    await waitFor(() => events.length > afterStop);
    expect(events.slice(afterStop)).toEqual(['shutdown plugin slow']);
    await waitFor(() => runtime.status === 'stopped');
  });

  it('shuts each part down once, plugins before providers, when a stop() stops waiting for a slow rollback [claim:prod-shutdown-order] [claim:tsdoc-runtime-stop-bounded]', async () => {
    const events: string[] = [];
    const initEntered = deferred();
    class RecordingMemory extends InMemoryMemoryProvider {
      override async shutdown(): Promise<void> {
        events.push('shutdown memory');
      }
    }
    const { logger, lines } = capturingLogger();
    const { runtime } = await makeRuntime({
      memory: new RecordingMemory(),
      plugins: [
        // Its shutdown hangs, so the rollback takes the whole 2 s grace, as long as stop() waits.
        new TestPlugin('stuck', { events, shutdown: () => new Promise(() => undefined) }),
        new TestPlugin('slow', {
          events,
          init: async () => {
            initEntered.resolve();
            await new Promise((resolve) => setTimeout(resolve, 300));
          },
        }),
      ],
      options: { logger },
    });
    const started = errorOf(runtime.start());
    await initEntered.promise;
    const before = performance.now();
    await runtime.stop();
    expect(performance.now() - before).toBeLessThan(2_000 + 2_000 + 1_000);
    expect((await started).code).toBe('WEFT_RUNTIME_STOPPED');
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'start did not end after stop; stopping what has started' }),
    );
    expect(events.filter((event) => event.startsWith('shutdown'))).toEqual([
      'shutdown plugin slow',
      'shutdown plugin stuck',
      'shutdown memory',
    ]);
    expect(runtime.status).toBe('stopped');
  });

  it('stops what has started 2 s after a stop() that a hung plugin init holds, and that plugin once its init returns, logging no rollback after the stop [claim:obs-start-held-at-stop] [claim:obs-rollback-on-stop] [claim:obs-late-part-after-stop] [claim:mpm-stop-grace]', async () => {
    const { entered, release, hold } = heldWait();
    const events: string[] = [];
    const { logger, lines } = capturingLogger();
    const runtime = await loggingRuntime(events, {
      plugins: [
        new TestPlugin('first', { events }),
        new TestPlugin('hung-init', {
          events,
          init: hold,
        }),
      ],
      options: { logger },
    });
    const started = errorOf(runtime.start());
    await entered.promise;
    const before = performance.now();
    await runtime.stop();
    expect(performance.now() - before).toBeGreaterThanOrEqual(1_900);
    expect(runtime.status).toBe('stopped');
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 50,
        graceMs: 2_000,
        msg: 'start did not end after stop; stopping what has started',
      }),
    );
    // What had started is stopped; the plugin whose init is still running is not, yet.
    expect(events).toContain('shutdown plugin first');
    expect(events).toContain('shutdown memory');
    expect(events).not.toContain('shutdown plugin hung-init');

    // start() has rejected already: the stop gave up on it.
    expect((await started).code).toBe('WEFT_RUNTIME_STOPPED');
    const stoppedAt = lines.length;
    release.resolve();
    await waitFor(() => events.includes('shutdown plugin hung-init'));
    expect(events.at(-1)).toBe('shutdown plugin hung-init');
    // Nothing after that stop says the start is rolling back, or the runtime stopped again.
    expect(lines.slice(stoppedAt)).toEqual([
      expect.objectContaining({
        level: 40,
        component: 'plugin "hung-init": init()',
        msg: 'a part finished after stop() gave up on the start; shutting down what it started',
      }),
    ]);
  });

  it("rejects a start held past stop() as the stop ends, and no longer times it: the held init's end, even past startTimeoutMs, is logged as the part ending after the stop, not as a rollback [claim:obs-rollback-held-timeout] [claim:obs-late-part-after-stop] [claim:task-stop-hung-start] [claim:obs-runtime-stopped-held-start]", async () => {
    const { entered, release, hold } = heldWait();
    const events: string[] = [];
    const { logger, lines } = capturingLogger();
    const runtime = await loggingRuntime(events, {
      plugins: [new TestPlugin('weather', { events, init: hold })],
      // Past the 2 s that stop() waits for the start, so the stop has finished by then.
      options: { logger, startTimeoutMs: 3_000 },
    });
    const started = errorOf(runtime.start());
    await entered.promise;
    await runtime.stop();
    const messages = () => lines.map((line) => line.msg);
    expect(messages()).toEqual([
      'start did not end after stop; stopping what has started',
      'runtime stopped',
    ]);
    const error = await started;
    expect(error.code).toBe('WEFT_RUNTIME_STOPPED');
    expect(error.message).toMatch(/stop\(\) was called while the runtime was starting/);
    // startTimeoutMs passes while the init still hangs: nothing more happens then.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(messages()).toHaveLength(2);
    expect(events).not.toContain('shutdown plugin weather');

    release.resolve();
    await waitFor(() => events.includes('shutdown plugin weather'));
    expect(messages()).toEqual([
      'start did not end after stop; stopping what has started',
      'runtime stopped',
      'a part finished after stop() gave up on the start; shutting down what it started',
    ]);
    expect(lines[2]).toMatchObject({ level: 40, component: 'plugin "weather": init()' });
    expect(runtime.status).toBe('stopped');
  });

  it('rejects a start held past stop() with no cause when the stop ends; an init that then fails is named only in the line of a part that failed after the stop, with no second "runtime stopped" [claim:obs-rollback-held-failure] [claim:obs-runtime-stopped-held-start]', async () => {
    const { entered, release, hold } = heldWait();
    const events: string[] = [];
    const { logger, lines } = capturingLogger();
    const runtime = await loggingRuntime(events, {
      plugins: [
        new TestPlugin('weather', {
          events,
          init: async () => {
            await hold();
            throw new Error('weather service refused the key');
          },
        }),
      ],
      options: { logger },
    });
    const started = errorOf(runtime.start());
    await entered.promise;
    await runtime.stop();
    const error = await started;
    expect(error.code).toBe('WEFT_RUNTIME_STOPPED');
    expect(error.cause).toBeUndefined();
    const stopped = () => lines.filter((line) => line.msg === 'runtime stopped');
    expect(stopped()).toHaveLength(1);

    const late = (line: Record<string, unknown>) =>
      line.msg === 'a part failed after stop() gave up on the start; ignored';
    release.resolve();
    await waitFor(() => lines.some(late));
    expect(lines.filter(late)).toEqual([
      expect.objectContaining({
        level: 40,
        component: 'plugin "weather": init()',
        code: 'WEFT_START_FAILED',
      }),
    ]);
    expect(lines.find(late)?.error).toContain('weather service refused the key');
    expect(lines.map((line) => line.msg)).not.toContain('runtime failed to start; rolling back');
    expect(stopped()).toHaveLength(1);
    // start() had rejected already: the failure did not become its cause afterwards.
    expect(error.cause).toBeUndefined();
    expect(runtime.status).toBe('stopped');
  });

  it('stops a memory provider whose init held the start past stop() once that init returns [claim:obs-start-held-at-stop]', async () => {
    const { entered, release, hold } = heldWait();
    const events: string[] = [];
    const { logger, lines } = capturingLogger();
    const runtime = await loggingRuntime(events, {
      memoryHooks: {
        init: hold,
      },
      options: { logger },
    });
    const started = errorOf(runtime.start());
    await entered.promise;
    await runtime.stop();
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'start did not end after stop; stopping what has started' }),
    );
    expect(events).not.toContain('shutdown memory');
    expect((await started).code).toBe('WEFT_RUNTIME_STOPPED');

    release.resolve();
    await waitFor(() => events.includes('shutdown memory'));
    expect(events.at(-1)).toBe('shutdown memory');
    // Nothing after it started: the models and plugins never initialised.
    expect(events.filter((event) => event.startsWith('init '))).toEqual(['init memory']);
  });

  it('starts the scheduler last: a task a start trigger dispatches runs only once the start triggers have returned [claim:wp-start-order] [claim:trig-start-dispatch-waits]', async () => {
    const reply = recordingExecutor('reply');
    let seenWhileStarting: { ran: number; pending: number } | undefined;
    let dispatched: Promise<unknown> | undefined;
    const plugin = echoPlugin({
      executors: [reply],
      triggers: [
        {
          type: 'start',
          id: 'first-task',
          start: async (runtime) => {
            dispatched = runtime.dispatch({
              pluginId: 'echo',
              triggerId: 'first-task',
              space: 'a',
            });
            // Long enough for the task to plan and run, were the scheduler already started.
            await new Promise((resolve) => setTimeout(resolve, 100));
            seenWhileStarting = { ran: reply.calls.length, pending: runtime.scheduler.pending };
          },
        },
      ],
    });
    const { runtime } = await makeRuntime({
      plugins: [plugin],
      responses: planner(['echo', 'reply']),
    });
    await runtime.start();
    expect(seenWhileStarting).toEqual({ ran: 0, pending: 1 });
    expect(await dispatched).toMatchObject({ status: 'completed' });
    expect(reply.calls).toHaveLength(1);
  });

  it('fails the start at startTimeoutMs when a start trigger awaits its own dispatch, which waits for the start [claim:trig-start-dispatch-waits]', async () => {
    const reply = recordingExecutor('reply');
    let outcome: unknown;
    const plugin = echoPlugin({
      executors: [reply],
      triggers: [
        {
          type: 'start',
          id: 'first-task',
          start: async (runtime) => {
            try {
              outcome = await runtime.dispatch({
                pluginId: 'echo',
                triggerId: 'first-task',
                space: 'a',
              });
            } catch (error) {
              outcome = error;
            }
          },
        },
      ],
    });
    const { runtime } = await makeRuntime({
      plugins: [plugin],
      responses: planner(['echo', 'reply']),
      options: { startTimeoutMs: 200 },
    });
    const error = await errorOf(runtime.start());
    expect(error.code).toBe('WEFT_START_FAILED');
    expect(error.message).toContain(
      'start trigger "first-task" of plugin "echo": start() did not finish within startTimeoutMs (200 ms)',
    );
    // The rollback cancels the task the trigger was waiting for; it never ran.
    await waitFor(() => outcome !== undefined);
    expect(outcome).toMatchObject({ code: 'WEFT_TASK_CANCELLED' });
    expect(reply.calls).toHaveLength(0);
    expect(runtime.status).toBe('stopped');
  });

  it('runs start triggers with a signal that is aborted at stop [claim:trig-start-order] [claim:trig-start-signal] [claim:trig-shutdown-order] [claim:prod-shutdown-order] [claim:wp-start-trigger-signal]', async () => {
    let received: AbortSignal | undefined;
    let runtimeSeen: Runtime | undefined;
    const plugin = echoPlugin({
      triggers: [
        {
          type: 'start',
          id: 'ticker',
          start: (runtime, signal) => {
            runtimeSeen = runtime;
            received = signal;
          },
        },
      ],
    });
    const { runtime } = await makeRuntime({ plugins: [plugin] });
    await runtime.start();
    expect(runtimeSeen).toBe(runtime);
    expect(received?.aborted).toBe(false);
    await runtime.stop();
    expect(received?.aborted).toBe(true);
  });

  it('cancels with WEFT_TASK_CANCELLED (503) the tasks dispatched before a start that fails [claim:errors-task-cancelled-failed-start] [claim:task-held-cancelled-without-start]', async () => {
    const { runtime } = await makeRuntime({
      plugins: [
        echoPlugin({
          init: () => {
            throw new Error('no licence key');
          },
        }),
      ],
      responses: planner(['echo', 'reply']),
    });
    const early = errorOf(runtime.dispatch({ pluginId: 'echo', triggerId: 'manual', space: 'a' }));
    await waitFor(() => runtime.scheduler.pending === 1);
    expect((await errorOf(runtime.start())).code).toBe('WEFT_START_FAILED');
    expect(await early).toMatchObject({ code: 'WEFT_TASK_CANCELLED', status: 503 });
  });

  it('answers 503 WEFT_TASK_CANCELLED to a request whose task was queued during a start that then failed [claim:errors-503-failed-start]', async () => {
    let answer: Promise<Response> | undefined;
    const plugin = echoPlugin({
      triggers: [
        askRoute(),
        {
          type: 'start',
          id: 'feed',
          // The server listens before start triggers run: a request can queue a task meanwhile.
          start: async (runtime) => {
            answer = fetch(`${runtime.server.url}/ask`, { method: 'POST' });
            await waitFor(() => runtime.scheduler.pending === 1);
            throw new Error('feed unreachable');
          },
        },
      ],
    });
    const { runtime } = await makeRuntime({
      plugins: [plugin],
      responses: planner(['echo', 'reply']),
      options: { server: { port: 0 } },
    });
    expect((await errorOf(runtime.start())).code).toBe('WEFT_START_FAILED');
    const response = await (answer as Promise<Response>);
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'WEFT_TASK_CANCELLED',
    );
  });

  it('cancels with WEFT_TASK_CANCELLED (503) the tasks dispatched to a runtime stopped before it ever started [claim:errors-task-cancelled-never-started]', async () => {
    const { runtime } = await makeRuntime({ responses: planner(['echo', 'reply']) });
    const early = errorOf(runtime.dispatch({ pluginId: 'echo', triggerId: 'manual', space: 'a' }));
    await waitFor(() => runtime.scheduler.pending === 1);
    await runtime.stop();
    expect(await early).toMatchObject({ code: 'WEFT_TASK_CANCELLED', status: 503 });
    expect(runtime.status).toBe('stopped');
  });

  it('refuses a second start() after a failed one with WEFT_RUNTIME_STOPPED: a failed start leaves the runtime stopped [claim:errors-runtime-stopped-after-failed-start]', async () => {
    let attempts = 0;
    const { runtime } = await makeRuntime({
      plugins: [
        echoPlugin({
          init: () => {
            attempts += 1;
            if (attempts === 1) throw new Error('database not up yet');
          },
        }),
      ],
    });
    expect((await errorOf(runtime.start())).code).toBe('WEFT_START_FAILED');
    expect(runtime.status).toBe('stopped');
    const again = await errorOf(runtime.start());
    expect(again.code).toBe('WEFT_RUNTIME_STOPPED');
    expect(again.message).toContain('create a new one with Runtime.init');
    // The plugin was not initialised a second time: the runtime did not try again.
    expect(attempts).toBe(1);
  });

  it('refuses with WEFT_SHUTTING_DOWN (503) a dispatch to a runtime whose start failed, though stop() was never called [claim:errors-shutting-down-after-failed-start]', async () => {
    const { runtime } = await makeRuntime({
      plugins: [
        echoPlugin({
          init: () => {
            throw new Error('no licence key');
          },
        }),
      ],
    });
    expect((await errorOf(runtime.start())).code).toBe('WEFT_START_FAILED');
    const refused = await errorOf(
      runtime.dispatch({ pluginId: 'echo', triggerId: 'manual', space: 'after' }),
    );
    expect(refused).toMatchObject({ code: 'WEFT_SHUTTING_DOWN', status: 503 });
    expect(runtime.scheduler.pending).toBe(0);
  });

  it('refuses with WEFT_SHUTTING_DOWN (503) a dispatch to a runtime whose start failed with WEFT_LISTEN_FAILED [claim:errors-shutting-down-after-listen-failed]', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const port = (blocker.address() as { port: number }).port;
    const { runtime } = await makeRuntime({
      plugins: [echoPlugin({ triggers: [pingRoute()] })],
      options: { server: { port } },
    });
    expect((await errorOf(runtime.start())).code).toBe('WEFT_LISTEN_FAILED');
    const refused = await errorOf(
      runtime.dispatch({ pluginId: 'echo', triggerId: 'manual', space: 'after' }),
    );
    expect(refused).toMatchObject({ code: 'WEFT_SHUTTING_DOWN', status: 503 });
    expect(runtime.status).toBe('stopped');
  });

  it('holds dispatched tasks until the scheduler starts [claim:task-held-until-start]', async () => {
    const { runtime } = await makeRuntime({ responses: planner(['echo', 'reply']) });
    let settled = false;
    const pending = runtime
      .dispatch({ pluginId: 'echo', triggerId: 'manual', space: 'early' })
      .then((task) => {
        settled = true;
        return task;
      });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(settled).toBe(false);
    expect(runtime.scheduler.pending).toBe(1);
    await runtime.start();
    expect((await pending).status).toBe('completed');
  });

  it('rejects with 503 WEFT_TASK_CANCELLED, and does not run, a task dispatched before a start that stop() ends first [claim:task-held-cancelled-without-start]', async () => {
    // stop() before start(), and stop() while a plugin's init holds the start.
    for (const when of ['before start', 'during start'] as const) {
      const held = deferred();
      const reply = recordingExecutor('reply');
      const { runtime, model } = await makeRuntime({
        plugins: [
          new TestPlugin('echo', { executors: [reply] }),
          new TestPlugin('slow', { init: () => held.promise }),
        ],
        responses: planner(['echo', 'reply']),
      });
      const early = errorOf(
        runtime.dispatch({ pluginId: 'echo', triggerId: 'manual', space: 'a' }),
      );
      await waitFor(() => runtime.scheduler.pending === 1);
      if (when === 'before start') {
        await runtime.stop();
      } else {
        const starting = errorOf(runtime.start());
        const stopped = runtime.stop();
        held.resolve();
        await stopped;
        expect((await starting).code).toBe('WEFT_RUNTIME_STOPPED');
      }
      expect(await early).toMatchObject({ code: 'WEFT_TASK_CANCELLED', status: 503 });
      expect(model.requests).toHaveLength(0);
      expect(reply.calls).toHaveLength(0);
    }
  });

  it('runs a task only once every part has started, and shuts none down until it has ended [claim:task-parts-run-around-tasks]', async () => {
    const events: string[] = [];
    const gate = deferred();
    const work = recordingExecutor('work', async () => {
      events.push('task runs');
      await gate.promise;
      events.push('task ends');
      return { success: true };
    });
    const runtime = await loggingRuntime(events, {
      plugins: [new TestPlugin('first', { events, executors: [work] })],
      models: [
        new TestModelProvider('model-a', {
          capabilities: [textWithUsage('{"steps":[{"pluginId":"first","action":"work"}]}')],
          events,
        }),
      ],
      options: { pipelineReview: 'never' },
    });
    // Dispatched before start: it waits for every part, not only for the scheduler.
    const task = runtime.dispatch({ pluginId: 'first', triggerId: 'manual', space: 'early' });
    await runtime.start();
    await waitFor(() => work.calls.length === 1);
    const stopped = runtime.stop();
    await new Promise((resolve) => setTimeout(resolve, 20));
    gate.resolve();
    await stopped;
    expect((await task).status).toBe('completed');
    expect(events).toEqual([
      'init memory',
      'init model model-a',
      'init plugin first',
      'task runs',
      'task ends',
      'shutdown plugin first',
      'shutdown model model-a',
      'shutdown memory',
    ]);
  });

  it('rolls back what started when a plugin fails to initialise, naming the plugin [claim:mpo-shutdown-after] [claim:mpo-first-start-last-stop] [claim:plugin-init-fails] [claim:plugin-init-fails-no-shutdown] [claim:plugin-shutdown-failed-start] [claim:task-start-rollback] [claim:errors-start-failed-sources] [claim:tsdoc-runtime-start-failed] [claim:wp-start-order] [claim:wp-rollback]', async () => {
    const events: string[] = [];
    const runtime = await loggingRuntime(events, {
      plugins: [
        new TestPlugin('first', { events }),
        new TestPlugin('broken', {
          events,
          init: () => {
            throw new Error('no credentials');
          },
        }),
        new TestPlugin('never', { events }),
      ],
    });
    const error = await errorOf(runtime.start());
    expect(error.message).toBe(
      'Runtime.start: plugin "broken" failed to initialise: no credentials [WEFT_START_FAILED]',
    );
    expect(events).toEqual([
      'init memory',
      'init model model-a',
      'init model model-b',
      'init plugin first',
      'init plugin broken',
      // Only what started is shut down: not the plugin whose init failed.
      'shutdown plugin first',
      'shutdown model model-b',
      'shutdown model model-a',
      'shutdown memory',
    ]);
    expect(runtime.status).toBe('stopped');
    // What the failed start shut down is not shut down again by stop().
    const shutDown = events.length;
    await runtime.stop();
    expect(events).toHaveLength(shutDown);
  });

  it('names the model provider that fails to initialise [claim:mpo-shutdown-after] [claim:task-start-rollback] [claim:mpo-init-fails] [claim:errors-start-failed-sources]', async () => {
    const events: string[] = [];
    const runtime = await loggingRuntime(events, {
      models: [
        new TestModelProvider('good', { capabilities: [textWithUsage('{}')], events }),
        new TestModelProvider('flaky', {
          capabilities: [textWithUsage('{}')],
          events,
          init: () => {
            throw new Error('endpoint down');
          },
        }),
      ],
    });
    const error = await errorOf(runtime.start());
    expect(error.message).toBe(
      'Runtime.start: model provider "flaky" failed to initialise: endpoint down [WEFT_START_FAILED]',
    );
    expect(events).toEqual([
      'init memory',
      'init model good',
      'init model flaky',
      'shutdown model good',
      'shutdown memory',
    ]);
  });

  it('names the memory provider that fails to initialise [claim:errors-start-failed-sources]', async () => {
    const events: string[] = [];
    const runtime = await loggingRuntime(events, {
      memoryHooks: {
        init: () => {
          throw new Error('disk full');
        },
      },
    });
    const error = await errorOf(runtime.start());
    expect(error.message).toBe(
      'Runtime.start: memory provider "logging-memory" failed to initialise: disk full [WEFT_START_FAILED]',
    );
    expect(events).toEqual(['init memory']);
  });

  it('names the space coordinator that fails to initialise, with its error as the cause [claim:errors-start-failed-sources]', async () => {
    const events: string[] = [];
    const refused = new Error('connection refused');
    const runtime = stopAfterTest(
      await Runtime.init({
        memory: new LoggingMemoryProvider(events),
        models: [new TestModelProvider('model', { capabilities: [textWithUsage('{}')], events })],
        plugins: [new TestPlugin('first', { events })],
        coordinator: {
          id: 'shared',
          init: async () => {
            events.push('init coordinator');
            throw refused;
          },
          shutdown: async () => void events.push('shutdown coordinator'),
          admit: async () => 1,
          acquire: async () => ({ ticket: 1, signal: new AbortController().signal }),
          release: async () => undefined,
        },
        options: { logger: silentLogger },
      }),
    );
    const error = await errorOf(runtime.start());
    expect(error.message).toBe(
      'Runtime.start: coordinator "shared" failed to initialise: connection refused [WEFT_START_FAILED]',
    );
    expect(error.cause).toBe(refused);
    expect(events).toEqual([
      'init memory',
      'init model model',
      'init coordinator',
      'shutdown model model',
      'shutdown memory',
    ]);
  });

  it('names the start trigger that fails and closes the server it had opened [claim:trig-start-throws] [claim:task-start-rollback] [claim:errors-start-failed-sources] [claim:tsdoc-runtime-start-failed] [claim:wp-rollback]', async () => {
    const events: string[] = [];
    const plugin = new TestPlugin('clock', {
      events,
      triggers: [
        pingRoute(),
        {
          type: 'start',
          id: 'tick',
          start: () => {
            throw new Error('bad cron expression');
          },
        },
      ],
    });
    const runtime = await loggingRuntime(events, {
      plugins: [plugin],
      options: { server: { port: 0 } },
    });
    const error = await errorOf(runtime.start());
    expect(error.message).toBe(
      'Runtime.start: start trigger "tick" of plugin "clock" failed: bad cron expression [WEFT_START_FAILED]',
    );
    expect(events.at(-1)).toBe('shutdown memory');
    expect(events).toContain('shutdown plugin clock');
    const port = runtime.server.port;
    expect(port).toBeTypeOf('number');
    await expect(fetch(`http://127.0.0.1:${port}/ping`)).rejects.toThrow();
  });

  it('abandons and rolls back a start when stop() is called while it is starting [claim:task-stop-during-start] [claim:tsdoc-runtime-start-stopped] [claim:plugin-init-fails]', async () => {
    const events: string[] = [];
    const initStarted = deferred();
    const releaseInit = deferred();
    const runtime = await loggingRuntime(events, {
      plugins: [
        new TestPlugin('slow', {
          events,
          init: async () => {
            initStarted.resolve();
            await releaseInit.promise;
          },
        }),
        new TestPlugin('later', { events }),
      ],
    });
    const starting = runtime.start();
    await initStarted.promise;
    const stopping = runtime.stop();
    releaseInit.resolve();
    const error = await errorOf(starting);
    await stopping;
    expect(error.message).toContain('stop() was called while the runtime was starting');
    expect(events).not.toContain('init plugin later');
    expect(events.slice(-2)).toEqual(['shutdown model model-a', 'shutdown memory']);
    expect(events).toContain('shutdown plugin slow');
    expect(runtime.status).toBe('stopped');
  });

  it("fails with the stop's error, quoting the plugin's, when a plugin's init throws after stop() was called [claim:plugin-init-fails]", async () => {
    const events: string[] = [];
    const initStarted = deferred();
    const failInit = deferred();
    const runtime = await loggingRuntime(events, {
      plugins: [
        new TestPlugin('slow', {
          events,
          init: async () => {
            initStarted.resolve();
            await failInit.promise;
            throw new Error('no credentials');
          },
        }),
      ],
    });
    const starting = runtime.start();
    await initStarted.promise;
    const stopping = runtime.stop();
    failInit.resolve();
    const error = await errorOf(starting);
    await stopping;
    expect((error as { code?: string }).code).toBe('WEFT_RUNTIME_STOPPED');
    expect(error.message).toBe(
      'Runtime.start: stop() was called while the runtime was starting; start was abandoned (meanwhile: Runtime.start: plugin "slow" failed to initialise: no credentials [WEFT_START_FAILED]) [WEFT_RUNTIME_STOPPED]',
    );
    expect(events).not.toContain('shutdown plugin slow');
    expect(runtime.status).toBe('stopped');
  });

  it('cannot be started again after it stopped [claim:tsdoc-runtime-start-stopped]', async () => {
    const { runtime } = await makeRuntime();
    await runtime.start();
    await runtime.stop();
    const error = await errorOf(runtime.start());
    expect(error.message).toContain('this runtime was stopped');
  });
});

describe('Runtime start deadline', () => {
  const rollback = (line: Record<string, unknown>) =>
    line.msg === 'runtime failed to start; rolling back';

  it('logs the rollback of a start whose HTTP server cannot listen with code WEFT_LISTEN_FAILED [claim:obs-rollback-on-timeout]', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const port = (blocker.address() as { port: number }).port;
    const { logger, lines } = capturingLogger();
    const { runtime } = await makeRuntime({
      plugins: [echoPlugin({ triggers: [pingRoute()] })],
      options: { logger, server: { port } },
    });
    expect((await errorOf(runtime.start())).code).toBe('WEFT_LISTEN_FAILED');
    expect(
      lines.find((line) => line.msg === 'runtime failed to start; rolling back'),
    ).toMatchObject({ level: 50, code: 'WEFT_LISTEN_FAILED' });
    expect(runtime.status).toBe('stopped');
  });

  it('fails a start held by a plugin init that never settles after startTimeoutMs, naming the plugin, and shuts down what started [claim:task-start-deadline] [claim:mpm-stop-grace] [claim:prod-start-timeout] [claim:errors-start-failed-deadline] [claim:tsdoc-runtime-start-deadline] [claim:task-start-rollback] [claim:obs-rollback-on-timeout] [claim:plugin-init-fails] [claim:cfg-start-timeout-parts]', async () => {
    const { entered, release, hold } = heldWait();
    const events: string[] = [];
    const { logger, lines } = capturingLogger();
    const runtime = await loggingRuntime(events, {
      plugins: [
        new TestPlugin('first', { events }),
        new TestPlugin('weather', { events, init: hold }),
        new TestPlugin('never', { events }),
      ],
      options: { logger, startTimeoutMs: 200 },
    });
    const before = performance.now();
    const started = errorOf(runtime.start());
    await entered.promise;
    const error = await started;
    const tookMs = performance.now() - before;
    expect(error).toBeInstanceOf(WeftError);
    expect(error.code).toBe('WEFT_START_FAILED');
    expect(error.message).toBe(
      'Runtime.start: plugin "weather": init() did not finish within startTimeoutMs (200 ms), so the start was abandoned. Find out why it hangs (its logs, the service it waits for), or raise options.startTimeoutMs if it needs longer. [WEFT_START_FAILED]',
    );
    // Not before the deadline, and not much after it: the rollback's shutdowns are quick here.
    expect(tookMs).toBeGreaterThanOrEqual(190);
    expect(tookMs).toBeLessThan(2_000);
    expect(events).toEqual([
      'init memory',
      'init model model-a',
      'init model model-b',
      'init plugin first',
      'init plugin weather',
      // What had started is shut down in reverse order; the held plugin has not started.
      'shutdown plugin first',
      'shutdown model model-b',
      'shutdown model model-a',
      'shutdown memory',
    ]);
    expect(runtime.status).toBe('stopped');
    expect(lines.filter(rollback)).toEqual([
      expect.objectContaining({ level: 50, code: 'WEFT_START_FAILED' }),
    ]);
    release.resolve();
  });

  it('rejects a start past startTimeoutMs only once what it started is shut down: up to the 2 s grace of a stop more, and stopGraceMs more when the server listens [claim:prod-start-timeout-rollback]', async () => {
    // What had started hangs in its shutdown as well: the memory provider never finishes it.
    const neverShutDown = deferred();
    const held = heldWait();
    const events: string[] = [];
    const runtime = await loggingRuntime(events, {
      plugins: [new TestPlugin('weather', { events, init: held.hold })],
      memoryHooks: { shutdown: () => neverShutDown.promise },
      options: { startTimeoutMs: 200 },
    });
    let before = performance.now();
    const initHung = await errorOf(runtime.start());
    let tookMs = performance.now() - before;
    expect(initHung.code).toBe('WEFT_START_FAILED');
    // The deadline, then the 2 s that plugins and providers share to shut down.
    expect(tookMs).toBeGreaterThanOrEqual(200 + 2_000 - 10);
    expect(tookMs).toBeLessThan(200 + 2_000 + 1_500);
    expect(events).toContain('shutdown memory');
    held.release.resolve();

    // A start trigger that hangs once the server listens, with a request the server must wait
    // for: the server's stopGraceMs comes on top.
    const trigger = heldStartTrigger('poller');
    const routeEntered = deferred();
    const hangingRoute: TriggerRoute = {
      type: 'route',
      id: 'hang',
      method: 'GET',
      path: '/hang',
      handler: () => {
        routeEntered.resolve();
        return new Promise<void>(() => undefined);
      },
    };
    const listening = await loggingRuntime([], {
      plugins: [new TestPlugin('poller', { triggers: [hangingRoute, trigger.trigger] })],
      memoryHooks: { shutdown: () => neverShutDown.promise },
      options: { startTimeoutMs: 1_000, server: { port: 0, stopGraceMs: 500 } },
    });
    before = performance.now();
    const started = errorOf(listening.start());
    await trigger.entered.promise;
    const open = fetch(`${listening.server.url}/hang`).catch(() => undefined);
    await routeEntered.promise;
    const triggerHung = await started;
    tookMs = performance.now() - before;
    expect(triggerHung.code).toBe('WEFT_START_FAILED');
    expect(tookMs).toBeGreaterThanOrEqual(1_000 + 500 + 2_000 - 10);
    expect(tookMs).toBeLessThan(1_000 + 500 + 2_000 + 1_500);
    await open;
    trigger.release.resolve();
    neverShutDown.resolve();
  }, 15_000);

  it('lets an init that resolves after the deadline change nothing but shut its plugin down, and leaves the runtime stopped [claim:task-start-deadline-late] [claim:task-start-deadline-stopped] [claim:obs-late-start-part] [claim:plugin-shutdown-late-init] [claim:errors-runtime-stopped-after-failed-start] [claim:obs-task-fields]', async () => {
    const { entered, release, hold } = heldWait();
    const events: string[] = [];
    const { logger, lines } = capturingLogger();
    const runtime = await loggingRuntime(events, {
      plugins: [
        new TestPlugin('first', { events }),
        new TestPlugin('weather', { events, init: hold }),
        new TestPlugin('never', { events }),
      ],
      options: { logger, startTimeoutMs: 200 },
    });
    const started = errorOf(runtime.start());
    await entered.promise;
    expect((await started).code).toBe('WEFT_START_FAILED');
    const afterFailure = events.length;

    release.resolve();
    await waitFor(() => events.includes('shutdown plugin weather'));
    // Only the late plugin is shut down: nothing after it initialises, nothing else runs twice.
    expect(events.slice(afterFailure)).toEqual(['shutdown plugin weather']);
    expect(runtime.status).toBe('stopped');
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 40,
        component: 'plugin "weather": init()',
        msg: 'a part finished after start timed out; shutting down what it started',
      }),
    );
    expect(lines.filter((line) => line.msg === 'runtime started')).toEqual([]);
    expect(lines.filter(rollback)).toHaveLength(1);
    // As after any failed start, the runtime cannot start again.
    const again = await errorOf(runtime.start());
    expect(again.code).toBe('WEFT_RUNTIME_STOPPED');
    expect(events.filter((event) => event === 'init plugin weather')).toHaveLength(1);
  });

  it('logs, and does not throw, an init that rejects after the deadline [claim:task-start-deadline-late] [claim:obs-late-start-part-failed]', async () => {
    const { entered, release, hold } = heldWait();
    const events: string[] = [];
    const { logger, lines } = capturingLogger();
    const runtime = await loggingRuntime(events, {
      plugins: [
        new TestPlugin('weather', {
          events,
          init: async () => {
            await hold();
            throw new Error('upstream refused');
          },
        }),
      ],
      options: { logger, startTimeoutMs: 200 },
    });
    const started = errorOf(runtime.start());
    await entered.promise;
    expect((await started).code).toBe('WEFT_START_FAILED');

    release.resolve();
    await waitFor(() =>
      lines.some((line) => line.msg === 'a part failed after start timed out; ignored'),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 40,
        component: 'plugin "weather": init()',
        code: 'WEFT_START_FAILED',
        msg: 'a part failed after start timed out; ignored',
      }),
    );
    const failed = lines.find(
      (line) => line.msg === 'a part failed after start timed out; ignored',
    );
    expect(JSON.stringify(failed)).toContain('upstream refused');
    // A plugin whose init failed is not shut down, and the runtime stays stopped.
    expect(events).not.toContain('shutdown plugin weather');
    expect(runtime.status).toBe('stopped');
  });

  it('aborts the signal of a start trigger that holds the start past the deadline, naming it [claim:task-start-deadline-late] [claim:task-start-deadline] [claim:trig-start-timeout] [claim:cfg-start-timeout-parts]', async () => {
    const { trigger, entered, release, signal } = heldStartTrigger('subscribe');
    const events: string[] = [];
    const runtime = await loggingRuntime(events, {
      plugins: [new TestPlugin('queue', { events, triggers: [trigger] })],
      options: { startTimeoutMs: 200 },
    });
    const started = errorOf(runtime.start());
    await entered.promise;
    expect(signal()?.aborted).toBe(false);
    const error = await started;
    expect(error.code).toBe('WEFT_START_FAILED');
    expect(error.message).toContain(
      'Runtime.start: start trigger "subscribe" of plugin "queue": start() did not finish within startTimeoutMs (200 ms)',
    );
    expect(signal()?.aborted).toBe(true);
    expect(events).toContain('shutdown plugin queue');
    expect(runtime.status).toBe('stopped');
    release.resolve();
  });

  it('names the memory provider whose init holds the start past the deadline [claim:task-start-deadline] [claim:errors-start-failed-deadline] [claim:wp-health-on-start] [claim:cfg-start-timeout-parts]', async () => {
    const { entered, release, hold } = heldWait();
    const events: string[] = [];
    const runtime = await loggingRuntime(events, {
      memoryHooks: { init: hold },
      options: { startTimeoutMs: 200 },
    });
    const started = errorOf(runtime.start());
    await entered.promise;
    const error = await started;
    expect(error.code).toBe('WEFT_START_FAILED');
    expect(error.message).toContain(
      'Runtime.start: memory provider "logging-memory": init() did not finish within startTimeoutMs (200 ms)',
    );
    expect(events).toEqual(['init memory']);
    release.resolve();
    await waitFor(() => events.includes('shutdown memory'));
    expect(events).toEqual(['init memory', 'shutdown memory']);
    expect(runtime.status).toBe('stopped');
  });

  it('names the space coordinator whose init holds the start past the deadline, and shuts down the providers [claim:cfg-start-timeout-parts]', async () => {
    const { entered, release, hold } = heldWait();
    const events: string[] = [];
    const coordinator: SpaceCoordinator = {
      id: 'shared',
      init: async () => {
        events.push('init coordinator');
        await hold();
      },
      shutdown: async () => {
        events.push('shutdown coordinator');
      },
      admit: async () => 1,
      acquire: async () => ({ ticket: 1, signal: new AbortController().signal }),
      release: async () => undefined,
    };
    const runtime = await loggingRuntime(events, {
      coordinator,
      options: { startTimeoutMs: 200 },
    });
    const started = errorOf(runtime.start());
    await entered.promise;
    const error = await started;
    expect(error.code).toBe('WEFT_START_FAILED');
    expect(error.message).toContain(
      'Runtime.start: coordinator "shared": init() did not finish within startTimeoutMs (200 ms)',
    );
    expect(events).toEqual([
      'init memory',
      'init model model-a',
      'init model model-b',
      'init coordinator',
      'shutdown model model-b',
      'shutdown model model-a',
      'shutdown memory',
    ]);
    release.resolve();
    await waitFor(() => events.includes('shutdown coordinator'));
    expect(runtime.status).toBe('stopped');
  });

  it('names the health check that holds the start past the deadline, when it outlasts startTimeoutMs [claim:cfg-start-timeout-parts]', async () => {
    class HungHealthMemory extends InMemoryMemoryProvider {
      override checkHealth(): Promise<boolean> {
        return new Promise<boolean>(() => undefined);
      }
    }
    const { runtime } = await makeRuntime({
      memory: new HungHealthMemory(),
      options: { checkHealthOnStart: true, startTimeoutMs: 200, healthCheckTimeoutMs: 60_000 },
    });
    const error = await errorOf(runtime.start());
    expect(error.code).toBe('WEFT_START_FAILED');
    expect(error.message).toContain(
      'Runtime.start: memory provider "in-memory": checkHealth() did not finish within startTimeoutMs (200 ms)',
    );
    expect(runtime.status).toBe('stopped');
  });

  it('rejects with WEFT_RUNTIME_STOPPED, the timeout as its cause, when stop() was called before the deadline passed [claim:errors-runtime-stopped-during-start]', async () => {
    const { entered, release, hold } = heldWait();
    const events: string[] = [];
    const runtime = await loggingRuntime(events, {
      plugins: [new TestPlugin('weather', { events, init: hold })],
      options: { startTimeoutMs: 200 },
    });
    const started = errorOf(runtime.start());
    await entered.promise;
    const before = performance.now();
    await runtime.stop();
    // The deadline came before stop()'s 2 s grace: stop() waited for the start's rollback.
    expect(performance.now() - before).toBeLessThan(1_900);
    const error = await started;
    expect(error.code).toBe('WEFT_RUNTIME_STOPPED');
    expect(WeftError.is(error.cause, 'WEFT_START_FAILED')).toBe(true);
    expect(runtime.status).toBe('stopped');
    release.resolve();
  });

  it('does not cut short a start that failed in time and is rolling back past the deadline', async () => {
    const events: string[] = [];
    const runtime = await loggingRuntime(events, {
      plugins: [
        // Its shutdown takes longer than the deadline, so the rollback outlasts it.
        new TestPlugin('slow-stop', {
          events,
          shutdown: () => new Promise((resolve) => setTimeout(resolve, 400)),
        }),
        new TestPlugin('broken', {
          events,
          init: () => {
            throw new Error('no credentials');
          },
        }),
      ],
      options: { startTimeoutMs: 200 },
    });
    const error = await errorOf(runtime.start());
    expect(error.message).toBe(
      'Runtime.start: plugin "broken" failed to initialise: no credentials [WEFT_START_FAILED]',
    );
    expect(events.at(-1)).toBe('shutdown memory');
    expect(runtime.status).toBe('stopped');
  });
});

describe('Runtime stop', () => {
  it('returns the same promise when called twice', async () => {
    const { runtime } = await makeRuntime();
    await runtime.start();
    const first = runtime.stop();
    expect(runtime.stop()).toBe(first);
    await first;
    expect(runtime.status).toBe('stopped');
  });

  it('shuts plugins and providers down in reverse order and survives a failing shutdown [claim:mpo-first-start-last-stop] [claim:plugin-shutdown] [claim:trig-shutdown-close] [claim:task-stop-reverse-order] [claim:prod-shutdown-order] [claim:mpm-start-first] [claim:mpi-start-order] [claim:mpo-lifecycle] [claim:mpo-shutdown-after] [claim:wp-stop-reverse] [claim:wp-providers-before-plugins]', async () => {
    const events: string[] = [];
    const runtime = await loggingRuntime(events, {
      plugins: [
        new TestPlugin('first', { events }),
        new TestPlugin('second', {
          events,
          shutdown: () => {
            throw new Error('socket already closed');
          },
        }),
      ],
    });
    await runtime.start();
    events.length = 0;
    await runtime.stop();
    expect(events).toEqual([
      'shutdown plugin second',
      'shutdown plugin first',
      'shutdown model model-b',
      'shutdown model model-a',
      'shutdown memory',
    ]);
    expect(runtime.status).toBe('stopped');
  });

  it("shuts the model providers down once a plugin whose shutdown hangs has had the stop's 2 s, without waiting for it [claim:mpo-shutdown-after]", async () => {
    const events: string[] = [];
    const runtime = await loggingRuntime(events, {
      plugins: [new TestPlugin('stuck', { events, shutdown: () => new Promise(() => undefined) })],
    });
    await runtime.start();
    events.length = 0;
    const before = performance.now();
    await runtime.stop();
    const elapsed = performance.now() - before;
    expect(elapsed).toBeGreaterThanOrEqual(1_900);
    expect(elapsed).toBeLessThan(2_000 + 1_000);
    expect(events).toEqual([
      'shutdown plugin stuck',
      'shutdown model model-b',
      'shutdown model model-a',
      'shutdown memory',
    ]);
  });

  it("aborts the start triggers' signal before the scheduler drains: a queued task has not run yet when it fires [claim:trig-shutdown-order] [claim:wp-stop-triggers-first] [claim:wp-start-signal-before-drain]", async () => {
    const gate = deferred();
    const slow = recordingExecutor('reply', async () => {
      await gate.promise;
      return { success: true };
    });
    let seenAtAbort: { ran: number; pending: number } | undefined;
    const plugin = echoPlugin({
      executors: [slow],
      triggers: [
        {
          type: 'start',
          id: 'watch',
          start: (runtime, signal) => {
            signal.addEventListener('abort', () => {
              seenAtAbort = { ran: slow.calls.length, pending: runtime.scheduler.pending };
            });
          },
        },
      ],
    });
    const { runtime } = await makeRuntime({
      plugins: [plugin],
      responses: planner(['echo', 'reply']),
      options: { pipelineReview: 'never' },
    });
    await runtime.start();
    const tasks = [1, 2].map((n) =>
      runtime.dispatch({ pluginId: 'echo', triggerId: 'manual', space: 'order', message: `m${n}` }),
    );
    await waitFor(() => slow.calls.length === 1);
    const stopped = runtime.stop();
    gate.resolve();
    await stopped;
    // The signal fired first: the second task still waited, so no trigger could add to the queue
    // while it drained.
    expect(seenAtAbort).toEqual({ ran: 1, pending: 1 });
    expect((await Promise.all(tasks)).map((task) => task.status)).toEqual([
      'completed',
      'completed',
    ]);
    expect(slow.calls).toHaveLength(2);
  });

  it('drains queued tasks by default [claim:trig-shutdown] [claim:trig-shutdown-order] [claim:task-graceful-stop-drains] [claim:prod-shutdown-order] [claim:wp-stop-reverse]', async () => {
    const gate = deferred();
    const slow = recordingExecutor('reply', async () => {
      await gate.promise;
      return { success: true };
    });
    const { runtime } = await makeRuntime({
      plugins: [echoPlugin({ executors: [slow] })],
      responses: planner(['echo', 'reply']),
      options: { pipelineReview: 'never' },
    });
    await runtime.start();
    const tasks = [1, 2, 3].map((n) =>
      runtime.dispatch({ pluginId: 'echo', triggerId: 'manual', space: 'drain', message: `m${n}` }),
    );
    await waitFor(() => slow.calls.length === 1);
    const stopped = runtime.stop();
    gate.resolve();
    await stopped;
    const finished = await Promise.all(tasks);
    expect(finished.map((task) => task.status)).toEqual(['completed', 'completed', 'completed']);
    expect(slow.calls.map((call) => call.task.trigger.message)).toEqual(['m1', 'm2', 'm3']);
  });

  it("with shutdown 'cancel' rejects queued tasks with 503 and aborts the running one, whose late result joins no chain [claim:exec-signal] [claim:exec-chain-cut-step] [claim:wp-cut-step] [claim:trig-shutdown] [claim:trig-shutdown-cancel] [claim:task-status-cancelled] [claim:task-cancel-rejects-waiting] [claim:wp-status-rule] [claim:wp-cancelled] [claim:index-dispatch-rejects]", async () => {
    let signalSeen: AbortSignal | undefined;
    const waitsForAbort = recordingExecutor('reply', (_task, context) => {
      signalSeen = context.signal;
      return new Promise((resolve) =>
        context.signal.addEventListener('abort', () =>
          resolve({ success: false, error: 'aborted' }),
        ),
      );
    });
    const { runtime } = await makeRuntime({
      plugins: [echoPlugin({ executors: [waitsForAbort] })],
      responses: planner(['echo', 'reply']),
      options: { shutdown: 'cancel', pipelineReview: 'never' },
    });
    await runtime.start();
    const running = runtime.dispatch({ pluginId: 'echo', triggerId: 'manual', space: 'cancel' });
    const queued = runtime.dispatch({ pluginId: 'echo', triggerId: 'manual', space: 'cancel' });
    const queuedError = errorOf(queued);
    await waitFor(() => waitsForAbort.calls.length === 1);
    await runtime.stop();
    const error = await queuedError;
    expect(error.status).toBe(503);
    expect(error.code).toBe('WEFT_TASK_CANCELLED');
    expect(error.message).toContain('space "cancel" was cancelled by shutdown');
    expect(signalSeen?.aborted).toBe(true);
    const cancelled = await running;
    expect(cancelled.status).toBe('cancelled');
    // The executor returned once aborted, but its step was cut short: the chain has no item of it.
    expect(cancelled.chain.map((item) => `${item.type}:${item.action}`)).toEqual([
      'trigger:manual',
    ]);
    expect(cancelled.steps).toEqual([]);
    expect(waitsForAbort.calls).toHaveLength(1);
  });

  it('ends a task whose step failed cancelled, not failed, when the runtime cancels it before it ends; dispatch still resolves [claim:index-dispatch-never-rejects] [claim:exec-failed-task-cancelled] [claim:wp-cancelled]', async () => {
    const fails = recordingExecutor('fails', { success: false, error: 'quota exceeded' });
    const waitsForAbort = recordingExecutor(
      'waits',
      (_task, context) =>
        new Promise((resolve) =>
          context.signal.addEventListener('abort', () =>
            resolve({ success: false, error: 'aborted' }),
          ),
        ),
    );
    const { runtime } = await makeRuntime({
      plugins: [echoPlugin({ executors: [fails, waitsForAbort] })],
      responses: planner(['echo', 'fails'], ['echo', 'waits']),
      options: { shutdown: 'cancel', pipelineReview: 'never' },
    });
    await runtime.start();
    const running = runtime.dispatch({ pluginId: 'echo', triggerId: 'manual', space: 'late' });
    await waitFor(() => waitsForAbort.calls.length === 1);
    await runtime.stop();
    const task = await running;
    expect(task.status).toBe('cancelled');
    // The failed step's error item stays; the step cut off by the cancellation adds none.
    expect(task.chain.slice(1).map((item) => [item.type, item.action, item.error])).toEqual([
      ['error', 'fails', 'quota exceeded'],
    ]);
  });

  it('cancels what is left when draining outlasts shutdownTimeoutMs [claim:trig-shutdown] [claim:task-graceful-stop-drains] [claim:task-status-cancelled] [claim:task-cancel-rejects-waiting] [claim:prod-drain-timeout] [claim:errors-task-cancelled-running] [claim:errors-503-sources] [claim:wp-stop-bounded]', async () => {
    let reason: unknown;
    const stuck = recordingExecutor('reply', (_task, context) => {
      return new Promise((resolve) =>
        context.signal.addEventListener('abort', () => {
          reason = context.signal.reason;
          resolve({ success: false, error: 'aborted' });
        }),
      );
    });
    const { runtime } = await makeRuntime({
      plugins: [echoPlugin({ executors: [stuck] })],
      responses: planner(['echo', 'reply']),
      options: { shutdownTimeoutMs: 50, pipelineReview: 'never' },
    });
    await runtime.start();
    const running = runtime.dispatch({ pluginId: 'echo', triggerId: 'manual', space: 'stuck' });
    const queued = errorOf(
      runtime.dispatch({ pluginId: 'echo', triggerId: 'manual', space: 'stuck' }),
    );
    await waitFor(() => stuck.calls.length === 1);
    const started = Date.now();
    await runtime.stop();
    // The drain waits shutdownTimeoutMs (50 ms) and no longer: the cancelled executor then ends
    // at once, so the stop is over long before the drain would have.
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    expect(Date.now() - started).toBeLessThan(1_000);
    // The running task is not rejected: it ends cancelled, with the code as its signal's reason.
    expect((await running).status).toBe('cancelled');
    expect(WeftError.is(reason, 'WEFT_TASK_CANCELLED')).toBe(true);
    expect(await queued).toMatchObject({ status: 503, code: 'WEFT_TASK_CANCELLED' });
  });

  it('rejects dispatch with 503 while stopping [claim:trig-tick-503] [claim:task-dispatch-rejects-bad-input] [claim:obs-request-failed-generic] [claim:prod-shutdown-order] [claim:tsdoc-runtime-dispatch-503] [claim:index-dispatch-rejects] [claim:errors-5xx-message-generic]', async () => {
    const gate = deferred();
    const slow = recordingExecutor('reply', async () => {
      await gate.promise;
      return { success: true };
    });
    const { runtime } = await makeRuntime({
      plugins: [echoPlugin({ executors: [slow] })],
      responses: planner(['echo', 'reply']),
    });
    await runtime.start();
    const running = runtime.dispatch({ pluginId: 'echo', triggerId: 'manual', space: 'busy' });
    await waitFor(() => slow.calls.length === 1);
    const stopping = runtime.stop();
    expect(runtime.status).toBe('stopping');
    const error = await errorOf(
      runtime.dispatch({ pluginId: 'echo', triggerId: 'manual', space: 'busy' }),
    );
    // Made with `expose`, so a route that lets it through answers with this message.
    expect(error).toMatchObject({ status: 503, code: 'WEFT_SHUTTING_DOWN', expose: true });
    gate.resolve();
    await stopping;
    expect((await running).status).toBe('completed');
  });

  it('keeps the HTTP server open while the queue drains, answering a new dispatch 503 WEFT_SHUTTING_DOWN, and closes it before plugins shut down [claim:plugin-shutdown] [claim:trig-shutdown-close] [claim:prod-shutdown-order] [claim:task-stop-reverse-order] [claim:trig-shutdown-routes-503] [claim:wp-stop-reverse]', async () => {
    const gate = deferred();
    const order: string[] = [];
    const slow = recordingExecutor('reply', async () => {
      await gate.promise;
      order.push('task finished');
      return { success: true };
    });
    let url = '';
    let serverAnsweredAtShutdown: boolean | undefined;
    const plugin = echoPlugin({
      executors: [slow],
      triggers: [askRoute()],
      shutdown: async () => {
        order.push('plugin shutdown');
        serverAnsweredAtShutdown = await fetch(url).then(
          () => true,
          () => false,
        );
      },
    });
    const { runtime } = await makeRuntime({
      plugins: [plugin],
      responses: planner(['echo', 'reply']),
      // A grace far below the wait below: a server closed before the drain would cut the request.
      options: { pipelineReview: 'never', server: { port: 0, stopGraceMs: 100 } },
    });
    await runtime.start();
    url = `${runtime.server.url}/ask`;
    const answer = fetch(url, { method: 'POST' });
    await waitFor(() => slow.calls.length === 1);
    const stopped = runtime.stop();
    await new Promise((resolve) => setTimeout(resolve, 400));
    const late = await fetch(url, { method: 'POST' });
    expect(late.status).toBe(503);
    expect(((await late.json()) as { error: { code: string } }).error.code).toBe(
      'WEFT_SHUTTING_DOWN',
    );
    gate.resolve();
    const response = await answer;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'completed' });
    await stopped;
    // The plugin shut down once the queued task had finished and the server was closed.
    expect(order).toEqual(['task finished', 'plugin shutdown']);
    expect(serverAnsweredAtShutdown).toBe(false);
  });

  it('answers a queued request whose task a cancelling stop drops with the generic 503 message, code WEFT_TASK_CANCELLED, and logs it [claim:obs-request-failed-generic]', async () => {
    const slow = recordingExecutor('reply', () => new Promise(() => undefined));
    const plugin = echoPlugin({
      executors: [slow],
      triggers: [askRoute()],
    });
    const { logger, lines } = capturingLogger();
    const { runtime } = await makeRuntime({
      plugins: [plugin],
      responses: planner(['echo', 'reply']),
      options: {
        logger,
        shutdown: 'cancel',
        pipelineReview: 'never',
        server: { port: 0 },
      },
    });
    await runtime.start();
    const url = `${runtime.server.url}/ask`;
    const running = fetch(url, { method: 'POST' });
    await waitFor(() => slow.calls.length === 1);
    // Same space: it waits behind the first.
    const queued = fetch(url, { method: 'POST' });
    await waitFor(() => runtime.scheduler.pending === 1);
    await runtime.stop();
    const response = await queued;
    expect(response.status).toBe(503);
    const { error } = (await response.json()) as { error: Record<string, unknown> };
    expect(error).toMatchObject({
      code: 'WEFT_TASK_CANCELLED',
      message: 'Service Unavailable; the server log has the details under this requestId',
    });
    expect(lines.find((line) => line.msg === 'request failed')).toMatchObject({
      level: 50,
      status: 503,
      code: 'WEFT_TASK_CANCELLED',
      requestId: error.requestId,
    });
    expect(await (await running).json()).toEqual({ status: 'cancelled' });
  });

  it('closes the HTTP server [claim:trig-shutdown-close] [claim:prod-shutdown-order]', async () => {
    const plugin = echoPlugin({
      triggers: [pingRoute()],
    });
    const { runtime } = await makeRuntime({ plugins: [plugin], options: { server: { port: 0 } } });
    await runtime.start();
    const url = `${runtime.server.url}/ping`;
    expect(await (await fetch(url)).text()).toBe('pong');
    await runtime.stop();
    await expect(fetch(url)).rejects.toThrow();
  });

  it('rejects dispatch after stop with status 503', async () => {
    const { runtime } = await makeRuntime();
    await runtime.start();
    await runtime.stop();
    const error = await errorOf(
      runtime.dispatch({ pluginId: 'echo', triggerId: 'manual', space: 'late' }),
    );
    expect(error.status).toBe(503);
    expect(error.code).toBe('WEFT_SHUTTING_DOWN');
    expect(error.message).toContain('stopping');
  });

  it('stops a runtime that never started without running its queued tasks', async () => {
    const reply = recordingExecutor('reply');
    const { runtime } = await makeRuntime({
      plugins: [echoPlugin({ executors: [reply] })],
      responses: planner(['echo', 'reply']),
    });
    const queued = errorOf(
      runtime.dispatch({ pluginId: 'echo', triggerId: 'manual', space: 'never' }),
    );
    await runtime.stop();
    expect((await queued).status).toBe(503);
    expect(reply.calls).toHaveLength(0);
  });
});

describe('Runtime dispatch input checks', () => {
  it('rejects an invalid space id with status 400, naming it [claim:trig-space-rule] [claim:trig-space-400-row] [claim:task-dispatch-rejects-bad-input] [claim:sp-dispatch-400] [claim:tsdoc-runtime-dispatch-400] [claim:index-dispatch-rejects]', async () => {
    const { runtime } = await makeRuntime();
    const error = await errorOf(
      runtime.dispatch({ pluginId: 'echo', triggerId: 'manual', space: 'has space' }),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain('invalid space id "has space"');
  });

  it('answers 400 WEFT_INVALID_SPACE to an HTTP client whose request names an invalid space [claim:sp-dispatch-400] [claim:errors-400-coordinator-arrival]', async () => {
    const plugin = echoPlugin({
      triggers: [
        {
          type: 'route',
          id: 'post',
          method: 'POST',
          path: '/post',
          handler: async (request, response, runtime) => {
            const { space } = request.body as { space: string };
            const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'post', space });
            response.json({ status: task.status });
          },
        },
      ],
    });
    const { runtime, model } = await makeRuntime({
      plugins: [plugin],
      options: { server: { port: 0 } },
    });
    await runtime.start();
    const response = await fetch(`${runtime.server.url}/post`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ space: 'has space' }),
    });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('WEFT_INVALID_SPACE');
    expect(error.message).toContain('invalid space id "has space"');
    expect(model.requests).toHaveLength(0);
  });

  it('rejects an unknown plugin with status 400 and WEFT_UNKNOWN_PLUGIN, naming it [claim:trig-space-400-row] [claim:task-dispatch-rejects-bad-input] [claim:tsdoc-runtime-dispatch-400] [claim:index-dispatch-rejects] [claim:errors-400-coordinator-arrival]', async () => {
    const { runtime } = await makeRuntime();
    const error = await errorOf(
      runtime.dispatch({ pluginId: 'ghost', triggerId: 'manual', space: 's' }),
    );
    expect(error.status).toBe(400);
    expect(WeftError.is(error, 'WEFT_UNKNOWN_PLUGIN')).toBe(true);
    expect(error.message).toContain('no plugin "ghost"');
  });

  it('rejects an event whose data or metadata has no JSON form, or that no store could keep, with status 400 and WEFT_INVALID_EVENT, naming the path, and runs nothing [claim:task-dispatch-rejects-unstorable-event] [claim:errors-400-invalid-event] [claim:trig-space-400-row] [claim:index-dispatch-rejects]', async () => {
    const reply = recordingExecutor('reply');
    const memory = new InMemoryMemoryProvider();
    const { runtime } = await startedRuntime({
      memory,
      plugins: [echoPlugin({ executors: [reply] })],
      responses: planner(['echo', 'reply']),
    });
    const circular: Record<string, unknown> = { list: [1] };
    circular.self = circular;
    const event = { pluginId: 'echo', triggerId: 'message', space: 's' };
    const refused = [
      await errorOf(runtime.dispatch({ ...event, data: { count: 10n } })),
      await errorOf(runtime.dispatch({ ...event, data: circular })),
      await errorOf(runtime.accept({ ...event, metadata: { user: 7n } })),
      await errorOf(runtime.dispatch({ ...event, message: 'before\u0000after' })),
    ];
    for (const error of refused) {
      expect(WeftError.is(error, 'WEFT_INVALID_EVENT')).toBe(true);
      expect(error.status).toBe(400);
    }
    expect(refused.map((error) => error.message)).toEqual([
      expect.stringMatching(/^Runtime\.dispatch: .*BigInt at content\.data\.count/),
      expect.stringMatching(/^Runtime\.dispatch: .*content\.data\.self refers back/),
      expect.stringMatching(/^Runtime\.accept: .*"metadata" .*BigInt at metadata\.user/),
      expect.stringMatching(/^Runtime\.dispatch: .*NUL character/),
    ]);
    expect(reply.calls).toHaveLength(0);
    expect(await memory.query({})).toEqual([]);
    // A plain event still runs, and both of its memories are stored.
    const task = await runtime.dispatch({ ...event, data: { count: '10' } });
    expect(task.recorded).toEqual({ trigger: true, chain: true });
  });

  it('refuses a function or symbol as data, which JSON would leave out, and metadata that is not an object, with WEFT_INVALID_EVENT; null metadata counts as none [claim:errors-invalid-event-cause]', async () => {
    const reply = recordingExecutor('reply');
    const memory = new InMemoryMemoryProvider();
    const { runtime } = await startedRuntime({
      memory,
      plugins: [echoPlugin({ executors: [reply] })],
      responses: planner(['echo', 'reply']),
    });
    const event = { pluginId: 'echo', triggerId: 'message', space: 's' };
    const refused = [
      await errorOf(runtime.dispatch({ ...event, data: () => 1 })),
      await errorOf(runtime.dispatch({ ...event, data: Symbol('s') })),
      await errorOf(
        runtime.accept({ ...event, metadata: [1, 2] as unknown as Record<string, unknown> }),
      ),
      await errorOf(
        runtime.dispatch({ ...event, metadata: 'ab' as unknown as Record<string, unknown> }),
      ),
    ];
    for (const error of refused) {
      expect(WeftError.is(error, 'WEFT_INVALID_EVENT')).toBe(true);
      expect(error.status).toBe(400);
    }
    expect(refused.map((error) => error.message)).toEqual([
      expect.stringMatching(/^Runtime\.dispatch: .*"data" has no JSON form: it is a function/),
      expect.stringMatching(/^Runtime\.dispatch: .*"data" has no JSON form: it is a symbol/),
      expect.stringMatching(/^Runtime\.accept: .*"metadata" must be a plain object, got an array/),
      expect.stringMatching(
        /^Runtime\.dispatch: .*"metadata" must be a plain object, got a string/,
      ),
    ]);
    expect(reply.calls).toHaveLength(0);
    expect(await memory.query({})).toEqual([]);
    const task = await runtime.dispatch({
      ...event,
      metadata: null as unknown as Record<string, unknown>,
    });
    expect(task.recorded).toEqual({ trigger: true, chain: true });
  });

  it('refuses what is not an event, one without a string pluginId or triggerId, or one whose message is not text, with WEFT_INVALID_EVENT naming the field, rather than a TypeError [claim:errors-invalid-event-shape]', async () => {
    const reply = recordingExecutor('reply');
    const memory = new InMemoryMemoryProvider();
    const { runtime } = await startedRuntime({
      memory,
      plugins: [echoPlugin({ executors: [reply] })],
      responses: planner(['echo', 'reply']),
    });
    const dispatched = (event: unknown) => errorOf(runtime.dispatch(event as TriggerEvent));
    const refused = [
      await dispatched(undefined),
      await dispatched(null),
      await dispatched('echo'),
      await dispatched([]),
      await dispatched({ pluginId: 'echo', space: 's' }),
      await dispatched({ pluginId: 7, triggerId: 'message', space: 's' }),
      await errorOf(runtime.accept({ pluginId: 'echo', triggerId: null, space: 's' } as never)),
      await dispatched({ pluginId: 'echo', triggerId: 'message', space: 's', message: 5 }),
      await dispatched({ pluginId: 'echo', triggerId: 'message', space: 's', message: ['hi'] }),
    ];
    for (const error of refused) {
      expect(WeftError.is(error, 'WEFT_INVALID_EVENT')).toBe(true);
      expect(error.status).toBe(400);
    }
    expect(refused.map((error) => error.message)).toEqual([
      expect.stringMatching(
        /^Runtime\.dispatch: the event is malformed: it must be an object with "pluginId", "triggerId" and "space", got undefined\. \[WEFT_INVALID_EVENT\]/,
      ),
      expect.stringMatching(/^Runtime\.dispatch: .*must be an object .*, got null\./),
      expect.stringMatching(/^Runtime\.dispatch: .*must be an object .*, got a string\./),
      expect.stringMatching(/^Runtime\.dispatch: .*must be an object .*, got an array\./),
      expect.stringMatching(/^Runtime\.dispatch: .*its "triggerId" must be a string, got none\./),
      expect.stringMatching(
        /^Runtime\.dispatch: .*its "pluginId" must be a string, got a number\./,
      ),
      expect.stringMatching(/^Runtime\.accept: .*its "triggerId" must be a string, got null\./),
      expect.stringMatching(
        /^Runtime\.dispatch: .*its "message" must be a string when it is given, got a number\./,
      ),
      expect.stringMatching(/^Runtime\.dispatch: .*its "message" .*, got an array\./),
    ]);
    expect(reply.calls).toHaveLength(0);
    expect(await memory.query({})).toEqual([]);
  });
});

describe('Runtime signal handling', () => {
  const counts = () => [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];

  it('registers SIGINT and SIGTERM listeners with handleSignals once start() has finished, and removes them at stop [claim:trig-signals] [claim:gs-signals] [claim:prod-handle-signals] [claim:tsdoc-node-stop-signal-remove] [claim:prod-signals-after-start] [claim:tsdoc-options-handle-signals-after-start]', async () => {
    let duringStart: number[] = [];
    let duringStartTrigger: number[] = [];
    const { runtime } = await makeRuntime({
      plugins: [
        new TestPlugin('late', { init: () => void (duringStart = counts()) }),
        // A start trigger starts last of all, once the plugins and the HTTP server have started.
        echoPlugin({
          triggers: [
            {
              type: 'start',
              id: 'last',
              start: () => void (duringStartTrigger = counts()),
            },
          ],
        }),
      ],
      options: { handleSignals: true },
    });
    const before = counts();
    await runtime.start();
    // While the plugins start, a signal still meets Node's default, which ends the process.
    expect(duringStart).toEqual(before);
    expect(duringStartTrigger).toEqual(before);
    expect(counts()).toEqual([before[0]! + 1, before[1]! + 1]);
    await runtime.stop();
    expect(counts()).toEqual(before);
  });

  it('stops, then exits the process, when its SIGTERM listener fires [claim:trig-signals] [claim:task-graceful-stop-drains] [claim:prod-handle-signals] [claim:prod-sigterm-exit]', async () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    onTestFinished(() => exit.mockRestore());
    const { runtime } = await makeRuntime({ options: { handleSignals: true } });
    const before = new Set(process.listeners('SIGTERM'));
    await runtime.start();
    const added = process.listeners('SIGTERM').filter((listener) => !before.has(listener));
    expect(added).toHaveLength(1);
    // Call the runtime's listener directly rather than emitting a signal other listeners would see.
    (added[0] as (signal: NodeJS.Signals) => void)('SIGTERM');
    await waitFor(() => exit.mock.calls.length > 0);
    expect(runtime.status).toBe('stopped');
    expect(exit).toHaveBeenCalledWith(0);
    // The listeners a signal set off stay until the process ends, to ignore copies of it.
    expect(process.listeners('SIGTERM')).toEqual([...before, added[0]]);
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.off(signal, added[0] as (signal: NodeJS.Signals) => void);
    }
  });

  it('registers no listeners without handleSignals', async () => {
    const { runtime } = await makeRuntime({ options: { handleSignals: false } });
    const before = counts();
    await runtime.start();
    expect(counts()).toEqual(before);
  });
});
