/**
 * The plugin API: the Plugin base class, the triggers a plugin declares and the registry the
 * runtime keeps plugins in. A plugin and its triggers are handed the runtime, and the runtime
 * holds the registry, which hands back plugins and their routes: that circle is the API's own.
 * These three share a file so that the circle is this file, the runtime and its config, and
 * every other file of the core imports one way (tests/unit/core-import-graph.test.ts keeps it
 * so). How a plugin is checked lives below, in plugin-checks.ts.
 */
import { WeftError } from '../errors/weft-error.js';
import type { Runtime } from '../runtime/runtime.js';
import type { HttpMethod } from '../server/http-methods.js';
import type { RouteRequest, RouteResponse } from '../server/route.js';
import type { Executor } from './executor.js';
import type { PromptTemplate } from '../prompts/prompt-template.js';
import { pluginProblems } from './plugin-checks.js';

/**
 * A trigger that receives HTTP requests on the runtime's HTTP server (in Node.js). The handler usually
 * calls {@link Runtime.dispatch} and answers with something from the finished task.
 */
export interface TriggerRoute {
  /** Discriminant of {@link Trigger}. */
  readonly type: 'route';
  /** The trigger's id, unique within its plugin; becomes the trigger item's `action`. */
  readonly id: string;
  /** HTTP method. */
  readonly method: HttpMethod;
  /** Path to mount, starting with `/`, in express syntax (`/chat/:room`). */
  readonly path: string;
  /**
   * The code a request body that is not JSON of an object or array (malformed, a bare string or
   * number, or nested deeper than `server.maxJsonDepth`) is refused with, with status 400, so
   * the answer names the route's own rule. Without it the server answers `WEFT_BAD_REQUEST`. A
   * body larger than `server.bodyLimit` is answered 413 `WEFT_BAD_REQUEST` either way. The
   * answer's `docsUrl` links the code's section of the errors reference only for a code of Weft's
   * (`WEFT_...`); another code is answered without one.
   */
  readonly invalidBodyCode?: string;
  /**
   * Handles one request. JSON bodies are already parsed into `request.body`. Throwing (or
   * rejecting) answers 500 without details; an error with a 4xx `status` answers that status
   * (and its string `code`, if it has one), with its message when the error has `expose: true`,
   * as a `WeftError` made with a 4xx status has by default, and with the status's reason phrase
   * otherwise, logging the message under the request's id. A 5xx `status` is answered with
   * that status but the reason phrase only, and the error is logged under the request's id.
   *
   * @param request - The request: its parsed body, path parameters, headers and id.
   * @param response - Where the answer goes.
   * @param runtime - The runtime, to dispatch tasks.
   * @returns Nothing that is used: answer through `response`. A returned promise is awaited.
   * @claim tsdoc-route-4xx
   * @claim tsdoc-route-5xx
   */
  handler(request: RouteRequest, response: RouteResponse, runtime: Runtime): unknown;
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

/**
 * Base class of every plugin. A plugin bundles executors (actions the model can put in a
 * pipeline), triggers (ways events become tasks), the prompt templates it renders, and the
 * capabilities it needs from model providers. Subclasses set the fields; lifecycle hooks are
 * optional.
 *
 * @example
 * ```ts
 * import { Plugin, type Executor } from '@weft/core';
 *
 * export class ClockPlugin extends Plugin {
 *   readonly id = 'clock';
 *   readonly description = 'Tells the time.';
 *   override readonly executors: Executor[] = [
 *     {
 *       action: 'now',
 *       description: 'Returns the current time as an ISO 8601 string.',
 *       execute: async () => ({ success: true, data: { now: new Date().toISOString() } }),
 *     },
 *   ];
 * }
 * ```
 */
export abstract class Plugin {
  /**
   * Unique id: lower-case letters, digits and dashes, starting with a letter, such as
   * `weather`; `core` is reserved for the runtime.
   * @claim tsdoc-plugin-id
   */
  abstract readonly id: string;
  /** One sentence on what the plugin is for. */
  abstract readonly description: string;
  /** The plugin's executors; their actions must be unique within the plugin. */
  readonly executors: readonly Executor[] = [];
  /** The plugin's triggers; their ids must be unique within the plugin. */
  readonly triggers: readonly Trigger[] = [];
  /**
   * Prompt templates by name, registered under the plugin's id: liquid source
   * (`{ reply: 'Hi {{ name }}' }`) or functions of their variables, made with
   * {@link defineTemplate}. liquidjs is loaded only when some plugin has a liquid template.
   * @claim tsdoc-plugin-templates-lazy-liquid
   */
  readonly templates: Readonly<Record<string, string | PromptTemplate>> = {};
  /**
   * Capability ids the plugin calls; `Runtime.init` throws (`WEFT_INVALID_CONFIG`) when no model
   * provider offers one of them, directly or through an alias.
   */
  readonly requiredCapabilities: readonly string[] = [];

