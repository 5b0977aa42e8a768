import type { Logger } from 'pino';
import type { AnalyticsTracker } from '../analytics/analytics-manager.js';
import type { CapabilityAliasGroup } from '../capabilities/capability.js';
import type { MemoryProvider } from '../memory/memory-provider.js';
import type { ModelProvider } from '../models/model-provider.js';
import type { PipelineReview } from '../pipeline/review-policy.js';
import type { Plugin } from '../plugins/plugin.js';
import type { ServerManagerConfig } from '../server/server-config.js';
import { serverCrossFieldProblems } from '../server/server-options.js';
import { readCoreEnvironment } from '../util/environment.js';
import { ONE_SHOT } from '../util/one-shot-parse.js';
import { hostEnvironment, SUPPORTS_SERVER, SUPPORTS_SIGNALS } from '#platform';
import { optionsSchema, type ResolvedOptions } from './options-schema.js';
import type { SpaceCoordinator } from '../scheduler/space-coordinator.js';

/**
 * Everything {@link Runtime.init} needs: the model providers, the memory store, the plugins and,
 * optionally, capability aliases, a space coordinator and {@link RuntimeOptions}. Name it to
 * build a configuration in one place and hand it to `Runtime.init` in another.
 *
 * @example
 * ```ts
 * import { Runtime, type MemoryProvider, type ModelProvider, type RuntimeConfig } from '@weft/core';
 *
 * function configFor(model: ModelProvider, memory: MemoryProvider): RuntimeConfig {
 *   return { models: [model], memory, plugins: [], options: { maxSteps: 5 } };
 * }
 *
 * async function main(model: ModelProvider, memory: MemoryProvider) {
 *   return Runtime.init(configFor(model, memory));
 * }
 * ```
 */
export interface RuntimeConfig {
  /** Model providers; at least one must offer `text-generation` (or an alias of it). */
  models: readonly ModelProvider[];
  /** The memory store. */
  memory: MemoryProvider;
  /** The plugins, in the order their executors are shown to the model. */
  plugins: readonly Plugin[];
  /** Groups of capability ids that can stand in for one another. */
  capabilityAliases?: readonly CapabilityAliasGroup[];
  /**
   * Keeps each space's tasks in order across several runtimes that share a store, such as
   * `PostgresSpaceCoordinator` of `@weft/coordinator-postgres`. Without one, the order holds
   * within this runtime only, not between two runtimes, even in one process.
   */
  coordinator?: SpaceCoordinator;
  /** Tuning; every field has a default. */
  options?: RuntimeOptions;
}

/**
 * The tuning of a runtime, `RuntimeConfig.options`: step and time limits, the scheduler and
 * bulkhead limits, the HTTP server, analytics, shutdown, health checks and the logger. Every
 * field is optional and has a default; {@link Runtime.init} rejects a wrong value naming it.
 */
