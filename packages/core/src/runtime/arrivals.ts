import { WeftError } from '../errors/weft-error.js';
import { checkNewMemory } from '../memory/memory-input.js';
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
  /**
   * The event's structured data. It must have a JSON form, as `metadata` must: `dispatch` refuses
   * an event whose trigger memory no store could keep.
   */
  data?: unknown;
  /** Free-form metadata stored with the task's memories. */
  metadata?: Record<string, unknown>;
}

/**
 * Refuses an event whose trigger memory the memory contract forbids: a `data` or `metadata` with
 * no JSON form (a `BigInt`, a cycle, a function or symbol as `data`), `metadata` that is not an
 * object (an array, a string), or nested too deep, too long, or holding a NUL character or a
 * lone UTF-16 surrogate. The task would run, but neither of its memories could be stored (the
 * chain quotes the trigger), so it is refused before it runs, naming what was wrong.
 *
 * @param event - The event, its space checked already.
 * @param spaceId - Its space's id.
 * @param method - Who asks, at the start of the message.
 * @throws {@link WeftError} `WEFT_INVALID_EVENT` (status 400).
 */
export function checkStorableEvent(event: TriggerEvent, spaceId: string, method: string): void {
  const refuse = (reason: string, cause?: unknown): never => {
    throw invalidEvent(method, reason, cause);
  };
  // JSON would leave out a function or symbol as data, storing the trigger without it.
  if (typeof event.data === 'function' || typeof event.data === 'symbol') {
    refuse(`its "data" has no JSON form: it is a ${typeof event.data}`);
  }
  // Spread into the task's metadata, an array or a string would be stored as an object of indices.
  const metadata: unknown = event.metadata;
  if (metadata != null && (typeof metadata !== 'object' || Array.isArray(metadata))) {
    refuse(
      `the "metadata" must be a plain object, got ${Array.isArray(metadata) ? 'an array' : `a ${typeof metadata}`}`,
    );
  }
  try {
    // What MemoryManager.recordTrigger stores, checked as every first-party store checks it.
    checkNewMemory(
      {
        space: spaceId,
        kind: 'trigger',
        content: {
          pluginId: event.pluginId,
          action: event.triggerId,
          message: event.message,
          data: event.data,
        },
        metadata: { ...event.metadata },
      },
      method,
    );
  } catch (error) {
    if (!WeftError.is(error, 'WEFT_MEMORY_INVALID')) throw error;
    const reason = error.message
      .replace(`${method}: `, '')
      .replace(/ \[WEFT_MEMORY_INVALID\]$/, '')
      .replace(/ of a memory of kind "trigger" in space "[^"]*"/, '')
      .replace('the "content"', 'its "content" (the event\'s message and data)');
    refuse(reason, error);
  }
}

/**
 * Refuses, with `WEFT_INVALID_EVENT`, an event that is not an object, whose `pluginId` or
 * `triggerId` is not a string, or whose `message` is given but is not a string: what a JavaScript
 * caller or a cast can hand `dispatch` despite its type, which would otherwise fail with a
 * `TypeError`, run a task with no trigger action, or hand executors a message that is not text.
 */
export function checkEventShape(event: unknown, method: string): asserts event is TriggerEvent {
  const kind = (value: unknown) =>
    value === null || value === undefined
      ? String(value)
      : Array.isArray(value)
        ? 'an array'
        : typeof value === 'object'
          ? 'an object'
          : `a ${typeof value}`;
  let reason: string | undefined;
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    reason = `it must be an object with "pluginId", "triggerId" and "space", got ${kind(event)}`;
  } else {
    for (const field of ['pluginId', 'triggerId'] as const) {
      const value = (event as Record<string, unknown>)[field];
      if (typeof value !== 'string') {
        reason = `its "${field}" must be a string, got ${value === undefined ? 'none' : kind(value)}`;
        break;
      }
    }
    // Executors and templates read the trigger's message as text; null, as for metadata, is none.
    const message = (event as Record<string, unknown>).message;
    if (reason === undefined && message != null && typeof message !== 'string') {
      reason = `its "message" must be a string when it is given, got ${kind(message)}`;
    }
  }
  if (reason !== undefined) {
    throw new WeftError('WEFT_INVALID_EVENT', `${method}: the event is malformed: ${reason}.`, {
      status: 400,
    });
  }
}

/** The `WEFT_INVALID_EVENT` of {@link checkStorableEvent}. */
function invalidEvent(method: string, reason: string, cause: unknown): WeftError {
  return new WeftError(
    'WEFT_INVALID_EVENT',
    `${method}: the event cannot be stored as the task's trigger memory, so the task would leave no record: ${reason}`,
    cause === undefined ? { status: 400 } : { status: 400, cause },
  );
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
