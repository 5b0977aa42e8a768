import {
  defineCapability,
  ModelProvider,
  type CapabilityAliasGroup,
  type CapabilityMap,
  type CapabilityTransformEntry,
  type ModelCapability,
} from '@weft/core';
import { z } from 'zod';

/** Summarises a text in a few sentences. */
export const summariseCapability = defineCapability({
  id: 'summarise',
  description: 'Summarises a text in at most a few sentences.',
  input: z.object({
    text: z.string().min(1),
    sentences: z.number().int().min(1).max(5).default(2),
  }),
  output: z.object({ summary: z.string() }),
  // Callers choose a style; the transform below turns it into the options of
  // whichever capability serves the call.
  config: z.object({ style: z.enum(['exact', 'free']).default('exact') }),
});

declare module '@weft/core' {
  interface ICapabilities {
    summarise: typeof summariseCapability;
  }
}

/** `summarise` and `text-generation` can stand in for each other. */
export const summariseAliases: CapabilityAliasGroup = [
  'summarise',
  'text-generation',
];

/**
 * Serves `summarise` with any text-generation provider by rewriting the call.
 */
export const summariseWithTextGeneration: CapabilityTransformEntry = {
  from: 'summarise',
  to: 'text-generation',
  input: (input): CapabilityMap['text-generation']['input'] => {
    // The input was already validated against summarise's schema, defaults
    // applied.
    const { text, sentences } = input as z.output<
      typeof summariseCapability.input
    >;
    return {
      messages: [
        {
          role: 'system',
          content: `Summarise the user's text in at most ${sentences} sentences.`,
        },
        { role: 'user', content: text },
      ],
    };
  },
  // Validated against summarise's config first, then against text-generation's.
  options: (options): CapabilityMap['text-generation']['config'] => ({
    temperature:
      (options as { style: 'exact' | 'free' }).style === 'free' ? 0.9 : 0.1,
  }),
  output: (output): CapabilityMap['summarise']['output'] => ({
    summary: (output as CapabilityMap['text-generation']['output']).text.trim(),
  }),
};

/**
 * Contributes the `summarise` descriptor and its transform. It offers no
 * capability itself: list it beside the provider that generates text.
 */
export class SummariseAdapter extends ModelProvider {
  readonly id = 'summarise-adapter';
  readonly capabilities: ModelCapability[] = [];
  override readonly descriptors = [summariseCapability];
  override readonly transforms = [summariseWithTextGeneration];
}
