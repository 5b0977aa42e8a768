import { defineCapability } from '@weft/core';
import { z } from 'zod';

/** Scores how positive a text is, from -1 (negative) to 1 (positive). */
export const sentimentCapability = defineCapability({
  id: 'sentiment',
  description:
    'Scores the sentiment of a text from -1 (negative) to 1 (positive).',
  input: z.object({ text: z.string().min(1, 'text must not be empty') }),
  output: z.object({
    score: z.number().min(-1).max(1),
    label: z.enum(['negative', 'neutral', 'positive']),
  }),
});

// Module augmentation: `models.call('sentiment', ...)` is now type-checked
// everywhere.
declare module '@weft/core' {
  interface ICapabilities {
    sentiment: typeof sentimentCapability;
  }
}
