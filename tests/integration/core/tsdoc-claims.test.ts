/**
 * Claims of the Runtime's and the task model's TSDoc (the API reference) that no other test
 * checked: in which order Runtime.dispatch checks an event, and that a task whose space a
 * coordinator loses ends `cancelled`. Each describe names the symbol whose comment it guards.
 */
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { Runtime, type SpaceCoordinator, type SpaceGrant, type TaskArrival } from '@weft/core';
import { describe, expect, it } from 'vitest';
import {
  errorOf,
  planner,
  recordingExecutor,
  silentLogger,
  startedRuntime,
  stopAfterTest,
  TestPlugin,
  waitFor,
} from './fixtures.js';

/** A coordinator of one instance that hands out grants at once and can lose a space on demand. */
function losingCoordinator() {
  let ticket = 0;
  const lost = new AbortController();
  const released: { ticket: number; outcome: string }[] = [];
  const coordinator: SpaceCoordinator = {
    id: 'losing',
    init: async () => undefined,
    shutdown: async () => undefined,
    admit: async (_arrival: TaskArrival) => (ticket += 1),
    acquire: async (): Promise<SpaceGrant> => ({ ticket, signal: lost.signal }),
    release: async (_space, released_ticket, outcome) => {
      released.push({ ticket: released_ticket, outcome });
    },
  };
  return { coordinator, lose: () => lost.abort(), released };
}

describe('TSDoc of Runtime.dispatch', () => {
  it('checks the space id before the plugin: both wrong gives WEFT_INVALID_SPACE, status 400 [claim:tsdoc-runtime-dispatch-400]', async () => {
    const { runtime } = await startedRuntime();
    const both = await errorOf(
      runtime.dispatch({ pluginId: 'nobody', triggerId: 't', space: '-bad id' }),
    );
    expect([both.code, both.status]).toEqual(['WEFT_INVALID_SPACE', 400]);
    const plugin = await errorOf(
      runtime.dispatch({ pluginId: 'nobody', triggerId: 't', space: 'ok' }),
    );
    expect([plugin.code, plugin.status]).toEqual(['WEFT_UNKNOWN_PLUGIN', 400]);
  });

  it('refuses a space id that does not start with a letter or digit, though every character is allowed [claim:errors-invalid-space-first-character]', async () => {
    const { runtime } = await startedRuntime();
    for (const space of ['_room', '.room', ':room']) {
      const error = await errorOf(runtime.dispatch({ pluginId: 'echo', triggerId: 't', space }));
      expect([error.code, error.status]).toEqual(['WEFT_INVALID_SPACE', 400]);
      expect(error.message).toContain('starting with a letter or digit');
    }
  });
});

describe('TSDoc of AgentTask.status and ExecutionContext.signal', () => {
  it('a task whose space the coordinator loses while it runs sees its signal aborted and ends cancelled [claim:task-status-cancelled] [claim:task-signal-space-lost] [claim:tsdoc-signal-lost-space] [claim:tsdoc-task-cancelled-lost-space]', async () => {
    const { coordinator, lose, released } = losingCoordinator();
    let aborted = false;
    const waits = recordingExecutor('wait', (_task, context) => {
      return new Promise((resolve) => {
        context.signal.addEventListener('abort', () => {
          aborted = true;
          resolve({ success: true });
        });
      });
    });
    const runtime = stopAfterTest(
      await Runtime.init({
        models: [new ScriptedModelProvider(planner(['tools', 'wait']))],
        memory: new InMemoryMemoryProvider(),
        plugins: [new TestPlugin('tools', { executors: [waits] })],
        coordinator,
        options: { logger: silentLogger },
      }),
    );
    await runtime.start();
    const task = runtime.dispatch({ pluginId: 'tools', triggerId: 'm', space: 'room' });
    await waitFor(() => waits.calls.length === 1);
    lose();
    const done = await task;
    expect(aborted).toBe(true);
    expect(done.status).toBe('cancelled');
    await waitFor(() => released.length === 1);
    expect(released).toEqual([{ ticket: 1, outcome: 'abandoned' }]);
  });
});

/** Stores trigger memories, and never answers for a chain memory, like a hung database. */
class ChainHangingMemory extends InMemoryMemoryProvider {
  override store(
    memory: Parameters<InMemoryMemoryProvider['store']>[0],
  ): ReturnType<InMemoryMemoryProvider['store']> {
    return memory.kind === 'chain' ? new Promise(() => undefined) : super.store(memory);
  }
}

describe('TSDoc of AgentTask.recorded', () => {
  it('a chain write that never answers leaves recorded.chain false and the task ends after 10 s [claim:tsdoc-chain-write-timeout] [claim:tsdoc-task-recorded-chain-timeout]', async () => {
    const reply = recordingExecutor('reply');
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('tools', { executors: [reply] })],
      responses: planner(['tools', 'reply']),
      memory: new ChainHangingMemory(),
    });
    const started = performance.now();
    const task = await runtime.dispatch({ pluginId: 'tools', triggerId: 'm', space: 'room' });
    const waited = performance.now() - started;
    expect(task.status).toBe('completed');
    expect(task.recorded).toEqual({ trigger: true, chain: false });
    // The runner's bound on the chain write (CHAIN_WRITE_TIMEOUT_MS), not the task's deadline.
    expect(waited).toBeGreaterThanOrEqual(9_900);
    expect(waited).toBeLessThan(15_000);
  }, 20_000);
});
