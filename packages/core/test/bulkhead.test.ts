import { describe, expect, it } from 'vitest';
import { Bulkhead, type WorkerLease } from '../src/bulkhead/bulkhead.js';
import { deferred, errorOf } from './fixtures.js';

/** A lease that records what it was asked to wait for. */
function recordingLease(): WorkerLease & { waits: number } {
  const lease = {
    waits: 0,
    away<T>(promise: Promise<T>): Promise<T> {
      lease.waits += 1;
      return promise;
    },
  };
  return lease;
}

describe('Bulkhead', () => {
  it('runs at most `limit` calls at once and hands freed slots to waiters in arrival order', async () => {
    const bulkhead = new Bulkhead('plugin:tools', 2, 5_000, 'options.bulkhead.maxConcurrent');
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const calls = gates.map((gate, index) =>
      bulkhead.run(async () => {
        started.push(index);
        await gate.promise;
        return index;
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    expect([bulkhead.running, bulkhead.waiting]).toEqual([2, 2]);
    gates[1]?.resolve();
    await calls[1];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(calls)).toEqual([0, 1, 2, 3]);
    expect([bulkhead.running, bulkhead.waiting]).toEqual([0, 0]);
  });

  it('fails a call that waits past maxWaitMs with WEFT_BULKHEAD_FULL naming the dependency and option, with no HTTP status [claim:prod-bulkhead-wait] [claim:errors-bulkhead-stays-in-task]', async () => {
    const bulkhead = new Bulkhead('model:slow', 1, 50, 'options.bulkhead.limits["model:slow"]');
    const hung = bulkhead.run(() => new Promise(() => undefined));
    const started = performance.now();
    const error = await errorOf(bulkhead.run(async () => 'never runs'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(error.code).toBe('WEFT_BULKHEAD_FULL');
    // It never leaves its task, so no server answers with it.
    expect(error.status).toBeUndefined();
    expect(error.message).toContain('model:slow already has 1 calls running');
    expect(error.message).toContain('within 50 ms');
    expect(error.message).toContain('options.bulkhead.limits["model:slow"]');
    expect(bulkhead.waiting).toBe(0);
    void hung;
  });

  it('fails a waiter that got no slot in time even when a call finished meanwhile, since the freed slot went to the call waiting longest [claim:errors-bulkhead-no-slot]', async () => {
    const bulkhead = new Bulkhead('model:busy', 1, 80, 'options.bulkhead.maxConcurrent');
    const first = deferred();
    const running = bulkhead.run(() => first.promise);
    // The oldest waiter takes the slot the first call frees, and holds it.
    const oldest = bulkhead.run(() => new Promise(() => undefined));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const latest = errorOf(bulkhead.run(async () => 'never runs'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    first.resolve();
    await running;
    const error = await latest;
    expect(error.code).toBe('WEFT_BULKHEAD_FULL');
    expect(error.message).toContain(
      'model:busy already has 1 calls running, and this call got no slot within 80 ms',
    );
    expect(error.message).not.toContain('none finished');
    expect([bulkhead.running, bulkhead.waiting]).toEqual([1, 0]);
    void oldest;
  });

  it('keeps the slot of a call whose caller’s signal aborted until the call settles, so the limit holds [claim:prod-bulkhead-slot-back]', async () => {
    const bulkhead = new Bulkhead(
      'plugin:deaf',
      1,
      5_000,
      'options.bulkhead.maxConcurrent',
      60_000,
    );
    const task = new AbortController();
    const answer = deferred<string>();
    const call = bulkhead.run(() => answer.promise, { signal: task.signal });
    expect(bulkhead.running).toBe(1);
    task.abort(new Error('task timed out'));
    // Still running in the dependency: the limit still counts it, and the next call waits.
    const next = bulkhead.run(async () => 'next call runs');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect([bulkhead.running, bulkhead.waiting]).toEqual([1, 1]);
    answer.resolve('late value');
    // The bulkhead passes the outcome on; dropping it is its caller's choice (the model manager's).
    expect(await call).toBe('late value');
    expect(await next).toBe('next call runs');
    expect([bulkhead.running, bulkhead.waiting]).toEqual([0, 0]);
  });

  it('gives the slot of a call that never settles back holdAfterAbortMs after its caller’s signal aborted [claim:prod-bulkhead-slot-back]', async () => {
    const bulkhead = new Bulkhead('model:hung', 1, 5_000, 'options.bulkhead.maxConcurrent', 100);
    const task = new AbortController();
    void bulkhead.run(() => new Promise(() => undefined), { signal: task.signal });
    const aborted = performance.now();
    task.abort(new Error('task timed out'));
    expect(bulkhead.running).toBe(1);
    expect(await bulkhead.run(async () => 'next call runs')).toBe('next call runs');
    expect(performance.now() - aborted).toBeGreaterThanOrEqual(95);
    expect(bulkhead.running).toBe(0);
  });

  it('passes on the error of a call that stops when its signal aborts, and frees its slot at once', async () => {
    const bulkhead = new Bulkhead(
      'model:polite',
      1,
      5_000,
      'options.bulkhead.maxConcurrent',
      60_000,
    );
    const task = new AbortController();
    const own = new Error('stopped as asked');
    const call = errorOf(
      bulkhead.run(
        () =>
          new Promise((_resolve, reject) => {
            task.signal.addEventListener('abort', () => reject(own), { once: true });
          }),
        { signal: task.signal },
      ),
    );
    task.abort(new Error('task timed out'));
    expect(await call).toBe(own);
    expect(bulkhead.running).toBe(0);
  });

  it('does not make a call whose signal has aborted already, and throws its reason', async () => {
    const bulkhead = new Bulkhead('memory:db', 1, 5_000, 'options.bulkhead.maxConcurrent');
    const reason = new Error('cancelled');
    let calls = 0;
    const call = bulkhead.run(
      async () => {
        calls += 1;
      },
      { signal: AbortSignal.abort(reason) },
    );
    expect(await errorOf(call)).toBe(reason);
    expect([calls, bulkhead.running]).toEqual([0, 0]);
  });

  it('ends a wait when the signal aborts, with the signal’s reason, and keeps no waiter', async () => {
    const bulkhead = new Bulkhead('memory:db', 1, 5_000, 'options.bulkhead.maxConcurrent');
    void bulkhead.run(() => new Promise(() => undefined));
    const task = new AbortController();
    const waiting = bulkhead.run(async () => 'never runs', { signal: task.signal });
    await new Promise((resolve) => setImmediate(resolve));
    expect(bulkhead.waiting).toBe(1);
    task.abort(new Error('cancelled'));
    expect((await errorOf(waiting)).message).toBe('cancelled');
    expect(bulkhead.waiting).toBe(0);
  });

  it('does not make a call whose task ended while it waited for its worker after the slot came [claim:task-waiting-call-not-made]', async () => {
    const bulkhead = new Bulkhead('plugin:tools', 1, 5_000, 'options.bulkhead.maxConcurrent');
    const first = deferred();
    const running = bulkhead.run(() => first.promise);
    // The worker comes back only when the test says so, as when every worker is busy.
    const workerBack = deferred();
    const lease: WorkerLease = {
      away: async (promise) => {
        const value = await promise;
        await workerBack.promise;
        return value;
      },
    };
    const task = new AbortController();
    let called = false;
    const waiting = bulkhead.run(
      async () => {
        called = true;
        return 'sent';
      },
      { signal: task.signal, lease },
    );
    first.resolve();
    await running;
    // The slot is this call's now; its task ends before its worker is back.
    expect([bulkhead.running, bulkhead.waiting]).toEqual([1, 0]);
    task.abort(new Error('task timed out'));
    workerBack.resolve();
    expect((await errorOf(waiting)).message).toBe('task timed out');
    expect(called).toBe(false);
    expect([bulkhead.running, bulkhead.waiting]).toEqual([0, 0]);
  });

  it('waits through the task’s lease only when it must wait', async () => {
    const bulkhead = new Bulkhead('plugin:tools', 1, 5_000, 'options.bulkhead.maxConcurrent');
    const lease = recordingLease();
    await bulkhead.run(async () => 'free slot', { lease });
    expect(lease.waits).toBe(0);
    const gate = deferred();
    const first = bulkhead.run(() => gate.promise, { lease });
    const second = bulkhead.run(async () => 'after the first', { lease });
    gate.resolve();
    await first;
    expect(await second).toBe('after the first');
    expect(lease.waits).toBe(1);
  });
});
