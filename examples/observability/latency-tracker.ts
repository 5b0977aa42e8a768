import type { AgentTask, AnalyticsTracker } from '@weft/core';

/** Figures one provider has served, as {@link LatencyTracker} keeps them. */
export interface ProviderFigures {
  calls: number;
  failures: number;
  slowestMs: number;
}

/**
 * An analytics tracker that keeps per-provider latency (the built-in snapshot
 * groups by capability) and remembers the ids of failed tasks, for a status
 * page or an alert. Hooks run synchronously inside the runtime, so each does a
 * few additions and returns; send figures elsewhere from a timer, not here.
 */
export class LatencyTracker implements AnalyticsTracker {
  readonly providers = new Map<string, ProviderFigures>();
  readonly failedTaskIds: string[] = [];

  onModelCall(event: {
    providerId: string;
    durationMs: number;
    success: boolean;
  }): void {
    const figures = this.providers.get(event.providerId) ?? {
      calls: 0,
      failures: 0,
      slowestMs: 0,
    };
    figures.calls += 1;
    if (!event.success) figures.failures += 1;
    figures.slowestMs = Math.max(figures.slowestMs, event.durationMs);
    this.providers.set(event.providerId, figures);
  }

  onTaskEnd(task: AgentTask): void {
    if (task.status === 'failed') this.failedTaskIds.push(task.id);
  }
}
