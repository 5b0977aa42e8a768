import type { Plugin } from './plugin.js';
import type { Executor } from './executor.js';
import type { TriggerRoute, TriggerStart } from './types.js';
import { WeftError } from '../errors/weft-error.js';

const PLUGIN_ID = /^[a-z][a-z0-9-]*$/;
const RESERVED_IDS = new Set(['core']);
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

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
    const problems: string[] = [];
    const id: unknown = plugin?.id;
    const name = typeof id === 'string' ? `plugin "${id}"` : 'a plugin';
    if (typeof id !== 'string' || !PLUGIN_ID.test(id)) {
      problems.push(
        `${name}: id must be lower-case letters, digits and dashes, starting with a letter (got ${JSON.stringify(id)})`,
      );
    } else if (this.plugins.has(id)) {
      problems.push(`${name}: another plugin already has this id`);
    } else if (RESERVED_IDS.has(id)) {
      problems.push(
        `${name}: the id is reserved for the runtime's own templates and chain items; choose another`,
      );
    }
    if (!Array.isArray(plugin?.executors) || !Array.isArray(plugin?.triggers)) {
      problems.push(
        `${name}: executors and triggers must be arrays; does the plugin extend Plugin?`,
      );
      return problems;
    }
    const actions = new Set<string>();
    for (const executor of plugin.executors) {
      if (typeof executor?.action !== 'string' || executor.action === '') {
        problems.push(`${name}: an executor has no action name`);
        continue;
      }
      if (actions.has(executor.action))
        problems.push(`${name}: executor action "${executor.action}" is defined twice`);
      actions.add(executor.action);
      if (typeof executor.execute !== 'function')
        problems.push(`${name}: executor "${executor.action}" has no execute function`);
      if (typeof executor.description !== 'string' || executor.description.trim() === '') {
        problems.push(
          `${name}: executor "${executor.action}" needs a description (the model chooses executors by it)`,
        );
      }
    }
    const triggerIds = new Set<string>();
    const routes = new Set(this.routes().map(({ route }) => `${route.method} ${route.path}`));
    for (const trigger of plugin.triggers) {
      if (typeof trigger?.id !== 'string' || trigger.id === '') {
        problems.push(`${name}: a trigger has no id`);
        continue;
      }
      if (triggerIds.has(trigger.id))
        problems.push(`${name}: trigger id "${trigger.id}" is used twice`);
      triggerIds.add(trigger.id);
      if (trigger.type === 'route') {
        if (!METHODS.has(trigger.method))
          problems.push(
            `${name}: trigger "${trigger.id}" has unsupported method ${JSON.stringify(trigger.method)}`,
          );
        if (typeof trigger.path !== 'string' || !trigger.path.startsWith('/')) {
          problems.push(
            `${name}: trigger "${trigger.id}" path must start with "/" (got ${JSON.stringify(trigger.path)})`,
          );
        }
        const key = `${trigger.method} ${trigger.path}`;
        if (routes.has(key))
          problems.push(`${name}: route ${key} of trigger "${trigger.id}" is already taken`);
        routes.add(key);
        if (typeof trigger.handler !== 'function')
          problems.push(`${name}: trigger "${trigger.id}" has no handler function`);
      } else if (trigger.type === 'start') {
        if (typeof trigger.start !== 'function')
          problems.push(`${name}: trigger "${trigger.id}" has no start function`);
      } else {
        problems.push(
          `${name}: trigger "${trigger.id}" has unknown type ${JSON.stringify((trigger as { type?: unknown }).type)}; use "route" or "start"`,
        );
      }
    }
    return problems;
  }

  /**
   * Registers a plugin.
   *
   * @param plugin - The plugin.
   * @throws Error listing every problem {@link PluginRegistry.validate} found.
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