export interface RuntimeOptions {
  /**
   * Most steps one task may run. Default 10.
   * @claim tsdoc-options-default-max-steps
   */
  maxSteps?: number;
  /**
   * Longest a task may run, in milliseconds, from when it leaves the queue. Past it the task's
   * signal is aborted, an error item with code `WEFT_TASK_TIMEOUT` ends its chain, it ends
   * `failed`, and its worker is freed even if an executor ignores the signal. Default 120000.
   * @claim tsdoc-options-default-task-timeout-ms
   */
  taskTimeoutMs?: number;
  /**
   * How many times getObject asks again after an invalid answer. Default 2.
   * @claim tsdoc-options-default-get-object-retries
   */
  getObjectRetries?: number;
  /**
   * When the model reviews the remaining steps: `always` (default), `on-failure` or `never`.
   * @claim tsdoc-options-default-pipeline-review
   */
  pipelineReview?: PipelineReview;
  /**
   * Whether `always` also reviews after the last planned step when it succeeded. That review
   * can only add steps, and each one is a model call: one per task, and one more after the last
   * of any steps it adds. Default `false`.
   * @claim tsdoc-options-default-review-final-step
   */
  reviewFinalStep?: boolean;
  /**
   * How many earlier tasks (and other related memories) a task's history shows at most, newest
   * first; a task's trigger and chain are one entry. Default 10. That history is what
   * `MemoryManager.describeRelated` renders: the planning prompt shows it, and so does any step
   * that asks for it, such as the chat plugins' reply.
   * @claim tsdoc-options-default-related-memories
   */
  relatedMemories?: number;
  /**
   * The most characters that history may take, wherever it is shown; the newest entries are
   * kept when they do not all fit. Default 4000.
   * @claim tsdoc-options-default-related-memory-chars
   */
  relatedMemoryChars?: number;
  /**
   * Scheduler limits: `concurrency` (default 4) and `maxQueueSize` (default 1000).
   * @claim tsdoc-options-default-scheduler
   */
  scheduler?: { concurrency?: number; maxQueueSize?: number };
  /**
   * Limits on what one dependency may hold at once: `maxConcurrent` calls per model provider,
   * plugin and memory provider (default one less than `scheduler.concurrency`), `maxWaitMs`
   * for a slot (default 30000), and `limits` per dependency (`model:<id>`, `plugin:<id>`,
   * `memory:<id>`).
   * @claim tsdoc-options-default-bulkhead
   */
  bulkhead?: {
    maxConcurrent?: number;
    maxWaitMs?: number;
    limits?: Readonly<Record<string, number>>;
  };
  /** HTTP server settings, used when some plugin has a route trigger. */
  server?: ServerManagerConfig;
  /**
   * `true` to collect analytics, or `{ trackers }` to also forward events. Default off.
   * @claim tsdoc-options-default-analytics
   */
  analytics?: boolean | { trackers?: readonly AnalyticsTracker[] };
  /**
   * Stop gracefully on SIGINT and SIGTERM, then end the process. Default `false`. The listeners
   * are added when `start()` has finished: a signal while it starts meets Node's default, which
   * ends the process at once, unless the program listens for it (or Node.js is a container's
   * first process, PID 1, which Linux does not end for such a signal).
   * @claim tsdoc-options-default-handle-signals
   * @claim tsdoc-options-handle-signals-after-start
   */
  handleSignals?: boolean;
  /**
   * On stop, let queued tasks finish (`drain`, default) or cancel them (`cancel`).
   * @claim tsdoc-options-default-shutdown
   */
  shutdown?: 'drain' | 'cancel';
  /**
   * How long a draining stop waits before it cancels what is left. Default 30000 ms. Tasks
   * that have not ended a short grace after the cancel are abandoned (logged with their ids),
   * so `stop()` resolves within about this time plus a few seconds whatever executors do.
   * @claim tsdoc-options-default-shutdown-timeout-ms
   */
  shutdownTimeoutMs?: number;
  /** Default provider id per capability id, when several providers offer one. */
  defaultProviders?: Readonly<Record<string, string>>;
  /**
   * Whether `start()` calls each model and memory provider's `checkHealth()` after its `init`,
   * and fails with `WEFT_START_FAILED` naming the provider when it answers `false`, throws,
   * or takes longer than `healthCheckTimeoutMs`. Default `false`: without it, a provider that
   * is down is first noticed by the task that calls it.
   * @claim tsdoc-options-default-check-health-on-start
   */
  checkHealthOnStart?: boolean;
  /**
   * The longest `start()` may take, in milliseconds. Default 60000. Past it the start fails with
   * `WEFT_START_FAILED` naming the part it was still waiting for (an `init` that never settles,
   * a health check, the HTTP server or a start trigger), the start triggers' signal is aborted,
   * what had started is shut down, and the runtime is left stopped. Whatever the held part does
   * later is only logged, and what it started then is shut down. The default is below systemd's
   * default start timeout of 90 s (`DefaultTimeoutStartSec`), and the 60 s leave room for the
   * rollback's 2 s shutdown grace within it, so a unit that waits for the start (`Type=notify`,
   * whose program sends systemd's readiness notice itself: the runtime sends none) logs the error
   * naming the hung part rather than a kill by systemd that names nothing.
   * @claim tsdoc-options-default-start-timeout-ms
   */
  startTimeoutMs?: number;
  /**
   * The longest one provider's `checkHealth()` may take at start, with `checkHealthOnStart`,
   * in milliseconds. Default 10000.
   * @claim tsdoc-options-default-health-check-timeout-ms
   */
  healthCheckTimeoutMs?: number;
  /**
   * With a `coordinator`, the longest the runtime waits for its `admit` or `release`, in
   * milliseconds. Default 15000. A `dispatch` (or `accept`) whose `admit` has not settled by then
   * rejects with `WEFT_COORDINATOR_TIMEOUT` (status 503) and its task never runs; a ticket the
   * coordinator hands out later is given back finished. A `release` past it is logged, and the
   * space's next task is asked for all the same.
   * @claim tsdoc-options-default-coordinator-timeout-ms
   */
  coordinatorTimeoutMs?: number;
  /**
   * With a `coordinator`, the longest the runtime waits for its `acquire` of a space, in
   * milliseconds. Default 900000 (15 minutes), above `@weft/coordinator-postgres`'s own
   * `acquireTimeoutMs`. Past it the space's tasks waiting on this instance reject with
   * `WEFT_COORDINATOR_TIMEOUT` (status 503) and never run.
   * @claim tsdoc-options-default-coordinator-acquire-timeout-ms
   */
  coordinatorAcquireTimeoutMs?: number;
  /** A pino logger; by default JSON logs to stdout at `info` (or `WEFT_LOG_LEVEL`). */
  logger?: Logger;
}

