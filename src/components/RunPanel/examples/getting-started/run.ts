/**
 * The run of Getting started's panel: the plugin and the scripted model are the files the page
 * shows and its tests run (examples/getting-started/), with the in-memory memory provider. Only
 * the answers the reader edited replace the script's own, and the class the reader edited in the
 * panel's editor replaces the file's. The task is dispatched as the plugin's route handler
 * dispatches it (a page serves no routes).
 */
import { spaceId } from '@weft/core';

import { AssistantPlugin } from '../../../../../examples/getting-started/assistant-plugin';
import { createScriptedModel } from '../../../../../examples/getting-started/scripted-model';
import { PLAN_FIELD, REVIEW_FIELD } from '../../run/answers';
import type { RunDefinition } from '../../run/definition';
import { observedRun } from '../../run/observed-run';

/** The error the preset's failing model call throws; it is shown in the step's error item. */
export const PRESET_FAILURE = 'The model server did not answer (the failing preset).';

/** The user the route handler would read from the request's body. */
const USER = 'ada';

/** What the example's scripted model answers for a purpose, as the panel's editors show it. */
async function scriptedAnswer(purpose: 'plan' | 'review'): Promise<string> {
  const [capability] = createScriptedModel().capabilities;
  if (!capability) throw new Error('run panel: the scripted model offers no capability');
  const { text } = (await capability.run({ messages: [] }, { purpose })) as { text: string };
  return JSON.stringify(JSON.parse(text), null, 2);
}

const fields = [PLAN_FIELD, REVIEW_FIELD] as const;

export const definition: RunDefinition = {
  id: 'getting-started',
  messageLabel: 'Incoming message',
  presets: [
    { id: 'example', label: "The example's script" },
    { id: 'failing-step', label: "A step fails: the model does not answer the reply's call" },
  ],
  failingPreset: 'failing-step',
  answerFields: fields,
  async initialInput(preset) {
    return {
      message: 'Hello, agent!',
      answers: { plan: await scriptedAnswer('plan'), review: await scriptedAnswer('review') },
      preset,
    };
  },
  editable: {
    file: 'examples/getting-started/assistant-plugin.ts',
    exportName: 'AssistantPlugin',
    load: () => import('./editor'),
  },
  async run(input, onEvent, _session, plugin = AssistantPlugin) {
    const [exampleCapability] = createScriptedModel().capabilities;
    if (!exampleCapability) throw new Error('run panel: the scripted model offers no capability');
    return observedRun({
      plugins: [new plugin()],
      async answer(_provider, messages, request) {
        if (request.purpose === 'plan') return input.answers.plan ?? '';
        if (request.purpose === 'review') return input.answers.review ?? '';
        if (input.preset === 'failing-step') throw new Error(PRESET_FAILURE);
        const { text } = (await exampleCapability.run({ messages: [...messages] }, request)) as {
          text: string;
        };
        return text;
      },
      dispatch: (runtime) =>
        runtime.dispatch({
          pluginId: 'assistant',
          triggerId: 'message',
          space: spaceId('user', USER),
          message: input.message,
        }),
      onEvent,
    });
  },
};
