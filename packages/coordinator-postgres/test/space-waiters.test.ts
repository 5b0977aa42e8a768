/**
 * Release notifications name a space by a bounded key; waits are woken by that key, and by the
 * space id itself, which instances of an earlier version of the package send.
 */
import { describe, expect, it } from 'vitest';
import { releaseKey, SpaceWaiters } from '../src/space-waiters.js';

/** Resolves with how long the wait took, or with `Infinity` when it reached its own deadline. */
async function timed(waiters: SpaceWaiters, space: string, wake: () => void): Promise<number> {
  const started = Date.now();
  const waiting = waiters.wait(space, 5_000, []);
  wake();
  await waiting;
  const took = Date.now() - started;
  return took >= 5_000 ? Infinity : took;
}

describe('release keys', () => {
  it('are 64 hexadecimal characters whatever the length of the space id [claim:tsdoc-coordinator-release-key] [claim:coord-readme-release-hash]', () => {
    for (const space of ['a', 'room-1', 'é'.repeat(10_000)]) {
      expect(releaseKey(space)).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(releaseKey('room-1')).not.toBe(releaseKey('room-2'));
  });

  it('wake the waits of their space, as does the space id an earlier version sends, and no other [claim:tsdoc-coordinator-earlier-version-payload]', async () => {
    const waiters = new SpaceWaiters();
    expect(
      await timed(waiters, 'room-1', () => waiters.wakeNotified(releaseKey('room-1'))),
    ).toBeLessThan(1_000);
    expect(await timed(waiters, 'room-1', () => waiters.wakeNotified('room-1'))).toBeLessThan(
      1_000,
    );
    const other = waiters.wait('room-2', 300, []);
    const started = Date.now();
    waiters.wakeNotified(releaseKey('room-1'));
    await other;
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(waiters.size).toEqual({ waits: 0, listeners: 0 });
  });
});