  /**
   * Prepares the plugin. Called once when the runtime starts, before any trigger runs.
   *
   * @param _runtime - The runtime the plugin belongs to.
   */
  async init(_runtime: Runtime): Promise<void> {}

  /** Releases resources. Called once when the runtime stops, after the last task. */
  async shutdown(): Promise<void> {}
}

/**
 * Holds the runtime's plugins and looks up their executors and triggers. Registration checks
 * each plugin's shape and reports every problem at once, naming the plugin: an invalid or
 * duplicate id, duplicate executor actions or trigger ids, and invalid or clashing routes.
 *
 * @example
 * ```ts
 * import { Plugin, PluginRegistry } from '@weft/core';
 *
 * class NoopPlugin extends Plugin {
 *   readonly id = 'noop';
 *   readonly description = 'Does nothing.';
 * }
 *
 * const registry = new PluginRegistry();
 * registry.register(new NoopPlugin());
 * console.log(registry.list().map((plugin) => plugin.id)); // ['noop']
 * ```
 */
export class PluginRegistry {
  private readonly plugins = new Map<string, Plugin>();

  /**
   * Checks a plugin without registering it.
   *
   * @param plugin - The plugin.
   * @returns One message per problem found; empty when the plugin is valid.
   */
  validate(plugin: Plugin): string[] {
    return pluginProblems(plugin, this.list());
  }

  /**
   * Registers a plugin.
   *
   * @param plugin - The plugin.
   * @throws {@link WeftError} `WEFT_INVALID_ARGUMENT` listing every problem
   * {@link PluginRegistry.validate} found.
   * @claim tsdoc-plugin-registry-register
   */
  register(plugin: Plugin): void {
    const problems = this.validate(plugin);
    if (problems.length > 0) {
      throw new WeftError(
        'WEFT_INVALID_ARGUMENT',
        `PluginRegistry: cannot register plugin:\n- ${problems.join('\n- ')}`,
      );
    }
    this.plugins.set(plugin.id, plugin);
  }

  /**
   * Returns a plugin by id.
   *
   * @param id - The plugin id.
   * @returns The plugin, or `undefined`.
   */
  get(id: string): Plugin | undefined {
    return this.plugins.get(id);
  }

  /**
   * Lists the registered plugins.
   *
   * @returns Every plugin, in registration order.
   */
  list(): Plugin[] {
    return [...this.plugins.values()];
  }

  /**
   * Finds an executor.
   *
   * @param pluginId - The plugin id.
   * @param action - The executor's action.
   * @returns The executor, or `undefined` when the plugin or action is unknown.
   */
  getExecutor(pluginId: string, action: string): Executor | undefined {
    return this.plugins.get(pluginId)?.executors.find((executor) => executor.action === action);
  }

  /**
   * Lists the executors of every plugin, as the planning prompt shows them.
   *
   * @returns Every executor with its plugin's id, in registration order.
   */
  executors(): { pluginId: string; executor: Executor }[] {
    return this.list().flatMap((plugin) =>
      plugin.executors.map((executor) => ({ pluginId: plugin.id, executor })),
    );
  }

  /**
   * Lists the HTTP trigger routes the runtime mounts.
   *
   * @returns Every HTTP trigger route with its plugin's id.
   */
  routes(): { pluginId: string; route: TriggerRoute }[] {
    return this.list().flatMap((plugin) =>
      plugin.triggers
        .filter((trigger): trigger is TriggerRoute => trigger.type === 'route')
        .map((route) => ({ pluginId: plugin.id, route })),
    );
  }

  /**
   * Lists the start triggers the runtime runs when it starts.
   *
   * @returns Every start trigger with its plugin's id.
   */
  startTriggers(): { pluginId: string; trigger: TriggerStart }[] {
    return this.list().flatMap((plugin) =>
      plugin.triggers
        .filter((trigger): trigger is TriggerStart => trigger.type === 'start')
        .map((trigger) => ({ pluginId: plugin.id, trigger })),
    );
  }
}
