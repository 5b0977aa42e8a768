import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { compiledScript } from '@weft-internal/test-support/compiled-script';

/** A task as the agent process reads it. */
export interface SentTask {
  id: string;
  space: string;
  n: number;
  ms: number;
}

/** What became of a task sent to an agent process. */
export type SendOutcome = 'ack' | 'nack' | 'dead';

/** The agent's entry compiled for plain `node`: tests start several, some of them again. */
const AGENT = await compiledScript(fileURLToPath(new URL('./agent-process.ts', import.meta.url)));

/**
 * A work agent running in a child process (agent-process.ts), fed tasks on stdin. A task is
 * acknowledged when the process says PostgreSQL recorded it.
 */
export class AgentProcess {
  readonly child: ChildProcess;
  readonly acked = new Set<string>();
  /** The runtime's task id of each acknowledged task, by the sender's id. */
  readonly taskIds = new Map<string, string>();
  readonly done = new Set<string>();
  /** When (Date.now()) the process said it took each task of a dead process over, by task id. */
  readonly tookOver = new Map<string, number>();
  private readonly pending = new Map<string, (outcome: SendOutcome) => void>();
  private exited = false;
  readonly ready: Promise<void>;
  readonly exit: Promise<number | null>;

  constructor(env: { url: string; schema: string; instance: string; concurrency?: number }) {
    this.child = spawn(process.execPath, [AGENT], {
      env: {
        ...process.env,
        WEFT_PG_URL: env.url,
        WEFT_SCHEMA: env.schema,
        WEFT_INSTANCE: env.instance,
        WEFT_CONCURRENCY: String(env.concurrency ?? 4),
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let onReady: () => void = () => undefined;
    let onFailed: (error: Error) => void = () => undefined;
    this.ready = new Promise((resolve, reject) => {
      onReady = resolve;
      onFailed = reject;
    });
    this.exit = new Promise((resolve) => {
      this.child.once('exit', (code) => {
        this.exited = true;
        onFailed(new Error(`agent ${env.instance} exited with ${code} before it was ready`));
        for (const settle of this.pending.values()) settle('dead');
        this.pending.clear();
        resolve(code);
      });
    });
    // A task written while the process is being killed fails with EPIPE before its exit event;
    // the exit handler then settles it as 'dead', so only other write errors are failures.
    this.child.stdin?.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
    createInterface({ input: this.child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const message = JSON.parse(line) as {
        ready?: string;
        ack?: string;
        nack?: string;
        done?: string;
        tookOver?: string;
        taskId?: string;
      };
      if (message.ready !== undefined) onReady();
      if (message.done !== undefined) this.done.add(message.done);
      if (message.tookOver !== undefined) this.tookOver.set(message.tookOver, Date.now());
      const id = message.ack ?? message.nack;
      if (id === undefined) return;
      if (message.ack !== undefined) this.acked.add(id);
      if (message.taskId !== undefined) this.taskIds.set(id, message.taskId);
      this.pending.get(id)?.(message.ack !== undefined ? 'ack' : 'nack');
      this.pending.delete(id);
    });
  }

  /** Whether the process has exited. */
  get dead(): boolean {
    return this.exited;
  }

  /** Sends a task; resolves when it is acknowledged, refused, or the process died first. */
  send(task: SentTask, timeoutMs = 30_000): Promise<SendOutcome> {
    if (this.exited) return Promise.resolve('dead');
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no answer for task ${task.id} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.pending.set(task.id, (outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      });
      this.child.stdin?.write(`${JSON.stringify(task)}\n`);
    });
  }

  /** Closes stdin, so the agent stops gracefully, and waits for it to exit. */
  async stop(): Promise<void> {
    if (!this.exited) this.child.stdin?.end();
    await this.exit;
  }
}
