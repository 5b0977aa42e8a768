import { describe, expect, it } from 'vitest';
import { Scheduler } from '@weft/core';
import { deferred, waitFor } from './fixtures.js';

describe('Scheduler worker leases', () => {
  it('runs another task while one waits through its lease, and gives the waiter a worker before queued tasks [claim:sp-concurrency-working] [claim:prod-bulkhead-lend] [claim:tsdoc-scheduler-concurrency-workers] [claim:wp-workers-lent] [claim:cu-scheduler-row]', async () => {
    const scheduler = new Scheduler({ concurrency: 2 });
    scheduler.start();
    const events: string[] = [];
    const dependency = deferred();
    const holdB = deferred();
    const holdC = deferred();
    const a = scheduler.schedule('a', async (_signal, lease) => {
      events.push('a waits');
      await lease.away(dependency.promise);
      events.push('a resumes');
    });
    const b = scheduler.schedule('b', async () => {
      events.push('b runs');
      await holdB.promise;
    });
    const c = scheduler.schedule('c', async () => {
      events.push('c runs');
      await holdC.promise;
    });
    // Two workers: a (away) and b leave room for c.
    await waitFor(() => events.includes('c runs'));
    expect(scheduler.running).toBe(3);
    const d = scheduler.schedule('d', async () => {
      events.push('d runs');
    });
    dependency.resolve();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // b and c hold both workers: a's wait is over, but it has no worker yet, and d still waits.
    expect(events).not.toContain('a resumes');
    holdC.resolve();
    await c;
    await a;
    expect(events.indexOf('a resumes')).toBeLessThan(events.indexOf('d runs'));
    holdB.resolve();
    await Promise.all([b, d]);
    await scheduler.onIdle();
    expect(scheduler.running).toBe(0);
    await scheduler.stop();
  });

  it('counts no lent worker for a task that ended while it waited', async () => {
    const scheduler = new Scheduler({ concurrency: 1 });
    scheduler.start();
    const never = new Promise<void>(() => undefined);
    const lent = scheduler.schedule('a', async (_signal, lease) => {
      // What the task runner does at a deadline: stop waiting and end the task.
      await Promise.race([lease.away(never), new Promise((resolve) => setTimeout(resolve, 10))]);
      return 'ended while away';
    });
    expect(await lent).toBe('ended while away');
    // The one worker is free again: two tasks of other spaces run one after the other.
    const order: string[] = [];
    const hold = deferred();
    const first = scheduler.schedule('b', async () => {
      order.push('b');
      await hold.promise;
    });
    const second = scheduler.schedule('c', async () => {
      order.push('c');
    });
    await waitFor(() => order.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual(['b']);
    hold.resolve();
    await Promise.all([first, second]);
    expect(order).toEqual(['b', 'c']);
    await scheduler.stop();
  });
});
