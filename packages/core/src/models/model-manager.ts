import type { Logger } from 'pino';
import * as z from 'zod';
import type { AnalyticsTracker } from '../analytics/analytics-manager.js';
import type { CallGuard } from '../bulkhead/bulkhead.js';
import type { CapabilityRegistry } from '../capabilities/capability-registry.js';
import {
  TEXT_GENERATION_CAPABILITY,
  type CapabilityDescriptor,
  type CapabilityMap,
  type CapabilityTransformEntry,
} from '../capabilities/capability.js';
import type { PromptRegistry } from '../prompts/prompt-registry.js';
import { describeError, WeftError } from '../errors/weft-error.js';
import { cutText } from '../util/cut-text.js';
import { raceAbort } from '../util/deadline.js';
import { MAX_LOGGED_ERROR_CHARS } from '../util/logger.js';
import { formatZodSchema, inputJsonSchema } from './format-zod-schema.js';
import { assertZod4Schema } from './zod-schema-check.js';
import { extractJson, quotedProblems, type GetObjectConfig } from './get-object.js';
import type {
  ModelCapability,
  ModelProvider,
  ModelRequestConfig,
  ModelRequestTask,
} from './model-provider.js';

interface Route {
  provider: ModelProvider;
  capability: ModelCapability;
  transform: CapabilityTransformEntry | undefined;
}

/**
 * Calls capabilities on the runtime's model providers. It resolves a capability id (or an
 * alias of it) to a provider, validates the input and the output against the capability's
 * schemas, applies transforms between aliased capabilities, and reports to analytics each call
 * that passes those checks, as failed when its provider's bulkhead refuses it (one refused
 * before, for an aborted signal or an invalid input, is not reported). {@link ModelManager.getObject} builds structured output on top of text generation.
 *
 * A runtime creates its ModelManager; plugins reach it as `context.models`.
 *
 * @example
 * ```ts
 * import type { ExecutionContext } from '@weft/core';
 *
 * async function summarise(context: ExecutionContext, text: string): Promise<string> {
 *   const { text: summary } = await context.models.call('text-generation', {
 *     messages: [{ role: 'user', content: `Summarise in one sentence: ${text}` }],
 *   });
 *   return summary;
 * }
 * ```
 * @claim tsdoc-models-analytics
 */
export class ModelManager {
  private readonly registry: CapabilityRegistry;
  private readonly providerList: readonly ModelProvider[];
  private readonly prompts: PromptRegistry;
  private analytics: AnalyticsTracker | undefined;
  // Not readonly: a task's view logs with the task's logger, so its lines carry the task id.
  private logger: Logger | undefined;
  private readonly defaultMaxRetries: number;
  private readonly defaults = new Map<string, string>();
  private defaultSignal: AbortSignal | undefined;
  private defaultTask: ModelRequestTask | undefined;
  private guard: CallGuard | undefined;

  /**
   * Creates a manager over a set of providers. A runtime creates its own; build one yourself
   * only to call providers outside a runtime.
   *
   * @param options - The capability registry, the providers, the prompt registry holding the
   * `core/get-object` templates, and optionally an analytics tracker, a logger and the default
   * number of getObject retries (2).
   */
  constructor(options: {
    registry: CapabilityRegistry;
    providers: readonly ModelProvider[];
    prompts: PromptRegistry;
    analytics?: AnalyticsTracker;
    logger?: Logger;
    getObjectRetries?: number;
  }) {
    this.registry = options.registry;
    this.providerList = options.providers;
    this.prompts = options.prompts;
    this.analytics = options.analytics;
    this.logger = options.logger;
    this.defaultMaxRetries = options.getObjectRetries ?? 2;
  }

  /**
   * The configured providers.
   *
   * @returns The providers, in the order they were configured.
   */
  get providers(): readonly ModelProvider[] {
    return this.providerList;
  }

