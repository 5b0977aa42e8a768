import type { Logger } from 'pino';
import { createDefaultLogger, loadHttpServer, onStopSignal, SUPPORTS_SERVER } from '#platform';
import { AnalyticsManager } from '../analytics/analytics-manager.js';
import { CapabilityRegistry } from '../capabilities/capability-registry.js';
import { MemoryManager } from '../memory/memory-manager.js';
import type { Space } from '../memory/memory-provider.js';
import { ModelManager } from '../models/model-manager.js';
import { TaskRunner } from '../pipeline/task-runner.js';
import { Bulkheads } from '../bulkhead/bulkhead.js';
import { DEFAULT_BULKHEAD_WAIT_MS, unknownLimitKeys } from '../bulkhead/bulkhead-options.js';
import { PluginRegistry } from '../plugins/plugin.js';
import { pluginProblems, templateEntries } from '../plugins/plugin-checks.js';
import type { AgentTask } from '../tasks/task.js';
import { PromptRegistry } from '../prompts/prompt-registry.js';
import { loadLiquid } from '../prompts/liquid-engine.js';
import { Scheduler } from '../scheduler/scheduler.js';
import type { HttpServer } from '../server/route.js';
import type { ServerManagerConfig } from '../server/server-config.js';
import { ServerStandIn } from '../server/server-stand-in.js';
import { describeError, WeftError } from '../errors/weft-error.js';
import { settleWithin, TIMED_OUT } from '../util/deadline.js';
import { errorLogFields } from '../util/logger.js';
import { randomId } from '../util/random-id.js';
import { checkConfigShape, type ResolvedOptions, type RuntimeConfig } from './config.js';
import { SPACE_ID_PATTERN } from '../memory/space-id.js';
import type { SpaceCoordinatorHost, TaskArrival } from '../scheduler/space-coordinator.js';
import { BoundedCoordinator } from '../scheduler/bounded-coordinator.js';
import {
  arrivalOf,
  checkEventShape,
  checkStorableEvent,
  newTask,
  taskOfArrival,
  type TriggerEvent,
} from './arrivals.js';

/**
 * How long stop() waits for cancelled tasks to end, and then for all plugins and providers
 * together to shut down, before it gives up on them: stop() must end even when an executor
 * ignores its signal or a shutdown hangs.
 */
const STOP_GRACE_MS = 2_000;
/** What a held start is told when stop() has given up waiting for it. */
const START_GIVEN_UP = Symbol('start given up');

/**
 * The agent: it owns the plugins, model providers and memory, turns trigger events into tasks,
 * and runs them through the {@link Scheduler}.
 *
 * Create one with {@link Runtime.init}, which checks the configuration and throws one error
 * listing the problems it finds, each naming the part, option or variable at fault (the plugins'
 * and capabilities' own problems once the configuration has its shape). Then
 * {@link Runtime.start} it and, when done, {@link Runtime.stop} it.
 *
 * @example
 * ```ts
 * import { Runtime, type MemoryProvider, type ModelProvider, type Plugin } from '@weft/core';
 *
 * async function main(model: ModelProvider, memory: MemoryProvider, plugins: Plugin[]) {
 *   const runtime = await Runtime.init({
 *     models: [model],
 *     memory,
 *     plugins,
 *     options: { maxSteps: 5, handleSignals: true },
 *   });
 *   await runtime.start();
 *   return runtime;
 * }
 * ```
 */
export class Runtime {
  /** The runtime's root logger; components log through children of it. */
  readonly logger: Logger;
  /** Known capabilities, aliases and transforms. */
  readonly capabilities: CapabilityRegistry;
  /** Prompt templates of the core and every plugin. */
  readonly prompts: PromptRegistry;
  /** The plugins. */
  readonly plugins: PluginRegistry;
  /** Capability calls and getObject. */
  readonly models: ModelManager;
  /** Memory access. */
  readonly memory: MemoryManager;
  /** The task queue. */
  readonly scheduler: Scheduler;
  /**
   * The HTTP server for route triggers: in Node.js, when some plugin has a route trigger, the
   * `ServerManager` of `@weft/core/node` (whose express application `serverOf(runtime)` from
   * there hands you); otherwise a stand-in on which nothing listens.
   */
  readonly server: HttpServer;
  /** Collected figures; empty unless analytics are enabled. */
  readonly analytics: AnalyticsManager;

  private readonly config: RuntimeConfig;
  private readonly options: ResolvedOptions;
  private readonly runner: TaskRunner;
  private readonly triggerController = new AbortController();
  private phase: Runtime['status'] = 'ready';
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private readonly started: { shutdown(): Promise<void>; label: string }[] = [];
  private serverStarted = false;
  private stopRequested = false;
  /** What start() is waiting for, named in the error of a start that runs out of time. */
  private startingPart = 'the runtime';
  /** Set when start() failed at `startTimeoutMs`: the part it held then ends on its own. */
  private startTimedOut: WeftError | undefined;
  /**
   * Set when stop() gave up waiting for a held start and stopped what had started: start() has
   * rejected, and the held part, when it ends, only has what it started shut down.
   */
  private stopGaveUp: WeftError | undefined;
  /** Set when a start that failed is shutting down what it started: it is no longer held. */
  private startRollingBack = false;
  /**
   * Resolved when stop() has stopped waiting for a held start and has shut down what had
   * started: start() then rejects at once, rather than when the held part ends or at
   * `startTimeoutMs`, whose timer would keep the process alive after stop() resolved.
   */
  private giveUpStart: () => void = () => undefined;
  private readonly startGivenUp = new Promise<typeof START_GIVEN_UP>((resolve) => {
    this.giveUpStart = () => resolve(START_GIVEN_UP);
  });
  /** The tasks running now, each with its runner's promise. */
  private readonly running = new Map<AgentTask, Promise<AgentTask>>();
  /**
   * Aborted when a stop gives up on cancelled tasks that have not ended: each stops waiting for
   * its chain's write, so its `dispatch` settles before the stop resolves.
   */
  private readonly abandonment = new AbortController();
  /**
   * Tasks accepted but not queued yet, while the coordinator records them: they count against
   * `scheduler.maxQueueSize`, or a burst arriving during those writes would all pass its check.
   */
  private admitting = 0;
  /** The configured coordinator, with a deadline on each of its calls. */
  private readonly coordinator: BoundedCoordinator | undefined;
  /** Removes the signal listeners of `options.handleSignals`, once they are added. */
  private stopListeningForSignals: () => void = () => undefined;
  /** The teardown running or last run; the next one waits for it. */
  private tearingDown: Promise<void> = Promise.resolve();

