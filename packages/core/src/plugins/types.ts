/**
 * The ways a plugin turns events into tasks. Triggers are handed the runtime, and the runtime
 * holds the plugins and mounts their routes: that circle is the API's own. It is kept to the
 * files whose public signatures name both sides (this one, plugin.ts, the plugin registry, the
 * runtime, its config and its server); tests/unit/core-import-graph.test.ts keeps it so.
 */
import type { Request, Response } from 'express';
import type { Runtime } from '../runtime/runtime.js';

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