  /**
   * Chooses which provider serves a capability by default; otherwise the first configured
   * provider offering it does.
   *
   * @param capability - A capability id.
   * @param providerId - Id of a provider that offers the capability directly.
   * @throws {@link WeftError} `WEFT_INVALID_ARGUMENT` when no provider has that id, or
   * `WEFT_CAPABILITY_UNAVAILABLE` when it does not offer the capability directly.
   * @claim tsdoc-models-default-provider
   */
  setDefaultProvider(capability: string, providerId: string): void {
    const provider = this.providerList.find((candidate) => candidate.id === providerId);
    if (!provider) {
      throw new WeftError(
        'WEFT_INVALID_ARGUMENT',
        `ModelManager: cannot make "${providerId}" the default for "${capability}": no provider has that id (known: ${this.providerIds()}).`,
      );
    }
    if (!provider.capabilities.some((offered) => offered.id === capability)) {
      throw new WeftError(
        'WEFT_CAPABILITY_UNAVAILABLE',
        `ModelManager: provider "${providerId}" does not offer capability "${capability}", so it cannot be its default.`,
      );
    }
    this.defaults.set(capability, providerId);
  }

  /**
   * Returns a view of this manager whose calls carry `signal` unless a call passes its own. The
   * runtime gives each executor such a view as `context.models`, so model calls stop with the
   * task without the executor passing the signal along.
   *
   * @param signal - The signal to apply by default.
   * @returns A manager sharing this one's providers, defaults and analytics.
   *
   * @example
   * ```ts
   * import type { ModelManager } from '@weft/core';
   *
   * async function answerWithin(models: ModelManager, question: string, ms: number) {
   *   return models.withSignal(AbortSignal.timeout(ms)).generateText(question);
   * }
   * ```
   */
  withSignal(signal: AbortSignal): ModelManager {
    const view = Object.create(this) as ModelManager;
    view.defaultSignal = signal;
    return view;
  }

  /**
   * A view for one task: its calls carry the task's signal and describe the task in
   * `request.task`, each provider call runs under the provider's bulkhead (`model:<provider id>`)
   * when there is a guard, and its log lines carry the task's fields (its events go to the task's
   * view of the analytics, whose lines do too), so a grep for the task id finds them.
   *
   * @param signal - The task's signal.
   * @param guard - The task's bulkhead guard, if the runtime has bulkheads.
   * @param task - The task's log fields (`taskId`, `space`), its view of the analytics, and what
   *   the calls tell providers about it (`request`).
   * @returns A manager sharing this one's providers and defaults.
   * @internal
   */
  forTask(
    signal: AbortSignal,
    guard: CallGuard | undefined,
    task: {
      fields?: Record<string, string>;
      analytics?: AnalyticsTracker;
      request?: ModelRequestTask;
    } = {},
  ): ModelManager {
    const view = this.withSignal(signal);
    if (guard) view.guard = guard;
    if (task.fields) view.logger = this.logger?.child(task.fields);
    if (task.analytics && this.analytics) view.analytics = task.analytics;
    view.defaultTask = task.request;
    return view;
  }

  /**
   * Tells whether some provider can serve a capability, directly or through an alias.
   *
   * @param capability - A capability id.
   * @returns `true` when a call would find a provider.
   */
  canProvide(capability: string): boolean {
    return this.findRoute(capability) !== undefined;
  }

  /**
   * Calls a capability declared in {@link ICapabilities}: the id, the input, the options and
   * the output are type-checked, so a misspelt id is a compile error. For an id known only at
   * run time, use {@link ModelManager.callDynamic}.
   *
   * @param capability - The capability id, or an alias of it.
   * @param input - The input; validated against the capability's input schema.
   * @param request - Per-call options, a provider choice and an abort signal.
   * @returns The provider's output, validated against the capability's output schema.
   * @throws {@link WeftError} naming the capability, with the codes listed for
   * {@link ModelManager.callDynamic}.
   *
   * @example
   * ```ts
   * import type { ModelManager } from '@weft/core';
   *
   * async function haiku(models: ModelManager): Promise<string> {
   *   const result = await models.call(
   *     'text-generation',
   *     { messages: [{ role: 'user', content: 'A haiku about looms.' }] },
   *     { options: { temperature: 0.9 } },
   *   );
   *   return result.text;
   * }
   * ```
   */
  async call<K extends keyof CapabilityMap>(
    capability: K,
    input: CapabilityMap[K]['input'],
    request?: ModelRequestConfig<CapabilityMap[K]['config']>,
  ): Promise<CapabilityMap[K]['output']> {
    return this.callDynamic(capability, input, request) as Promise<CapabilityMap[K]['output']>;
  }

