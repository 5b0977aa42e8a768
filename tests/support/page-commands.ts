/**
 * Runs a guide's shell commands as a reader would: read from the page's fenced blocks, in the
 * page's order, from the folder the page says, each long-running one in its own process group
 * so that "press Ctrl+C" can be played by a SIGINT to the group, as a terminal sends it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

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

/** A command started by `sh -c` in its own process group, with what it printed so far. */
export class StartedCommand {
  readonly child: ChildProcess;
  output = '';
  /**
   * Resolves with the shell's exit code (or the signal that ended it) once its output is closed:
   * once the shell and every process it started that still writes there have ended. Node.js
   * reports the shell's exit before the last output is read, so the exit alone would lose it.
   */
  readonly exit: Promise<number | NodeJS.Signals | null>;
  private ended = false;

  constructor(command: string, options: { cwd: string; env: NodeJS.ProcessEnv }) {
    this.child = spawn('sh', ['-c', command], { ...options, detached: true });
    const keep = (chunk: Buffer) => (this.output += chunk.toString());
    this.child.stdout?.on('data', keep);
    this.child.stderr?.on('data', keep);
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
