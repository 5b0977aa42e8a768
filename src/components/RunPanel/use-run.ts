/**
 * The state of a Run panel's run, as a hook: whether it is idle, running, done or failed, the
 * events it has reported so far, and `start` and `abort`. What the live region says about the
 * run (running, its end, why it stopped) is said here too, so the panel only draws the state.
 *
 * The transitions are the pure `runReducer` (tests/unit/run-panel-use-run.test.ts): every action
 * carries the number of the run it belongs to, and an action of a run that is no longer the
 * current one (aborted, or replaced by a newer run) changes nothing.
 */
import { useEffect, useReducer, useRef } from 'react';
import type { PluginClass, RunDefinition, RunEvent, RunInput, RunSession } from './run/definition';

/**
 * The mark read by `npm run bench -- run-panel` when a run ends (its distance from the panel's
 * `weft:run-panel-loaded` mark is the run's time after the chunk loads).
 */
export const RUN_DONE_MARK = 'weft:run-panel-run-done';

/**
 * `idle` before the first run and after an abort; `done` when the run ended with its task,
 * whatever the task's status (the events say it); `failed` when the run itself stopped with an
 * error, before its task ended.
 */
export type RunStatus = 'idle' | 'running' | 'done' | 'failed';

export interface RunState {
  status: RunStatus;
  /** The number of the current run; 0 before the first. */
  run: number;
  /** The current run's events, in the order they happened. */
  events: readonly RunEvent[];
}

export type RunAction =
  | { type: 'start'; run: number }
  | { type: 'event'; run: number; event: RunEvent }
  | { type: 'end'; run: number; failed: boolean }
  | { type: 'abort'; run: number };

export const IDLE: RunState = { status: 'idle', run: 0, events: [] };

export function runReducer(state: RunState, action: RunAction): RunState {
  if (action.type === 'start') return { status: 'running', run: action.run, events: [] };
  // A late event or end of a run that was aborted or replaced is dropped.
  if (action.run !== state.run || state.status !== 'running') return state;
  switch (action.type) {
    case 'event':
      return { ...state, events: [...state.events, action.event] };
    case 'end':
      return { ...state, status: action.failed ? 'failed' : 'done' };
    case 'abort':
      return { ...state, status: 'idle' };
  }
}

/** What the live region says when a run ends: the status, the reply, a failed step and its review. */
export function announcementOf(status: string, events: readonly RunEvent[]): string {
  const parts = [`Task ${status} after ${events.length} events.`];
  const last = events.at(-1);
  if (last?.kind === 'status' && last.reply !== undefined) parts.push(`Reply: ${last.reply}`);
  if (events.some((event) => event.kind === 'step' && !event.success)) {
    const review = events.findLast((event) => event.kind === 'review');
    parts.push(
      review?.kind === 'review'
        ? `A step failed; the review answered ${review.decision}.`
        : 'A step failed.',
    );
  }
  return parts.join(' ');
}

export interface UseRunOptions {
  /** Says something through the shell's live region. */
  onAnnounce: (text: string) => void;
  /** Tells the shell whether a run is going on. */
  onBusy: (busy: boolean) => void;
}

export interface Run extends RunState {
  /** Runs `definition` with `input`, replacing the run going on if any. */
  start(input: RunInput, session?: RunSession, plugin?: PluginClass): void;
  /**
   * Stops listening to the current run: its later events and its end are dropped. The run's
   * runtime, in the page, still finishes its task and stops.
   */
  abort(): void;
}

export function useRun(definition: RunDefinition, options: UseRunOptions): Run {
  const [state, dispatch] = useReducer(runReducer, IDLE);
  // The latest run's number, read by callbacks of runs that may have been replaced since.
  const latest = useRef(0);
  const { onAnnounce, onBusy } = options;

  // A panel that leaves the page (another page, another example) drops what its run still reports.
  useEffect(
    () => () => {
      latest.current += 1;
    },
    [],
  );

  function start(input: RunInput, session?: RunSession, plugin?: PluginClass): void {
    const run = ++latest.current;
    const seen: RunEvent[] = [];
    dispatch({ type: 'start', run });
    onBusy(true);
    onAnnounce('Running…');
    definition
      .run(
        input,
        (event) => {
          seen.push(event);
          dispatch({ type: 'event', run, event });
        },
        session,
        plugin,
      )
      .then(
        (task) => {
          if (run !== latest.current) return;
          performance.mark(RUN_DONE_MARK);
          dispatch({ type: 'end', run, failed: false });
          onAnnounce(announcementOf(task.status, seen));
          onBusy(false);
        },
        (error: unknown) => {
          if (run !== latest.current) return;
          dispatch({ type: 'end', run, failed: true });
          onAnnounce(`The run stopped: ${error instanceof Error ? error.message : String(error)}`);
          onBusy(false);
        },
      );
  }

  function abort(): void {
    const run = latest.current;
    latest.current += 1;
    dispatch({ type: 'abort', run });
    onBusy(false);
  }

  return { ...state, start, abort };
}