  /**
   * Calls a capability whose id is only known at run time, such as one read from configuration
   * or one not declared in {@link ICapabilities}. It does what {@link ModelManager.call} does,
   * validating input and output against the capability's registered schemas, but the compiler
   * cannot check the id, the input or the output: prefer `call` with an id declared in
   * `ICapabilities`, which makes a misspelt id a type error.
   *
   * @param capability - The capability id, or an alias of it.
   * @param input - The input; validated at run time against the capability's input schema.
   * @param callRequest - Per-call options, a provider choice and an abort signal.
   * @returns The provider's output, validated against the capability's output schema; narrow it
   * yourself.
   * @throws WeftError with code `WEFT_CAPABILITY_UNKNOWN` when the id is not registered,
   * `WEFT_CAPABILITY_UNAVAILABLE` when no provider offers it, `WEFT_VALIDATION_FAILED` when the
   * input, options or output do not match, or `WEFT_PROVIDER_FAILED` when the provider throws
   * something other than a WeftError; a provider's own WeftError (such as
   * `WEFT_OPENAI_TIMEOUT`) is rethrown as it is, so its code and details reach the caller.
   * @throws The reason of the request's signal (or of the view's, see
   * {@link ModelManager.withSignal}) when it has aborted already, before the id, the input or the
   * options are checked, or, once they pass, when it aborted while they were, or, inside a task,
   * while the call waited for a slot of the provider's bulkhead: the provider is not called. A
   * transform function or an async schema check that has not settled when it aborts is not
   * waited for, any more than a provider that hangs. When it aborts while the provider runs, the call waits up to 10 ms for the provider to stop and then
   * rejects with its reason, whatever the provider does: only a failure of the provider within
   * those 10 ms (one that honours the signal) is thrown instead, as any provider failure is (its
   * own WeftError as it is, another error as `WEFT_PROVIDER_FAILED`), and an answer after the
   * abort is dropped.
   *
   * @example
   * ```ts
   * import type { ModelManager } from '@weft/core';
   *
   * async function runConfigured(models: ModelManager, capabilityId: string, text: string) {
   *   const output = await models.callDynamic(capabilityId, { text });
   *   return typeof output === 'object' && output !== null ? output : { value: output };
   * }
   * ```
   * @claim tsdoc-models-unknown
   * @claim tsdoc-models-provider-error
   * @claim tsdoc-models-aborted-not-called
   * @claim tsdoc-models-aborted-during-run
   */
  async callDynamic(
    capability: string,
    input: unknown,
    callRequest: ModelRequestConfig = {},
  ): Promise<unknown> {
    const request: ModelRequestConfig = {
      ...callRequest,
      signal: callRequest.signal ?? this.defaultSignal,
    };
    const task = callRequest.task ?? this.defaultTask;
    if (task) request.task = task;
    // A call whose signal has fired already (its task timed out or was cancelled while the caller
    // awaited something else) is not made, and nothing is checked or transformed for it: it
    // rejects with the signal's reason, whatever its id and values.
    request.signal?.throwIfAborted();
    // An id nothing defines is a different mistake (a typo) from one no provider offers.
    this.descriptor(capability);
    const route = this.findRoute(capability, request.provider);
    if (!route) {
      const reason =
        request.provider !== undefined
          ? `provider "${request.provider}" does not offer it or an alias of it`
          : `no configured provider offers it or an alias of it (providers: ${this.providerIds()})`;
      throw new WeftError(
        'WEFT_CAPABILITY_UNAVAILABLE',
        `ModelManager: cannot call capability "${capability}": ${reason}.`,
      );
    }
    const requested = this.descriptor(capability);
    const served = this.descriptor(route.capability.id);
    let value = await parseOrThrow(
      requested.input,
      input,
      `input for capability "${capability}" is invalid`,
      request.signal,
    );
    // A transform function may be async: its promise is awaited, so a rejection reaches the caller
    // (rather than going unhandled while the promise itself failed the schema). It is raced with
    // the signal, as the provider is: one that never settles must not hold the caller past it.
    const transformed = (apply: () => unknown): Promise<unknown> =>
      raceAbort(Promise.resolve().then(apply), request.signal);
    const transform = route.capability.id !== capability ? route.transform : undefined;
    if (transform) {
      const checked = value;
      value = await transformed(() => transform.input(checked));
    }
    if (served !== requested) {
      value = await parseOrThrow(
        served.input,
        value,
        `input for capability "${route.capability.id}" (serving "${capability}") is invalid`,
        request.signal,
      );
    }
    let requestedOptions = request.options;
    if (served !== requested && requested.config) {
      requestedOptions = await parseOrThrow(
        requested.config,
        requestedOptions ?? {},
        `options for capability "${capability}" are invalid`,
        request.signal,
      );
    }
    if (transform?.options) {
      const given = requestedOptions ?? {};
      requestedOptions = await transformed(() => transform.options?.(given));
    }
    const options = served.config
      ? // No options means "all defaults": an object config schema must see {} rather than undefined.
        await parseOrThrow(
          served.config,
          requestedOptions ?? {},
          `options for capability "${route.capability.id}" are invalid`,
          request.signal,
        )
      : requestedOptions;

    // The signal may have fired while the values were checked or transformed (a schema's async
    // refinement, an async transform): the provider would be paid for an answer nobody reads.
    request.signal?.throwIfAborted();
    const started = performance.now();
    const { signal } = request;
    let output: unknown;
    let ran = false;
    try {
      // Async, so that a provider whose `run` answers synchronously (plain JavaScript, a cast)
      // still hands raceAbort a promise: its answer is validated like any other.
      const run = async () => {
        ran = true;
        return route.capability.run(value as never, { ...request, options });
      };
      // The signal is raced, not only handed over: a provider that ignores it (or hangs) must not
      // hold the caller past the abort, and an answer it gives later is dropped. The warning's
      // requestId is the id of the task the call was made for, left out when there is none.
      output = await raceAbort(
        this.guard ? this.guard(`model:${route.provider.id}`, run, signal) : run(),
        signal,
        () =>
          this.logger?.warn(
            {
              providerId: route.provider.id,
              capability: route.capability.id,
              requestId: request.task?.id,
            },
            'model provider still running after its call was aborted; the caller was released',
          ),
      );
    } catch (error) {
      this.report(route, capability, started, false, undefined);
      // An abort ends the call as the check before the run does: with the signal's own reason.
      if (signal?.aborted && error === signal.reason) throw error;
      // A provider's own WeftError already names its owner and carries a code callers check
      // for (`OpenAIModelProviderError` and its `httpStatus`): wrapping it would hide both.
      // And the provider did not fail when it was never called: the bulkhead refused the call, or
      // its signal fired while it waited for a slot, whose reason the caller gets as it is.
      if (WeftError.is(error) || !ran) throw error;
      throw new WeftError(
        'WEFT_PROVIDER_FAILED',
        `ModelManager: provider "${route.provider.id}" failed on capability "${route.capability.id}": ${describeError(error)}`,
        { cause: error },
      );
    }
    let result: unknown;
    try {
      result = await parseOrThrow(
        served.output,
        output,
        `provider "${route.provider.id}" returned invalid output for capability "${route.capability.id}"`,
        request.signal,
      );
      // The caller is typed by the capability it asked for, so an alias's answer must fit that
      // schema too, whether a transform converted it or it passes unchanged.
      if (transform) {
        const answer = result;
        result = await parseOrThrow(
          requested.output,
          await transformed(() => transform.output(answer)),
          `transform "${capability}" -> "${route.capability.id}" produced invalid output`,
          request.signal,
        );
      } else if (served !== requested) {
        result = await parseOrThrow(
          requested.output,
          result,
          `output of capability "${route.capability.id}" (serving "${capability}") is invalid`,
          request.signal,
        );
      }
    } catch (error) {
      this.report(route, capability, started, false, undefined);
      throw error;
    }
    this.report(route, capability, started, true, result);
    return result;
  }

