import type { Memory, Space } from '../memory/memory-provider.js';
import type { AgentTask, Context } from '../tasks/task.js';
import type { PipelineStep } from './schemas.js';

/**
 * The variables of the `core/pipeline-generation` template, from which the model plans a
 * task's pipeline; read them to see what the planning prompt tells the model.
 */
export interface PipelineGenerationContext {
  /** The task to plan. */
  task: AgentTask;
  /** The task's space. */
  space: Space;
  /** Every executor the model may choose, with the description it chooses by. */
  executors: { pluginId: string; action: string; description: string }[];
  /** Memories of the space and its related spaces, newest first. */
  memories: Memory[];
  /**
   * Those memories as the model reads them: one entry per earlier task (when, which space and
   * trigger, what was asked, the steps run, the outcome) and one per other memory, such as a
   * plugin's own, newest first, within the `relatedMemories` and `relatedMemoryChars` limits;
   * `None.` when there are none, and a line saying the history is unavailable when the memory
   * store could not be read.
   */
  relatedText: string;
  /** The most steps a task may run. */
  maxSteps: number;
}

/**
 * The variables of the `core/pipeline-modification` template, from which the model reviews
 * the remaining steps after each step.
 */
export interface PipelineModificationContext {
  /** The task being run. */
  task: AgentTask;
  /** The task's space. */
  space: Space;
  /** The chain so far, ending with the item of the step that just ran. */
  chain: readonly Context[];
  /** The steps already run. */
  completed: readonly PipelineStep[];
  /** The steps still planned. */
  remaining: readonly PipelineStep[];
  /** Every executor the model may choose. */
  executors: { pluginId: string; action: string; description: string }[];
  /** How many more steps may run before the task's limit. */
  stepsLeft: number;
}
