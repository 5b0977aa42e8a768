import { ScriptedModelProvider } from '@weft/testing';

/** A step the scripted model plans when the task's message matches `pattern`. */
export interface ScriptedRoute {
  /** Tested against the message; leave out the `g` flag, which makes `test` remember. */
  pattern: RegExp;
  pluginId: string;
  action: string;
}

/**
 * Which step the scripted model plans for a message: the first route whose pattern matches it,
 * else `assistant/reply`. A real model chooses by the executors' descriptions; this stand-in
 * cannot, so give it a route for each executor you add.
 */
export const ROUTES: ScriptedRoute[] = [
  { pattern: /\btime\b/i, pluginId: 'clock', action: 'now' },
];

/**
 * A stand-in for a real text model that needs no key and no network. It tells
 * the requests the agent makes apart by their purpose: the plan, the reply,
 * and a review, which the runtime asks for after a failed step.
 */
export function createScriptedModel(): ScriptedModelProvider {
  return new ScriptedModelProvider({
    fallback: (messages, request) => {
      if (request.purpose === 'plan') {
        // The runtime passes the task's message with each call, so the plan can follow
        // what the user asked without parsing the prompt.
        const message = request.task?.message ?? '';
        const route = ROUTES.find((candidate) =>
          candidate.pattern.test(message),
        );
        return {
          steps: [
            route
              ? {
                  pluginId: route.pluginId,
                  action: route.action,
                  reason: 'A route matched.',
                }
              : {
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
