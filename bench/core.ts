/**
 * Benchmark of the Weft runtime's own costs, with a model that answers instantly:
 *
 * (a) framework overhead per pipeline step: tasks of 1 and of 21 no-op steps, (t21 - t1) / 20,
 *     next to the cost of calling the no-op executor directly (the baseline);
 * (b) tasks per second at scheduler concurrency 1 and 8;
 * (c) bytes the runtime retains per task: the heap after a warm-up of 2,000 tasks and after
 *     100,000 more (each after a forced GC, with no turn of the event loop in between, so
 *     objects that weak references keep alive until the turn ends are counted too), divided
 *     by 100,000; and the same per task with InMemoryMemoryProvider, whose growth is stored data.
 *
 * Run with `npm run bench -- core` (node --expose-gc). It prints figures and the goals and
 * always exits 0: timings depend on the machine, so nothing here is asserted.
 */
import { performance } from 'node:perf_hooks';
import {
  type MemoryProvider,
  Plugin,
  Runtime,
  type AgentTask,
  type ExecutionContext,
  type Executor,
} from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
// Keeps nothing, so the heap figure shows the framework alone.
import { DiscardingMemoryProvider } from '@weft-internal/test-support/discarding-memory';

const GOAL_STEP_MS = 1;
const GOAL_BYTES_PER_TASK = 200;
const WARM_UP_TASKS = 2_000;
const MEASURED_TASKS = 100_000;
const STORED_DATA_TASKS = 10_000;
const SPACES = 50;

const noop: Executor = {
  action: 'noop',
  description: 'Does nothing. For benchmarks only.',
  execute: async () => ({ success: true }),
};

class BenchPlugin extends Plugin {
  readonly id = 'bench';
  readonly description = 'No-op steps for benchmarks.';
  override readonly executors: readonly Executor[] = [noop];
}

/**
 * A zero-latency model: the planning prompt gets as many no-op steps as the trigger message
 * asks for (`steps=N`), every review prompt gets `continue`.
 */
function instantModel(): ScriptedModelProvider {
  return new ScriptedModelProvider({
    fallback: (messages, request) => {
      if (request.purpose === 'plan') {
        const prompt = messages.at(-1)?.content ?? '';
        const steps = Number(/steps=(\d+)/.exec(prompt)?.[1] ?? 1);
        return {
          steps: Array.from({ length: steps }, () => ({ pluginId: 'bench', action: 'noop' })),
        };
      }
      return { type: 'continue' };
    },
  });
}

/** The scripted model logs every request and its options: the test double's, not the framework's. */
function forgetRequests(model: ScriptedModelProvider): void {
  model.requests.length = 0;
  model.requestOptions.length = 0;
}

interface Bench {
  runtime: Runtime;
  model: ScriptedModelProvider;
}

async function boot(
  memory: MemoryProvider,
  options: { concurrency?: number; pipelineReview?: 'always' | 'never' } = {},
): Promise<Bench> {
  const model = instantModel();
  const runtime = await Runtime.init({
    models: [model],
    memory,
    plugins: [new BenchPlugin()],
    options: {
      maxSteps: 50,
      pipelineReview: options.pipelineReview ?? 'always',
      scheduler: { concurrency: options.concurrency ?? 4, maxQueueSize: 100_000 },
      logger: pino({ level: 'silent' }),
    },
  });
  await runtime.start();
  return { runtime, model };
}

function dispatch(bench: Bench, index: number, steps: number): Promise<AgentTask> {
  return bench.runtime.dispatch({
    pluginId: 'bench',
    triggerId: 'bench',
    space: `bench-${index % SPACES}`,
    message: `steps=${steps}`,
  });
}

/** Runs tasks one after another; returns milliseconds per task. */
async function sequential(bench: Bench, steps: number, count: number): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < count; index += 1) {
    const task = await dispatch(bench, index, steps);
    if (task.status !== 'completed' || task.steps.length !== steps) {
      throw new Error(
        `bench task ended ${task.status} after ${task.steps.length} steps: ${JSON.stringify(task.chain.at(-1))}`,
      );
    }
  }
  forgetRequests(bench.model);
  return (performance.now() - started) / count;
}

