/**
 * What a crash loses and what it leaves, as "How Weft runs a task" says: a process killed with
 * a task running and one waiting, then a runtime started again on the same SQLite file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Plugin, Runtime, type Executor } from '@weft/core';
import { SqliteMemoryProvider } from '@weft/memory-sqlite';
import { ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const CHILD = path.join(root, 'tests/integration/crash-child.mts');

let child: ChildProcess | undefined;
let runtime: Runtime | undefined;
let dir = '';

afterEach(async () => {
  child?.kill('SIGKILL');
  child = undefined;
  await runtime?.stop();
  runtime = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Resolves once the child has printed `count` lines matching `pattern`, or rejects at the deadline. */
function linesOf(process: ChildProcess, timeoutMs: number) {
  const lines: string[] = [];
  let errors = '';
  process.stderr?.on('data', (chunk: Buffer) => {
    errors = `${errors}${chunk.toString('utf8')}`.slice(-2_000);
  });
  let buffered = '';
  process.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
  });
  return async (pattern: RegExp, count = 1): Promise<string[]> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = lines.filter((line) => pattern.test(line));
      if (found.length >= count) return found;
      if (Date.now() > deadline) {
        throw new Error(
          `crash-child: no ${count} line(s) ${pattern} in time; saw ${lines.join(' | ')}; stderr: ${errors}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
}

/** The same agent after the restart: its executor counts its runs and finishes. */
class CountingPlugin extends Plugin {
  readonly id = 'work';
  readonly description = 'Counts its runs.';
  runs = 0;
  override readonly executors: Executor[] = [
    {
      action: 'hang',
      description: 'Finishes at once this time.',
      execute: async () => {
        this.runs += 1;
        return { success: true, message: 'done' };
      },
    },
  ];
}

describe('a process that dies with tasks running and waiting', () => {
  it('loses them: the callers see the connection drop, and nothing runs them after a restart [claim:task-crash-loses-queue] [claim:task-crash-leaves-trigger-memory]', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'weft-crash-'));
    const file = path.join(dir, 'memory.db');
    child = spawn(process.execPath, ['--conditions=weft-source', '--import', 'tsx', CHILD, file], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const waitForLines = linesOf(child, 30_000);
    const [listening] = await waitForLines(/^listening /);
    const url = (listening ?? '').slice('listening '.length);

    // Two messages of one space: the first runs (and never ends), the second waits its turn.
    const post = () =>
      fetch(`${url}/run`, { method: 'POST', signal: AbortSignal.timeout(30_000) }).then(
        () => 'answered',
        (error: unknown) => (error instanceof Error ? error.name : 'rejected'),
      );
    const first = post();
    await waitForLines(/^started$/);
    const second = post();
    await waitForLines(/^dispatching$/, 2);

    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    // The connections drop with the process: no answer, and not the client's own timeout.
    expect(await first).toBe('TypeError');
    expect(await second).toBe('TypeError');

    const plugin = new CountingPlugin();
    const model = new ScriptedModelProvider({
      fallback: { steps: [{ pluginId: 'work', action: 'hang' }] },
    });
    runtime = await Runtime.init({
      models: [model],
      memory: new SqliteMemoryProvider({ path: file }),
      plugins: [plugin],
      options: { logger: pino({ level: 'silent' }) },
    });
    await runtime.start();
    // Nothing was queued anywhere but in the dead process: nothing runs the two tasks again.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(plugin.runs).toBe(0);
    expect(model.requests).toHaveLength(0);

    // The running task left its trigger memory and no chain; the waiting one left nothing.
    const stored = await runtime.memory.query({ space: 'crash', order: 'asc' });
    expect(stored.map((memory) => memory.kind)).toEqual(['trigger']);

    // The next task of the space is planned with it, as a task without an outcome.
    const next = await runtime.dispatch({
      pluginId: 'work',
      triggerId: 'run',
      space: 'crash',
      message: 'again',
    });
    expect(next.status).toBe('completed');
    expect(plugin.runs).toBe(1);
    const planning = model.requests[0]?.map((message) => message.content).join('\n') ?? '';
    expect(planning).toContain('trigger work/run: go');
    expect(planning).toContain('Outcome: not recorded');
  }, 60_000);
});
