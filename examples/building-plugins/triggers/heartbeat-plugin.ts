import { Plugin, type Executor, type Runtime, type Trigger } from '@weft/core';

/**
 * Wakes the agent at a fixed interval, for housekeeping work such as digests.
 */
export class HeartbeatPlugin extends Plugin {
  readonly id = 'heartbeat';
  readonly description = 'Starts a task at a fixed interval.';

  override readonly executors: Executor[] = [
    {
      action: 'tick',
      description: 'Does the periodic housekeeping. Use for heartbeat tasks.',
      execute: async (task) => ({
        success: true,
        data: { at: task.createdAt.toISOString() },
      }),
    },
  ];

  override readonly triggers: Trigger[] = [
    {
      type: 'start',
      id: 'interval',
      // Set the timer up and return; the runtime waits for start() before it
      // goes on.
      start: (runtime: Runtime, signal: AbortSignal) => {
        const timer = setInterval(() => {
          runtime
            .dispatch({
              pluginId: this.id,
              triggerId: 'interval',
              space: 'heartbeat',
            })
            .catch((error: unknown) =>
              runtime.logger.warn(
                { error: String(error) },
                'heartbeat skipped',
              ),
            );
        }, this.intervalMs);
        signal.addEventListener('abort', () => clearInterval(timer), {
          once: true,
        });
      },
    },
  ];

  constructor(private readonly intervalMs: number) {
    super();
    if (!Number.isInteger(intervalMs) || intervalMs < 10) {
      throw new Error(
        `HeartbeatPlugin: intervalMs must be an integer of at least 10, got ${intervalMs}`,
      );
    }
  }
}