/** Runs tasks in batches dispatched all at once; returns the elapsed milliseconds. */
async function batched(bench: Bench, count: number, batch = 500, offset = 0): Promise<number> {
  const started = performance.now();
  for (let done = 0; done < count; done += batch) {
    const size = Math.min(batch, count - done);
    await Promise.all(
      Array.from({ length: size }, (_, index) => dispatch(bench, offset + done + index, 1)),
    );
    forgetRequests(bench.model);
  }
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Per-step overhead: median over rounds of (t21 - t1) / 20, each round on fresh runtimes. */
async function stepOverhead(
  pipelineReview: 'always' | 'never',
  rounds: number,
  tasks: number,
): Promise<{ t1: number; t21: number; perStep: number }> {
  const t1s: number[] = [];
  const t21s: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const [steps, into] of [
      [1, t1s],
      [21, t21s],
    ] as const) {
      const bench = await boot(new InMemoryMemoryProvider(), { pipelineReview });
      await sequential(bench, steps, Math.ceil(tasks / 4)); // warm-up
      await bench.runtime.memory.provider.clear();
      into.push(await sequential(bench, steps, tasks));
      await bench.runtime.stop();
    }
  }
  const t1 = median(t1s);
  const t21 = median(t21s);
  return { t1, t21, perStep: (t21 - t1) / 20 };
}

/** The baseline: awaiting the no-op executor directly, as a step does at the least. */
async function directCall(calls: number): Promise<number> {
  const task = {} as AgentTask;
  const context = {} as ExecutionContext;
  for (let index = 0; index < calls / 10; index += 1) await noop.execute(task, context);
  const started = performance.now();
  for (let index = 0; index < calls; index += 1) await noop.execute(task, context);
  return (performance.now() - started) / calls;
}

async function throughput(concurrency: number, tasks: number): Promise<number> {
  const bench = await boot(new InMemoryMemoryProvider(), { concurrency });
  await batched(bench, 200); // warm-up
  await bench.runtime.memory.provider.clear();
  const elapsed = await batched(bench, tasks, tasks);
  await bench.runtime.stop();
  return tasks / (elapsed / 1000);
}