  /**
   * Generates text with the text-generation capability.
   *
   * @param prompt - A user message, or the full list of chat messages.
   * @param request - Per-call options, provider choice and abort signal.
   * @returns The generated text.
   *
   * @example
   * ```ts
   * import type { ModelManager } from '@weft/core';
   *
   * async function greet(models: ModelManager): Promise<string> {
   *   return models.generateText('Say hello to a new contributor in five words.');
   * }
   * ```
   */
  async generateText(
    prompt: string | { role: 'system' | 'user' | 'assistant'; content: string }[],
    request?: ModelRequestConfig<CapabilityMap[typeof TEXT_GENERATION_CAPABILITY]['config']>,
  ): Promise<string> {
    const messages =
      typeof prompt === 'string' ? [{ role: 'user' as const, content: prompt }] : prompt;
    const { text } = await this.call(TEXT_GENERATION_CAPABILITY, { messages }, request);
    return text;
  }

  /**
   * Asks the text model for a value that matches a zod schema. The schema is shown to the
   * model as JSON Schema; the answer is parsed and validated, and on failure the model is asked
   * again with the validation error, up to `maxRetries` more times.
   *
   * @param config - The schema, the prompt and retry settings.
   * @returns The validated value.
   * @throws {@link WeftError} `WEFT_GET_OBJECT_FAILED` naming the schema and the last problem
   * when every attempt failed; `WEFT_INVALID_ARGUMENT` when `maxRetries` is not a
   * non-negative integer; whatever the text-generation call throws (see
   * {@link ModelManager.callDynamic}); and what the schema itself throws (a transform or a
   * refinement that throws rather than reporting an issue), at once, without asking again.
   * @throws {@link WeftError} `WEFT_UNSUPPORTED_SCHEMA`, before any model call, when `schema`
   * is not a zod 4 schema (a zod 3 schema, say).
   * @throws The reason of the request's signal (or of the view's, see
   * {@link ModelManager.withSignal}) when it has aborted already, before `maxRetries` or the
   * schema is checked: no model is asked.
   *
   * @example
   * ```ts
   * import type { ModelManager } from '@weft/core';
   * import { z } from 'zod';
   *
   * async function extractCity(models: ModelManager, text: string): Promise<string> {
   *   const { city } = await models.getObject({
   *     schema: z.object({ city: z.string() }),
   *     schemaName: 'City',
   *     prompt: `Which city is this about? ${text}`,
   *   });
   *   return city;
   * }
   * ```
   * @claim tsdoc-models-get-object-failed
   * @claim tsdoc-models-get-object-retries
   */
  async getObject<T extends z.ZodType>(config: GetObjectConfig<T>): Promise<z.output<T>> {
    // As for a capability call: once its signal has fired, nothing is checked or asked for.
    const signal = config.request?.signal ?? this.defaultSignal;
    signal?.throwIfAborted();
    const schemaName = config.schemaName ?? 'object';
    // Only an absent option takes the default: a `null` from JavaScript is a mistake like `-1`.
    const maxRetries = config.maxRetries === undefined ? this.defaultMaxRetries : config.maxRetries;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new WeftError(
        'WEFT_INVALID_ARGUMENT',
        `ModelManager.getObject: maxRetries must be a non-negative integer, got ${valueText(maxRetries)}.`,
      );
    }
    assertZod4Schema(config.schema, 'ModelManager.getObject');
    // JSON mode (`json: true`, OpenAI's `json_object`) only ever yields an object, so a schema
    // of another shape is asked for inside an envelope object and unwrapped after validation.
    const asked = jsonModeSchema(config.schema);
    const system = await this.prompts.render('core/get-object', {
      system: config.system?.trim() ?? '',
      schemaName,
      schema: formatZodSchema(asked.schema),
    });
    const messages: { role: 'system' | 'user' | 'assistant'; content: string }[] = [
      { role: 'system', content: system },
      { role: 'user', content: config.prompt },
    ];
    const request = {
      ...config.request,
      purpose: config.request?.purpose ?? `get-object:${schemaName}`,
      options: { ...config.request?.options, json: true },
    };
    let lastError = '';
    for (let attempt = 0; attempt <= maxRetries; attempt += 1) {
      const { text } = await this.call(TEXT_GENERATION_CAPABILITY, { messages }, request);
      const parsed = await parseAnswer(asked.schema, text, signal);
      if (parsed.success) return asked.unwrap(parsed.data) as z.output<T>;
      lastError = parsed.error;
      // Cut as every error field is: an answer with thousands of wrong items gives a validation
      // message of hundreds of kilobytes.
      this.logger?.debug(
        { schemaName, attempt, error: cutText(lastError, MAX_LOGGED_ERROR_CHARS) },
        'getObject answer rejected',
      );
      messages.push(
        { role: 'assistant', content: text },
        {
          role: 'user',
          content: await this.prompts.render('core/get-object-retry', {
            schemaName,
            error: lastError,
          }),
        },
      );
    }
    // A validation error spans several lines (each issue, then its "→ at" path): it goes below
    // the first line, which the code ends, as in the other messages that list problems.
    const last = lastError.includes('\n') ? `\n${lastError}` : ` ${lastError}`;
    throw new WeftError(
      'WEFT_GET_OBJECT_FAILED',
      `getObject: the model's answer did not match schema "${schemaName}" after ${maxRetries + 1} attempt(s); last error:${last}`,
    );
  }

  private descriptor(id: string): CapabilityDescriptor {
    const descriptor = this.registry.get(id);
    if (!descriptor) {
      throw new WeftError(
        'WEFT_CAPABILITY_UNKNOWN',
        `ModelManager: capability "${id}" is not registered; define it with defineCapability and list it in a provider's descriptors.`,
      );
    }
    return descriptor;
  }

  private findRoute(capability: string, providerId?: string): Route | undefined {
    for (const id of [capability, ...this.registry.aliasesOf(capability)]) {
      for (const provider of this.preferred(id, providerId)) {
        const offered = provider.capabilities.find((candidate) => candidate.id === id);
        if (offered) {
          return {
            provider,
            capability: offered,
            transform: this.registry.getTransform(capability, id),
          };
        }
      }
    }
    return undefined;
  }

  /** Providers in preference order for a capability: its default first, then config order. */
  private preferred(capability: string, only?: string): readonly ModelProvider[] {
    // Any given id narrows the choice, an empty one too (no provider has it): only an absent
    // `provider` lets the default and the configured order decide.
    const providers =
      only !== undefined
        ? this.providerList.filter((provider) => provider.id === only)
        : this.providerList;
    const preferredId = this.defaults.get(capability);
    if (!preferredId) return providers;
    return [...providers].sort(
      (a, b) => Number(b.id === preferredId) - Number(a.id === preferredId),
    );
  }

  private report(
    route: Route,
    requested: string,
    started: number,
    success: boolean,
    output: unknown,
  ): void {
    const usage = readUsage(output);
    this.analytics?.onModelCall?.({
      capability: requested,
      providerId: route.provider.id,
      durationMs: performance.now() - started,
      success,
      ...(usage ? { usage } : {}),
    });
  }

  private providerIds(): string {
    return this.providerList.map((provider) => `"${provider.id}"`).join(', ') || 'none';
  }
}