  private constructor(
    config: RuntimeConfig,
    options: ResolvedOptions,
    registries: {
      capabilities: CapabilityRegistry;
      prompts: PromptRegistry;
      plugins: PluginRegistry;
    },
    makeServer: ((config: ServerManagerConfig, logger: Logger) => HttpServer) | undefined,
  ) {
    this.config = config;
    this.options = options;
    this.logger = options.logger ?? createDefaultLogger();
    this.capabilities = registries.capabilities;
    this.prompts = registries.prompts;
    this.plugins = registries.plugins;
    const analytics = options.analytics;
    this.analytics = new AnalyticsManager({
      enabled: analytics !== false,
      trackers: typeof analytics === 'object' ? (analytics.trackers ?? []) : [],
      logger: this.logger.child({ component: 'analytics' }),
    });
    this.models = new ModelManager({
      registry: this.capabilities,
      providers: config.models,
      prompts: this.prompts,
      analytics: this.analytics,
      logger: this.logger.child({ component: 'models' }),
      getObjectRetries: options.getObjectRetries,
    });
    this.memory = new MemoryManager(config.memory, {
      relatedLimit: options.relatedMemories,
      relatedChars: options.relatedMemoryChars,
      logger: this.logger.child({ component: 'memory' }),
    });
    this.coordinator =
      config.coordinator &&
      new BoundedCoordinator(
        config.coordinator,
        { callMs: options.coordinatorTimeoutMs, acquireMs: options.coordinatorAcquireTimeoutMs },
        this.logger.child({ component: 'coordinator' }),
      );
    this.scheduler = new Scheduler({ ...options.scheduler, coordinator: this.coordinator });
    this.server = makeServer
      ? makeServer(
          options.server as ServerManagerConfig,
          this.logger.child({ component: 'server' }),
        )
      : new ServerStandIn(SUPPORTS_SERVER ? 'node' : 'browser');
    this.runner = new TaskRunner({
      plugins: this.plugins,
      models: this.models,
      memory: this.memory,
      prompts: this.prompts,
      analytics: this.analytics,
      logger: this.logger.child({ component: 'pipeline' }),
      maxSteps: options.maxSteps,
      pipelineReview: options.pipelineReview,
      reviewFinalStep: options.reviewFinalStep,
      taskTimeoutMs: options.taskTimeoutMs,
      bulkheads: Runtime.bulkheads(options),
    });
  }

  /**
   * Checks a configuration and builds a runtime from it, without starting anything.
   *
   * @param config - Models, memory, plugins, capability aliases and options.
   * @returns The runtime, ready to {@link Runtime.start}.
   * @throws {@link WeftError} `WEFT_INVALID_CONFIG` listing every problem found, such as
   * duplicate plugin or executor ids, no provider of `text-generation`, a plugin's required
   * capability that no model offers (or that only an alias group names, with no descriptor),
   * an unknown field or option or one out of its range, options that
   * break a rule between them (`server.requestTimeout` below `server.headersTimeout`), a bad
   * `WEFT_LOG_LEVEL` when no logger is given, a template that does not parse, or, for plugins
   * with routes or Liquid templates, a module they need that could not be loaded (express and
   * cors, liquidjs).
   *
   * @example
   * ```ts
   * import { Runtime, type MemoryProvider, type ModelProvider } from '@weft/core';
   *
   * async function check(model: ModelProvider, memory: MemoryProvider) {
   *   try {
   *     await Runtime.init({ models: [model], memory, plugins: [], options: { maxSteps: 0 } });
   *   } catch (error) {
   *     console.error((error as Error).message); // names options.maxSteps
   *   }
   * }
   * ```
   * @claim tsdoc-runtime-init-one-error
   */
  static async init(config: RuntimeConfig): Promise<Runtime> {
    const { options, problems, registrable, naming } = checkConfigShape(config);
    const capabilities = new CapabilityRegistry();
    const prompts = new PromptRegistry();
    const plugins = new PluginRegistry();
    // The registry checks run even when the options are wrong, so that one error lists everything.
    if (registrable) {
      // liquidjs is loaded only for a liquid template, and before registering, so that a
      // template that does not parse is one of the problems listed here.
      const liquidOwners = liquidOwnersOf(config.plugins);
      if (liquidOwners.length > 0) await loadLiquidFor(liquidOwners, problems);
      Runtime.fillRegistries(config, { capabilities, prompts, plugins }, problems);
      // The HTTP server (express) is loaded only for routes, so an agent without them needs
      // neither express nor cors installed. It is loaded even when the options or the plugins
      // with routes have problems, so that a missing express is listed beside them.
      const routeOwners = routeOwnersOf(config.plugins);
      const makeServer =
        SUPPORTS_SERVER && routeOwners.length > 0
          ? await loadServerFor(routeOwners, problems)
          : undefined;
      const runtime =
        options && new Runtime(config, options, { capabilities, prompts, plugins }, makeServer);
      const models =
        runtime?.models ??
        new ModelManager({ registry: capabilities, providers: config.models, prompts });
      // The options that name providers and plugins are checked even when other options are
      // wrong (they are then parsed on their own), so that one error lists their problems too.
      Runtime.checkCapabilities(
        config,
        naming.defaultProviders,
        { capabilities, models },
        problems,
      );
      problems.push(...unknownLimitKeys(naming.limits, dependencyKeys(config)));
      if (runtime && problems.length === 0) return runtime;
    }
    throw new WeftError(
      'WEFT_INVALID_CONFIG',
      `Runtime.init: invalid configuration:\n- ${problems.join('\n- ')}`,
    );
  }

