import { Plugin, type Executor } from '@weft/core';
import './sentiment-capability.js';

/** Routes customer feedback by its sentiment. */
export class FeedbackPlugin extends Plugin {
  readonly id = 'feedback';
  readonly description = 'Sorts customer feedback by sentiment.';
  // Runtime.init fails, naming this plugin, when no provider offers it.
  override readonly requiredCapabilities = ['sentiment'];

  override readonly executors: Executor[] = [
    {
      action: 'triage',
      description:
        'Scores the feedback message and decides who should read it.',
      execute: async (task, context) => {
        // Typed by the ICapabilities augmentation: input { text }, output {
        // score, label }.
        const { score, label } = await context.models.call('sentiment', {
          text: task.trigger.message ?? '',
        });
        const queue = label === 'negative' ? 'support' : 'product';
        return {
          success: true,
          data: { score, label, queue },
          message: `Sent to ${queue}`,
        };
      },
    },
  ];
}
