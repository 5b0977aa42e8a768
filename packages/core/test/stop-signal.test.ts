/**
 * What the TSDoc of `onStopSignal` (src/platform/node.ts, behind `options.handleSignals`)
 * promises, shown on real child processes sent real signals: it stops on SIGINT or SIGTERM, logs
 * the signal and a failed stop, ends the process even while a timer would keep it alive, ignores
 * a forwarded copy of the signal, and the function it returns removes its listeners.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProgram } from '@weft-internal/test-support/program-run';

const PROGRAM = fileURLToPath(new URL('./programs/stop-on-signal.ts', import.meta.url));

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Every line the program wrote, `ready` included. */
  lines: string[];
  /** From `stopping` reaching the test to the exit, when the stop ran. */
  stopToExitMs?: number;
}

/**
 * Starts the program in `mode`, sends `signal` once it is ready (and `again`, if given, `afterMs`
 * after its stop has begun), and waits for it to end.
 */
async function signalled(
  mode: string,
  signal: NodeJS.Signals,
  again?: NodeJS.Signals,
  afterMs = 0,
): Promise<Ended> {
  let stoppingAt: number | undefined;
  const ended = await runProgram(PROGRAM, [mode], (line, child) => {
    if (line === 'ready') child.kill(signal);
    if (line === 'stopping') {
      stoppingAt = performance.now();
      if (again !== undefined) setTimeout(() => child.kill(again), afterMs);
    }
  });
  return {
    code: ended.code,
    signal: ended.signal,
    lines: ended.lines.filter(Boolean),
    stopToExitMs: stoppingAt === undefined ? undefined : ended.exitAt - stoppingAt,
  };
}

/** The JSON log lines among the program's output. */
function logLines(ended: Ended): Record<string, unknown>[] {
  return ended.lines
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('TSDoc of onStopSignal', { timeout: 40_000 }, () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'stops on %s, logs the signal, and ends the process a timer keeps alive with 0, 2 s after the stop [claim:tsdoc-node-stop-signal] [claim:tsdoc-node-stop-signal-logs] [claim:prod-exit-after-stop]',
    async (signal) => {
      const ended = await signalled('stops', signal);
      expect(ended).toMatchObject({ code: 0, signal: null });
      // The timer keeps the process alive until the 2 s deadline after the stop, and no longer:
      // the margin is for the exit to reach this process, not for a later deadline.
      expect(ended.stopToExitMs).toBeGreaterThan(1_500);
      expect(ended.stopToExitMs).toBeLessThan(3_500);
      expect(ended.lines).toContain('stopping');
      expect(logLines(ended)).toContainEqual(
        expect.objectContaining({ level: 30, signal, msg: 'signal received; stopping' }),
      );
    },
  );

  it('ends the process as soon as its stop is done when nothing else keeps it alive [claim:prod-exit-after-stop]', async () => {
    const ended = await signalled('idle', 'SIGTERM');
    expect(ended).toMatchObject({ code: 0, signal: null });
    // Well before the 2 s deadline that ends a process something keeps alive.
    expect(ended.stopToExitMs).toBeLessThan(1_500);
    expect(logLines(ended)).toContainEqual(
      expect.objectContaining({ signal: 'SIGTERM', msg: 'signal received; stopping' }),
    );
  });

  it("writes the stop's last log line before the process ends, also while the thread pool is busy [claim:tsdoc-node-stop-signal]", async () => {
    const ended = await signalled('busy-pool', 'SIGTERM');
    expect(ended.code).toBe(0);
    expect(logLines(ended).map((line) => line.msg)).toEqual([
      'signal received; stopping',
      'stop finished',
    ]);
  });

  it('keeps an exit code the program had set [claim:tsdoc-node-stop-signal]', async () => {
    const ended = await signalled('exit-code', 'SIGTERM');
    expect(ended.code).toBe(3);
    expect(ended.lines).toContain('stopping');
  });

  it('logs a failed stop and exits with 1 [claim:tsdoc-node-stop-signal] [claim:tsdoc-node-stop-signal-logs]', async () => {
    const ended = await signalled('fails', 'SIGTERM');
    expect(ended.code).toBe(1);
    expect(logLines(ended)).toContainEqual(
      expect.objectContaining({ level: 50, msg: 'stop failed', error: 'the stop broke' }),
    );
  });

  it('takes the same signal at once again for a copy a supervisor forwarded, and finishes the stop [claim:tsdoc-node-stop-signal-copy]', async () => {
    const ended = await signalled('slow', 'SIGINT', 'SIGINT');
    expect(ended).toMatchObject({ code: 0, signal: null });
    expect(ended.lines).toContain('stopped');
  });

  it('leaves a second signal of the same kind to Node, which ends the process during a hung stop [claim:tsdoc-node-stop-signal-once]', async () => {
    // Later than the window in which a repeat counts as a forwarded copy.
    const ended = await signalled('hangs', 'SIGINT', 'SIGINT', 1_500);
    expect(ended).toMatchObject({ code: null, signal: 'SIGINT' });
    expect(ended.lines).toContain('stopping');
  });

  it('returns a function that removes the listeners: the signal then ends the process unstopped [claim:tsdoc-node-stop-signal-remove]', async () => {
    const ended = await signalled('removed', 'SIGTERM');
    expect(ended).toMatchObject({ code: null, signal: 'SIGTERM' });
    expect(ended.lines).not.toContain('stopping');
  });
});
