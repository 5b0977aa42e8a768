/**
 * Reliability probe: drives the probe agent (agent.ts) through the faults issue reports found
 * and prints what happened. It measures and prints; it asserts nothing about time, so run it by
 * hand (`npm run bench -- probe`) and compare figures across changes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteMemoryProvider } from '@weft/memory-sqlite';
import { createProbeAgent } from './agent.js';

interface Answer {
  status: number | 'error';
  id: string;
  taskId?: string;
}

const dir = mkdtempSync(join(tmpdir(), 'weft-probe-'));
const rows: [string, string][] = [];
const report = (name: string, figures: string) => {
  rows.push([name, figures]);
  process.stdout.write(`${name}: ${figures}\n`);
};

async function post(url: string, body: object, timeoutMs = 30_000): Promise<Answer> {
  const id = (body as { id: string }).id;
  try {
    const response = await fetch(`${url}/probe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const json = (await response.json()) as { taskId?: string };
    return { status: response.status, id, taskId: json.taskId };
  } catch {
    return { status: 'error', id };
  }
}

async function memoriesOf(
  dbPath: string,
): Promise<{ kind: string; taskId?: string; space: string }[]> {
  const store = new SqliteMemoryProvider({ path: dbPath });
  await store.init();
  try {
    return await store.query({ order: 'asc', limit: 1_000_000 });
  } finally {
    await store.shutdown();
  }
}

const count = (answers: Answer[], status: Answer['status']) =>
  answers.filter((answer) => answer.status === status).length;

async function manySpaces(): Promise<void> {
  const dbPath = join(dir, 'spaces.db');
  const runtime = await createProbeAgent({ dbPath });
  await runtime.start();
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: 300 }, (_, index) =>
      post(runtime.server.url!, { space: `space-${index}`, id: `r${index}`, delayMs: 5 }),
    ),
  );
  const elapsed = performance.now() - started;
  await runtime.stop();
  const memories = await memoriesOf(dbPath);
  const chains = memories.filter((memory) => memory.kind === 'chain');
  const perSpace = new Map<string, number>();
  for (const chain of chains) perSpace.set(chain.space, (perSpace.get(chain.space) ?? 0) + 1);
  const answeredIds = new Set(answers.filter((a) => a.status === 200).map((a) => a.id));
  report(
    '300 spaces at once',
    `${count(answers, 200)}/300 answered 200 in ${elapsed.toFixed(0)} ms; ${300 - answeredIds.size} lost; ` +
      `${[...perSpace.values()].filter((n) => n > 1).length} spaces with duplicate tasks; ` +
      `${chains.length} chain memories stored`,
  );
}

async function queueFull(): Promise<void> {
  const runtime = await createProbeAgent({
    dbPath: join(dir, 'queue.db'),
    concurrency: 1,
    maxQueueSize: 10,
  });
  await runtime.start();
  const url = runtime.server.url!;
  const burst = await Promise.all(
    Array.from({ length: 100 }, (_, index) =>
      post(url, { space: `q${index % 5}`, id: `b${index}`, delayMs: 20 }),
    ),
  );
  const after: Answer[] = [];
  for (let index = 0; index < 10; index += 1) {
    after.push(await post(url, { space: 'after', id: `a${index}` }));
  }
  await runtime.stop();
  report(
    'queue full (concurrency 1, maxQueueSize 10, burst of 100)',
    `${count(burst, 200)} answered 200, ${count(burst, 503)} refused 503, ${count(burst, 'error')} errors; ` +
      `afterwards ${count(after, 200)}/10 answered 200`,
  );
}

function startAgentProcess(dbPath: string): Promise<{ child: ChildProcess; url: string }> {
  const program = fileURLToPath(new URL('./agent.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    ['--conditions=weft-source', '--import', 'tsx', program, dbPath],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the agent did not start in 30 s')), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening (\S+)/.exec(chunk.toString());
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]! });
      }
    });
  });
}

function exited(child: ChildProcess, timeoutMs: number): Promise<number | null | 'timeout'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('timeout'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** Sends requests from `workers` loops until `until` resolves; returns every answer. */
async function load(url: string, prefix: string, workers: number, until: Promise<unknown>) {
  let stop = false;
  void until.then(() => (stop = true));
  const answers: Answer[] = [];
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let index = 0; !stop; index += 1) {
        answers.push(
          await post(
            url,
            { space: `${prefix}-${worker}`, id: `${prefix}-${worker}-${index}` },
            10_000,
          ),
        );
      }
    }),
  );
  return answers;
}

