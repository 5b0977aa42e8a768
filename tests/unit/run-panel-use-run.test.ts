/**
 * The run's state behind a Run panel (src/components/RunPanel/use-run.ts): the transitions of
 * `runReducer` (idle, running, done, failed; a late event of an aborted or replaced run dropped)
 * and what the live region says when a run ends.
 */
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/components/RunPanel/run/definition';
import {
  IDLE,
  announcementOf,
  runReducer,
  type RunAction,
  type RunState,
} from '../../src/components/RunPanel/use-run';

const event = (atMs: number): RunEvent => ({
  atMs,
  kind: 'trigger',
  pluginId: 'assistant',
  triggerId: 'message',
  space: 'default',
});

const reduce = (actions: RunAction[], from: RunState = IDLE): RunState =>
  actions.reduce(runReducer, from);

describe('runReducer', () => {
  it('goes from idle to running, collects the events in order, and ends done [claim:contributing-run-panel-use-run]', () => {
    const running = reduce([{ type: 'start', run: 1 }]);
    expect(running).toEqual({ status: 'running', run: 1, events: [] });
    const done = reduce(
      [
        { type: 'event', run: 1, event: event(1) },
        { type: 'event', run: 1, event: event(2) },
        { type: 'end', run: 1, failed: false },
      ],
      running,
    );
    expect(done.status).toBe('done');
    expect(done.events.map((each) => each.atMs)).toEqual([1, 2]);
  });

  it('ends failed when the run itself threw, keeping what it reported', () => {
    const failed = reduce([
      { type: 'start', run: 1 },
      { type: 'event', run: 1, event: event(1) },
      { type: 'end', run: 1, failed: true },
    ]);
    expect(failed.status).toBe('failed');
    expect(failed.events).toHaveLength(1);
  });

  it('a new run starts with no events, and drops what the run it replaced still reports', () => {
    const state = reduce([
      { type: 'start', run: 1 },
      { type: 'event', run: 1, event: event(1) },
      { type: 'start', run: 2 },
      { type: 'event', run: 1, event: event(5) },
      { type: 'end', run: 1, failed: false },
    ]);
    expect(state).toEqual({ status: 'running', run: 2, events: [] });
  });

  it('an aborted run is idle and its later events and end change nothing [claim:contributing-run-panel-use-run]', () => {
    const state = reduce([
      { type: 'start', run: 1 },
      { type: 'event', run: 1, event: event(1) },
      { type: 'abort', run: 1 },
      { type: 'event', run: 1, event: event(2) },
      { type: 'end', run: 1, failed: false },
    ]);
    expect(state.status).toBe('idle');
    expect(state.events.map((each) => each.atMs)).toEqual([1]);
  });
});

describe('announcementOf', () => {
  it('says the status, the number of events and the reply [claim:contributing-run-panel-use-run]', () => {
    const events: RunEvent[] = [
      event(1),
      { atMs: 2, kind: 'status', status: 'completed', reply: 'Hi' },
    ];
    expect(announcementOf('completed', events)).toBe('Task completed after 2 events. Reply: Hi');
  });

  it('says that a step failed and what the review answered', () => {
    const events: RunEvent[] = [
      event(1),
      { atMs: 2, kind: 'step', pluginId: 'a', action: 'b', success: false, text: 'boom' },
      { atMs: 3, kind: 'review', decision: 'stop' },
      { atMs: 4, kind: 'status', status: 'failed' },
    ];
    expect(announcementOf('failed', events)).toBe(
      'Task failed after 4 events. A step failed; the review answered stop.',
    );
  });
});
