import type { Executor } from '@weft/core';
import { OpenAIModelProviderError } from '@weft/model-openai';

/** An executor that turns a rejected API key into a clear failed step. */
export const summarise: Executor = {
  action: 'summarise',
  description: 'Summarises the message in one sentence.',
  execute: async (task, context) => {
    try {
      const { text } = await context.models.call(
        'text-generation',
        {
          messages: [
            { role: 'user', content: `Summarise: ${task.trigger.message}` },
          ],
        },
        { signal: context.signal },
      );
      return { success: true, data: { summary: text } };
    } catch (error) {
      // The provider's own error reaches the executor, not a wrapper of it.
      if (OpenAIModelProviderError.is(error) && error.httpStatus === 401) {
        return {
          success: false,
          error: 'the model API refused the key; check OPENAI_API_KEY',
        };
      }
      throw error;
    }
  },
};
