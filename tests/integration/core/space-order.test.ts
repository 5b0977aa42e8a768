/**
 * Where the order of a space's tasks holds without a coordinator: within one runtime, whose
 * scheduler runs a space's tasks one at a time, and not across two runtimes, even in one process
 * and over one memory store.
 */
import type { AgentTask, Runtime } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { InMemoryMemoryProvider } from '@weft/testing';
import { plan, recordingExecutor, startedRuntime, TestPlugin } from './fixtures.js';

/** A plugin whose `hold` step waits for `release()`, recording when each task is in it. */
function holdingPlugin(): { plugin: TestPlugin; inside: string[]; release: () => void } {
  const inside: string[] = [];
  let release = (): void => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const hold = recordingExecutor('hold', async (task) => {
    inside.push(String(task.trigger.message));
    await released;
    return { success: true };
  });
  return { plugin: new TestPlugin('work', { executors: [hold] }), inside, release };
}

const responses = { fallback: plan(['work', 'hold']) };

/** Resolves once `inside` holds `count` entries, or rejects after a second. */
async function untilInside(inside: string[], count: number): Promise<void> {
  for (let waited = 0; inside.length < count; waited += 5) {
    if (waited > 1_000) throw new Error(`only ${inside.length} of ${count} tasks got in`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Dispatches a task of plugin `work` to space `room`, its message `message`. */
function inRoom(runtime: Runtime, message: string): Promise<AgentTask> {
  return runtime.dispatch({ pluginId: 'work', triggerId: 't', space: 'room', message });
}

describe('the order of a space’s tasks without a coordinator', () => {
  it('holds within one runtime, and not across two runtimes in one process sharing a store [claim:cfg-coordinator-row]', async () => {
    const one = holdingPlugin();
    const { runtime } = await startedRuntime({ plugins: [one.plugin], responses });
    const first = inRoom(runtime, 'first');
    const second = inRoom(runtime, 'second');
    await untilInside(one.inside, 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The second task of the space waits for the first, although workers are free.
    expect(one.inside).toEqual(['first']);
    one.release();
    await Promise.all([first, second]);
    expect(one.inside).toEqual(['first', 'second']);

    const memory = new InMemoryMemoryProvider();
    const a = holdingPlugin();
    const b = holdingPlugin();
    const runtimeA = (await startedRuntime({ plugins: [a.plugin], responses, memory })).runtime;
    const runtimeB = (await startedRuntime({ plugins: [b.plugin], responses, memory })).runtime;
    const inA = inRoom(runtimeA, 'a');
    await untilInside(a.inside, 1);
    const inB = inRoom(runtimeB, 'b');
    // The other runtime's task of the same space runs while the first is still in its step.
    await untilInside(b.inside, 1);
    expect(a.inside).toEqual(['a']);
    a.release();
    b.release();
    expect((await Promise.all([inA, inB])).map((task) => task.status)).toEqual([
      'completed',
      'completed',
    ]);
  });
});