/**
 * Validates a value against one of a capability's schemas. The check is asynchronous, so a
 * schema with an async refinement or transform is checked rather than making zod throw its own
 * "synchronous parse" error, which would reach the caller without a code. The check is raced
 * with the call's signal, as the provider is: an async refinement that never settles must not
 * hold the caller past it.
 */
async function parseOrThrow(
  schema: z.ZodType,
  value: unknown,
  what: string,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  const result = await raceAbort(schema.safeParseAsync(value), signal);
  if (result.success) return result.data;
  throw new WeftError(
    'WEFT_VALIDATION_FAILED',
    `ModelManager: ${what}: ${z.prettifyError(result.error)}`,
  );
}

/** The schema getObject asks for in JSON mode, and how to get the caller's value out of it. */
interface JsonModeSchema {
  readonly schema: z.ZodType;
  readonly unwrap: (value: unknown) => unknown;
}

const jsonModeSchemas = new WeakMap<z.ZodType, JsonModeSchema>();

/**
 * Returns the schema itself when every value it accepts is a JSON object (an object schema, or
 * a union of object schemas), and otherwise an envelope `{ "value": <schema> }` with a function
 * that takes the value out again.
 *
 * @param schema - The caller's schema.
 * @returns The schema to show and validate, and the unwrapping.
 * @internal
 */