  /** Where the runtime is in its life: `ready`, `starting`, `running`, `stopping` or `stopped`. */
  get status(): 'ready' | 'starting' | 'running' | 'stopping' | 'stopped' {
    return this.phase;
  }

  /**
   * Starts the runtime: initialises the memory and model providers (and, with
   * `options.checkHealthOnStart`, checks their health), then the plugins, mounts
   * route triggers and starts the HTTP server (only when some plugin has a route; in a browser,
   * which has no server, route triggers are left unserved and a warning is logged), runs start
   * triggers, and starts the scheduler. If any part fails, the parts already started are shut
   * down again and the error names the part. The start has a deadline, `options.startTimeoutMs`
   * (default 60 s): past it, the parts already started are shut down in the same way, and the
   * error names the part that has not finished. Calling it again while starting or running
   * returns the same promise.
   *
   * @throws {@link WeftError} `WEFT_START_FAILED` naming the provider, coordinator, plugin or
   * start trigger that failed (or, with `checkHealthOnStart`, the provider that is not healthy),
   * or the part still starting when `startTimeoutMs` ran out; `WEFT_LISTEN_FAILED` when the HTTP
   * server cannot listen; `WEFT_RUNTIME_STOPPED` when the runtime was stopped, or `stop()` was
   * called while it was starting.
   * @claim tsdoc-runtime-start-same-promise
   * @claim tsdoc-runtime-start-failed
   * @claim tsdoc-runtime-start-stopped
   * @claim tsdoc-runtime-start-deadline
   */
  start(): Promise<void> {
    if (this.phase === 'stopping' || this.phase === 'stopped') {
      return Promise.reject(
        new WeftError(
          'WEFT_RUNTIME_STOPPED',
          'Runtime.start: this runtime was stopped; create a new one with Runtime.init.',
        ),
      );
    }
    this.starting ??= this.startWithinDeadline();
    return this.starting;
  }

  /**
   * Stops the runtime gracefully: stops accepting tasks, lets queued tasks finish (or cancels
   * them, per `options.shutdown`), closes the HTTP server, and shuts down plugins and providers
   * in reverse order. A cancelled task ends at once, even when its executor ignores the
   * cancellation; one still storing its chain after 2 s is abandoned, and its `dispatch`
   * resolves then, with `recorded.chain` `false`. Plugins and providers get
   * 2 s together to shut down, so it resolves within `shutdownTimeoutMs` plus about 5 seconds
   * whatever they do. Calling it again returns the same promise.
   * @claim tsdoc-runtime-stop-bounded
   */
  stop(): Promise<void> {
    this.stopping ??= this.stopOnce();
    return this.stopping;
  }

  /**
   * Turns a trigger event into a task, queues it in its space, and resolves when it has run.
   * Failures inside the task (a step that throws, a model that answers badly) do not reject:
   * they are in the returned task's `status` and `chain`.
   *
   * @param event - Who triggered it, the space, and the event's message, data and metadata.
   * @returns The finished task.
   * @throws {@link WeftError} with `status` 400: `WEFT_INVALID_SPACE` for a space id that is not
   * 1 to 200 ASCII letters, digits, `_`, `.`, `:` or `-` starting with a letter or digit (checked
   * first), `WEFT_UNKNOWN_PLUGIN` for a `pluginId` no plugin has, `WEFT_INVALID_EVENT` for a
   * `data` or `metadata` with no JSON form (a `BigInt`, a cycle) or another value the memory
   * contract refuses, which would leave the task with no memory stored; with `status` 503:
   * `WEFT_SHUTTING_DOWN` once `stop()` was called, `WEFT_QUEUE_FULL` when
   * `scheduler.maxQueueSize` tasks are waiting, `WEFT_COORDINATOR_TIMEOUT` when a `coordinator`
   * did not record the task within `options.coordinatorTimeoutMs` (or grant its space within
   * `options.coordinatorAcquireTimeoutMs`).
   *
   * @example
   * ```ts
   * import { spaceId, type Runtime } from '@weft/core';
   *
   * async function onChatMessage(runtime: Runtime, room: string, user: string, text: string) {
   *   const task = await runtime.dispatch({
   *     pluginId: 'chat',
   *     triggerId: 'message',
   *     // spaceId encodes the parts, so a room named "r42-user-x" is not read as room "r42".
   *     space: {
   *       id: spaceId('chat', 'room', room, 'user', user),
   *       relatedSpaces: [`${spaceId('chat', 'room', room)}-*`],
   *     },
   *     message: text,
   *   });
   *   return task.chain.at(-1);
   * }
   * ```
   * @claim tsdoc-runtime-dispatch-400
   * @claim tsdoc-runtime-dispatch-503
   * @claim tsdoc-runtime-dispatch-coordinator-timeout
   */
  async dispatch(event: TriggerEvent): Promise<AgentTask> {
    return (await this.admit(event, 'Runtime.dispatch')).done;
  }

