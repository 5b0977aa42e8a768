import {
  ModelProvider,
  TEXT_GENERATION_CAPABILITY,
  type ModelCapability,
  type ModelRequestConfig,
} from '@weft/core';
import { WeftTestingError } from './errors.js';
import { ID_OPTION_RULE, isBadIdOption } from './id-option.js';

type Message = { role: 'system' | 'user' | 'assistant'; content: string };

/**
 * What a scripted response can be: a fixed text, an object sent as JSON, or a function of the
 * request. A function receives the messages and the call's request config; branch on
 * `request.purpose` (`plan`, `review`, `get-object:<schemaName>`) rather than on prompt wording,
 * which changes with the templates. Inside a runtime, `request.task?.message` is the message of
 * the task the call is made for, so a plan can follow what the user asked.
 */
export type ScriptedResponse =
  | string
  | Record<string, unknown>
  | unknown[]
  | ((
      messages: readonly Message[],
      request: ModelRequestConfig,
    ) =>
      | string
      | Record<string, unknown>
      | unknown[]
      | Promise<string | Record<string, unknown> | unknown[]>);

/** Options of {@link ScriptedModelProvider}. */
export interface ScriptedModelProviderOptions {
  /** Provider id; default `scripted`. */
  id?: string;
  /** Responses to give, in order; more can be queued with `enqueue`. */
  responses?: readonly ScriptedResponse[];
  /**
   * Answer used when the queue is empty; without one, a call to an empty queue fails with
   * `WEFT_TESTING_SCRIPT_EXHAUSTED`, naming the request's number.
   */
  fallback?: ScriptedResponse;
}

/**
 * A model provider for tests and examples: it offers `text-generation` and answers each call
 * with the next queued response, recording every request it saw. Objects are answered as JSON
 * text, so scripted pipelines and getObject answers read naturally.
 *
 * A queue of `responses` must match the calls a task makes exactly: with the default review
 * policy a plan is reviewed after each step but a last one that succeeded, so a one-step plan
 * that succeeds gets no review, and a `continue` queued for one answers the next task's plan
 * instead. A `fallback` that
 * branches on `request.purpose`, as below, holds however many calls a task makes.
 *
 * @example
 * ```ts
 * import { ScriptedModelProvider } from '@weft/testing';
 *
 * // Plans one `echo.reply` step for every task, and lets any review continue.
 * const model = new ScriptedModelProvider({
 *   fallback: (_messages, request) =>
 *     request.purpose === 'plan'
 *       ? { steps: [{ pluginId: 'echo', action: 'reply' }] }
 *       : { type: 'continue' },
 * });
 * console.log(model.remaining); // 0: nothing queued, the fallback answers every call
 * ```
 * @claim tsdoc-scripted-queue-review
 * @claim tsdoc-scripted-fallback-purpose
 */
export class ScriptedModelProvider extends ModelProvider {
  readonly id: string;
  readonly capabilities: ModelCapability[];
  /** Every request received, oldest first. */
  readonly requests: Message[][] = [];
  /** The per-call options of every request, in the same order as `requests`. */
  readonly requestOptions: unknown[] = [];
  private readonly queue: ScriptedResponse[];
  private readonly fallback: ScriptedResponse | undefined;

  /**
   * @param options - The id, the queued responses and the fallback.
   * @throws {@link WeftTestingError} `WEFT_TESTING_INVALID_OPTIONS` naming the option when the
   * options are not an object, name an option it does not have, or `id` is not a non-empty
   * string or is white space alone, `responses` not a list of responses, or `fallback` not a response.
   */
  constructor(options: ScriptedModelProviderOptions = {}) {
    checkOptions(options);
    super();
    this.id = options.id ?? 'scripted';
    this.queue = [...(options.responses ?? [])];
    this.fallback = options.fallback;
    const capability: ModelCapability<typeof TEXT_GENERATION_CAPABILITY> = {
      id: TEXT_GENERATION_CAPABILITY,
      run: async ({ messages }, request) => {
        this.requestOptions.push(request.options);
        return { text: await this.answer(messages, request) };
      },
    };
    this.capabilities = [capability];
  }

  /** Number of responses still queued. */
  get remaining(): number {
    return this.queue.length;
  }

  /**
   * Queues more responses.
   *
   * @param responses - Responses, answered in order after those already queued.
   * @throws {@link WeftTestingError} `WEFT_TESTING_INVALID_OPTIONS`, queueing none of them, when
   * one is not text, an object, a list or a function, as the constructor refuses it in
   * `responses`: queued, an `undefined` would end the script early, past the fallback.
   * @claim tsdoc-scripted-enqueue-refuses
   */
  enqueue(...responses: ScriptedResponse[]): void {
    (responses as unknown[]).forEach((response, index) => {
      if (!isResponse(response)) {
        refuse(
          `response ${index + 1} given to enqueue() must be text, an object, a list or a function, got ${describe(response)}`,
        );
      }
    });
    this.queue.push(...responses);
  }

  private async answer(messages: Message[], request: ModelRequestConfig): Promise<string> {
    this.requests.push(messages.map((message) => ({ ...message })));
    const next = this.queue.length > 0 ? this.queue.shift() : this.fallback;
    if (next === undefined) {
      throw new WeftTestingError(
        'WEFT_TESTING_SCRIPT_EXHAUSTED',
        `ScriptedModelProvider "${this.id}": no scripted response left for request #${this.requests.length}; enqueue more or set a fallback`,
      );
    }
    const value = typeof next === 'function' ? await next(messages, request) : next;
    return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

const OPTION_NAMES = ['id', 'responses', 'fallback'];

/** Whether a value can be a scripted response: text, an object, a list or a function. */
function isResponse(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'function' || isObject(value);
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/** The error for an option the provider would otherwise ignore or misread, naming it. */
function refuse(problem: string): never {
  throw new WeftTestingError('WEFT_TESTING_INVALID_OPTIONS', `ScriptedModelProvider: ${problem}.`);
}

/** Refuses options the provider would otherwise ignore or misread, naming the option. */
function checkOptions(options: unknown): void {
  if (!isObject(options) || Array.isArray(options)) {
    refuse(`options must be an object, got ${describe(options)}`);
  }
  const given = options as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (!OPTION_NAMES.includes(name)) {
      refuse(`unknown option "${name}"; the options are ${OPTION_NAMES.join(', ')}`);
    }
  }
  // A blank id is refused too, as InMemoryMemoryProvider and the database stores refuse it.
  if (given.id !== undefined && isBadIdOption(given.id)) {
    refuse(`${ID_OPTION_RULE}, got ${describe(given.id)}`);
  }
  if (given.responses !== undefined) {
    if (!Array.isArray(given.responses)) {
      refuse(`option "responses" must be a list of responses, got ${describe(given.responses)}`);
    }
    // An index loop, not forEach: forEach skips the holes of a sparse list (`[, 'text']`), which
    // would be queued as `undefined` and end the script at that call, past the fallback.
    const responses = given.responses as unknown[];
    for (let index = 0; index < responses.length; index += 1) {
      if (!isResponse(responses[index])) {
        refuse(
          `option "responses[${index}]" must be text, an object, a list or a function, got ${describe(responses[index])}`,
        );
      }
    }
  }
  if (given.fallback !== undefined && !isResponse(given.fallback)) {
    refuse(
      `option "fallback" must be text, an object, a list or a function, got ${describe(given.fallback)}`,
    );
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  if (value === null || Array.isArray(value)) return value === null ? 'null' : 'a list';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}
