import { ModelProvider, type ModelCapability } from '@weft/core';
import { sentimentCapability } from './sentiment-capability.js';

const POSITIVE = new Set(['good', 'great', 'love', 'thanks', 'fast', 'works']);
const NEGATIVE = new Set(['bad', 'slow', 'hate', 'broken', 'crash', 'refund']);

/**
 * A tiny local provider of the `sentiment` capability that counts positive and
 * negative words. A provider backed by a hosted classifier would offer the same
 * capability id.
 */
export class LexiconSentimentProvider extends ModelProvider {
  readonly id: string;
  // The provider introduces the capability, so the runtime learns its schemas
  // from here.
  override readonly descriptors = [sentimentCapability];

  constructor(id = 'lexicon') {
    super();
    this.id = id;
  }

  readonly capabilities: ModelCapability[] = [this.sentiment()];

  private sentiment(): ModelCapability<'sentiment'> {
    return {
      id: 'sentiment',
      // Typed from the capability's schemas: `text` is a string, the result
      // must match the output.
      run: async ({ text }) => {
        const words = text.toLowerCase().match(/[a-z']+/g) ?? [];
        const raw = words.reduce(
          (sum, word) =>
            sum + (POSITIVE.has(word) ? 1 : NEGATIVE.has(word) ? -1 : 0),
          0,
        );
        const score = Math.max(-1, Math.min(1, raw / 3));
        const label =
          score > 0.2 ? 'positive' : score < -0.2 ? 'negative' : 'neutral';
        return { score, label };
      },
    };
  }
}