  /**
   * Like {@link Runtime.dispatch}, but resolves as soon as the task is queued, for triggers
   * that answer before the work is done (a webhook's 202). With a `coordinator`, the task is
   * recorded in the shared store by then, so another instance runs it if this one dies.
   *
   * @param event - As for {@link Runtime.dispatch}.
   * @returns The task's id, and a promise of the finished task.
   * @throws As {@link Runtime.dispatch} does, and the coordinator's error when it cannot record
   * the task.
   */
  accept(event: TriggerEvent): Promise<{ taskId: string; done: Promise<AgentTask> }> {
    return this.admit(event, 'Runtime.accept');
  }

  /** Accepts a task for {@link Runtime.dispatch} or {@link Runtime.accept}, whose name begins its errors. */
  private async admit(
    event: TriggerEvent,
    method: 'Runtime.dispatch' | 'Runtime.accept',
  ): Promise<{ taskId: string; done: Promise<AgentTask> }> {
    checkEventShape(event, method);
    const space: Space = typeof event.space === 'string' ? { id: event.space } : event.space;
    if (typeof space?.id !== 'string' || !SPACE_ID_PATTERN.test(space.id)) {
      throw new WeftError(
        'WEFT_INVALID_SPACE',
        `${method}: invalid space id ${JSON.stringify(space?.id)}; use up to 200 ASCII letters, digits, '-', '_', '.' or ':', starting with a letter or digit.`,
        { status: 400 },
      );
    }
    if (!this.plugins.get(event.pluginId)) {
      throw new WeftError(
        'WEFT_UNKNOWN_PLUGIN',
        `${method}: no plugin "${event.pluginId}" is registered.`,
        { status: 400 },
      );
    }
    checkStorableEvent(event, space.id, method);
    const stopping = this.stoppingRefusal(method);
    if (stopping) throw stopping;
    const refusal = this.scheduler.refusal(this.admitting);
    if (refusal) throw refusal;
    const task = newTask(randomId(), space, event);
    let ticket: number | undefined;
    // Without a coordinator the task is queued in this same turn: an `await` here would leave a
    // burst of dispatches counted as admitting, and refused for a queue that is not full.
    if (this.coordinator) {
      this.admitting += 1;
      try {
        ticket = await this.coordinator.admit(arrivalOf(task));
      } finally {
        this.admitting -= 1;
      }
    }
    // A stop that began while the coordinator recorded the task refuses it, and the caller is
    // told the task was not accepted. The coordinator must then forget it too: a task it keeps
    // unfinished is run by another instance, for a caller that may have retried it. A stop
    // during start has not closed the queue yet (it waits for the start to roll back), so the
    // runtime's own state is asked, not only the scheduler's.
    const scheduled = this.scheduler.refusal();
    const closed =
      this.stoppingRefusal(method) ??
      (scheduled?.code === 'WEFT_SHUTTING_DOWN' ? scheduled : undefined);
    if (this.coordinator && ticket !== undefined && closed) {
      await this.coordinator.release(space.id, ticket, 'finished');
      throw closed;
    }
    const done = this.runQueued(task, ticket);
    // A caller that only wanted the acknowledgement must not cause an unhandled rejection.
    done.catch(() => undefined);
    return { taskId: task.id, done };
  }

  /**
   * The refusal of a task that arrives once `stop()` was called. A stop() called during start
   * leaves the phase `starting` until the start rolls back, and a task accepted meanwhile would
   * only be cancelled.
   */
  private stoppingRefusal(method: string): WeftError | undefined {
    if (!this.stopRequested && this.phase !== 'stopping' && this.phase !== 'stopped') {
      return undefined;
    }
    return new WeftError(
      'WEFT_SHUTTING_DOWN',
      `${method}: the runtime is stopping and accepts no new tasks.`,
      { status: 503, expose: true },
    );
  }

  private runQueued(task: AgentTask, ticket: number | undefined): Promise<AgentTask> {
    return this.scheduler.schedule(
      task.space.id,
      async (signal, lease) => {
        const run = this.runner.run(task, signal, lease, this.abandonment.signal);
        this.running.set(task, run);
        try {
          return await run;
        } finally {
          this.running.delete(task);
        }
      },
      ticket,
      // A task that settled completed or failed ran all its steps: a stop or a lost space that
      // came while it stored its chain must not make another instance run it again. One the stop
      // abandoned while it stored its chain is not known to be stored, and stays unfinished.
      (done) =>
        (done.status === 'completed' || done.status === 'failed') &&
        !(this.abandonment.signal.aborted && !done.recorded.chain),
    );
  }

  /** How the coordinator hands this runtime the tasks of an instance that died. */
  private readonly coordinatorHost: SpaceCoordinatorHost = {
    resume: (arrival: TaskArrival, ticket: number) => {
      const task = taskOfArrival(arrival);
      this.logger.info({ taskId: task.id, space: task.space.id, ticket }, 'resuming a task');
      void this.runResumed(task, ticket);
    },
  };

