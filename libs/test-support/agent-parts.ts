/**
 * The parts the agents of the tests and probes are built from: a plugin declared by its fields
 * alone, and an executor's wait that never ends. The packages' tests, the agent programs of the
 * cross-package tests and the reliability probe all build such agents, and live in layers that
 * cannot import one another; this library sits below all of them.
 */
import { Plugin, type Executor, type Trigger } from '@weft/core';

/** What a plugin of {@link pluginOf} declares; what it leaves out keeps the base class's default. */
export interface PluginParts {
  readonly id: string;
  readonly description: string;
  readonly executors?: readonly Executor[];
  readonly triggers?: readonly Trigger[];
  /** Replaces the base class's `shutdown`, which resolves at once. */
  readonly shutdown?: () => Promise<void>;
}

/** A plugin made of `parts`, for an agent that needs no plugin class of its own. */
export function pluginOf(parts: PluginParts): Plugin {
  return new (class extends Plugin {
    readonly id = parts.id;
    readonly description = parts.description;
    override readonly executors = parts.executors ?? [];
    override readonly triggers = parts.triggers ?? [];
    override shutdown(): Promise<void> {
      return parts.shutdown === undefined ? super.shutdown() : parts.shutdown();
    }
  })();
}

/**
 * Never settles, and keeps the process alive by a timer it never clears, as a hung executor
 * does: only the runtime's exit ends a program that waits on it.
 */
export function hangWithTimer(): Promise<never> {
  setInterval(() => undefined, 1_000);
  return new Promise<never>(() => undefined);
}
