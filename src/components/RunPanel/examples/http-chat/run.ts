/**
 * The run of the HTTP chat page's panel: the page's agent
 * (examples/building-plugins/http-chat/chat-agent.ts, whose plugin is `@weft/plugin-chat`'s
 * `ChatPlugin`) with a scripted model and the in-memory memory provider.
 *
 * A page serves no routes, so the run calls the plugin's own route handler with the JSON body a
 * client would post (src/components/RunPanel/run/route-call.ts): the handler checks the body,
 * dispatches the task and answers as it does over HTTP, and the panel shows that answer. The
 * body is checked with the plugin's `parseChatRequest` before the run, so a bad room, user or
 * message is named beside its input, with the 400 the route would answer.
 *
 * The page's agent takes a bearer token per user; the run holds one token, for the user in the
 * panel's field, and sends it as a client would, so the route's `authenticate` names that user.
 *
 * The editor opens `ChatPlugin`'s package source (./editor.ts): the run constructs
 * the reader's class with the options createChatPlugin gives the package's.
 *
 * The memory lasts as long as the panel, so each run is one more message in the room; the
 * scripted reply counts the earlier messages the planning prompt showed, which are the same
 * user's (rooms are private unless shared). Choosing a preset starts afresh.
 */
import type { AgentTask } from '@weft/core';
import { findReply, parseChatRequest, type ChatPlugin } from '@weft/plugin-chat';

import {
  CHAT_PATH,
  chatPluginOptions,
  createChatPlugin,
} from '../../../../../examples/building-plugins/http-chat/chat-agent';
import { callRoute } from '../../run/route-call';
import { PLAN_FIELD, REVIEW_FIELD, asJson } from '../../run/answers';
import { withDeadline } from '../../run/deadline';
import {
  PLUGIN_EDIT_LABEL,
  type AnswerProblem,
  type RunDefinition,
  type RunInput,
} from '../../run/definition';
import { ObservedMemory } from '../../run/observed-memory';
import { observedRun } from '../../run/observed-run';

/** The error the failing preset's reply call throws; it is the step's error item. */
export const MODEL_FAILURE = 'The model did not answer (the failing preset).';

/** An earlier message of the room, as the planning prompt lists it (core's render-related.ts). */
const EARLIER_MESSAGE = /^- .* UTC, space \S+, trigger chat\/message/gm;

/** The fields of the body, in the order a problem is attributed to them. */
const BODY_FIELDS = ['room', 'user', 'message'] as const;

/** The token the panel sends for the user in its field. */
const PANEL_TOKEN = 'run-panel';

/** How long the run waits for the dispatched task's end to be reported after the answer. */
const TASK_END_DEADLINE_MS = 5_000;

function requestBody(input: RunInput): { room: string; user: string; message: string } {
  return {
    room: input.fields?.room ?? '',
    user: input.fields?.user ?? '',
    message: input.message,
  };
}

/** The scripted reply: it quotes the message and says how many earlier ones the plan saw. */
export function scriptedReply(
  room: string,
  user: string,
  message: string,
  earlier: number,
): string {
  return `Hello ${user}, you wrote “${message}” (the plan saw ${earlier} earlier message(s) of room ${room}).`;
}

export const definition: RunDefinition = {
  id: 'http-chat',
  messageLabel: 'Message (each run posts one more to the same room)',
  inputFields: [
    { field: 'room', label: 'Room' },
    { field: 'user', label: 'User' },
  ],
  presets: [
    { id: 'example', label: 'The model plans chat.reply, then writes the reply' },
    { id: 'model-down', label: 'A step fails: the model does not write the reply' },
  ],
  failingPreset: 'model-down',
  answerFields: [PLAN_FIELD, REVIEW_FIELD],
  checkInput(input) {
    const parsed = parseChatRequest(requestBody(input));
    if (parsed.success) return [];
    const field = BODY_FIELDS.find((name) => parsed.error.includes(`"${name}"`)) ?? 'message';
    const problem: AnswerProblem = {
      field,
      message: `${field}: the route would answer 400 WEFT_CHAT_INVALID_REQUEST: ${parsed.error}`,
    };
    return [problem];
  },
  async initialInput(preset) {
    return {
      message: 'My name is Ada.',
      fields: { room: '42', user: 'ada' },
      answers: {
        plan: asJson({
          steps: [{ pluginId: 'chat', action: 'reply', reason: 'Answer the message.' }],
        }),
        review: asJson({
          type: 'stop',
          reason: 'The model is down; the route answers 502 and the user may send it again.',
        }),
      },
      preset,
    };
  },
  newSession: () => ({ memory: new ObservedMemory() }),
  // The page shows the agent that constructs the plugin; the plugin itself is the package's code,
  // so the editor opens its source, constructed as createChatPlugin constructs it.
  editable: {
    file: 'packages/plugin-chat/src/chat-plugin.ts',
    exportName: 'ChatPlugin',
    editLabel: PLUGIN_EDIT_LABEL,
    constructorArgs: [{ path: CHAT_PATH }],
    load: () => import('./editor'),
  },
  run(input, onEvent, session, edited) {
    const tokens = new Map([[PANEL_TOKEN, requestBody(input).user]]);
    const plugin = edited
      ? new (edited as typeof ChatPlugin)(chatPluginOptions(tokens))
      : createChatPlugin(tokens);
    const route = plugin.triggers.find((trigger) => trigger.type === 'route');
    if (route?.type !== 'route') throw new Error('the chat plugin has no route trigger');
    let earlier = 0;
    return observedRun({
      plugins: [plugin],
      ...(session ? { memory: session.memory } : {}),
      answer(_provider, messages, request) {
        const prompt = messages.map((message) => message.content).join('\n');
        if (request.purpose === 'plan') {
          earlier = prompt.match(EARLIER_MESSAGE)?.length ?? 0;
          return input.answers.plan ?? '';
        }
        if (request.purpose === 'review') return input.answers.review ?? '';
        if (input.preset === 'model-down') throw new Error(MODEL_FAILURE);
        const body = requestBody(input);
        return scriptedReply(body.room, body.user, body.message.trim(), earlier);
      },
      async dispatch(runtime, firstTaskEnded, report) {
        const answer = await callRoute(route, requestBody(input), runtime, crypto.randomUUID(), {
          authorization: `Bearer ${PANEL_TOKEN}`,
        });
        report({ kind: 'response', status: answer.status, body: asJson(answer.body) });
        const taskId = (answer.body as { taskId?: unknown }).taskId;
        if (typeof taskId !== 'string') {
          throw new Error(`the route answered ${answer.status} without running a task`);
        }
        return withDeadline<AgentTask>(firstTaskEnded, TASK_END_DEADLINE_MS, 'the task’s end');
      },
      replyOf: (task) => findReply(task, plugin.id),
      onEvent,
    });
  },
};