  private async runResumed(task: AgentTask, ticket: number): Promise<void> {
    try {
      const done = await this.runQueued(task, ticket);
      this.logger.info(
        { taskId: done.id, space: done.space.id, status: done.status },
        'resumed task ended',
      );
    } catch (error) {
      this.logger.warn(
        { taskId: task.id, space: task.space.id, ...errorLogFields(error) },
        'resumed task failed',
      );
    }
  }

  /**
   * Runs the start, but fails it once `startTimeoutMs` has passed, naming the part it waits for,
   * and shuts down what has started. The held part cannot be cancelled (an `init` has no
   * signal); when it ends, the start sees `startTimedOut` at its next checkpoint and only logs
   * how it ended, shutting down what it started meanwhile. The deadline is for starting: a start
   * that failed in time and is rolling back is waited for, as its rollback has deadlines of its
   * own, and rejects with its own error.
   */
  private async startWithinDeadline(): Promise<void> {
    const attempt = this.startOnce();
    const limitMs = this.options.startTimeoutMs;
    const outcome = await settleWithin(Promise.race([attempt, this.startGivenUp]), limitMs);
    if (outcome === START_GIVEN_UP) {
      // How the held part ends is logged by startOnce, which shuts down what it started then.
      attempt.catch(() => undefined);
      throw abandonedStart(undefined);
    }
    if (outcome !== TIMED_OUT) return;
    if (this.startRollingBack) return attempt;
    const timedOut = new WeftError(
      'WEFT_START_FAILED',
      `Runtime.start: ${this.startingPart} did not finish within startTimeoutMs (${limitMs} ms), so the start was abandoned. Find out why it hangs (its logs, the service it waits for), or raise options.startTimeoutMs if it needs longer.`,
    );
    this.startTimedOut = timedOut;
    // How the held part ends is logged by startOnce; its rejection is no longer anyone's answer.
    attempt.catch(() => undefined);
    const failure = this.stopRequested ? abandonedStart(timedOut) : timedOut;
    this.logger.error(errorLogFields(failure), 'runtime failed to start; rolling back');
    // A stop() that gave up waiting for the start has begun the teardown already.
    await (this.phase === 'starting' ? this.teardown('cancel') : this.tearingDown);
    throw failure;
  }

  private async startOnce(): Promise<void> {
    this.phase = 'starting';
    try {
      await this.startComponent('memory provider', this.config.memory.id, this.config.memory);
      for (const model of this.config.models) {
        await this.startComponent('model provider', model.id, model);
      }
      const coordinator = this.config.coordinator;
      if (coordinator) {
        await this.startComponent('coordinator', coordinator.id, {
          init: () => coordinator.init(this.coordinatorHost),
          shutdown: () => coordinator.shutdown(),
        });
      }
      for (const plugin of this.plugins.list()) {
        this.startingPart = `plugin "${plugin.id}": init()`;
        try {
          await plugin.init(this);
        } catch (error) {
          throw new WeftError(
            'WEFT_START_FAILED',
            `Runtime.start: plugin "${plugin.id}" failed to initialise: ${describeError(error)}`,
            { cause: error },
          );
        }
        this.started.push({ label: `plugin "${plugin.id}"`, shutdown: () => plugin.shutdown() });
        this.abandonIfStopped();
      }
      const routes = this.plugins.routes();
      if (routes.length > 0 && !SUPPORTS_SERVER) {
        // A browser cannot listen; the plugin's other parts still work through dispatch().
        this.logger.warn(
          {
            routes: routes.map(
              ({ pluginId, route }) => `${pluginId}: ${route.method} ${route.path}`,
            ),
          },
          'route triggers are not served: the HTTP server runs only in Node.js; dispatch tasks with runtime.dispatch()',
        );
      } else if (routes.length > 0) {
        for (const { pluginId, route } of routes) this.server.mount(pluginId, route, this);
        this.startingPart = 'the HTTP server: start()';
        await this.server.start();
        this.serverStarted = true;
        this.abandonIfStopped();
      }
      for (const { pluginId, trigger } of this.plugins.startTriggers()) {
        this.startingPart = `start trigger "${trigger.id}" of plugin "${pluginId}": start()`;
        try {
          await trigger.start(this, this.triggerController.signal);
        } catch (error) {
          throw new WeftError(
            'WEFT_START_FAILED',
            `Runtime.start: start trigger "${trigger.id}" of plugin "${pluginId}" failed: ${describeError(error)}`,
            { cause: error },
          );
        }
        this.abandonIfStopped();
      }
      this.scheduler.start();
      if (this.options.handleSignals) {
        this.stopListeningForSignals = onStopSignal(() => this.stop(), this.logger);
      }
      this.phase = 'running';
      this.logger.info(
        { plugins: this.plugins.list().map((plugin) => plugin.id), url: this.server.url },
        'runtime started',
      );
    } catch (error) {
      if (this.startTimedOut || this.stopGaveUp) {
        await this.endLateStart(error);
        return;
      }
      const failure = this.stopRequested ? abandonedStart(error) : error;
      this.startRollingBack = true;
      this.logger.error(errorLogFields(failure), 'runtime failed to start; rolling back');
      await this.teardown('cancel');
      throw failure;
    }
  }

  private async startComponent(
    kind: string,
    id: string,
    component: {
      init(): Promise<void>;
      // Optional: a memory provider is checked by shape, and the method is optional for it.
      checkHealth?(): Promise<boolean>;
      shutdown(): Promise<void>;
    },
  ): Promise<void> {
    this.startingPart = `${kind} "${id}": init()`;
    try {
      await component.init();
    } catch (error) {
      throw new WeftError(
        'WEFT_START_FAILED',
        `Runtime.start: ${kind} "${id}" failed to initialise: ${describeError(error)}`,
        { cause: error },
      );
    }
    this.started.push({ label: `${kind} "${id}"`, shutdown: () => component.shutdown() });
    this.abandonIfStopped();
    if (this.options.checkHealthOnStart) {
      this.startingPart = `${kind} "${id}": checkHealth()`;
      await this.requireHealthy(kind, id, component);
      this.abandonIfStopped();
    }
  }

