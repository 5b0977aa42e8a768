/**
 * The lines a runtime logs: the default logger and level, the fields that tie a line to its task
 * and step, what a healthy task writes at info and at debug, and how a step's error is written.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Runtime, type SpaceCoordinator } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { capturingLogger, type LogLine } from '@weft-internal/test-support/capturing-logger';
import {
  deferred,
  echoPlugin,
  pingerPlugin,
  plan,
  recordingExecutor,
  stopAfterTest,
  TestPlugin,
} from './fixtures.js';

async function runOneTask(level: string, executorLogs = false) {
  const { logger, lines } = capturingLogger(level);
  const executor = recordingExecutor('note', (_task, context) => {
    if (executorLogs) context.logger.info('executor line');
    return { success: true };
  });
  const runtime = stopAfterTest(
    await Runtime.init({
      models: [new ScriptedModelProvider({ fallback: plan(['work', 'note']) })],
      memory: new InMemoryMemoryProvider(),
      plugins: [new TestPlugin('work', { executors: [executor] })],
      options: { logger },
    }),
  );
  await runtime.start();
  const started = lines.length;
  const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'obs-1' });
  const perTask = lines.slice(started);
  await runtime.stop();
  return { task, lines, perTask };
}

describe('the logs of a runtime and its tasks', () => {
  it('names the default logger weft and logs at info when WEFT_LOG_LEVEL is unset [claim:obs-default-logger] [claim:tsdoc-node-default-logger]', async () => {
    const previous = process.env.WEFT_LOG_LEVEL;
    delete process.env.WEFT_LOG_LEVEL;
    try {
      const runtime = await Runtime.init({
        models: [new ScriptedModelProvider()],
        memory: new InMemoryMemoryProvider(),
        plugins: [],
      });
      expect(runtime.logger.level).toBe('info');
      expect(runtime.logger.bindings()).toMatchObject({ name: 'weft' });
    } finally {
      if (previous !== undefined) process.env.WEFT_LOG_LEVEL = previous;
    }
  });

  it('writes JSON lines to standard output at info, named weft, when given no logger [claim:obs-default-logger] [claim:prod-json-stdout]', async () => {
    // An .mts file, so tsx runs it as ES module (top-level await) in this CommonJS folder.
    const program = path.join(__dirname, 'programs', 'default-logger.mts');
    const env = { ...process.env };
    delete env.WEFT_LOG_LEVEL;
    const child = spawn(
      process.execPath,
      ['--conditions=weft-source', '--import', 'tsx', program],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env,
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    try {
      const code = await new Promise<number | null>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no exit within 20 s: ${output}`)), 20_000);
        child.on('exit', (exitCode) => {
          clearTimeout(timer);
          resolve(exitCode);
        });
      });
      expect(code).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
    const lines = output
      .split('\n')
      .filter((text) => text.trim() !== '')
      .map((text) => JSON.parse(text) as LogLine);
    expect(lines.map((line) => line.msg)).toEqual(['runtime started', 'runtime stopped']);
    for (const line of lines) {
      expect(line).toMatchObject({ level: 30, name: 'weft', time: expect.any(Number) });
    }
  });

  it("tags task lines with taskId and space, and an executor's lines with pluginId, action and stepIndex [claim:obs-task-fields] [claim:obs-own-logger] [claim:wp-child-loggers] [claim:exec-logger-bound]", async () => {
    const { task, perTask } = await runOneTask('debug', true);
    const planned = perTask.find((line) => line.msg === 'pipeline planned');
    expect(planned).toMatchObject({ component: 'pipeline', taskId: task.id, space: 'obs-1' });
    const fromExecutor = perTask.find((line) => line.msg === 'executor line');
    expect(fromExecutor).toMatchObject({
      component: 'pipeline',
      taskId: task.id,
      space: 'obs-1',
      pluginId: 'work',
      action: 'note',
      stepIndex: 0,
    });
  });

  it('tags every line a task causes with its taskId, those of getObject and a throwing tracker too, and the task goes on [claim:obs-task-fields] [claim:obs-tracker-throws] [claim:obs-getobject-attempt] [claim:go-rejected-log]', async () => {
    const { logger, lines } = capturingLogger('debug');
    const throwing = () => {
      throw new Error('tracker broke');
    };
    // The first plan does not parse, so getObject logs a rejected answer and asks again.
    const model = new ScriptedModelProvider({
      responses: ['not json'],
      fallback: plan(['work', 'note']),
    });
    const runtime = stopAfterTest(
      await Runtime.init({
        models: [model],
        memory: new InMemoryMemoryProvider(),
        plugins: [new TestPlugin('work', { executors: [recordingExecutor('note')] })],
        options: {
          logger,
          pipelineReview: 'never',
          analytics: { trackers: [{ onModelCall: throwing, onStep: throwing }] },
        },
      }),
    );
    await runtime.start();
    const started = lines.length;
    const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'obs-3' });
    const perTask = lines.slice(started);
    expect(task.status).toBe('completed');
    expect(perTask.find((line) => line.msg === 'getObject answer rejected')).toMatchObject({
      component: 'models',
      level: 20,
      schemaName: 'Pipeline',
      // The first answer's.
      attempt: 0,
      // The problem the retry message quotes.
      error: expect.stringContaining('the answer is not JSON'),
    });
    // The logged error is the one the retry message quotes, whole.
    const rejected = perTask.find((line) => line.msg === 'getObject answer rejected');
    const retry = model.requests[1]?.at(-1);
    expect(retry?.role).toBe('user');
    expect(retry?.content).toContain(`:\n${String(rejected?.error)}\n\nAnswer again`);
    const trackerLines = perTask.filter((line) => line.msg === 'analytics tracker threw; ignored');
    expect(trackerLines.map((line) => line.hook).sort()).toEqual([
      'onModelCall',
      'onModelCall',
      'onStep',
    ]);
    expect(trackerLines[0]).toMatchObject({ component: 'analytics' });
    for (const line of perTask) {
      expect(line, String(line.msg)).toMatchObject({ taskId: task.id, space: 'obs-3' });
    }
  });

  it('writes no line for a healthy task at info, and its plan and its end at debug [claim:obs-quiet-at-info] [claim:obs-quiet-info-default] [claim:obs-log-level-env] [claim:prod-json-stdout]', async () => {
    const quiet = await runOneTask('info');
    expect(quiet.task.status).toBe('completed');
    expect(quiet.perTask).toEqual([]);
    expect(quiet.lines.map((line) => line.msg)).toContain('runtime started');

    const verbose = await runOneTask('debug');
    expect(verbose.perTask.map((line) => line.msg)).toEqual(
      expect.arrayContaining(['pipeline planned', 'task finished']),
    );
  });
});

describe('what a task writes into the log', () => {
  it("writes no trigger message into its lines at debug, though an error it logs quotes the start of a model's answer [claim:wp-logs-content]", async () => {
    const { logger, lines } = capturingLogger('debug');
    const runtime = stopAfterTest(
      await Runtime.init({
        // Never a plan: getObject rejects each answer, and the task fails quoting the last one.
        models: [new ScriptedModelProvider({ fallback: 'Sure, about model-words-42: no plan.' })],
        memory: new InMemoryMemoryProvider(),
        plugins: [echoPlugin()],
        options: { logger, pipelineReview: 'never' },
      }),
    );
    await runtime.start();
    const task = await runtime.dispatch({
      pluginId: 'echo',
      triggerId: 'message',
      space: 'private-1',
      message: 'user-words-17 are private',
    });
    await runtime.stop();
    expect(task.status).toBe('failed');
    const failed = lines.find((line) => line.msg === 'task failed');
    expect(failed).toMatchObject({ taskId: task.id, space: 'private-1' });
    const written = JSON.stringify(lines);
    expect(written).toContain('model-words-42');
    expect(written).not.toContain('user-words-17');
  });

  it("quotes the model's reasons for its steps, and the text an executor or a provider threw, never the trigger message [claim:wp-logs-content]", async () => {
    const { logger, lines } = capturingLogger('debug');
    const failing = recordingExecutor('reply', () => {
      throw new Error('executor-words-9 went wrong');
    });
    let planned = false;
    const runtime = stopAfterTest(
      await Runtime.init({
        models: [
          new ScriptedModelProvider({
            // The first task gets a plan; the second finds the provider failing.
            fallback: () => {
              if (planned) throw new Error('provider-words-5 unreachable');
              planned = true;
              return { steps: [{ pluginId: 'echo', action: 'reply', reason: 'model-reason-7' }] };
            },
          }),
        ],
        memory: new InMemoryMemoryProvider(),
        plugins: [new TestPlugin('echo', { executors: [failing] })],
        options: { logger, pipelineReview: 'never' },
      }),
    );
    await runtime.start();
    const event = { pluginId: 'echo', triggerId: 'message', message: 'user-words-17 are private' };
    const first = await runtime.dispatch({ ...event, space: 'private-2' });
    const second = await runtime.dispatch({ ...event, space: 'private-3' });
    await runtime.stop();
    expect([first.status, second.status]).toEqual(['failed', 'failed']);
    const line = (msg: string, taskId: string) =>
      JSON.stringify(
        lines.find((candidate) => candidate.msg === msg && candidate.taskId === taskId),
      );
    expect(line('pipeline planned', first.id)).toContain('model-reason-7');
    expect(line('step failed', first.id)).toContain('executor-words-9');
    // A failed step's warning carries the step, so its reason is logged at warn level too.
    expect(line('step failed', first.id)).toContain('model-reason-7');
    expect(line('task failed', second.id)).toContain('provider-words-5');
    expect(JSON.stringify(lines)).not.toContain('user-words-17');
  });

  it('quotes the failure an executor returns and the error a tracker throws, never the trigger message [claim:wp-logs-content]', async () => {
    const { logger, lines } = capturingLogger('debug');
    const refusing = recordingExecutor('reply', () => ({
      success: false,
      error: 'returned-words-3 refused',
    }));
    const runtime = stopAfterTest(
      await Runtime.init({
        models: [new ScriptedModelProvider({ fallback: plan(['echo', 'reply']) })],
        memory: new InMemoryMemoryProvider(),
        plugins: [new TestPlugin('echo', { executors: [refusing] })],
        options: {
          logger,
          pipelineReview: 'never',
          analytics: {
            trackers: [
              {
                onTaskStart: () => {
                  throw new Error('tracker-words-8 broke');
                },
              },
            ],
          },
        },
      }),
    );
    await runtime.start();
    const task = await runtime.dispatch({
      pluginId: 'echo',
      triggerId: 'message',
      space: 'private-4',
      message: 'user-words-17 are private',
    });
    await runtime.stop();
    expect(task.status).toBe('failed');
    const line = (msg: string) => JSON.stringify(lines.find((candidate) => candidate.msg === msg));
    expect(line('step failed')).toContain('returned-words-3');
    expect(line('analytics tracker threw; ignored')).toContain('tracker-words-8');
    expect(JSON.stringify(lines)).not.toContain('user-words-17');
  });
});

describe('the component of a line', () => {
  it('names the server and the memory manager in the component field of their lines, and what was not stored in kind [claim:obs-task-fields] [claim:obs-memory-kind]', async () => {
    const { logger, lines } = capturingLogger('info');
    const memory = new InMemoryMemoryProvider();
    memory.store = () => Promise.reject(new Error('disk full'));
    const runtime = stopAfterTest(
      await Runtime.init({
        models: [new ScriptedModelProvider({ fallback: plan(['echo', 'reply']) })],
        memory,
        plugins: [echoPlugin(), pingerPlugin()],
        options: { logger, server: { port: 0 } },
      }),
    );
    await runtime.start();
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'test', space: 'obs-4' });
    await runtime.stop();
    expect(lines.find((line) => line.msg === 'HTTP server listening')).toMatchObject({
      component: 'server',
    });
    expect(lines.filter((line) => line.msg === 'could not store memory')).toEqual([
      expect.objectContaining({ component: 'memory', taskId: task.id, kind: 'trigger' }),
      expect.objectContaining({ component: 'memory', taskId: task.id, kind: 'chain' }),
    ]);
  });
});

describe('a logger of your own', () => {
  it('receives the lines of the runtime and of every component, none going to the default logger [claim:obs-own-logger]', async () => {
    const { logger, lines } = capturingLogger('debug');
    const memory = new InMemoryMemoryProvider();
    memory.store = () => Promise.reject(new Error('disk full'));
    // A coordinator that keeps one ticket per task and fails to give a space back.
    let nextTicket = 1;
    const coordinator: SpaceCoordinator = {
      id: 'failing-release',
      init: async () => undefined,
      shutdown: async () => undefined,
      admit: async () => nextTicket++,
      acquire: async () => ({ ticket: nextTicket - 1, signal: new AbortController().signal }),
      release: () => Promise.reject(new Error('connection terminated')),
    };
    const runtime = stopAfterTest(
      await Runtime.init({
        // The first answer is no plan: getObject logs it, and asks again.
        models: [
          new ScriptedModelProvider({ responses: ['not json'], fallback: plan(['echo', 'reply']) }),
        ],
        memory,
        coordinator,
        plugins: [echoPlugin(), pingerPlugin()],
        options: {
          logger,
          server: { port: 0 },
          analytics: {
            trackers: [
              {
                onTaskStart: () => {
                  throw new Error('tracker broke');
                },
              },
            ],
          },
        },
      }),
    );
    await runtime.start();
    await runtime.dispatch({ pluginId: 'echo', triggerId: 'test', space: 'obs-own' });
    await runtime.stop();
    const components = new Set(lines.map((line) => line.component ?? 'none'));
    for (const component of [
      'none',
      'pipeline',
      'models',
      'memory',
      'coordinator',
      'server',
      'analytics',
    ]) {
      expect(components, component).toContain(component);
    }
  });
});

describe('the lines of a stop', () => {
  it('writes runtime stopped when stop() finishes, and when a failed start has rolled back with no stop() called [claim:obs-runtime-stopped-line]', async () => {
    const stopped = (lines: LogLine[]) => lines.filter((line) => line.msg === 'runtime stopped');

    const asked = capturingLogger('info');
    const running = await Runtime.init({
      models: [new ScriptedModelProvider()],
      memory: new InMemoryMemoryProvider(),
      plugins: [],
      options: { logger: asked.logger },
    });
    await running.start();
    expect(stopped(asked.lines)).toEqual([]);
    await running.stop();
    expect(stopped(asked.lines)).toEqual([expect.objectContaining({ level: 30 })]);

    const failed = capturingLogger('info');
    class Unreachable extends InMemoryMemoryProvider {
      override async init(): Promise<void> {
        throw new Error('connection refused');
      }
    }
    const runtime = await Runtime.init({
      models: [new ScriptedModelProvider()],
      memory: new Unreachable(),
      plugins: [],
      options: { logger: failed.logger },
    });
    await expect(runtime.start()).rejects.toMatchObject({ code: 'WEFT_START_FAILED' });
    expect(runtime.status).toBe('stopped');
    expect(failed.lines.map((line) => line.msg)).toEqual([
      'runtime failed to start; rolling back',
      'runtime stopped',
    ]);

    // stop() called while that rollback runs waits for it, and adds no second line.
    const rolling = capturingLogger('info');
    const shutdownBegun = deferred<void>();
    const shutdownEnds = deferred<void>();
    class SlowToShutDown extends InMemoryMemoryProvider {
      override async shutdown(): Promise<void> {
        shutdownBegun.resolve();
        await shutdownEnds.promise;
      }
    }
    const rollingBack = await Runtime.init({
      models: [new ScriptedModelProvider()],
      memory: new SlowToShutDown(),
      plugins: [
        new TestPlugin('broken', {
          init: () => {
            throw new Error('plugin broke');
          },
        }),
      ],
      options: { logger: rolling.logger },
    });
    const start = rollingBack.start();
    start.catch(() => undefined);
    await shutdownBegun.promise;
    const stop = rollingBack.stop();
    shutdownEnds.resolve();
    await stop;
    await expect(start).rejects.toMatchObject({ code: 'WEFT_START_FAILED' });
    expect(rolling.lines.map((line) => line.msg)).toEqual([
      'runtime failed to start; rolling back',
      'runtime stopped',
    ]);
  });
});

describe('step errors in the log', () => {
  it("logs a step's error as a string with its cause, keeping a message's line breaks [claim:obs-error-strings]", async () => {
    const { logger, lines } = capturingLogger('warn');
    const failing = recordingExecutor('fail', () => {
      throw new Error('first line\nsecond line', { cause: new Error('the cause') });
    });
    const runtime = stopAfterTest(
      await Runtime.init({
        models: [
          new ScriptedModelProvider({
            fallback: (_messages, request) =>
              request.purpose === 'review' ? { type: 'stop' } : plan(['work', 'fail']),
          }),
        ],
        memory: new InMemoryMemoryProvider(),
        plugins: [new TestPlugin('work', { executors: [failing] })],
        options: { logger },
      }),
    );
    await runtime.start();
    await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'obs-2' });
    const stepFailed = lines.find((line) => line.msg === 'step failed');
    expect(stepFailed?.error).toBe('first line\nsecond line (the cause)');
  });

  it('cuts a thrown value that is not an Error to 400 characters in the step failed line and the chain, and names a circular one without a prototype [claim:obs-error-thrown-cut] [claim:exec-throw-non-error-cut] [claim:philo-throw-non-error]', async () => {
    const { logger, lines } = capturingLogger('warn');
    const circular: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    circular.self = circular;
    const thrown: unknown[] = [{ blob: 'x'.repeat(1_000_000) }, 'y'.repeat(1_000_000), circular];
    const throwing = recordingExecutor('fail', () => {
      throw thrown.shift();
    });
    const runtime = stopAfterTest(
      await Runtime.init({
        models: [
          new ScriptedModelProvider({
            fallback: (_messages, request) =>
              request.purpose === 'review' ? { type: 'stop' } : plan(['work', 'fail']),
          }),
        ],
        memory: new InMemoryMemoryProvider(),
        plugins: [new TestPlugin('work', { executors: [throwing] })],
        options: { logger },
      }),
    );
    await runtime.start();
    const errors: string[] = [];
    for (const space of ['obs-big-1', 'obs-big-2', 'obs-big-3']) {
      const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space });
      expect(task.status).toBe('failed');
      const item = task.chain.find((entry) => entry.type === 'error');
      errors.push(String(item?.error));
    }
    const logged = lines.filter((line) => line.msg === 'step failed').map((line) => line.error);
    expect(logged).toEqual(errors);
    expect(errors[0]).toBe(`{"blob":"${'x'.repeat(388)}...`);
    expect(errors[1]).toBe(`${'y'.repeat(397)}...`);
    expect(errors[2]).toBe('a thrown value with no text form');
  });

  it("cuts a thrown Error's message of megabytes, and a returned error of that size, to 2,000 characters in the step failed line, without splitting an emoji [claim:obs-error-message-cut]", async () => {
    const { logger, lines } = capturingLogger('warn');
    // The emoji's two code units straddle the cut: the line keeps neither.
    const message = `${'z'.repeat(1_996)}\u{1F600}${'z'.repeat(3_000_000)}`;
    let calls = 0;
    // The first task's step throws the Error, the second's returns the same text as its error.
    const throwing = recordingExecutor('fail', () => {
      calls += 1;
      if (calls === 1) throw new Error(message);
      return { success: false, error: message };
    });
    const runtime = stopAfterTest(
      await Runtime.init({
        models: [
          new ScriptedModelProvider({
            fallback: (_messages, request) =>
              request.purpose === 'review' ? { type: 'stop' } : plan(['work', 'fail']),
          }),
        ],
        memory: new InMemoryMemoryProvider(),
        plugins: [new TestPlugin('work', { executors: [throwing] })],
        options: { logger },
      }),
    );
    await runtime.start();
    for (const space of ['obs-huge-1', 'obs-huge-2']) {
      const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space });
      expect(task.status).toBe('failed');
    }
    const logged = lines.filter((line) => line.msg === 'step failed').map((line) => line.error);
    expect(logged).toEqual([`${'z'.repeat(1_996)}...`, `${'z'.repeat(1_996)}...`]);
  });

  it('cuts the validation error of a getObject answer to 2,000 characters in the getObject answer rejected line [claim:obs-error-message-cut]', async () => {
    const { logger, lines } = capturingLogger('debug');
    // One wrong field per item, each under a key of 300 characters, which its "→ at" line quotes:
    // the problems getObject quotes run to 4,000 characters, past the log's 2,000.
    const key = (index: number) => `${'k'.repeat(300)}${index}`;
    const answer = {
      items: Object.fromEntries(Array.from({ length: 3_000 }, (_, index) => [key(index), 1])),
    };
    const runtime = stopAfterTest(
      await Runtime.init({
        models: [new ScriptedModelProvider({ responses: [answer, { items: {} }] })],
        memory: new InMemoryMemoryProvider(),
        plugins: [],
        options: { logger },
      }),
    );
    const result = await runtime.models.getObject({
      schema: z.object({ items: z.record(z.string(), z.string()) }),
      schemaName: 'Items',
      prompt: 'List the items.',
    });
    expect(result).toEqual({ items: {} });
    const rejected = lines.filter((line) => line.msg === 'getObject answer rejected');
    expect(rejected).toHaveLength(1);
    const error = String(rejected[0]?.error);
    expect(error).toHaveLength(2_000);
    expect(error).toMatch(/^✖ Invalid input: expected string, received number\n/);
    expect(error.endsWith('...')).toBe(true);
  });
});
