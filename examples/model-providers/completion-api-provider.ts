import {
  ModelProvider,
  type ModelCapability,
  type Resolvable,
} from '@weft/core';

/** Options of {@link CompletionApiProvider}. */
export interface CompletionApiOptions {
  /** Where the service listens, such as `https://llm.internal.example.com`. */
  baseUrl: string;
  /** A token, or a function that reads it when the provider starts. */
  token: Resolvable<string>;
  /** How long one request may take. Default 30 s. */
  timeoutMs?: number;
}

/**
 * A provider for an in-house completion service that answers `POST
 * /v1/complete` with `{ "output": "...", "usage": { "input": 12, "output": 30 }
 * }`.
 */
export class CompletionApiProvider extends ModelProvider {
  readonly id = 'completion-api';
  readonly capabilities: ModelCapability[] = [this.textGeneration()];
  private token = '';

  constructor(private readonly options: CompletionApiOptions) {
    super();
    if (!/^https?:\/\//.test(options.baseUrl)) {
      throw new Error(
        `CompletionApiProvider: baseUrl must be an http(s) URL, got "${options.baseUrl}"`,
      );
    }
  }

  /**
   * Reads the token once, when the runtime starts, so a missing secret stops
   * the start.
   */
  override async init(): Promise<void> {
    this.token = await this.resolve(this.options.token);
    // An unset environment variable gives undefined, whatever the type says.
    if (typeof this.token !== 'string' || this.token === '') {
      throw new Error('the token is empty');
    }
  }

  /** A hung service answers `false` once `timeoutMs` has passed. */
  override async checkHealth(): Promise<boolean> {
    const response = await fetch(`${this.options.baseUrl}/health`, {
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
    }).catch(() => undefined);
    return response?.ok === true;
  }

  private textGeneration(): ModelCapability<'text-generation'> {
    return {
      id: 'text-generation',
      run: async ({ messages }, { options, signal }) => {
        const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 30_000);
        const response = await fetch(`${this.options.baseUrl}/v1/complete`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Authorization: `Bearer ${this.token}`,
          },
          body: JSON.stringify({
            messages,
            temperature: options?.temperature,
            max_tokens: options?.maxTokens,
          }),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        if (!response.ok) {
          throw new Error(
            `POST /v1/complete answered ${response.status}: ${await response.text()}`,
          );
        }
        const body = (await response.json()) as {
          output: string;
          usage?: { input: number; output: number };
        };
        return {
          text: body.output,
          ...(body.usage
            ? {
                usage: {
                  inputTokens: body.usage.input,
                  outputTokens: body.usage.output,
                },
              }
            : {}),
        };
      },
    };
  }
}
