import type { Space } from '../memory/memory-provider.js';
import type { TaskArrival } from '../scheduler/space-coordinator.js';
import type { AgentTask } from '../tasks/task.js';

/** A trigger event, as `Runtime.dispatch` and `Runtime.accept` take it. */
export interface TriggerEvent {
  /** The plugin whose trigger fired. */
  pluginId: string;
  /**
   * The id of the trigger that fired, or a label of the caller's own: it becomes the trigger
   * item's `action`, and is not checked against the plugin's triggers, so a test or other code
   * outside a trigger may dispatch with one such as `test`.
   */
  triggerId: string;
  /**
   * The space id, or a space with related spaces. The id must be 1 to 200 ASCII letters, digits,
   * `_`, `.`, `:` or `-`, starting with a letter or digit; {@link spaceId} builds one from parts.
   */
  space: string | Space;
  /** The event's text, such as a chat message. */
  message?: string;
  /** The event's structured data. */
  data?: unknown;
  /** Free-form metadata stored with the task's memories. */
  metadata?: Record<string, unknown>;
}

/** A new task, queued, for an event whose space was checked already. */
export function newTask(
  id: string,
  space: Space,
  event: Omit<TriggerEvent, 'space'>,
  createdAt = new Date(),
): AgentTask {
  const trigger = {
    type: 'trigger' as const,
    pluginId: event.pluginId,
    action: event.triggerId,
    message: event.message,
    data: event.data,
    timestamp: createdAt,
  };
  return {
    id,
    space,
    trigger,
    metadata: { ...event.metadata },
    createdAt,
    status: 'queued',
    recorded: { trigger: false, chain: false },
    chain: [trigger],
    steps: [],
  };
}

/** What a coordinator records of a task, for another instance to run it if this one dies. */
export function arrivalOf(task: AgentTask): TaskArrival {
  return {
    taskId: task.id,
    createdAt: task.createdAt.toISOString(),
    pluginId: task.trigger.pluginId,
    triggerId: task.trigger.action,
    space: task.space,
    message: task.trigger.message,
    data: task.trigger.data,
    metadata: task.metadata,
  };
}

/** The task again, from what another instance recorded, under its original id. */
export function taskOfArrival(arrival: TaskArrival): AgentTask {
  return newTask(arrival.taskId, arrival.space, arrival, new Date(arrival.createdAt));
}
