/**
 * The reconnection's first attempt waits for the tasks the lost session gave up, within a limit,
 * so that a new session never shares a space's queue with them.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveOptions } from '../src/options.js';
import { Reconnector } from '../src/reconnector.js';
import type { Session } from '../src/session.js';

const options = resolveOptions({
  connectionString: 'postgres://localhost/weft',
  reconnectDelayMs: 500,
  logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
});

/** A host whose lost session still holds `pending` tasks, and that records when it is opened. */
function host(pending: () => number) {
  const opened: number[] = [];
  const started = Date.now();
  return {
    opened,
    open: async (): Promise<Session> => {
      opened.push(Date.now() - started);
      return {} as Session;
    },
    pending,
    adopt: () => true,
  };
}

describe('Reconnector', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('makes its first attempt once the given-up tasks have ended [claim:coord-readme-drain-wait] [claim:scaling-restart-drain-wait]', async () => {
    let pending = 2;
    const target = host(() => pending);
    const reconnector = new Reconnector(options, target);
    reconnector.start();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(target.opened).toEqual([]);
    pending = 0;
    await vi.advanceTimersByTimeAsync(100);
    expect(target.opened).toHaveLength(1);
    expect(target.opened[0]).toBeGreaterThanOrEqual(3_000);
    expect(target.opened[0]).toBeLessThanOrEqual(3_100);
    await reconnector.stop();
  });

  it('waits for them at most 15 s, then connects anyway [claim:coord-readme-drain-wait] [claim:scaling-restart-drain-wait]', async () => {
    const target = host(() => 1);
    const reconnector = new Reconnector(options, target);
    reconnector.start();
    await vi.advanceTimersByTimeAsync(14_900);
    expect(target.opened).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(target.opened).toHaveLength(1);
    await reconnector.stop();
  });
});