  /** Fails the start, naming the provider, unless its `checkHealth()` answers `true` in time. */
  private async requireHealthy(
    kind: string,
    id: string,
    component: { checkHealth?(): Promise<boolean> },
  ): Promise<void> {
    if (typeof component.checkHealth !== 'function') return;
    const timeoutMs = this.options.healthCheckTimeoutMs;
    let problem: string | undefined;
    let thrown: unknown;
    try {
      const healthy = await settleWithin(component.checkHealth(), timeoutMs);
      if (healthy === TIMED_OUT) problem = `checkHealth() did not answer within ${timeoutMs} ms`;
      else if (healthy !== true) problem = 'checkHealth() answered false';
    } catch (error) {
      problem = `checkHealth() threw: ${describeError(error)}`;
      thrown = error;
    }
    if (problem === undefined) return;
    throw new WeftError(
      'WEFT_START_FAILED',
      `Runtime.start: ${kind} "${id}" is not healthy: ${problem}. Start it or fix its settings, or set options.checkHealthOnStart to false to start without checking.`,
      thrown === undefined ? {} : { cause: thrown },
    );
  }

  /**
   * Lets a stop() that arrives mid-start win, and a start past its deadline end: start rolls back
   * at its next checkpoint.
   */
  private abandonIfStopped(): void {
    if (this.startTimedOut) throw this.startTimedOut;
    if (this.stopGaveUp) throw this.stopGaveUp;
    if (this.stopRequested) throw abandonedStart(undefined);
  }

  /**
   * The part a start past its deadline, or past a stop() that gave up on it, held has ended:
   * start() has failed and rolled back already, so its end changes nothing but the log, and what
   * it started is shut down. A stop() has resolved by then: the lines say the start was rolled
   * back before, not now.
   */
  private async endLateStart(error: unknown): Promise<void> {
    const part = this.startingPart;
    const finished = error === this.startTimedOut || error === this.stopGaveUp;
    if (this.startTimedOut && finished) {
      this.logger.warn(
        { component: part },
        'a part finished after start timed out; shutting down what it started',
      );
    } else if (this.startTimedOut) {
      this.logger.warn(
        { component: part, ...errorLogFields(error) },
        'a part failed after start timed out; ignored',
      );
    } else if (finished) {
      this.logger.warn(
        { component: part },
        'a part finished after stop() gave up on the start; shutting down what it started',
      );
    } else {
      this.logger.warn(
        { component: part, ...errorLogFields(error) },
        'a part failed after stop() gave up on the start; ignored',
      );
    }
    const late = this.tearingDown.then(async () => {
      if (this.serverStarted) {
        this.serverStarted = false;
        await this.server.stop();
      }
      await this.shutDownStarted();
    });
    this.tearingDown = late.catch(() => undefined);
    try {
      await late;
    } catch (failure) {
      this.logger.error({ component: part, ...errorLogFields(failure) }, 'shutdown failed');
    }
  }

  private async stopOnce(): Promise<void> {
    if (this.phase === 'starting' && this.starting) {
      this.stopRequested = true;
      // A start trigger still running learns of the stop through its signal.
      this.triggerController.abort();
      // A start that sees the request rolls itself back; a start that completes is stopped below.
      // One held by a hung init or start trigger is waited for no longer than the grace: what has
      // started is stopped now, and the start stops what the hung call started when it returns.
      const settled = await withDeadline(
        this.starting.catch(() => undefined),
        STOP_GRACE_MS,
      );
      if (!settled) {
        this.stopGaveUp = abandonedStart(undefined);
        this.logger.error(
          { graceMs: STOP_GRACE_MS },
          'start did not end after stop; stopping what has started',
        );
        await this.teardown('cancel');
        this.giveUpStart();
        return;
      }
    }
    if (this.phase === 'stopped') return;
    // A start that failed is rolling back already: wait for it rather than tear down a second
    // time, which would log a second "runtime stopped" for one stop.
    if (this.phase === 'stopping') {
      await this.tearingDown;
      return;
    }
    // Draining runs queued tasks, which is only safe once everything they use has started.
    await this.teardown(this.phase === 'running' ? this.options.shutdown : 'cancel');
  }

  /**
   * One teardown at a time: a stop() that no longer waits for a start's rollback must not shut
   * the same components down beside it, each twice and the providers before the plugins.
   */
  private teardown(mode: 'drain' | 'cancel'): Promise<void> {
    // Refuse tasks and tell start triggers at once, even while an earlier teardown runs.
    this.phase = 'stopping';
    this.stopListeningForSignals();
    this.triggerController.abort();
    const next = this.tearingDown.then(() => this.teardownOnce(mode));
    this.tearingDown = next.catch(() => undefined);
    return next;
  }

