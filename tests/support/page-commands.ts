/**
 * Runs a guide's shell commands as a reader would: read from the page's fenced blocks, in the
 * page's order, from the folder the page says, each long-running one in its own process group
 * so that "press Ctrl+C" can be played by a SIGINT to the group, as a terminal sends it.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/**
 * The contents of the fenced blocks of one `## heading` section of a Markdown page whose
 * language is among `languages` (the word after the opening fence), in the page's order.
 *
 * @param file - The page's path.
 * @param heading - The section's heading text, without the `## `.
 * @param languages - The block languages to take, such as `['json']`.
 * @returns Each block's text, without its fences.
 * @throws {Error} When the page has no such section.
 */
export function sectionBlocks(file: string, heading: string, languages: string[]): string[] {
  const markdown = readFileSync(file, 'utf8');
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`${file} has no section "## ${heading}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  // The language may be followed by a meta string (`bash npm2yarn`, `ts title=...`).
  return [...section.matchAll(/```(\w+)[^\n]*\n([\s\S]*?)```/g)]
    .filter((match) => languages.includes(match[1] ?? ''))
    .map((match) => match[2] ?? '');
}

/**
 * The commands of the ```bash and ```sh blocks in one `## heading` section of a Markdown page
 * (```bash npm2yarn too: the reader types its npm form), one per command: a line ending in `\`
 * is joined with the next, and comments are dropped.
 *
 * @param file - The page's path.
 * @param heading - The section's heading text, without the `## `.
 * @returns The commands, in the page's order.
 * @throws {Error} When the page has no such section.
 */
export function sectionCommands(file: string, heading: string): string[] {
  return sectionBlocks(file, heading, ['bash', 'sh']).flatMap((block) =>
    block
      .replace(/\\\n\s*/g, '')
      .split('\n')
      .map((line) => line.replace(/\s+#\s.*$/, '').trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
}

/**
 * The start of a JSON log line of pino's, with the pid of the process that wrote it. Global, for
 * `matchAll` only, which copies it: `exec` would move its `lastIndex`.
 */
const LOG_LINE_PID = /^\{"level":\d+,"time":\d+,"pid":(\d+),/gm;

/**
 * A command started in its own process group, with what it printed so far: a line of a page by
 * `sh -c`, as a terminal runs it, or an argument vector without a shell, as systemd runs a unit's
 * `ExecStart=`.
 */
export class StartedCommand {
  readonly child: ChildProcess;
  /** Its stdout and stderr, interleaved as they came. */
  output = '';
  /** Its stderr alone, where a program says why it cannot start. */
  stderr = '';
  /**
   * Resolves with the shell's exit code (or the signal that ended it) once its output is closed:
   * once the shell and every process it started that still writes there have ended. Node.js
   * reports the shell's exit before the last output is read, so the exit alone would lose it.
   */
  readonly exit: Promise<number | NodeJS.Signals | null>;
  private ended = false;

  constructor(
    command: string | readonly [string, ...string[]],
    options: { cwd: string; env: NodeJS.ProcessEnv },
  ) {
    const [file, ...args] = typeof command === 'string' ? ['sh', '-c', command] : command;
    this.child = spawn(file, args, { ...options, detached: true });
    const keep = (chunk: Buffer) => (this.output += chunk.toString());
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
      keep(chunk);
    });
    this.exit = new Promise((resolve) =>
      this.child.once('close', (code, signal) => {
        this.ended = true;
        resolve(code ?? signal);
      }),
    );
  }

  /** Waits until the output matches, or fails with the output after `ms` or when it has ended. */
  async waitFor(pattern: RegExp, ms: number): Promise<RegExpExecArray> {
    const deadline = Date.now() + ms;
    for (;;) {
      const match = pattern.exec(this.output);
      if (match) return match;
      if (Date.now() > deadline || this.ended) {
        throw new Error(`no ${pattern} within ${ms} ms; the command printed:\n${this.output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /**
   * The `pid` field of every JSON log line printed so far, which pino writes after the level and
   * the time: the processes the runtime logs from.
   */
  logPids(): number[] {
    return [...this.output.matchAll(LOG_LINE_PID)].map((match) => Number(match[1]));
  }

  /**
   * The process the runtime logs from, checked to be the one the page's line started: the shell's
   * own child (dash forks to run a line), or the shell itself when it has replaced itself with the
   * program (bash does so for a lone command); not a process that a wrapper such as `npx` or the
   * `tsx` CLI started under it, which could kill the runtime while it stops.
   *
   * @returns Its pid.
   * @throws {Error} When no process or more than one has logged, or the one that logs is another.
   */
  async loggingProcess(): Promise<number> {
    // pino writes its lines through libuv's thread pool, after a console.log written at the same
    // moment: the first may come a while after the program has said it is listening.
    await this.waitFor(new RegExp(LOG_LINE_PID.source, 'm'), 30_000);
    const loggers = [...new Set(this.logPids())];
    const [pid] = loggers;
    if (loggers.length !== 1 || pid === undefined) {
      throw new Error(`expected one process to log, not ${loggers.length}:\n${this.output}`);
    }
    const shell = this.child.pid as number;
    if (pid !== shell && (await parentPid(pid)) !== shell) {
      throw new Error(`process ${pid} logs, which the shell ${shell} did not start itself`);
    }
    return pid;
  }

  /** Sends `signal` to the whole group, as Ctrl+C (SIGINT) in a terminal does. */
  signal(signal: NodeJS.Signals): void {
    process.kill(-(this.child.pid as number), signal);
  }

  /** Resolves true once the command has ended (see {@link StartedCommand.exit}), or false after `ms`. */
  exited(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      this.exit.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
    ]).finally(() => clearTimeout(timer));
  }

  /** Ends the whole group: SIGTERM, then SIGKILL if it has not exited within 10 s. */
  async stop(): Promise<void> {
    if (this.ended) return;
    try {
      this.signal('SIGTERM');
    } catch {
      return;
    }
    if (!(await this.exited(10_000))) {
      try {
        this.signal('SIGKILL');
      } catch {
        // Gone between the two signals.
      }
    }
  }
}

/**
 * The parent of a running process, so that a test can tell whether the process that logs is the
 * one a command started or one that a wrapper (`npx`, the `tsx` CLI) started under it. Linux
 * answers from /proc; elsewhere POSIX `ps` answers, within 10 s.
 *
 * @param pid - A running process.
 * @returns Its parent's pid.
 * @throws {Error} When the process is not found.
 */
export async function parentPid(pid: number): Promise<number> {
  if (process.platform === 'linux') {
    // The command name in field 2 is in parentheses and may hold spaces; the parent follows the state.
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const match = /\) \S+ (\d+) /.exec(stat.slice(stat.lastIndexOf(')')));
    if (match) return Number(match[1]);
    throw new Error(`cannot read the parent from /proc/${pid}/stat: ${stat}`);
  }
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile('ps', ['-o', 'ppid=', '-p', String(pid)], { timeout: 10_000 }, (error, out) =>
      error ? reject(error) : resolve(out),
    ),
  );
  const parent = Number(stdout.trim());
  if (!Number.isInteger(parent) || stdout.trim() === '') throw new Error(`no process ${pid}`);
  return parent;
}