export function jsonModeSchema(schema: z.ZodType): JsonModeSchema {
  const cached = jsonModeSchemas.get(schema);
  if (cached) return cached;
  const jsonSchema = inputJsonSchema(schema) as JsonSchemaNode;
  const result: JsonModeSchema = acceptsOnlyObjects(jsonSchema, jsonSchema)
    ? { schema, unwrap: (value) => value }
    : {
        schema: z.object({ value: schema }),
        unwrap: (value) => (value as { value: unknown }).value,
      };
  jsonModeSchemas.set(schema, result);
  return result;
}

type JsonSchemaNode = Record<string, unknown>;

function acceptsOnlyObjects(node: JsonSchemaNode, root: JsonSchemaNode, depth = 0): boolean {
  // A reference cycle that never reaches an object type cannot promise an object.
  if (depth > 20) return false;
  const ref = node.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/$defs/')) {
    const target = (root.$defs as Record<string, JsonSchemaNode> | undefined)?.[ref.slice(8)];
    return target !== undefined && acceptsOnlyObjects(target, root, depth + 1);
  }
  if (node.type === 'object') return true;
  const alternatives = node.anyOf ?? node.oneOf;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    return alternatives.every((member) =>
      acceptsOnlyObjects(member as JsonSchemaNode, root, depth + 1),
    );
  }
  if (Array.isArray(node.allOf)) {
    return node.allOf.some((member) =>
      acceptsOnlyObjects(member as JsonSchemaNode, root, depth + 1),
    );
  }
  return false;
}

