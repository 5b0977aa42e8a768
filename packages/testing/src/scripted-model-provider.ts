import { ModelProvider, TEXT_GENERATION_CAPABILITY, type ModelCapability } from '@weft/core';
import { testingError } from './errors.js';

type Message = { role: 'system' | 'user' | 'assistant'; content: string };

/** What a scripted response can be: a fixed text, an object sent as JSON, or a function of the request. */
export type ScriptedResponse =
  | string
  | Record<string, unknown>
  | unknown[]
  | ((
      messages: readonly Message[],
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
  /** Answer used when the queue is empty; without one an empty queue is an error. */
  fallback?: ScriptedResponse;
}

/**
 * A model provider for tests and examples: it offers `text-generation` and answers each call
 * with the next queued response, recording every request it saw. Objects are answered as JSON
 * text, so scripted pipelines and getObject answers read naturally.
 *
 * @example
 * ```ts
 * const model = new ScriptedModelProvider({
 *   responses: [{ steps: [{ pluginId: 'echo', action: 'reply' }] }, { type: 'continue' }],
 * });
 * ```
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

  constructor(options: ScriptedModelProviderOptions = {}) {
    super();
    this.id = options.id ?? 'scripted';
    this.queue = [...(options.responses ?? [])];
    this.fallback = options.fallback;
    const capability: ModelCapability<typeof TEXT_GENERATION_CAPABILITY> = {
      id: TEXT_GENERATION_CAPABILITY,
      run: async ({ messages }, request) => {
        this.requestOptions.push(request.options);
        return { text: await this.answer(messages) };
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
   */
  enqueue(...responses: ScriptedResponse[]): void {
    this.queue.push(...responses);
  }

  private async answer(messages: Message[]): Promise<string> {
    this.requests.push(messages.map((message) => ({ ...message })));
    const next = this.queue.length > 0 ? this.queue.shift() : this.fallback;
    if (next === undefined) {
      throw testingError(
        'WEFT_TESTING_SCRIPT_EXHAUSTED',
        `ScriptedModelProvider "${this.id}": no scripted response left for request #${this.requests.length}; enqueue more or set a fallback`,
      );
    }
    const value = typeof next === 'function' ? await next(messages) : next;
    return typeof value === 'string' ? value : JSON.stringify(value);
  }
}
