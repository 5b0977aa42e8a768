import { spawn, type ChildProcess } from 'node:child_process';

/** How a program started by {@link runProgram} ended. */
export interface ProgramEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Every line the program wrote to stdout, in order. */
  lines: string[];
  /** When the last line arrived, and when the process exited, by this process's `performance.now()`. */
  lastLineAt: number;
  exitAt: number;
}

/**
 * Runs a TypeScript program of the repository as `node --conditions=weft-source --import tsx`,
 * hands each line it writes to stdout to `onLine` as it arrives (with the process, to signal it),
 * and resolves when it exits. The wait fails after `timeoutMs`; the process is killed when the
 * wait ends either way, so a test never leaves one behind.
 */
export async function runProgram(
  program: string,
  args: readonly string[],
  onLine: (line: string, child: ChildProcess) => void,
  timeoutMs = 30_000,
): Promise<ProgramEnd> {
  const child = spawn(
    process.execPath,
    ['--conditions=weft-source', '--import', 'tsx', program, ...args],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines: string[] = [];
  let partial = '';
  let lastLineAt = 0;
  try {
    return await new Promise<ProgramEnd>((resolve, reject) => {
      const deadline = setTimeout(
        () => reject(new Error(`${program}: no exit within ${timeoutMs} ms: ${lines.join('\n')}`)),
        timeoutMs,
      );
      child.stdout.on('data', (chunk: Buffer) => {
        const parts = (partial + chunk.toString()).split('\n');
        partial = parts.pop() ?? '';
        for (const line of parts) {
          lastLineAt = performance.now();
          lines.push(line);
          onLine(line, child);
        }
      });
      let exitAt = 0;
      child.once('exit', () => {
        exitAt = performance.now();
      });
      // 'close' comes after 'exit' once stdout is read to its end: no line is lost.
      child.once('close', (code, signal) => {
        clearTimeout(deadline);
        if (partial !== '') lines.push(partial);
        resolve({ code, signal, lines, lastLineAt, exitAt });
      });
    });
  } finally {
    child.kill('SIGKILL');
  }
}
