import * as z from 'zod';
import { WeftError } from '../errors/weft-error.js';
import { assertZod4Schema } from '../models/zod-schema-check.js';

/**
 * Describes one capability: what a model provider can do, with zod schemas for its input,
 * output and optional per-call configuration. Every call through the {@link ModelManager} is
 * validated against these schemas.
 *
 * @typeParam Id - The capability's identifier, kept literal so it can key {@link ICapabilities}.
 * @typeParam Input - Schema of the value passed to the capability.
 * @typeParam Output - Schema of the value the capability returns.
 * @typeParam Config - Schema of the optional per-call configuration.
 */
export interface CapabilityDescriptor<
  Id extends string = string,
  Input extends z.ZodType = z.ZodType,
  Output extends z.ZodType = z.ZodType,
  Config extends z.ZodType = z.ZodType,
> {
  /** Unique identifier, such as `text-generation` or `image-caption`. */
  readonly id: Id;
  /** One sentence on what the capability does; shown to people, not to models. */
  readonly description: string;
  /** Schema that every input is validated against before a provider sees it. */
  readonly input: Input;
  /** Schema that every provider output is validated against before the caller sees it. */
  readonly output: Output;
  /** Optional schema for per-call configuration, such as a temperature. */
  readonly config?: Config;
}

/**
 * Declares a capability with zod schemas. The returned descriptor is registered by a model
 * provider (see {@link ModelProvider.descriptors}) and typed for callers through
 * {@link ICapabilities} module augmentation.
 *
 * @param descriptor - The capability's id, description and schemas.
 * @returns A frozen copy of the descriptor, with its literal types preserved.
 * @throws {@link WeftError} `WEFT_INVALID_ARGUMENT` when the id is not a string of letters,
 * digits and `-_.:/` starting with a letter or digit, or the description is missing or blank;
 * `WEFT_UNSUPPORTED_SCHEMA` when `input`, `output` or a given `config` is not a zod 4 schema.
 *
 * @example
 * ```ts
 * import { defineCapability } from '@weft/core';
 * import { z } from 'zod';
 *
 * export const sentimentCapability = defineCapability({
 *   id: 'sentiment',
 *   description: 'Scores the sentiment of a text from -1 to 1.',
 *   input: z.object({ text: z.string() }),
 *   output: z.object({ score: z.number().min(-1).max(1) }),
 * });
 * ```
 * @claim tsdoc-define-capability
 * @claim tsdoc-define-capability-schema
 * @claim tsdoc-define-capability-id
 */
export function defineCapability<
  const Id extends string,
  Input extends z.ZodType,
  Output extends z.ZodType,
  Config extends z.ZodType = z.ZodUndefined,
>(
  descriptor: CapabilityDescriptor<Id, Input, Output, Config>,
): CapabilityDescriptor<Id, Input, Output, Config> {
  if (typeof descriptor.id !== 'string' || !/^[A-Za-z0-9][\w.:/-]*$/.test(descriptor.id)) {
    throw new WeftError(
      'WEFT_INVALID_ARGUMENT',
      `defineCapability: invalid capability id "${descriptor.id}"; use letters, digits, '-', '_', '.', ':' or '/' with no spaces.`,
    );
  }
  if (typeof descriptor.description !== 'string' || descriptor.description.trim() === '') {
    throw new WeftError(
      'WEFT_INVALID_ARGUMENT',
      `defineCapability: capability "${descriptor.id}" needs a description.`,
    );
  }
  assertDescriptorSchemas(descriptor, 'defineCapability');
  return Object.freeze({ ...descriptor });
}

/**
 * Throws when a descriptor's `input`, `output` or given `config` is not a zod 4 schema, naming
 * the part: the check of {@link defineCapability}, which a descriptor written by hand skips.
 *
 * @param descriptor - The descriptor to check.
 * @param owner - Who asked, for the message.
 * @throws {@link WeftError} `WEFT_UNSUPPORTED_SCHEMA` naming the part.
 * @internal
 */
export function assertDescriptorSchemas(descriptor: CapabilityDescriptor, owner: string): void {
  for (const part of ['input', 'output', 'config'] as const) {
    const schema = descriptor[part];
    if (part !== 'config' || schema !== undefined) {
      assertZod4Schema(schema, `${owner}: the ${part} of capability "${descriptor.id}"`);
    }
  }
}

/** The identifier of the built-in text-generation capability that every runtime needs. */
export const TEXT_GENERATION_CAPABILITY = 'text-generation' as const;

const messageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.string(),
});

