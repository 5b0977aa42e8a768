/**
 * The run of the chat tutorial's panel: the tutorial's `ConversationPlugin`
 * (examples/tutorial-chat/conversation-plugin.ts, with its history reader) and the options of its
 * `createChatAgent` (a planner and a writer model, review on failure), with two scripted
 * providers in place of the OpenAI-compatible ones and the in-memory memory provider in place of
 * SQLite. The writer answers as the tutorial's test server does: it quotes the message and counts
 * the earlier messages it was shown.
 *
 * The memory lasts as long as the panel: each run is one more message of the same conversation,
 * so the writer sees the earlier ones, as the tutorial's agent does. Choosing a preset starts a
 * new conversation.
 *
 * The reader may edit the plugin's file; the panel constructs their class with the options the
 * run gives the file's.
 */
import { spaceId } from '@weft/core';

import { ConversationPlugin } from '../../../../../examples/tutorial-chat/conversation-plugin';
import { PLAN_FIELD, REVIEW_FIELD, asJson } from '../../run/answers';
import { PLUGIN_EDIT_LABEL, type RunDefinition } from '../../run/definition';
import { ObservedMemory } from '../../run/observed-memory';
import { observedRun } from '../../run/observed-run';

/**
 * The provider ids of examples/tutorial-chat/models.ts, which also builds the OpenAI providers
 * a page must not load; tests/unit/run-panel.test.ts holds these to that file's.
 */
export const PLANNER_ID = 'planner';
export const WRITER_ID = 'writer';

/** The plugin's options, as createChatAgent passes them. */
const PLUGIN_OPTIONS = { writerProvider: WRITER_ID };

/** The conversation id the route's path would carry. */
const CONVERSATION = 'reader';

/** The error the failing preset's writer call throws; it is the step's error item. */
export const WRITER_FAILURE = 'The writer model did not answer (the failing preset).';

export const definition: RunDefinition = {
  id: 'chat',
  messageLabel: 'Your message (each run adds one to the same conversation)',
  presets: [
    { id: 'example', label: 'The planner plans, the writer answers' },
    { id: 'writer-down', label: 'A step fails: the writer model does not answer' },
  ],
  failingPreset: 'writer-down',
  // pipelineReview 'on-failure' (see run below): the review follows a failed step only.
  answerFields: [
    PLAN_FIELD,
    { ...REVIEW_FIELD, label: "The model's review answer (JSON, asked for after a failed step)" },
  ],
  async initialInput(preset) {
    return {
      message: 'My name is Ada.',
      answers: {
        plan: asJson({
          steps: [{ pluginId: 'conversation', action: 'answer', reason: 'a new message' }],
        }),
        review: asJson({ type: 'stop', reason: 'The writer is down; tell the user to retry.' }),
      },
      preset,
    };
  },
  newSession: () => ({ memory: new ObservedMemory() }),
  editable: {
    file: 'examples/tutorial-chat/conversation-plugin.ts',
    exportName: 'ConversationPlugin',
    editLabel: PLUGIN_EDIT_LABEL,
    constructorArgs: [PLUGIN_OPTIONS],
    load: () => import('./editor'),
  },
  run(input, onEvent, session, plugin) {
    const Conversation = (plugin as typeof ConversationPlugin | undefined) ?? ConversationPlugin;
    return observedRun({
      plugins: [new Conversation(PLUGIN_OPTIONS)],
      providers: [PLANNER_ID, WRITER_ID],
      options: {
        // As createChatAgent sets them: planning goes to the planner, review only on failure.
        defaultProviders: { 'text-generation': PLANNER_ID },
        pipelineReview: 'on-failure',
      },
      ...(session ? { memory: session.memory } : {}),
      answer(provider, messages, request) {
        if (provider === PLANNER_ID) {
          return (request.purpose === 'review' ? input.answers.review : input.answers.plan) ?? '';
        }
        if (input.preset === 'writer-down') throw new Error(WRITER_FAILURE);
        const users = messages.filter((message) => message.role === 'user');
        return `You said "${users.at(-1)?.content}" after ${users.length - 1} earlier message(s).`;
      },
      dispatch: (runtime) =>
        runtime.dispatch({
          pluginId: 'conversation',
          triggerId: 'message',
          space: spaceId('conversation', CONVERSATION),
          message: input.message,
        }),
      onEvent,
    });
  },
};
