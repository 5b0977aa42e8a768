import type { Runtime } from '../runtime/runtime.js';
import type { Executor, Trigger } from './types.js';

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
  /** Unique id: lower-case letters, digits and dashes, such as `weather`. */
  abstract readonly id: string;
  /** One sentence on what the plugin is for. */
  abstract readonly description: string;
  /** The plugin's executors; their actions must be unique within the plugin. */
  readonly executors: readonly Executor[] = [];
  /** The plugin's triggers; their ids must be unique within the plugin. */
  readonly triggers: readonly Trigger[] = [];
  /** Liquid templates by name, registered under the plugin's id: `{ reply: 'Hi {{ name }}' }`. */
  readonly templates: Readonly<Record<string, string>> = {};
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
