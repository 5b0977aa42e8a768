/**
 * The task model: what a task is and what its steps produce. It sits on the ground floor of the
 * core: it imports only leaf modules, so the managers, the pipeline and the runtime can all use it
 * without importing anything that imports them back.
 */
import type { Space } from '../memory/memory-provider.js';
import type { PipelineStep } from '../pipeline/schemas.js';

/** What an executor returns: the outcome of one pipeline step. */
export interface PluginResult {
  /** `false` records the step as an error in the task's chain; the pipeline goes on. */
  success: boolean;
  /**
   * The step's output, which later steps read in the chain. The model's review sees it only when
   * the step succeeded (a failed step shows its `error`), as JSON cut at 400 characters. It must
   * have a JSON form that memory stores keep, or the task's chain is not stored.
   * @claim tsdoc-plugin-result-data
   */
  data?: unknown;
  /**
   * A short human-readable summary of what happened. The chain keeps a successful step's message
   * whole, as triggers answer with it; a failed step's is cut to 2,000 characters, as its `error`
   * is.
   * @claim tsdoc-plugin-result-message
   */
  message?: string;
  /**
   * Why the step failed, when `success` is `false`. When it is absent or empty, the chain's error
   * item uses `message`, or a generic text when that is absent or empty too.
   */
  error?: string;
  /**
   * With `success: false`, marks `error` as written for the user: it says what to change and
   * names no hosts, paths, keys or other internals, so a trigger may show it to the user
   * instead of a generic failure. The runtime copies it onto the chain's error item. A thrown
   * error is never marked.
   */
  expose?: boolean;
}

/**
 * One item of a task's context chain. The chain starts with the trigger item; each pipeline
 * step that finishes appends a result or an error item, and the runtime may end the chain with an
 * error item of its own.
 */
export interface Context {
  /** `trigger` for the event that started the task, `result` or `error` for a step. */
  readonly type: 'trigger' | 'result' | 'error';
  /** The plugin that produced the item (`core` for the runtime's own errors). */
  readonly pluginId: string;
  /** The trigger id or executor action that produced the item. */
  readonly action: string;
  /** The trigger's event data, or the step's output. */
  readonly data?: unknown;
  /** A short human-readable message: the user's words for a chat trigger, a step's summary. */
  readonly message?: string;
  /** What went wrong, on error items. */
  readonly error?: string;
  /**
   * `true` on the error item of a step whose executor returned `expose: true`: `error` may be
   * shown to the user. Absent otherwise, so a trigger shows an error only when it is marked.
   */
  readonly expose?: boolean;
  /** When the item was added. */
  readonly timestamp: Date;
}

/** A unit of work: one trigger event, the pipeline planned for it, and everything it produced. */
export interface AgentTask {
  /** Unique id, assigned when the task is dispatched. */
  readonly id: string;
  /** The space the task belongs to; tasks of one space run one at a time. */
  readonly space: Space;
  /** The trigger item that started the task; also the first item of `chain`. */
  readonly trigger: Context;
  /** Free-form metadata from the trigger, such as a request id. */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** When the task was dispatched. */
  readonly createdAt: Date;
  /**
   * Lifecycle: `queued`, `running`, then one of three outcomes. `completed`: the plan was made
   * and every step that ran succeeded. `failed`: planning failed, a step failed (it threw,
   * returned `success: false` or something that is not a PluginResult, or named an unknown
   * executor), steps were left when `maxSteps` was reached, or the task ran past
   * `taskTimeoutMs`; the chain's error items say which.
   * `cancelled`: the runtime stopped in cancel mode (or its drain timed out) while the task ran,
   * or, with a `coordinator`, this instance lost the task's space while it ran.
   * @claim tsdoc-task-cancelled-lost-space
   */
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  /**
   * Whether the runtime stored the task's memories: `trigger` when the task started, `chain`
   * when it ended. Each is `false` until its write succeeds, and stays `false` when the memory
   * provider failed or did not answer in time (the failure is logged). A trigger that answers a
   * client should say when `chain` is `false`: what the task did, its reply included, may be
   * missing from the space's history (a write that answered too late may have been stored after
   * all), and later tasks may not see it; they still see the trigger's message when `trigger`
   * is `true`.
   * @claim tsdoc-task-recorded-chain-timeout
   */
  readonly recorded: { trigger: boolean; chain: boolean };
  /**
   * Set when the memory provider could not be read as the task was planned: the task was
   * planned without the history of its space (earlier tasks and related memories) and ran all
   * the same. The runtime logs the failure as a warning with the task's id and this `errorId`.
   * Absent when the history was read. A trigger that answers a person may say that earlier
   * messages were not taken into account.
   * @claim tsdoc-task-history-unavailable
   */
  historyUnavailable?: { readonly errorId: string };
  /**
   * The context chain: the trigger item, then one item per step that finished, and at most one
   * error item of the runtime's own (`pluginId` `core`, action `plan`, `max-steps` or `timeout`)
   * at the end.
   * @claim tsdoc-task-chain-items
   */
  readonly chain: Context[];
  /** The steps that ran, in order. */
  readonly steps: PipelineStep[];
}
