import type { Space } from '../memory/memory-provider.js';

/**
 * What a coordinator records when a task arrives: the trigger event, in a form another instance
 * can run again (its `data` and `metadata` must survive `JSON.stringify`).
 */
export interface TaskArrival {
  /** The task's id; a resumed task keeps it. */
  taskId: string;
  /** When the task arrived, as an ISO 8601 string. */
  createdAt: string;
  pluginId: string;
  triggerId: string;
  space: Space;
  message?: string;
  data?: unknown;
  metadata?: Record<string, unknown>;
}

/** Permission to run one task of a space, held until {@link SpaceCoordinator.release}. */
export interface SpaceGrant {
  /** The ticket of the task that may run now: the oldest unfinished task of the space. */
  ticket: number;
  /**
   * Aborted when the coordinator loses the space before the task ends (its connection to the
   * shared store dropped, so another instance may take the space over); the task is aborted too.
   */
  signal: AbortSignal;
}

/** What the runtime lends a coordinator: a way to run tasks that another instance accepted. */
export interface SpaceCoordinatorHost {
  /**
   * Queues a task recorded elsewhere (an instance that died before finishing it) under its
   * original ticket. It is queued at once, before this call returns.
   *
   * @param arrival - The task's event, as it was recorded.
   * @param ticket - The task's place in its space.
   */
  resume(arrival: TaskArrival, ticket: number): void;
}

/**
 * Keeps each space's tasks in order across several runtimes, in separate processes, that share
 * one store. Pass one to `Runtime.init({ coordinator })`; every runtime of the group gets its own
 * instance, configured alike. `@weft/coordinator-postgres` implements it on PostgreSQL.
 *
 * The runtime calls {@link SpaceCoordinator.admit} when a task arrives and answers its trigger
 * only after that resolved, so an admitted task is durable. The scheduler then asks
 * {@link SpaceCoordinator.acquire} before it runs any task of the space, without holding a
 * worker while it waits, and {@link SpaceCoordinator.release} after.
 *
 * The runtime waits for `admit` and `release` at most `options.coordinatorTimeoutMs` (15 s by
 * default) and for `acquire` at most `options.coordinatorAcquireTimeoutMs` (15 minutes): an
 * `admit` or `acquire` past it fails its tasks with `WEFT_COORDINATOR_TIMEOUT` (503), and the
 * ticket or grant it resolves with later is released (`finished` for a ticket, `abandoned` for
 * a grant). Bound your own waits below those deadlines, with an error that says more.
 * @claim tsdoc-space-coordinator-deadlines
 */
export interface SpaceCoordinator {
  /** A name for logs and errors. */
  readonly id: string;
  /**
   * Connects to the shared store; tasks handed to `host.resume` run once the runtime started.
   *
   * @param host - How the coordinator hands this runtime the tasks of instances that died.
   */
  init(host: SpaceCoordinatorHost): Promise<void>;
  /** Lets go of every space this instance holds; its unfinished tasks pass to the others. */
  shutdown(): Promise<void>;
  /**
   * Records a task's arrival durably.
   *
   * @param arrival - The task's event, enough for another instance to run it.
   * @returns The task's ticket; the tickets of one space increase in arrival order.
   */
  admit(arrival: TaskArrival): Promise<number>;
  /**
   * Waits until this instance holds `space` and the space's oldest unfinished task is one of
   * this instance's (admitted here, or handed to `host.resume` before this resolves).
   *
   * @param space - The space id.
   * @param signal - Aborted when the scheduler stops; the wait then ends with a rejection.
   * @returns Which task to run, and a signal for losing the space.
   */
  acquire(space: string, signal: AbortSignal): Promise<SpaceGrant>;
  /**
   * Lets the space go. `finished` forgets the task; `abandoned` leaves it unfinished, for this
   * instance or, after it stops, another one to run. Never rejects: failures are the
   * coordinator's to log.
   *
   * @param space - The space id.
   * @param ticket - The ticket of the task that ran (or was to run).
   * @param outcome - `finished` or `abandoned`.
   */
  release(space: string, ticket: number, outcome: 'finished' | 'abandoned'): Promise<void>;
}
