import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Space } from '../memory/memory-provider.js';
import type { MemoryManager } from '../memory/memory-manager.js';
import type { GetObjectConfig } from '../models/get-object.js';
import type { ModelManager } from '../models/model-manager.js';
import type { PipelineStep } from '../pipeline/schemas.js';
import type { PromptRegistry } from '../prompts/prompt-registry.js';
import type { Runtime } from '../runtime/runtime.js';

/** What an executor returns: the outcome of one pipeline step. */
export interface PluginResult {
  /** `false` records the step as an error in the task's chain; the pipeline goes on. */
  success: boolean;
  /** The step's output, visible to later steps and to the model. Must be JSON-serialisable. */
  data?: unknown;
  /** A short human-readable summary of what happened. */
  message?: string;
  /** Why the step failed, when `success` is `false`. */
  error?: string;
}

/**
 * One item of a task's context chain. The chain starts with the trigger item; each pipeline
 * step appends a result or an error item.
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
   * returned `success: false` or named an unknown executor), steps were left when `maxSteps` was
   * reached, or the task ran past `taskTimeoutMs`; the chain's error items say which.
   * `cancelled`: the runtime stopped in cancel mode (or its drain timed out) while the task ran.
   */
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  /**
   * Whether the runtime stored the task's memories: `trigger` when the task started, `chain`
   * when it ended. Each is `false` until its write succeeds, and stays `false` when the memory
   * provider failed or did not answer in time (the failure is logged). A trigger that answers a
   * client should say when `chain` is `false`: the exchange will be missing from the space's
   * history, and later tasks will not see it.
   */
  readonly recorded: { trigger: boolean; chain: boolean };
  /** The context chain: the trigger item, then one item per step run. */
  readonly chain: Context[];
  /** The steps that ran, in order. */
  readonly steps: PipelineStep[];
}

/** Everything an executor can use while it runs one step. */
export interface ExecutionContext {
  /** Id of the plugin the executor belongs to. */
  readonly pluginId: string;
  /** The step being run. */
  readonly step: PipelineStep;
  /** Zero-based position of the step among the steps run so far. */
  readonly stepIndex: number;
  /** The task's context chain up to this step (read-only view). */
  readonly chain: readonly Context[];
  /** Calls capabilities of the runtime's model providers; calls carry `signal` by default. */
  readonly models: ModelManager;
  /** Reads and writes memories. */
  readonly memory: MemoryManager;
  /** The runtime's prompt templates. */
  readonly prompts: PromptRegistry;
  /** A logger bound to the plugin, task and step. */
  readonly logger: Logger;
  /** Aborted when the runtime stops in `cancel` mode; pass it to slow I/O. */
  readonly signal: AbortSignal;
  /**
   * Asks the text model for a value matching a schema; shorthand for
   * {@link ModelManager.getObject}.
   *
   * @param config - Schema, prompt and retry settings.
   * @returns The validated value.
   */
  getObject<T extends z.ZodType>(config: GetObjectConfig<T>): Promise<z.output<T>>;
  /**
   * Renders a prompt template of this plugin (`name`) or of another namespace
   * (`namespace/name`).
   *
   * @param name - Template name.
   * @param variables - Template variables.
   * @returns The rendered text.
   */
  render(name: string, variables?: Record<string, unknown>): Promise<string>;
}

/**
 * An action a plugin can perform as a pipeline step. The model chooses executors by their
 * descriptions, so write the description for the model: what the action does and when it is
 * useful.
 */
export interface Executor {
  /** The action's name, unique within its plugin, such as `reply` or `search`. */
  readonly action: string;
  /** What the action does and when to use it, shown to the model when it plans. */
  readonly description: string;
  /**
   * Runs the step.
   *
   * @param task - The task, with its chain so far.
   * @param context - Services and details of this step.
   * @returns The step's outcome; a thrown error is recorded like `success: false`.
   */
  execute(task: AgentTask, context: ExecutionContext): Promise<PluginResult>;
}

/**
 * A trigger that receives HTTP requests on the runtime's ServerManager. The handler usually
 * calls {@link Runtime.dispatch} and answers with something from the finished task.
 */
export interface TriggerRoute {
  /** Discriminant of {@link Trigger}. */
  readonly type: 'route';
  /** The trigger's id, unique within its plugin; becomes the trigger item's `action`. */
  readonly id: string;
  /** HTTP method. */
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path to mount, starting with `/`, in express syntax (`/chat/:room`). */
  readonly path: string;
  /**
   * Handles one request. JSON bodies are already parsed into `request.body`. Throwing (or
   * rejecting) answers 500 without details; an error with a `status` property answers that
   * status with its message.
   *
   * @param request - The express request.
   * @param response - The express response.
   * @param runtime - The runtime, to dispatch tasks.
   * @returns Nothing that is used: answer through `response`. A returned promise is awaited.
   */
  handler(request: Request, response: Response, runtime: Runtime): unknown;
}

/**
 * A trigger that runs when the runtime starts: a timer, a queue consumer, a socket client.
 * It should stop its work when `signal` is aborted.
 */
export interface TriggerStart {
  /** Discriminant of {@link Trigger}. */
  readonly type: 'start';
  /** The trigger's id, unique within its plugin; becomes the trigger item's `action`. */
  readonly id: string;
  /**
   * Starts the trigger. The runtime awaits it, so return once set up, not when done.
   *
   * @param runtime - The runtime, to dispatch tasks.
   * @param signal - Aborted when the runtime stops.
   */
  start(runtime: Runtime, signal: AbortSignal): void | Promise<void>;
}

/** The ways a plugin can turn events into tasks. */
export type Trigger = TriggerRoute | TriggerStart;