export { optionsSchema, type ResolvedOptions } from './options-schema.js';

/** The fields of a {@link RuntimeConfig}; any other key is reported as a problem. */
const CONFIG_FIELDS: readonly string[] = [
  'models',
  'memory',
  'plugins',
  'capabilityAliases',
  'coordinator',
  'options',
] satisfies readonly (keyof RuntimeConfig)[];

/**
 * Checks the shape of a runtime configuration and applies defaults. Problems that need the
 * registries (capabilities, routes) are checked by the runtime itself; both kinds are reported
 * together. `registrable` tells whether the models, plugins and alias groups are well-formed
 * enough for those registry checks to run, even when other parts (such as options) are wrong.
 */
export function checkConfigShape(config: RuntimeConfig): {
  options: ResolvedOptions | undefined;
  problems: string[];
  registrable: boolean;
  naming: NamingOptions;
} {
  const problems: string[] = [];
  if (typeof config !== 'object' || config === null) {
    return {
      options: undefined,
      problems: ['the configuration must be an object with models, memory and plugins'],
      registrable: false,
      naming: { defaultProviders: {}, limits: {} },
    };
  }
  // A misspelt field (`option`, `coordinater`) would otherwise be ignored with what it holds.
  for (const key of Object.keys(config)) {
    if (!CONFIG_FIELDS.includes(key)) {
      problems.push(
        `${key}: not a field of the configuration; the fields are ${CONFIG_FIELDS.join(', ')}`,
      );
    }
  }
  // Only the models' problems keep the registry checks from running: a misspelt field above does
  // not, so the one error still lists the plugins' problems beside it.
  const beforeModels = problems.length;
  if (!Array.isArray(config.models) || config.models.length === 0) {
    problems.push('models: list at least one model provider (one must offer "text-generation")');
  } else {
    const ids = new Set<string>();
    config.models.forEach((model, index) => {
      if (!looksLike<ModelProvider>(model, ['init', 'shutdown'])) {
        problems.push(
          `models[${index}]: expected a ModelProvider instance, got ${describe(model)}`,
        );
        return;
      }
      if (typeof model.id !== 'string' || model.id === '')
        problems.push(`models[${index}]: the provider has no id`);
      else if (ids.has(model.id))
        problems.push(`model "${model.id}": two providers share this id; give each a unique id`);
      ids.add(model.id);
      // Iterated by the registry checks, which a list that is not one would crash (from JavaScript).
      for (const field of ['descriptors', 'transforms'] as const) {
        const list: unknown = model[field];
        if (list !== undefined && !Array.isArray(list)) {
          problems.push(`model "${model.id}": ${field} must be an array, got ${describe(list)}`);
        }
      }
      if (!Array.isArray(model.capabilities)) {
        problems.push(`model "${model.id}": capabilities must be an array`);
        return;
      }
      model.capabilities.forEach((capability: unknown, position) => {
        const { id, run } = (capability ?? {}) as { id?: unknown; run?: unknown };
        if (typeof id !== 'string' || id === '' || typeof run !== 'function') {
          problems.push(
            `model "${model.id}": capabilities[${position}] must be an object with an id and a run function, got ${describe(capability)}`,
          );
        }
      });
    });
  }
  const registrable = problems.length === beforeModels;
  if (
    !looksLike<MemoryProvider>(config.memory, [
      'init',
      'store',
      'query',
      'update',
      'remove',
      'clear',
      'shutdown',
    ])
  ) {
    problems.push(`memory: expected a MemoryProvider instance, got ${describe(config.memory)}`);
  }
  if (
    config.coordinator !== undefined &&
    !looksLike<SpaceCoordinator>(config.coordinator, [
      'init',
      'shutdown',
      'admit',
      'acquire',
      'release',
    ])
  ) {
    problems.push(
      `coordinator: expected a SpaceCoordinator instance, got ${describe(config.coordinator)}`,
    );
  }
  let pluginsValid = true;
  if (!Array.isArray(config.plugins)) {
    problems.push('plugins: expected an array of plugins');
    pluginsValid = false;
  } else {
    config.plugins.forEach((plugin, index) => {
      // A provider has init and shutdown too: the lists tell a plugin from one put in the
      // wrong list, whose problems would otherwise come out among the plugins' own.
      if (
        looksLike<Plugin>(plugin, ['init', 'shutdown']) &&
        Array.isArray(plugin.executors) &&
        Array.isArray(plugin.triggers)
      )
        return;
      problems.push(`plugins[${index}]: expected a Plugin instance, got ${describe(plugin)}`);
      pluginsValid = false;
    });
  }
  const aliasesValid =
    config.capabilityAliases === undefined || Array.isArray(config.capabilityAliases);
  if (!aliasesValid) problems.push('capabilityAliases: expected an array of capability id groups');
  // Parsed once per runtime: zod's compiled fast path would cost more to build than it saves.
  const parsed = optionsSchema.safeParse(config.options ?? {}, ONE_SHOT);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = ['options', ...issue.path.map(String)].join('.');
      problems.push(`${path}: ${issue.message}`);
    }
  }
  // Rules between options run on what was given, so they are reported beside other problems;
  // options that break one are not handed on (the server's constructor would throw alone).
  const ruleProblems = serverCrossFieldProblems(optionsRecord(config.options).server);
  problems.push(...ruleProblems.map((problem) => `options.server: ${problem}`));
  // The variables are read only by what they configure: a given logger makes the level moot.
  if (optionsRecord(config.options).logger === undefined) {
    problems.push(...readCoreEnvironment(hostEnvironment()).problems);
  }
  // In a browser, options that configure what only Node.js has are mistakes, named as such.
  if (!SUPPORTS_SERVER && optionsRecord(config.options).server !== undefined) {
    problems.push(
      'options.server: the HTTP server runs only in Node.js, and a browser has none; leave options.server out there (route triggers are not served; dispatch tasks with runtime.dispatch())',
    );
  }
  if (!SUPPORTS_SIGNALS && optionsRecord(config.options).handleSignals === true) {
    problems.push(
      'options.handleSignals: process signals exist only in Node.js; leave it off in a browser and call runtime.stop() yourself (for example on the pagehide event)',
    );
  }
  return {
    options: parsed.success && ruleProblems.length === 0 ? parsed.data : undefined,
    problems,
    registrable: registrable && pluginsValid && aliasesValid,
    naming: parsed.success
      ? { defaultProviders: parsed.data.defaultProviders, limits: parsed.data.bulkhead.limits }
      : namingOptions(optionsRecord(config.options)),
  };
}

