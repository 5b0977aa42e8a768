import { ScriptedModelProvider } from '@weft/testing';

/**
 * A stand-in for a real text model that needs no key and no network. It tells
 * the requests the agent makes apart by their purpose: the plan, the reply,
 * and a review, which the runtime asks for after a failed step.
 */
export function createScriptedModel(): ScriptedModelProvider {
  return new ScriptedModelProvider({
    fallback: (messages, request) => {
      if (request.purpose === 'plan') {
        return {
          steps: [
            {
              pluginId: 'assistant',
              action: 'reply',
              reason: 'The user wrote.',
            },
          ],
        };
      }
      if (request.purpose === 'review') {
        return { type: 'stop', reason: 'The user has an answer.' };
      }
      return `You said "${messages.at(-1)?.content}". Your Weft agent is listening.`;
    },
  });
}
