import { ScriptedModelProvider } from '@weft/testing';

/**
 * A stand-in for a real text model that needs no key and no network. It answers the three
 * kinds of request the agent makes: the plan, the review after a step, and the reply.
 */
export function createScriptedModel(): ScriptedModelProvider {
  return new ScriptedModelProvider({
    fallback: (messages) => {
      const system = messages[0]?.content ?? '';
      if (system.includes('JSON Schema (Pipeline)')) {
        return { steps: [{ pluginId: 'assistant', action: 'reply', reason: 'The user wrote.' }] };
      }
      if (system.includes('JSON Schema (PipelineModification)')) {
        return { type: 'stop', reason: 'The user has an answer.' };
      }
      return `You said "${messages.at(-1)?.content}". Your Weft agent is listening.`;
    },
  });
}
