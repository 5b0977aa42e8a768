import { ScriptedModelProvider } from '@weft/testing';

/**
 * A stand-in for a real text model, so this example runs without an API key. It
 * answers the three kinds of request the agent can make: the pipeline plan, the
 * reply itself, and a review, which the runtime asks for after a failed step.
 */
export function createScriptedModel(): ScriptedModelProvider {
  return new ScriptedModelProvider({
    fallback: (messages) => {
      const system = messages[0]?.content ?? '';
      if (system.includes('JSON Schema (Pipeline)')) {
        return {
          steps: [
            {
              pluginId: 'assistant',
              action: 'reply',
              reason: 'The user asked something.',
            },
          ],
        };
      }
      if (system.includes('JSON Schema (PipelineModification)')) {
        return { type: 'stop', reason: 'The user has an answer.' };
      }
      return `You said "${messages.at(-1)?.content}". Weft is listening.`;
    },
  });
}