  private async teardownOnce(mode: 'drain' | 'cancel'): Promise<void> {
    this.phase = 'stopping';
    this.stopListeningForSignals();
    this.triggerController.abort();
    if (mode === 'drain') {
      const drained = await withDeadline(
        this.scheduler.stop('drain'),
        this.options.shutdownTimeoutMs,
      );
      if (!drained) {
        this.logger.warn(
          { timeoutMs: this.options.shutdownTimeoutMs },
          'drain timed out; cancelling remaining tasks',
        );
      }
    }
    if (!(await withDeadline(this.scheduler.stop('cancel'), STOP_GRACE_MS))) {
      // Each task's space too, in the same order, as every line about a task gives it.
      const abandoned = [...this.running.keys()];
      this.logger.error(
        {
          taskIds: abandoned.map((task) => task.id),
          spaces: abandoned.map((task) => task.space.id),
          graceMs: STOP_GRACE_MS,
        },
        'tasks did not end after cancellation; abandoning them',
      );
      // They stop waiting for their chain's write and end as they are, so that every dispatch
      // has settled when stop() resolves. The turn of the event loop lets each settlement reach
      // its caller's promise.
      this.abandonment.abort();
      await withDeadline(Promise.allSettled(this.running.values()), STOP_GRACE_MS);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    if (this.serverStarted) {
      this.serverStarted = false;
      await this.server.stop();
    }
    await this.shutDownStarted();
    this.phase = 'stopped';
    this.logger.info('runtime stopped');
  }

  /**
   * Shuts down the parts started so far, and forgets them. One deadline for all of them, not one
   * each: hung shutdowns must not add up. They still run in reverse order, so a plugin stops
   * before the providers it uses; once the deadline has passed, the rest are still asked to
   * shut down but not waited for. A part that a held start adds meanwhile is left for later.
   */
  private async shutDownStarted(): Promise<void> {
    const deadline = performance.now() + STOP_GRACE_MS;
    for (const component of this.started.splice(0).reverse()) {
      try {
        const left = Math.max(0, deadline - performance.now());
        if (!(await withDeadline(component.shutdown(), left))) {
          this.logger.error(
            { component: component.label, graceMs: STOP_GRACE_MS },
            'shutdown timed out; going on without it',
          );
        }
      } catch (error) {
        // Keep shutting the rest down: one failing component must not leak the others.
        this.logger.error(
          { component: component.label, ...errorLogFields(error) },
          'shutdown failed',
        );
      }
    }
  }

  /**
   * One dependency may hold one worker less than there are, so a hung one always leaves a
   * worker for the other spaces; with a single worker there is nothing to keep free.
   */
  private static bulkheads(options: ResolvedOptions): Bulkheads {
    const { maxConcurrent, maxWaitMs, limits } = options.bulkhead;
    const concurrency = options.scheduler.concurrency ?? 4;
    return new Bulkheads({
      maxConcurrent: maxConcurrent ?? Math.max(1, concurrency - 1),
      maxWaitMs: maxWaitMs ?? DEFAULT_BULKHEAD_WAIT_MS,
      limits,
      // A call its task no longer waits for counts until it ends, at most one more task's time.
      holdAfterAbortMs: options.taskTimeoutMs,
    });
  }

  private static fillRegistries(
    config: RuntimeConfig,
    registries: {
      capabilities: CapabilityRegistry;
      prompts: PromptRegistry;
      plugins: PluginRegistry;
    },
    problems: string[],
  ): void {
    const { capabilities, prompts, plugins } = registries;
    prompts.registerCoreTemplates();
    for (const model of config.models) {
      for (const descriptor of model.descriptors ?? []) {
        collect(problems, `model "${model.id}"`, () => capabilities.register(descriptor));
      }
    }
    for (const group of config.capabilityAliases ?? []) {
      collect(problems, 'capabilityAliases', () => capabilities.addAliasGroup(group));
    }
    for (const model of config.models) {
      for (const transform of model.transforms ?? []) {
        collect(problems, `model "${model.id}"`, () => capabilities.addTransform(transform));
      }
    }
    // Each plugin is checked against every plugin before it, registered or not, so that an id
    // or a route it shares with one that has problems of its own is named in the same error.
    const earlier: RuntimeConfig['plugins'][number][] = [];
    for (const plugin of config.plugins) {
      const found = pluginProblems(plugin, earlier);
      if (Array.isArray(plugin.triggers)) earlier.push(plugin);
      if (found.length > 0) {
        problems.push(...found);
        compileAside(plugin, problems);
        continue;
      }
      plugins.register(plugin);
      for (const [name, source] of templateEntries(plugin.templates)) {
        collect(problems, `plugin "${plugin.id}"`, () => prompts.register(plugin.id, name, source));
      }
    }
  }

  private static checkCapabilities(
    config: RuntimeConfig,
    defaultProviders: Readonly<Record<string, string>>,
    { capabilities, models }: { capabilities: CapabilityRegistry; models: ModelManager },
    problems: string[],
  ): void {
    for (const model of config.models) {
      for (const capability of model.capabilities) {
        if (!capabilities.has(capability.id)) {
          problems.push(
            `model "${model.id}": offers capability "${capability.id}", which is not defined; list its descriptor in the provider's descriptors`,
          );
        }
      }
    }
    for (const [capability, providerId] of Object.entries(defaultProviders)) {
      collect(problems, `options.defaultProviders["${capability}"]`, () =>
        models.setDefaultProvider(capability, providerId),
      );
    }
    if (!models.canProvide('text-generation')) {
      problems.push(
        'models: no model provider offers "text-generation" (or an alias of it); the runtime needs one to plan pipelines',
      );
    }
    for (const plugin of config.plugins) {
      // A list that is not one is reported with the plugin's other problems.
      const required: unknown = plugin.requiredCapabilities;
      if (!Array.isArray(required)) continue;
      for (const capability of required as readonly unknown[]) {
        // An entry that is not an id is one of the plugin's shape problems, named already.
        if (typeof capability !== 'string' || capability === '') continue;
        if (!models.canProvide(capability)) {
          problems.push(
            `plugin "${plugin.id}": requires capability "${capability}", which no model provider offers`,
          );
        } else if (!capabilities.has(capability)) {
          // An alias group can name an id that no descriptor defines: a provider of its alias
          // is found, but every call to it would fail in the middle of a task.
          problems.push(
            `plugin "${plugin.id}": requires capability "${capability}", which no descriptor defines (calls to it would fail with WEFT_CAPABILITY_UNKNOWN); list its descriptor in a model provider's descriptors`,
          );
        }
      }
    }
  }
}

/**
 * The error of a start that stop() abandoned. A part that fails once the stop began (a start
 * trigger that honours its aborted signal, an init cut short) fails because of the stop, so the
 * start still rejects with the code of an abandoned start, the failure as its cause.
 */
function abandonedStart(failure: unknown): WeftError {
  if (WeftError.is(failure, 'WEFT_RUNTIME_STOPPED')) return failure;
  const base =
    'Runtime.start: stop() was called while the runtime was starting; start was abandoned';
  return failure === undefined
    ? new WeftError('WEFT_RUNTIME_STOPPED', `${base}.`)
    : new WeftError('WEFT_RUNTIME_STOPPED', `${base} (meanwhile: ${describeError(failure)})`, {
        cause: failure,
      });
}

/**
 * The ids of the plugins with a route trigger, quoted, each once; read by shape, so that a
 * plugin that could not be registered counts too.
 */
function routeOwnersOf(plugins: RuntimeConfig['plugins']): string[] {
  const owners = plugins.filter(
    (plugin) =>
      Array.isArray(plugin.triggers) &&
      plugin.triggers.some((trigger: unknown) => (trigger as { type?: unknown })?.type === 'route'),
  );
  return [...new Set(owners.map((plugin) => JSON.stringify(String(plugin.id))))];
}

/**
 * The HTTP server of `@weft/core/node`, or a problem naming the plugins whose routes need it
 * when it cannot be loaded (express or cors, its optional peer dependencies, not installed).
 */
async function loadServerFor(
  owners: readonly string[],
  problems: string[],
): Promise<((config: ServerManagerConfig, logger: Logger) => HttpServer) | undefined> {
  try {
    return await loadHttpServer();
  } catch (error) {
    problems.push(
      `plugin ${owners.join(', ')}: route triggers need the HTTP server of @weft/core/node, which could not be loaded (${describeError(error)}); install its peer dependencies with npm install express cors`,
    );
    return undefined;
  }
}

/**
 * The ids of the plugins with a template in Liquid, which needs liquidjs loaded first, quoted,
 * each once.
 */
function liquidOwnersOf(plugins: RuntimeConfig['plugins']): string[] {
  const owners = plugins.filter((plugin) =>
    templateEntries(plugin.templates).some(([, template]) => typeof template === 'string'),
  );
  return [...new Set(owners.map((plugin) => JSON.stringify(String(plugin.id))))];
}

/**
 * Loads liquidjs for the plugins' Liquid templates, or lists a problem naming those plugins when
 * it cannot be imported (an install that lacks it, a page whose chunk did not download), so that
 * the failure is one of the problems of the one `WEFT_INVALID_CONFIG` rather than an error of its
 * own that hides them. A failed import is tried again by the next `Runtime.init`.
 */
async function loadLiquidFor(owners: readonly string[], problems: string[]): Promise<void> {
  try {
    await loadLiquid();
  } catch (error) {
    problems.push(
      `plugin ${owners.join(', ')}: Liquid templates need liquidjs, a dependency of @weft/core, which could not be loaded (${describeError(error)}); reinstall the project's dependencies (in a page, check that its scripts download) and call Runtime.init again`,
    );
  }
}

/**
 * The names `options.bulkhead.limits` may use for the configured providers and plugins. A
 * memory that is not a provider (its own problem, listed already) gives no name.
 */
function dependencyKeys(config: RuntimeConfig): Set<string> {
  const memory: unknown = config.memory;
  const memoryId =
    typeof memory === 'object' && memory !== null ? (memory as { id?: unknown }).id : undefined;
  return new Set([
    ...config.models.map((model) => `model:${model.id}`),
    ...config.plugins.map((plugin) => `plugin:${plugin.id}`),
    ...(typeof memoryId === 'string' ? [`memory:${memoryId}`] : []),
  ]);
}

/**
 * Compiles the templates of a plugin that could not be registered, in a registry of their own
 * (its id may be another plugin's, or no name at all), so that one error lists what in them
 * does not parse beside the plugin's other problems.
 */
function compileAside(plugin: RuntimeConfig['plugins'][number], problems: string[]): void {
  const id: unknown = plugin.id;
  const owner = typeof id === 'string' ? `plugin "${id}"` : 'a plugin';
  const namespace = typeof id === 'string' && /^[a-z][a-z0-9-]*$/.test(id) ? id : 'plugin';
  const aside = new PromptRegistry();
  for (const [name, source] of templateEntries(plugin.templates)) {
    collect(problems, owner, () => aside.register(namespace, name, source));
  }
}

function collect(problems: string[], owner: string, register: () => void): void {
  try {
    register();
  } catch (error) {
    problems.push(`${owner}: ${describeError(error)}`);
  }
}

/** Waits for `promise` at most `ms` milliseconds; tells whether it settled in time. */
async function withDeadline(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return (await settleWithin(promise, ms)) !== TIMED_OUT;
}
