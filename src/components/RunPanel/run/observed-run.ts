/**
 * `observedRun`: runs an example's plugins in a runtime built for the page, with the scripted
 * models (./scripted-models.ts) and the observed memory (./observed-memory.ts), and reports each
 * event of its first task as it happens, timed from the start.
 *
 * The runtime is built with `Runtime.init` without `handleSignals`, and without `server` in a
 * page: both exist only in Node.js. Route triggers are not served in a page; a run dispatches its
 * task as the plugin's route handler would.
 */
import {
  Runtime,
  type AgentTask,
  type AnalyticsTracker,
  type Plugin,
  type RuntimeOptions,
} from '@weft/core';
import { pino } from 'pino';
import type { RunEvent, UntimedRunEvent } from './definition';
import { ObservedMemory } from './observed-memory';
import { scriptedModels, type Answerer } from './scripted-models';

export interface ObservedRunConfig {
  plugins: Plugin[];
  /** The scripted providers' ids; the first is the default. Default `['scripted']`. */
  providers?: readonly string[];
  answer: Answerer;
  /** Runtime options besides the logger and analytics, as the example's agent sets them. */
  options?: Omit<RuntimeOptions, 'logger' | 'analytics' | 'server'>;
  memory?: ObservedMemory;
  /**
   * Starts the task and resolves with it when it has finished: by `runtime.dispatch`, as a
   * route handler does, or by waiting for `firstTaskEnded` when a start trigger dispatches.
   * `report` adds an event of its own, such as what a route handler answered.
   */
  dispatch(
    runtime: Runtime,
    firstTaskEnded: Promise<AgentTask>,
    report: (event: UntimedRunEvent) => void,
  ): Promise<AgentTask>;
  onEvent(event: RunEvent): void;
  /**
   * The reply the status event shows, when the example's reply is not the last result's
   * `message` (the default), such as the chat plugin's `data.text`.
   */
  replyOf?(task: AgentTask): string | undefined;
}

/**
 * Runs an example's plugins with scripted models and in-memory memory, reporting every event of
 * its first task: the trigger, each model call (with the plan and each review it decided), each
 * step's result or error, each memory written, and the status with the reply.
 */
export async function observedRun(config: ObservedRunConfig): Promise<AgentTask> {
  const started = performance.now();
  const at = (): number => Math.round((performance.now() - started) * 10) / 10;
  // Only the first task is reported: a timer trigger may start another before the runtime stops.
  let firstTaskId: string | undefined;
  let finished = false;
  const report = (event: UntimedRunEvent): void => {
    if (!finished) config.onEvent({ ...event, atMs: at() } as RunEvent);
  };

  const models = scriptedModels(config.providers ?? ['scripted'], config.answer, report);

  const memory = config.memory ?? new ObservedMemory();
  memory.listener = (stored) =>
    report({ kind: 'memory', memoryKind: stored.kind, space: stored.space });

  let resolveFirstEnd!: (task: AgentTask) => void;
  const firstTaskEnded = new Promise<AgentTask>((resolve) => (resolveFirstEnd = resolve));

  // The executors, observed: what each returned or threw is the text of its step event.
  let lastOutcome: string | undefined;
  for (const plugin of config.plugins) {
    for (const executor of plugin.executors) {
      const execute = executor.execute.bind(executor);
      executor.execute = async (task, context) => {
        try {
          const result = await execute(task, context);
          lastOutcome =
            (result.success ? result.message : (result.error ?? result.message)) ??
            (result.data === undefined ? '' : JSON.stringify(result.data));
          return result;
        } catch (error) {
          lastOutcome = error instanceof Error ? error.message : String(error);
          throw error;
        }
      };
    }
  }

  const tracker: AnalyticsTracker = {
    onTaskStart(task) {
      if (firstTaskId !== undefined) return;
      firstTaskId = task.id;
      report({
        kind: 'trigger',
        pluginId: task.trigger.pluginId,
        triggerId: task.trigger.action,
        space: task.space.id,
        ...(task.trigger.message !== undefined ? { message: task.trigger.message } : {}),
      });
    },
    // Called before the step's item joins the chain; an unknown step has no executor to observe.
    onStep({ task, step, success }) {
      if (task.id !== firstTaskId) return;
      report({
        kind: 'step',
        pluginId: step.pluginId,
        action: step.action,
        success,
        text: lastOutcome ?? unknownStep(step.pluginId, step.action),
      });
      lastOutcome = undefined;
    },
    onTaskEnd(task) {
      if (task.id === firstTaskId) resolveFirstEnd(task);
    },
  };

  // The words of the runtime's error item for a step no executor runs (task-runner.ts).
  function unknownStep(pluginId: string, action: string): string {
    return config.plugins.some((plugin) => plugin.id === pluginId)
      ? `unknown step: plugin "${pluginId}" has no action "${action}"`
      : `unknown step: no plugin "${pluginId}" is registered`;
  }

  const runtime = await Runtime.init({
    models,
    memory,
    plugins: config.plugins,
    options: {
      ...config.options,
      analytics: { trackers: [tracker] },
      logger: pino({ level: 'silent' }),
      // Run in Node.js (the unit tests), a plugin with routes starts the runtime's HTTP server:
      // on a free port, so that two runs at once, or a run beside `npm start` on 3000, do not
      // collide. A page has no server, and the browser's runtime refuses the option.
      ...(typeof document === 'undefined' ? { server: { port: 0 } } : {}),
    },
  });
  await runtime.start();
  try {
    const task = await config.dispatch(runtime, firstTaskEnded, report);
    const last = task.chain.at(-1);
    const reply = config.replyOf
      ? config.replyOf(task)
      : last?.type === 'result'
        ? last.message
        : undefined;
    report({
      kind: 'status',
      status: task.status,
      ...(task.status === 'completed' && reply !== undefined ? { reply } : {}),
    });
    return task;
  } finally {
    finished = true;
    memory.listener = undefined;
    await runtime.stop();
  }
}