/**
 * The options that name a model provider or plugin, which only the runtime's registries can
 * check: `defaultProviders` and `bulkhead.limits`.
 */
export interface NamingOptions {
  defaultProviders: Readonly<Record<string, string>>;
  limits: Readonly<Record<string, number>>;
}

/**
 * The naming options when the options as a whole did not parse, each entry taken on its own, so
 * that a wrong option elsewhere, or a wrong value beside it (a limit of `0`, a provider id that
 * is not a string), does not hide a provider or plugin an entry names that does not exist. An
 * entry that is wrong itself is named by the whole parse already, and left out here.
 */
function namingOptions(given: Record<string, unknown>): NamingOptions {
  const { defaultProviders, bulkhead } = optionsSchema.shape;
  const providerId = defaultProviders.unwrap().valueType;
  const limit = bulkhead.unwrap().shape.limits.unwrap().valueType;
  return {
    defaultProviders: validEntries(given.defaultProviders, (value) =>
      providerId.safeParse(value, ONE_SHOT),
    ),
    limits: validEntries(optionsRecord(given.bulkhead).limits, (value) =>
      limit.safeParse(value, ONE_SHOT),
    ),
  };
}

/** The entries of a plain object whose values parse, with their parsed values. */
function validEntries<T>(
  record: unknown,
  parse: (value: unknown) => { success: true; data: T } | { success: false },
): Record<string, T> {
  const entries: Record<string, T> = {};
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return entries;
  for (const [key, value] of Object.entries(record)) {
    const parsed = parse(value);
    if (parsed.success) entries[key] = parsed.data;
  }
  return entries;
}

function optionsRecord(options: unknown): Record<string, unknown> {
  return typeof options === 'object' && options !== null
    ? (options as Record<string, unknown>)
    : {};
}

/**
 * Structural rather than `instanceof` checks, so that a provider built against another copy of
 * the core (an ESM and a CJS build side by side) is still accepted.
 */
function looksLike<T>(value: unknown, methods: readonly string[]): value is T {
  return (
    typeof value === 'object' &&
    value !== null &&
    methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function')
  );
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object')
    return value.constructor?.name ? `an instance of ${value.constructor.name}` : 'a plain object';
  return typeof value;
}
