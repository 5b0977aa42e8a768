/**
 * What a plugin's executors are and what they get while they run. Nothing here needs the
 * runtime, so the task runner can use it without importing the runtime that owns the runner.
 */
import type { Logger } from 'pino';
import type * as z from 'zod';
import type { MemoryManager } from '../memory/memory-manager.js';
import type { GetObjectConfig } from '../models/get-object.js';
import type { ModelManager } from '../models/model-manager.js';
import type { PipelineStep } from '../pipeline/schemas.js';
import type { PromptRegistry } from '../prompts/prompt-registry.js';
import type { AgentTask, Context, PluginResult } from '../tasks/task.js';

/** Everything an executor can use while it runs one step. */
export interface ExecutionContext {
  /** Id of the plugin the executor belongs to. */
  readonly pluginId: string;
  /** The step being run. */
  readonly step: PipelineStep;
  /** Zero-based position of the step among the steps run so far. */
  readonly stepIndex: number;
  /** A copy of the task's context chain up to this step: items added later do not appear in it. */
  readonly chain: readonly Context[];
  /** Calls capabilities of the runtime's model providers; calls carry `signal` by default. */
  readonly models: ModelManager;
  /** Reads and writes memories. */
  readonly memory: MemoryManager;
  /** The runtime's prompt templates. */
  readonly prompts: PromptRegistry;
  /** A logger bound to the plugin, task and step. */
  readonly logger: Logger;
  /**
   * Aborted when the task must end early: it ran past `options.taskTimeoutMs`, the runtime is
   * cancelling its tasks as it stops, or, with a `coordinator`, this instance lost the task's
   * space. Pass it to slow I/O.
   * @claim tsdoc-signal-lost-space
   */
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