async function sigkill(): Promise<void> {
  const dbPath = join(dir, 'kill.db');
  const { child, url } = await startAgentProcess(dbPath);
  const answers = await load(
    url,
    'k',
    8,
    new Promise((resolve) => setTimeout(resolve, 1_500)).then(() => child.kill('SIGKILL')),
  );
  await exited(child, 5_000);
  const acknowledged = answers.filter((answer) => answer.status === 200);
  const stored = new Set(
    (await memoriesOf(dbPath)).filter((m) => m.kind === 'chain').map((m) => m.taskId),
  );
  const missing = acknowledged.filter((answer) => !stored.has(answer.taskId));
  report(
    'SIGKILL under load (SQLite)',
    `${acknowledged.length} tasks acknowledged before the kill; ${missing.length} of them missing from the database after reopening`,
  );
}

async function sigterm(): Promise<void> {
  const dbPath = join(dir, 'term.db');
  const { child, url } = await startAgentProcess(dbPath);
  let sentAt = 0;
  const exit = new Promise((resolve) => setTimeout(resolve, 1_000)).then(() => {
    sentAt = performance.now();
    child.kill('SIGTERM');
    return exited(child, 30_000);
  });
  const answers = await load(url, 't', 16, exit);
  const code = await exit;
  const exitMs = performance.now() - sentAt;
  const acknowledged = answers.filter((answer) => answer.status === 200);
  const stored = new Set(
    (await memoriesOf(dbPath)).filter((m) => m.kind === 'chain').map((m) => m.taskId),
  );
  report(
    'SIGTERM under load (16 clients, shutdownTimeoutMs 5000)',
    `exit code ${String(code)} after ${exitMs.toFixed(0)} ms; ${acknowledged.length} answered 200, ` +
      `${count(answers, 503)} refused 503, ${count(answers, 'error')} connection errors; ` +
      `${acknowledged.filter((a) => !stored.has(a.taskId)).length} acknowledged tasks missing from the database`,
  );
}

async function stopWithHungExecutor(): Promise<void> {
  const runtime = await createProbeAgent({
    dbPath: join(dir, 'hung.db'),
    shutdownTimeoutMs: 1_000,
  });
  await runtime.start();
  const pending = post(runtime.server.url!, { space: 'h', id: 'hung', hang: true }, 20_000);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const started = performance.now();
  await runtime.stop();
  report(
    'stop() with an executor that ignores its signal (shutdownTimeoutMs 1000)',
    `resolved in ${(performance.now() - started).toFixed(0)} ms; the client got ${String((await pending).status)}`,
  );
}

async function stopWithDrippingClient(): Promise<void> {
  const runtime = await createProbeAgent({ dbPath: join(dir, 'drip.db') });
  await runtime.start();
  const socket = connect(runtime.server.port!, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write('POST /probe HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  const drip = setInterval(() => socket.write(`X-Drip-${Date.now()}: 1\r\n`), 500);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const started = performance.now();
  const outcome = await Promise.race([
    runtime.stop().then(() => 'resolved'),
    new Promise((resolve) => setTimeout(() => resolve('still pending after 30 s'), 30_000)),
  ]);
  clearInterval(drip);
  socket.destroy();
  report(
    'stop() while a client drips one header line every 500 ms',
    `${String(outcome)} in ${(performance.now() - started).toFixed(0)} ms`,
  );
}

try {
  await manySpaces();
  await queueFull();
  await sigkill();
  await sigterm();
  await stopWithHungExecutor();
  await stopWithDrippingClient();
  process.stdout.write('\n| probe | result |\n| --- | --- |\n');
  for (const [name, figures] of rows) process.stdout.write(`| ${name} | ${figures} |\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