function heapBytes(): number {
  const gc = (globalThis as { gc?: () => void }).gc as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

interface Retention {
  /** Heap after the warm-up, after half the measured tasks, and after all of them. */
  heapMb: [number, number, number];
  bytesPerTask: number;
}

/** What the heap keeps per task over `count` tasks after a warm-up; null without --expose-gc. */
async function retention(memory: MemoryProvider, count: number): Promise<Retention | null> {
  if (typeof (globalThis as { gc?: unknown }).gc !== 'function') return null;
  const bench = await boot(memory, { concurrency: 8 });
  await batched(bench, WARM_UP_TASKS);
  const before = heapBytes();
  await batched(bench, count / 2, 500, WARM_UP_TASKS);
  const half = heapBytes();
  await batched(bench, count / 2, 500, WARM_UP_TASKS + count / 2);
  const after = heapBytes();
  await bench.runtime.stop();
  const mb = (bytes: number) => bytes / 1024 / 1024;
  return { heapMb: [mb(before), mb(half), mb(after)], bytesPerTask: (after - before) / count };
}

function row(cells: string[], widths: number[]): string {
  return cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join('  ');
}

async function main(): Promise<void> {
  const rounds = Number(process.env.WEFT_BENCH_ROUNDS ?? 3);
  const tasks = Number(process.env.WEFT_BENCH_TASKS ?? 400);
  console.log(
    `Weft core benchmark: node ${process.version}, zero-latency scripted model, silent logger.`,
  );
  console.log(
    `(a) ${rounds} rounds of ${tasks} sequential tasks per step count, median; (b) 2,000 tasks over ${SPACES} spaces; (c) ${WARM_UP_TASKS.toLocaleString('en')} + ${MEASURED_TASKS.toLocaleString('en')} tasks over ${SPACES} spaces.\n`,
  );

  const baseline = await directCall(1_000_000);
  const always = await stepOverhead('always', rounds, tasks);
  const never = await stepOverhead('never', rounds, tasks);
  const tps1 = await throughput(1, 2_000);
  const tps8 = await throughput(8, 2_000);
  const discarded = await retention(new DiscardingMemoryProvider(), MEASURED_TASKS);
  const inMemory = await retention(new InMemoryMemoryProvider(), STORED_DATA_TASKS);

  const widths = [60, 24, 22];
  const lines: string[][] = [['Figure', 'Value', 'Goal']];
  const stepMet = always.perStep < GOAL_STEP_MS;
  lines.push(['(a) task of 1 step (plan + step + review)', `${always.t1.toFixed(3)} ms`, '']);
  lines.push(['(a) task of 21 steps', `${always.t21.toFixed(3)} ms`, '']);
  lines.push([
    '(a) overhead per step, review after each step (default)',
    `${always.perStep.toFixed(3)} ms`,
    `< ${GOAL_STEP_MS} ms: ${stepMet ? 'MET' : 'MISSED'}`,
  ]);
  lines.push([
    '(a) overhead per step, pipelineReview "never"',
    `${never.perStep.toFixed(3)} ms`,
    '',
  ]);
  lines.push([
    '(a) baseline: direct await of the no-op executor',
    `${(baseline * 1e6).toFixed(1)} ns`,
    '',
  ]);
  lines.push([
    '(a) ratio: overhead per step / baseline',
    `${Math.round(always.perStep / baseline).toLocaleString('en')} x`,
    '',
  ]);
  lines.push(['(b) tasks per second, concurrency 1', tps1.toFixed(0), '']);
  lines.push(['(b) tasks per second, concurrency 8', tps8.toFixed(0), '']);
  let heapMet: boolean | undefined;
  if (discarded && inMemory) {
    heapMet = discarded.bytesPerTask < GOAL_BYTES_PER_TASK;
    const [before, half, after] = discarded.heapMb;
    lines.push([
      '(c) heap after warm-up / +50,000 / +100,000 tasks',
      `${before.toFixed(1)} / ${half.toFixed(1)} / ${after.toFixed(1)} MB`,
      '',
    ]);
    lines.push([
      '(c) bytes retained per task, memory kept nowhere (framework)',
      `${discarded.bytesPerTask.toFixed(1)} B`,
      `< ${GOAL_BYTES_PER_TASK} B: ${heapMet ? 'MET' : 'MISSED'}`,
    ]);
    lines.push([
      `(c) bytes per task, InMemoryMemoryProvider, ${STORED_DATA_TASKS.toLocaleString('en')} tasks`,
      `${inMemory.bytesPerTask.toFixed(0)} B`,
      '(stored data)',
    ]);
  } else {
    lines.push(['(c) heap growth', 'not measured', 'run node with --expose-gc']);
  }
  for (const [index, line] of lines.entries()) {
    console.log(row(line, widths));
    if (index === 0)
      console.log(
        row(
          widths.map((width) => '-'.repeat(width)),
          widths,
        ),
      );
  }
  console.log(
    '\nNotes: the scripted model keeps a log of every request it saw and its options; the benchmark empties both after each batch, as they belong to the test double.' +
      ' The retained-bytes figure uses a memory provider that stores nothing, so it shows what the framework itself keeps;' +
      ' the tasks do no I/O, so the event loop does not turn between the two heap readings and anything held until it turns counts.' +
      ' The last figure keeps every trigger and chain memory (two per task) in InMemoryMemoryProvider, whose growth is the data stored, not a leak.',
  );
  console.log(
    `Goals: per-step overhead ${stepMet ? 'MET' : 'MISSED'}; bytes retained per task ${heapMet === undefined ? 'not measured' : heapMet ? 'MET' : 'MISSED'}.`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('benchmark failed:', error);
    process.exit(0);
  },
);
