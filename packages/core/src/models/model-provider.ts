import type * as z from 'zod';
import type {
  CapabilityDescriptor,
  CapabilityTransformEntry,
  ICapabilities,
} from '../capabilities/capability.js';

/**
 * A value given directly, or computed (possibly asynchronously) when it is needed: handy for
 * secrets read from a vault at start-up rather than at import time.
 *
 * @typeParam T - The value's type.
 */
export type Resolvable<T> = T | (() => T | Promise<T>);

/**
 * Options for one capability call.
 *
 * @typeParam Options - The capability's per-call configuration type.
 */
export interface ModelRequestConfig<Options = unknown> {
  /** Per-call configuration, validated against the capability's `config` schema. */
  options?: Options;
  /** Id of the provider to use for this call, overriding the default provider. */
  provider?: string;
  /** Aborts the call when signalled; providers pass it on to their HTTP client. */
  signal?: AbortSignal;
  /**
   * What the call is for, in machine-readable form, so providers and test doubles can tell
   * requests apart without reading prompt wording. The runtime sets `plan` when it plans a
   * task's pipeline and `review` when it reviews the remaining steps; {@link ModelManager.getObject}
   * sets `get-object:<schemaName>` (such as `get-object:City`) unless the caller gives one.
   * Providers may ignore it.
   */
  purpose?: string;
  /**
   * The task the call is made for. The runtime sets it on every call it makes while running a
   * task: the plan, the reviews, and the calls an executor makes through `context.models`. A
   * provider or a test double reads the task's message here instead of parsing the prompt.
   * Absent on calls made outside a task.
   */
  task?: ModelRequestTask;
}

/** What a model call knows of the task it is made for; see {@link ModelRequestConfig.task}. */
export interface ModelRequestTask {
  /** The task's id, as in the runtime's log lines. */
  readonly id: string;
  /** The trigger's message: the user's words for a chat or HTTP trigger. Absent when it had none. */
  readonly message?: string;
}

/**
 * One capability as a model provider implements it.
 *
 * @typeParam K - The capability id; when it is a key of {@link ICapabilities} the input, the
 * options and the result are typed from its schemas, as `run` sees them: the input and options
 * as the schemas return them (defaults filled in, transforms applied), the result as the output
 * schema accepts it.
 */
export interface ModelCapability<K extends string = string> {
  /** The id of the capability this implements. */
  readonly id: K;
  /**
   * Runs the capability. The input has already been validated against the capability's input
   * schema; the returned value will be validated against its output schema.
   *
   * @param input - The validated input: what the input schema returned.
   * @param request - Per-call options (what the config schema returned, when there is one) and
   * abort signal.
   * @returns The capability's output, which the output schema then parses.
   */
  run(
    input: K extends keyof ICapabilities ? z.output<ICapabilities[K]['input']> : unknown,
    request: ModelRequestConfig<K extends keyof ICapabilities ? RunOptions<K> : unknown>,
  ): Promise<K extends keyof ICapabilities ? z.input<ICapabilities[K]['output']> : unknown>;
}

/**
 * The options `run` receives for a declared capability: what its config schema returned, or
 * `undefined` for a capability without one, for which `models.call` takes no options.
 *
 * @inline
 */
type RunOptions<K extends keyof ICapabilities> = ICapabilities[K] extends {
  config?: infer C;
}
  ? C extends z.ZodType
    ? z.output<C>
    : undefined
  : undefined;

/**
 * Base class of every model provider: a named source of capabilities, such as an
 * OpenAI-compatible endpoint offering `text-generation`. Subclasses list their capabilities
 * and may introduce new capability descriptors and transforms.
 *
 * @example
 * ```ts
 * import { ModelProvider, TEXT_GENERATION_CAPABILITY, type ModelCapability } from '@weft/core';
 *
 * class ShoutingModel extends ModelProvider {
 *   readonly id = 'shouting';
 *   readonly capabilities: ModelCapability[] = [
 *     {
 *       id: TEXT_GENERATION_CAPABILITY,
 *       run: async ({ messages }: { messages: { content: string }[] }) => ({
 *         text: (messages.at(-1)?.content ?? '').toUpperCase(),
 *       }),
 *     },
 *   ];
 * }
 * ```
 */
export abstract class ModelProvider {
  /** Unique id of this provider instance, used in errors, analytics and provider selection. */
  abstract readonly id: string;
  /** The capabilities this provider implements. */
  abstract readonly capabilities: readonly ModelCapability[];
  /**
   * Capability descriptors this provider introduces; `Runtime.init` registers them, before any
   * call, and reports a clash with a descriptor already registered as a configuration problem.
   */
  readonly descriptors: readonly CapabilityDescriptor[] = [];
  /** Transforms this provider contributes between capabilities of one alias group. */
  readonly transforms: readonly CapabilityTransformEntry[] = [];

  /** Prepares the provider (connections, credentials). Called once when the runtime starts. */
  async init(): Promise<void> {}

  /**
   * Reports whether the provider can serve requests.
   *
   * @returns `true` when healthy.
   */
  async checkHealth(): Promise<boolean> {
    return true;
  }

  /** Releases resources. Called once when the runtime stops. */
  async shutdown(): Promise<void> {}

  /**
   * Reads a {@link Resolvable} value.
   *
   * @param value - A value or a function producing it.
   * @returns The value.
   */
  protected async resolve<T>(value: Resolvable<T>): Promise<T> {
    return typeof value === 'function' ? await (value as () => T | Promise<T>)() : value;
  }
}
