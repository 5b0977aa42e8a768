/**
 * The Scheduler with a coordinator, through a gate the test controls: the grants, refusals and
 * releases a coordinator would give. The PostgreSQL coordinator's own tests run the same paths
 * against a real server (packages/coordinator-postgres/test).
 */
import { Scheduler, type SpaceCoordinator, type SpaceGrant } from '@weft/core';
import type { Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { BoundedCoordinator } from '../src/scheduler/bounded-coordinator.js';
import { deferred, errorOf, waitFor, type Deferred } from './fixtures.js';

/** A coordinator's acquire and release, answered by the test. */
function gate() {
  const asked: { space: string; answer: Deferred<SpaceGrant>; signal: AbortSignal }[] = [];
  const released: string[] = [];
  const lost = new AbortController();
  const coordinator: Pick<SpaceCoordinator, 'acquire' | 'release'> = {
    acquire: (space, signal) => {
      const answer = deferred<SpaceGrant>();
      asked.push({ space, answer, signal });
      signal.addEventListener('abort', () => answer.reject(signal.reason), { once: true });
      return answer.promise;
    },
    release: async (space, ticket, outcome) => {
      released.push(`${space}#${ticket} ${outcome}`);
    },
  };
  const grant = (index: number, ticket: number) =>
    asked[index]?.answer.resolve({ ticket, signal: lost.signal });
  return { coordinator, asked, released, grant, lost };
}

describe('Scheduler with a coordinator', () => {
  it('refuses a task without a ticket', async () => {
    const { coordinator } = gate();
    const scheduler = new Scheduler({ coordinator });
    scheduler.start();
    const error = await errorOf(scheduler.schedule('room', async () => 'x'));
    expect(error.code).toBe('WEFT_INVALID_ARGUMENT');
  });

  it('runs the granted ticket, releases it finished, then asks again for the next', async () => {
    const { coordinator, asked, released, grant } = gate();
    const scheduler = new Scheduler({ coordinator });
    scheduler.start();
    const order: string[] = [];
    const first = scheduler.schedule('room', async () => order.push('t1'), 1);
    const second = scheduler.schedule('room', async () => order.push('t2'), 2);
    await waitFor(() => asked.length === 1);
    grant(0, 1);
    await first;
    await waitFor(() => asked.length === 2);
    expect(released).toEqual(['room#1 finished']);
    grant(1, 2);
    await second;
    expect(order).toEqual(['t1', 't2']);
    await waitFor(() => released.length === 2);
  });

  it('holds no worker while a space waits for its grant', async () => {
    const { coordinator, asked, grant } = gate();
    const scheduler = new Scheduler({ concurrency: 1, coordinator });
    scheduler.start();
    void scheduler.schedule('waiting', async () => 'late', 1).catch(() => undefined);
    const free = scheduler.schedule('free', async () => 'served', 2);
    await waitFor(() => asked.length === 2);
    grant(1, 2);
    expect(await free).toBe('served');
    await scheduler.stop('cancel');
  });

  it('fails a space’s waiting tasks when the coordinator refuses it, and forgets their tickets', async () => {
    const { coordinator, asked, released } = gate();
    const scheduler = new Scheduler({ coordinator });
    scheduler.start();
    const first = scheduler.schedule('room', async () => 'x', 1);
    const second = scheduler.schedule('room', async () => 'y', 2);
    await waitFor(() => asked.length === 1);
    asked[0]?.answer.reject(new Error('timed out'));
    expect((await errorOf(first)).message).toBe('timed out');
    expect((await errorOf(second)).message).toBe('timed out');
    await waitFor(() => released.length === 2);
    expect(released.sort()).toEqual(['room#1 finished', 'room#2 finished']);
  });

  it('aborts a running task when the coordinator loses the space, and leaves it unfinished [claim:task-signal-space-lost]', async () => {
    const { coordinator, asked, released, grant, lost } = gate();
    const scheduler = new Scheduler({ coordinator });
    scheduler.start();
    let started = false;
    const running = scheduler.schedule(
      'room',
      (signal) =>
        new Promise((_, reject) => {
          started = true;
          signal.addEventListener('abort', () => reject(signal.reason));
        }),
      7,
    );
    await waitFor(() => asked.length === 1);
    grant(0, 7);
    await waitFor(() => started);
    lost.abort(new Error('lost the lock connection'));
    expect((await errorOf(running)).message).toBe('lost the lock connection');
    await waitFor(() => released.length === 1);
    expect(released).toEqual(['room#7 abandoned']);
  });

  it('releases finished a task that says it ran to its end, though the space was lost or the stop came before it returned', async () => {
    const { coordinator, asked, released, grant, lost } = gate();
    const scheduler = new Scheduler({ coordinator });
    scheduler.start();
    const storing = deferred<string>();
    const ranToEnd = (value: string) => value === 'all steps run';
    let started = 0;
    const store = () => {
      started += 1;
      return storing.promise;
    };
    const first = scheduler.schedule('room', store, 1, ranToEnd);
    const second = scheduler.schedule('hall', store, 2, ranToEnd);
    await waitFor(() => asked.length === 2);
    grant(0, 1);
    grant(1, 2);
    await waitFor(() => started === 2);
    lost.abort(new Error('lost the lock connection'));
    const stopped = scheduler.stop('cancel');
    storing.resolve('all steps run');
    expect([await first, await second]).toEqual(['all steps run', 'all steps run']);
    await stopped;
    expect(released.sort()).toEqual(['hall#2 finished', 'room#1 finished']);
  });
});

describe('Scheduler with a coordinator whose release hangs or fails', () => {
  it.each([
    {
      how: 'hangs',
      release: () => new Promise<void>(() => undefined),
      line: 'coordinator release did not end within coordinatorTimeoutMs; going on without it',
    },
    {
      how: 'fails',
      release: () => Promise.reject(new Error('connection reset')),
      line: 'coordinator release failed',
    },
  ])(
    'logs a release that $how, asks for the space again, and runs the next task once it is granted [claim:obs-coord-release-timeout] [claim:obs-coord-release-failed]',
    async ({ release, line }) => {
      const asked: { answer: Deferred<SpaceGrant> }[] = [];
      const lost = new AbortController();
      const hung: Pick<SpaceCoordinator, 'id' | 'admit' | 'acquire' | 'release'> = {
        id: 'hung-release',
        admit: async () => 1,
        acquire: () => {
          const answer = deferred<SpaceGrant>();
          asked.push({ answer });
          return answer.promise;
        },
        release,
      };
      const warnings: string[] = [];
      const logger = {
        warn: (_fields: object, message: string) => warnings.push(message),
      } as unknown as Logger;
      const bounded = new BoundedCoordinator(
        hung as SpaceCoordinator,
        { callMs: 50, acquireMs: 10_000 },
        logger,
      );
      const scheduler = new Scheduler({ coordinator: bounded });
      scheduler.start();
      const order: string[] = [];
      const first = scheduler.schedule('room', async () => order.push('t1'), 1);
      const second = scheduler.schedule('room', async () => order.push('t2'), 2);
      await waitFor(() => asked.length === 1);
      asked[0]?.answer.resolve({ ticket: 1, signal: lost.signal });
      await first;
      // The release never ends (after callMs) or fails: the runtime logs it and asks again.
      await waitFor(() => asked.length === 2);
      expect(warnings).toEqual([line]);
      // The next task does not run on its own: it waits for the coordinator's grant.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(order).toEqual(['t1']);
      asked[1]?.answer.resolve({ ticket: 2, signal: lost.signal });
      await second;
      expect(order).toEqual(['t1', 't2']);
    },
  );
});

describe('Scheduler with a coordinator and many spaces waiting for their grant', () => {
  it('waits for the grants of more than 10 spaces at once without a MaxListenersExceededWarning', async () => {
    const asked: string[] = [];
    const slow: Pick<SpaceCoordinator, 'id' | 'admit' | 'acquire' | 'release'> = {
      id: 'slow-grants',
      admit: async () => 1,
      // Grants nothing while the test looks: every space stays waiting for its grant.
      acquire: (space) => {
        asked.push(space);
        return new Promise<SpaceGrant>(() => undefined);
      },
      release: async () => undefined,
    };
    const bounded = new BoundedCoordinator(
      slow as SpaceCoordinator,
      { callMs: 1_000, acquireMs: 60_000 },
      { warn: () => undefined } as unknown as Logger,
    );
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(`${warning.name}: ${warning.message}`);
    };
    process.on('warning', onWarning);
    const scheduler = new Scheduler({ coordinator: bounded, concurrency: 4 });
    scheduler.start();
    try {
      const waiting = Array.from({ length: 20 }, (_, n) =>
        scheduler.schedule(`room-${n}`, async () => 'ran', n + 1).catch(() => undefined),
      );
      await waitFor(() => asked.length === 20);
      // Node emits its warning on a later turn of the event loop.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(warnings.filter((line) => line.startsWith('MaxListenersExceededWarning'))).toEqual([]);
      await scheduler.stop('cancel');
      await Promise.all(waiting);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