/** The built-in text-generation capability: chat messages in, text (and token usage) out. */
export const textGenerationCapability: ICapabilities[typeof TEXT_GENERATION_CAPABILITY] =
  defineCapability({
    id: TEXT_GENERATION_CAPABILITY,
    description: 'Generates text from a list of chat messages.',
    input: z.object({
      messages: z.array(messageSchema).min(1, 'at least one message is required'),
    }),
    output: z.object({
      text: z.string(),
      usage: z
        .object({
          inputTokens: z.number().int().nonnegative(),
          outputTokens: z.number().int().nonnegative(),
        })
        .optional(),
    }),
    config: z.object({
      temperature: z.number().min(0).max(2).optional(),
      maxTokens: z.number().int().positive().optional(),
      json: z.boolean().optional(),
    }),
  });

/**
 * The capabilities known to the type system, keyed by id. Extend it by module augmentation so
 * that calling your capability by id is type-checked on input and output:
 *
 * ```ts
 * declare module '@weft/core' {
 *   interface ICapabilities {
 *     sentiment: typeof sentimentCapability;
 *   }
 * }
 * ```
 */
export interface ICapabilities {
  /**
   * The built-in text-generation capability: chat messages in, text out. `json: true` in the
   * config asks the provider for an answer that is one JSON object, where its API supports that
   * (OpenAI's `json_object` mode); getObject sets it, wrapping a schema that is not an object in
   * an envelope `{ "value": ... }` so the answer can match.
   */
  [TEXT_GENERATION_CAPABILITY]: CapabilityDescriptor<
    typeof TEXT_GENERATION_CAPABILITY,
    z.ZodType<TextGenerationInput, TextGenerationInput>,
    z.ZodType<TextGenerationOutput, TextGenerationOutput>,
    z.ZodType<TextGenerationOptions, TextGenerationOptions>
  >;
}

// Inlined into the API reference (TypeDoc's @inline) so the public surface stays the listed names.
/** @inline */
type TextGenerationInput = {
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
};
/** @inline */
type TextGenerationOutput = { text: string; usage?: { inputTokens: number; outputTokens: number } };
/** @inline */
type TextGenerationOptions = { temperature?: number; maxTokens?: number; json?: boolean };

/**
 * The input, output and config types of every capability in {@link ICapabilities}, derived
 * from their schemas. `CapabilityMap['text-generation']['output']` is `{ text: string; ... }`.
 */
export type CapabilityMap = {
  [K in keyof ICapabilities]: {
    /** What a caller passes (the schema's input type). */
    input: z.input<ICapabilities[K]['input']>;
    /** What a provider returns and the caller receives (the schema's output type). */
    output: z.output<ICapabilities[K]['output']>;
    /** Per-call configuration accepted by the capability. */
    config: ICapabilities[K] extends { config?: infer C }
      ? C extends z.ZodType
        ? z.input<C>
        : undefined
      : undefined;
  };
};

/**
 * A set of capability ids that can stand in for one another. When no provider offers the
 * requested id, the {@link ModelManager} uses a provider of another id in the same group,
 * adapting values with a {@link CapabilityTransformEntry} when one is registered.
 *
 * @example
 * ```ts
 * import type { CapabilityAliasGroup } from '@weft/core';
 *
 * const aliases: CapabilityAliasGroup[] = [['text-generation', 'chat', 'completion']];
 * ```
 */
export type CapabilityAliasGroup = readonly string[];

/**
 * Adapts calls between two capabilities of one alias group: the caller asked for `from`, a
 * provider offers `to`. `input` maps the caller's value to what `to` accepts; `output` maps the
 * provider's answer back to what `from` promises. Each function may return its value or a
 * promise of it, which is awaited until the call's signal fires (the call then rejects with
 * the signal's reason); what it throws or rejects with reaches the caller as it is.
 */
export interface CapabilityTransformEntry {
  /** The capability the caller asked for. */
  readonly from: string;
  /** The capability a provider actually offers. */
  readonly to: string;
  /**
   * Maps an input of `from` to an input of `to`.
   *
   * @param input - The validated input of `from`.
   * @returns An input for `to`, or a promise of it; it is validated against `to`'s schema.
   */
  input(input: unknown): unknown;
  /**
   * Maps the per-call options of `from` to options of `to`. Without it the options are not
   * mapped: what `from`'s config schema returned goes on to `to`'s, so a key that either schema
   * does not declare can be dropped on the way.
   *
   * @param options - The caller's options (`{}` when none were given), validated against
   * `from`'s config schema when it has one, its defaults filled in.
   * @returns Options for `to`, or a promise of them; they are validated against `to`'s config
   * schema when it has one.
   * @claim tsdoc-transform-options
   */
  options?(options: unknown): unknown;
  /**
   * Maps an output of `to` back to an output of `from`.
   *
   * @param output - The validated output of `to`.
   * @returns An output of `from`, or a promise of it; it is validated against `from`'s schema.
   */
  output(output: unknown): unknown;
}
