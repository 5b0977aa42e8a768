/**
 * How long a runtime with `handleSignals` takes from SIGTERM to the end of its process when every
 * part its stop waits for hangs at once: the production guide's bound (`shutdownTimeoutMs` plus
 * about 5 seconds for the stop, 2 s more for the exit), which a supervisor's stop timeout is sized
 * from. Each phase is timed from the agent's own log, so a phase that grows fails the test even
 * when another one shrinks.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProgram } from '@weft-internal/test-support/program-run';

const PROGRAM = path.join(__dirname, 'programs', 'worst-stop-agent.mts');
/** The program's `shutdownTimeoutMs`. */
const SHUTDOWN_TIMEOUT_MS = 200;

interface LogLine {
  time: number;
  msg: string;
  component?: string;
}

interface Ended {
  code: number | null;
  lines: LogLine[];
  /** When the process ended, by this process's `performance.now()`. */
  exitAt: number;
}

/** Starts the program, sends it SIGTERM once it is ready, and waits at most 30 s for its end. */
async function signalled(): Promise<Ended> {
  const ended = await runProgram(PROGRAM, [], (line, child) => {
    if (line === 'ready') child.kill('SIGTERM');
  });
  return {
    code: ended.code,
    lines: ended.lines
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine),
    exitAt: ended.exitAt,
  };
}

describe('a signalled stop in which everything hangs', () => {
  it('stops within shutdownTimeoutMs plus 5 s, each phase waiting its own deadline, and ends the process 2 s later [claim:prod-abandon-after-grace] [claim:prod-exit-after-stop] [claim:cfg-signal-exit-code]', async () => {
    const ended = await signalled();
    expect(ended.code).toBe(0);
    const at = (msg: string, component?: string): number => {
      const line = ended.lines.find(
        (candidate) =>
          candidate.msg === msg && (component === undefined || candidate.component === component),
      );
      if (line === undefined) throw new Error(`no log line "${msg}" ${component ?? ''}`);
      return line.time;
    };
    const signalAt = at('signal received; stopping');
    const drained = at('drain timed out; cancelling remaining tasks') - signalAt;
    const cancelled = at('tasks did not end after cancellation; abandoning them') - signalAt;
    const serverStopped = at('HTTP server stopped') - signalAt;
    const stopped = at('runtime stopped') - signalAt;
    // Each phase waited for its full deadline: shutdownTimeoutMs, the 2 s given to cancelled
    // tasks, the server's 1 s stopGraceMs, and the 2 s all plugins and providers share.
    expect(drained).toBeGreaterThanOrEqual(SHUTDOWN_TIMEOUT_MS - 5);
    expect(cancelled - drained).toBeGreaterThanOrEqual(2_000 - 5);
    expect(serverStopped - cancelled).toBeGreaterThanOrEqual(1_000 - 5);
    expect(stopped - serverStopped).toBeGreaterThanOrEqual(2_000 - 5);
    expect(
      ended.lines.filter((line) => line.msg === 'shutdown timed out; going on without it'),
    ).toHaveLength(2);
    // And together no longer than shutdownTimeoutMs plus about 5 seconds.
    expect(stopped).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 5_000 + 800);
    // The executor's timer keeps the process alive: it ends 2 s after the stop's last line. The
    // line is timed by the agent's clock when written: on a loaded machine its output can reach
    // this process late, and the exit's wait would then look shorter than it was.
    const lastLineWritten = Math.max(...ended.lines.map((line) => line.time));
    const exitAfterStop = performance.timeOrigin + ended.exitAt - lastLineWritten;
    expect(exitAfterStop).toBeGreaterThan(1_500);
    expect(exitAfterStop).toBeLessThan(3_500);
  }, 40_000);
});
