import type { Logger } from 'pino';
import type { AgentTask } from '../tasks/task.js';
import type { PipelineStep } from '../pipeline/schemas.js';
import { errorLogFields } from '../util/logger.js';

/**
 * Hooks that observe a runtime. Implement the ones you need and pass the tracker in the
 * runtime's `options.analytics.trackers`, for example to forward figures to your own metrics
 * system. Hooks are called synchronously; an exception in one is logged and ignored, and so is
 * the rejection of an async hook's promise, which the runtime does not wait for.
 */
export interface AnalyticsTracker {
  /**
   * Called when a task starts running.
   *
   * @param task - The task.
   */
  onTaskStart?(task: AgentTask): void;
  /**
   * Called when a task has finished, whatever its status.
   *
   * @param task - The finished task; `task.status` tells how it ended.
   * @param durationMs - Wall-clock time the task ran.
   */
  onTaskEnd?(task: AgentTask, durationMs: number): void;
  /**
   * Called after each pipeline step.
   *
   * @param event - The task, the step, whether it succeeded, and how long it took.
   */
  onStep?(event: {
    task: AgentTask;
    step: PipelineStep;
    success: boolean;
    durationMs: number;
  }): void;
  /**
   * Called after each capability call to a model provider.
   *
   * @param event - Capability and provider, latency, outcome, and token usage when reported.
   */
  onModelCall?(event: {
    capability: string;
    providerId: string;
    durationMs: number;
    success: boolean;
    usage?: { inputTokens: number; outputTokens: number };
  }): void;
}

/** Figures an {@link AnalyticsManager} has collected since it was created or last reset. */
export interface AnalyticsData {
  /** When collection started. */
  since: Date;
  /**
   * Task counts by outcome, and `unrecorded`: finished tasks whose trigger or chain memory the
   * memory provider did not store (see {@link AgentTask.recorded}); a task cancelled before it
   * began, which stores nothing by design, is not among them.
   */
  tasks: {
    started: number;
    completed: number;
    failed: number;
    cancelled: number;
    unrecorded: number;
  };
  /** Pipeline steps run and how many of them failed. */
  steps: { executed: number; failed: number };
  /** Model calls, failures and latency, in total and per capability. */
  modelCalls: {
    total: number;
    failed: number;
    totalLatencyMs: number;
    averageLatencyMs: number;
    byCapability: Record<string, { calls: number; failed: number; totalLatencyMs: number }>;
  };
  /** Token counts, summed over the calls whose providers reported them. */
  tokens: { input: number; output: number };
}

/**
 * Collects {@link AnalyticsData} about tasks, steps and model calls, and forwards every event to
 * the trackers it was given. It is off unless enabled, and it never sends anything over the
 * network: read the figures with {@link AnalyticsManager.snapshot}.
 *
 * @example
 * ```ts
 * import { AnalyticsManager } from '@weft/core';
 *
 * const analytics = new AnalyticsManager({ enabled: true });
 * analytics.onModelCall({ capability: 'text-generation', providerId: 'local', durationMs: 120, success: true });
 * console.log(analytics.snapshot().modelCalls.averageLatencyMs); // 120
 * ```
 */
export class AnalyticsManager implements AnalyticsTracker {
  /** Whether events are collected and forwarded. */
  readonly enabled: boolean;
  private readonly trackers: AnalyticsTracker[];
  // Not readonly: a task's view reports with the task's logger, so its lines carry the task id.
  private logger: Logger | undefined;
  private data: AnalyticsData = emptyData();

  /**
   * Creates a manager, collecting only when `enabled`.
   *
   * @param options - `enabled` (default `false`), extra `trackers`, and a `logger` for
   * reporting trackers that throw.
   */
  constructor(
    options: { enabled?: boolean; trackers?: readonly AnalyticsTracker[]; logger?: Logger } = {},
  ) {
    this.enabled = options.enabled ?? false;
    this.trackers = [...(options.trackers ?? [])];
    this.logger = options.logger;
  }

  /**
   * A view for one task: it counts into this manager and forwards to the same trackers, and
   * adds the task's fields to its log lines, so a tracker that throws is reported with the
   * task's id.
   *
   * @param fields - The task's log fields, `taskId` and `space`.
   * @returns A manager sharing this one's figures and trackers.
   * @internal
   */
  forTask(fields: Record<string, string>): AnalyticsManager {
    const view = Object.create(this) as AnalyticsManager;
    view.logger = this.logger?.child(fields);
    return view;
  }

  /**
   * Adds a tracker that receives every later event.
   *
   * @param tracker - The tracker.
   */
  addTracker(tracker: AnalyticsTracker): void {
    this.trackers.push(tracker);
  }