/**
 * Reads and validates one answer. Validation is asynchronous, so a schema with async refinements
 * or transforms works: getObject is async anyway, and `safeParse` would throw on such a schema.
 * It is raced with the call's signal, so a refinement that never settles does not hold the caller.
 */
async function parseAnswer<T extends z.ZodType>(
  schema: T,
  text: string,
  signal: AbortSignal | undefined,
): Promise<{ success: true; data: z.output<T> } | { success: false; error: string }> {
  let json: unknown;
  try {
    json = extractJson(text);
  } catch (error) {
    return { success: false, error: describeError(error) };
  }
  const result = await raceAbort(schema.safeParseAsync(json), signal);
  return result.success
    ? { success: true, data: result.data }
    : { success: false, error: quotedProblems(result.error) };
}

function readUsage(output: unknown): { inputTokens: number; outputTokens: number } | undefined {
  if (typeof output !== 'object' || output === null || !('usage' in output)) return undefined;
  const usage = (output as { usage?: unknown }).usage;
  if (typeof usage !== 'object' || usage === null) return undefined;
  const { inputTokens, outputTokens } = usage as Record<string, unknown>;
  return typeof inputTokens === 'number' && typeof outputTokens === 'number'
    ? { inputTokens, outputTokens }
    : undefined;
}

/**
 * A value as an error message quotes it: a number as it is written (`1.5`, `NaN`), anything else
 * as JSON, so the string `'1'` reads `"1"` and is not mistaken for the number 1.
 */
function valueText(value: unknown): string {
  if (typeof value === 'number') return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return typeof value === 'bigint' ? `${value}n` : 'a value with no JSON form';
  }
}