  /** @inheritDoc AnalyticsTracker.onTaskStart */
  onTaskStart(task: AgentTask): void {
    if (!this.enabled) return;
    this.data.tasks.started += 1;
    this.forward('onTaskStart', (tracker) => tracker.onTaskStart?.(task));
  }

  /** @inheritDoc AnalyticsTracker.onTaskEnd */
  onTaskEnd(task: AgentTask, durationMs: number): void {
    this.endTask(task, durationMs, true);
  }

  /**
   * Ends a task that never ran here: its space was lost before it began, so it stored no memory
   * by design (another instance may run it). It counts by its status and reaches the trackers'
   * `onTaskEnd`, but not `unrecorded`, which tells of a memory store that failed or was late.
   *
   * @param task - The task, `cancelled`.
   * @param durationMs - Wall-clock time since the runner took it.
   * @internal
   */
  onTaskEndWithoutRun(task: AgentTask, durationMs: number): void {
    this.endTask(task, durationMs, false);
  }

  private endTask(task: AgentTask, durationMs: number, ran: boolean): void {
    if (!this.enabled) return;
    if (task.status === 'completed') this.data.tasks.completed += 1;
    else if (task.status === 'cancelled') this.data.tasks.cancelled += 1;
    else this.data.tasks.failed += 1;
    if (ran && (!task.recorded.trigger || !task.recorded.chain)) this.data.tasks.unrecorded += 1;
    this.forward('onTaskEnd', (tracker) => tracker.onTaskEnd?.(task, durationMs));
  }

  /** @inheritDoc AnalyticsTracker.onStep */
  onStep(event: {
    task: AgentTask;
    step: PipelineStep;
    success: boolean;
    durationMs: number;
  }): void {
    if (!this.enabled) return;
    this.data.steps.executed += 1;
    if (!event.success) this.data.steps.failed += 1;
    this.forward('onStep', (tracker) => tracker.onStep?.(event));
  }

  /** @inheritDoc AnalyticsTracker.onModelCall */
  onModelCall(event: {
    capability: string;
    providerId: string;
    durationMs: number;
    success: boolean;
    usage?: { inputTokens: number; outputTokens: number };
  }): void {
    if (!this.enabled) return;
    const calls = this.data.modelCalls;
    calls.total += 1;
    calls.totalLatencyMs += event.durationMs;
    calls.averageLatencyMs = calls.totalLatencyMs / calls.total;
    const perCapability = (calls.byCapability[event.capability] ??= {
      calls: 0,
      failed: 0,
      totalLatencyMs: 0,
    });
    perCapability.calls += 1;
    perCapability.totalLatencyMs += event.durationMs;
    if (!event.success) {
      calls.failed += 1;
      perCapability.failed += 1;
    }
    if (event.usage) {
      this.data.tokens.input += event.usage.inputTokens;
      this.data.tokens.output += event.usage.outputTokens;
    }
    this.forward('onModelCall', (tracker) => tracker.onModelCall?.(event));
  }

  /**
   * Returns a copy of the figures collected so far.
   *
   * @returns The data; later events do not change it.
   */
  snapshot(): AnalyticsData {
    return structuredClone(this.data);
  }

  /** Discards the figures collected so far and starts again from now. */
  reset(): void {
    this.data = emptyData();
  }

  /**
   * Calls one hook of every tracker. A hook that throws is logged; so is an async hook whose
   * promise rejects (it is not awaited), which would otherwise be an unhandled rejection, and
   * those end a Node.js process.
   */
  private forward(
    hook: keyof AnalyticsTracker,
    call: (tracker: AnalyticsTracker) => unknown,
  ): void {
    for (const tracker of this.trackers) {
      try {
        const returned = call(tracker);
        if (isThenable(returned)) {
          returned.then(undefined, (error: unknown) => this.reportThrow(hook, error));
        }
      } catch (error) {
        this.reportThrow(hook, error);
      }
    }
  }

  private reportThrow(hook: keyof AnalyticsTracker, error: unknown): void {
    this.logger?.warn({ hook, ...errorLogFields(error) }, 'analytics tracker threw; ignored');
  }
}

/** Whether a hook returned a promise (an async hook), whose rejection must be caught. */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function emptyData(): AnalyticsData {
  return {
    since: new Date(),
    tasks: { started: 0, completed: 0, failed: 0, cancelled: 0, unrecorded: 0 },
    steps: { executed: 0, failed: 0 },
    modelCalls: { total: 0, failed: 0, totalLatencyMs: 0, averageLatencyMs: 0, byCapability: {} },
    tokens: { input: 0, output: 0 },
  };
}
